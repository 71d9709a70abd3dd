/*
 * test_stream.c - rows written one at a time (report/stream.c): CSV and
 * Markdown the bytes rows.c writes for the same rows, JSON an object a
 * line, the table at fixed places.
 */
#include "tc_test.h"

#include <math.h>
#include <stdlib.h>

#include "../../src/report/rows.h"
#include "../../src/report/stream.h"

/* A key grouped under its whole name (a sweep's path), a count, a text CSV
 * must quote, a fraction shown scaled, a truth value, a price worded for
 * people next to its value, and a note JSON leaves out when missing. */
static const struct rep_col cols[] = {
	{ "plan.gpu", "plan.gpu", REP_COL_TEXT, 0, 0, NULL, NULL, "inputs", 0, 0, 0 },
	{ "n", "n", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "name", "name", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "mfu_frac", "MFU", REP_COL_NUM, 100, 1, " %", NULL, NULL, 0, 0, 0 },
	{ "fits", "fits", REP_COL_BOOL, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "cost_usd", "", REP_COL_NUM, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_DATA, 0 },
	{ "cost_usd", "cost", REP_COL_FIGURE, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_TEXT, 0 },
	{ "note", "note", REP_COL_TEXT, 0, 0, NULL, "", NULL, 0, 0, 1 },
};
#define NCOLS 8

static const struct rep_cell rows_in[2][NCOLS] = {
	{ { .text = "a100" }, { .num = 3 }, { .text = "a,\"b\"" }, { .num = 0.595435 }, { .num = 1 },
	  { .num = 472829.4 }, { .text = "$472,829" }, { .missing = 1 } },
	{ { .text = "h100|x" }, { .num = 12 }, { .missing = 1 }, { .missing = 1 }, { .num = 0 },
	  { .missing = 1 }, { .missing = 1 }, { .text = "why" } },
};

/* The rows streamed in fmt: the header, then each row (JSON rows a
 * line each).  Returns the text (caller frees). */
static char *streamed(const char *fmt)
{
	struct rep_stream s;
	char *buf = calloc(1, 4096);
	struct rep_buf b = { buf, 0, 4096 };
	assert_non_null(buf);
	rep_stream_init(&s, cols, NCOLS, fmt);
	rep_stream_head(&s, &b);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(rep_stream_row(&s, rows_in[i], &b), 0);
		if (s.fmt == REP_STREAM_JSON)
			rep_buf_put(&b, "\n", 1);
	}
	buf[b.len] = '\0';
	return buf;
}

/* The same rows through rep_rows_print. */
static char *printed(const char *fmt)
{
	struct rep_rows r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	rep_rows_init(&r, cols, NCOLS);
	for (int i = 0; i < 2; i++)
		rep_rows_add(&r, rows_in[i]);
	assert_int_equal(rep_rows_print(&r, f, fmt), 0);
	fclose(f);
	rep_rows_release(&r);
	return buf;
}

/* CSV and Markdown need no widths: a row streamed is the row printed. */
static void csv_and_md_as_rows_print(void **state)
{
	(void)state;
	static const char *const fmts[] = { "csv", "md" };
	for (int k = 0; k < 2; k++) {
		char *a = streamed(fmts[k]), *b = printed(fmts[k]);
		assert_string_equal(a, b);
		free(a);
		free(b);
	}
	char *csv = streamed("csv");
	assert_string_equal(csv, "plan.gpu,n,name,mfu_frac,fits,cost_usd,note\n"
				 "a100,3,\"a,\"\"b\"\"\",0.595435,true,472829,\n"
				 "h100|x,12,,,false,,why\n");
	free(csv);
}

/* JSON: an object a row, the key in "inputs" under its whole name, a
 * missing value null, an absent one left out, numbers as CSV gives them
 * (472829.4 to six digits). */
static void json_object_a_line(void **state)
{
	(void)state;
	char *json = streamed("json");
	assert_string_equal(json,
			    "{\"inputs\":{\"plan.gpu\":\"a100\"},\"n\":3,\"name\":\"a,\\\"b\\\"\","
			    "\"mfu_frac\":0.595435,\"fits\":true,\"cost_usd\":472829}\n"
			    "{\"inputs\":{\"plan.gpu\":\"h100|x\"},\"n\":12,\"name\":null,"
			    "\"mfu_frac\":null,\"fits\":false,\"cost_usd\":null,\"note\":\"why\"}\n");
	free(json);
}

