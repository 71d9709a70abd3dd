/*
 * plot_plan.h - the chart of `plan`, drawn from the same points its table
 * ranks: time against cost of every (GPU type, count) point.
 * It starts the SVG document (standalone: a file of its own, or inlined in
 * the HTML report) and draws it whole; the caller ends it with svg_end()
 * (svg.h), which reports a non-finite value or a lack of memory.
 */
#ifndef TC_PLOT_PLAN_H
#define TC_PLOT_PLAN_H

#include <stddef.h>

#include "../model/analyses/planner.h"
#include "../model/types/gpu.h"
#include "svg.h"

/* plan: every (GPU type, count) point as time against cost (log-log),
 * by GPU type, the Pareto front as a line, the chosen plans ringed;
 * deadline_s and budget_usd (0: none) as reference lines.  Points are
 * placed at planner_ranked() under `risk`; `basis` names what the times
 * and costs are ("expected wall clock", "steady state") in the axes. */
void plot_plan(struct svg *s, int standalone, const char *workload, const char *basis,
	       const struct plan_point *p, size_t n, const int *front,
	       const char *chosen, const struct gpu *gpus, int ngpus,
	       enum plan_risk risk, double deadline_s, double budget_usd);

#endif
