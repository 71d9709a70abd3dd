/*
 * validate_fit.c - the two fitting modes of `traincost validate`:
 * `--cross-validate K` (calibration on K-1 folds, scored on the one held
 * out) and `--fit-frameworks` (stack_frac of every framework).  Each
 * result is one set of rows (report/rows.h) shown in every --format.
 */
#include <stdlib.h>
#include <string.h>

#include "../io/gpu_load.h"
#include "../model/analyses/crossval.h"
#include "../model/analyses/fw_fit.h"
#include "../report/json.h"
#include "../report/rows.h"
#include "cli.h"
#include "validate_fit.h"

#define CMD "validate"

static const struct rep_col fold_cols[] = {
	{ "gpu", "GPU", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "fold", "fold", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "fitted_cases", "fitted on", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "tested_cases", "tested on", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	/* fractions, shown in the table as percentages */
	{ "before_mape_frac", "MAPE before", REP_COL_NUM, 100, 2, " %", NULL, NULL, 0, 0, 0 },
	{ "after_mape_frac", "MAPE after", REP_COL_NUM, 100, 2, " %", NULL, NULL, 0, 0, 0 },
	{ "after_worst_ape_frac", "worst after", REP_COL_NUM, 100, 1, " %", NULL, NULL, 0, 0, 0 },
};
#define FOLD_COLS (int)(sizeof(fold_cols) / sizeof(fold_cols[0]))

static const struct rep_col fit_cols[] = {
	{ "framework", "framework", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "pooled", "pooled", REP_COL_BOOL, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "fitted_runs", "runs", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "stack_frac", "stack_frac", REP_COL_NUM, 1, 3, NULL, NULL, NULL, 0, 0, 0 },
	{ "rms_log_error", "rms log error", REP_COL_NUM, 1, 3, NULL, NULL, NULL, 0, 0, 0 },
};
#define FIT_COLS (int)(sizeof(fit_cols) / sizeof(fit_cols[0]))

static int out_of_memory(struct cli_ctx *ctx)
{
	fputs("traincost validate: out of memory\n", ctx->err);
	return TC_EXIT_INTERNAL;
}

/* The folds' held-out error pooled over every tested case: each fold's
 * MAPE weighted by the cases it tested. */
struct held_out {
	size_t cases;
	double before_mape, after_mape;
};

static struct held_out pool_folds(const struct val_cv_fold *f, int k)
{
	struct held_out h = { 0 };
	double before = 0, after = 0;
	for (int i = 0; i < k; i++) {
		before += f[i].before.mape * (double)f[i].n_test;
		after += f[i].after.mape * (double)f[i].n_test;
		h.cases += f[i].n_test;
	}
	if (h.cases) {
		h.before_mape = before / (double)h.cases;
		h.after_mape = after / (double)h.cases;
	}
	return h;
}

static int print_folds(struct cli_ctx *ctx, const char *fmt, const char *gpu, int k,
		       const struct rep_rows *rows, const struct held_out *h)
{
	if (!strcmp(fmt, "json")) {
		struct rep_json j;
		rep_json_doc_begin(&j, ctx->out, "validate");
		int rc = rep_rows_json(rows, &j, "folds");
		if (h->cases) {
			rep_json_obj_begin(&j, "held_out");
			rep_json_int(&j, "cases", (long long)h->cases);
			rep_json_num(&j, "before_mape_frac", h->before_mape);
			rep_json_num(&j, "after_mape_frac", h->after_mape);
			rep_json_obj_end(&j);
		}
		rep_json_obj_end(&j);
		return rep_json_finish(&j) | rc;
	}
	if (!strcmp(fmt, "csv"))
		return rep_rows_print(rows, ctx->out, fmt);
	fprintf(ctx->out, "Cross-validation on %s, %d folds: calibrate on %d fold%s, test on the one "
		"held out\n\n", gpu, k, k - 1, k == 2 ? "" : "s");
	int rc = rep_rows_print(rows, ctx->out, fmt);
	if (h->cases)
		fprintf(ctx->out, "\nheld-out MAPE: %.2f %% with the catalog's efficiencies, %.2f %% "
			"after calibration\n", 100 * h->before_mape, 100 * h->after_mape);
	return rc;
}

int cli_validate_cross(struct cli_ctx *ctx, const char *fmt, const struct val_set *set,
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
	if (!f)
		return out_of_memory(ctx);
	tc_diag_init(&d);
	if (val_cross_validate(set->cases, set->count, &g, (size_t)k, NULL, f, &d)) {
		free(f);
		return cli_report(ctx, &d);
	}
	struct rep_rows rows;
	rep_rows_init(&rows, fold_cols, FOLD_COLS);
	for (int i = 0; i < k; i++) {
		const struct rep_cell cells[FOLD_COLS] = {
			{ .text = g.id },
			{ .num = i + 1 },
			{ .num = (double)f[i].n_fit },
			{ .num = (double)f[i].n_test },
			{ .num = f[i].before.mape },
			{ .num = f[i].after.mape },
			{ .num = f[i].after.worst_ape },
		};
		rep_rows_add(&rows, cells);
	}
	struct held_out h = pool_folds(f, k);
	int rc = print_folds(ctx, fmt, g.id, k, &rows, &h);
	rep_rows_release(&rows);
	free(f);
	if (rc) {
		fputs("traincost validate: internal error: a non-finite error statistic or out of "
		      "memory\n", ctx->err);
		return TC_EXIT_INTERNAL;
	}
	return TC_EXIT_OK;
}

/* Append one row per fit; pooled: the fits of the unnamed stacks. */
static void add_fits(struct rep_rows *rows, const struct fw_fit *fits, int nf, int pooled)
{
	for (int k = 0; k < nf; k++) {
		const struct rep_cell cells[FIT_COLS] = {
			{ .text = fits[k].id },
			{ .num = pooled },
			{ .num = (double)fits[k].n },
			{ .num = fits[k].stack_frac },
			{ .num = fits[k].rms_log },
		};
		rep_rows_add(rows, cells);
	}
}

/*
 * The fits of every framework on all counted runs into rows, then the
 * stack nobody named: every run of a family that names a framework,
 * pooled, with the defaults below the fitted rate (models/framework/
 * generic.yaml).  Returns 0, or -1 when out of memory.
 */
static int fit_rows(struct val_set *set, struct gpu_catalog *cat, struct rep_rows *rows)
{
	struct fw_fit fits[FW_FIT_MAX];
	size_t n = set->count ? set->count : 1;
	unsigned char *use = malloc(n);
	struct val_case *pool = malloc(n * sizeof(*pool));
	int nf = -1;
	if (!use || !pool)
		goto out;
	memset(use, 1, set->count);
	for (size_t i = 0; i < set->count; i++)
		set->cases[i].stack.set &= ~(1ULL << eff_id_stack_frac);
	if ((nf = fw_fit_shrunk(set->cases, set->count, use, cli_catalog_gpu, cat, fits,
				FW_FIT_MAX)) < 0)
		goto out;
	add_fits(rows, fits, nf, 0);
	memcpy(pool, set->cases, set->count * sizeof(*pool));
	for (size_t i = 0; i < set->count; i++) {
		struct val_case *c = &pool[i];
		if (c->framework[0])
			snprintf(c->framework, sizeof(c->framework), "generic-%s", c->family);
		memset(&c->w.plan.framework, 0, sizeof(c->w.plan.framework));
		memset(&c->stack, 0, sizeof(c->stack));
	}
	if ((nf = fw_fit_stack(pool, set->count, use, cli_catalog_gpu, cat, fits, FW_FIT_MAX)) < 0)
		goto out;
	add_fits(rows, fits, nf, 1);
out:
	free(use);
	free(pool);
	return nf < 0 || rows->failed ? -1 : 0;
}

int cli_validate_fit_frameworks(struct cli_ctx *ctx, const char *fmt, struct val_set *set,
				struct gpu_catalog *cat)
{
	struct rep_rows rows;
	int rc = 0;
	rep_rows_init(&rows, fit_cols, FIT_COLS);
	if (fit_rows(set, cat, &rows)) {
		rep_rows_release(&rows);
		return out_of_memory(ctx);
	}
	if (!strcmp(fmt, "json")) {
		struct rep_json j;
		rep_json_doc_begin(&j, ctx->out, "validate");
		rc = rep_rows_json(&rows, &j, "framework_fits");
		rep_json_obj_end(&j);
		rc |= rep_json_finish(&j);
	} else {
		rc = rep_rows_print(&rows, ctx->out, fmt);
		if (strcmp(fmt, "csv"))
			fputs("\nstack_frac: the compute rate each stack sustains against the defaults, "
			      "fitted on `runs` published runs; pooled: every run of the family that "
			      "names a framework, for the stack nobody named (docs/model.md)\n",
			      ctx->out);
	}
	rep_rows_release(&rows);
	if (rc) {
		fputs("traincost validate: internal error: a non-finite fitted value\n", ctx->err);
		return TC_EXIT_INTERNAL;
	}
	return TC_EXIT_OK;
}
