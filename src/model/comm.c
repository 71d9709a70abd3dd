/*
 * comm.c - alpha-beta collectives with a message-size efficiency.
 */
#include "comm.h"

#include <assert.h>
#include <math.h>

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

double comm_link_bytes_per_s(const struct gpu *g, const struct plan *p,
			     int inter_node)
{
	if (inter_node) {
		double net = p->network_bytes_per_s > 0 ?
			p->network_bytes_per_s : COMM_DEFAULT_NETWORK_BYTES_PER_S;
		/* A node's NICs cannot beat its own host link either. */
		return net / 2;
	}
	if (g->nvlink_bytes_per_s > 0)
		return g->nvlink_bytes_per_s / 2;
	if (g->pcie_bytes_per_s > 0)
		return g->pcie_bytes_per_s / 2;
	return 1e9; /* no link figure: 1 GB/s, never reached with valid data */
}

double comm_eff(const struct roof_eff *e, double msg_bytes)
{
	double frac = e->comm_frac > 0 ? e->comm_frac : 1.0;
	double half = e->comm_half_bytes > 0 ? e->comm_half_bytes : 0;
	if (!(msg_bytes > 0))
		return frac;
	return frac * msg_bytes / (msg_bytes + half);
}

double comm_flat_s(const struct roof_eff *e, double link_bytes_per_s,
		   double extra_latency_s, enum comm_coll c, int n,
		   double bytes)
{
	double vol = comm_volume(c, n, bytes);
	double steps = comm_steps(c, n);
	double alpha = (e->comm_latency_s > 0 ? e->comm_latency_s : 0) +
		       (extra_latency_s > 0 ? extra_latency_s : 0);

	if (!(bytes > 0) || (c != COLL_P2P && n <= 1))
		return 0;
	assert(link_bytes_per_s > 0);
	return alpha * steps + vol / (link_bytes_per_s * comm_eff(e, bytes));
}

/* Members of the group on one node, within 1..n. */
static int group_per_node(struct comm_group grp)
{
	int k = grp.per_node < 1 ? 1 : grp.per_node;
	return k > grp.n ? grp.n : k;
}

double comm_time_s(const struct gpu *g, const struct plan *p,
		   enum comm_coll c, struct comm_group grp, double bytes)
{
	const struct roof_eff *e = &g->eff;
	double intra = comm_link_bytes_per_s(g, p, 0);
	double inter = comm_link_bytes_per_s(g, p, 1);
	double lat = p->network_latency_s;
	int k, nodes;

	if (!(bytes > 0))
		return 0;
	if (c == COLL_P2P) /* n = 2; per_node 2 = same node */
		return grp.per_node >= 2 ?
			comm_flat_s(e, intra, 0, c, 2, bytes) :
			comm_flat_s(e, inter, lat, c, 2, bytes);
	if (grp.n <= 1)
		return 0;
	k = group_per_node(grp);
	nodes = grp.n / k;
	if (nodes <= 1)
		return comm_flat_s(e, intra, 0, c, grp.n, bytes);
	if (k == 1)
		return comm_flat_s(e, inter, lat, c, grp.n, bytes);

	switch (c) {
	case COLL_ALLREDUCE:
		return comm_flat_s(e, intra, 0, COLL_REDUCE_SCATTER, k, bytes) +
		       comm_flat_s(e, inter, lat, COLL_ALLREDUCE, nodes,
				   bytes / k) +
		       comm_flat_s(e, intra, 0, COLL_ALLGATHER, k, bytes);
	case COLL_REDUCE_SCATTER:
		return comm_flat_s(e, intra, 0, COLL_REDUCE_SCATTER, k, bytes) +
		       comm_flat_s(e, inter, lat, COLL_REDUCE_SCATTER, nodes,
				   bytes / k);
	case COLL_ALLGATHER:
		return comm_flat_s(e, inter, lat, COLL_ALLGATHER, nodes,
				   bytes / k) +
		       comm_flat_s(e, intra, 0, COLL_ALLGATHER, k, bytes);
	case COLL_ALLTOALL: {
		/* (n-k)/n of the buffer leaves the node, (k-1)/n stays. */
		double alpha = (e->comm_latency_s > 0 ? e->comm_latency_s : 0) +
			       (lat > 0 ? lat : 0);
		double out = bytes * (grp.n - k) / grp.n;
		double in = bytes * (k - 1) / grp.n;
		return alpha * (grp.n - 1) +
		       out / (inter * comm_eff(e, bytes)) +
		       in / (intra * comm_eff(e, bytes));
	}
	case COLL_P2P:
		break;
	}
	return 0;
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
	/* As comm_time_s: the inter-node step of a hierarchical collective
	 * carries 1/k of the buffer; all-to-all sends (n-k)/n out. */
	if (c == COLL_ALLTOALL)
		return bytes * (grp.n - k) / grp.n;
	return comm_volume(c, nodes, bytes / k);
}
