/*
 * test_record.c - one record (report/record.c): the single row of typed
 * values written as a field/value table, Markdown, one CSV row and one
 * JSON object, each format with the fields its view shows.
 */
#include "tc_test.h"

#include "../../src/report/record.h"

/*
 * A GPU-like record: a year not recorded (missing: the column's words in
 * the table, empty in CSV, null in JSON); memory scaled to GB; two peaks
 * of one group, the second missing (left out of the table and of the JSON
 * group, empty in CSV); an L2 of 0 named in the table; a ratio for data
 * only, a remark for people only; a parent that only slices have.
 */
static const struct rep_col fields[] = {
	{ "gpu", "id", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "year", "launch year", REP_COL_COUNT, 0, 0, NULL, "not recorded", NULL, 0, 0, 0 },
	{ "memory_bytes", "memory", REP_COL_SIG, 1e-9, 4, " GB", NULL, NULL, REP_CSV_WHOLE, 0, 0 },
	{ "fp16_dense_flop_per_s", "fp16 dense", REP_COL_SIG, 1e-12, 5, " TFLOP/s", NULL,
	  "dense_flop_per_s", REP_CSV_WHOLE, 0, 1 },
	{ "fp8_dense_flop_per_s", "fp8 dense", REP_COL_SIG, 1e-12, 5, " TFLOP/s", NULL,
	  "dense_flop_per_s", REP_CSV_WHOLE, 0, 1 },
	{ "l2_bytes", "L2 cache", REP_COL_SIG, 1e-6, 4, " MB", "not published", NULL,
	  REP_CSV_WHOLE, 0, 0 },
	{ "speedup", "speed-up", REP_COL_NUM, 0, 1, "x", NULL, NULL, 0, REP_VIEW_DATA, 0 },
	{ "remark", "remark", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_TEXT, 0 },
	{ "slice_of", "slice of", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 1 },
};
#define NFIELDS (int)(sizeof(fields) / sizeof(fields[0]))

static void one_gpu(struct rep_rows *r)
{
	const struct rep_cell c[NFIELDS] = {
		{ .text = "x1" }, { .missing = 1 }, { .num = 8e10 }, { .num = 3.12e14 },
		{ .missing = 1 }, { .num = 0 }, { .num = 2 }, { .text = "a, b" }, { .missing = 1 },
	};
	rep_rows_init(r, fields, NFIELDS);
	rep_rows_add(r, c);
}

/* The record in fmt; "json" as the fields of an object (key NULL) or as
 * the object `key` inside one. */
static char *written(const struct rep_rows *r, const char *fmt, const char *key, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	if (!strcmp(fmt, "json")) {
		struct rep_json j;
		rep_json_init(&j, f);
		rep_json_obj_begin(&j, NULL);
		*rc = rep_record_json(r, &j, key);
		rep_json_obj_end(&j);
		*rc |= rep_json_finish(&j);
	} else {
		*rc = rep_record_print(r, f, fmt);
	}
	fclose(f);
	return buf;
}

static void expect(const struct rep_rows *r, const char *fmt, const char *key, int want_rc,
		   const char *want)
{
	int rc = 0;
	char *got = written(r, fmt, key, &rc);
	assert_int_equal(rc, want_rc);
	assert_string_equal(got, want);
	free(got);
}

/* People read one field a line, titles and units; the missing peak and
 * parent are left out, the data-only ratio too. */
static void table_is_field_per_line(void **state)
{
	(void)state;
	struct rep_rows r;
	one_gpu(&r);
	expect(&r, "table", NULL, 0,
	       "field        value\n"
	       "id           x1\n"
	       "launch year  not recorded\n"
	       "memory       80 GB\n"
	       "fp16 dense   312 TFLOP/s\n"
	       "L2 cache     not published\n"
	       "remark       a, b\n");
	expect(&r, "md", NULL, 0,
	       "| field | value |\n"
	       "| --- | --- |\n"
	       "| id | x1 |\n"
	       "| launch year | not recorded |\n"
	       "| memory | 80 GB |\n"
	       "| fp16 dense | 312 TFLOP/s |\n"
	       "| L2 cache | not published |\n"
	       "| remark | a, b |\n");
	rep_rows_release(&r);
}

