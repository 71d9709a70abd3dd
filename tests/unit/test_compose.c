/*
 * test_compose.c - what compose_step() and compose_finish() add around the
 * stages' times: the input pipeline, which holds the step up from the
 * hosts only when it is slower and adds its time on the GPUs, and the
 * warning of a hardware-FLOP utilisation no measured run sustains.
 */
#include "tc_test.h"
#include "tc_warn.h"

#include "../../src/model/core/compose.h"
#include "../../src/model/core/roofline.h"

/* One layer of one micro-batch and nothing overlapped: GEMMs 1 ms (the
 * compute limit), norms 0.2 ms, tensor-parallel collectives 0.3 ms and a
 * gradient reduction of 0.5 ms (0.8 ms of communication): 2 ms.  The
 * input pipeline takes loader_s for the step's samples, on the GPUs or
 * on the hosts. */
static void compose_loaded(double loader_s, int on_gpu, struct estimate *E)
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
	S.t[OPS_STEP][BRK_DP_COMM] = 0.5e-3;
	S.lim[OPS_STEP][LIM_COMMUNICATION] = 0.5e-3;
	P.m = P.p = P.v = 1;
	P.lps = 1;
	P.loader_s = loader_s;
	P.loader_on_gpu = on_gpu;
	P.loader_images_per_s = 5000;
	compose_step(&S, &P, E);
}

/*
 * On the hosts a loader of 3 ms holds the 2 ms step up by 1 ms and is its
 * limit; one of 1.5 ms keeps up and costs nothing.  On the GPUs 0.1 ms
 * adds 0.1 ms, but the step is still limited by its 1 ms of compute.
 */
static void test_input_pipeline(void **state)
{
	struct estimate E;
	(void)state;
	compose_loaded(0, 0, &E);
	assert_close(E.step_time_s, 2e-3, TOL_TIGHT);
	assert_int_equal(E.limiting, LIM_COMPUTE);

	compose_loaded(3e-3, 0, &E);
	assert_close(E.input_wait_s, 1e-3, TOL_TIGHT);
	assert_close(E.step_time_s, 3e-3, TOL_TIGHT);
	assert_int_equal(E.limiting, LIM_DATA_LOADER);
	assert_true(tc_warned(&E, "the data loader (5000 images/s per node) cannot keep up: "
			       "1.0 ms per step"));

	compose_loaded(1.5e-3, 0, &E);
	assert_close(E.input_wait_s, 0, TOL_EXACT);
	assert_close(E.step_time_s, 2e-3, TOL_TIGHT);
	assert_int_equal(E.limiting, LIM_COMPUTE);
	assert_int_equal(E.warning_count, 0);

	compose_loaded(0.1e-3, 1, &E);
	assert_close(E.input_wait_s, 0.1e-3, TOL_TIGHT);
	assert_close(E.step_time_s, 2.1e-3, TOL_TIGHT);
	assert_int_equal(E.limiting, LIM_COMPUTE);
	assert_true(tc_warned(&E, "the data loader (5000 images/s per node) runs on the GPUs: "
			       "0.1 ms per step"));
}

/*
 * HFU above 75 % of the dense peak is more than any measured run
 * sustains: 8 GPUs doing 0.8 x 8 x peak FLOPs in a 1 s step are at 80 %,
 * a warning; at 0.7 x 8 x peak, 70 %, none.
 */
static void test_hfu_warning(void **state)
{
	struct gpu g;
	struct estimate E;
	struct est_workspace ws;
	struct plan_problem why;
	(void)state;
	tc_test_a100(&g);
	double peak = roof_peak(&g, PREC_BF16);
	assert_int_equal(est_workspace_init(&ws, 4), 0);
	memset(&E, 0, sizeof(E));
	E.plan.count = E.plan.gpus_per_node = 8;
	E.steps = 1;
	E.step_time_s = 1;
	E.samples_per_step = 8;
	E.model_flop_per_step = E.hw_flop_per_step = 0.8 * 8 * peak;
	assert_int_equal(compose_finish(&E, &g, PREC_BF16, 0, &ws, &why), 0);
	assert_close(E.hfu_frac, 0.8, TOL_TIGHT);
	assert_true(tc_warned(&E, "80 % of the dense peak in hardware FLOPs (HFU)"));

	E.warning_count = 0;
	E.model_flop_per_step = E.hw_flop_per_step = 0.7 * 8 * peak;
	assert_int_equal(compose_finish(&E, &g, PREC_BF16, 0, &ws, &why), 0);
	assert_close(E.hfu_frac, 0.7, TOL_TIGHT);
	assert_int_equal(E.warning_count, 0);
	est_workspace_release(&ws);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_input_pipeline),
		cmocka_unit_test(test_hfu_warning),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
