/*
 * cmd_validate.c - `traincost validate`: the model against published,
 * measured training runs, with its error in numbers.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../io/gpu_load.h"
#include "../io/val_load.h"
#include "../model/validate.h"
#include "../report/json.h"
#include "../report/plot.h"
#include "../report/table.h"
#include "cli.h"
#include "opts.h"
#include "plot_out.h"

#ifndef TC_DATADIR
#define TC_DATADIR "/usr/local/share/traincost"
#endif

static const char *const families[] = { "llm", "vision", "recsys", NULL };
static const char *const formats[] = { "table", "csv", "json", "md", NULL };

/* Cases of the working tree first, then the installed copy. */
const char *cli_validation_dir(void)
{
	struct stat st;
	if (stat("tests/validation", &st) == 0 && S_ISDIR(st.st_mode))
		return "tests/validation";
	return TC_DATADIR "/validation";
}

/* GPUs come from the catalog, with its efficiency parameters. */
int cli_catalog_gpu(const char *id, struct gpu *out, void *ctx)
{
	char why[512];
	return gpu_catalog_lookup(ctx, id, out, why, sizeof(why));
}

/* A summary row: the cases of one case file. */
struct group {
	const char *source; /* the file's name, borrowed from a case */
	struct val_stats st;
};

/* Cases are grouped by the file they come from, shown without folders. */
static const char *case_group(const struct val_case *c)
{
	const char *slash = strrchr(c->file, '/');
	return c->file[0] ? (slash ? slash + 1 : c->file) : c->source;
}

/*
 * Split results by source (in first-seen order) and compute each group's
 * statistics.  Returns the number of groups, or -1 when out of memory.
 */
static int group_by_source(const struct val_set *set, const struct val_result *res,
			   size_t n, struct group **out)
{
	struct group *g = calloc(n ? n : 1, sizeof(*g));
	struct val_result *sub = malloc((n ? n : 1) * sizeof(*sub));
	int ng = 0;
	if (!g || !sub)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		const char *src = case_group(&set->cases[res[i].index]);
		int k;
		for (k = 0; k < ng; k++)
			if (!strcmp(g[k].source, src))
				break;
		if (k < ng)
			continue;
		g[ng].source = src;
		size_t m = 0;
		for (size_t j = i; j < n; j++)
			if (!strcmp(case_group(&set->cases[res[j].index]), src))
				sub[m++] = res[j];
		if (val_stats_compute(sub, m, &g[ng].st))
			goto fail;
		ng++;
	}
	free(sub);
	*out = g;
	return ng;
fail:
	free(g);
	free(sub);
	return -1;
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

