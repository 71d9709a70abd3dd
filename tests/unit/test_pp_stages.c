/*
 * test_pp_stages.c - uneven pipeline stages (plan.first_stage_layers and
 * last_stage_layers): the composed step by hand, the memory of the stage
 * that holds the most, and the layouts the model refuses.
 */
#include "tc_test.h"
#include "tc_llm.h"

#include "../../src/model/core/compose.h"
#include "../../src/model/families/estimate.h"
#include "../../src/model/families/llm.h"
#include "../../src/model/families/memory.h"

/*
 * Four stages of 7, 9, 9 and 7 layers; a layer takes 1 ms of GEMM, the
 * first stage's own operators (embedding) 0.5 ms and the last's (head and
 * loss) 1.5 ms; no transfers; 8 micro-batches under 1F1B.
 * Stage times: first 7 + 0.5 = 7.5 ms, middle 9 ms, last 7 + 1.5 = 8.5 ms,
 * so a middle stage is the slowest: t_max = 9 ms.  Sum over the stages:
 * (7 + 9 + 9 + 7) x 1 + 0.5 + 1.5 = 34 ms; the 1F1B bubble is the fill,
 * 34 - 9 = 25 ms.  Step: 8 x 9 + 25 = 97 ms, of which GEMM 8 x 9 = 72 ms
 * (the middle stage runs neither embedding nor head).
 */
static void test_middle_stage_sets_the_pace(void **state)
{
	struct op_sums S;
	struct step_parts P;
	struct estimate E;
	(void)state;
	memset(&S, 0, sizeof(S));
	memset(&P, 0, sizeof(P));
	memset(&E, 0, sizeof(E));
	S.t[OPS_LAYER][BRK_GEMM] = 1e-3;
	S.lim[OPS_LAYER][LIM_COMPUTE] = 1e-3;
	S.t[OPS_FIRST][BRK_GEMM] = 0.5e-3;
	S.lim[OPS_FIRST][LIM_COMPUTE] = 0.5e-3;
	S.t[OPS_LAST][BRK_GEMM] = 1.5e-3;
	S.lim[OPS_LAST][LIM_COMPUTE] = 1.5e-3;
	P.m = 8;
	P.p = 4;
	P.v = 1;
	P.lps = 9;
	P.lps_first = 7;
	P.lps_last = 7;
	P.schedule = SCHED_1F1B;
	compose_step(&S, &P, &E);
	assert_close(E.breakdown_s[BRK_GEMM], 72e-3, TOL_EXACT);
	assert_close(E.breakdown_s[BRK_BUBBLE], 25e-3, TOL_EXACT);
	assert_close(E.step_time_s, 97e-3, TOL_EXACT);

	/* With 8 layers everywhere the last stage is the slowest:
	 * 8 + 1.5 = 9.5 ms on the last; sum 32 + 2 = 34 ms, bubble 24.5 ms,
	 * step 8 x 9.5 + 24.5 = 100.5 ms. */
	P.lps = P.lps_first = P.lps_last = 8;
	memset(&E, 0, sizeof(E));
	compose_step(&S, &P, &E);
	assert_close(E.step_time_s, 100.5e-3, TOL_EXACT);
}

/*
 * The first stage the slowest, with transfers, under ZB-H1.  Four stages
 * of 8 layers; a layer takes 1 ms of GEMM, of which 0.25 ms computes
 * weight gradients; the first stage's own operators 2 ms (0.5 ms of them
 * weight gradients), the last's 0.5 ms; each stage sends its activations
 * on in 0.25 ms; 8 micro-batches.
 * Stage times: first 8 + 2 + 0.25 = 10.25 ms, middle 8 + 0.25 = 8.25 ms,
 * last 8 + 0.5 + 0.25 = 8.75 ms: t_max = 10.25 ms, on the first stage.
 * Sum over the stages: 32 x 1 + 4 x 0.25 + 2 + 0.5 = 35.5 ms, the fill
 * 35.5 - 10.25 = 25.25 ms.  The first stage's W: 8 x 0.25 + 0.5 = 2.5 ms;
 * the bubble 25.25 - 3 x 2.5 - min(7, 3) x 2.5 = 10.25 ms.  Step: GEMM 8 x
 * (8 + 2) = 80 ms, transfers 8 x 0.25 = 2 ms, bubble 10.25 ms: 92.25 ms.
 */
