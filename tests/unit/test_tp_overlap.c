/*
 * test_tp_overlap.c - plan.tp_comm_overlap: a layer's tensor-parallel
 * collectives charged only where they outlast its GEMMs.
 */
#include "tc_test.h"
#include "tc_warn.h"
#include "tc_llm.h"

#include "../../src/model/core/compose.h"
#include "../../src/model/families/estimate.h"
#include "../../src/model/families/llm.h"

/* One stage of one layer, one micro-batch: GEMMs 1 ms, norms 0.2 ms and
 * tensor-parallel collectives `tp` ms. */
static double step_ms(double tp, int overlap, double *tp_exposed_ms)
{
	struct op_sums S;
	struct step_parts P;
	struct estimate E;

	memset(&S, 0, sizeof(S));
	memset(&P, 0, sizeof(P));
	memset(&E, 0, sizeof(E));
	S.t[OPS_LAYER][BRK_GEMM] = 1e-3;
	S.lim[OPS_LAYER][LIM_COMPUTE] = 1e-3;
	S.t[OPS_LAYER][BRK_MEMBOUND] = 0.2e-3;
	S.lim[OPS_LAYER][LIM_MEMORY_BW] = 0.2e-3;
	S.t[OPS_LAYER][BRK_TP_COMM] = tp * 1e-3;
	S.lim[OPS_LAYER][LIM_COMMUNICATION] = tp * 1e-3;
	P.m = 1;
	P.p = 1;
	P.v = 1;
	P.lps = 1;
	P.tp_overlap = overlap;
	compose_step(&S, &P, &E);
	*tp_exposed_ms = 1e3 * E.breakdown_s[BRK_TP_COMM];
	return 1e3 * E.step_time_s;
}

/*
 * 0.3 ms of collectives under 1 ms of GEMMs: all hidden, step 1 + 0.2 =
 * 1.2 ms instead of 1.5 ms.  1.5 ms of them: 1.5 - 1 = 0.5 ms stays
 * exposed, step 1 + 0.2 + 0.5 = 1.7 ms instead of 2.7 ms.
 */
static void test_hidden_up_to_the_gemms(void **state)
{
	double tp;
	(void)state;
	assert_close(step_ms(0.3, 0, &tp), 1.5, TOL_EXACT);
	assert_close(tp, 0.3, TOL_EXACT);
	assert_close(step_ms(0.3, 1, &tp), 1.2, TOL_EXACT);
	assert_close(tp, 0, TOL_EXACT);
	assert_close(step_ms(1.5, 0, &tp), 2.7, TOL_EXACT);
	assert_close(step_ms(1.5, 1, &tp), 1.7, TOL_EXACT);
	assert_close(tp, 0.5, TOL_EXACT);
}

/* A 70B-like model at tp 8: the overlap takes time off the step and
 * nothing else; at tp 1 there is nothing to overlap, and the estimate
 * says so. */
static void test_llm_step(void **state)
{
	struct workload w, wo;
	struct gpu g;
	struct estimate e, eo;
	struct plan_problem why;
	(void)state;
	tc_test_gpu("h100-sxm", &g);
	tc_llama(&w, 80, 8192, 64, 8, 28672, 32000);
	w.train.seq_len = 4096;
	w.train.global_batch = 64;
	w.train.steps = 10;
	w.plan.count = 64;
	w.plan.tp = 8;
	w.plan.pp = 4;
	w.plan.micro_batch = 1;
	w.plan.zero = 1;
	w.plan.sequence_parallel = 1;
	w.plan.network_bytes_per_s = 50e9;
	wo = w;
	wo.plan.tp_comm_overlap = 1;
	memset(&why, 0, sizeof(why));
	if (step_estimate(&w, &g, &ws, &e, &why) ||
	    step_estimate(&wo, &g, &ws, &eo, &why))
		fail_msg("estimate failed: %s", why.msg);
	assert_true(e.breakdown_s[BRK_TP_COMM] > 0);
	assert_true(eo.breakdown_s[BRK_TP_COMM] < e.breakdown_s[BRK_TP_COMM]);
	assert_true(eo.step_time_s < e.step_time_s);
	assert_close(eo.breakdown_s[BRK_GEMM], e.breakdown_s[BRK_GEMM], TOL_EXACT);
	assert_close(eo.memory_per_gpu_bytes, e.memory_per_gpu_bytes, TOL_EXACT);

	w.plan.tp = 1;
	w.plan.sequence_parallel = 0;
	w.plan.zero = 3;
	w.plan.pp = 1;
	wo = w;
	wo.plan.tp_comm_overlap = 1;
	if (step_estimate(&w, &g, &ws, &e, &why) ||
	    step_estimate(&wo, &g, &ws, &eo, &why))
		fail_msg("estimate failed: %s", why.msg);
	assert_close(eo.step_time_s, e.step_time_s, TOL_EXACT);
	assert_true(tc_warned(&eo, "tp_comm_overlap has no effect with tp 1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hidden_up_to_the_gemms),
		cmocka_unit_test(test_llm_step),
	};
	return cmocka_run_group_tests(tests, tc_llm_setup, tc_llm_teardown);
}
