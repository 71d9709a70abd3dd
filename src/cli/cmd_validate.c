/*
 * cmd_validate.c - `traincost validate`: the model against published,
 * measured training runs, with its error in numbers.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../io/fw_load.h"
#include "../io/gpu_load.h"
#include "../io/val_load.h"
#include "../model/fw_fit.h"
#include "../model/uncertainty.h"
#include "../model/val_groups.h"
#include "../model/validate.h"
#include "../report/json.h"
#include "../report/plot.h"
#include "../report/table.h"
#include "cli.h"
#include "opts.h"
#include "plot_out.h"
#include "validate_fit.h"

static const char *const families[] = { "llm", "vision", "recsys", NULL };
static const char *const formats[] = { "table", "csv", "json", "md", NULL };

/* Validation cases are found like the catalog (datapath.h): in each data
 * root, a source tree's tests/validation or an installation's validation. */
int cli_validation_dir(const struct cli_ctx *ctx, char *out, size_t outlen)
{
	static const char *const subs[] = { "tests/validation", "validation", NULL };
	return dp_find_dir(&ctx->data, subs, out, outlen);
}

/* GPUs come from the catalog, with its efficiency parameters. */
int cli_catalog_gpu(const char *id, struct gpu *out, void *ctx)
{
	char why[512];
	return gpu_catalog_lookup(ctx, id, out, why, sizeof(why));
}

/* Cases are grouped by the file they come from, shown without folders. */
static const char *case_file(const struct val_case *c)
{
	const char *slash = strrchr(c->file, '/');
	return c->file[0] ? (slash ? slash + 1 : c->file) : c->source;
}

static const char *case_gpu(const struct val_case *c)
{
	return c->gpu_id;
}

static const char *case_framework(const struct val_case *c)
{
	return c->framework;
}

/* The benchmark and stack a case shares with runs on other GPU types. */
static const char *case_pair(const struct val_case *c)
{
	return c->pair;
}

static const char *metric_unit_text(enum val_metric m, double v, char *buf, size_t len)
{
	switch (m) {
	case VAL_ITER_TIME: snprintf(buf, len, "%.1f ms", v * 1e3); break;
	case VAL_MEGATRON_TFLOPS: snprintf(buf, len, "%.1f TFLOP/s", v / 1e12); break;
	case VAL_MFU: snprintf(buf, len, "%.1f %%", v * 100); break;
	case VAL_TOKENS_PER_S: snprintf(buf, len, "%.0f tokens/s", v); break;
	case VAL_SAMPLES_PER_S: snprintf(buf, len, "%.0f samples/s", v); break;
	case VAL_IMAGES_PER_S: snprintf(buf, len, "%.0f images/s", v); break;
	default: snprintf(buf, len, "%.4g", v); break;
	}
	return buf;
}

/* Each case's software stack, from models/framework/. */
int cli_resolve_frameworks(struct cli_ctx *ctx, struct val_set *set, struct tc_diag *d)
{
	struct fw_catalog fws;
	char why[512];
	int rc = 0;

	if (fw_catalog_load(&ctx->data, &fws, d))
		return -1;
	for (size_t i = 0; i < set->count; i++) {
		struct val_case *c = &set->cases[i];
		if (!c->framework[0])
			continue;
		const struct framework *f = fw_catalog_find(&fws, c->framework, why, sizeof(why));
		if (f)
			c->w.plan.framework = f->layer;
		else
			rc = tc_diag_at(d, TC_EXIT_INPUT, c->file, c->line, 1, "%s", why);
	}
	fw_catalog_release(&fws);
	return rc;
}