static void test_first_stage_sets_the_pace(void **state)
{
	struct op_sums S;
	struct step_parts P;
	struct estimate E;
	(void)state;
	memset(&S, 0, sizeof(S));
	memset(&P, 0, sizeof(P));
	memset(&E, 0, sizeof(E));
	S.t[OPS_LAYER][BRK_GEMM] = 1e-3;
	S.lim[OPS_LAYER][LIM_COMPUTE] = 1e-3;
	S.wgrad_s[OPS_LAYER] = 0.25e-3;
	S.t[OPS_FIRST][BRK_GEMM] = 2e-3;
	S.lim[OPS_FIRST][LIM_COMPUTE] = 2e-3;
	S.wgrad_s[OPS_FIRST] = 0.5e-3;
	S.t[OPS_LAST][BRK_GEMM] = 0.5e-3;
	S.lim[OPS_LAST][LIM_COMPUTE] = 0.5e-3;
	S.p2p_s = 0.25e-3;
	P.m = 8;
	P.p = 4;
	P.v = 1;
	P.lps = 8;
	P.schedule = SCHED_ZERO_BUBBLE;
	compose_step(&S, &P, &E);
	assert_close(E.breakdown_s[BRK_GEMM], 80e-3, TOL_EXACT);
	assert_close(E.breakdown_s[BRK_PP_COMM], 2e-3, TOL_EXACT);
	assert_close(E.breakdown_s[BRK_BUBBLE], 10.25e-3, TOL_EXACT);
	assert_close(E.step_time_s, 92.25e-3, TOL_EXACT);
}

/* A small Llama-style model of 32 layers on 8 GPUs, pp 4. */
static void llama32(struct workload *w)
{
	tc_llama(w, 32, 1024, 16, 4, 2816, 32000);
	w->train.seq_len = 2048;
	w->train.global_batch = 32;
	w->train.steps = 10;
	w->plan.count = 8;
	w->plan.pp = 4;
	w->plan.micro_batch = 1;
	w->plan.zero = 1;
	w->plan.network_bytes_per_s = 50e9;
}

/* Stage counts that are the even split (8 of 32 over 4) change nothing;
 * either one alone leaves the rest evenly to the others. */
static void test_even_counts_are_the_even_split(void **state)
{
	struct workload w, w2;
	struct gpu g;
	struct estimate e, e2;
	(void)state;
	tc_test_a100(&g);
	llama32(&w);
	tc_estimate_ok(&w, &g, &e);
	w2 = w;
	w2.plan.first_stage_layers = 8;
	w2.plan.last_stage_layers = 8;
	tc_estimate_ok(&w2, &g, &e2);
	assert_close(e2.step_time_s, e.step_time_s, TOL_EXACT);
	assert_close(e2.memory_per_gpu_bytes, e.memory_per_gpu_bytes,
		     TOL_EXACT);
	w2.plan.last_stage_layers = 0;
	tc_estimate_ok(&w2, &g, &e2);
	assert_close(e2.step_time_s, e.step_time_s, TOL_EXACT);
	assert_int_equal(e2.plan.last_stage_layers, 8);
}

/*
 * 2 layers on the first and last stage leave 28 to the two middle ones,
 * 14 each.  Under 1F1B with 16 micro-batches the second stage holds
 * min(p - 1, m) = 3 micro-batches of 14 layers, the first 4 of 2: the
 * second stage's activations are the most, 14 x 3 layer-micro-batches
 * plus the 3 inputs it received (T x h x 2 bytes each).  More layers on
 * the busiest stage: the step is slower than the even split.
 */
