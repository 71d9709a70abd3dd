/*
 * test_opkit.c - the operator kit (model/core/opkit.h): the kernel a thin
 * GEMM runs on, the roof its operators are listed under (what an estimate
 * names as its limit), and collectives timed once per group layout.  On
 * the frozen A100 SXM 80GB.
 */
#include "tc_test.h"

#include <string.h>

#include "../../src/model/core/opkit.h"

/* A kit over an empty sink of `ws` on GPU g: no CUDA graphs, no memo. */
static void kit_start(struct kit *K, struct op_sink *s, struct est_workspace *ws,
		      struct op_sums *sums, const struct gpu *g, const struct plan *pl)
{
	sink_start(s, ws, sums, 0);
	s->literal_names = 1;
	memset(K, 0, sizeof(*K));
	K->out = s;
	K->g = g;
	K->pl = pl;
}

/*
 * A classifier head of 8 images, 2048 features and 1000 classes in bf16:
 * its 8 x 1000 output fills 8 tiles of 128 x 128 on 108 SMs, and the
 * GEMV-like kernel on CUDA cores is faster (the path vision and
 * recommender layers of a few rows take).  That kernel streams the
 * weights: the operator runs in fp32 and counts against memory bandwidth.
 */
static void test_thin_gemm_is_memory_bound(void **state)
{
	struct gpu g;
	struct plan pl;
	struct est_workspace ws;
	struct op_sums sums;
	struct op_sink s;
	struct kit K;
	/* weights 2048 x 1000, input 8 x 2048, output 8 x 1000, 2 B each */
	double bytes = 2.0 * (2048 * 1000 + 8 * 2048 + 8 * 1000);
	double flop = 2.0 * 8 * 1000 * 2048;
	(void)state;
	tc_test_a100(&g);
	memset(&pl, 0, sizeof(pl));
	assert_int_equal(est_workspace_init(&ws, 8), 0);
	kit_start(&K, &s, &ws, &sums, &g, &pl);

	struct op *tiled = kit_gemm(&K, "head.tiled", BRK_GEMM, PREC_BF16, 8, 1000, 2048, 1, 1,
				    bytes, GEMM_TILED, 1);
	double tiled_s = tiled->time_s;
	kit_start(&K, &s, &ws, &sums, &g, &pl);
	struct op *o = kit_gemm(&K, "head.fwd", BRK_GEMM, PREC_BF16, 8, 1000, 2048, 1, 1, bytes,
				GEMM_OR_THIN, 1);
	double thin_s = roof_skinny_time(&g, flop, bytes, 0);
	assert_true(thin_s < tiled_s);
	assert_close(o->time_s, thin_s, TOL_EXACT);
	assert_int_equal(o->prec, PREC_FP32);
	assert_int_equal(o->bound, BOUND_MEMORY);
	/* its roof time goes to the memory limiter, none to compute */
	assert_close(sums.lim[OPS_LAYER][LIM_MEMORY_BW], o->time_s - o->launch_s, TOL_EXACT);
	assert_close(sums.lim[OPS_LAYER][LIM_COMPUTE], 0, TOL_EXACT);
	est_workspace_release(&ws);
}

/*
 * A streaming kernel is listed as memory-bound even when its FLOPs bound
 * its time: 1e12 FLOP over 1 MB is far past the ridge point, and the time
 * is the FLOPs' at elem_flop_frac of the bf16 peak.
 */
static void test_stream_is_memory_bound(void **state)
{
	struct gpu g;
	struct plan pl;
	struct est_workspace ws;
	struct op_sums sums;
	struct op_sink s;
	struct kit K;
	(void)state;
	tc_test_a100(&g);
	memset(&pl, 0, sizeof(pl));
	assert_int_equal(est_workspace_init(&ws, 8), 0);
	kit_start(&K, &s, &ws, &sums, &g, &pl);
	struct op *o = kit_stream(&K, "layer.act.fwd", BRK_MEMBOUND, PREC_BF16, 1e6, 1, 1e12, 1,
				  1);
	double compute_s = roof_time(&g, PREC_BF16, 1e12, g.eff.elem_flop_frac, 0, 0, 0, NULL);
	assert_close(o->time_s - o->launch_s, compute_s, TOL_TIGHT);
	assert_int_equal(o->bound, BOUND_MEMORY);
	assert_close(sums.lim[OPS_LAYER][LIM_MEMORY_BW], compute_s, TOL_TIGHT);
	assert_close(sums.lim[OPS_LAYER][LIM_COMPUTE], 0, TOL_EXACT);
	est_workspace_release(&ws);
}

/*
 * Collectives through a memo: an all-reduce of 1 GB over 16 GPUs, as 2
 * nodes of 8 and as 16 nodes of 1, is two timings, not one kept for both.
 * Run 4 times a step (the sink's count), their bytes between nodes add up
 * per step: 2 x 1/2 x 1e9 / 8 = 1.25e8 B a GPU for the ring of 2 nodes of
 * 8, 2 x 15/16 x 1e9 = 1.875e9 B for 16 of 1, 4 x 2e9 = 8e9 B in all.
 */
static void test_collectives_per_layout(void **state)
{
	struct gpu g;
	struct plan pl;
	struct est_workspace ws;
	struct op_sums sums;
	struct op_sink s;
	struct kit K;
	struct kit_memo memo;
	struct comm_group nodes_of_8 = { 16, 8 }, nodes_of_1 = { 16, 1 };
	(void)state;
	tc_test_a100(&g);
	memset(&pl, 0, sizeof(pl));
	pl.network_bytes_per_s = 100e9;
	pl.network_fabric = FABRIC_IB;
	assert_int_equal(est_workspace_init(&ws, 8), 0);
	kit_start(&K, &s, &ws, &sums, &g, &pl);
	kit_memo_init(&memo);
	K.memo = &memo;
	s.count = 4;
	double t8 = kit_coll(&K, "dp.allreduce", BRK_DP_COMM, PREC_BF16, COLL_ALLREDUCE,
			     nodes_of_8, 1e9);
	double t1 = kit_coll(&K, "dp.allreduce", BRK_DP_COMM, PREC_BF16, COLL_ALLREDUCE,
			     nodes_of_1, 1e9);
	assert_close(t8, comm_time_s(&g, &pl, COLL_ALLREDUCE, nodes_of_8, 1e9), TOL_EXACT);
	assert_close(t1, comm_time_s(&g, &pl, COLL_ALLREDUCE, nodes_of_1, 1e9), TOL_EXACT);
	assert_true(t1 > t8); /* one NIC a node against eight */
	assert_close(sums.net_bytes, 8e9, TOL_EXACT);
	est_workspace_release(&ws);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thin_gemm_is_memory_bound),
		cmocka_unit_test(test_stream_is_memory_bound),
		cmocka_unit_test(test_collectives_per_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
