/*
 * test_overlap.c - overlap that is bounded: what communication hides under
 * compute slows that compute (eff.overlap_slow_frac), and a stack that does
 * not overlap (grad_overlap false) exposes everything, ZeRO-3 included.
 */
#include "tc_test.h"
#include "tc_llm.h"

#include "../../src/model/core/compose.h"
#include "../../src/model/families/estimate.h"
#include "../../src/model/families/llm.h"

/* W seconds hidden at a clock loss f cost W f / (1 - f): 1 s at 0.2 is
 * 0.25 s; nothing without a loss or without a window. */
static void test_overlap_cost(void **state)
{
	(void)state;
	assert_close(overlap_cost_s(1.0, 0.20), 0.25, TOL_EXACT);
	assert_close(overlap_cost_s(2e-3, 0.5), 2e-3, TOL_EXACT);
	assert_close(overlap_cost_s(1.0, 0), 0, TOL_EXACT);
	assert_close(overlap_cost_s(0, 0.2), 0, TOL_EXACT);
}

/* One layer of one micro-batch: GEMMs 1 ms, norms 0.2 ms, backward 1 ms
 * (bwd_s), tensor-parallel collectives 0.3 ms, a gradient reduction of
 * 0.5 ms once per step. */
static void compose(int tp_overlap, int dp_overlap, double slow, struct estimate *E)
{
	struct op_sums S;
	struct step_parts P;

	memset(&S, 0, sizeof(S));
	memset(&P, 0, sizeof(P));
	memset(E, 0, sizeof(*E));
	S.t[OPS_LAYER][BRK_GEMM] = 1e-3;
	S.lim[OPS_LAYER][LIM_COMPUTE] = 1e-3;
	S.t[OPS_LAYER][BRK_MEMBOUND] = 0.2e-3;
	S.t[OPS_LAYER][BRK_TP_COMM] = 0.3e-3;
	S.lim[OPS_LAYER][LIM_COMMUNICATION] = 0.3e-3;
	S.bwd_s = 1e-3;
	S.t[OPS_STEP][BRK_DP_COMM] = 0.5e-3;
	S.lim[OPS_STEP][LIM_COMMUNICATION] = 0.5e-3;
	P.m = P.p = P.v = 1;
	P.lps = 1;
	P.tp_overlap = tp_overlap;
	P.dp_overlap = dp_overlap;
	P.overlap_slow_frac = slow;
	compose_step(&S, &P, E);
}

/*
 * No overlap: 1 + 0.2 + 0.3 + 0.5 = 2.0 ms.  Both overlapped with no clock
 * loss: 1.2 ms.  At 0.2: the hidden 0.3 ms of TP costs 0.3 x 0.25 = 0.075
 * ms, the hidden 0.5 ms of DP 0.125 ms: 1.2 + 0.075 + 0.125 = 1.4 ms.
 */
static void test_hidden_slows_compute(void **state)
{
	struct estimate E;
	(void)state;
	compose(0, 0, 0.2, &E);
	assert_close(E.step_time_s, 2.0e-3, TOL_TIGHT);
	compose(1, 1, 0, &E);
	assert_close(E.step_time_s, 1.2e-3, TOL_TIGHT);
	compose(1, 1, 0.2, &E);
	assert_close(E.step_time_s, 1.4e-3, TOL_TIGHT);
	assert_close(E.breakdown_s[BRK_TP_COMM], 0.075e-3, TOL_TIGHT);
	assert_close(E.breakdown_s[BRK_DP_COMM], 0.125e-3, TOL_TIGHT);
}

/* ZeRO-3 on 16 GPUs over two nodes: with grad_overlap false the per-layer
 * gathers and scatters are all exposed, so the step grows by exactly the
 * extra exposed data-parallel time, and nothing else moves. */
static void test_zero3_honours_grad_overlap(void **state)
{
	struct workload w, wn;
	struct gpu g;
	struct estimate e, en;
	struct plan_problem why;
	(void)state;
	tc_test_gpu("a100-80gb-sxm", &g);
	tc_llama(&w, 32, 4096, 32, 32, 11008, 32000);
	w.train.seq_len = 4096;
	w.train.global_batch = 32;
	w.train.steps = 10;
	w.plan.count = 16;
	w.plan.micro_batch = 2;
	w.plan.zero = 3;
	w.plan.grad_overlap = 1;
	w.plan.network_bytes_per_s = 50e9;
	wn = w;
	wn.plan.grad_overlap = 0;
	memset(&why, 0, sizeof(why));
	if (step_estimate(&w, &g, &ws, &e, &why) || step_estimate(&wn, &g, &ws, &en, &why))
		fail_msg("estimate failed: %s", why.msg);
	assert_true(en.breakdown_s[BRK_DP_COMM] > e.breakdown_s[BRK_DP_COMM]);
	assert_close(en.step_time_s - e.step_time_s,
		     en.breakdown_s[BRK_DP_COMM] - e.breakdown_s[BRK_DP_COMM], 1e-9);
	assert_close(en.breakdown_s[BRK_GEMM], e.breakdown_s[BRK_GEMM], TOL_EXACT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overlap_cost),
		cmocka_unit_test(test_hidden_slows_compute),
		cmocka_unit_test(test_zero3_honours_grad_overlap),
	};
	return cmocka_run_group_tests(tests, tc_llm_setup, tc_llm_teardown);
}
