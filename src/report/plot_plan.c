/*
 * plot_plan.c - the time-against-cost trade-off of a plan search: the
 * Pareto front and the plans of the few GPU types worth a look, on axes
 * that end a few times past the deadline and the budget.  See plot_plan.h.
 *
 * A search over every type of the catalog finds hundreds of plans on
 * twenty types; drawn all at once they share colours and run the time
 * axis to plans no one would pick.  So the chart keeps what answers the
 * question: every plan on the front, every chosen plan, and every plan of
 * the PLAN_PLOT_TYPES types whose best plan is cheapest.  What it leaves
 * out is counted in its description.
 */
#include "plot_plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../util/units.h"
#include "chart.h"
#include "numfmt.h"

#define PLAN_PLOT_TYPES 6 /* GPU types drawn whole; others only on the front */
#define TARGET_SPAN 4     /* the axes end this many times past a deadline or budget */
#define FRONT_SPAN 2      /* ... or past the front's ends when there is none */

/* One GPU type's best plan within the axes, for ranking types. */
struct type_rank {
	int gpu;      /* index into gpus */
	int meets;    /* its best plan meets the deadline and the budget */
	double cost_usd, time_s;
	int has;      /* it has a plan within the axes */
};

/* Types with a plan first, then those meeting the targets, then the
 * cheapest, then the fastest, then the catalog's order. */
static int by_rank(const void *a, const void *b)
{
	const struct type_rank *x = a, *y = b;
	if (x->has != y->has)
		return y->has - x->has;
	if (x->meets != y->meets)
		return y->meets - x->meets;
	if (x->cost_usd != y->cost_usd)
		return x->cost_usd < y->cost_usd ? -1 : 1;
	if (x->time_s != y->time_s)
		return x->time_s < y->time_s ? -1 : 1;
	return x->gpu - y->gpu;
}

/* What the chart shows of a search. */
struct plan_view {
	double tcap, ccap;     /* the largest time and cost on the axes */
	int *slot;             /* per GPU type: its legend entry, or -1; owned */
	int *whole;            /* per GPU type: every plan drawn (a best type); owned */
	int nshown;            /* legend entries */
	int nwhole;            /* types with every plan drawn */
	size_t placed, nfront;
};

/* The axes' ends: a few times the deadline and the budget, else a few
 * times the front's slowest time and dearest cost (a plan past the
 * front's slowest end is slower and no cheaper than it), never short of
 * a few times the fastest time and the lowest cost, never cutting off a
 * chosen plan. */
static void view_caps(struct plan_view *v, const struct plan_point *p, size_t n, const int *front,
		      const char *chosen, enum plan_risk risk, double deadline_s, double budget_usd)
{
	double ft = 0, fc = 0, at = 0, ac = 0, tmin = HUGE_VAL, cmin = HUGE_VAL;
	for (size_t i = 0; i < n; i++) {
		double t, c;
		if (planner_ranked(&p[i], risk, &t, &c))
			continue;
		v->placed++;
		at = fmax(at, t);
		ac = fmax(ac, c);
		tmin = fmin(tmin, t);
		cmin = fmin(cmin, c);
		if (front[i]) {
			v->nfront++;
			ft = fmax(ft, t);
			fc = fmax(fc, c);
		}
	}
	v->tcap = deadline_s > 0 ? TARGET_SPAN * deadline_s : v->nfront ? FRONT_SPAN * ft : at;
	v->ccap = budget_usd > 0 ? TARGET_SPAN * budget_usd : v->nfront ? FRONT_SPAN * fc : ac;
	/* A target no plan comes near still leaves the fastest and the
	 * cheapest plans (the front's ends) on the axes. */
	if (v->placed) {
		v->tcap = fmax(v->tcap, FRONT_SPAN * tmin);
		v->ccap = fmax(v->ccap, FRONT_SPAN * cmin);
	}
	for (size_t i = 0; chosen && i < n; i++) {
		double t, c;
		if (chosen[i] && !planner_ranked(&p[i], risk, &t, &c)) {
			v->tcap = fmax(v->tcap, t);
			v->ccap = fmax(v->ccap, c);
		}
	}
}

/* Is plan i within the axes (and a candidate)?  Its time and cost to *t, *c. */
static int in_view(const struct plan_view *v, const struct plan_point *p, enum plan_risk risk,
		   double *t, double *c)
{
	return !planner_ranked(p, risk, t, c) && *t <= v->tcap && *c <= v->ccap;
}

/* Is plan i drawn: within the axes, and on the front, chosen or of a best type? */
static int drawn(const struct plan_view *v, const struct plan_point *p, size_t i,
		 const int *front, const char *chosen, enum plan_risk risk, double *t, double *c)
{
	return in_view(v, &p[i], risk, t, c) &&
	       (v->whole[p[i].gpu] || front[i] || (chosen && chosen[i]));
}

