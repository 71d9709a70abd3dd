/*
 * offer.c - the names of offer.h's enums as price files and the command
 * line spell them, and the capex of one on-premises GPU.
 */
#include "offer.h"

#include <string.h>

const char *const cost_gran_names[] = { "per_second", "per_minute", "per_hour",
					NULL };
const char *const cost_link_names[] = { "none", "pcie", "nvlink", NULL };
const char *const cost_cluster_names[] = { "none", "placement_group", "scale_set",
					   "cluster_network", "capacity_block",
					   "one_click_cluster", "instant_cluster", NULL };
const char *const cost_kind_names[] = { "on-demand", "spot", NULL };
const char *const cost_kind_keys[COST_KIND_COUNT] = { "on_demand", "spot" };

int cost_kind_parse(const char *name)
{
	for (int i = 0; cost_kind_names[i]; i++)
		if (!strcmp(cost_kind_names[i], name))
			return i;
	return -1;
}

double cost_onprem_capex_usd(double card_usd, double server_share_usd,
			     double networking_frac)
{
	return (card_usd + server_share_usd) * (1 + networking_frac);
}
