/*
 * test_report.c - JSON writer, tables (text, CSV, Markdown), data path.
 */
#include "tc_test.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/cli/cli.h"
#include "../../src/cli/cli_ctx.h"
#include "../../src/io/datapath.h"
#include "../../src/report/json.h"
#include "../../src/report/table.h"

/* Run `fn` writing into a memory stream; returns the text (caller frees). */
static char *capture(void (*fn)(FILE *, void *), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	fn(f, arg);
	fclose(f);
	return buf;
}

static void write_json_doc(FILE *f, void *arg)
{
	int *rc = arg;
	struct rep_json j;
	rep_json_init(&j, f);
	rep_json_obj_begin(&j, NULL);
	rep_json_int(&j, "format_version", 1);
	rep_json_str(&j, "name", "a \"quoted\"\tname\n");
	rep_json_num(&j, "x", 0.1);
	rep_json_num(&j, "big", 6.02e23);
	rep_json_arr_begin(&j, "list");
	rep_json_num(&j, NULL, 2.5e12);
	rep_json_bool(&j, NULL, 0);
	rep_json_arr_end(&j);
	rep_json_arr_begin(&j, "empty");
	rep_json_arr_end(&j);
	rep_json_obj_end(&j);
	*rc = rep_json_finish(&j);
}

