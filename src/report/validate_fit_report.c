/*
 * validate_fit_report.c - `validate --cross-validate K` and `validate
 * --fit-frameworks` in every format (validate_fit_report.h): each result
 * one set of rows (rows.h), the fields validate's other sets share from
 * the catalog (out_fields.h).
 */
#include "validate_fit_report.h"

#include <string.h>

#include "json.h"
#include "out_fields.h"
#include "record.h"
#include "rows.h"

static const struct rep_col fold_spec[] = {
	REP_FIELD_COL("gpu", REP_VIEW_ALL, 0),
	{ "fold", "fold", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "fitted_cases", "fitted on", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "tested_cases", "tested on", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	/* fractions, shown in the table as percentages */
	{ "before_mape_frac", "MAPE before", REP_COL_NUM, 100, 2, " %", NULL, NULL, 0, 0, 0 },
	{ "after_mape_frac", "MAPE after", REP_COL_NUM, 100, 2, " %", NULL, NULL, 0, 0, 0 },
	{ "after_worst_ape_frac", "worst after", REP_COL_NUM, 100, 1, " %", NULL, NULL, 0, 0, 0 },
};
#define FOLD_COLS (int)(sizeof(fold_spec) / sizeof(fold_spec[0]))

/* The held-out error over every tested case: the number of cases, and
 * the MAPE before and after calibration. */
static const struct rep_col held_spec[] = {
	REP_FIELD_COL("cases", REP_VIEW_ALL, 0),
	{ "before_mape_frac", "MAPE before", REP_COL_NUM, 100, 2, " %", NULL, NULL, 0, 0, 0 },
	{ "after_mape_frac", "MAPE after", REP_COL_NUM, 100, 2, " %", NULL, NULL, 0, 0, 0 },
};
#define HELD_COLS (int)(sizeof(held_spec) / sizeof(held_spec[0]))

static const struct rep_col fit_spec[] = {
	REP_FIELD_COL("framework", REP_VIEW_ALL, 0),
	{ "pooled", "pooled", REP_COL_BOOL, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "fitted_runs", "runs", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "stack_frac", "stack_frac", REP_COL_NUM, 1, 3, NULL, NULL, NULL, 0, 0, 0 },
	{ "rms_log_error", "rms log error", REP_COL_NUM, 1, 3, NULL, NULL, NULL, 0, 0, 0 },
};
#define FIT_COLS (int)(sizeof(fit_spec) / sizeof(fit_spec[0]))

/* The folds' held-out error pooled over every tested case: each fold's
 * MAPE weighted by the cases it tested, as cells of held_spec.  Returns
 * the number of cases. */
static size_t pool_folds(const struct val_cv_fold *f, int k, struct rep_cell *c)
{
	double before = 0, after = 0;
	size_t cases = 0;
	for (int i = 0; i < k; i++) {
		before += f[i].before.mape * (double)f[i].n_test;
		after += f[i].after.mape * (double)f[i].n_test;
		cases += f[i].n_test;
	}
	c[0] = (struct rep_cell){ .num = (double)cases };
	c[1] = (struct rep_cell){ .num = cases ? before / (double)cases : 0 };
	c[2] = (struct rep_cell){ .num = cases ? after / (double)cases : 0 };
	return cases;
}

/* The held-out error as the object "held_out" of j.  Returns 0, or -1
 * when an allocation failed. */
static int json_held_out(struct rep_json *j, const struct rep_cell *c)
{
	struct rep_col cols[HELD_COLS];
	struct rep_rows r;
	rep_rows_init(&r, cols, rep_fields_copy(cols, held_spec, HELD_COLS));
	rep_rows_add(&r, c);
	int rc = rep_record_json(&r, j, "held_out");
	rep_rows_release(&r);
	return rc;
}

/* Rows r and, when cases were tested, the held-out error h in fmt. */
static int print_folds(FILE *out, const char *fmt, const char *gpu, int k,
		       const struct rep_rows *r, const struct rep_cell *h, size_t cases)
{
	if (!strcmp(fmt, "json")) {
		struct rep_json j;
		rep_json_doc_begin(&j, out, "validate");
		int rc = rep_rows_json(r, &j, "folds");
		if (cases)
			rc |= json_held_out(&j, h);
		rep_json_obj_end(&j);
		return rep_json_finish(&j) | rc;
	}
	if (!strcmp(fmt, "csv"))
		return rep_rows_print(r, out, fmt);
	fprintf(out, "Cross-validation on %s, %d folds: calibrate on %d fold%s, test on the one "
		"held out\n\n", gpu, k, k - 1, k == 2 ? "" : "s");
	int rc = rep_rows_print(r, out, fmt);
	if (cases)
		fprintf(out, "\nheld-out MAPE: %.2f %% with the catalog's efficiencies, %.2f %% "
			"after calibration\n", 100 * h[1].num, 100 * h[2].num);
	return rc;
}

int rep_validate_folds(FILE *out, const char *fmt, const char *gpu, const struct val_cv_fold *f,
		       int k)
{
	struct rep_col cols[FOLD_COLS];
	struct rep_rows r;
	struct rep_cell h[HELD_COLS];
	rep_rows_init(&r, cols, rep_fields_copy(cols, fold_spec, FOLD_COLS));
	for (int i = 0; i < k; i++) {
		const struct rep_cell cells[FOLD_COLS] = {
			{ .text = gpu },
			{ .num = i + 1 },
			{ .num = (double)f[i].n_fit },
			{ .num = (double)f[i].n_test },
			{ .num = f[i].before.mape },
			{ .num = f[i].after.mape },
			{ .num = f[i].after.worst_ape },
		};
		rep_rows_add(&r, cells);
	}
	size_t cases = pool_folds(f, k, h);
	int rc = print_folds(out, fmt, gpu, k, &r, h, cases);
	rep_rows_release(&r);
	return rc ? -1 : 0;
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

int rep_validate_fits(FILE *out, const char *fmt, const struct fw_fit *named, int nnamed,
		      const struct fw_fit *pooled, int npooled)
{
	struct rep_col cols[FIT_COLS];
	struct rep_rows rows;
	int rc;
	rep_rows_init(&rows, cols, rep_fields_copy(cols, fit_spec, FIT_COLS));
	add_fits(&rows, named, nnamed, 0);
	add_fits(&rows, pooled, npooled, 1);
	if (!strcmp(fmt, "json")) {
		struct rep_json j;
		rep_json_doc_begin(&j, out, "validate");
		rc = rep_rows_json(&rows, &j, "framework_fits");
		rep_json_obj_end(&j);
		rc |= rep_json_finish(&j);
	} else {
		rc = rep_rows_print(&rows, out, fmt);
		if (strcmp(fmt, "csv"))
			fputs("\nstack_frac: the compute rate each stack sustains against the defaults, "
			      "fitted on `runs` published runs; pooled: every run of the family that "
			      "names a framework, for the stack nobody named (docs/model.md)\n", out);
	}
	rep_rows_release(&rows);
	return rc ? -1 : 0;
}
