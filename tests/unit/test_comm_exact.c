/*
 * test_comm_exact.c - collective times worked out by hand, through the
 * public functions of src/model/core/comm.h only, on a GPU of round numbers:
 * NVLink 400 GB/s on a switch (200 GB/s a direction), comm_frac 0.8,
 * comm_half_bytes 1 MB, comm_latency_s 10 us; a network of 100 GB/s a GPU
 * (50 GB/s a direction) of InfiniBand (0.90 of the line rate, a 46 us
 * floor, h(N) = 50 MB x (N / 4)^0.24: src/model/types/topology.c).
 *
 * Kept apart from the other model suites so that a new collective model
 * changes this one file: inside a node t = latency x steps + volume /
 * (160e9 x S / (S + 1e6)); across nodes t = 46 us x log2(N) + volume /
 * min(node ring, k x 50e9 x 0.90 x S / (S + h(N))).
 */
#include "tc_test.h"

#include <math.h>

#include "../../src/model/core/comm.h"

static void round_gpu(struct gpu *g, struct plan *p)
{
	memset(g, 0, sizeof(*g));
	g->nvlink_bytes_per_s = 400e9;
	g->pcie_bytes_per_s = 64e9;
	g->eff.comm_frac = 0.8;
	g->eff.comm_half_bytes = 1e6;
	g->eff.comm_latency_s = 10e-6;
	memset(p, 0, sizeof(*p));
	p->network_bytes_per_s = 100e9;
	p->network_fabric = FABRIC_IB;
}

/*
 * Ring all-reduce of 1 GB over 8 GPUs of one node: 2 x 7 / 8 x 1e9 =
 * 1.75e9 B in 14 steps: 14 x 10 us + 1.75e9 / (200e9 x 0.8 / 1.001)
 * = 0.00014 + 0.0109484375 = 0.0110884375 s.
 * Reduce-scatter: 0.875e9 B in 7 steps: 7e-5 + 0.00547421875 s.
 */
static void test_ring_in_node(void **state)
{
	struct gpu g;
	struct plan p;
	struct comm_group grp = { 8, 8 };
	(void)state;
	round_gpu(&g, &p);
	assert_close(comm_time_s(&g, &p, COLL_ALLREDUCE, grp, 1e9),
		     0.0110884375, TOL_EXACT);
	assert_close(comm_time_s(&g, &p, COLL_REDUCE_SCATTER, grp, 1e9),
		     7e-5 + 0.00547421875, TOL_EXACT);
	assert_close(comm_time_s(&g, &p, COLL_ALLGATHER, grp, 1e9),
		     7e-5 + 0.00547421875, TOL_EXACT);
	/* latency alone: 1 byte, 14 x 10 us + 1.75 B / (200e9 x 0.8 /
	 * (1 + 1e6)) */
	assert_close(comm_time_s(&g, &p, COLL_ALLREDUCE, grp, 1),
		     14e-5 + 1.75 * (1 + 1e6) / 160e9, TOL_EXACT);
	/* nothing to move, or nobody to move it to */
	assert_close(comm_time_s(&g, &p, COLL_ALLREDUCE, grp, 0), 0, TOL_EXACT);
	grp.n = grp.per_node = 1;
	assert_close(comm_time_s(&g, &p, COLL_ALLREDUCE, grp, 1e9), 0, TOL_EXACT);
}

/*
 * All-reduce of 1 GB over 2 nodes of 8, one ring through the 16 GPUs:
 * 2 x 15/16 x 1e9 = 1.875e9 B at the slower of the node's ring, 160e9 x
 * 1e9 / (1e9 + 1e6) = 159.84016e9 B/s, and its 8 NICs, 8 x 50e9 x 0.90 x
 * 1e9 / (1e9 + h(2)) = 345.38e9 B/s (h(2) = 50e6 x 0.5^0.24 = 42.337e6 B):
 * 46e-6 x log2(2) + 1.875e9 / 159.84016e9 = 0.01177646875 s; the network
 * carries 2 x 1/2 x 1e9 / 8 = 1.25e8 B a GPU.  Reduce-scatter: 0.9375e9 B,
 * 0.005911234375 s.
 */
static void test_across_nodes(void **state)
{
	struct gpu g;
	struct plan p;
	struct comm_group grp = { 16, 8 };
	(void)state;
	round_gpu(&g, &p);
	assert_close(comm_time_s(&g, &p, COLL_ALLREDUCE, grp, 1e9), 0.01177646875, TOL_TIGHT);
	assert_close(comm_net_bytes(COLL_ALLREDUCE, grp, 1e9), 1.25e8, TOL_EXACT);
	assert_close(comm_time_s(&g, &p, COLL_REDUCE_SCATTER, grp, 1e9), 0.005911234375,
		     TOL_TIGHT);
	/* An all-to-all sends each peer its 1/16 of the buffer: the 8 peers
	 * on the other node get 8/16 x 1e9 = 5e8 B across the network, the 7
	 * on this node none of it. */
	assert_close(comm_net_bytes(COLL_ALLTOALL, grp, 1e9), 5e8, TOL_EXACT);
	/* One GPU a node (16 nodes): one NIC, 50e9 x 0.90 x 1e9 / (1e9 +
	 * h(16)) = 42.0664e9 B/s, h(16) = 50e6 x 4^0.24 = 69.737e6 B; the
	 * floor over a tree of 16 nodes 46 us x 4 = 184 us: 184e-6 +
	 * 1.875e9 / 42.0664e9 = 0.0447564 s. */
	grp.per_node = 1;
	assert_close(comm_time_s(&g, &p, COLL_ALLREDUCE, grp, 1e9), 0.04475638264, 1e-9);
	/* no network given: 50 GB/s both ways, 25e9 a direction: half the
	 * bandwidth term, 184e-6 + 1.875e9 / 21.0332e9 */
	p.network_bytes_per_s = 0;
	assert_close(comm_time_s(&g, &p, COLL_ALLREDUCE, grp, 1e9),
		     184e-6 + 1.875e9 / (25e9 * 0.90 * 1e9 / (1e9 + 50e6 * pow(4, 0.24))),
		     TOL_TIGHT);
}

/* Point to point, 100 MB: in a node 10 us + 1e8 / (200e9 x 0.8 / 1.01);
 * across nodes one NIC at the fabric's share and its floor, 46 us + 1e8 /
 * (50e9 x 0.90) = 0.00226822 s (no size curve: no ring to fill). */
static void test_p2p(void **state)
{
	struct gpu g;
	struct plan p;
	struct comm_group same = { 2, 2 }, apart = { 2, 1 };
	(void)state;
	round_gpu(&g, &p);
	assert_close(comm_time_s(&g, &p, COLL_P2P, same, 1e8),
		     10e-6 + 1.01e8 / 160e9, TOL_EXACT);
	assert_close(comm_time_s(&g, &p, COLL_P2P, apart, 1e8),
		     46e-6 + 1e8 / 45e9, TOL_EXACT);
	assert_close(comm_net_bytes(COLL_P2P, apart, 1e8), 1e8, TOL_EXACT);
	assert_close(comm_net_bytes(COLL_P2P, same, 1e8), 0, TOL_EXACT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_in_node),
		cmocka_unit_test(test_across_nodes),
		cmocka_unit_test(test_p2p),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
