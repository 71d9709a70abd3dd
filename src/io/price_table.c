/*
 * price_table.c - what callers do with loaded price tables: the price per
 * GPU-hour of an offer, the cost inputs of an on-premises GPU, setting
 * unverified offers aside, and releasing what the loaders allocated.
 */
#include "price_table.h"

#include "price_unjoin.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

size_t price_set_set_aside_unverified(struct price_set *set)
{
	size_t aside = 0;
	for (size_t i = 0; i < set->count; i++) {
		struct price_table *t = &set->tables[i];
		size_t kept = 0;
		/* A stable partition: each verified offer moves down past the
		 * unverified ones before it, which keep their order. */
		for (size_t j = 0; j < t->count; j++) {
			if (!t->offers[j].verified)
				continue;
			if (j > kept) {
				struct price_offer o = t->offers[j];
				memmove(&t->offers[kept + 1], &t->offers[kept],
					(j - kept) * sizeof(*t->offers));
				t->offers[kept] = o;
			}
			kept++;
		}
		aside += t->count - kept;
		t->aside += t->count - kept; /* before any set aside already */
		t->count = kept;
	}
	return aside;
}

int price_onprem_params(const struct price_onprem *op, const char *gpu,
			struct cost_onprem *out)
{
	assert(op && gpu && out);
	for (size_t i = 0; i < op->count; i++) {
		const struct price_onprem_gpu *g = &op->gpus[i];
		if (strcmp(g->gpu, gpu))
			continue;
		double per_gpu;
		if (g->node_usd > 0)
			per_gpu = g->node_usd / g->node_gpus;
		else
			per_gpu = g->card_usd + (g->server_share_usd > 0
							 ? g->server_share_usd
							 : g->card_usd * op->def.server_share_frac);
		out->capex_usd = cost_onprem_capex_usd(per_gpu, 0, op->def.networking_frac);
		out->residual_frac = op->def.residual_frac;
		out->life_years = op->def.life_years;
		out->util_frac = op->def.util_frac;
		out->power_usd_per_kwh = op->def.power_usd_per_kwh;
		out->pue = op->def.pue;
		out->colo_usd_per_kw_month = op->def.colo_usd_per_kw_month;
		return 0;
	}
	return -1;
}

double price_usd_per_gpu_h(const struct price_offer *o, enum cost_kind kind)
{
	assert(o && kind >= 0 && kind < COST_KIND_COUNT);
	if (!(o->gpus > 0))
		return 0;
	return o->price_usd_per_h[kind] / o->gpus;
}

void price_table_release(struct price_table *t)
{
	if (!t)
		return;
	free(t->file);
	free(t->offers);
	memset(t, 0, sizeof(*t));
}

void price_onprem_release(struct price_onprem *op)
{
	if (!op)
		return;
	free(op->file);
	free(op->gpus);
	memset(op, 0, sizeof(*op));
}

void price_set_release(struct price_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->count; i++)
		price_table_release(&set->tables[i]);
	free(set->tables);
	if (set->onprem) {
		price_onprem_release(set->onprem);
		free(set->onprem);
	}
	if (set->unjoin) {
		price_unjoin_release(set->unjoin);
		free(set->unjoin);
	}
	memset(set, 0, sizeof(*set));
}
