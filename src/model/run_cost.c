/*
 * run_cost.c - dollars, energy and CO2 of one run (run_cost.h).
 */
#include "run_cost.h"

#include "estimate_types.h"

#include <math.h>
#include <string.h>

void run_cost_defaults(struct run_cost_in *in, enum cost_kind kind)
{
	memset(in, 0, sizeof(*in));
	in->kind = kind;
	in->power_frac = RUN_COST_POWER_FRAC;
	in->pue = RUN_COST_PUE;
	in->grid_g_per_kwh = RUN_COST_GRID_G_PER_KWH;
	in->spot.preempt_per_h = RUN_COST_PREEMPT_PER_H;
	in->spot.checkpoint_interval_s = RUN_COST_CHECKPOINT_S;
	in->spot.restart_s = RUN_COST_RESTART_S;
	in->spot.instances = 1;
}

/* A cost_timer that adds the spot overhead to another timer's time. */
struct spot_timer {
	const struct cost_timer *base;
	const struct cost_spot *spot;
};

static int spot_time(void *ctx, const char *network, double *run_s)
{
	const struct spot_timer *st = ctx;
	struct cost_spot_result r;
	double s;
	if (st->base->fn(st->base->ctx, network, &s) || cost_spot_overhead(s, st->spot, &r))
		return -1;
	*run_s = r.run_s;
	return 0;
}

int run_cost_compute(const struct price_table *tables, size_t ntables,
		     const char *gpu_id, double gpus, double node_gpus, double tdp_w,
		     double run_s, const struct run_cost_in *in, struct run_cost *out)
{
	return run_cost_compute_timed(tables, ntables, gpu_id, gpus, node_gpus, tdp_w, run_s,
				      NULL, in, out);
}

int run_cost_compute_timed(const struct price_table *tables, size_t ntables,
			   const char *gpu_id, double gpus, double node_gpus, double tdp_w,
			   double run_s, const struct cost_timer *timer,
			   const struct run_cost_in *in, struct run_cost *out)
{
	if (!(run_s >= 0) || !isfinite(run_s) || !(gpus > 0) || !isfinite(gpus))
		return -1;
	memset(out, 0, sizeof(*out));
	out->in = *in;
	out->kind = in->kind;
	out->run_s = run_s;
	double shape = gpus < node_gpus ? gpus : node_gpus;
	/* Interrupted work is redone: it costs time, dollars and energy.  The
	 * job spans the plan's nodes, one instance each. */
	if (in->kind == COST_SPOT) {
		out->in.spot.instances = ceil(gpus / shape);
		if (cost_spot_overhead(run_s, &out->in.spot, &out->spot))
			return -1;
		out->spot_applied = 1;
		out->run_s = out->spot.run_s;
	}
	struct spot_timer st = { timer, &out->in.spot };
	struct cost_timer spot_timer = { spot_time, &st };
	const struct cost_timer *t = timer && out->spot_applied ? &spot_timer : timer;
	out->priced = cost_range_timed(tables, ntables, gpu_id, in->kind, gpus, shape,
				       out->run_s, t, &out->range) == 0;
	/* The spot line describes the run priced: redo it over the cheapest
	 * offer's network when that set its time. */
	const char *net = out->priced ? out->range.cheapest.network : NULL;
	out->priced_base_s = run_s;
	if (net && timer->fn(timer->ctx, net, &out->priced_base_s))
		return -1;
	if (out->spot_applied && net &&
	    cost_spot_overhead(out->priced_base_s, &out->in.spot, &out->spot))
		return -1;
	if (out->spot_applied && out->priced) {
		/* Every instance of the job waits through a restart and redoes
		 * the lost work, at the cheapest offer's price. */
		const struct cost_run *r = &out->range.cheapest.run;
		out->restart_usd = r->instances * out->spot.lost_s_per_restart / COST_S_PER_H *
				   r->price_usd_per_h;
		out->overhead_usd = r->instances * out->spot.overhead_s / COST_S_PER_H *
				    r->price_usd_per_h;
	}
	out->energy_kwh = cost_energy_kwh(gpus, tdp_w, in->power_frac, out->run_s, in->pue);
	out->co2_kg = cost_co2_kg(out->energy_kwh, in->grid_g_per_kwh);
	if (in->have_onprem &&
	    cost_onprem_per_gpu_h(&in->onprem, tdp_w, &out->onprem_rate) == 0) {
		out->onprem = 1;
		/* Owned GPUs run the job without preemptions. */
		out->onprem_usd = gpus * run_s / COST_S_PER_H * out->onprem_rate.total_usd_per_gpu_h;
	}
	return isfinite(out->energy_kwh) && isfinite(out->co2_kg) ? 0 : -1;
}

int run_cost_own_net_time(void *ctx, const char *network, double *run_s)
{
	const struct run_cost_own_net *o = ctx;
	if (strcmp(network, o->network))
		return -1;
	*run_s = o->run_s;
	return 0;
}

int run_cost_networks(const struct price_table *tables, size_t ntables, const char *gpu_id,
		      enum cost_kind kind, const char **out, int cap)
{
	int n = 0;
	for (size_t t = 0; t < ntables; t++)
		for (size_t i = 0; i < tables[t].count; i++) {
			const struct price_offer *o = &tables[t].offers[i];
			int seen = 0;
			if (strcmp(o->gpu, gpu_id) || !(o->price_usd_per_h[kind] > 0) ||
			    !cost_offer_hosts(o, 2) || !strcmp(o->network, COST_NETWORK_NONE))
				continue;
			for (int k = 0; k < n && !seen; k++)
				seen = !strcmp(out[k], o->network);
			if (!seen && n < cap)
				out[n++] = o->network;
		}
	return n;
}

int run_cost_campaign(struct run_cost *c, double gpus, const struct campaign *camp)
{
	c->campaign = *camp;
	c->campaign_hopeless = 0;
	c->wall_s = c->wall_usd = c->spare_usd = 0;
	if (c->unfit)
		return 0;
	struct plan_problem hopeless;
	if (c->spot_applied &&
	    campaign_with_preemptions(camp, c->in.spot.preempt_per_h, &c->campaign, &hopeless)) {
		c->campaign_hopeless = 1;
		return 0;
	}
	c->wall_s = campaign_wall_s(&c->campaign, c->priced_base_s);
	if (!c->priced)
		return isfinite(c->wall_s) ? 0 : -1;
	const struct cost_choice *ch = &c->range.cheapest;
	struct cost_run run;
	const char *why;
	if (cost_cloud(ch->offer, &ch->table->billing, c->kind, gpus, c->wall_s, &run, &why))
		return -1;
	c->spare_usd = run.cost_usd * c->campaign.in.spare_frac;
	c->wall_usd = run.cost_usd + c->spare_usd;
	return isfinite(c->wall_usd) ? 0 : -1;
}

void run_cost_unfit(const struct run_cost_in *in, struct run_cost *out)
{
	memset(out, 0, sizeof(*out));
	out->in = *in;
	out->kind = in->kind;
	out->unfit = 1;
}