/* CSV is one fixed header and one row: every field data shows, a
 * missing one empty, numbers in the contract's units. */
static void csv_is_one_row(void **state)
{
	(void)state;
	struct rep_rows r;
	one_gpu(&r);
	expect(&r, "csv", NULL, 0,
	       "gpu,year,memory_bytes,fp16_dense_flop_per_s,fp8_dense_flop_per_s,l2_bytes,speedup,"
	       "slice_of\n"
	       "x1,,80000000000,312000000000000,,0,2,\n");
	rep_rows_release(&r);
}

/* JSON: the fields of the open object, or an object of their own; the
 * group holds the peak that exists, the parent is left out. */
static void json_is_one_object(void **state)
{
	(void)state;
	static const char body[] =
		"\"gpu\": \"x1\",\n"
		"%s\"year\": null,\n"
		"%s\"memory_bytes\": 80000000000,\n"
		"%s\"dense_flop_per_s\": {\n"
		"%s  \"fp16\": 312000000000000\n"
		"%s},\n"
		"%s\"l2_bytes\": 0,\n"
		"%s\"speedup\": 2\n";
	char want[1024], inner[512];
	struct rep_rows r;
	one_gpu(&r);
	snprintf(inner, sizeof(inner), body, "  ", "  ", "  ", "  ", "  ", "  ", "  ");
	snprintf(want, sizeof(want), "{\n  %s}\n", inner);
	expect(&r, "json", NULL, 0, want);
	snprintf(inner, sizeof(inner), body, "    ", "    ", "    ", "    ", "    ", "    ",
		 "    ");
	snprintf(want, sizeof(want), "{\n  \"gpu_record\": {\n    %s  }\n}\n", inner);
	expect(&r, "json", "gpu_record", 0, want);
	rep_rows_release(&r);
}

/* A non-finite number is never printed: the table and CSV write nothing
 * and fail; JSON writes null and rep_json_finish fails. */
static void non_finite_fails(void **state)
{
	(void)state;
	struct rep_rows r;
	struct rep_cell c[NFIELDS] = {
		{ .text = "x1" }, { .num = 2020 }, { .num = HUGE_VAL }, { .num = 1 },
		{ .num = 1 }, { .num = 1 }, { .num = 1 }, { .text = "" }, { .text = "x" },
	};
	rep_rows_init(&r, fields, NFIELDS);
	rep_rows_add(&r, c);
	expect(&r, "table", NULL, -1, "");
	expect(&r, "csv", NULL, -1, "");
	int rc = 0;
	char *got = written(&r, "json", NULL, &rc);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(got, "\"memory_bytes\": null"));
	free(got);
	rep_rows_release(&r);
}

/*
 * A run's record: memory used and had, a truth value, a data-only name
 * with an underscore, a price that only some runs have.  The memory is
 * worded as one line from three fields, the price reworded in its title
 * or left out where there is none.
 */
static const struct rep_col run_fields[] = {
	{ "memory_bytes", "memory", REP_COL_SIG, 1e-9, 3, " GB", NULL, NULL, 0, 0, 0 },
	{ "capacity_bytes", "capacity", REP_COL_SIG, 1e-9, 3, " GB", NULL, NULL, 0,
	  REP_VIEW_DATA, 0 },
	{ "fits", "fits", REP_COL_BOOL, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_DATA, 0 },
	{ "gpu", "gpu", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "cost_usd", "cost", REP_COL_NUM, 0, 0, NULL, NULL, "cost", 0, 0, 1 },
	{ "kind", "kind", REP_COL_TEXT, 0, 0, NULL, NULL, "cost", 0, REP_VIEW_DATA, 1 },
};
#define NRUN (int)(sizeof(run_fields) / sizeof(run_fields[0]))