static void test_busiest_stage_holds_the_memory(void **state)
{
	struct workload w, we;
	struct gpu g;
	struct estimate e, ee;
	struct llm_shape sh;
	double T = 1 * 2048.0, act;
	(void)state;
	tc_test_a100(&g);
	llama32(&we);
	w = we;
	w.plan.first_stage_layers = 2;
	w.plan.last_stage_layers = 2;
	tc_estimate_ok(&w, &g, &e);
	tc_estimate_ok(&we, &g, &ee);
	llm_shape_init(&w, &e.plan, &sh);
	assert_close(sh.lps, 14, TOL_EXACT);
	act = 14 * 3 * mem_layer_activation_bytes(&sh, RECOMP_NONE) +
	      3 * T * 1024 * 2;
	assert_close(e.mem_bytes[MEM_ACTIVATIONS], act, TOL_EXACT);
	assert_true(e.step_time_s > ee.step_time_s);
}

/* The fewest layers a middle stage may hold is one: 15 + 1 + 1 + 15 =
 * 32 layers over pp 4 is a layout the model accepts. */
static void test_one_layer_middle_stages(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct llm_shape sh;
	(void)state;
	tc_test_a100(&g);
	llama32(&w);
	w.plan.first_stage_layers = 15;
	w.plan.last_stage_layers = 15;
	tc_estimate_ok(&w, &g, &e);
	llm_shape_init(&w, &e.plan, &sh);
	assert_close(sh.lps, 1, TOL_EXACT);
	assert_close(sh.lps_first, 15, TOL_EXACT);
	assert_close(sh.lps_last, 15, TOL_EXACT);
}

struct bad_stages {
	int pp, interleave, first, last;
	enum wl_field field;
	const char *msg;
};

static void test_invalid_stage_layers(void **state)
{
	static const struct bad_stages cases[] = {
		{ 1, 1, 8, 0, WLF_FIRST_STAGE_LAYERS, "first_stage_layers "
		  "needs pipeline parallelism (expected pp > 1)" },
		{ 4, 1, 7, 8, WLF_FIRST_STAGE_LAYERS, "first_stage_layers "
		  "leaves 17 of 32 layers to 2 other stages (expected a "
		  "multiple of the other stages, at least one layer each)" },
		{ 4, 1, 0, 40, WLF_LAST_STAGE_LAYERS, "last_stage_layers "
		  "leaves -8 of 32 layers to 3 other stages (expected a "
		  "multiple of the other stages, at least one layer each)" },
		{ 2, 1, 10, 10, WLF_FIRST_STAGE_LAYERS, "first_stage_layers "
		  "leaves 12 of 32 layers to 0 other stages (expected "
		  "first_stage_layers + last_stage_layers = layers with "
		  "pp 2)" },
		{ 4, 4, 2, 2, WLF_FIRST_STAGE_LAYERS, "interleave 4 needs at "
		  "least 4 layers on every stage (expected fewer model chunks "
		  "or more layers per stage)" },
		/* the middle stages have 8 each, the last stage too few */
		{ 4, 2, 15, 1, WLF_FIRST_STAGE_LAYERS, "interleave 2 needs at "
		  "least 2 layers on every stage (expected fewer model chunks "
		  "or more layers per stage)" },
	};
	struct gpu g;
	size_t i;
	(void)state;
	tc_test_a100(&g);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct workload w;
		struct estimate e;
		struct plan_problem why;
		llama32(&w);
		w.plan.pp = cases[i].pp;
		w.plan.interleave = cases[i].interleave;
		w.plan.first_stage_layers = cases[i].first;
		w.plan.last_stage_layers = cases[i].last;
		memset(&why, 0, sizeof(why));
		assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), -1);
		assert_int_equal(why.field, cases[i].field);
		assert_string_equal(why.msg, cases[i].msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_middle_stage_sets_the_pace),
		cmocka_unit_test(test_first_stage_sets_the_pace),
		cmocka_unit_test(test_even_counts_are_the_even_split),
		cmocka_unit_test(test_busiest_stage_holds_the_memory),
		cmocka_unit_test(test_one_layer_middle_stages),
		cmocka_unit_test(test_invalid_stage_layers),
	};
	return cmocka_run_group_tests(tests, tc_llm_setup, tc_llm_teardown);
}
