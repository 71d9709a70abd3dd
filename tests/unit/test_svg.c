/*
 * test_svg.c - the markup buffer, the SVG writer and the chart layer:
 * escaping, document structure, axis rounding and the value-to-pixel map.
 * Whole documents are checked as XML by tests/plots/run-plots.sh (xmllint).
 */
#include "tc_test.h"

#include <stdlib.h>

#include "../../src/report/chart.h"
#include "../../src/report/svg.h"
#include "../../src/report/xmlbuf.h"

/* Occurrences of needle in hay. */
static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void test_escape_markup(void **state)
{
	struct xmlbuf b = { 0 };
	(void)state;
	xmlbuf_text(&b, "a<b & \"c\" 'd' >");
	assert_string_equal(b.buf, "a&lt;b &amp; &quot;c&quot; &#39;d&#39; &gt;");
	assert_int_equal(b.oom, 0);
	xmlbuf_release(&b);
}

static void test_escape_control_and_bad_utf8(void **state)
{
	struct xmlbuf b = { 0 };
	(void)state;
	/* Bell and escape are dropped (XML 1.0 cannot hold them), tab and
	 * newline kept; é (C3 A9) is valid; a lone C3 and an FF are not. */
	xmlbuf_text(&b, "x\a\x1by\tz\n\xC3\xA9|\xC3|\xFF");
	assert_string_equal(b.buf, "xy\tz\n\xC3\xA9|\xEF\xBF\xBD|\xEF\xBF\xBD");
	xmlbuf_release(&b);
	assert_null(b.buf);
	xmlbuf_release(&b); /* twice: a no-op */
}

static void test_document_structure(void **state)
{
	struct svg s;
	(void)state;
	svg_begin(&s, 200, 100, "Cost & time", "bars <per> GPU", 1);
	svg_group_begin(&s, "panel");
	svg_rect(&s, 1, 2, 3, 4, "bar s0", "a100: 5 days");
	svg_text(&s, 10, 20, SVG_MIDDLE, -90, "label", "time (s)");
	svg_line(&s, 0, 0, 1.005, 1, "axis");
	/* the group is left open: svg_end closes it */
	assert_int_equal(svg_end(&s), 0);
	const char *d = s.x.buf;
	assert_true(!strncmp(d, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"", 77));
	assert_non_null(strstr(d, " width=\"200.00\" height=\"100.00\" viewBox=\"0 0 200.00 100.00\" role=\"img\">"));
	assert_non_null(strstr(d, "<title>Cost &amp; time</title>\n<desc>bars &lt;per&gt; GPU</desc>\n<style>"));
	assert_non_null(strstr(d, "<rect x=\"1.00\" y=\"2.00\" width=\"3.00\" height=\"4.00\" class=\"bar s0\"><title>a100: 5 days</title></rect>\n"));
	assert_non_null(strstr(d, "<text x=\"10.00\" y=\"20.00\" text-anchor=\"middle\" transform=\"rotate(-90.0 10.00 20.00)\" class=\"label\">time (s)</text>\n"));
	assert_non_null(strstr(d, "<line x1=\"0.00\" y1=\"0.00\" x2=\"1.00\" y2=\"1.00\" class=\"axis\"/>\n"));
	assert_int_equal(count(d, "<g"), 1);
	assert_int_equal(count(d, "</g>"), 1);
	assert_int_equal(count(d, "<svg"), 1);
	assert_string_equal(d + strlen(d) - 7, "</svg>\n");
	svg_release(&s);
}

static void test_inline_document_has_no_declaration(void **state)
{
	struct svg s;
	(void)state;
	svg_begin(&s, 10, 10, "t", NULL, 0);
	assert_int_equal(svg_end(&s), 0);
	assert_true(!strncmp(s.x.buf, "<svg ", 5));
	assert_null(strstr(s.x.buf, "<style>"));
	assert_non_null(strstr(s.x.buf, "<desc>t</desc>")); /* desc falls back to the title */
	svg_release(&s);
}

static void test_nonfinite_is_an_error(void **state)
{
	struct svg s;
	(void)state;
	svg_begin(&s, 10, 10, "t", NULL, 1);
	svg_circle(&s, (double)NAN, 1, 2, "pt s1", NULL);
	assert_int_equal(svg_end(&s), -1);
	assert_int_equal(s.nonfinite, 1);
	assert_null(strstr(s.x.buf, "nan"));
	svg_release(&s);
	svg_begin(&s, 10, 10, "t", NULL, 1);
	double x[2] = { 0, HUGE_VAL }, y[2] = { 0, 1 };
	svg_polyline(&s, 2, x, y, "line s0");
	assert_int_equal(svg_end(&s), -1);
	assert_null(strstr(s.x.buf, "inf"));
	svg_release(&s);
}

