/*
 * cost.h - dollars, energy and CO2 of a run: pure functions, no I/O.
 *
 * Prices are US dollars per INSTANCE-hour as the price tables store them
 * (pricing/<provider>.yaml, loaded by src/io/price_load.h); the functions
 * here turn a run (GPUs, seconds) into instances, billed time and dollars,
 * and give energy, CO2 and the on-premises cost per GPU-hour (spot
 * preemptions are interruptions of the wall clock: model/families/campaign.h).  Formulas and sources: docs/pricing.md.
 */
#ifndef TC_COST_H
#define TC_COST_H

#include <stddef.h>

#include "../types/offer.h"

/* A cloud run priced on one offer. */
struct cost_run {
	double instances;        /* ceil(GPUs / GPUs per instance) */
	double gpus_paid;        /* instances x GPUs per instance */
	double idle_gpus;        /* paid for but unused */
	double billed_s;         /* run time rounded per the billing rule */
	double price_usd_per_h;  /* per instance-hour, of the chosen kind */
	double price_usd_per_gpu_h; /* price / GPUs per instance */
	double cost_usd;         /* instances x billed hours x price */
};

struct cost_onprem_result {
	double capital_usd_per_gpu_h; /* capex x (1 - residual) / (life_h x util) */
	double power_usd_per_gpu_h;   /* TDP_kW x PUE x power price */
	double colo_usd_per_gpu_h;    /* colo x TDP_kW x PUE / 730 */
	double total_usd_per_gpu_h;
};

/* The cheapest and dearest offers of one GPU across providers. */
struct cost_choice {
	const struct price_table *table; /* borrowed from the caller's tables */
	const struct price_offer *offer; /* borrowed */
	struct cost_run run;
	double run_s;                    /* the run time priced, before billing */
	/* The offer's network when run_s was timed over it (borrowed from the
	 * offer); NULL when one time serves every offer (one instance, no
	 * timer, or a network the user fixed). */
	const char *network;
};

/*
 * The run time of the priced job when its instances are joined by the
 * network called `network` (an offer's): 0 with *run_s, or -1 when the job
 * cannot be timed over it (the offer is then left out).  Called only for
 * runs of more than one instance: inside one instance the network plays no
 * part.
 */
typedef int (*cost_time_fn)(void *ctx, const char *network, double *run_s);

struct cost_timer {
	cost_time_fn fn;
	void *ctx;
};

struct cost_range {
	struct cost_choice cheapest; /* lowest cost over all offers */
	/* The provider whose cheapest offer that leaves no paid GPU idle costs
	 * most (the cheapest when every offer leaves GPUs idle). */
	struct cost_choice dearest;
	int providers;               /* providers with such an offer */
	int offers;                  /* usable offers that leave no GPU idle */
	/* Listed apart: offers that leave paid GPUs idle (an 8-GPU instance
	 * for a 1-GPU job), and the dearest best offer of the providers that
	 * have only those (cost 0 when none). */
	int offers_idle;
	int providers_idle;
	struct cost_choice dearest_idle;
	int skipped_small;           /* offers of too few GPUs per instance */
	int skipped_fabric;          /* offers that cannot join the instances needed */
	/* The offer of this GPU and kind whose one order holds the most GPUs
	 * (cost_offer_capacity), for saying what is on sale when none hosts
	 * the run; its run is not set.  Borrowed; NULL if none is sold. */
	struct cost_choice largest;
};

/*
 * Billed seconds for a run of `run_s` seconds: at least the minimum, then
 * rounded up to a whole second, minute or hour.  run_s must be >= 0.
 */
double cost_billed_s(const struct cost_billing *b, double run_s);

/*
 * Price a run of `gpus` GPUs (may be fractional) for `run_s` seconds on
 * offer `o` bought as `kind`, billed per `b`.  Returns 0 and fills *out, or
 * -1 with *why set to a static phrase: the offer is not sold that way, or a
 * job of more than one fractional instance's GPUs ("a job cannot span
 * fractional-GPU instances"), or bad input.
 */
int cost_cloud(const struct price_offer *o, const struct cost_billing *b,
	       enum cost_kind kind, double gpus, double run_s,
	       struct cost_run *out, const char **why);

/* Energy in kWh: gpus x tdp_w x util_frac x run_s / 3600 x pue / 1000. */
double cost_energy_kwh(double gpus, double tdp_w, double util_frac,
		       double run_s, double pue);

/* CO2 in kg: energy_kwh x grid_g_per_kwh / 1000. */
double cost_co2_kg(double energy_kwh, double grid_g_per_kwh);

/*
 * On-premises cost per GPU-hour of a GPU drawing `tdp_w`, by the formula in
 * the file comment of docs/pricing.md.  Returns 0, or -1 for inputs out of
 * range (life, utilisation or PUE <= 0, residual outside 0..1).
 */
int cost_onprem_per_gpu_h(const struct cost_onprem *p, double tdp_w,
			  struct cost_onprem_result *out);

/*
 * Over every offer of GPU `gpu_id` sold as `kind` in the `ntables` tables:
 * price a run of `gpus` GPUs for `run_s` seconds.  With gpus <= 0 the
 * offers are compared by price per GPU-hour instead (one GPU-hour each).
 * Fills out->cheapest with the lowest cost and out->dearest with the
 * highest of the providers' own cheapest offers.  Returns 0, or -1 if no
 * offer qualifies.
 */
int cost_range(const struct price_table *tables, size_t ntables,
	       const char *gpu_id, enum cost_kind kind, double gpus,
	       double run_s, struct cost_range *out);

/*
 * True if one order of offer `o` can host `instances` instances: no more
 * than its max_instances, and more than one only over a network.
 */
int cost_offer_hosts(const struct price_offer *o, double instances);

/* The most GPUs one order of `o` holds: GPUs per instance x max_instances,
 * one instance without a network between instances. */
double cost_offer_capacity(const struct price_offer *o);

/*
 * The same, skipping offers of fewer than `min_instance_gpus` GPUs per
 * instance (a plan that assumes 8-GPU nodes, NVLink inside and the network
 * between, cannot run on single-GPU instances) and offers that cannot host
 * the instances the run needs (cost_offer_hosts).  out->skipped_small,
 * out->skipped_fabric and out->largest are set even when -1 is returned.
 */
int cost_range_shaped(const struct price_table *tables, size_t ntables,
		      const char *gpu_id, enum cost_kind kind, double gpus,
		      double min_instance_gpus, double run_s, struct cost_range *out);

/*
 * cost_range_shaped() where each offer that joins several instances is
 * priced for the time `timer` gives over that offer's own network (its
 * choice's `network` then names it); one-instance runs keep run_s.  A NULL
 * timer prices every offer for run_s.
 */
int cost_range_timed(const struct price_table *tables, size_t ntables,
		     const char *gpu_id, enum cost_kind kind, double gpus,
		     double min_instance_gpus, double run_s, const struct cost_timer *timer,
		     struct cost_range *out);

#endif
