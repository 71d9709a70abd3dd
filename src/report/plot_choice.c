/*
 * plot_choice.c - the pictures that help choose: GPU types side by side
 * (compare) and the time-against-cost trade-off of every plan (plan).
 * See plot.h.
 */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../util/units.h"
#include "chart.h"
#include "numfmt.h"

#define MAX_BARS 256 /* GPU types drawn; compare caps its list far lower */

void plot_compare(struct svg *s, int standalone, const char *workload, const char *basis,
		  const struct plot_compare_row *r, size_t n)
{
	char title[256], desc[256], tpanel[96], cpanel[96];
	if (n > MAX_BARS)
		n = MAX_BARS;
	int unc = 0;
	double tmax = 0, cmax = 0;
	const char *names[MAX_BARS];
	char labels[MAX_BARS][48];
	for (size_t i = 0; i < n; i++) {
		snprintf(labels[i], sizeof(labels[i]), "%d x %s", r[i].count, r[i].gpu);
		names[i] = labels[i];
		unc |= r[i].has_unc;
		if (!r[i].unfinished)
			tmax = fmax(tmax, r[i].has_unc ? fmax(r[i].total_s, r[i].total_q.p90) : r[i].total_s);
		if (r[i].unfinished)
			continue;
		if (r[i].priced)
			cmax = fmax(cmax, r[i].has_unc ? fmax(r[i].cost_usd, r[i].cost_q.p90) : r[i].cost_usd);
	}
	snprintf(title, sizeof(title), "%s: time and cost on each GPU type (%s)", workload, basis);
	snprintf(desc, sizeof(desc), "Bars: the point estimate of each of %zu GPU types on the %s%s.",
		 n, basis, unc ? "; whiskers: P10 to P90 of the Monte Carlo samples" : "");
	snprintf(tpanel, sizeof(tpanel), "Time (%s)", basis);
	snprintf(cpanel, sizeof(cpanel), "Cost on the cheapest offer (%s)", basis);
	/* Horizontal bars in compare's order (cheapest first), the same in both
	 * panels; 22 px a GPU type so many types keep readable labels. */
	double height = fmax(440, 28 + 48 + 22 * (double)n);
	svg_begin(s, 960, height, title, desc, standalone);
	if (!n)
		names[0] = "none";

	struct plot_time_unit u = plot_time_unit(tmax);
	char ylab[64];
	snprintf(ylab, sizeof(ylab), "%s (%s)", basis, u.name);
	struct chart_axis ty = { ylab, CHART_LINEAR, 0, tmax / u.per_s };
	struct chart_axis cy = { "cost (USD)", CHART_LINEAR, 0, cmax };
	chart_axis_nice(&ty);
	chart_axis_nice(&cy);
	struct chart ct, cc;
	chart_hpanel(&ct, s, (struct chart_box){ 0, 0, 480, height }, tpanel, &ty,
		     n ? n : 1, names);
	chart_hpanel(&cc, s, (struct chart_box){ 480, 0, 480, height }, cpanel, &cy, n ? n : 1,
		     names);
	for (size_t i = 0; i < n; i++) {
		char tip[160], a[32], b[32], c[32];
		double row = (n ? ct.plot.h / (double)n : 0);
		if (r[i].unfinished) {
			/* the table's "spot cannot finish": no time, no cost */
			svg_text(s, ct.plot.x + 6, ct.plot.y + ((double)i + 0.5) * row + 4, SVG_START, 0,
				 "note", "never finishes");
			svg_text(s, cc.plot.x + 6, cc.plot.y + ((double)i + 0.5) * row + 4, SVG_START, 0,
				 "note", "never finishes");
			continue;
		}
		if (r[i].has_unc)
			snprintf(tip, sizeof(tip), "%s: %s (P10 %s, P90 %s)", names[i],
				 tc_fmt_duration(r[i].total_s, a, sizeof(a)),
				 tc_fmt_duration(r[i].total_q.p10, b, sizeof(b)),
				 tc_fmt_duration(r[i].total_q.p90, c, sizeof(c)));
		else
			snprintf(tip, sizeof(tip), "%s: %s", names[i],
				 tc_fmt_duration(r[i].total_s, a, sizeof(a)));
		chart_hbar(&ct, i, r[i].total_s / u.per_s, 0, tip);
		if (r[i].has_unc)
			chart_hwhisker(&ct, i, r[i].total_q.p10 / u.per_s, r[i].total_q.p90 / u.per_s,
				       tip);
		if (!r[i].priced) {
			svg_text(s, cc.plot.x + 6, cc.plot.y + ((double)i + 0.5) * row + 4, SVG_START, 0,
				 "note", "no offer");
			continue;
		}
		if (r[i].has_unc)
			snprintf(tip, sizeof(tip), "%s: %s (P10 %s, P90 %s)", names[i],
				 rep_fmt_usd(r[i].cost_usd, a, sizeof(a)),
				 rep_fmt_usd(r[i].cost_q.p10, b, sizeof(b)),
				 rep_fmt_usd(r[i].cost_q.p90, c, sizeof(c)));
		else
			snprintf(tip, sizeof(tip), "%s: %s", names[i],
				 rep_fmt_usd(r[i].cost_usd, a, sizeof(a)));
		chart_hbar(&cc, i, r[i].cost_usd, 1, tip);
		if (r[i].has_unc)
			chart_hwhisker(&cc, i, r[i].cost_q.p10, r[i].cost_q.p90, tip);
	}
}