/* "60 GB of 80 GB (fits)": three fields, one line; the name in the
 * value is the wording's own (not escaped). */
static int word_memory(const struct rep_rows *r, size_t i, int c, const char *fmt, char *title,
		       char *value)
{
	(void)c;
	(void)fmt;
	(void)title;
	const struct rep_cell *used = rep_rows_field(r, i, NULL, "memory_bytes");
	const struct rep_cell *had = rep_rows_field(r, i, NULL, "capacity_bytes");
	const struct rep_cell *fits = rep_rows_field(r, i, NULL, "fits");
	assert_null(rep_rows_field(r, i, NULL, "kind")); /* "kind" is in "cost" */
	snprintf(value, REP_WORD_LEN, "%.0f GB of %.0f GB (%s, per_gpu)", used->num * 1e-9,
		 had->num * 1e-9, fits->num ? "fits" : "does not fit");
	return 0;
}

/* "on-demand cost": the title from another field; no line without a
 * price. */
static int word_cost(const struct rep_rows *r, size_t i, int c, const char *fmt, char *title,
		     char *value)
{
	(void)fmt;
	const struct rep_cell *v = &r->cells[i * (size_t)r->ncols + (size_t)c];
	if (v->missing)
		return 1;
	snprintf(title, REP_WORD_LEN, "%s cost", rep_rows_field(r, i, "cost", "kind")->text);
	snprintf(value, REP_WORD_LEN, "$%.0f", v->num);
	return 0;
}

static const rep_word_fn run_words[NRUN] = { word_memory, NULL, NULL, NULL, word_cost, NULL };

static void one_run(struct rep_rows *r, int priced)
{
	const struct rep_cell c[NRUN] = {
		{ .num = 6e10 }, { .num = 8e10 }, { .num = 1 }, { .text = "a100_sxm" },
		priced ? (struct rep_cell){ .num = 1234 } : (struct rep_cell){ .absent = 1 },
		priced ? (struct rep_cell){ .text = "on-demand" } : (struct rep_cell){ .absent = 1 },
	};
	rep_rows_init(r, run_fields, NRUN);
	rep_rows_words(r, run_words);
	rep_rows_add(r, c);
}

/* People read the worded lines; plain values are escaped for Markdown,
 * worded ones printed as given; the look names the columns and aligns
 * the values. */
static void worded_fields(void **state)
{
	(void)state;
	static const struct rep_record_look look = { "quantity", "value", REP_RIGHT };
	struct rep_rows r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	one_run(&r, 1);
	f = open_memstream(&buf, &len);
	assert_int_equal(rep_record_print_as(&r, f, "md", &look), 0);
	fclose(f);
	assert_string_equal(buf, "| quantity | value |\n"
				 "| --- | ---: |\n"
				 "| memory | 60 GB of 80 GB (fits, per_gpu) |\n"
				 "| gpu | a100\\_sxm |\n"
				 "| on-demand cost | $1234 |\n");
	free(buf);
	expect(&r, "table", NULL, 0,
	       "field           value\n"
	       "memory          60 GB of 80 GB (fits, per_gpu)\n"
	       "gpu             a100_sxm\n"
	       "on-demand cost  $1234\n");
	/* CSV and JSON carry the fields, never the wording. */
	expect(&r, "csv", NULL, 0,
	       "memory_bytes,capacity_bytes,fits,gpu,cost_usd,kind\n"
	       "60000000000,80000000000,true,a100_sxm,1234,on-demand\n");
	rep_rows_release(&r);

	one_run(&r, 0);
	expect(&r, "table", NULL, 0,
	       "field   value\n"
	       "memory  60 GB of 80 GB (fits, per_gpu)\n"
	       "gpu     a100_sxm\n");
	rep_rows_release(&r);
}

