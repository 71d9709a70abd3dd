/*
 * run_cost.h - what one estimated run costs: the cheapest offer and the
 * range across providers, the wall clock with spot preemptions among its
 * interruptions, on-premises cost, energy and CO2.
 * Pure computation over cost.h; the caller loads the price tables.
 */
#ifndef TC_RUN_COST_H
#define TC_RUN_COST_H

#include "../families/campaign.h"
#include "cost.h"

/* Assumptions behind the energy figure when the user gives none.  Stated in
 * every report and in docs/pricing.md: they are not measurements. */
#define RUN_COST_POWER_FRAC 0.8   /* average draw as a fraction of TDP */
#define RUN_COST_PUE 1.2          /* facility overhead of a cloud data centre */
#define RUN_COST_GRID_G_PER_KWH 400 /* grid carbon intensity, g CO2 per kWh */

/* The spot preemption rate when the user gives none (docs/pricing.md):
 * an assumption, no provider publishes one. */
#define RUN_COST_PREEMPT_PER_H 0.05      /* one preemption per 20 h */

struct run_cost_in {
	enum cost_kind kind;        /* on-demand or spot */
	double power_frac;          /* average power / TDP */
	double pue;
	double grid_g_per_kwh;
	double preempt_per_h;       /* spot: preemptions per instance-hour */
	int have_onprem;            /* onprem holds this GPU's inputs */
	struct cost_onprem onprem;
};

/*
 * A spot run's preemptions, which the campaign counts among its
 * interruptions (model/families/campaign.h): the steady state has none.
 */
struct run_cost_spot {
	double preempt_per_h;       /* per instance-hour, as used */
	double instances;           /* the campaign's nodes: any one stops the job */
	/* The warning before a preemption: the cheapest offer's provider's
	 * (notice_known) or, where it states none or nothing is priced, the
	 * shortest a provider documents (CAMP_SPOT_NOTICE_S); the workload's
	 * spot_notice replaces either (notice_given). */
	double notice_s;
	int notice_known, notice_given;
	double expected;            /* preemptions over the wall clock */
	double lost_s;              /* wall clock they cost: restarts and rework */
	double lost_s_each;         /* restart + half a checkpoint interval */
	/* On the cheapest offer: one preemption on every instance, and all of
	 * them (0 when not priced). */
	double each_usd, lost_usd;
};

struct run_cost {
	struct run_cost_in in;      /* the assumptions used, for the report */
	enum cost_kind kind;
	int unfit;                  /* the plan does not fit in memory: nothing below is set */
	int priced;                 /* an offer of this GPU and kind exists */
	struct cost_range range;    /* cheapest and dearest offers */
	/* The cheapest offer's steady run: over its own network when that
	 * set the time, else the run_s passed in. */
	double priced_base_s;
	double run_s;               /* the steady run over the plan's own
				     * network: energy and on-premises */
	double energy_kwh;
	double co2_kg;
	int onprem;                 /* an on-premises figure exists */
	struct cost_onprem_result onprem_rate;
	double onprem_usd;          /* GPUs x run hours x on-prem rate */
	/* The expected wall clock (model/families/campaign.h): the estimate's campaign,
	 * with spot preemptions as interruptions when the run is on spot
	 * (hopeless: they leave no time to train; nothing below is set). */
	struct campaign campaign;
	int campaign_hopeless;
	int spot_counted;           /* kind is spot: `spot` below is set */
	struct run_cost_spot spot;
	/* The offers set aside (unverified prices) priced as range was:
	 * aside_priced tells whether one would host the run. */
	struct cost_range aside;
	int aside_priced;
	double wall_s;              /* the priced run on the wall clock */
	/* The cheapest offer billed for wall_s, and the spare nodes' share
	 * (campaign.in.spare_frac of it) included in wall_usd. */
	double wall_usd, spare_usd;
};

/* Fill *in with the defaults above and `kind`. */
void run_cost_defaults(struct run_cost_in *in, enum cost_kind kind);

/*
 * Cost a run of `gpus` GPUs of `gpu_id` (TDP `tdp_w`) lasting `run_s`
 * seconds over the `ntables` price tables, on instances of at least
 * min(gpus, node_gpus) GPUs: the shape the performance model assumed.
 * The steady run is priced, spot or not: spot preemptions are
 * interruptions of the wall clock (run_cost_campaign).  Always fills
 * energy; `priced` tells whether any offer matched.  Returns 0, or -1 on
 * invalid inputs (non-finite or negative times).
 */
int run_cost_compute(const struct price_table *tables, size_t ntables,
		     const char *gpu_id, double gpus, double node_gpus, double tdp_w,
		     double run_s, const struct run_cost_in *in, struct run_cost *out);

/*
 * run_cost_compute() where each offer that joins several instances is
 * priced for the time `timer` gives over its own network; run_s stays
 * the time of energy and on-premises,
 * which run over the plan's own network.  A NULL timer is
 * run_cost_compute().
 */
int run_cost_compute_timed(const struct price_table *tables, size_t ntables,
			   const char *gpu_id, double gpus, double node_gpus, double tdp_w,
			   double run_s, const struct cost_timer *timer,
			   const struct run_cost_in *in, struct run_cost *out);

/*
 * Price the run of *c (run_cost_compute_timed's, with the same gpus,
 * node_gpus and timer) on the offers set aside from its tables (their
 * price is unverified), so that an answer can say what they would offer:
 * fills c->aside and c->aside_priced.  Nothing for a run that does not
 * fit.
 */
void run_cost_aside(const struct price_table *tables, size_t ntables, const char *gpu_id,
		    double gpus, double node_gpus, const struct cost_timer *timer,
		    struct run_cost *c);

/*
 * A cost_timer of a layout searched over one network: `run_s` over
 * `network`, and no time over any other (run_cost_own_net_time returns -1,
 * so an offer on another network is left out).  Pricing with it never
 * shows a time and a cost from different networks.
 */
struct run_cost_own_net {
	const char *network; /* borrowed: the plan's */
	double run_s;
};
int run_cost_own_net_time(void *ctx, const char *network, double *run_s); /* cost_time_fn */

/*
 * The distinct networks of the offers of `gpu_id` sold as `kind` that can
 * join instances (cost_offer_hosts(o, 2)), in table order, into
 * out[0..cap-1] (borrowed from the offers).  Returns how many.
 */
int run_cost_networks(const struct price_table *tables, size_t ntables, const char *gpu_id,
		      enum cost_kind kind, const char **out, int cap);

/*
 * The wall clock and its cost under campaign *camp (the estimate's): the
 * run priced (its base time over the cheapest offer's network) stretched
 * as the campaign says, with the preemptions of a spot run (c->in's rate,
 * the cheapest offer's provider's notice) added to its interruptions
 * unless the workload gave its own; billed on the cheapest offer, spare
 * nodes paid as a share of the bill.  Returns 0, or -1 on invalid input.
 */
int run_cost_campaign(struct run_cost *c, double gpus, const struct campaign *camp);

/*
 * A plan that does not fit in GPU memory cannot run, so it has no price,
 * on-premises cost or energy: fill *out with `unfit` set and the
 * assumptions of *in kept for the report.
 */
void run_cost_unfit(const struct run_cost_in *in, struct run_cost *out);

#endif