void plot_plan(struct svg *s, int standalone, const char *workload,
	       const struct plan_point *p, size_t n, const int *front,
	       const char *chosen, const struct gpu *gpus, int ngpus,
	       enum plan_risk risk, double deadline_s, double budget_usd)
{
	char title[256], desc[320];
	double tmin = HUGE_VAL, tmax = 0, cmin = HUGE_VAL, cmax = 0;
	size_t placed = 0, nfront = 0;
	for (size_t i = 0; i < n; i++) {
		double t, c;
		if (planner_ranked(&p[i], risk, &t, &c))
			continue;
		placed++;
		nfront += front[i] != 0;
		tmin = fmin(tmin, t);
		tmax = fmax(tmax, t);
		cmin = fmin(cmin, c);
		cmax = fmax(cmax, c);
	}
	if (deadline_s > 0) {
		tmin = fmin(tmin, deadline_s);
		tmax = fmax(tmax, deadline_s);
	}
	if (budget_usd > 0) {
		cmin = fmin(cmin, budget_usd);
		cmax = fmax(cmax, budget_usd);
	}
	const char *at = risk == PLAN_RISK_P90 ? "P90 " : "";
	snprintf(title, sizeof(title), "%s: %stime against %scost of every plan", workload, at, at);
	snprintf(desc, sizeof(desc),
		 "%zu plans (one per GPU type and count, its fastest layout) by GPU type; "
		 "the line joins the %zu plans of the Pareto front (none both faster and cheaper); "
		 "rings mark the chosen plans.", placed, nfront);
	svg_begin(s, 900, 520, title, desc, standalone);

	struct plot_time_unit u = plot_time_unit(placed ? tmax : 1);
	char xlab[64], ylab[64];
	snprintf(xlab, sizeof(xlab), "%stotal time (%s)", at, u.name);
	snprintf(ylab, sizeof(ylab), "%scost (USD)", at);
	struct chart_axis x = { xlab, CHART_LOG, placed ? tmin / u.per_s : 0.1,
				placed ? tmax / u.per_s : 1 };
	struct chart_axis y = { ylab, CHART_LOG, placed ? cmin : 1, placed ? cmax : 10 };
	chart_axis_nice(&x);
	chart_axis_nice(&y);
	struct chart ch;
	chart_panel(&ch, s, (struct chart_box){ 0, 0, 900, 520 }, title, &x, &y, 0, NULL, 1);

	/* The front first, so the points sit on top of its line; p is in
	 * order of time (cmd_plan sorts it), so the line runs left to right. */
	double *fx = malloc((nfront ? nfront : 1) * sizeof(*fx));
	double *fy = malloc((nfront ? nfront : 1) * sizeof(*fy));
	if (!fx || !fy) {
		s->x.oom = 1;
	} else {
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			double t, c;
			if (front[i] && !planner_ranked(&p[i], risk, &t, &c)) {
				fx[k] = t / u.per_s;
				fy[k++] = c;
			}
		}
		chart_line(&ch, k, fx, fy, 7);
	}
	free(fx);
	free(fy);
	for (size_t i = 0; i < n; i++) {
		double t, c;
		char tip[200], a[32], b[32];
		if (planner_ranked(&p[i], risk, &t, &c))
			continue;
		snprintf(tip, sizeof(tip), "%d x %s (tp %d, pp %d, dp %d): %s, %s%s%s",
			 p[i].plan.count, gpus[p[i].gpu].id, p[i].plan.tp, p[i].plan.pp, p[i].plan.dp,
			 tc_fmt_duration(t, a, sizeof(a)), rep_fmt_usd(c, b, sizeof(b)),
			 front[i] ? ", on the Pareto front" : "", chosen && chosen[i] ? ", chosen" : "");
		double xt = t / u.per_s;
		const char *tips[1] = { tip };
		chart_points(&ch, 1, &xt, &c, p[i].gpu % CHART_NMARKERS, tips);
		if (chosen && chosen[i])
			chart_mark(&ch, xt, c, tip);
	}
	if (deadline_s > 0) {
		char lab[48], d[32];
		snprintf(lab, sizeof(lab), "deadline %s", tc_fmt_duration(deadline_s, d, sizeof(d)));
		double xd = chart_px(&ch, deadline_s / u.per_s);
		svg_line(s, xd, ch.plot.y, xd, ch.plot.y + ch.plot.h, "ref");
		/* On the side with room: left of the line near the right edge. */
		int left = xd > ch.plot.x + 0.7 * ch.plot.w;
		svg_text(s, left ? xd - 4 : xd + 4, ch.plot.y + 12, left ? SVG_END : SVG_START, 0,
			 "note", lab);
	}
	if (budget_usd > 0) {
		char lab[48], d[32];
		snprintf(lab, sizeof(lab), "budget %s", rep_fmt_usd(budget_usd, d, sizeof(d)));
		chart_ref_y(&ch, budget_usd, lab);
	}
	/* Each GPU type its colour and marker shape (CHART_NMARKERS pairs),
	 * the legend naming every type drawn. */
	chart_legend_title(&ch, "GPU type");
	int room = chart_legend_room(&ch) - 3; /* the front, "chosen", a count */
	for (int k = 0; k < ngpus && (k < room || ngpus <= room + 1); k++)
		chart_legend_marker(&ch, k % CHART_NMARKERS, gpus[k].id);
	if (ngpus > room + 1) {
		char more[64];
		snprintf(more, sizeof(more), "and %d more types", ngpus - room);
		svg_text(s, ch.legend_x, ch.legend_y + 10, SVG_START, 0, "note", more);
		ch.legend_y += 18;
	}
	chart_legend(&ch, 7, "Pareto front");
	chart_legend(&ch, -1, "chosen");
}
