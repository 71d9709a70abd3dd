/*
 * network.c - the named inter-node networks (network.h).
 *
 * Bandwidth is what one GPU's adapter carries in one direction (one adapter
 * per GPU, as in DGX/HGX servers); struct plan stores both directions
 * added, like NVLink figures.  The fabric gives what a collective achieves
 * over it (src/model/topology.c, from measurements).
 */
#include "network.h"

#include <string.h>

static const struct net_def networks[] = {
	{ "ib-hdr", 25e9, FABRIC_IB },        /* InfiniBand HDR, 200 Gb/s */
	{ "ib-ndr", 50e9, FABRIC_IB },        /* InfiniBand NDR, 400 Gb/s */
	{ "roce-100g", 12.5e9, FABRIC_ROCE }, /* RoCE v2 over 100 GbE */
	{ "eth-25g", 3.125e9, FABRIC_TCP },   /* 25 GbE, TCP sockets */
	/* AWS Elastic Fabric Adapter, named by the bandwidth AWS states per
	 * 8-GPU instance; the table holds one GPU's eighth of it.  p5's EFA
	 * is of a later generation than p4d's; the measured p4d and p6
	 * figures bracket it, and the later one stands in. */
	{ "efa-400g", 6.25e9, FABRIC_EFA },   /* 400 Gb/s per instance (p4d, p4de) */
	{ "efa-3200g", 50e9, FABRIC_EFA_V4 }, /* 3,200 Gb/s per instance (p5, p5e, p5en) */
};
#define N_NETWORKS (sizeof(networks) / sizeof(networks[0]))

const char *const net_offer_names[] = { "none", "ib-hdr", "ib-ndr", "roce-100g",
					 "eth-25g", "efa-400g", "efa-3200g", NULL };
const char *const *const net_names = net_offer_names + 1;

const struct net_def *net_find(const char *name)
{
	for (size_t i = 0; i < N_NETWORKS; i++)
		if (!strcmp(name, networks[i].name))
			return &networks[i];
	return NULL;
}

const struct net_def *net_default(void)
{
	return &networks[0];
}
