/*
 * comm.c - the collective operator (comm.h): measured bus bandwidth by
 * topology class and fabric, message size and node count.
 */
#include "comm.h"
#include "../types/network.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>

#include "../../util/intmath.h"

struct comm_group comm_group_of(int n, int node_ranks)
{
	struct comm_group grp;
	grp.n = n;
	grp.per_node = (int)tc_gcd(n, n < node_ranks ? n : node_ranks);
	return grp;
}

double comm_volume(enum comm_coll c, int n, double bytes)
{
	if (c == COLL_P2P)
		return bytes;
	if (n <= 1)
		return 0;
	if (c == COLL_ALLREDUCE)
		return 2.0 * (n - 1) / n * bytes;
	return (double)(n - 1) / n * bytes;
}

double comm_steps(enum comm_coll c, int n)
{
	if (c == COLL_P2P)
		return 1;
	if (n <= 1)
		return 0;
	return c == COLL_ALLREDUCE ? 2.0 * (n - 1) : (double)(n - 1);
}

/* Members of the group on one node, within 1..n. */
static int group_per_node(struct comm_group grp)
{
	int k = grp.per_node < 1 ? 1 : grp.per_node;
	return k > grp.n ? grp.n : k;
}

/* Bus bandwidth (bytes/s) of a ring of k GPUs inside one node for
 * collective c on an S-byte buffer: the topology's plateau times the
 * message-size efficiency. */
static double node_busbw(const struct gpu *g, enum comm_coll c, int k, double S)
{
	const struct roof_eff *e = &g->eff;
	enum node_topology t = gpu_topology(g);
	double frac = e->comm_frac > 0 ? e->comm_frac : 1.0;
	double half = e->comm_half_bytes > 0 ? e->comm_half_bytes : 0;
	double plateau = topo_ring_busbw(t, g->nvlink_bytes_per_s, g->pcie_bytes_per_s, frac,
					 g->nvls_gain, k, c == COLL_ALLREDUCE);
	if (c == COLL_ALLTOALL)
		plateau = topo_alltoall_busbw(t, plateau, g->pcie_bytes_per_s, k);
	if (!(plateau > 0))
		plateau = 1e9; /* no link figure: 1 GB/s, never reached with valid data */
	return plateau * S / (S + half);
}

/* One direction of one GPU's share of the node's NICs, bytes/s. */
static double nic_bytes_per_s(const struct plan *p)
{
	double net = p->network_bytes_per_s > 0 ? net_gpu_bytes_per_s(p) :
						  COMM_DEFAULT_NETWORK_BYTES_PER_S;
	return net / 2;
}

/* Bus bandwidth (bytes/s) of `nics` GPUs' NICs of one node for a
 * collective over `nodes` nodes on an S-byte buffer. */
static double net_busbw(const struct plan *p, int nics, int nodes, double S)
{
	const struct fabric_def *f = fabric_get(p->network_fabric);
	return nics * nic_bytes_per_s(p) * f->busbw_frac * S / (S + net_half_bytes(nodes));
}

/* Seconds of a transfer between two GPUs: NVLink or PCIe inside a node,
 * one NIC plus the fabric's floor across nodes. */
static double p2p_s(const struct gpu *g, const struct plan *p, int same_node, double bytes)
{
	const struct roof_eff *e = &g->eff;
	if (same_node)
		return (e->comm_latency_s > 0 ? e->comm_latency_s : 0) +
		       bytes / node_busbw(g, COLL_P2P, 2, bytes);
	return fabric_get(p->network_fabric)->floor_s +
	       bytes / (nic_bytes_per_s(p) * fabric_get(p->network_fabric)->busbw_frac);
}

double comm_time_s(const struct gpu *g, const struct plan *p,
		   enum comm_coll c, struct comm_group grp, double bytes)
{
	const struct roof_eff *e = &g->eff;
	const struct fabric_def *f;
	double vol, lat, bw;
	int k, nodes;

	if (!(bytes > 0))
		return 0;
	if (c == COLL_P2P) /* n = 2; per_node 2 = same node */
		return p2p_s(g, p, grp.per_node >= 2, bytes);
	if (grp.n <= 1)
		return 0;
	k = group_per_node(grp);
	nodes = grp.n / k;
	vol = comm_volume(c, grp.n, bytes);
	if (nodes <= 1)
		return (e->comm_latency_s > 0 ? e->comm_latency_s : 0) * comm_steps(c, grp.n) +
		       vol / node_busbw(g, c, k, bytes);

	f = fabric_get(p->network_fabric);
	/* An all-to-all posts every send at once: one floor, and no ring
	 * pipeline whose depth needs large messages (the all-reduce curve
	 * does not apply); one NIC a GPU. */
	if (c == COLL_ALLTOALL)
		return f->floor_s + vol / (nic_bytes_per_s(p) * f->busbw_frac);
	lat = net_latency_s(f->floor_s, nodes);
	/* One ring through every GPU: the NICs or the node's own ring,
	 * whichever is slower, carry the whole volume. */
	bw = net_busbw(p, k, nodes, bytes);
	if (k > 1)
		bw = fmin(bw, node_busbw(g, c, k, bytes));
	assert(bw > 0);
	return lat + vol / bw;
}

void comm_route(const struct gpu *g, const struct plan *p, enum comm_coll c,
		struct comm_group grp, char *buf, size_t size)
{
	int k = c == COLL_P2P ? (grp.per_node >= 2 ? 2 : 1) : group_per_node(grp);
	int nodes = c == COLL_P2P ? (k >= 2 ? 1 : 2) : grp.n / k;
	const char *inside = topo_names[gpu_topology(g)];

	if (nodes <= 1)
		snprintf(buf, size, "%s", inside);
	else if (k > 1)
		snprintf(buf, size, "%s, %d nodes (%s inside)",
			 fabric_names[p->network_fabric], nodes, inside);
	else
		snprintf(buf, size, "%s, %d nodes", fabric_names[p->network_fabric], nodes);
}

double comm_net_bytes(enum comm_coll c, struct comm_group grp, double bytes)
{
	int k, nodes;

	if (!(bytes > 0))
		return 0;
	if (c == COLL_P2P)
		return grp.per_node >= 2 ? 0 : bytes;
	if (grp.n <= 1)
		return 0;
	k = group_per_node(grp);
	nodes = grp.n / k;
	if (nodes <= 1)
		return 0;
	if (k == 1)
		return comm_volume(c, grp.n, bytes);
	/* The node's k GPUs share its crossings; an all-to-all sends
	 * (n-k)/n of the buffer out. */
	if (c == COLL_ALLTOALL)
		return bytes * (grp.n - k) / grp.n;
	return comm_volume(c, nodes, bytes / k);
}