/* A price in two lines, its kind from a fact only the sheet shows; no
 * line without a price. */
static int word_two_lines(const struct rep_rows *r, size_t i, int c, const char *fmt,
			  char *title, char *value)
{
	(void)fmt;
	(void)title;
	const struct rep_cell *v = &r->cells[i * (size_t)r->ncols + (size_t)c];
	if (v->missing)
		return 1;
	snprintf(value, REP_WORD_LEN, "$%.0f %s\nthen more", v->num,
		 rep_rows_field(r, i, "cost", "kind")->text);
	return 0;
}

/*
 * A run's record written as a sheet: a title, the memory worded under a
 * heading of its own, the GPU's name escaped, a price in two lines that
 * goes on under its first; the price's kind is a fact, not a line, and
 * a field without a look has no line.  Without a price its line is left
 * out, and a non-finite number leaves the sheet empty.
 */
static void sheet_sections(void **state)
{
	(void)state;
	static const struct rep_sheet_look title = { 1, 0, 0 }, body = { 0, 8, 0 },
					   right = { 0, 8, 12 };
	static const struct rep_col cols[] = {
		{ "run", "Run a", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_TABLE, 0 },
		{ "gpu", "gpu", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
		{ "memory", "Memory:", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_TABLE, 0 },
		{ "memory_bytes", "used", REP_COL_SIG, 1e-9, 3, " GB", NULL, NULL, 0, 0, 0 },
		{ "cost_usd", "cost", REP_COL_NUM, 0, 0, NULL, NULL, "cost", 0, 0, 1 },
		{ "kind", "kind", REP_COL_TEXT, 0, 0, NULL, NULL, "cost", 0, REP_VIEW_TABLE, 1 },
		{ "capacity_bytes", "capacity", REP_COL_SIG, 1e-9, 3, NULL, NULL, NULL, 0, 0, 0 },
	};
	static const rep_word_fn words[] = { NULL, NULL, NULL, NULL, word_two_lines, NULL, NULL };
	const struct rep_sheet_look *looks[] = { &title, &body, &title, &right, &body, NULL, NULL };
	struct rep_cell c[] = {
		{ .text = "" }, { .text = "a\x01" }, { .text = "" }, { .num = 6e10 },
		{ .num = 1234 }, { .text = "spot" }, { .num = 8e10 },
	};
	struct rep_rows r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	rep_rows_init(&r, cols, 7);
	rep_rows_words(&r, words);
	rep_rows_add(&r, c);
	assert_int_equal(rep_record_print_sheet(&r, f, looks), 0);
	rep_rows_release(&r);
	c[4] = (struct rep_cell){ .absent = 1 };
	rep_rows_init(&r, cols, 7);
	rep_rows_words(&r, words);
	rep_rows_add(&r, c);
	assert_int_equal(rep_record_print_sheet(&r, f, looks), 0);
	rep_rows_release(&r);
	c[3].num = (double)NAN;
	rep_rows_init(&r, cols, 7);
	rep_rows_add(&r, c);
	assert_int_equal(rep_record_print_sheet(&r, f, looks), -1);
	rep_rows_release(&r);
	fclose(f);
	assert_string_equal(buf, "Run a\n"
				 "  gpu      a\\u0001\n"
				 "\n"
				 "Memory:\n"
				 "  used            60 GB\n"
				 "  cost     $1234 spot\n"
				 "           then more\n"
				 "Run a\n"
				 "  gpu      a\\u0001\n"
				 "\n"
				 "Memory:\n"
				 "  used            60 GB\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_is_field_per_line),
		cmocka_unit_test(csv_is_one_row),
		cmocka_unit_test(json_is_one_object),
		cmocka_unit_test(non_finite_fails),
		cmocka_unit_test(worded_fields),
		cmocka_unit_test(sheet_sections),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
