/*
 * test_fp4.c - FP4 training: GEMMs at the FP4 peak with FP8's share of it,
 * NVFP4's bytes per GEMM input, 16-bit attention, and an estimate that says
 * no measured rate backs it.
 */
#include "tc_test.h"
#include "tc_warn.h"
#include "tc_llm.h"

#include "../../src/model/families/estimate.h"
#include "../../src/model/families/llm.h"
#include "../../src/model/core/roofline.h"

/*
 * 1 TFLOP of compute-bound work (no bytes, no launch) at half of peak on
 * the test catalog's B200 (FP8 4,500 and FP4 9,000 dense TFLOP/s,
 * fp8_gemm_frac 0.98, stack_frac 1):
 * FP8: 1e12 / (4500e12 x 0.5 x 0.98) = 1 / 2205 s = 0.45351 ms;
 * FP4: 1e12 / (9000e12 x 0.5 x 0.98) = 1 / 4410 s, half of it.
 */
static void test_fp4_rate_is_fp8_share_of_its_peak(void **state)
{
	struct gpu g;
	enum op_bound b;
	(void)state;
	tc_test_gpu("b200", &g);
	assert_close(roof_peak(&g, PREC_FP4), 9000e12, TOL_EXACT);
	assert_close(roof_time(&g, PREC_FP8, 1e12, 0.5, 0, 0, 0, &b),
		     1.0 / 2205, TOL_EXACT);
	assert_close(roof_time(&g, PREC_FP4, 1e12, 0.5, 0, 0, 0, &b),
		     1.0 / 4410, TOL_EXACT);
	/* A GPU without an FP4 rate (A100) cannot train in it. */
	tc_test_a100(&g);
	assert_close(roof_peak(&g, PREC_FP4), 0, TOL_EXACT);
}

/* Llama 3.1 8B-like: 32 layers, hidden 4096, GQA, on 8 B200. */
static void llama8b(struct workload *w, enum tc_prec p)
{
	tc_llama(w, 32, 4096, 32, 8, 14336, 128256);
	w->train.seq_len = 8192;
	w->train.global_batch = 16;
	w->train.steps = 10;
	w->train.precision = p;
	w->plan.count = 8;
	w->plan.micro_batch = 2;
	w->plan.zero = 1;
	w->plan.network_bytes_per_s = 50e9;
}

/*
 * NVFP4 GEMM inputs are 4 bits plus one 1-byte scale per 16 elements:
 * 0.5 + 1/16 = 0.5625 bytes.  The FP4 step is faster than the FP8 one
 * (only the GEMMs speed up, attention stays 16-bit, so less than twice),
 * and it warns that no measured FP4 rate backs it.
 */
static void test_fp4_step(void **state)
{
	struct workload w4, w8;
	struct gpu g;
	struct estimate e4, e8;
	struct plan_problem why;
	struct llm_shape sh;
	(void)state;
	tc_test_gpu("b200", &g);
	llama8b(&w4, PREC_FP4);
	llama8b(&w8, PREC_FP8);
	memset(&why, 0, sizeof(why));
	if (step_estimate(&w4, &g, &ws, &e4, &why) ||
	    step_estimate(&w8, &g, &ws, &e8, &why))
		fail_msg("estimate failed: %s", why.msg);
	llm_shape_init(&w4, &e4.plan, &sh);
	assert_close(sh.eg, 0.5625, TOL_EXACT);
	assert_close(sh.e, 2, TOL_EXACT);
	assert_true(e4.step_time_s < e8.step_time_s);
	assert_true(e4.step_time_s > e8.step_time_s / 2);
	assert_close(e4.breakdown_s[BRK_ATTN], e8.breakdown_s[BRK_ATTN],
		     TOL_EXACT);
	assert_true(tc_warned(&e4, "no published measurement of FP4 GEMM rates"));
	assert_false(step_validated(&w4, &g));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fp4_rate_is_fp8_share_of_its_peak),
		cmocka_unit_test(test_fp4_step),
	};
	return cmocka_run_group_tests(tests, tc_llm_setup, tc_llm_teardown);
}