/* Everything the summary shows, computed once for every format. */
struct summary {
	struct val_result *kept; /* the results counted: sanity-only cases left out */
	size_t nkept, nsanity;
	struct val_stats all;
	struct val_group *files, *gpus, *frameworks;
	int nfiles, ngpus, nframeworks;
	struct val_ratio *ratios;
	size_t nratios;
	struct val_stats ratio_st;
	struct val_stats loso, logo; /* held-out errors of the framework fit */
	struct val_stats loso_llm, logo_llm; /* the same, language models only */
	size_t band_n, band_in;    /* runs whose measurement the P10-P90 band holds */
	size_t band_llm_n, band_llm_in; /* the same, language models only */
};

static void summary_release(struct summary *s)
{
	free(s->kept);
	free(s->files);
	free(s->gpus);
	free(s->frameworks);
	free(s->ratios);
}

/* Group keys of the cross-validation folds; one call at a time. */
static const char *cv_source(const struct val_case *c)
{
	static char buf[VAL_SOURCE_LEN];
	return fw_source_group(c, buf, sizeof(buf));
}

static const char *cv_gpu(const struct val_case *c)
{
	return c->gpu_id;
}

/* Held-out error of the framework fit with groups of `key` left out in
 * turn, over the cases of `family` (NULL: all). */
static int cv_stats(const struct val_set *set, const char *family, fw_group_fn key,
		    struct gpu_catalog *cat, struct val_stats *st)
{
	struct val_result *r = malloc((set->count ? set->count : 1) * sizeof(*r));
	size_t m = 0, k = 0;
	if (!r || fw_cross_validate(set->cases, set->count, key, cli_catalog_gpu, cat, r, &m)) {
		free(r);
		return -1;
	}
	for (size_t i = 0; i < m; i++)
		if (!family || !strcmp(set->cases[r[i].index].family, family))
			r[k++] = r[i];
	int rc = val_stats_compute(r, k, st);
	free(r);
	return rc;
}

/*
 * How many of the counted runs that name a framework fall inside the
 * model's own P10-P90 band (`estimate --uncertainty` with its defaults):
 * the band is honest when about 80 % do.  A measurement is compared as the
 * step time it implies: the point estimate over the speed error.
 */
static int band_coverage(const struct val_set *set, const struct val_result *res, size_t n,
			 struct gpu_catalog *cat, struct summary *s)
{
	struct unc_spec spec;
	struct unc_workspace uw;
	unc_spec_default(&spec);
	if (unc_workspace_init(&uw, spec.samples))
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct val_case *c = &set->cases[res[i].index];
		struct unc_result u;
		struct plan_problem why;
		struct gpu g;
		if (!res[i].ok || !c->framework[0] || cli_catalog_gpu(c->gpu_id, &g, cat) ||
		    unc_run(&c->w, &g, &spec, &uw, &u, &why))
			continue;
		double t = u.point_step_s / val_speed_factor(c, &res[i]);
		int in = t >= u.step_s.p10 && t <= u.step_s.p90;
		s->band_n++;
		s->band_in += in;
		if (!strcmp(c->family, "llm")) {
			s->band_llm_n++;
			s->band_llm_in += in;
		}
	}
	unc_workspace_release(&uw);
	return 0;
}

static int summary_compute(const struct val_set *set, const struct val_result *res, size_t n,
			   const char *family, int loo, struct gpu_catalog *cat, struct summary *s)
{
	memset(s, 0, sizeof(*s));
	s->kept = malloc((n ? n : 1) * sizeof(*s->kept));
	if (!s->kept)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (set->cases[res[i].index].sanity_only)
			s->nsanity++;
		else
			s->kept[s->nkept++] = res[i];
	}
	res = s->kept;
	n = s->nkept;
	if (val_stats_compute(res, n, &s->all))
		return -1;
	s->nfiles = val_group_by(set->cases, res, n, case_file, &s->files);
	s->ngpus = val_group_by(set->cases, res, n, case_gpu, &s->gpus);
	s->nframeworks = val_group_by(set->cases, res, n, case_framework, &s->frameworks);
	if (s->nfiles < 0 || s->ngpus < 0 || s->nframeworks < 0 ||
	    val_ratios(set->cases, res, n, case_pair, &s->ratios, &s->nratios) ||
	    val_ratio_stats(s->ratios, s->nratios, &s->ratio_st) ||
	    (loo && band_coverage(set, res, n, cat, s)) ||
	    (loo && (cv_stats(set, family, cv_source, cat, &s->loso) ||
		     cv_stats(set, family, cv_gpu, cat, &s->logo) ||
		     cv_stats(set, "llm", cv_source, cat, &s->loso_llm) ||
		     cv_stats(set, "llm", cv_gpu, cat, &s->logo_llm))))
		return -1;
	return 0;
}

