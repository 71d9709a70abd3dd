/*
 * network.h - the named inter-node networks (network.c): the one table
 * that workload plans (plan.network), price offers (an offer's `network`)
 * and the --network option read, and setting a plan's network from it.
 * Bandwidth and latency: see docs/workload-format.md, "Networks".
 */
#ifndef TC_NETWORK_H
#define TC_NETWORK_H

#include "topology.h"
#include "workload.h"

struct net_def {
	const char *name;
	double bytes_per_s_one_way; /* per GPU, one direction */
	enum net_fabric fabric;     /* its achieved share and latency floor */
};

/* The named networks, NULL-terminated (for suggestions and messages), and
 * the same after "none": what a price offer's `network` may say. */
extern const char *const *const net_names;
extern const char *const net_offer_names[];

/* The network called `name`, or NULL. */
const struct net_def *net_find(const char *name);

/* The fabrics an offer's adapters may be of: "efa", "infiniband", "roce",
 * "ethernet", NULL. */
extern const char *const net_fabric_names[];

/*
 * The named network that carries an instance's `adapters` x `gbps` (Gb/s
 * one way each) of fabric `fabric` (index into net_fabric_names), shared by
 * its `gpus` GPUs: the one of that fabric whose per-GPU rate is the
 * instance's within 1 %, or NULL when the model has none.  The one place
 * where an offer's stated adapters meet the collective model's networks.
 */
const struct net_def *net_for_adapters(int fabric, int adapters, double gbps, double gpus);
/* The rates per GPU net_for_adapters knows, in words (for messages). */
#define NET_FABRIC_TIERS \
	"efa 50 or 400, infiniband 200 or 400, roce 100, 200 or 400, ethernet 25 Gb/s"

/* The network a plan gets when it names none (ib-hdr). */
const struct net_def *net_default(void);

/* Set the plan's inter-node network to the named network `n`; the
 * default one (net_default()). */
void wl_set_network(struct plan *p, const struct net_def *n);
void wl_default_network(struct plan *p);

#endif