static int print_json(struct cli_ctx *ctx, const struct val_set *set,
		      const struct val_result *res, size_t n, const struct group *g,
		      int ng, const struct val_stats *all)
{
	struct rep_json j;
	rep_json_init(&j, ctx->out);
	rep_json_obj_begin(&j, NULL);
	rep_json_int(&j, "format_version", 1);
	rep_json_obj_begin(&j, "overall");
	rep_json_int(&j, "cases", (long long)all->n);
	rep_json_int(&j, "failed", (long long)all->failed);
	rep_json_num(&j, "mape_frac", all->mape);
	rep_json_num(&j, "median_ape_frac", all->median_ape);
	rep_json_num(&j, "worst_ape_frac", all->worst_ape);
	rep_json_num(&j, "bias_frac", all->bias);
	rep_json_obj_end(&j);
	rep_json_arr_begin(&j, "files");
	for (int k = 0; k < ng; k++) {
		rep_json_obj_begin(&j, NULL);
		rep_json_str(&j, "file", g[k].source);
		rep_json_int(&j, "cases", (long long)g[k].st.n);
		rep_json_num(&j, "mape_frac", g[k].st.mape);
		rep_json_num(&j, "median_ape_frac", g[k].st.median_ape);
		rep_json_num(&j, "worst_ape_frac", g[k].st.worst_ape);
		rep_json_num(&j, "bias_frac", g[k].st.bias);
		rep_json_obj_end(&j);
	}
	rep_json_arr_end(&j);
	rep_json_arr_begin(&j, "cases");
	for (size_t i = 0; i < n; i++) {
		const struct val_case *c = &set->cases[res[i].index];
		rep_json_obj_begin(&j, NULL);
		rep_json_str(&j, "id", c->id);
		rep_json_str(&j, "source", c->source);
		rep_json_str(&j, "gpu", c->gpu_id);
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

static int print_tables(struct cli_ctx *ctx, const char *fmt, const struct val_set *set,
			const struct val_result *res, size_t n, const struct group *g,
			int ng, const struct val_stats *all, int verbose)
{
	int csv = !strcmp(fmt, "csv");
	int rc = 0;
	if (verbose || csv) {
		static const char *const head[] = { "case", "gpu", "metric", "measured",
						    "predicted", "error" };
		static const char *const csv_head[] = { "case", "gpu", "metric", "measured",
							"predicted", "error_pct" };
		static const enum rep_align al[] = { REP_LEFT, REP_LEFT, REP_LEFT,
						     REP_RIGHT, REP_RIGHT, REP_RIGHT };
		struct rep_table t;
		rep_table_init(&t, 6, csv ? csv_head : head, al);
		for (size_t i = 0; i < n; i++) {
			const struct val_case *c = &set->cases[res[i].index];
			char m[48], p[48], e[48];
			if (csv) {
				snprintf(m, sizeof(m), "%.6g", res[i].measured);
				snprintf(p, sizeof(p), "%.6g", res[i].predicted);
				snprintf(e, sizeof(e), "%.2f", 100 * res[i].err_frac);
			} else {
				metric_unit_text(c->metric, res[i].measured, m, sizeof(m));
				metric_unit_text(c->metric, res[i].predicted, p, sizeof(p));
				snprintf(e, sizeof(e), "%+.1f %%", 100 * res[i].err_frac);
			}
			const char *cells[6] = { c->id, c->gpu_id, val_metric_names[c->metric],
						 m, res[i].ok ? p : "failed",
						 res[i].ok ? e : res[i].msg };
			rep_table_row(&t, cells);
		}
		rc |= rep_table_print(&t, ctx->out, fmt);
		rep_table_release(&t);
		if (csv)
			return rc;
		fputc('\n', ctx->out);
	}
	static const char *const shead[] = { "case file", "cases", "MAPE", "median",
					     "worst", "bias" };
	static const enum rep_align sal[] = { REP_LEFT, REP_RIGHT, REP_RIGHT, REP_RIGHT,
					      REP_RIGHT, REP_RIGHT };
	struct rep_table s;
	rep_table_init(&s, 6, shead, sal);
	for (int k = 0; k <= ng; k++) {
		const struct val_stats *st = k < ng ? &g[k].st : all;
		char cnt[24], mape[24], med[24], worst[24], bias[24];
		snprintf(cnt, sizeof(cnt), "%zu", st->n);
		snprintf(mape, sizeof(mape), "%.2f %%", 100 * st->mape);
		snprintf(med, sizeof(med), "%.2f %%", 100 * st->median_ape);
		snprintf(worst, sizeof(worst), "%.1f %%", 100 * st->worst_ape);
		snprintf(bias, sizeof(bias), "%+.1f %%", 100 * st->bias);
		const char *cells[6] = { k < ng ? g[k].source : "all cases", cnt, mape, med,
					 worst, bias };
		rep_table_row(&s, cells);
	}
	fputs("Predicted against measured (absolute percentage error; bias > 0: over-predicts)\n\n",
	      ctx->out);
	rc |= rep_table_print(&s, ctx->out, fmt);
	rep_table_release(&s);
	if (all->n) {
		const struct val_case *w = &set->cases[res[all->worst].index];
		char m[48], p[48];
		fprintf(ctx->out, "\nworst case: %s, measured %s, predicted %s\n", w->id,
			metric_unit_text(w->metric, res[all->worst].measured, m, sizeof(m)),
			metric_unit_text(w->metric, res[all->worst].predicted, p, sizeof(p)));
	}
	if (all->failed)
		fprintf(ctx->out, "%zu case%s could not be estimated (see --verbose)\n",
			all->failed, all->failed == 1 ? "" : "s");
	return rc;
}

/*
 * `--cross-validate K`: calibrate on K-1 folds of one GPU's cases and score
 * the held-out fold, so users see how calibration generalises.
 */
static int cross_validate(struct cli_ctx *ctx, const struct val_set *set,
			  const struct gpu_catalog *cat, const char *gpu_id, int k)
{
	struct gpu g;
	struct tc_diag d;
	char why[512];
	const char *id = gpu_id ? gpu_id : set->count ? set->cases[0].gpu_id : "";
	if (gpu_catalog_lookup(cat, id, &g, why, sizeof(why))) {
		fprintf(ctx->err, "traincost validate: %s\n", why);
		return TC_EXIT_INPUT;
	}
	struct val_cv_fold *f = calloc((size_t)k, sizeof(*f));
	if (!f) {
		fputs("traincost validate: out of memory\n", ctx->err);
		return TC_EXIT_INTERNAL;
	}
	tc_diag_init(&d);
	if (val_cross_validate(set->cases, set->count, &g, (size_t)k, NULL, f, &d)) {
		free(f);
		return cli_report(ctx, &d);
	}
	fprintf(ctx->out, "Cross-validation on %s, %d folds: calibrate on %d fold%s, test on the one held out\n\n",
		g.id, k, k - 1, k == 2 ? "" : "s");
	fprintf(ctx->out, "fold   fitted on   tested on   MAPE before   MAPE after   worst after\n");
	double before = 0, after = 0;
	size_t tested = 0;
	for (int i = 0; i < k; i++) {
		fprintf(ctx->out, "%4d %11zu %11zu %12.2f %% %10.2f %% %11.1f %%\n", i + 1, f[i].n_fit,
			f[i].n_test, 100 * f[i].before.mape, 100 * f[i].after.mape,
			100 * f[i].after.worst_ape);
		before += f[i].before.mape * (double)f[i].n_test;
		after += f[i].after.mape * (double)f[i].n_test;
		tested += f[i].n_test;
	}
	if (tested)
		fprintf(ctx->out, "\nheld-out MAPE: %.2f %% with the catalog's efficiencies, %.2f %% after calibration\n",
			100 * before / (double)tested, 100 * after / (double)tested);
	free(f);
	return TC_EXIT_OK;
}

int cmd_validate(int argc, char **argv, struct cli_ctx *ctx)
{
	const char *family = NULL, *cases_dir = NULL, *format = "table", *cv = NULL,
		   *gpu_id = NULL, *plot = NULL;
	int verbose = 0;
	const struct cli_opt opts[] = {
		{ "family", &family, NULL, families },
		{ "cases", &cases_dir, NULL, NULL },
		{ "format", &format, NULL, formats },
		{ "verbose", NULL, &verbose, NULL },
		{ "cross-validate", &cv, NULL, NULL },
		{ "gpu", &gpu_id, NULL, NULL },
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
	if (plot && cv)
		return cli_usage_error(ctx, "validate", "--plot and --cross-validate exclude each other (expected one of them)");
	int folds = 0;
	if (cv && cli_int_arg(ctx, "validate", "cross-validate", cv, 2, 100, &folds))
		return TC_EXIT_USAGE;

	struct tc_diag d;
	struct val_set set;
	struct gpu_catalog cat = { 0 };
	struct val_result *res = NULL;
	struct group *groups = NULL;
	size_t n = 0;
	tc_diag_init(&d);
	val_set_init(&set);
	if (val_load_dir(cases_dir ? cases_dir : cli_validation_dir(), &set, &d) ||
	    gpu_catalog_load(&ctx->data, &cat, &d)) {
		rc = cli_report(ctx, &d);
		goto out;
	}
	if (folds) {
		rc = cross_validate(ctx, &set, &cat, gpu_id, folds);
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
	struct val_stats all;
	int ng = group_by_source(&set, res, n, &groups);
	if (ng < 0 || val_stats_compute(res, n, &all)) {
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
		rc = print_json(ctx, &set, res, n, groups, ng, &all);
	else
		rc = print_tables(ctx, format, &set, res, n, groups, ng, &all, verbose);
	if (rc) {
		fputs("traincost validate: internal error: a non-finite error statistic\n", ctx->err);
		rc = TC_EXIT_INTERNAL;
	}
out:
	free(groups);
	free(res);
	val_set_release(&set);
	gpu_catalog_release(&cat);
	return rc;
}