/*
 * Rank the GPU types by their best plan within the axes and give legend
 * entries to the PLAN_PLOT_TYPES best and to any other type with a plan
 * on the front or chosen.  Returns 0, or -1 out of memory.
 */
static int view_types(struct plan_view *v, const struct plan_point *p, size_t n, const int *front,
		      const char *chosen, int ngpus, enum plan_risk risk, double deadline_s,
		      double budget_usd)
{
	struct type_rank *r = calloc((size_t)(ngpus ? ngpus : 1), sizeof(*r));
	v->slot = malloc((size_t)(ngpus ? ngpus : 1) * sizeof(*v->slot));
	v->whole = calloc((size_t)(ngpus ? ngpus : 1), sizeof(*v->whole));
	int *picked = calloc((size_t)(ngpus ? ngpus : 1), sizeof(*picked));
	if (!r || !v->slot || !v->whole || !picked) {
		free(r);
		free(picked);
		return -1;
	}
	for (int k = 0; k < ngpus; k++) {
		r[k].gpu = k;
		v->slot[k] = -1;
	}
	for (size_t i = 0; i < n; i++) {
		double t, c;
		if (!in_view(v, &p[i], risk, &t, &c))
			continue;
		struct type_rank cand = { p[i].gpu, planner_meets(&p[i], risk, deadline_s, budget_usd),
					  c, t, 1 };
		struct type_rank *best = &r[p[i].gpu];
		if (!best->has || by_rank(&cand, best) < 0)
			*best = cand;
		if (front[i] || (chosen && chosen[i]))
			picked[p[i].gpu] = 1;
	}
	qsort(r, (size_t)ngpus, sizeof(*r), by_rank);
	for (int k = 0; k < ngpus && r[k].has; k++) {
		v->whole[r[k].gpu] = k < PLAN_PLOT_TYPES;
		v->nwhole += k < PLAN_PLOT_TYPES;
		if (k < PLAN_PLOT_TYPES || picked[r[k].gpu])
			v->slot[r[k].gpu] = v->nshown++;
	}
	free(r);
	free(picked);
	return 0;
}

/* The front as a line under the points; p is in order of time (cmd_plan
 * sorts it), so the line runs left to right. */
static void draw_front(struct chart *ch, struct svg *s, const struct plan_view *v,
		       const struct plan_point *p, size_t n, const int *front, enum plan_risk risk,
		       double per_s)
{
	double *fx = malloc((v->nfront ? v->nfront : 1) * sizeof(*fx));
	double *fy = malloc((v->nfront ? v->nfront : 1) * sizeof(*fy));
	if (!fx || !fy) {
		s->x.oom = 1;
	} else {
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			double t, c;
			if (front[i] && in_view(v, &p[i], risk, &t, &c)) {
				fx[k] = t / per_s;
				fy[k++] = c;
			}
		}
		chart_line(ch, k, fx, fy, 7);
	}
	free(fx);
	free(fy);
}

/* The deadline and budget lines, labelled. */
static void draw_targets(struct chart *ch, struct svg *s, double deadline_s, double budget_usd,
			 double per_s)
{
	char lab[48], d[32];
	if (deadline_s > 0) {
		snprintf(lab, sizeof(lab), "deadline %s", tc_fmt_duration(deadline_s, d, sizeof(d)));
		double xd = chart_px(ch, deadline_s / per_s);
		svg_line(s, xd, ch->plot.y, xd, ch->plot.y + ch->plot.h, "ref");
		/* On the side with room: left of the line near the right edge. */
		int left = xd > ch->plot.x + 0.7 * ch->plot.w;
		svg_text(s, left ? xd - 4 : xd + 4, ch->plot.y + 12, left ? SVG_END : SVG_START, 0,
			 "note", lab);
	}
	if (budget_usd > 0) {
		snprintf(lab, sizeof(lab), "budget %s", rep_fmt_usd(budget_usd, d, sizeof(d)));
		chart_ref_y(ch, budget_usd, lab);
	}
}