static void json_layout_and_escaping(void **state)
{
	(void)state;
	int rc = -1;
	char *s = capture(write_json_doc, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(s, "{\n"
			       "  \"format_version\": 1,\n"
			       "  \"name\": \"a \\\"quoted\\\"\\tname\\n\",\n"
			       "  \"x\": 0.1,\n"
			       "  \"big\": 6.02e+23,\n"
			       "  \"list\": [\n"
			       "    2500000000000,\n"
			       "    false\n"
			       "  ],\n"
			       "  \"empty\": []\n"
			       "}\n");
	free(s);
}

static void write_nan(FILE *f, void *arg)
{
	struct rep_json *j = arg;
	rep_json_init(j, f);
	rep_json_obj_begin(j, NULL);
	rep_json_num(j, "ok", 1);
	rep_json_num(j, "step_time_s", (double)NAN);
	rep_json_num(j, "later", HUGE_VAL);
	rep_json_obj_end(j);
}

static void json_never_prints_nan(void **state)
{
	(void)state;
	struct rep_json j;
	char *s = capture(write_nan, &j);
	assert_null(strstr(s, "nan"));
	assert_null(strstr(s, "inf"));
	assert_non_null(strstr(s, "\"step_time_s\": null"));
	/* The first bad key is the one named in the internal error. */
	assert_string_equal(j.bad_key, "step_time_s");
	free(s);
}

static void write_table(FILE *f, void *arg)
{
	const char *fmt = arg;
	static const char *const head[] = { "id", "value" };
	static const enum rep_align align[] = { REP_LEFT, REP_RIGHT };
	struct rep_table t;
	rep_table_init(&t, 2, head, align);
	rep_table_row(&t, (const char *const[]){ "a100", "312" });
	rep_table_row(&t, (const char *const[]){ "x,\"y\"", "7" });
	assert_int_equal(rep_table_print(&t, f, fmt), 0);
	rep_table_release(&t);
}

static void table_text_aligns(void **state)
{
	(void)state;
	char fmt[] = "table";
	char *s = capture(write_table, fmt);
	/* Column 1 is 5 wide (x,"y"), two spaces apart from column 2, which is
	 * right-aligned to the 5 of "value". */
	assert_string_equal(s, "id     value\n"
			       "a100     312\n"
			       "x,\"y\"      7\n");
	free(s);
}

static void table_csv_quotes(void **state)
{
	(void)state;
	char fmt[] = "csv";
	char *s = capture(write_table, fmt);
	assert_string_equal(s, "id,value\na100,312\n\"x,\"\"y\"\"\",7\n");
	free(s);
}

static void table_markdown(void **state)
{
	(void)state;
	char fmt[] = "md";
	char *s = capture(write_table, fmt);
	assert_string_equal(s, "| id | value |\n| --- | ---: |\n| a100 | 312 |\n| x,\"y\" | 7 |\n");
	free(s);
}

/* A last column most rows leave empty (a note): those lines end at their
 * last text, with no padding or gap after it. */
static void write_note(FILE *f, void *arg)
{
	const char *fmt = arg;
	static const char *const head[] = { "id", "err", "" };
	static const enum rep_align align[] = { REP_LEFT, REP_RIGHT, REP_LEFT };
	struct rep_table t;
	rep_table_init(&t, 3, head, align);
	rep_table_row(&t, (const char *const[]){ "a", "+1.0 %", "" });
	rep_table_row(&t, (const char *const[]){ "bb", "-12.5 %", "(why)" });
	assert_int_equal(rep_table_print(&t, f, fmt), 0);
	rep_table_release(&t);
}

static void table_text_ends_at_last_text(void **state)
{
	(void)state;
	char fmt[] = "table";
	char *s = capture(write_note, fmt);
	assert_string_equal(s, "id      err\n"
			       "a    +1.0 %\n"
			       "bb  -12.5 %  (why)\n");
	free(s);
}

/* A cell with a terminal escape, a right-to-left override (U+202E), a
 * zero-width space (U+200B), a line break and Markdown specials. */
static void write_hostile(FILE *f, void *arg)
{
	const char *fmt = arg;
	static const char *const head[] = { "name", "n" };
	struct rep_table t;
	rep_table_init(&t, 2, head, NULL);
	rep_table_row(&t, (const char *const[]){ "a\x1b[2J\xe2\x80\xae|b\xe2\x80\x8b\n*_<x>", "1" });
	assert_int_equal(rep_table_print(&t, f, fmt), 0);
	rep_table_release(&t);
}

static void table_escapes_hostile_text(void **state)
{
	(void)state;
	char table[] = "table", md[] = "md", csv[] = "csv";
	char *s = capture(write_hostile, table);
	/* Escaped, the cell is 1 + 6 + 3 + 6 + 2 + 6 + 6 + 5 = 35 characters:
	 * "name" is padded to it, then the two spaces between columns. */
	assert_string_equal(s, "name                                 n\n"
			       "a\\u001B[2J\\u202E|b\\u200B\\u000A*_<x>  1\n");
	free(s);
	s = capture(write_hostile, md);
	assert_string_equal(s, "| name | n |\n| --- | --- |\n"
			       "| a\\u001B\\[2J\\u202E\\|b\\u200B\\u000A\\*\\_\\<x\\> | 1 |\n");
	free(s);
	/* CSV keeps the text as it is (quoted for the line break). */
	s = capture(write_hostile, csv);
	assert_string_equal(s, "name,n\n\"a\x1b[2J\xe2\x80\xae|b\xe2\x80\x8b\n*_<x>\",1\n");
	free(s);
}

/* Make dir/models/gpu/name with some content. */
static void touch(const char *dir, const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/models", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/models/gpu", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/models/gpu/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("kind: gpu\n", f);
	fclose(f);
}

static void rm_tree(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void datapath_order_and_shadowing(void **state)
{
	(void)state;
	char a[] = "/tmp/tc-dp-a-XXXXXX", b[] = "/tmp/tc-dp-b-XXXXXX";
	assert_non_null(mkdtemp(a));
	assert_non_null(mkdtemp(b));
	touch(a, "x.yaml");
	touch(b, "x.yaml");
	touch(b, "y.yaml");
	touch(b, ".hidden.yaml");
	touch(b, "notes.txt");

	struct tc_datapath dp;
	struct tc_diag d;
	tc_diag_init(&d);
	unsetenv("TRAINCOST_PATH");
	unsetenv("TRAINCOST_PATH_ONLY");
	const char *dirs[] = { a, b };
	assert_int_equal(dp_init(&dp, dirs, 2, &d), 0);
	assert_string_equal(dp.dir[0], a);
	assert_string_equal(dp.dir[1], b);
	assert_string_equal(dp.dir[2], ".");

	char path[DP_PATH_LEN], want[DP_PATH_LEN];
	assert_int_equal(dp_find(&dp, "models/gpu", "x.yaml", path, sizeof(path)), 0);
	snprintf(want, sizeof(want), "%s/models/gpu/x.yaml", a); /* a shadows b */
	assert_string_equal(path, want);
	assert_int_equal(dp_find(&dp, "models/gpu", "nope.yaml", path, sizeof(path)), -1);

	char **list;
	size_t n;
	/* The working tree's models/gpu is on the path too: count only ours. */
	const char *only[] = { a, b };
	struct tc_datapath dp2 = { .count = 2 };
	strcpy(dp2.dir[0], only[0]);
	strcpy(dp2.dir[1], only[1]);
	assert_int_equal(dp_list(&dp2, "models/gpu", &list, &n), 0);
	assert_int_equal(n, 2); /* x from a, y from b; hidden and .txt skipped */
	assert_string_equal(list[0], want);
	snprintf(want, sizeof(want), "%s/models/gpu/y.yaml", b);
	assert_string_equal(list[1], want);
	dp_list_free(list, n);
	rm_tree(a);
	rm_tree(b);
}

static void datapath_environment(void **state)
{
	(void)state;
	struct tc_datapath dp;
	struct tc_diag d;
	tc_diag_init(&d);
	setenv("TRAINCOST_PATH", "/x::/y", 1);
	unsetenv("TRAINCOST_PATH_ONLY");
	assert_int_equal(dp_init(&dp, NULL, 0, &d), 0);
	/* Empty entries are skipped: /x, /y, then ".", then the share folder. */
	assert_int_equal(dp.count, 4);
	assert_string_equal(dp.dir[0], "/x");
	assert_string_equal(dp.dir[1], "/y");
	assert_string_equal(dp.dir[2], ".");

	/* TRAINCOST_PATH_ONLY=1: the named folders and nothing else; 0 is
	 * the default; anything else is refused. */
	setenv("TRAINCOST_PATH_ONLY", "1", 1);
	assert_int_equal(dp_init(&dp, NULL, 0, &d), 0);
	assert_int_equal(dp.count, 2);
	assert_string_equal(dp.dir[1], "/y");
	setenv("TRAINCOST_PATH_ONLY", "0", 1);
	assert_int_equal(dp_init(&dp, NULL, 0, &d), 0);
	assert_int_equal(dp.count, 4);
	setenv("TRAINCOST_PATH_ONLY", "yes", 1);
	assert_int_equal(dp_init(&dp, NULL, 0, &d), -1);
	assert_int_equal(d.severity, TC_EXIT_USAGE);
	assert_string_equal(d.entry[0].msg, "TRAINCOST_PATH_ONLY 'yes' is not valid (expected 0 or 1)");
	tc_use_test_data();
}

/* A full disk under standard output is an I/O error (exit 3), not success. */
static void full_stdout_is_io_error(void **state)
{
	(void)state;
	FILE *full = fopen("/dev/full", "w");
	FILE *err = tmpfile();
	if (!full)
		skip();
	assert_non_null(err);
	char prog[] = "traincost", cmd[] = "gpus";
	char *argv[] = { prog, cmd, NULL };
	assert_int_equal(cli_main(2, argv, full, err), TC_EXIT_IO);
	char msg[256] = "";
	rewind(err);
	assert_non_null(fgets(msg, sizeof(msg), err));
	assert_string_equal(msg, "traincost: cannot write the output\n");
	fclose(full);
	fclose(err);
}

int main(void)
{
	tc_use_test_data();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_layout_and_escaping),
		cmocka_unit_test(json_never_prints_nan),
		cmocka_unit_test(table_text_aligns),
		cmocka_unit_test(table_csv_quotes),
		cmocka_unit_test(table_markdown),
		cmocka_unit_test(table_text_ends_at_last_text),
		cmocka_unit_test(table_escapes_hostile_text),
		cmocka_unit_test(datapath_order_and_shadowing),
		cmocka_unit_test(datapath_environment),
		cmocka_unit_test(full_stdout_is_io_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
