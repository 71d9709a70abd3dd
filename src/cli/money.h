/*
 * money.h - the pricing options shared by estimate, compare and plan:
 * loading the price tables once, and costing one run with them.
 */
#ifndef TC_CLI_MONEY_H
#define TC_CLI_MONEY_H

#include "../io/price_load.h"
#include "../model/families/estimate.h"
#include "../model/types/gpu.h"
#include "../model/money/run_cost.h"
#include "../report/offer_words.h"
#include "opts.h"

struct money_args {
	const char *provider, *pricing, *max_age, *pue, *power_frac, *grid,
		*preempt;
	const char *assume_fabric; /* --assume-fabric PROVIDER=NETWORK[,...] */
	int include_unverified; /* --include-unverified */
};

/* The help's heading of the pricing options. */
#define MONEY_OPTS_GROUP "Cost and energy (docs/pricing.md):"

/* Append the pricing options bound to *a to *t: the provider, price kind,
 * age, energy and spot assumptions, --include-unverified. */
void money_opts(struct money_args *a, struct cli_opts *t);

/* Append --steady-state bound to *steady_state: the one declaration of
 * the option compare, plan and sweep share (their deadlines, budgets and
 * cost on the steady state instead of the expected wall clock). */
void money_basis_opts(int *steady_state, struct cli_opts *t);

/* Append only the spot assumption (--preempt-per-h) bound to *a, for a
 * command that loads its own prices. */
void money_spot_opts(struct money_args *a, struct cli_opts *t);

struct money {
	struct price_set set;              /* owned */
	const struct price_table *tables;  /* borrowed from set: all, or one provider */
	size_t ntables;
	/* The offers of those tables set aside (unverified prices), as
	 * tables of their own: owned array, the offers borrowed from set. */
	struct price_table *aside;
	size_t naside;
	struct run_cost_in in;
	int max_age_days;                  /* --max-age */
	/* --network was given: every offer is timed over the plan's network
	 * instead of its own. */
	int network_fixed;
	/* The layout was searched over the plan's network for the offers on
	 * it: offers joining instances over another network are left out
	 * (run_cost_own_net), so the time shown is the time priced. */
	int network_own;
	/* --steady-state (money_basis_opts): deadlines and budgets judged,
	 * and cost billed, at steady state instead of on the expected wall
	 * clock. */
	int steady_state;
};

/*
 * Parse the options into *m (zeroed first), before any file is read so
 * that a usage error comes first.  Returns 0, or an exit code after
 * printing the problem.
 */
int money_parse(struct cli_ctx *ctx, const char *cmd, const struct money_args *a,
		struct money *m);

/*
 * Load the price tables into *m once the workload is known to be valid (an
 * error in the user's own file comes first, alone), and print the warnings
 * of money_load_prices.  Returns 0, or an exit code after printing the
 * problem.
 */
int money_load(struct cli_ctx *ctx, const char *cmd, const struct money_args *a,
	       struct money *m);

/*
 * Load every price table of the data path into *set, then print on ctx->err
 * the warnings of loading them and one per table whose prices are older than
 * `max_age_days` on ctx->today (only the tables of `provider` when it is not
 * NULL), and drop the offers marked `verified: false` unless
 * `include_unverified`.  Called once per run, so each warning is printed once.  Returns 0,
 * or an exit code after printing the problem (*set is then released).
 */
int money_load_prices(struct cli_ctx *ctx, const char *provider, int max_age_days,
		      int include_unverified,
		      struct price_set *set);

/*
 * --assume-fabric SPEC, "PROVIDER=NETWORK[,PROVIDER=NETWORK...]": what a
 * user's contract gives.  money_assume_check checks its form and networks
 * (a usage error before any file is read); money_assume_apply, once the
 * tables are loaded, joins every whole-GPU offer of each PROVIDER over
 * NETWORK, its size unconfirmed and marked assumed (a provider without a
 * table is a usage error).  NULL spec: nothing.  Each returns 0 or an exit
 * code after printing the problem.
 */
int money_assume_check(struct cli_ctx *ctx, const char *cmd, const char *spec);
int money_assume_apply(struct cli_ctx *ctx, const char *cmd, const char *spec,
		       struct price_set *set);

/* Cost the run of estimate *e of workload *w on GPU *g: its GPUs and node
 * shape; an offer that joins several instances is priced for the time of
 * the same layout over its own network unless m->network_fixed, or
 * left out when its network is not the plan's and m->network_own.  A plan
 * that does not fit in memory is not priced (out->unfit).  0 or -1 (bad
 * input, out of memory). */
int money_cost(const struct money *m, const struct gpu *g, const struct workload *w,
	       const struct estimate *e, struct run_cost *out);

/*
 * The run time estimate *e is judged on by a deadline: its steady state
 * with steady_state, else its expected wall clock: the campaign of the
 * run priced (*c, money_cost's; spot preemptions included) or, with c
 * NULL or not fitting, the estimate's own.  HUGE_VAL when the spot
 * preemptions leave no time to train (never printed: such a run misses
 * every deadline).
 */
double money_judged_s(int steady_state, const struct estimate *e, const struct run_cost *c);

/* What priced run *c costs on its cheapest offer: billed for its steady
 * run with steady_state, else for its expected wall clock with the
 * spare nodes (HUGE_VAL when spot preemptions leave no time to train). */
double money_judged_usd(int steady_state, const struct run_cost *c);

/* *w as the cost *c was timed: over its cheapest offer's own network when
 * that set the time (for drawing the samples of that run), else *w. */
void money_priced_workload(const struct run_cost *c, const struct workload *w,
			   struct workload *out);

/* The time of one layout over other networks, for pricing offers on their
 * own (money_timer_init, then cost_timer{money_timer_time, &t}). */
#define MONEY_TIMER_NETS 8
struct money_timer {
	const struct workload *w;   /* borrowed: the layout, over its own network */
	const struct gpu *g;        /* borrowed */
	double run_s;               /* w's own time */
	struct est_workspace ws;    /* owned, allocated on first use */
	struct { const char *network; int ok; double run_s; } seen[MONEY_TIMER_NETS];
	int nseen;
};

void money_timer_init(struct money_timer *t, const struct workload *w, const struct gpu *g,
		      double run_s);
int money_timer_time(void *ctx, const char *network, double *run_s); /* cost_time_fn */
void money_timer_release(struct money_timer *t);

/* Parse --budget `s` (dollars: 50000, $50,000, 2.5k, 3M) into *usd, which
 * must be positive.  Returns 0, or TC_EXIT_USAGE after printing the
 * problem. */
int money_budget_arg(struct cli_ctx *ctx, const char *cmd, const char *s, double *usd);

/*
 * On stderr: where an offer of GPU g sold as `kind`, set aside for its
 * unverified price, holds more GPUs in one order than every offer in use
 * of the `ntables` tables (plan searches only counts an order can hold),
 * which offer, and that --include-unverified prices it.
 */
void money_warn_aside(struct cli_ctx *ctx, const char *cmd, const struct price_table *tables,
		      size_t ntables, enum cost_kind kind, const struct gpu *g);

/*
 * On spot prices: warn on ctx->err (once per call) when the cheapest spot
 * offer of GPU g in `tables` costs less per GPU-hour than owning the GPU
 * (pricing/onprem.yaml): a spot price is a sample of the zones the source
 * read, and the lowest of them is no price to plan on.  Nothing when
 * either is missing.
 */
void money_warn_spot(struct cli_ctx *ctx, const char *cmd, const struct price_set *set,
		     const struct price_table *tables, size_t ntables, const struct gpu *g);

void money_release(struct money *m);

#endif
