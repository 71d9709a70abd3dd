/*
 * test_plot.c - the commands' charts drawn from numbers built here: the
 * unit of a time axis, bars in proportion to their values (compare's
 * horizontal, a row a GPU type in one order in both panels), whiskers only
 * with samples, a panel per validation metric and a colour per GPU.
 */
#include "tc_test.h"

#include <stdlib.h>

#include "../../src/report/chart.h"
#include "../../src/report/plot_choice.h"
#include "../../src/report/plot_plan.h"
#include "../../src/report/plot_validate.h"

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Attribute `attr` (x, y, width, height) of the n-th rect of class cls
 * (from 0). */
static double rect_attr(const char *doc, const char *cls, int nth, const char *attr)
{
	char want[64], key[32];
	snprintf(want, sizeof(want), "class=\"%s\"", cls);
	snprintf(key, sizeof(key), " %s=\"", attr);
	const char *p = doc;
	for (int i = 0; i <= nth; i++) {
		p = strstr(p, want);
		assert_non_null(p);
		p += strlen(want);
	}
	while (p > doc && strncmp(p, key, strlen(key)))
		p--;
	return strtod(p + strlen(key), NULL);
}

static void test_time_unit(void **state)
{
	(void)state;
	/* The largest unit that keeps the value at 2 or more of it. */
	assert_string_equal(chart_time_unit(0.5).name, "ms");
	assert_string_equal(chart_time_unit(30).name, "s");     /* 30 s < 2 min */
	assert_string_equal(chart_time_unit(120).name, "min");  /* = 2 min */
	assert_string_equal(chart_time_unit(7200).name, "h");   /* = 2 h */
	assert_string_equal(chart_time_unit(3 * 86400.0).name, "days");
	assert_close(chart_time_unit(3 * 86400.0).per_s, 86400, TOL_EXACT);
}

static void test_compare_bars(void **state)
{
	struct svg s;
	(void)state;
	struct plot_compare_row r[3] = {
		{ .gpu = "a", .count = 8, .total_s = 10 * 86400.0, .cost_usd = 1000, .priced = 1 },
		{ .gpu = "b", .count = 8, .total_s = 20 * 86400.0, .cost_usd = 3000, .priced = 1 },
		{ .gpu = "c<&>", .count = 8, .total_s = 5 * 86400.0, .priced = 0 },
	};
	plot_compare(&s, 1, "w", "expected wall clock", r, 3);
	assert_int_equal(svg_end(&s), 0);
	const char *d = s.x.buf;
	/* Horizontal bars: time (s0) 10 : 20 : 5 days, cost (s1) 1000 : 3000 */
	double t0 = rect_attr(d, "bar s0", 0, "width"), t1 = rect_attr(d, "bar s0", 1, "width"),
	       t2 = rect_attr(d, "bar s0", 2, "width");
	assert_close(t1, 2 * t0, 1e-3);
	assert_close(t2, 0.5 * t0, 1e-3);
	assert_close(rect_attr(d, "bar s1", 1, "width"), 3 * rect_attr(d, "bar s1", 0, "width"),
		     1e-3);
	/* The rows in the order given, top down, the same in both panels. */
	assert_true(rect_attr(d, "bar s0", 0, "y") < rect_attr(d, "bar s0", 1, "y"));
	assert_close(rect_attr(d, "bar s1", 1, "y"), rect_attr(d, "bar s0", 1, "y"), TOL_EXACT);
	assert_int_equal(count(d, "class=\"bar s1\""), 2); /* c has no offer */
	assert_int_equal(count(d, ">no offer</text>"), 1);
	assert_int_equal(count(d, "class=\"whisker\""), 0); /* no samples, no whiskers */
	/* the axis and the panels name the basis the table judges on */
	assert_non_null(strstr(d, ">expected wall clock (days)</text>"));
	assert_non_null(strstr(d, ">Time (expected wall clock)</text>"));
	assert_non_null(strstr(d, ">8 x c&lt;&amp;&gt;</text>"));
	svg_release(&s);

	/* With samples: a whisker (stem and two caps) on each bar. */
	r[0].has_unc = r[1].has_unc = 1;
	r[0].total_q = (struct unc_quantiles){ .p10 = 9 * 86400.0, .p90 = 12 * 86400.0 };
	r[1].total_q = (struct unc_quantiles){ .p10 = 18 * 86400.0, .p90 = 25 * 86400.0 };
	r[0].cost_q = (struct unc_quantiles){ .p10 = 900, .p90 = 1200 };
	r[1].cost_q = (struct unc_quantiles){ .p10 = 2700, .p90 = 3800 };
	plot_compare(&s, 1, "w", "steady state", r, 3);
	assert_int_equal(svg_end(&s), 0);
	assert_int_equal(count(s.x.buf, "class=\"whisker\""), 4 * 3);
	assert_non_null(strstr(s.x.buf, ">steady state (days)</text>"));
	svg_release(&s);

	/* A row that never finishes (spot preemptions leave no time to
	 * train) has no bar in either panel and says so in both. */
	r[1].unfinished = 1;
	r[1].total_s = HUGE_VAL;
	r[1].has_unc = 0;
	plot_compare(&s, 1, "w", "expected wall clock", r, 3);
	assert_int_equal(svg_end(&s), 0);
	assert_int_equal(count(s.x.buf, "class=\"bar s0\""), 2);
	assert_int_equal(count(s.x.buf, "class=\"bar s1\""), 1);
	assert_int_equal(count(s.x.buf, ">never finishes</text>"), 2);
	svg_release(&s);
}

