/*
 * comm.h - collectives and point-to-point transfers, alpha-beta model.
 *
 * Ring algorithms (Thakur, Rabenseifner, Gropp 2005; Patarasuk, Yuan 2009):
 * all-reduce moves 2(n-1)/n of the buffer per GPU in 2(n-1) steps,
 * reduce-scatter and all-gather (n-1)/n in n-1 steps, all-to-all (n-1)/n.
 * t = comm_latency_s * steps + volume / (link * eff(S)), with the
 * message-size-dependent efficiency eff(S) = comm_frac * S / (S +
 * comm_half_bytes), S the buffer size.  Link per direction: NVLink/2 inside a
 * node where the GPU has NVLink, PCIe/2 otherwise, network/2 between nodes.
 * Groups that span nodes run hierarchically (reduce-scatter inside the node,
 * the collective across nodes on 1/k of the data, all-gather inside).
 */
#ifndef TC_COMM_H
#define TC_COMM_H

#include "gpu.h"
#include "workload.h"

enum comm_coll { COLL_ALLREDUCE, COLL_REDUCE_SCATTER, COLL_ALLGATHER,
		 COLL_ALLTOALL, COLL_P2P };

/* Default inter-node bandwidth when a multi-node plan gives none:
 * 200 Gb/s HDR InfiniBand per GPU, both directions (bytes/s). */
#define COMM_DEFAULT_NETWORK_BYTES_PER_S 50e9

/* A group of `n` ranks, `per_node` of them on each node (1 <= per_node <= n,
 * per_node divides n). */
struct comm_group {
	int n;
	int per_node;
};

/* Bytes each GPU sends for collective c over n ranks on a `bytes` buffer
 * (ring): 2(n-1)/n*bytes for all-reduce, (n-1)/n*bytes for the others,
 * bytes for p2p; 0 when n <= 1 (p2p excepted). */
double comm_volume(enum comm_coll c, int n, double bytes);

/* Latency steps of the ring: 2(n-1), n-1, n-1, n-1, 1. */
double comm_steps(enum comm_coll c, int n);

/* Link bandwidth per direction, bytes/s: inside a node (NVLink or PCIe) or
 * between nodes (plan network, or the default above when 0). */
double comm_link_bytes_per_s(const struct gpu *g, const struct plan *p,
			     int inter_node);

/* Message-size efficiency: comm_frac * S / (S + comm_half_bytes). */
double comm_eff(const struct roof_eff *e, double msg_bytes);

/*
 * Seconds for collective c on a `bytes` buffer (per GPU, before the
 * collective) over group grp, hierarchical when it spans nodes.  0 for a
 * group of one (p2p: grp.n = 2, per_node 1 means across nodes).
 */
double comm_time_s(const struct gpu *g, const struct plan *p,
		   enum comm_coll c, struct comm_group grp, double bytes);

/*
 * Bytes one GPU sends across the network (between nodes) for collective c
 * on a `bytes` buffer over grp, following the same hierarchical scheme as
 * comm_time_s; 0 when the group stays inside a node.
 */
double comm_net_bytes(enum comm_coll c, struct comm_group grp, double bytes);

/* The same inside one link level only (no hierarchy), for fitting. */
double comm_flat_s(const struct roof_eff *e, double link_bytes_per_s,
		   double extra_latency_s, enum comm_coll c, int n,
		   double bytes);

#endif
