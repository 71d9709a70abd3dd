/*
 * test_comm_exact.c - collective times worked out by hand, through the
 * public functions of src/model/comm.h only, on a GPU of round numbers:
 * NVLink 400 GB/s (200 GB/s a direction), comm_frac 0.8, comm_half_bytes
 * 1 MB, comm_latency_s 10 us; a network of 100 GB/s a GPU (50 GB/s a
 * direction) with 5 us more latency.
 *
 * Kept apart from the other model suites so that a new collective model
 * changes this one file: each expected figure below is the alpha-beta
 * formula of comm.h, t = latency x steps + volume / (link x eff(S)),
 * eff(S) = 0.8 S / (S + 1e6), written out.
 */
#include "tc_test.h"

#include "../../src/model/comm.h"

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
	p->network_latency_s = 5e-6;
}

/* Links: half the bidirectional figures; no network given: 50 GB/s. */
static void test_links(void **state)
{
	struct gpu g;
	struct plan p;
	(void)state;
	round_gpu(&g, &p);
	assert_close(comm_link_bytes_per_s(&g, &p, 0), 200e9, TOL_EXACT);
	assert_close(comm_link_bytes_per_s(&g, &p, 1), 50e9, TOL_EXACT);
	p.network_bytes_per_s = 0;
	assert_close(comm_link_bytes_per_s(&g, &p, 1), 25e9, TOL_EXACT);
	g.nvlink_bytes_per_s = 0; /* PCIe only: 64 / 2 */
	assert_close(comm_link_bytes_per_s(&g, &p, 0), 32e9, TOL_EXACT);
	/* eff(1 MB) = 0.8 x 1e6 / 2e6 = 0.4: comm_half_bytes halves it */
	assert_close(comm_eff(&g.eff, 1e6), 0.4, TOL_EXACT);
	assert_close(comm_eff(&g.eff, 1e9), 0.8 / 1.001, TOL_EXACT);
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
 * Hierarchical all-reduce of 1 GB over 2 nodes of 8:
 *   reduce-scatter in the node: 7e-5 + 0.875e9 x 1.001 / 160e9
 *                               = 0.00554421875 s
 *   all-reduce across 2 nodes on 1e9 / 8 = 1.25e8 B: 2 steps of
 *   (10 + 5) us + 1.25e8 / (50e9 x 0.8 x 1.25e8 / 1.26e8)
 *                               = 3e-5 + 0.00315 = 0.00318 s
 *   all-gather in the node:     = 0.00554421875 s
 * total 0.0142684375 s; the network carries 1.25e8 B a GPU.
 */
static void test_hierarchical(void **state)
{
	struct gpu g;
	struct plan p;
	struct comm_group grp = { 16, 8 };
	(void)state;
	round_gpu(&g, &p);
	assert_close(comm_time_s(&g, &p, COLL_ALLREDUCE, grp, 1e9),
		     0.0142684375, TOL_EXACT);
	assert_close(comm_net_bytes(COLL_ALLREDUCE, grp, 1e9), 1.25e8, TOL_EXACT);
	/* reduce-scatter: the first two steps, 0.00554421875 + the
	 * network's reduce-scatter of 1.25e8 B (1 step, 0.625e8 B):
	 * 1.5e-5 + 0.625e8 x 1.26e8 / (40e9 x 1.25e8) = 1.5e-5 + 0.001575 */
	assert_close(comm_time_s(&g, &p, COLL_REDUCE_SCATTER, grp, 1e9),
		     0.00554421875 + 1.5e-5 + 0.001575, TOL_EXACT);
	/* one GPU a node: a flat ring on the network, 16 ranks:
	 * 30 steps x 15 us + 1.875e9 x 1.001 / 40e9 */
	grp.per_node = 1;
	assert_close(comm_time_s(&g, &p, COLL_ALLREDUCE, grp, 1e9),
		     30 * 15e-6 + 1.875e9 * 1.001 / 40e9, TOL_EXACT);
}

/* Point to point, 100 MB: in a node 10 us + 1e8 / (200e9 x 0.8 / 1.01);
 * across nodes 15 us + 1e8 / (50e9 x 0.8 / 1.01). */
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
		     15e-6 + 1.01e8 / 40e9, TOL_EXACT);
	assert_close(comm_net_bytes(COLL_P2P, apart, 1e8), 1e8, TOL_EXACT);
	assert_close(comm_net_bytes(COLL_P2P, same, 1e8), 0, TOL_EXACT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_ring_in_node),
		cmocka_unit_test(test_hierarchical),
		cmocka_unit_test(test_p2p),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