static void json_stats(struct rep_json *j, const struct val_stats *st)
{
	rep_json_int(j, "cases", (long long)st->n);
	rep_json_num(j, "mape_frac", st->mape);
	rep_json_num(j, "median_ape_frac", st->median_ape);
	rep_json_num(j, "worst_ape_frac", st->worst_ape);
	rep_json_num(j, "bias_frac", st->bias);
}

static void json_groups(struct rep_json *j, const char *name, const char *key,
			const struct val_group *g, int ng)
{
	rep_json_arr_begin(j, name);
	for (int k = 0; k < ng; k++) {
		rep_json_obj_begin(j, NULL);
		rep_json_str(j, key, g[k].key);
		json_stats(j, &g[k].st);
		rep_json_obj_end(j);
	}
	rep_json_arr_end(j);
}

static int print_json(struct cli_ctx *ctx, const struct val_set *set,
		      const struct val_result *res, size_t n, const struct summary *s)
{
	struct rep_json j;
	rep_json_doc_begin(&j, ctx->out, "validate");
	rep_json_obj_begin(&j, "overall");
	json_stats(&j, &s->all);
	rep_json_int(&j, "failed", (long long)s->all.failed);
	rep_json_int(&j, "sanity_only", (long long)s->nsanity);
	rep_json_obj_end(&j);
	json_groups(&j, "files", "file", s->files, s->nfiles);
	json_groups(&j, "gpus", "gpu", s->gpus, s->ngpus);
	json_groups(&j, "frameworks", "framework", s->frameworks, s->nframeworks);
	rep_json_obj_begin(&j, "cross_validation");
	rep_json_obj_begin(&j, "leave_one_source_out");
	json_stats(&j, &s->loso);
	rep_json_obj_end(&j);
	rep_json_obj_begin(&j, "leave_one_gpu_type_out");
	json_stats(&j, &s->logo);
	rep_json_obj_end(&j);
	rep_json_int(&j, "band_runs", (long long)s->band_n);
	rep_json_int(&j, "band_inside", (long long)s->band_in);
	rep_json_obj_begin(&j, "llm_leave_one_source_out");
	json_stats(&j, &s->loso_llm);
	rep_json_obj_end(&j);
	rep_json_obj_begin(&j, "llm_leave_one_gpu_type_out");
	json_stats(&j, &s->logo_llm);
	rep_json_obj_end(&j);
	rep_json_obj_end(&j);
	rep_json_obj_begin(&j, "speed_ratios");
	rep_json_int(&j, "pairs", (long long)s->ratio_st.n);
	rep_json_num(&j, "mape_frac", s->ratio_st.mape);
	rep_json_num(&j, "median_ape_frac", s->ratio_st.median_ape);
	rep_json_num(&j, "worst_ape_frac", s->ratio_st.worst_ape);
	rep_json_arr_begin(&j, "pairs_list");
	for (size_t k = 0; k < s->nratios; k++) {
		const struct val_ratio *r = &s->ratios[k];
		rep_json_obj_begin(&j, NULL);
		rep_json_str(&j, "pair", case_pair(&set->cases[s->kept[r->a].index]));
		rep_json_str(&j, "case_a", set->cases[s->kept[r->a].index].id);
		rep_json_str(&j, "case_b", set->cases[s->kept[r->b].index].id);
		if (r->measured > 0)
			rep_json_num(&j, "measured_speed_ratio", r->measured);
		rep_json_num(&j, "error_frac", r->err_frac);
		rep_json_obj_end(&j);
	}
	rep_json_arr_end(&j);
	rep_json_obj_end(&j);
	rep_json_arr_begin(&j, "cases");
	for (size_t i = 0; i < n; i++) {
		const struct val_case *c = &set->cases[res[i].index];
		rep_json_obj_begin(&j, NULL);
		rep_json_str(&j, "case", c->id);
		rep_json_str(&j, "source", c->source);
		rep_json_str(&j, "gpu", c->gpu_id);
		rep_json_str(&j, "framework", c->framework);
		rep_json_bool(&j, "sanity_only", c->sanity_only);
		rep_json_str(&j, "metric", val_metric_names[c->metric]);
		rep_json_num(&j, "measured", res[i].measured);
		if (res[i].ok) {
			rep_json_num(&j, "predicted", res[i].predicted);
			rep_json_num(&j, "error_frac", res[i].err_frac);
		} else {
			rep_json_str(&j, "error", res[i].msg);
		}
		rep_json_obj_end(&j);
	}
	rep_json_arr_end(&j);
	rep_json_obj_end(&j);
	return rep_json_finish(&j);
}

