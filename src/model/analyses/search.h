/*
 * search.h - choosing parallel layouts: the fastest plan that fits at a
 * given GPU count, and the planner's search over GPU types and counts.
 *
 * Pure computation over step_estimate(); the caller owns the workspace.
 */
#ifndef TC_SEARCH_H
#define TC_SEARCH_H

#include "../families/estimate.h"

/* Which plan fields the search may change; the others stay as in the input. */
struct search_knobs {
	int tp, pp, zero, micro_batch, recompute, interleave, sequence_parallel;
};

/* Interleave (virtual stages per GPU) tried: divisors of layers / pp up to
 * this. */
#define SEARCH_MAX_INTERLEAVE 8

/* Every knob free. */
void search_knobs_all(struct search_knobs *k);

/*
 * The fastest plan for workload *w on `count` GPUs of *g that fits memory,
 * varying the fields `knobs` allows (tp within a node and dividing heads,
 * pp dividing layers, ZeRO 0..3, micro-batch dividing the per-replica batch,
 * recompute none/selective/full, ...).  On success returns 0 and writes the
 * chosen workload (plan and training.recompute set) to *best_w and its
 * estimate to *best.  Returns -1 when no plan fits; then *why says what came
 * closest (the plan needing the least memory, and by how much it misses).
 */
int search_best_at(const struct workload *w, const struct gpu *g, int count,
		   const struct search_knobs *knobs, struct est_workspace *ws,
		   struct workload *best_w, struct estimate *best,
		   struct plan_problem *why);

#endif
