/*
 * plot.h - the charts of each command, drawn from the same numbers its
 * tables print, into an SVG document (svg.h).  Each function starts the
 * document (standalone: a file of its own, or inlined in the HTML report)
 * and draws it whole; the caller ends it with svg_end(), which reports a
 * non-finite value or a lack of memory.
 */
#ifndef TC_PLOT_H
#define TC_PLOT_H

#include <stddef.h>

#include "../model/families/estimate.h"
#include "../model/analyses/planner.h"
#include "../model/analyses/uncertainty.h"
#include "../model/analyses/validate.h"
#include "svg.h"

/* A time axis in a unit that suits its largest value. */
struct plot_time_unit {
	double per_s;      /* divide seconds by this */
	const char *name;  /* "s", "min", "h", "days" */
};
struct plot_time_unit plot_time_unit(double max_s);

/* estimate: where a step's time goes, and memory per GPU by part against
 * its capacity. */
void plot_estimate(struct svg *s, int standalone, const struct workload *w,
		   const struct gpu *g, const struct estimate *e);

/* explain: every operator placed on the GPU's roofline (log-log), by
 * category; operators without arithmetic (communication) left out and
 * counted in the description. */
void plot_explain(struct svg *s, int standalone, const struct workload *w,
		  const struct gpu *g, const struct estimate *e,
		  const struct est_workspace *ws);

/* compare: one GPU type's outcome, on the basis the table judges it. */
struct plot_compare_row {
	const char *gpu;       /* borrowed */
	int count;             /* GPUs */
	double total_s;        /* point estimate */
	double cost_usd;       /* cheapest offer; valid when priced */
	int priced;
	int unfinished;        /* it never finishes (spot preemptions leave no
				  time to train): no bars */
	int has_unc;           /* P10-P90 below are valid (cost only when priced) */
	struct unc_quantiles total_q, cost_q;
};

/* compare: time and cost per GPU type side by side, with P10-P90 whiskers
 * where sampled; `basis` names what the times and costs are ("expected
 * wall clock", "steady state") in the titles and the time axis. */
void plot_compare(struct svg *s, int standalone, const char *workload, const char *basis,
		  const struct plot_compare_row *r, size_t n);

/* plan: every (GPU type, count) point as time against cost (log-log),
 * by GPU type, the Pareto front as a line, the chosen plans ringed;
 * deadline_s and budget_usd (0: none) as reference lines.  Points are
 * placed at planner_ranked() under `risk`; `basis` names what the times
 * and costs are ("expected wall clock", "steady state") in the axes. */
void plot_plan(struct svg *s, int standalone, const char *workload, const char *basis,
	       const struct plan_point *p, size_t n, const int *front,
	       const char *chosen, const struct gpu *gpus, int ngpus,
	       enum plan_risk risk, double deadline_s, double budget_usd);

/* validate: predicted against measured, log-log, one panel per metric,
 * coloured by GPU, with the line where they agree. */
void plot_validate(struct svg *s, int standalone, const struct val_case *cases,
		   const struct val_result *res, size_t n);

/* sweep: one metric against one swept key, one line per combination of
 * the other keys.  Point i is at (x[i], y[i]) on line series[i]; with
 * x_names the x axis holds those nx categories and x[i] is an index into
 * them. */
struct plot_sweep {
	const char *title;
	const char *x_label, *y_label;     /* with their units */
	const double *x, *y;
	const size_t *series;
	size_t n;
	const char *const *x_names;        /* NULL: a value axis */
	size_t nx;
	const char *const *series_names;   /* nseries of them */
	const char *legend_title;          /* the keys the names are values of, or NULL */
	size_t nseries;
	int log_x;
};
void plot_sweep(struct svg *s, int standalone, const struct plot_sweep *p);

#endif