static void stats_cells(const struct val_stats *st, char cnt[24], char mape[24], char med[24],
			char worst[24], char bias[24])
{
	snprintf(cnt, 24, "%zu", st->n);
	snprintf(mape, 24, "%.2f %%", 100 * st->mape);
	snprintf(med, 24, "%.2f %%", 100 * st->median_ape);
	snprintf(worst, 24, "%.1f %%", 100 * st->worst_ape);
	snprintf(bias, 24, "%+.1f %%", 100 * st->bias);
}

/* One summary table: a row per group, and the total when `all` is given. */
static int print_groups(struct cli_ctx *ctx, const char *fmt, const char *title,
			const struct val_group *g, int ng, const struct val_stats *all)
{
	const char *const head[] = { title, "cases", "MAPE", "median", "worst", "bias" };
	static const enum rep_align al[] = { REP_LEFT, REP_RIGHT, REP_RIGHT, REP_RIGHT,
					     REP_RIGHT, REP_RIGHT };
	struct rep_table t;
	rep_table_init(&t, 6, head, al);
	for (int k = 0; k < ng + (all != NULL); k++) {
		const struct val_stats *st = k < ng ? &g[k].st : all;
		char cnt[24], mape[24], med[24], worst[24], bias[24];
		stats_cells(st, cnt, mape, med, worst, bias);
		const char *cells[6] = { k < ng ? g[k].key : "all cases", cnt, mape, med, worst,
					 bias };
		rep_table_row(&t, cells);
	}
	int rc = rep_table_print(&t, ctx->out, fmt);
	rep_table_release(&t);
	return rc;
}

/* The A/B speed ratios of the same benchmark on two GPU types. */
static int print_ratios(struct cli_ctx *ctx, const char *fmt, const struct val_set *set,
			const struct summary *s)
{
	const struct val_result *res = s->kept;
	static const char *const head[] = { "benchmark", "GPU A", "GPU B", "measured A/B per GPU",
					    "predicted", "error" };
	static const enum rep_align al[] = { REP_LEFT, REP_LEFT, REP_LEFT, REP_RIGHT,
					     REP_RIGHT, REP_RIGHT };
	struct rep_table t;
	rep_table_init(&t, 6, head, al);
	for (size_t k = 0; k < s->nratios; k++) {
		const struct val_ratio *r = &s->ratios[k];
		const struct val_case *a = &set->cases[res[r->a].index];
		const struct val_case *b = &set->cases[res[r->b].index];
		char m[32] = "-", p[32] = "-", e[32];
		if (r->measured > 0) {
			snprintf(m, sizeof(m), "%.2fx", r->measured);
			snprintf(p, sizeof(p), "%.2fx", r->measured * (1 + r->err_frac));
		}
		snprintf(e, sizeof(e), "%+.1f %%", 100 * r->err_frac);
		const char *cells[6] = { case_pair(a), a->gpu_id, b->gpu_id, m, p, e };
		rep_table_row(&t, cells);
	}
	fputs("\nSpeed ratios: the same benchmark and stack on two GPU types (error of the "
	      "predicted A/B speed ratio)\n\n", ctx->out);
	int rc = rep_table_print(&t, ctx->out, fmt);
	rep_table_release(&t);
	fprintf(ctx->out, "\nratio error over %zu pairs: mean %.1f %%, median %.1f %%, worst %.1f %%\n",
		s->ratio_st.n, 100 * s->ratio_st.mape, 100 * s->ratio_st.median_ape,
		100 * s->ratio_st.worst_ape);
	return rc;
}

