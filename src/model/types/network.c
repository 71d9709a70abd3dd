/*
 * network.c - the named inter-node networks (network.h).
 *
 * Bandwidth is what one GPU's adapter carries in one direction (one adapter
 * per GPU, as in DGX/HGX servers); struct plan stores both directions
 * added, like NVLink figures.  The fabric gives what a collective achieves
 * over it (src/model/types/topology.c, from measurements).
 */
#include "network.h"

#include <math.h>
#include <stdio.h>
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
	/* RoCE v2 cluster networks (OCI's 8 x 200 and 16 x 200 Gb/s per 8-GPU
	 * node), named by the rate per GPU like roce-100g. */
	{ "roce-200g", 25e9, FABRIC_ROCE },
	{ "roce-400g", 50e9, FABRIC_ROCE },
};
#define N_NETWORKS (sizeof(networks) / sizeof(networks[0]))

const char *const net_offer_names[] = { "none", "ib-hdr", "ib-ndr", "roce-100g",
					 "eth-25g", "efa-400g", "efa-3200g", "roce-200g",
					 "roce-400g", NULL };
const char *const *const net_names = net_offer_names + 1;

const struct net_def *net_find(const char *name)
{
	for (size_t i = 0; i < N_NETWORKS; i++)
		if (!strcmp(name, networks[i].name))
			return &networks[i];
	return NULL;
}

const char *const net_fabric_names[] = { "efa", "infiniband", "roce", "ethernet", NULL };

const struct net_def *net_for_adapters(int fabric, int adapters, double gbps, double gpus)
{
	/* The named networks by fabric and rate per GPU (Gb/s one way). */
	static const struct { int fabric; double gbps_per_gpu; const char *name; } tiers[] = {
		{ 0, 50, "efa-400g" }, { 0, 400, "efa-3200g" },
		{ 1, 200, "ib-hdr" }, { 1, 400, "ib-ndr" },
		{ 2, 100, "roce-100g" }, { 2, 200, "roce-200g" }, { 2, 400, "roce-400g" },
		{ 3, 25, "eth-25g" },
	};
	if (!(gpus > 0) || adapters < 1 || !(gbps > 0))
		return NULL;
	double per_gpu = adapters * gbps / gpus;
	for (size_t i = 0; i < sizeof(tiers) / sizeof(tiers[0]); i++)
		if (tiers[i].fabric == fabric &&
		    fabs(per_gpu - tiers[i].gbps_per_gpu) <= 0.01 * tiers[i].gbps_per_gpu)
			return net_find(tiers[i].name);
	return NULL;
}

double net_gpu_bytes_per_s(const struct plan *p)
{
	if (p->network_nics > 0 && p->gpus_per_node > 0)
		return p->network_bytes_per_s / p->gpus_per_node;
	return p->network_bytes_per_s;
}

enum net_fabric net_fabric_of(int fabric, double node_gbps)
{
	/* index into net_fabric_names: efa, infiniband, roce, ethernet */
	static const enum net_fabric of[] = { FABRIC_EFA, FABRIC_IB, FABRIC_ROCE, FABRIC_TCP };
	if (fabric == 0 && node_gbps > 400 * 1.01)
		return FABRIC_EFA_V4;
	return (unsigned)fabric < sizeof(of) / sizeof(of[0]) ? of[fabric] : FABRIC_IB;
}

const struct net_def *net_default(void)
{
	return &networks[0];
}

void wl_set_network(struct plan *p, const struct net_def *n)
{
	p->network_bytes_per_s = 2 * n->bytes_per_s_one_way;
	p->network_nics = 0;
	p->network_fabric = n->fabric;
	snprintf(p->network, sizeof(p->network), "%s", n->name);
}

void wl_default_network(struct plan *p)
{
	wl_set_network(p, net_default());
}
