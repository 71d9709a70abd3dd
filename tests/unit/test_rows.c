/*
 * test_rows.c - one set of typed rows written as a table, Markdown, CSV
 * and JSON (report/rows.c): the same values in each, numbers in the
 * contract's units for CSV and JSON, scaled with their unit in the table.
 */
#include "tc_test.h"

#include <math.h>
#include <stdlib.h>

#include "../../src/report/rows.h"

static const struct rep_col cols[] = {
	{ "name", "name", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "n", "n", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "err_frac", "err", REP_COL_NUM, 100, 1, " %", NULL, NULL, 0, 0, 0 },
	{ "ok", "ok", REP_COL_BOOL, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "ratio", "ratio", REP_COL_NUM, 0, 3, NULL, NULL, NULL, 0, 0, 0 },
};

/* Two rows: a text that CSV must quote, a missing text, a negative
 * fraction, both truth values. */
static void two_rows(struct rep_rows *r)
{
	const struct rep_cell a[] = { { .text = "a,b" }, { .num = 3 }, { .num = 0.0862 },
				      { .num = 1 }, { .num = 0.72895 } };
	const struct rep_cell b[] = { { .missing = 1 }, { .num = 12 }, { .num = -0.25 },
				      { .num = 0 }, { .num = 1 } };
	rep_rows_init(r, cols, 5);
	rep_rows_add(r, a);
	rep_rows_add(r, b);
}

/* The rows printed in fmt ("json": as the array "rows" of a document). */
static char *written(const struct rep_rows *r, const char *fmt, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	if (!strcmp(fmt, "json")) {
		struct rep_json j;
		rep_json_init(&j, f);
		rep_json_obj_begin(&j, NULL);
		*rc = rep_rows_json(r, &j, "rows");
		rep_json_obj_end(&j);
		*rc |= rep_json_finish(&j);
	} else {
		*rc = rep_rows_print(r, f, fmt);
	}
	fclose(f);
	return buf;
}

static void expect(const struct rep_rows *r, const char *fmt, int want_rc, const char *want)
{
	int rc = 0;
	char *got = written(r, fmt, &rc);
	assert_int_equal(rc, want_rc);
	assert_string_equal(got, want);
	free(got);
}

/* Widths: name 4 ("name"), n 2 ("12"), err 7 ("-25.0 %"), ok 3 ("yes"),
 * ratio 5; 0.0862 x 100 to one decimal is 8.6 %, -0.25 is -25.0 %. */
static void table_scales_and_aligns(void **state)
{
	(void)state;
	struct rep_rows r;
	two_rows(&r);
	expect(&r, "table", 0,
	       "name   n      err   ok  ratio\n"
	       "a,b    3    8.6 %  yes  0.729\n"
	       "-     12  -25.0 %   no  1.000\n");
	expect(&r, "md", 0,
	       "| name | n | err | ok | ratio |\n"
	       "| --- | ---: | ---: | ---: | ---: |\n"
	       "| a,b | 3 | 8.6 % | yes | 0.729 |\n"
	       "| - | 12 | -25.0 % | no | 1.000 |\n");
	rep_rows_release(&r);
}

/* CSV and JSON carry the values themselves, under the contract's names. */
static void csv_and_json_carry_the_values(void **state)
{
	(void)state;
	struct rep_rows r;
	two_rows(&r);
	expect(&r, "csv", 0,
	       "name,n,err_frac,ok,ratio\n"
	       "\"a,b\",3,0.0862,true,0.72895\n"
	       ",12,-0.25,false,1\n");
	expect(&r, "json", 0,
	       "{\n"
	       "  \"rows\": [\n"
	       "    {\n"
	       "      \"name\": \"a,b\",\n"
	       "      \"n\": 3,\n"
	       "      \"err_frac\": 0.0862,\n"
	       "      \"ok\": true,\n"
	       "      \"ratio\": 0.72895\n"
	       "    },\n"
	       "    {\n"
	       "      \"name\": null,\n"
	       "      \"n\": 12,\n"
	       "      \"err_frac\": -0.25,\n"
	       "      \"ok\": false,\n"
	       "      \"ratio\": 1\n"
	       "    }\n"
	       "  ]\n"
	       "}\n");
	rep_rows_release(&r);
}

