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
#include "../model/analyses/fw_fit.h"
#include "../model/analyses/uncertainty.h"
#include "../model/analyses/val_groups.h"
#include "../model/analyses/validate.h"
#include "../report/plot_validate.h"
#include "../report/validate_report.h"
#include "cmd_validate.h"
#include "val_cases.h"
#include "cli_ctx.h"
#include "opts.h"
#include "plot_out.h"
#include "validate_campaigns.h"
#include "validate_fit.h"

static const char *const families[] = { "llm", "vision", "recsys", NULL };
static const char *const formats[] = { "table", "csv", "json", "md", NULL };

/* Cases are grouped by the file they come from, shown without folders. */
static const char *case_file(const struct val_case *c)
{
	const char *slash = strrchr(c->file, '/');
	return c->file[0] ? (slash ? slash + 1 : c->file) : c->source;
}

/* The family's headline: every counted run of it, whatever its set. */
static const char *case_family(const struct val_case *c)
{
	return c->family;
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

static void summary_release(struct rep_validate_summary *s)
{
	free(s->kept);
	free(s->files);
	free(s->gpus);
	free(s->frameworks);
	free(s->families);
	free(s->ratios);
	free(s->held_source);
	free(s->held_gpu);
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
 * turn, over the cases of `family` (NULL: all); with `held`, each case's
 * held-out error too, by its index in the set (NaN where it has none). */
static int cv_stats(const struct val_set *set, const char *family, fw_group_fn key,
		    struct gpu_catalog *cat, struct val_stats *st, double **held)
{
	struct val_result *r = malloc((set->count ? set->count : 1) * sizeof(*r));
	size_t m = 0, k = 0;
	if (!r || fw_cross_validate(set->cases, set->count, key, cli_catalog_gpu, cat, r, &m)) {
		free(r);
		return -1;
	}
	if (held) {
		*held = malloc((set->count ? set->count : 1) * sizeof(**held));
		if (!*held) {
			free(r);
			return -1;
		}
		for (size_t i = 0; i < set->count; i++)
			(*held)[i] = nan("");
		for (size_t i = 0; i < m; i++)
			if (r[i].ok)
				(*held)[r[i].index] = r[i].err_frac;
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
			 struct gpu_catalog *cat, struct rep_validate_summary *s)
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
		if (!res[i].ok || !c->framework[0] || cli_catalog_gpu(c->gpu_id, &g, cat))
			continue;
		gpu_resolve(&g, &g, &c->stack, NULL);
		if (unc_run(&c->w, &g, &spec, &uw, &u, &why))
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
			   const char *family, int loo, struct gpu_catalog *cat, struct rep_validate_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->kept = malloc((n ? n : 1) * sizeof(*s->kept));
	if (!s->kept)
		return -1;
	s->nkept = cli_validate_counted(set, res, n, s->kept);
	s->nsanity = n - s->nkept;
	res = s->kept;
	n = s->nkept;
	if (val_stats_compute(res, n, &s->all))
		return -1;
	s->nfiles = val_group_by(set->cases, res, n, case_file, &s->files);
	s->ngpus = val_group_by(set->cases, res, n, cli_case_gpu, &s->gpus);
	s->nframeworks = val_group_by(set->cases, res, n, case_framework, &s->frameworks);
	s->nfamilies = val_group_by(set->cases, res, n, case_family, &s->families);
	if (s->nfiles < 0 || s->ngpus < 0 || s->nframeworks < 0 || s->nfamilies < 0 ||
	    val_ratios(set->cases, res, n, case_pair, &s->ratios, &s->nratios) ||
	    val_ratio_stats(s->ratios, s->nratios, &s->ratio_st) ||
	    (loo && band_coverage(set, res, n, cat, s)) ||
	    (loo && (cv_stats(set, family, cv_source, cat, &s->loso, &s->held_source) ||
		     cv_stats(set, family, cv_gpu, cat, &s->logo, &s->held_gpu) ||
		     cv_stats(set, "llm", cv_source, cat, &s->loso_llm, NULL) ||
		     cv_stats(set, "llm", cv_gpu, cat, &s->logo_llm, NULL))))
		return -1;
	return 0;
}

/* The command line of validate, checked. */
struct validate_args {
	const char *family, *cases_dir, *format, *cv, *gpu_id, *plot;
	int verbose, fit_fw, loo, campaigns;
	int folds; /* --cross-validate's K, or 0 */
};

/* Parse and check validate's command line into *a.  Returns 0, an exit
 * code after printing the problem, or CLI_HELP_SHOWN after --help. */
static int parse_args(struct cli_ctx *ctx, int argc, char **argv, struct validate_args *a)
{
	memset(a, 0, sizeof(*a));
	a->format = "table";
	const struct cli_opt opts[] = {
		CLI_CHOICE("family", &a->family, families, "F", "only cases of this family"),
		CLI_VALUE("cases", &a->cases_dir, "DIR", "the folder of measured cases"),
		CLI_CHOICE("format", &a->format, formats, "F", "output format"),
		CLI_FLAG("verbose", &a->verbose, "one row per case, not only per case file"),
		CLI_VALUE("cross-validate", &a->cv, "K",
			  "calibrate on K-1 folds of one GPU's cases, report the error on the fold "
			  "held out (see `traincost calibrate`)"),
		CLI_VALUE("gpu", &a->gpu_id, "ID",
			  "the GPU whose cases are cross-validated (default: the first case's)"),
		CLI_FLAG("fit-frameworks", &a->fit_fw,
			 "fit stack_frac of every framework on the runs that name it and print "
			 "the values models/framework/ ships"),
		CLI_FLAG("loo", &a->loo,
			 "also cross-validate the framework fit: leave one source out and leave "
			 "one GPU type out, refitting stack_frac each time"),
		CLI_VALUE("plot", &a->plot, "FILE",
			  "also draw predicted against measured as an SVG chart into FILE"),
		CLI_FLAG("campaigns", &a->campaigns,
			 "the wall clock of training campaigns whose wall clock was observed "
			 "against the campaign model (campaigns/ of the cases folder)"),
		{ 0 },
	};
	char *pos[CLI_MAX_POS];
	int npos;
	int rc = cli_parse(ctx, "validate", argc, argv, opts, pos, &npos);
	if (rc)
		return rc;
	if (npos)
		return cli_usage_error(ctx, "validate", "unexpected argument '%s' (expected options only)",
				       pos[0]);
	if ((rc = plot_out_check(ctx, "validate", a->plot)))
		return rc;
	/* The fitting modes use none of the summary's options: a pair that
	 * cannot go together is refused, never silently ignored. */
	const char *mode = a->cv ? "--cross-validate" : a->fit_fw ? "--fit-frameworks" :
			   a->campaigns ? "--campaigns" : NULL;
	const char *clash = a->plot ? "--plot" : a->loo ? "--loo" : a->verbose ? "--verbose" :
			    a->family ? "--family" : a->cv && a->fit_fw ? "--fit-frameworks" :
			    a->campaigns && (a->cv || a->fit_fw) ? "--campaigns" : NULL;
	if (mode && clash)
		return cli_usage_error(ctx, "validate", "%s and %s exclude each other (expected one of them)",
				       clash, mode);
	if (a->gpu_id && !a->cv)
		return cli_usage_error(ctx, "validate", "--gpu needs --cross-validate (it names the GPU "
				       "whose cases are cross-validated)");
	if (a->cv && cli_int_arg(ctx, "validate", "cross-validate", a->cv, 2, 100, &a->folds))
		return TC_EXIT_USAGE;
	return 0;
}

int cmd_validate(int argc, char **argv, struct cli_ctx *ctx)
{
	struct validate_args a;
	int rc = parse_args(ctx, argc, argv, &a);
	if (rc)
		return rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;
	const char *cases_dir = a.cases_dir, *format = a.format, *family = a.family;

	struct tc_diag d;
	struct val_set set;
	struct gpu_catalog cat = { 0 };
	struct val_result *res = NULL;
	struct rep_validate_summary sum = { 0 };
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
	if (a.campaigns) {
		rc = cli_validate_campaigns(ctx, format, cases_dir, &cat);
		goto out;
	}
	if (a.folds) {
		rc = cli_validate_cross(ctx, format, &set, &cat, a.gpu_id, a.folds);
		goto out;
	}
	if (a.fit_fw) {
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
	if (summary_compute(&set, res, n, family, a.loo, &cat, &sum)) {
		fputs("traincost validate: out of memory\n", ctx->err);
		rc = TC_EXIT_INTERNAL;
		goto out;
	}
	if (a.plot) {
		struct svg s;
		plot_validate(&s, 1, set.cases, res, n);
		if ((rc = plot_out_write(ctx, "validate", &s, a.plot)))
			goto out;
	}
	rc = rep_validate_report(ctx->out, format, &set, res, n, &sum, a.verbose);
	if (rc) {
		fputs("traincost validate: internal error: a non-finite error statistic\n", ctx->err);
		rc = TC_EXIT_INTERNAL;
	} else if (!strcmp(format, "table") && !family) {
		rc = cli_validate_campaigns_line(ctx, cases_dir, &cat);
	}
out:
	summary_release(&sum);
	free(res);
	val_set_release(&set);
	gpu_catalog_release(&cat);
	return rc;
}
