/*
 * test_md_html.c - the Markdown of --format md as the report's HTML: tables
 * with their numbers right-aligned and a unit every cell shares moved into
 * the header, paragraphs, headings, lists and inline markup.  Whole pages
 * are checked as XML by tests/plots/run-plots.sh (xmllint).
 */
#include "tc_test.h"

#include <stdlib.h>

#include "../../src/report/md_html.h"

/* The HTML of md, owned by *b. */
static const char *html(struct xmlbuf *b, const char *md)
{
	rep_md_html(b, md);
	assert_int_equal(b->oom, 0);
	return b->buf ? b->buf : "";
}

static void test_shared_unit_moves_to_header(void **state)
{
	struct xmlbuf b = { 0 };
	(void)state;
	/* "cost" is right-aligned and every cell is in dollars: "cost ($)"
	 * over bare numbers; "-" stays as it is.  "step" mixes s and min: the
	 * units stay in the cells.  "GPU" is text: left-aligned. */
	const char *h = html(&b, "| GPU | step | cost |\n"
				 "| --- | ---: | ---: |\n"
				 "| h100-sxm | 5.93 s | $345,563 |\n"
				 "| l4 | 1.14 min | - |\n");
	assert_non_null(strstr(h, "<th>GPU</th><th class=\"num\">step</th>"
				  "<th class=\"num\">cost ($)</th>"));
	assert_non_null(strstr(h, "<tr><td>h100-sxm</td><td class=\"num\">5.93 s</td>"
				  "<td class=\"num\">345,563</td></tr>"));
	assert_non_null(strstr(h, "<td class=\"num\">1.14 min</td><td class=\"num\">-</td>"));
	xmlbuf_release(&b);
}

static void test_word_unit_and_percent(void **state)
{
	struct xmlbuf b = { 0 };
	(void)state;
	const char *h = html(&b, "| part | share | energy |\n"
				 "| --- | ---: | ---: |\n"
				 "| gemm | 79.9 % | 33,753 kWh |\n"
				 "| attention | 16.3 % | 1 kWh |\n");
	assert_non_null(strstr(h, "<th class=\"num\">share (%)</th><th class=\"num\">energy (kWh)</th>"));
	assert_non_null(strstr(h, "<td>gemm</td><td class=\"num\">79.9</td><td class=\"num\">33,753</td>"));
	xmlbuf_release(&b);
}

static void test_left_column_keeps_units(void **state)
{
	struct xmlbuf b = { 0 };
	(void)state;
	/* Only right-aligned columns are numbers: "free" is left-aligned. */
	const char *h = html(&b, "| GPU | free |\n| --- | --- |\n| a | 10.1 GB |\n");
	assert_non_null(strstr(h, "<th>free</th>"));
	assert_non_null(strstr(h, "<td>10.1 GB</td>"));
	xmlbuf_release(&b);
}

static void test_text_blocks(void **state)
{
	struct xmlbuf b = { 0 };
	(void)state;
	const char *h = html(&b, "## Llama <2>\n\nfirst line\nsecond `code` **bold** a\\_b\n\n"
				 "- one\n- two\n");
	assert_string_equal(h, "<h3>Llama &lt;2&gt;</h3>\n"
			       "<p>first line\nsecond <code>code</code> <strong>bold</strong> a_b</p>\n"
			       "<ul><li>one</li>\n<li>two</li></ul>\n");
	xmlbuf_release(&b);
}

static void test_escaped_pipe_stays_in_cell(void **state)
{
	struct xmlbuf b = { 0 };
	(void)state;
	const char *h = html(&b, "| a | b |\n| --- | --- |\n| x \\| y | z |\n");
	assert_non_null(strstr(h, "<td>x | y</td><td>z</td>"));
	xmlbuf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared_unit_moves_to_header),
		cmocka_unit_test(test_word_unit_and_percent),
		cmocka_unit_test(test_left_column_keeps_units),
		cmocka_unit_test(test_text_blocks),
		cmocka_unit_test(test_escaped_pipe_stays_in_cell),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