static void test_axis_nice_linear(void **state)
{
	(void)state;
	/* 7.3 / 5 = 1.46 -> step 2 -> [0, 8] */
	struct chart_axis a = { "x", CHART_LINEAR, 0, 7.3 };
	chart_axis_nice(&a);
	assert_close(a.min, 0, TOL_EXACT);
	assert_close(a.max, 8, TOL_EXACT);
	/* (0.47 - 0.12) / 5 = 0.07 -> step 0.1 -> [0.1, 0.5] */
	a = (struct chart_axis){ "x", CHART_LINEAR, 0.12, 0.47 };
	chart_axis_nice(&a);
	assert_close(a.min, 0.1, TOL_TIGHT);
	assert_close(a.max, 0.5, TOL_TIGHT);
	/* an empty range at 3 widens by 10 % to [2.7, 3.3] -> step
	 * nice(0.12) = 0.2 -> [2.6, 3.4] */
	a = (struct chart_axis){ "x", CHART_LINEAR, 3, 3 };
	chart_axis_nice(&a);
	assert_close(a.min, 2.6, TOL_TIGHT);
	assert_close(a.max, 3.4, TOL_TIGHT);
}

static void test_axis_nice_log(void **state)
{
	(void)state;
	struct chart_axis a = { "x", CHART_LOG, 0.03, 450 };
	chart_axis_nice(&a);
	assert_close(a.min, 0.01, TOL_TIGHT);
	assert_close(a.max, 1000, TOL_TIGHT);
	a = (struct chart_axis){ "x", CHART_LOG, -1, 50 }; /* min raised to 5 */
	chart_axis_nice(&a);
	assert_close(a.min, 1, TOL_TIGHT);
	assert_close(a.max, 100, TOL_TIGHT);
}

static void test_panel_maps_values(void **state)
{
	struct svg s;
	struct chart c;
	(void)state;
	svg_begin(&s, 400, 300, "t", NULL, 1);
	struct chart_axis x = { "work (s)", CHART_LOG, 1, 100 };
	struct chart_axis y = { "cost (USD)", CHART_LINEAR, 0, 8 };
	chart_panel(&c, &s, (struct chart_box){ 0, 0, 400, 300 }, "panel", &x, &y, 0, NULL, 0);
	/* Plot area: 76 px left margin, 18 right: x from 76 to 382; 28 px
	 * title, 48 px bottom: y from 28 to 252. */
	assert_close(chart_px(&c, 1), 76, TOL_EXACT);
	assert_close(chart_px(&c, 100), 382, TOL_EXACT);
	assert_close(chart_px(&c, 10), 229, TOL_EXACT); /* a decade is half the width */
	assert_close(chart_py(&c, 0), 252, TOL_EXACT);
	assert_close(chart_py(&c, 8), 28, TOL_EXACT);
	assert_close(chart_py(&c, 2), 196, TOL_EXACT); /* 252 - 224 / 4 */
	assert_int_equal(svg_end(&s), 0);
	/* Ticks 0, 2, 4, 6, 8 on y and decades 1, 10, 100 on x, as text. */
	for (int v = 0; v <= 8; v += 2) {
		char want[64];
		snprintf(want, sizeof(want), "class=\"tick\">%d</text>", v);
		assert_non_null(strstr(s.x.buf, want));
	}
	assert_non_null(strstr(s.x.buf, "class=\"tick\">100</text>"));
	assert_non_null(strstr(s.x.buf, ">work (s)</text>"));
	assert_non_null(strstr(s.x.buf, ">cost (USD)</text>"));
	svg_release(&s);
}

/* Height of the first bar of class cls in the document. */
static double bar_height(const char *doc, const char *cls)
{
	char want[64];
	snprintf(want, sizeof(want), "class=\"%s\"", cls);
	const char *p = strstr(doc, want);
	assert_non_null(p);
	while (p > doc && strncmp(p, "height=\"", 8))
		p--;
	return strtod(p + 8, NULL);
}