/* A non-finite number is never printed: the table writes nothing and
 * fails, JSON writes null and rep_json_finish fails. */
static void non_finite_fails(void **state)
{
	(void)state;
	struct rep_rows r;
	const struct rep_cell c[] = { { .text = "x" }, { .num = 1 }, { .num = (double)NAN },
				      { .num = 1 }, { .num = 1 } };
	rep_rows_init(&r, cols, 5);
	rep_rows_add(&r, c);
	expect(&r, "table", -1, "");
	expect(&r, "csv", -1, "");
	int rc = 0;
	char *got = written(&r, "json", &rc);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(got, "\"err_frac\": null"));
	free(got);
	rep_rows_release(&r);
}

/* One number column of the values v (n of them, a row each) as the
 * table and CSV write it. */
static void expect_numbers(const struct rep_col *col, const double *v, int n, const char *table,
			   const char *csv)
{
	struct rep_rows r;
	rep_rows_init(&r, col, 1);
	for (int i = 0; i < n; i++) {
		const struct rep_cell c[] = { { .num = v[i] } };
		rep_rows_add(&r, c);
	}
	expect(&r, "table", 0, table);
	expect(&r, "csv", 0, csv);
	rep_rows_release(&r);
}

/* Significant digits for values of any size: 2.83e-05 and 7.9e+09 to four
 * digits as %.4g writes them, 0.87746 as 0.8775; CSV as rowfmt_g6 writes
 * them (plain decimal from 1e-4 to 1e15). */
static void significant_digits(void **state)
{
	(void)state;
	static const struct rep_col sig[] = { { "v", "v", REP_COL_SIG, 0, 4, NULL, NULL, NULL, 0, 0, 0 } };
	const double v[] = { 2.83e-5, 7.9e9, 0.87746 };
	expect_numbers(sig, v, 3, "       v\n2.83e-05\n 7.9e+09\n  0.8775\n",
		       "v\n2.83e-05\n7900000000\n0.87746\n");
}

/* A measurement to six digits with C's exponent: 1.37e14 as 1.37e+14 and
 * 140488957932165 as 1.40489e+14, where rowfmt_g6 writes every digit;
 * 0.0254668 alike in both. */