/*
 * The table at fixed places: text from its column's start, numbers to its
 * end, columns REP_STREAM_WIDTH wide (counts and truth values
 * REP_STREAM_SHORT) two apart; "-" for a missing value, nothing for the
 * note's, whose line then ends at the cost.
 */
static void table_fixed_places(void **state)
{
	(void)state;
	char *t = streamed("table");
	assert_string_equal(t,
			    "plan.gpu             n  name                       MFU    fits            "
			    "cost  note\n"
			    "a100                 3  a,\"b\"                   59.5 %     yes        "
			    "$472,829\n"
			    "h100|x              12  -                            -      no               "
			    "-  why\n");
	free(t);
}

/* A text longer than its column pushes the next cell, and the cells after
 * it come back to their places as soon as there is room. */
static void table_overflow_catches_up(void **state)
{
	(void)state;
	static const struct rep_col tc[] = {
		REP_TEXT_COL("a", "a", REP_VIEW_ALL, 0),
		REP_TEXT_COL("b", "b", REP_VIEW_ALL, 0),
		REP_TEXT_COL("c", "c", REP_VIEW_ALL, 0),
	};
	const struct rep_cell c[] = { { .text = "abcdefghijklmnopq" }, { .text = "x" },
				      { .text = "y" } };
	struct rep_stream s;
	char buf[256];
	struct rep_buf b = { buf, 0, sizeof(buf) };
	rep_stream_init(&s, tc, 3, "table");
	assert_int_equal(rep_stream_row(&s, c, &b), 0);
	buf[b.len] = '\0';
	/* a ends at 17 (its column at 14), b starts at 19 not 16, c at 32. */
	assert_string_equal(buf, "abcdefghijklmnopq  x            y\n");
}

/* A non-finite number is never written: the row fails. */
static void non_finite_fails(void **state)
{
	(void)state;
	static const char *const fmts[] = { "csv", "json", "table", "md" };
	struct rep_cell c[NCOLS];
	memcpy(c, rows_in[0], sizeof(c));
	c[3].num = (double)NAN;
	for (int k = 0; k < 4; k++) {
		struct rep_stream s;
		char buf[512];
		struct rep_buf b = { buf, 0, sizeof(buf) };
		rep_stream_init(&s, cols, NCOLS, fmts[k]);
		assert_int_equal(rep_stream_row(&s, c, &b), -1);
	}
}

/* A row longer than its buffer is cut to the buffer, never past it. */
static void cut_at_the_buffer(void **state)
{
	(void)state;
	struct rep_stream s;
	char buf[16];
	struct rep_buf b = { buf, 0, sizeof(buf) };
	rep_stream_init(&s, cols, NCOLS, "csv");
	assert_int_equal(rep_stream_row(&s, rows_in[0], &b), 0);
	assert_int_equal(b.len, sizeof(buf) - 1);
	assert_memory_equal(buf, "a100,3,\"a,\"\"b\"\"", 15);
}

/* A cell absent from its row (rows.h) is left out of its JSON object
 * whatever its column says, and empty in CSV. */
static void absent_cell(void **state)
{
	(void)state;
	struct rep_cell c[NCOLS];
	struct rep_stream s;
	char buf[512];
	memcpy(c, rows_in[0], sizeof(c));
	c[2] = (struct rep_cell){ .text = "kept?", .absent = 1 };
	for (int k = 0; k < 2; k++) {
		struct rep_buf b = { buf, 0, sizeof(buf) };
		rep_stream_init(&s, cols, NCOLS, k ? "csv" : "json");
		assert_int_equal(rep_stream_row(&s, c, &b), 0);
		buf[b.len] = '\0';
		assert_null(strstr(buf, k ? "kept" : "\"name\""));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(csv_and_md_as_rows_print),
		cmocka_unit_test(json_object_a_line),
		cmocka_unit_test(table_fixed_places),
		cmocka_unit_test(table_overflow_catches_up),
		cmocka_unit_test(non_finite_fails),
		cmocka_unit_test(cut_at_the_buffer),
		cmocka_unit_test(absent_cell),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
