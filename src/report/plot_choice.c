/*
 * plot_choice.c - GPU types side by side (compare): total time and cost
 * per type as horizontal bars.  See plot_choice.h.
 */
#include "plot_choice.h"

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

	struct chart_time_unit u = chart_time_unit(tmax);
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