/* The CSV: one row per case with the JSON's fields; measured and predicted
 * in the unit the metric names, empty where the prediction failed. */
static int print_cases_csv(struct cli_ctx *ctx, const struct val_set *set,
			   const struct val_result *res, size_t n)
{
	static const char *const head[] = { "case", "source", "gpu", "framework", "sanity_only",
		"metric", "measured", "predicted", "error_frac", "error" };
	static const enum rep_align al[10] = { REP_LEFT };
	struct rep_table t;
	rep_table_init(&t, 10, head, al);
	for (size_t i = 0; i < n; i++) {
		const struct val_case *c = &set->cases[res[i].index];
		char m[48], p[48] = "", e[48] = "";
		snprintf(m, sizeof(m), "%.6g", res[i].measured);
		if (res[i].ok) {
			snprintf(p, sizeof(p), "%.6g", res[i].predicted);
			snprintf(e, sizeof(e), "%.6g", res[i].err_frac);
		}
		const char *cells[10] = { c->id, c->source, c->gpu_id, c->framework,
					  c->sanity_only ? "true" : "false",
					  val_metric_names[c->metric], m, p, e,
					  res[i].ok ? "" : res[i].msg };
		rep_table_row(&t, cells);
	}
	int rc = rep_table_print(&t, ctx->out, "csv");
	rep_table_release(&t);
	return rc;
}

