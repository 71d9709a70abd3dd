/*
 * run_cost.c - dollars, energy and CO2 of one run (run_cost.h).
 */
#include "run_cost.h"

#include "../types/estimate_types.h"

#include <math.h>
#include <string.h>

void run_cost_defaults(struct run_cost_in *in, enum cost_kind kind)
{
	memset(in, 0, sizeof(*in));
	in->kind = kind;
	in->power_frac = RUN_COST_POWER_FRAC;
	in->pue = RUN_COST_PUE;
	in->grid_g_per_kwh = RUN_COST_GRID_G_PER_KWH;
	in->preempt_per_h = RUN_COST_PREEMPT_PER_H;
}

int run_cost_compute(const struct price_table *tables, size_t ntables,
		     const char *gpu_id, double gpus, double node_gpus, double tdp_w,
		     double run_s, const struct run_cost_in *in, struct run_cost *out)
{
	return run_cost_compute_timed(tables, ntables, gpu_id, gpus, node_gpus, tdp_w, run_s,
				      NULL, in, out);
}

/* The fewest GPUs an instance must hold: a plan that assumes nodes of
 * node_gpus (NVLink inside, the network between) cannot run on smaller
 * instances. */
static double instance_shape(double gpus, double node_gpus)
{
	return gpus < node_gpus ? gpus : node_gpus;
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
	out->priced = cost_range_timed(tables, ntables, gpu_id, in->kind, gpus,
				       instance_shape(gpus, node_gpus), run_s, timer,
				       &out->range) == 0;
	/* The wall clock stretches the run priced: its time over the
	 * cheapest offer's network when that set it. */
	const char *net = out->priced ? out->range.cheapest.network : NULL;
	out->priced_base_s = run_s;
	if (net && timer->fn(timer->ctx, net, &out->priced_base_s))
		return -1;
	out->energy_kwh = cost_energy_kwh(gpus, tdp_w, in->power_frac, out->run_s, in->pue);
	out->co2_kg = cost_co2_kg(out->energy_kwh, in->grid_g_per_kwh);
	if (in->have_onprem &&
	    cost_onprem_per_gpu_h(&in->onprem, tdp_w, &out->onprem_rate) == 0) {
		out->onprem = 1;
		out->onprem_usd = gpus * run_s / COST_S_PER_H * out->onprem_rate.total_usd_per_gpu_h;
	}
	return isfinite(out->energy_kwh) && isfinite(out->co2_kg) ? 0 : -1;
}

void run_cost_aside(const struct price_table *tables, size_t ntables, const char *gpu_id,
		    double gpus, double node_gpus, const struct cost_timer *timer,
		    struct run_cost *c)
{
	memset(&c->aside, 0, sizeof(c->aside));
	c->aside_priced = !c->unfit &&
			  cost_range_timed(tables, ntables, gpu_id, c->kind, gpus,
					   instance_shape(gpus, node_gpus), c->run_s, timer,
					   &c->aside) == 0;
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

/* The spot preemptions of campaign *camp (its own, or those of in's
 * rate with the notice of the cheapest offer's provider) into c->campaign
 * and c->spot; -1 when they leave no time to train. */
static int spot_campaign(struct run_cost *c, const struct campaign *camp)
{
	struct run_cost_spot *sp = &c->spot;
	const struct price_table *t = c->priced ? c->range.cheapest.table : NULL;
	struct plan_problem hopeless;
	memset(sp, 0, sizeof(*sp));
	c->spot_counted = 1;
	sp->notice_known = t && t->spot_notice_known;
	sp->notice_given = (camp->in.set >> CAMP_P_NOTICE) & 1u;
	sp->notice_s = sp->notice_given ? camp->in.notice_s :
		       sp->notice_known ? t->spot_notice_s : CAMP_SPOT_NOTICE_S;
	sp->preempt_per_h = (camp->in.set >> CAMP_P_PREEMPT) & 1u ? camp->in.preempt_per_h :
								      c->in.preempt_per_h;
	sp->instances = camp->nodes;
	if (campaign_with_preemptions(camp, c->in.preempt_per_h, sp->notice_s, &c->campaign,
				      &hopeless))
		return -1;
	const struct campaign *k = &c->campaign;
	double per_s = k->nodes * k->in.preempt_per_h / COST_S_PER_H;
	sp->lost_s_each = k->lost_per_interrupt_s;
	sp->expected = per_s * k->wall_s;
	/* their share of the restarts and rework of the running time */
	sp->lost_s = per_s * (k->wall_s - k->in.startup_s) * k->lost_per_interrupt_s;
	return 0;
}

int run_cost_campaign(struct run_cost *c, double gpus, const struct campaign *camp)
{
	c->campaign = *camp;
	c->campaign_hopeless = 0;
	c->spot_counted = 0;
	c->wall_s = c->wall_usd = c->spare_usd = 0;
	if (c->unfit)
		return 0;
	if (c->kind == COST_SPOT && spot_campaign(c, camp)) {
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
	if (c->spot_counted) {
		/* every instance waits through a preemption's restart and redoes
		 * its lost work, at the cheapest offer's price */
		double usd_per_s = ch->run.instances * ch->run.price_usd_per_h / COST_S_PER_H;
		c->spot.each_usd = c->spot.lost_s_each * usd_per_s;
		c->spot.lost_usd = c->spot.lost_s * usd_per_s;
	}
	return isfinite(c->wall_usd) ? 0 : -1;
}

void run_cost_unfit(const struct run_cost_in *in, struct run_cost *out)
{
	memset(out, 0, sizeof(*out));
	out->in = *in;
	out->kind = in->kind;
	out->unfit = 1;
}
