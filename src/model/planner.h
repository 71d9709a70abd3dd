/*
 * planner.h - the search over GPU types and counts: for every GPU type and
 * every count up to a maximum that some parallel layout can use, the
 * fastest plan that fits (search_best_at) and its price.  Selecting the
 * cheapest under a deadline, the fastest under a budget and the Pareto
 * front (time against cost) is done on the returned points.
 *
 * At a fixed GPU type and count the cost only grows with run time, so the
 * fastest plan of each (type, count) is also its cheapest: the points hold
 * every plan that can be optimal for any deadline or budget.
 */
#ifndef TC_PLANNER_H
#define TC_PLANNER_H

#include <stddef.h>

#include "search.h"

/* Price a run of `count` GPUs of g lasting run_s seconds: 0 with the cost
 * and where it is bought (static or caller-owned strings), or -1 when the
 * GPU cannot be bought that way. */
typedef int (*plan_price_fn)(void *ctx, const struct gpu *g, int count,
			     double run_s, double *cost_usd,
			     const char **provider, const char **instance);

#define PLANNER_MAX_JOBS 256

struct plan_point {
	int gpu;                   /* index into planner_in.gpus */
	struct plan plan;          /* the layout (count, tp, pp, dp, ...) */
	enum recompute recompute;
	double step_time_s, total_time_s, memory_per_gpu_bytes, mfu_frac;
	double cost_usd;
	const char *provider, *instance; /* from the price function */
};

struct planner_in {
	const struct workload *w;
	const struct gpu *gpus;    /* borrowed, ngpus of them */
	int ngpus;
	int max_gpus;
	int all_counts;            /* 1: every count 1..max_gpus (brute force) */
	int jobs;                  /* threads; 0 = the machine's cores */
	struct search_knobs knobs;
	plan_price_fn price;
	void *price_ctx;
};

/*
 * The GPU counts up to max that some layout can use: tp x pp x dp with tp
 * dividing the heads (at most gpus_per_node), pp dividing the layers and dp
 * dividing the global batch.  Writes at most cap counts, ascending; returns
 * how many.
 */
int planner_counts(const struct workload *w, int gpus_per_node, int max,
		   int *out, int cap);

/*
 * Every (GPU type, count) point that fits and has a price.  *pts is an
 * owned array (free()).  `closest` (may be NULL) receives the reason of the
 * GPU type that came closest to fitting when no point fits.  Returns 0, or
 * -1 when out of memory.
 */
int planner_run(const struct planner_in *in, struct plan_point **pts,
		size_t *npts, struct plan_problem *closest);

/* Mark the Pareto front (time against cost): front[i] = 1 for points no
 * other point beats or equals in both with one strictly better. */
void planner_pareto(const struct plan_point *p, size_t n, int *front);

#endif