static int print_tables(struct cli_ctx *ctx, const char *fmt, const struct val_set *set,
			const struct val_result *res, size_t n, const struct summary *s,
			int verbose)
{
	int csv = !strcmp(fmt, "csv");
	int rc = 0;
	if (csv)
		return print_cases_csv(ctx, set, res, n);
	if (verbose) {
		static const char *const head[] = { "case", "gpu", "metric", "measured",
						    "predicted", "error" };
		static const enum rep_align al[] = { REP_LEFT, REP_LEFT, REP_LEFT,
						     REP_RIGHT, REP_RIGHT, REP_RIGHT };
		struct rep_table t;
		rep_table_init(&t, 6, head, al);
		for (size_t i = 0; i < n; i++) {
			const struct val_case *c = &set->cases[res[i].index];
			char m[48], p[48], e[48];
			metric_unit_text(c->metric, res[i].measured, m, sizeof(m));
			metric_unit_text(c->metric, res[i].predicted, p, sizeof(p));
			snprintf(e, sizeof(e), "%+.1f %%%s", 100 * res[i].err_frac,
				 c->sanity_only ? " (sanity only)" : "");
			const char *cells[6] = { c->id, c->gpu_id, val_metric_names[c->metric],
						 m, res[i].ok ? p : "failed",
						 res[i].ok ? e : res[i].msg };
			rep_table_row(&t, cells);
		}
		rc |= rep_table_print(&t, ctx->out, fmt);
		rep_table_release(&t);
		fputc('\n', ctx->out);
	}
	fputs("Predicted against measured (absolute percentage error; bias > 0: over-predicts)\n\n",
	      ctx->out);
	rc |= print_groups(ctx, fmt, "case file", s->files, s->nfiles, &s->all);
	if (s->ngpus > 1) {
		fputc('\n', ctx->out);
		rc |= print_groups(ctx, fmt, "GPU", s->gpus, s->ngpus, NULL);
	}
	if (s->nframeworks) {
		fputc('\n', ctx->out);
		rc |= print_groups(ctx, fmt, "framework", s->frameworks, s->nframeworks, NULL);
	}
	if (s->nratios)
		rc |= print_ratios(ctx, fmt, set, s);
	if (!s->loso.n && s->nframeworks)
		fputs("\nCross-validation of the framework fit (leave one source out, leave one GPU "
		      "type out): traincost validate --loo\n", ctx->out);
	if (s->loso.n)
		fprintf(ctx->out, "\nCross-validation of the framework fit over the %zu runs that name "
			"a framework (docs/model.md section 7):\n"
			"  leave one source out:   MAPE %.1f %%, median %.1f %%, worst %.1f %%\n"
			"  leave one GPU type out: MAPE %.1f %%, median %.1f %%, worst %.1f %%\n",
			s->loso.n, 100 * s->loso.mape, 100 * s->loso.median_ape,
			100 * s->loso.worst_ape, 100 * s->logo.mape, 100 * s->logo.median_ape,
			100 * s->logo.worst_ape);
	if (s->band_n)
		fprintf(ctx->out, "  the P10-P90 band of `estimate --uncertainty` holds %zu of %zu runs "
			"(%.0f %%; an honest band holds about 80 %%)\n", s->band_in, s->band_n,
			100.0 * (double)s->band_in / (double)s->band_n);
	/* Only where the cases shown hold language models (not --family vision). */
	if (s->loso_llm.n && s->loso_llm.n != s->loso.n && s->band_llm_n)
		fprintf(ctx->out, "  language models alone (%zu runs): leave one source out %.1f %%, "
			"leave one GPU type out %.1f %%, P10-P90 band holds %zu of %zu\n",
			s->loso_llm.n, 100 * s->loso_llm.mape, 100 * s->logo_llm.mape, s->band_llm_in,
			s->band_llm_n);
	if (s->all.n) {
		const struct val_result *r = &s->kept[s->all.worst];
		const struct val_case *w = &set->cases[r->index];
		char m[48], p[48];
		fprintf(ctx->out, "\nworst case: %s, measured %s, predicted %s\n", w->id,
			metric_unit_text(w->metric, r->measured, m, sizeof(m)),
			metric_unit_text(w->metric, r->predicted, p, sizeof(p)));
	}
	if (s->nsanity)
		fprintf(ctx->out, "%zu sanity-only case%s shown with --verbose, not counted (the "
			"case files say why)\n", s->nsanity, s->nsanity == 1 ? "" : "s");
	if (s->all.failed)
		fprintf(ctx->out, "%zu case%s could not be estimated (see --verbose)\n",
			s->all.failed, s->all.failed == 1 ? "" : "s");
	return rc;
}

