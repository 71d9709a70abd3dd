/*
 * cost.c - dollars, energy and CO2 of a run.  See cost.h and docs/pricing.md.
 */
#include "cost.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/* Slack when rounding up: 20/8 computed as 2.5000000001 must stay 3, and
 * 3600.0000000001 s must not become 2 h. */
#define ROUND_SLACK 1e-9

/* Smallest whole multiple of `unit` >= x (x >= 0), forgiving rounding noise. */
static double round_up(double x, double unit)
{
	double n = ceil(x / unit - ROUND_SLACK);
	return (n < 0 ? 0 : n) * unit;
}

double cost_billed_s(const struct cost_billing *b, double run_s)
{
	static const double unit_s[] = { 1, 60, COST_S_PER_H };

	assert(b && run_s >= 0);
	assert(b->granularity >= COST_PER_SECOND && b->granularity <= COST_PER_HOUR);
	double s = run_s > b->minimum_s ? run_s : b->minimum_s;
	return round_up(s, unit_s[b->granularity]);
}

int cost_cloud(const struct price_offer *o, const struct cost_billing *b,
	       enum cost_kind kind, double gpus, double run_s,
	       struct cost_run *out, const char **why)
{
	assert(o && b && out && why);
	assert(kind >= 0 && kind < COST_KIND_COUNT);
	double price = o->price_usd_per_h[kind];

	if (!(price > 0) || !isfinite(price)) {
		*why = "the offer is not sold that way";
		return -1;
	}
	if (!(o->gpus > 0) || !isfinite(o->gpus) || !(gpus > 0) ||
	    !isfinite(gpus) || !(run_s >= 0) || !isfinite(run_s)) {
		*why = "GPUs and run time must be positive and finite";
		return -1;
	}
	/* A quarter of an L4 serves a job of a quarter GPU; four of them do not
	 * make one GPU a training job can use. */
	if (o->gpus < 1 && gpus > o->gpus * (1 + ROUND_SLACK)) {
		*why = "a job cannot span fractional-GPU instances";
		return -1;
	}
	struct cost_run r;
	r.instances = ceil(gpus / o->gpus - ROUND_SLACK);
	if (r.instances < 1)
		r.instances = 1;
	r.gpus_paid = r.instances * o->gpus;
	r.idle_gpus = r.gpus_paid - gpus;
	if (r.idle_gpus < 1e-9)
		r.idle_gpus = 0;
	r.billed_s = cost_billed_s(b, run_s);
	r.price_usd_per_h = price;
	r.price_usd_per_gpu_h = price / o->gpus;
	r.cost_usd = r.instances * (r.billed_s / COST_S_PER_H) * price;
	*out = r;
	return 0;
}

double cost_energy_kwh(double gpus, double tdp_w, double util_frac,
		       double run_s, double pue)
{
	/* W x s = J; / 3600 = Wh; / 1000 = kWh. */
	return gpus * tdp_w * util_frac * (run_s / COST_S_PER_H) * pue / 1000.0;
}

double cost_co2_kg(double energy_kwh, double grid_g_per_kwh)
{
	return energy_kwh * grid_g_per_kwh / 1000.0;
}

int cost_onprem_per_gpu_h(const struct cost_onprem *p, double tdp_w,
			  struct cost_onprem_result *out)
{
	assert(p && out);
	if (!(p->capex_usd >= 0) || !(p->residual_frac >= 0) ||
	    !(p->residual_frac <= 1) || !(p->life_years > 0) ||
	    !(p->util_frac > 0) || !(p->util_frac <= 1) || !(p->pue >= 1) ||
	    !(p->power_usd_per_kwh >= 0) || !(p->colo_usd_per_kw_month >= 0) ||
	    !(tdp_w >= 0) || !isfinite(p->capex_usd) || !isfinite(p->life_years) ||
	    !isfinite(p->pue) || !isfinite(p->power_usd_per_kwh) ||
	    !isfinite(p->colo_usd_per_kw_month) || !isfinite(tdp_w))
		return -1;
	double life_h = p->life_years * COST_H_PER_YEAR;
	double kw = tdp_w / 1000.0;
	struct cost_onprem_result r;
	r.capital_usd_per_gpu_h =
		p->capex_usd * (1 - p->residual_frac) / (life_h * p->util_frac);
	r.power_usd_per_gpu_h = kw * p->pue * p->power_usd_per_kwh;
	r.colo_usd_per_gpu_h = p->colo_usd_per_kw_month * kw * p->pue / COST_H_PER_MONTH;
	r.total_usd_per_gpu_h = r.capital_usd_per_gpu_h + r.power_usd_per_gpu_h +
				r.colo_usd_per_gpu_h;
	*out = r;
	return 0;
}

