/*
 * test_out_fields.c - the catalog of shared output fields
 * (report/out_fields.c): every command that writes a field of the catalog
 * writes it as the catalog says, under one title and one CSV format.
 */
#include "tc_test.h"

#include <string.h>

#include "../../src/cli/sweep_cells.h"
#include "../../src/report/compare_report.h"
#include "../../src/report/out_fields.h"
#include "../../src/report/plan_report.h"
#include "../../src/report/rows.h"
#include "../../src/report/validate_report.h"

/* Each column of cols[0..n) whose name is in the catalog shows as the
 * catalog says; a column of words (REP_COL_FIGURE) keeps its kind and
 * takes the catalog's title, unless it words a range of samples (plan's
 * "time P10 / P50 / P90").  Returns how many columns were catalog fields. */
static int check_cols(const struct rep_col *cols, int n)
{
	int found = 0;
	for (int i = 0; i < n; i++) {
		const struct rep_col *c = &cols[i];
		const struct rep_field *f = rep_field_find(c->name);
		if (!f)
			continue;
		found++;
		if (c->kind == REP_COL_FIGURE) {
			if (!strstr(c->title, "P10"))
				assert_string_equal(c->title, f->title);
			continue;
		}
		assert_non_null(c->title);
		assert_string_equal(c->title, f->title);
		assert_int_equal(c->kind, f->kind);
		assert_true(c->scale == f->scale);
		assert_int_equal(c->decimals, f->decimals);
		if (f->suffix)
			assert_string_equal(c->suffix, f->suffix);
		else
			assert_null(c->suffix);
		if (f->kind != REP_COL_TEXT && f->kind != REP_COL_BOOL)
			assert_int_equal(c->csv, f->csv);
	}
	return found;
}

static void compare_takes_the_catalog(void **state)
{
	(void)state;
	struct rep_col cols[REP_ROWS_MAX_COLS];
	int n = rep_compare_cols(cols);
	/* gpu (twice), step, total, wall, GPU-hours, MFU, memory, fits,
	 * pricing, provider, instance, region, cost, up to, the time on the
	 * basis, energy: 17 */
	assert_int_equal(check_cols(cols, n), 17);
}

static void plan_takes_the_catalog(void **state)
{
	(void)state;
	struct rep_col cols[REP_ROWS_MAX_COLS];
	int n = rep_plan_cols(cols);
	/* gpu, step, the time on the basis, cost, provider, instance and the
	 * time's and the cost's ranges of samples (columns of words): 8 */
	assert_int_equal(check_cols(cols, n), 8);
}

static void sweep_takes_the_catalog(void **state)
{
	(void)state;
	struct sweep sw;
	struct rep_col cols[SWEEP_MAX_COLS];
	memset(&sw, 0, sizeof(sw));
	int n = sweep_cols(&sw, 0, cols);
	/* step, total, wall, GPU-hours, MFU, memory and its words, fits,
	 * limiting, provider, instance, region, cost: 13 */
	assert_int_equal(check_cols(cols, n), 13);
}

static void validate_takes_the_catalog(void **state)
{
	(void)state;
	struct rep_col cols[REP_ROWS_MAX_COLS];
	int n = rep_validate_cols(cols);
	/* overall (cases, MAPE, median, worst, bias, failed, sanity-only
	 * cases): 7; the band: 2; the keys of the group tables (file, gpu,
	 * framework, family): 4; the ratios' statistics (pairs, MAPE, median,
	 * worst): 4; a case (case, source, gpu, framework, sanity_only,
	 * metric, measured and its words, predicted and its words, error_frac,
	 * memory_per_gpu_bytes, fits, the two held-out errors, error; not the
	 * table's note): 16; a pair (pair, case A, case B, GPU A, GPU B,
	 * measured, predicted, error_frac): 8.  7 + 2 + 4 + 4 + 16 + 8 = 41 */
	assert_int_equal(check_cols(cols, n), 41);
	/* a column in words takes the catalog's title and keeps its kind */
	for (int i = 0; i < n; i++)
		if (!strcmp(cols[i].name, "measured") && cols[i].kind == REP_COL_FIGURE)
			assert_string_equal(cols[i].title, "measured");
}