int cmd_validate(int argc, char **argv, struct cli_ctx *ctx)
{
	const char *family = NULL, *cases_dir = NULL, *format = "table", *cv = NULL,
		   *gpu_id = NULL, *plot = NULL;
	int verbose = 0, fit_fw = 0, loo = 0;
	const struct cli_opt opts[] = {
		{ "family", &family, NULL, families },
		{ "cases", &cases_dir, NULL, NULL },
		{ "format", &format, NULL, formats },
		{ "verbose", NULL, &verbose, NULL },
		{ "cross-validate", &cv, NULL, NULL },
		{ "gpu", &gpu_id, NULL, NULL },
		{ "fit-frameworks", NULL, &fit_fw, NULL },
		{ "loo", NULL, &loo, NULL },
		{ "plot", &plot, NULL, NULL },
		{ NULL, NULL, NULL, NULL },
	};
	char *pos[CLI_MAX_POS];
	int npos;
	int rc = cli_parse(ctx, "validate", argc, argv, opts, pos, &npos);
	if (rc)
		return rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;
	if (npos)
		return cli_usage_error(ctx, "validate", "unexpected argument '%s' (expected options only)",
				       pos[0]);
	if ((rc = plot_out_check(ctx, "validate", plot)))
		return rc;
	/* The fitting modes use none of the summary's options: a pair that
	 * cannot go together is refused, never silently ignored. */
	const char *mode = cv ? "--cross-validate" : fit_fw ? "--fit-frameworks" : NULL;
	const char *clash = plot ? "--plot" : loo ? "--loo" : verbose ? "--verbose" :
			    family ? "--family" : cv && fit_fw ? "--fit-frameworks" : NULL;
	if (mode && clash)
		return cli_usage_error(ctx, "validate", "%s and %s exclude each other (expected one of them)",
				       clash, mode);
	if (gpu_id && !cv)
		return cli_usage_error(ctx, "validate", "--gpu needs --cross-validate (it names the GPU "
				       "whose cases are cross-validated)");
	int folds = 0;
	if (cv && cli_int_arg(ctx, "validate", "cross-validate", cv, 2, 100, &folds))
		return TC_EXIT_USAGE;

	struct tc_diag d;
	struct val_set set;
	struct gpu_catalog cat = { 0 };
	struct val_result *res = NULL;
	struct summary sum = { 0 };
	size_t n = 0;
	char found[DP_PATH_LEN + 32];
	if (!cases_dir) {
		if (cli_validation_dir(ctx, found, sizeof(found))) {
			fputs("traincost validate: no validation cases found (expected a folder tests/validation "
			      "or validation in a data folder, or --cases DIR; README: Data)\n", ctx->err);
			return TC_EXIT_IO;
		}
		cases_dir = found;
	}
	tc_diag_init(&d);
	val_set_init(&set);
	if (val_load_dir(cases_dir, &ctx->data, &set, &d) ||
	    gpu_catalog_load(&ctx->data, &cat, &d) || cli_resolve_frameworks(ctx, &set, &d)) {
		rc = cli_report(ctx, &d);
		goto out;
	}
	if (folds) {
		rc = cli_validate_cross(ctx, format, &set, &cat, gpu_id, folds);
		goto out;
	}
	if (fit_fw) {
		rc = cli_validate_fit_frameworks(ctx, format, &set, &cat);
		goto out;
	}
	res = malloc((set.count ? set.count : 1) * sizeof(*res));
	if (!res || val_run(set.cases, set.count, family, 1, 0, cli_catalog_gpu, &cat, res, &n)) {
		fputs("traincost validate: out of memory\n", ctx->err);
		rc = TC_EXIT_INTERNAL;
		goto out;
	}
	if (n == 0) {
		fprintf(ctx->err, "traincost validate: no %s%scases found\n",
			family ? family : "", family ? " " : "");
		rc = TC_EXIT_INPUT;
		goto out;
	}
	if (summary_compute(&set, res, n, family, loo, &cat, &sum)) {
		fputs("traincost validate: out of memory\n", ctx->err);
		rc = TC_EXIT_INTERNAL;
		goto out;
	}
	if (plot) {
		struct svg s;
		plot_validate(&s, 1, set.cases, res, n);
		if ((rc = plot_out_write(ctx, "validate", &s, plot)))
			goto out;
	}
	if (!strcmp(format, "json"))
		rc = print_json(ctx, &set, res, n, &sum);
	else
		rc = print_tables(ctx, format, &set, res, n, &sum, verbose);
	if (rc) {
		fputs("traincost validate: internal error: a non-finite error statistic\n", ctx->err);
		rc = TC_EXIT_INTERNAL;
	}
out:
	summary_release(&sum);
	free(res);
	val_set_release(&set);
	gpu_catalog_release(&cat);
	return rc;
}