int cost_offer_hosts(const struct price_offer *o, double instances)
{
	assert(o);
	if (instances > o->max_instances)
		return 0;
	return instances <= 1 || (o->network[0] && strcmp(o->network, COST_NETWORK_NONE));
}

double cost_offer_capacity(const struct price_offer *o)
{
	assert(o);
	return cost_offer_hosts(o, 2) ? o->gpus * o->max_instances : o->gpus;
}

int cost_range(const struct price_table *tables, size_t ntables,
	       const char *gpu_id, enum cost_kind kind, double gpus,
	       double run_s, struct cost_range *out)
{
	return cost_range_shaped(tables, ntables, gpu_id, kind, gpus, 0, run_s, out);
}

int cost_range_shaped(const struct price_table *tables, size_t ntables,
		      const char *gpu_id, enum cost_kind kind, double gpus,
		      double min_instance_gpus, double run_s, struct cost_range *out)
{
	return cost_range_timed(tables, ntables, gpu_id, kind, gpus, min_instance_gpus, run_s,
				NULL, out);
}

int cost_range_timed(const struct price_table *tables, size_t ntables,
		     const char *gpu_id, enum cost_kind kind, double gpus,
		     double min_instance_gpus, double run_s, const struct cost_timer *timer,
		     struct cost_range *out)
{
	struct cost_range r;
	int per_gpu_h = !(gpus > 0);
	int skipped = 0, unhosted = 0;
	struct cost_choice largest = { 0 };

	assert((tables || ntables == 0) && gpu_id && out);
	memset(&r, 0, sizeof(r));
	for (size_t t = 0; t < ntables; t++) {
		/* The provider's cheapest offer, and its cheapest that leaves no
		 * paid GPU idle (the one its range counts). */
		struct cost_choice best = { 0 }, whole = { 0 };
		double best_key = 0, whole_key = 0;
		for (size_t i = 0; i < tables[t].count; i++) {
			const struct price_offer *o = &tables[t].offers[i];
			struct cost_run run;
			const char *why;
			if (strcmp(o->gpu, gpu_id))
				continue;
			if (o->price_usd_per_h[kind] > 0 &&
			    (!largest.offer || cost_offer_capacity(o) > cost_offer_capacity(largest.offer))) {
				largest.table = &tables[t];
				largest.offer = o;
			}
			if (o->gpus < min_instance_gpus) {
				skipped++;
				continue;
			}
			if (cost_cloud(o, &tables[t].billing, kind,
				       per_gpu_h ? o->gpus : gpus,
				       per_gpu_h ? COST_S_PER_H : run_s, &run, &why))
				continue;
			if (!per_gpu_h && !cost_offer_hosts(o, run.instances)) {
				unhosted++;
				continue;
			}
			double offer_s = run_s;
			const char *net = NULL;
			if (!per_gpu_h && timer && run.instances > 1) {
				/* The offer's own network sets the time. */
				if (timer->fn(timer->ctx, o->network, &offer_s) ||
				    cost_cloud(o, &tables[t].billing, kind, gpus, offer_s, &run, &why))
					continue;
				net = o->network;
			}
			double key = per_gpu_h ? run.price_usd_per_gpu_h : run.cost_usd;
			struct cost_choice ch = { &tables[t], o, run, offer_s, net };
			int idle = !per_gpu_h && run.idle_gpus > 0;
			if (idle)
				r.offers_idle++;
			else
				r.offers++;
			if (!best.offer || key < best_key) {
				best = ch;
				best_key = key;
			}
			if (!idle && (!whole.offer || key < whole_key)) {
				whole = ch;
				whole_key = key;
			}
		}
		if (!best.offer)
			continue;
		double cheap_key = per_gpu_h ? r.cheapest.run.price_usd_per_gpu_h
					     : r.cheapest.run.cost_usd;
		if (!r.cheapest.offer || best_key < cheap_key)
			r.cheapest = best;
		if (whole.offer) {
			double dear_key = per_gpu_h ? r.dearest.run.price_usd_per_gpu_h
						    : r.dearest.run.cost_usd;
			if (!r.providers || whole_key > dear_key)
				r.dearest = whole;
			r.providers++;
		} else {
			/* Only offers that leave GPUs idle: listed apart. */
			if (!r.providers_idle || best_key > r.dearest_idle.run.cost_usd)
				r.dearest_idle = best;
			r.providers_idle++;
		}
	}
	/* Every offer leaves GPUs idle: the range is the cheapest alone. */
	if (!r.providers && r.cheapest.offer)
		r.dearest = r.cheapest;
	r.skipped_small = skipped;
	r.skipped_fabric = unhosted;
	r.largest = largest;
	out->skipped_small = skipped;
	out->skipped_fabric = unhosted;
	out->largest = largest;
	if (!r.cheapest.offer)
		return -1;
	*out = r;
	return 0;
}