static void test_bars_grow_with_value(void **state)
{
	struct svg s;
	struct chart c;
	static const char *const cat[] = { "a", "b" };
	(void)state;
	svg_begin(&s, 400, 300, "t", NULL, 1);
	struct chart_axis y = { "time (days)", CHART_LINEAR, 0, 10 };
	chart_panel(&c, &s, (struct chart_box){ 0, 0, 400, 300 }, "bars", NULL, &y, 2, cat, 1);
	chart_bar(&c, 0, 0, 1, 3, 0, "a");
	chart_bar(&c, 1, 0, 1, 6, 1, "b");
	chart_whisker(&c, 1, 0, 1, 5, 7, "P10-P90");
	chart_legend(&c, 0, "first");
	chart_legend(&c, -1, "chosen");
	assert_int_equal(svg_end(&s), 0);
	double h0 = bar_height(s.x.buf, "bar s0"), h1 = bar_height(s.x.buf, "bar s1");
	assert_true(h0 > 0);
	assert_close(h1, 2 * h0, 1e-3); /* twice the value, twice the height */
	assert_int_equal(count(s.x.buf, "class=\"whisker\""), 3); /* stem and two caps */
	assert_non_null(strstr(s.x.buf, ">chosen</text>"));
	assert_int_equal(count(s.x.buf, "<g"), count(s.x.buf, "</g>"));
	svg_release(&s);
}

static void test_tick_labels_large(void **state)
{
	struct svg s;
	struct chart c;
	static const char *const cat[] = { "x", "y" };
	(void)state;
	svg_begin(&s, 400, 300, "t", NULL, 1);
	/* 0 .. 1.5e6 in steps of 500,000 (1.5e6 / 5 = 3e5 -> 5e5) */
	struct chart_axis y = { "cost (USD)", CHART_LINEAR, 0, 1.5e6 };
	chart_panel(&c, &s, (struct chart_box){ 0, 0, 400, 300 }, "p", NULL, &y, 2, cat, 0);
	assert_int_equal(svg_end(&s), 0);
	assert_non_null(strstr(s.x.buf, "class=\"tick\">500,000</text>"));
	assert_non_null(strstr(s.x.buf, "class=\"tick\">1M</text>"));
	assert_non_null(strstr(s.x.buf, "class=\"tick\">1.5M</text>"));
	/* categories: index i sits in the middle of band i of 306 / 2 px */
	assert_close(chart_px(&c, 0), 76 + 76.5, TOL_EXACT);
	assert_close(chart_px(&c, 1), 76 + 229.5, TOL_EXACT);
	assert_close(chart_cat_x(&c, 1), chart_px(&c, 1), TOL_EXACT);
	svg_release(&s);
}

/* The markers of CHART_NMARKERS series: no two share a colour (class sK)
 * and a shape (element, and for polygons the number of corners). */
static void test_markers_distinct(void **state)
{
	struct svg s;
	struct chart c;
	char seen[CHART_NMARKERS][64];
	(void)state;
	svg_begin(&s, 400, 300, "t", NULL, 1);
	struct chart_axis x = { "x", CHART_LINEAR, 0, 1 }, y = { "y", CHART_LINEAR, 0, 1 };
	chart_panel(&c, &s, (struct chart_box){ 0, 0, 400, 300 }, "panel", &x, &y, 0, NULL, 0);
	for (int k = 0; k < CHART_NMARKERS; k++) {
		double px = 0.5, py = 0.5;
		size_t from = s.x.len;
		chart_points(&c, 1, &px, &py, k, NULL);
		const char *m = s.x.buf + from, *cls = strstr(m, "class=\"pt s");
		assert_non_null(cls);
		int corners = 0;
		for (const char *q = m; q < cls; q++)
			corners += *q == ',';
		/* "<circle s0", "<rect s0", "<polygon 3 s0", "<polygon 4 s0" */
		snprintf(seen[k], sizeof(seen[k]), "%.*s %d %c", (int)strcspn(m, " "), m, corners,
			 cls[11]);
		for (int j = 0; j < k; j++)
			assert_string_not_equal(seen[j], seen[k]);
	}
	/* Eight of each shape: 8 colours x circle, square, triangle, diamond. */
	assert_int_equal(count(s.x.buf, "class=\"pt s3\""), 4);
	assert_int_equal(svg_end(&s), 0);
	svg_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_markup),
		cmocka_unit_test(test_escape_control_and_bad_utf8),
		cmocka_unit_test(test_document_structure),
		cmocka_unit_test(test_inline_document_has_no_declaration),
		cmocka_unit_test(test_nonfinite_is_an_error),
		cmocka_unit_test(test_axis_nice_linear),
		cmocka_unit_test(test_axis_nice_log),
		cmocka_unit_test(test_panel_maps_values),
		cmocka_unit_test(test_markers_distinct),
		cmocka_unit_test(test_bars_grow_with_value),
		cmocka_unit_test(test_tick_labels_large),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