/* The drawn plans, each type its legend entry's colour and marker shape. */
static void draw_points(struct chart *ch, const struct plan_view *v, const struct plan_point *p,
			size_t n, const int *front, const char *chosen, const struct gpu *gpus,
			enum plan_risk risk, double per_s)
{
	for (size_t i = 0; i < n; i++) {
		double t, c;
		char tip[200], a[32], b[32];
		if (!drawn(v, p, i, front, chosen, risk, &t, &c))
			continue;
		snprintf(tip, sizeof(tip), "%d x %s (tp %d, pp %d, dp %d): %s, %s%s%s",
			 p[i].plan.count, gpus[p[i].gpu].id, p[i].plan.tp, p[i].plan.pp, p[i].plan.dp,
			 tc_fmt_duration(t, a, sizeof(a)), rep_fmt_usd(c, b, sizeof(b)),
			 front[i] ? ", on the Pareto front" : "", chosen && chosen[i] ? ", chosen" : "");
		double xt = t / per_s;
		const char *tips[1] = { tip };
		chart_points(ch, 1, &xt, &c, v->slot[p[i].gpu] % CHART_NMARKERS, tips);
		if (chosen && chosen[i])
			chart_mark(ch, xt, c, tip);
	}
}

/* The legend: the drawn types in rank order, the front, the chosen ring. */
static void draw_legend(struct chart *ch, const struct plan_view *v, const struct gpu *gpus,
			int ngpus)
{
	char title[64];
	snprintf(title, sizeof(title), ngpus > v->nshown ? "GPU type (%d of %d)" : "GPU type",
		 v->nshown, ngpus);
	chart_legend_title(ch, title);
	for (int slot = 0; slot < v->nshown; slot++)
		for (int k = 0; k < ngpus; k++)
			if (v->slot[k] == slot)
				chart_legend_marker(ch, slot % CHART_NMARKERS, gpus[k].id);
	chart_legend(ch, 7, "Pareto front");
	chart_legend(ch, -1, "chosen");
}

void plot_plan(struct svg *s, int standalone, const char *workload, const char *basis,
	       const struct plan_point *p, size_t n, const int *front,
	       const char *chosen, const struct gpu *gpus, int ngpus,
	       enum plan_risk risk, double deadline_s, double budget_usd)
{
	struct plan_view v = { 0 };
	char title[256], desc[600], a[32], b[32];
	view_caps(&v, p, n, front, chosen, risk, deadline_s, budget_usd);
	int oom = view_types(&v, p, n, front, chosen, ngpus, risk, deadline_s, budget_usd);
	double tmin = HUGE_VAL, tmax = 0, cmin = HUGE_VAL, cmax = 0;
	size_t ndrawn = 0;
	for (size_t i = 0; !oom && i < n; i++) {
		double t, c;
		if (!drawn(&v, p, i, front, chosen, risk, &t, &c))
			continue;
		ndrawn++;
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
	snprintf(title, sizeof(title), "%s: %stime against %scost of the plans", workload, at, at);
	snprintf(desc, sizeof(desc),
		 "%zu of %zu plans (one per GPU type and count, its fastest layout): the %zu of the "
		 "Pareto front (none both faster and cheaper), joined by the line, the chosen plans, "
		 "ringed, and every plan of the %d GPU type%s whose best plan is cheapest%s, up to %s "
		 "and %s; %d of %d GPU types shown.", ndrawn, v.placed, v.nfront, v.nwhole,
		 v.nwhole == 1 ? "" : "s", deadline_s > 0 ? " (those meeting the deadline first)" : "",
		 tc_fmt_duration(v.tcap, a, sizeof(a)), rep_fmt_usd(v.ccap, b, sizeof(b)),
		 v.nshown, ngpus);
	svg_begin(s, 900, 520, title, desc, standalone);
	if (oom) {
		s->x.oom = 1;
		goto out;
	}

	/* With no plan drawn the deadline and budget still set the axes. */
	int hx = tmax > 0, hy = cmax > 0;
	struct chart_time_unit u = chart_time_unit(hx ? tmax : 1);
	char xlab[96], ylab[96];
	snprintf(xlab, sizeof(xlab), "%stime, %s (%s)", at, basis, u.name);
	snprintf(ylab, sizeof(ylab), "%scost, %s (USD)", at, basis);
	struct chart_axis x = { xlab, CHART_LOG, hx ? tmin / u.per_s : 0.1, hx ? tmax / u.per_s : 1 };
	struct chart_axis y = { ylab, CHART_LOG, hy ? cmin : 1, hy ? cmax : 10 };
	chart_axis_nice(&x);
	chart_axis_nice(&y);
	struct chart ch;
	chart_panel(&ch, s, (struct chart_box){ 0, 0, 900, 520 }, title, &x, &y, 0, NULL, 1);
	draw_front(&ch, s, &v, p, n, front, risk, u.per_s);
	draw_points(&ch, &v, p, n, front, chosen, gpus, risk, u.per_s);
	draw_targets(&ch, s, deadline_s, budget_usd, u.per_s);
	draw_legend(&ch, &v, gpus, ngpus);
out:
	free(v.slot);
	free(v.whole);
}
