/*
 * plot_choice.h - the chart of `compare`, drawn from the same numbers its
 * table prints: time and cost per GPU type side by side.
 * It starts the SVG document (standalone: a file of its own, or inlined in
 * the HTML report) and draws it whole; the caller ends it with svg_end()
 * (svg.h), which reports a non-finite value or a lack of memory.
 */
#ifndef TC_PLOT_CHOICE_H
#define TC_PLOT_CHOICE_H

#include <stddef.h>

#include "../model/analyses/uncertainty.h"
#include "svg.h"

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

#endif
