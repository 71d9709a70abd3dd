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
#include "uncertainty.h"

/* What a plan costs on the offer it is bought on. */
struct plan_priced {
	double cost_usd;
	double total_time_s;       /* the run on that offer as judged: its
				    * network's steady time, or its wall clock */
	double net_time_s;         /* its network's steady time */
	const char *provider, *instance; /* static or caller-owned strings */
	/* The network total_time_s assumes between instances when it is the
	 * offer's own, not the plan's (caller-owned); NULL otherwise. */
	const char *network;
	const char *caveat;        /* what the answer must say of the offer
				    * (static); NULL: nothing */
	double idle_gpus;          /* paid for on the offer's instances, unused */
};

/* Price the run of layout *w (estimate *e) on GPU g: 0 with *out (its
 * times come in as e's, over the plan's network), or -1 when the GPU
 * cannot be bought that way. */
typedef int (*plan_price_fn)(void *ctx, const struct gpu *g, const struct workload *w,
			     const struct estimate *e, struct plan_priced *out);

#define PLANNER_MAX_NETS 8 /* networks searched per GPU type besides the plan's */

struct plan_point {
	int gpu;                   /* index into planner_in.gpus */
	struct plan plan;          /* the layout (count, tp, pp, dp, ...) */
	enum recompute recompute;
	double step_time_s, total_time_s, memory_per_gpu_bytes, mfu_frac;
	double cost_usd;
	const char *provider, *instance; /* from the price function */
	const char *network;       /* from the price function: the network of the
				    * times when the offer's own, else NULL */
	const char *caveat;        /* from the price function: e.g. "cluster size
				    * unconfirmed"; NULL when none */
	double idle_gpus;          /* from the price function */
	int sampled;               /* unc holds its Monte Carlo (planner_sample) */
	struct unc_result unc;
};

/* What plans are ranked by: the point estimate (P50, as without
 * uncertainty) or the P90 of their samples, time and cost alike. */
enum plan_risk { PLAN_RISK_P50, PLAN_RISK_P90 };

/* The offer point p's cost was priced on (its provider and instance), for
 * sampling its cost: 0 with the offer and its billing (borrowed), or -1
 * when there is none. */
typedef int (*plan_offer_fn)(void *ctx, const struct gpu *g, const struct plan_point *p,
			     const struct price_offer **offer,
			     const struct cost_billing **billing);

struct planner_in {
	const struct workload *w;
	const struct gpu *gpus;    /* borrowed, ngpus of them, each resolved
				      for w's stack (gpu_resolve) */
	int ngpus;
	int max_gpus;
	int all_counts;            /* 1: every count 1..max_gpus (brute force) */
	int jobs;                  /* threads; 0 = the machine's cores */
	struct search_knobs knobs;
	plan_price_fn price;
	void *price_ctx;
	plan_offer_fn offer;       /* planner_sample only; may be NULL (no cost) */
	/* The networks each GPU type's plans of more than one node are also
	 * searched over (those its offers join instances by, net_find names):
	 * nets[gi][0 .. nnets[gi] - 1], borrowed.  A plan of one node, and
	 * every plan when nets is NULL, is searched over w's own network. */
	const char *const (*nets)[PLANNER_MAX_NETS];
	const int *nnets;
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
 * Every (GPU type, network, count) point that fits and has a price.  *pts is an
 * owned array (free()).  `closest` (may be NULL) receives the reason of the
 * GPU type that came closest to fitting when no point fits.  Returns 0, or
 * -1 when out of memory.
 */
int planner_run(const struct planner_in *in, struct plan_point **pts,
		size_t *npts, struct plan_problem *closest);

/* A faster plan is on the front only if it saves more than this fraction
 * of the time of a cheaper plan: a display choice, stated in `plan`'s
 * output and docs/sweep-and-plan.md. */
#define PLAN_PARETO_TOL 0.02

/* Mark the Pareto front (time against cost): front[i] = 1 for points no
 * other point beats or equals in both with one strictly better, and that
 * are more than PLAN_PARETO_TOL faster than every cheaper point. */
void planner_pareto(const struct plan_point *p, size_t n, int *front);

/* The workload of point p: in->w on p's GPU with p's layout and recompute,
 * over the network its time was taken over. */
void planner_point_workload(const struct planner_in *in, const struct plan_point *p,
			    struct workload *out);

/*
 * Monte Carlo of the points with want[i] != 0 (unc_run with spec *s, its
 * offer and billing from in->offer and its spot instances from its nodes,
 * on in->jobs threads): sets sampled and
 * unc of each.  Every point draws from s->seed, so plans are compared under
 * the same draws and the result does not depend on the threads.  A point
 * whose samples cannot be drawn stays unsampled.  Returns 0, or -1 when out
 * of memory.
 */
int planner_sample(const struct planner_in *in, struct plan_point *p, size_t n,
		   const char *want, const struct unc_spec *s);

/*
 * The time and cost point p is ranked by under `risk`: its point estimate,
 * or the P90 of its samples (of its wall clock when they drew it).  Returns 0, or -1 when risk is PLAN_RISK_P90
 * and p was not sampled with a cost (it is then no candidate).
 */
int planner_ranked(const struct plan_point *p, enum plan_risk risk, double *time_s,
		   double *cost_usd);

/* 1 when p is a candidate under `risk` and its ranked time and cost meet
 * the deadline and the budget (0 = none). */
int planner_meets(const struct plan_point *p, enum plan_risk risk, double deadline_s,
		  double budget_usd);

/*
 * The answer among the candidates that meet the targets (ranked under
 * `risk`): with only a deadline the cheapest, with only a budget the
 * fastest, with both or neither the first in p's order (ties: the first).
 * *nmeets receives how many meet.  Returns the index, or -1 when none does.
 */
long planner_select(const struct plan_point *p, size_t n, enum plan_risk risk,
		    double deadline_s, double budget_usd, size_t *nmeets);

/* planner_pareto over the ranked time and cost of the candidates under
 * `risk` (others get front[i] = 0). */
void planner_pareto_ranked(const struct plan_point *p, size_t n, enum plan_risk risk,
			   int *front);

#endif