static void csv_exponent(void **state)
{
	(void)state;
	static const struct rep_col m[] = {
		{ "measured", "m", REP_COL_NUM, 0, 0, NULL, NULL, NULL, REP_CSV_EXP6, 0, 0 },
		{ "plain", "p", REP_COL_NUM, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	};
	const double v[] = { 1.37e14, 140488957932165, 0.0254668 };
	struct rep_rows r;
	rep_rows_init(&r, m, 2);
	for (int i = 0; i < 3; i++) {
		const struct rep_cell c[] = { { .num = v[i] }, { .num = v[i] } };
		rep_rows_add(&r, c);
	}
	expect(&r, "csv", 0,
	       "measured,plain\n1.37e+14,137000000000000\n1.40489e+14,140488957932165\n"
	       "0.0254668,0.0254668\n");
	rep_rows_release(&r);
}

/* No rows: the header alone, an empty array. */
static void empty_rows(void **state)
{
	(void)state;
	struct rep_rows r;
	rep_rows_init(&r, cols, 5);
	expect(&r, "csv", 0, "name,n,err_frac,ok,ratio\n");
	expect(&r, "json", 0, "{\n  \"rows\": []\n}\n");
	rep_rows_release(&r);
}

/*
 * A datasheet-like row: rates in a JSON group, a 0 shown as a word, a
 * count with its unit, a scaled significant-digit column and CSV to the
 * unit.  Row 1: 9.2e9 B = 9.2 GB (%.3g of 9.2e9 x 1e-9), peaks 1.5e14 and
 * 2.25e15 FLOP/s = 150 and 2250 TFLOP/s, link 0 ("none"), 3 slices
 * ("3x").  Row 2: the first peak missing, so its JSON group holds only
 * the second; link 4.5e11 B/s = 450 GB/s; 0 slices ("no").
 */
static const struct rep_col sheet[] = {
	{ "mem_bytes", "memory", REP_COL_SIG, 1e-9, 3, " GB", NULL, NULL, REP_CSV_WHOLE, 0, 0 },
	{ "a_peak_flop_per_s", "A", REP_COL_SIG, 1e-12, 4, NULL, NULL, "peak_flop_per_s", REP_CSV_WHOLE, 0, 1 },
	{ "b_peak_flop_per_s", "B", REP_COL_SIG, 1e-12, 4, NULL, NULL, "peak_flop_per_s", REP_CSV_WHOLE, 0, 1 },
	{ "link_bytes_per_s", "link", REP_COL_SIG, 1e-9, 3, " GB/s", "none", NULL, REP_CSV_WHOLE, 0, 0 },
	{ "slices", "slices", REP_COL_COUNT, 0, 0, "x", "no", NULL, 0, 0, 0 },
};

static void sheet_rows(struct rep_rows *r)
{
	const struct rep_cell a[] = { { .num = 9.2e9 }, { .num = 1.5e14 }, { .num = 2.25e15 },
				      { .num = 0 }, { .num = 3 } };
	const struct rep_cell b[] = { { .num = 9.2e9 }, { .missing = 1 }, { .num = 2.25e15 },
				      { .num = 4.5e11 }, { .num = 0 } };
	rep_rows_init(r, sheet, 5);
	rep_rows_add(r, a);
	rep_rows_add(r, b);
}

/* The table scales and names the zero; CSV keeps every digit (2.25e15 is
 * past rowfmt_g6's plain range) and writes 0 as 0. */
static void scaled_zero_and_whole(void **state)
{
	(void)state;
	struct rep_rows r;
	sheet_rows(&r);
	expect(&r, "table", 0,
	       "memory    A     B      link  slices\n"
	       "9.2 GB  150  2250      none      3x\n"
	       "9.2 GB    -  2250  450 GB/s      no\n");
	expect(&r, "csv", 0,
	       "mem_bytes,a_peak_flop_per_s,b_peak_flop_per_s,link_bytes_per_s,slices\n"
	       "9200000000,150000000000000,2250000000000000,0,3\n"
	       "9200000000,,2250000000000000,450000000000,0\n");
	rep_rows_release(&r);
}

/* The grouped columns become one object named by the group, keyed by
 * the names less "_peak_flop_per_s"; a missing value of these `absent`
 * columns is left out. */
static void json_groups(void **state)
{
	(void)state;
	struct rep_rows r;
	sheet_rows(&r);
	expect(&r, "json", 0,
	       "{\n"
	       "  \"rows\": [\n"
	       "    {\n"
	       "      \"mem_bytes\": 9200000000,\n"
	       "      \"peak_flop_per_s\": {\n"
	       "        \"a\": 150000000000000,\n"
	       "        \"b\": 2250000000000000\n"
	       "      },\n"
	       "      \"link_bytes_per_s\": 0,\n"
	       "      \"slices\": 3\n"
	       "    },\n"
	       "    {\n"
	       "      \"mem_bytes\": 9200000000,\n"
	       "      \"peak_flop_per_s\": {\n"
	       "        \"b\": 2250000000000000\n"
	       "      },\n"
	       "      \"link_bytes_per_s\": 450000000000,\n"
	       "      \"slices\": 0\n"
	       "    }\n"
	       "  ]\n"
	       "}\n");
	rep_rows_release(&r);
}

/*
 * Columns for some formats only: "note" is JSON's alone; "rate" is the
 * flat formats' alone, with CSV to its 3 decimals (0.93 as 0.930) and
 * placed between two columns of one group, which JSON still writes as
 * one object.
 */
static void views_and_csv_decimals(void **state)
{
	(void)state;
	static const struct rep_col view_cols[] = {
		{ "id", "id", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
		{ "a_fit", "a", REP_COL_NUM, 1, 3, NULL, NULL, "fit", 0, REP_VIEW_JSON, 0 },
		{ "rate", "rate", REP_COL_NUM, 1, 3, NULL, NULL, NULL, REP_CSV_DECIMALS,
		  REP_VIEW_FLAT, 0 },
		{ "b_fit", "b", REP_COL_NUM, 1, 3, NULL, NULL, "fit", 0, REP_VIEW_JSON, 0 },
		{ "note", "note", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_JSON, 0 },
	};
	const struct rep_cell c[] = { { .text = "x" }, { .num = 2e-6 }, { .num = 0.93 },
				      { .num = 0.93 }, { .text = "why" } };
	struct rep_rows r;
	rep_rows_init(&r, view_cols, 5);
	rep_rows_add(&r, c);
	expect(&r, "table", 0, "id   rate\nx   0.930\n");
	expect(&r, "csv", 0, "id,rate\nx,0.930\n");
	expect(&r, "json", 0,
	       "{\n"
	       "  \"rows\": [\n"
	       "    {\n"
	       "      \"id\": \"x\",\n"
	       "      \"fit\": {\n"
	       "        \"a\": 2e-06,\n"
	       "        \"b\": 0.93\n"
	       "      },\n"
	       "      \"note\": \"why\"\n"
	       "    }\n"
	       "  ]\n"
	       "}\n");
	rep_rows_release(&r);
}

/*
 * A value worded for people in the table and Markdown but carried by its
 * name in CSV and JSON ("billing" twice, one column per view), a price
 * to 10 significant digits in CSV (12 + 2^-20 = 12.00000095367431640625:
 * "12.00000095"; JSON's 17 digits "12.000000953674316"), and
 * fields only some rows have: left out of JSON rather than null, empty in
 * CSV, "-" in the table.
 */
static void text_data_views_and_absent_fields(void **state)
{
	(void)state;
	static const struct rep_col vc[] = {
		{ "id", "id", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
		{ "price", "$/h", REP_COL_NUM, 0, 2, NULL, NULL, NULL, REP_CSV_SIG10, 0, 0 },
		{ "billing", "billing", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_DATA, 1 },
		{ "billing", "billing", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_TEXT, 0 },
		{ "extra_s", "", REP_COL_NUM, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_JSON, 1 },
	};
	const struct rep_cell a[] = { { .text = "a" }, { .num = 12 + 1.0 / 1048576 },
				      { .text = "per_hour" }, { .text = "per hour" }, { .num = 3 } };
	const struct rep_cell b[] = { { .text = "b" }, { .num = 0.5 }, { .missing = 1 },
				      { .missing = 1 }, { .missing = 1 } };
	struct rep_rows r;
	rep_rows_init(&r, vc, 5);
	rep_rows_add(&r, a);
	rep_rows_add(&r, b);
	expect(&r, "table", 0,
	       "id    $/h  billing\n"
	       "a   12.00  per hour\n"
	       "b    0.50  -\n");
	expect(&r, "csv", 0, "id,price,billing\na,12.00000095,per_hour\nb,0.5,\n");
	expect(&r, "json", 0,
	       "{\n"
	       "  \"rows\": [\n"
	       "    {\n"
	       "      \"id\": \"a\",\n"
	       "      \"price\": 12.000000953674316,\n"
	       "      \"billing\": \"per_hour\",\n"
	       "      \"extra_s\": 3\n"
	       "    },\n"
	       "    {\n"
	       "      \"id\": \"b\",\n"
	       "      \"price\": 0.5\n"
	       "    }\n"
	       "  ]\n"
	       "}\n");
	rep_rows_release(&r);
}

/* A column's words for 0 ("none") also stand for a missing value in the
 * table; CSV leaves it empty and JSON writes null, unlike the 0. */
static void zero_words_for_missing(void **state)
{
	(void)state;
	static const struct rep_col link[] = {
		{ "link_bytes_per_s", "link", REP_COL_SIG, 1e-9, 3, " GB/s", "none", NULL,
		  REP_CSV_WHOLE, 0, 0 },
	};
	const struct rep_cell zero[] = { { .num = 0 } }, missing[] = { { .missing = 1 } };
	struct rep_rows r;
	rep_rows_init(&r, link, 1);
	rep_rows_add(&r, zero);
	rep_rows_add(&r, missing);
	expect(&r, "table", 0, "link\nnone\nnone\n");
	expect(&r, "csv", 0, "link_bytes_per_s\n0\n\n");
	expect(&r, "json", 0,
	       "{\n"
	       "  \"rows\": [\n"
	       "    {\n"
	       "      \"link_bytes_per_s\": 0\n"
	       "    },\n"
	       "    {\n"
	       "      \"link_bytes_per_s\": null\n"
	       "    }\n"
	       "  ]\n"
	       "}\n");
	rep_rows_release(&r);
}

/* A command whose output is one list: the flat formats as
 * rep_rows_print writes them, JSON as the command's document. */
static void write_as_a_document(void **state)
{
	(void)state;
	static const struct rep_col one[] = { { "n", "n", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 } };
	const struct rep_cell c[] = { { .num = 7 } };
	char want[128], *got = NULL;
	size_t len = 0;
	struct rep_rows r;
	rep_rows_init(&r, one, 1);
	rep_rows_add(&r, c);
	FILE *f = open_memstream(&got, &len);
	assert_non_null(f);
	assert_int_equal(rep_rows_write(&r, f, "csv", "cmd", "items"), 0);
	assert_int_equal(rep_rows_write(&r, f, "json", "cmd", "items"), 0);
	fclose(f);
	snprintf(want, sizeof(want),
		 "n\n7\n{\n  \"format_version\": %d,\n  \"command\": \"cmd\",\n"
		 "  \"items\": [\n    {\n      \"n\": 7\n    }\n  ]\n}\n", REP_FORMAT_VERSION);
	assert_string_equal(got, want);
	free(got);
	rep_rows_release(&r);
}

/*
 * A signed error and a figure whose unit differs by row: the table shows
 * the error's sign either way (0.032 x 100 = +3.2 %, -0.155 = -15.5 %,
 * 0 = +0.0 %) and right-aligns the figures; CSV and JSON carry the error
 * as the plain fraction and the figure as text.
 */
static void signed_numbers_and_figures(void **state)
{
	(void)state;
	static const struct rep_col dc[] = {
		{ "shown", "measured", REP_COL_FIGURE, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
		{ "error_frac", "error", REP_COL_DELTA, 100, 1, " %", NULL, NULL, 0, 0, 0 },
	};
	const struct rep_cell a[] = { { .text = "12.5 ms" }, { .num = 0.032 } };
	const struct rep_cell b[] = { { .text = "840 tokens/s" }, { .num = -0.155 } };
	const struct rep_cell c[] = { { .missing = 1 }, { .num = 0 } };
	struct rep_rows r;
	rep_rows_init(&r, dc, 2);
	rep_rows_add(&r, a);
	rep_rows_add(&r, b);
	rep_rows_add(&r, c);
	expect(&r, "table", 0,
	       "    measured    error\n"
	       "     12.5 ms   +3.2 %\n"
	       "840 tokens/s  -15.5 %\n"
	       "           -   +0.0 %\n");
	expect(&r, "csv", 0, "shown,error_frac\n12.5 ms,0.032\n840 tokens/s,-0.155\n,0\n");
	expect(&r, "json", 0,
	       "{\n"
	       "  \"rows\": [\n"
	       "    {\n"
	       "      \"shown\": \"12.5 ms\",\n"
	       "      \"error_frac\": 0.032\n"
	       "    },\n"
	       "    {\n"
	       "      \"shown\": \"840 tokens/s\",\n"
	       "      \"error_frac\": -0.155\n"
	       "    },\n"
	       "    {\n"
	       "      \"shown\": null,\n"
	       "      \"error_frac\": 0\n"
	       "    }\n"
	       "  ]\n"
	       "}\n");
	rep_rows_release(&r);
}

/*
 * Numbers as people read them, one column's values a row each, in the
 * table and in CSV:
 * - seconds in the unit that suits each value, to 3 significant digits
 *   (0.909 s is 909 ms, 2770300 s is 32.1 d); CSV keeps the seconds;
 * - dollars, cents under $100 ($20.85, $338,840); CSV to the cent as the
 *   column's decimals ask;
 * - amounts with their unit: thousands grouped (33,096 kWh), a fraction
 *   under 100 to 3 significant digits (7.13 kWh; 6.50 as 6.5);
 * - a share of samples in per cent, CSV to 4 significant digits (2/3 as
 *   0.6667, 1 as 1).
 */
static void numbers_as_people_read_them(void **state)
{
	(void)state;
	static const struct {
		struct rep_col col;
		double v[3];
		int n;
		const char *table, *csv;
	} cases[] = {
		{ { "time_s", "time", REP_COL_DURATION, 0, 0, NULL, NULL, NULL, REP_CSV_EXP6, 0, 0 },
		  { 0.909, 2770300, 0 }, 3, "  time\n909 ms\n32.1 d\n   0 s\n",
		  "time_s\n0.909\n2.7703e+06\n0\n" },
		{ { "cost_usd", "cost", REP_COL_USD, 0, 2, NULL, NULL, NULL, REP_CSV_DECIMALS, 0, 0 },
		  { 20.854, 338840.25 }, 2, "    cost\n  $20.85\n$338,840\n",
		  "cost_usd\n20.85\n338840.25\n" },
		{ { "energy_kwh", "energy", REP_COL_AMOUNT, 0, 0, " kWh", NULL, NULL, REP_CSV_EXP6, 0,
		    0 },
		  { 33096.4, 7.1312, 6.5 }, 3, "    energy\n33,096 kWh\n  7.13 kWh\n   6.5 kWh\n",
		  "energy_kwh\n33096.4\n7.1312\n6.5\n" },
		{ { "p_deadline", "P(deadline)", REP_COL_NUM, 100, 0, " %", NULL, NULL, REP_CSV_SIG4,
		    0, 0 },
		  { 2 / 3.0, 1 }, 2, "P(deadline)\n       67 %\n      100 %\n", "p_deadline\n0.6667\n1\n" },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		expect_numbers(&cases[k].col, cases[k].v, cases[k].n, cases[k].table, cases[k].csv);
}

/* A column for CSV alone: the table and JSON leave it out. */
static void csv_only(void **state)
{
	(void)state;
	static const struct rep_col cc[] = {
		{ "id", "id", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
		{ "pricing", "pricing", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_CSV, 0 },
	};
	const struct rep_cell c[] = { { .text = "a" }, { .text = "spot" } };
	struct rep_rows r;
	rep_rows_init(&r, cc, 2);
	rep_rows_add(&r, c);
	expect(&r, "table", 0, "id\na\n");
	expect(&r, "md", 0, "| id |\n| --- |\n| a |\n");
	expect(&r, "csv", 0, "id,pricing\na,spot\n");
	expect(&r, "json", 0, "{\n  \"rows\": [\n    {\n      \"id\": \"a\"\n    }\n  ]\n}\n");
	rep_rows_release(&r);
}

/* A field some rows have as text or null and one row lacks: left out of
 * that row's JSON object, "-" and empty as any missing value. */
static void absent_cells(void **state)
{
	(void)state;
	static const struct rep_col ac[] = {
		{ "id", "id", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
		{ "network", "network", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	};
	const struct rep_cell a[] = { { .text = "a" }, { .text = "ib" } };
	const struct rep_cell b[] = { { .text = "b" }, { .missing = 1 } };
	const struct rep_cell c[] = { { .text = "c" }, { .text = "unused", .absent = 1 } };
	struct rep_rows r;
	rep_rows_init(&r, ac, 2);
	rep_rows_add(&r, a);
	rep_rows_add(&r, b);
	rep_rows_add(&r, c);
	expect(&r, "table", 0, "id  network\na   ib\nb   -\nc   -\n");
	expect(&r, "csv", 0, "id,network\na,ib\nb,\nc,\n");
	expect(&r, "json", 0,
	       "{\n"
	       "  \"rows\": [\n"
	       "    {\n"
	       "      \"id\": \"a\",\n"
	       "      \"network\": \"ib\"\n"
	       "    },\n"
	       "    {\n"
	       "      \"id\": \"b\",\n"
	       "      \"network\": null\n"
	       "    },\n"
	       "    {\n"
	       "      \"id\": \"c\"\n"
	       "    }\n"
	       "  ]\n"
	       "}\n");
	rep_rows_release(&r);
}

/*
 * Groups as paths of objects (one record of an estimate): "a.b" opens b
 * inside a, "a.c" closes b and opens c, "a" returns to a's own fields,
 * "d" closes a; a missing value in a group is null ("a.b" run_s, "d"
 * kwh), one of an `absent` column is left out ("a.c" extra), a path
 * whose cells are all `absent` writes no object ("a.e"), and one whose
 * values are all missing under an `absent` column an empty one ("f").  Keys are whole names where
 * a name does not end in its group ("cost_usd" of "a.b"), the name less
 * "_" and the group where it does ("x_d" is "x" of "d").
 */
static void json_group_paths(void **state)
{
	(void)state;
	static const struct rep_col pc[] = {
		{ "top", "top", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
		{ "kind", "kind", REP_COL_TEXT, 0, 0, NULL, NULL, "a", 0, 0, 0 },
		{ "cost_usd", "cost", REP_COL_NUM, 0, 2, NULL, NULL, "a.b", 0, 0, 0 },
		{ "run_s", "run", REP_COL_NUM, 0, 2, NULL, NULL, "a.b", 0, 0, 0 },
		{ "n", "n", REP_COL_COUNT, 0, 0, NULL, NULL, "a.c", 0, 0, 0 },
		{ "extra", "extra", REP_COL_COUNT, 0, 0, NULL, NULL, "a.c", 0, 0, 1 },
		{ "gone", "gone", REP_COL_COUNT, 0, 0, NULL, NULL, "a.e", 0, 0, 1 },
		{ "offers", "offers", REP_COL_COUNT, 0, 0, NULL, NULL, "a", 0, 0, 0 },
		{ "x_d", "x", REP_COL_NUM, 0, 2, NULL, NULL, "d", 0, 0, 0 },
		{ "kwh", "kwh", REP_COL_NUM, 0, 2, NULL, NULL, "d", 0, 0, 0 },
		{ "y", "y", REP_COL_NUM, 0, 2, NULL, NULL, "f", 0, 0, 1 },
	};
	const struct rep_cell c[] = { { .text = "t" }, { .text = "k" }, { .num = 1.5 },
				      { .missing = 1 }, { .num = 2 }, { .missing = 1 },
				      { .absent = 1 }, { .num = 3 }, { .num = 0.25 },
				      { .missing = 1 }, { .missing = 1 } };
	struct rep_rows r;
	rep_rows_init(&r, pc, 11);
	rep_rows_add(&r, c);
	expect(&r, "json", 0,
	       "{\n"
	       "  \"rows\": [\n"
	       "    {\n"
	       "      \"top\": \"t\",\n"
	       "      \"a\": {\n"
	       "        \"kind\": \"k\",\n"
	       "        \"b\": {\n"
	       "          \"cost_usd\": 1.5,\n"
	       "          \"run_s\": null\n"
	       "        },\n"
	       "        \"c\": {\n"
	       "          \"n\": 2\n"
	       "        },\n"
	       "        \"offers\": 3\n"
	       "      },\n"
	       "      \"d\": {\n"
	       "        \"x\": 0.25,\n"
	       "        \"kwh\": null\n"
	       "      },\n"
	       "      \"f\": {}\n"
	       "    }\n"
	       "  ]\n"
	       "}\n");
	/* CSV knows no groups: the names in order, missing values empty. */
	expect(&r, "csv", 0,
	       "top,kind,cost_usd,run_s,n,extra,gone,offers,x_d,kwh,y\n"
	       "t,k,1.5,,2,,,3,0.25,,\n");
	rep_rows_release(&r);
}

/* One cell outside any rows reads as the same cell of rows does: in CSV
 * and the table (each column of two_rows' second row), and in JSON. */
static void one_cell_as_in_rows(void **state)
{
	(void)state;
	struct rep_rows r;
	static const char *const fmts[] = { "csv", "table", "md" };
	two_rows(&r);
	for (int f = 0; f < 3; f++)
		for (int c = 0; c < 5; c++) {
			char a[64], b[64];
			const char *want = rep_rows_text(&r, 1, c, fmts[f], a, sizeof(a));
			assert_string_equal(rep_cell_text(&cols[c], &r.cells[5 + c], fmts[f], b,
							  sizeof(b)), want);
		}
	char *got = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&got, &len);
	assert_non_null(f);
	struct rep_json j;
	rep_json_init(&j, f);
	rep_json_obj_begin(&j, NULL);
	for (int c = 0; c < 5; c++)
		rep_cell_json(&j, &cols[c], &r.cells[5 + c]);
	rep_json_obj_end(&j);
	assert_int_equal(rep_json_finish(&j), 0);
	fclose(f);
	assert_string_equal(got, "{\n  \"name\": null,\n  \"n\": 12,\n  \"err_frac\": -0.25,\n"
			    "  \"ok\": false,\n  \"ratio\": 1\n}\n");
	free(got);
	rep_rows_release(&r);
}

/* A worded column: the table and Markdown print its wording as given
 * (a name with an underscore stays bare, the other column's is
 * escaped), nothing where it has nothing to say; CSV its value. */
static int word_part(const struct rep_rows *r, size_t i, int c, const char *fmt, char *title,
		     char *value)
{
	(void)fmt;
	(void)title;
	const struct rep_cell *v = &r->cells[i * (size_t)r->ncols + (size_t)c];
	if (v->num == 0)
		return 1;
	snprintf(value, REP_WORD_LEN, "part_%.0f", v->num);
	return 0;
}

static void worded_column(void **state)
{
	(void)state;
	static const struct rep_col wc[] = {
		{ "name", "name", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
		{ "part", "part", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	};
	static const rep_word_fn words[] = { NULL, word_part };
	const struct rep_cell a[] = { { .text = "a_b" }, { .num = 2 } };
	const struct rep_cell b[] = { { .text = "c" }, { .num = 0 } };
	struct rep_rows r;
	rep_rows_init(&r, wc, 2);
	rep_rows_words(&r, words);
	rep_rows_add(&r, a);
	rep_rows_add(&r, b);
	expect(&r, "md", 0, "| name | part |\n| --- | ---: |\n| a\\_b | part_2 |\n| c |  |\n");
	expect(&r, "table", 0, "name    part\na_b   part_2\nc\n");
	expect(&r, "csv", 0, "name,part\na_b,2\nc,0\n");
	rep_rows_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_scales_and_aligns),
		cmocka_unit_test(csv_and_json_carry_the_values),
		cmocka_unit_test(non_finite_fails),
		cmocka_unit_test(significant_digits),
		cmocka_unit_test(csv_exponent),
		cmocka_unit_test(empty_rows),
		cmocka_unit_test(scaled_zero_and_whole),
		cmocka_unit_test(json_groups),
		cmocka_unit_test(views_and_csv_decimals),
		cmocka_unit_test(zero_words_for_missing),
		cmocka_unit_test(write_as_a_document),
		cmocka_unit_test(text_data_views_and_absent_fields),
		cmocka_unit_test(signed_numbers_and_figures),
		cmocka_unit_test(numbers_as_people_read_them),
		cmocka_unit_test(csv_only),
		cmocka_unit_test(absent_cells),
		cmocka_unit_test(one_cell_as_in_rows),
		cmocka_unit_test(json_group_paths),
		cmocka_unit_test(worded_column),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
