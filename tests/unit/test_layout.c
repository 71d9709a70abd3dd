/*
 * test_layout.c - a chosen layout as the reports give it
 * (report/layout_text.c): its columns write in CSV and JSON the ten
 * fields of the contract, and the table the count and the one-cell
 * summary.
 */
#include "tc_test.h"

#include "../../src/report/layout_text.h"

static const struct rep_col cols[] = { REP_LAYOUT_COLS };
_Static_assert(sizeof(cols) / sizeof(cols[0]) == REP_LAYOUT_NCOLS, "REP_LAYOUT_NCOLS");

/* A workload and the estimate of its chosen layout. */
struct chosen {
	struct workload w;
	struct estimate e;
};

/* A language model on 64 GPUs: tp 2, pp 4, dp 8, ZeRO 1, micro-batch 1,
 * interleaved by 2, sequence parallel, selective recompute; the stages
 * even. */
static int setup(void **state)
{
	struct chosen *c = calloc(1, sizeof(*c));
	if (!c)
		return -1;
	c->w.kind = WL_LLM;
	c->w.train.recompute = 1;
	c->e.plan = (struct plan){ .count = 64, .tp = 2, .pp = 4, .dp = 8, .ep = 1, .zero = 1,
				   .micro_batch = 1, .interleave = 2, .sequence_parallel = 1 };
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

/* The layout as one row of its columns. */
static void layout_rows(struct rep_rows *r, const struct chosen *c)
{
	struct rep_cell cells[REP_LAYOUT_NCOLS];
	char text[REP_LAYOUT_TEXT_LEN];
	rep_layout_row(cells, text, &c->w, &c->e);
	rep_rows_init(r, cols, REP_LAYOUT_NCOLS);
	rep_rows_add(r, cells);
}

/* The layout's rows as rep_rows_print writes them in fmt (caller
 * frees). */
static char *printed(const struct chosen *c, const char *fmt)
{
	char *buf = NULL;
	size_t len = 0;
	struct rep_rows r;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	layout_rows(&r, c);
	assert_int_equal(rep_rows_print(&r, f, fmt), 0);
	rep_rows_release(&r);
	fclose(f);
	return buf;
}

/* The layout's fields in a JSON object (caller frees). */
static char *json_object(const struct chosen *c)
{
	char *buf = NULL;
	size_t len = 0;
	struct rep_rows r;
	struct rep_json j;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	rep_json_init(&j, f);
	rep_json_obj_begin(&j, NULL);
	layout_rows(&r, c);
	rep_rows_json_fields(&r, 0, &j);
	rep_rows_release(&r);
	rep_json_obj_end(&j);
	assert_int_equal(rep_json_finish(&j), 0);
	fclose(f);
	return buf;
}

/* JSON: the ten fields of the contract, counts as integers, recompute
 * by name, sequence parallelism as a truth value (tp 2 > 1: true); the
 * stages' layers only where they are uneven (3 and 5 layers). */
static void json_fields(void **state)
{
	struct chosen *c = *state;
	static const char head[] =
		"{\n  \"count\": 64,\n  \"tp\": 2,\n  \"pp\": 4,\n  \"dp\": 8,\n  \"ep\": 1,\n"
		"  \"zero\": 1,\n  \"micro_batch\": 1,\n  \"recompute\": \"selective\",\n"
		"  \"interleave\": 2,\n";
	char want[2][512];
	snprintf(want[0], sizeof(want[0]), "%s  \"sequence_parallel\": true\n}\n", head);
	snprintf(want[1], sizeof(want[1]), "%s  \"first_stage_layers\": 3,\n"
		 "  \"last_stage_layers\": 5,\n  \"sequence_parallel\": true\n}\n", head);
	for (int uneven = 0; uneven < 2; uneven++) {
		c->e.plan.first_stage_layers = uneven ? 3 : 0;
		c->e.plan.last_stage_layers = uneven ? 5 : 0;
		char *got = json_object(c);
		assert_string_equal(got, want[uneven]);
		free(got);
	}
}

/* CSV: the ten fields of the contract under their names, in order. */
static void csv_fields(void **state)
{
	char *got = printed(*state, "csv");
	assert_string_equal(got, "count,tp,pp,dp,ep,zero,micro_batch,recompute,interleave,"
				 "sequence_parallel\n"
				 "64,2,4,8,1,1,1,selective,2,true\n");
	free(got);
}

/* The table: the count and the summary alone. */
static void table_count_and_summary(void **state)
{
	char *got = printed(*state, "table");
	assert_string_equal(got, "count  layout\n"
				 "   64  tp2 pp4 dp8 z1 mb1 selective\n");
	free(got);
}

/* A plan point's layout, its recompute its own and its summary worded by
 * the command: the same fields (full recompute where the workload says
 * selective), the table the summary given. */
static void plan_row_own_summary(void **state)
{
	const struct chosen *c = *state;
	struct rep_cell cells[REP_LAYOUT_NCOLS], want[REP_LAYOUT_NCOLS];
	char text[REP_LAYOUT_TEXT_LEN];
	rep_layout_plan_row(cells, "tp 2 pp 4 v 2 sp", &c->e.plan, 2);
	rep_layout_row(want, text, &c->w, &c->e);
	assert_string_equal(cells[1].text, "tp 2 pp 4 v 2 sp");
	assert_string_equal(cells[8].text, "full");
	for (int k = 0; k < REP_LAYOUT_NCOLS; k++)
		if (k != 1 && k != 8) {
			assert_true(cells[k].num == want[k].num);
			assert_int_equal(cells[k].missing, want[k].missing);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(json_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(csv_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(table_count_and_summary, setup, teardown),
		cmocka_unit_test_setup_teardown(plan_row_own_summary, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
