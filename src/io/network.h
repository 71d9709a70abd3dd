/*
 * network.h - the named inter-node networks (network.c): the one table
 * that workload plans (plan.network), price offers (an offer's `network`)
 * and the --network option read.  Bandwidth and latency: see
 * docs/workload-format.md, "Networks".
 */
#ifndef TC_NETWORK_H
#define TC_NETWORK_H

#include "../model/topology.h"

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

/* The network a plan gets when it names none (ib-hdr). */
const struct net_def *net_default(void);

#endif