/* One title per field across the commands: the titles the previous
 * columns differed by ("step" and "step time") now agree. */
static void one_title_across_commands(void **state)
{
	(void)state;
	struct rep_col c[REP_ROWS_MAX_COLS], p[REP_ROWS_MAX_COLS], s[SWEEP_MAX_COLS];
	struct sweep sw;
	memset(&sw, 0, sizeof(sw));
	int nc = rep_compare_cols(c), np = rep_plan_cols(p), ns = sweep_cols(&sw, 0, s);
	for (int i = 0; i < nc; i++) {
		if (!rep_field_find(c[i].name) || c[i].kind == REP_COL_FIGURE)
			continue;
		for (int k = 0; k < ns; k++)
			if (!strcmp(s[k].name, c[i].name) && s[k].kind != REP_COL_FIGURE)
				assert_string_equal(s[k].title, c[i].title);
		for (int k = 0; k < np; k++)
			if (!strcmp(p[k].name, c[i].name) && p[k].kind != REP_COL_FIGURE)
				assert_string_equal(p[k].title, c[i].title);
	}
}

/* The catalog itself: names unique, each with a title and a meaning. */
static void catalog_is_whole(void **state)
{
	(void)state;
	int n;
	const struct rep_field *f = rep_fields(&n);
	assert_true(n >= 15);
	for (int i = 0; i < n; i++) {
		assert_true(f[i].title[0] && f[i].description[0]);
		assert_ptr_equal(rep_field_find(f[i].name), &f[i]);
	}
	assert_null(rep_field_find("no_such_field_s"));
}

/* CSV writes a long time with every digit of its whole part and no
 * exponent: 12,345,678.9 s to 6 significant digits leaves no fraction,
 * and the whole part rounds to 12345679 ("%.6g" would write 1.23457e+07,
 * losing two digits); money to the cent. */
static void csv_keeps_whole_digits(void **state)
{
	(void)state;
	struct rep_col t = REP_FIELD_COL("total_time_s", REP_VIEW_ALL, 0);
	struct rep_col u = REP_FIELD_COL("cost_usd", REP_VIEW_ALL, 0);
	struct rep_cell v = { .num = 12345678.9 }, m = { .num = 1234567.891 };
	char buf[64];
	rep_field_apply(&t);
	rep_field_apply(&u);
	assert_string_equal(rep_cell_text(&t, &v, "csv", buf, sizeof(buf)), "12345679");
	assert_string_equal(rep_cell_text(&u, &m, "csv", buf, sizeof(buf)), "1234567.89");
	/* 0.0586796 s keeps its six digits */
	v.num = 0.05867964;
	assert_string_equal(rep_cell_text(&t, &v, "csv", buf, sizeof(buf)), "0.0586796");
}

/* A column with a title of its own is left as it is. */
static void own_title_kept(void **state)
{
	(void)state;
	struct rep_col c = { "total_time_s", "total time", REP_COL_DURATION, 0, 0, NULL, NULL, NULL,
			     REP_CSV_SIG6, REP_VIEW_ALL, 0 };
	rep_field_apply(&c);
	assert_string_equal(c.title, "total time");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(compare_takes_the_catalog),
		cmocka_unit_test(plan_takes_the_catalog),
		cmocka_unit_test(sweep_takes_the_catalog),
		cmocka_unit_test(validate_takes_the_catalog),
		cmocka_unit_test(one_title_across_commands),
		cmocka_unit_test(catalog_is_whole),
		cmocka_unit_test(csv_keeps_whole_digits),
		cmocka_unit_test(own_title_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