static void test_validate_panels(void **state)
{
	struct svg s;
	(void)state;
	struct val_case c[3];
	memset(c, 0, sizeof(c));
	strcpy(c[0].gpu_id, "gpu-a");
	strcpy(c[1].gpu_id, "gpu-b");
	strcpy(c[2].gpu_id, "gpu-a");
	c[0].metric = c[1].metric = VAL_ITER_TIME;
	c[2].metric = VAL_MFU;
	struct val_result r[3] = {
		{ .index = 0, .ok = 1, .predicted = 0.11, .measured = 0.1, .err_frac = 0.1 },
		{ .index = 1, .ok = 1, .predicted = 0.2, .measured = 0.25, .err_frac = -0.2 },
		{ .index = 2, .ok = 1, .predicted = 0.4, .measured = 0.5, .err_frac = -0.2 },
	};
	plot_validate(&s, 1, c, r, 3);
	assert_int_equal(svg_end(&s), 0);
	const char *d = s.x.buf;
	assert_int_equal(count(d, "class=\"title\">Step time</text>"), 1);
	assert_int_equal(count(d, "class=\"title\">MFU</text>"), 1);
	assert_int_equal(count(d, "class=\"ref\""), 2);   /* a diagonal per panel */
	assert_int_equal(count(d, "class=\"pt s0\""), 2); /* gpu-a in both panels */
	assert_int_equal(count(d, "class=\"pt s1\""), 1); /* gpu-b */
	assert_non_null(strstr(d, ">measured (ms)</text>"));
	assert_non_null(strstr(d, ">predicted (%)</text>"));
	svg_release(&s);
}

/*
 * plan over ten GPU types "g0".."g9", three plans each: type k's plans take
 * t = (k + 1) x {1, 2, 40} days at c = $1,000 x (1 + k / 10) x {1, 0.9, 0.8}.
 * g0's 1-day plan is the fastest and none is cheaper than its others, so
 * the Pareto front is g0's three plans (dearest $1,000: the cost axis ends
 * at 2 x $1,000, above every plan).  Deadline 3 days: the time axis ends at
 * 4 x 3 = 12 days.  Ranked by their best plan on the axes, those meeting
 * the deadline first: g0 ($900 in 2 d), g1 ($1,100 in 2 d), g2 ($1,200 in
 * 3 d), then by cost g3 ($1,170 in 8 d), g4 ($1,260 in 10 d), g5 ($1,350 in
 * 12 d), g6 ($1,600 in 7 d)...: g0..g5 are drawn.
 */
static void test_plan_view(void **state)
{
	struct svg s;
	(void)state;
	struct gpu g[10];
	struct plan_point p[30];
	int front[30] = { 0 };
	memset(g, 0, sizeof(g));
	memset(p, 0, sizeof(p));
	static const double tf[3] = { 1, 2, 40 }, cf[3] = { 1, 0.9, 0.8 };
	for (int k = 0; k < 10; k++) {
		snprintf(g[k].id, sizeof(g[k].id), "g%d", k);
		for (int j = 0; j < 3; j++) {
			struct plan_point *q = &p[3 * k + j];
			q->gpu = k;
			q->plan.count = 8;
			q->total_time_s = (k + 1) * tf[j] * 86400.0;
			q->cost_usd = 1000.0 * (1 + k / 10.0) * cf[j];
		}
	}
	front[0] = front[1] = front[2] = 1;
	plot_plan(&s, 1, "w", "expected wall clock", p, 30, front, NULL, g, 10, PLAN_RISK_P50, 3 * 86400.0, 0);
	assert_int_equal(svg_end(&s), 0);
	const char *d = s.x.buf;
	/* The six cheapest types g0..g5 in the legend, not g6..g9. */
	assert_non_null(strstr(d, ">GPU type (6 of 10)</text>"));
	assert_non_null(strstr(d, ">g5</text>"));
	assert_null(strstr(d, ">g6</text>"));
	/* Drawn: the 1- and 2-day plans of g0..g5 (g5's at 6 and 12 days),
	 * not the 40-day ones past the axis: 12 points and 6 legend markers. */
	assert_int_equal(count(d, "class=\"pt "), 12 + 6);
	/* g0's colour-and-shape pair is its own: its 2 points and its entry. */
	assert_int_equal(count(d, "class=\"pt s0\""), 3);
	assert_null(strstr(d, "40.0 d"));
	/* the axes say what the times and costs are: the basis given */
	assert_non_null(strstr(d, ">time, expected wall clock (days)</text>"));
	assert_non_null(strstr(d, ">cost, expected wall clock (USD)</text>"));
	svg_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_unit),
		cmocka_unit_test(test_compare_bars),
		cmocka_unit_test(test_validate_panels),
		cmocka_unit_test(test_plan_view),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
