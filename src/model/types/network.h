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

/*
 * One GPU's share of the inter-node network, both directions, bytes/s: the
 * plan's figure, or, when the plan gives the node's adapters (nics x rate),
 * their sum over the node's GPUs, as every GPU of a node sends at once in a
 * collective.  The one place that reads network_nics.
 */
double net_gpu_bytes_per_s(const struct plan *p);

/*
 * The fabric of a node's adapters as a workload names it (one of
 * net_fabric_names): EFA of 400 Gb/s a node or less is the p4d generation
 * measured at that rate, more the later generation (as the named networks
 * efa-400g and efa-3200g).  `node_gbps` is the node's rate, one way.
 */
enum net_fabric net_fabric_of(int fabric, double node_gbps);

/* The network a plan gets when it names none (ib-hdr). */
const struct net_def *net_default(void);

/* Set the plan's inter-node network to the named network `n`; the
 * default one (net_default()). */
void wl_set_network(struct plan *p, const struct net_def *n);
void wl_default_network(struct plan *p);

#endif
