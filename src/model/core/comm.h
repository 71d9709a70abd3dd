/*
 * comm.h - the collective operator: collectives and point-to-point
 * transfers timed from measured bus bandwidth.
 *
 * Ring volumes (Thakur, Rabenseifner, Gropp 2005; Patarasuk, Yuan 2009):
 * all-reduce moves 2(n-1)/n of the buffer per GPU, reduce-scatter and
 * all-gather (n-1)/n, all-to-all (n-1)/n.  Time = volume / busbw + latency,
 * busbw the bus bandwidth nccl-tests reports for the topology crossed
 * (topology.h):
 *  - inside a node, the ring bandwidth of the node's topology class times
 *    the message-size efficiency S / (S + comm_half_bytes), plus
 *    comm_latency_s per ring step;
 *  - across nodes, one ring through every GPU of the group, as NCCL runs
 *    it: the slower of the in-node ring and the group's NICs on one node
 *    (k GPUs of the group on a node use k NICs' worth, one NIC per GPU as
 *    in DGX/HGX servers) times the fabric's plateau share and the
 *    node-count-dependent message-size curve S / (S + net_half_bytes(N)),
 *    plus the fabric's latency floor over a tree of the nodes;
 *  - an all-to-all across nodes gets one NIC per GPU (busbw about one NIC's
 *    rate, collectives.md section 8), its latency one floor, not one per
 *    peer, as NCCL posts every send at once.
 */
#ifndef TC_COMM_H
#define TC_COMM_H

#include "../types/gpu.h"
#include "../types/workload.h"

/* Default inter-node bandwidth when a multi-node plan gives none:
 * 200 Gb/s HDR InfiniBand per GPU, both directions (bytes/s). */
#define COMM_DEFAULT_NETWORK_BYTES_PER_S 50e9

/* A group of n consecutive ranks on nodes of `node_ranks` of them: the
 * ranks of a node in it are the greatest common divisor of n and
 * min(n, node_ranks). */
struct comm_group comm_group_of(int n, int node_ranks);

/* Bytes each GPU sends for collective c over n ranks on a `bytes` buffer
 * (ring): 2(n-1)/n*bytes for all-reduce, (n-1)/n*bytes for the others,
 * bytes for p2p; 0 when n <= 1 (p2p excepted). */
double comm_volume(enum comm_coll c, int n, double bytes);

/* Latency steps of the ring: 2(n-1), n-1, n-1, n-1, 1. */
double comm_steps(enum comm_coll c, int n);

/*
 * Seconds for collective c on a `bytes` buffer (per GPU, before the
 * collective) over group grp.  0 for a group of one (p2p: grp.n = 2,
 * per_node 1 means across nodes).
 */
double comm_time_s(const struct gpu *g, const struct plan *p,
		   enum comm_coll c, struct comm_group grp, double bytes);

/*
 * Bytes one GPU sends across the network (between nodes) for collective c
 * on a `bytes` buffer over grp: a ring's k GPUs on a node share its
 * crossing, so each sends the collective's volume over the N nodes on 1/k
 * of the buffer; 0 when the group stays inside a node.
 */
double comm_net_bytes(enum comm_coll c, struct comm_group grp, double bytes);

/*
 * In words, the links collective c over grp crosses, into buf: the node's
 * topology class ("nvswitch", "pcie") inside one node, else the fabric and
 * the node count ("infiniband, 4 nodes (nvswitch inside)").
 */
void comm_route(const struct gpu *g, const struct plan *p, enum comm_coll c,
		struct comm_group grp, char *buf, size_t size);

#endif
