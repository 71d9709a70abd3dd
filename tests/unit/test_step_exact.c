/*
 * test_step_exact.c - a step's headline figures against their definitions
 * on a small Llama-style decoder (2 layers, h 1024, 8 heads, SwiGLU ffn
 * 2048, vocabulary 32000, untied, sequence 1024, global batch 8) on the
 * frozen A100 80GB SXM: the model FLOPs of a step by hand, the MFU
 * identity, the exposed data-parallel time with and without overlap, the
 * tied embeddings' all-reduce, the limiter of a language model, and the
 * operators of LoRA adapters and of an fp8-kept activation input, and a
 * masked LM's head on its masked positions.
 */
#include "tc_test.h"
#include "tc_llm.h"
#include "tc_ops.h"

#include "../../src/model/core/comm.h"

/* Weights a token meets in matrix multiplies: 2 layers x (attention 4h^2
 * + SwiGLU 3hf) + the LM head V h = 2 x 10,485,760 + 32,768,000. */
#define MATMUL_P 53739520.0
#define TOKENS (8 * 1024.0)

/*
 * Model FLOPs of a step: 6 N + 12 L h s a token (Narayanan et al. SC'21,
 * eq. 3; Chowdhery et al. 2022, appendix B: the attention's QK^T and AV,
 * forward and backward, not halved for the causal mask):
 * 8192 x (6 x 53,739,520 + 12 x 2 x 1024 x 1024) = 2.8475634e12.
 * MFU = model FLOPs / (step time x GPUs x the dense bf16 peak).
 */
static void test_model_flop_and_mfu(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	tc_estimate_ok(&w, &g, &e);
	assert_close(e.model_flop_per_step,
		     TOKENS * (6 * MATMUL_P + 12 * 2 * 1024.0 * 1024), TOL_EXACT);
	assert_close(g.peak_flop_per_s[PREC_BF16], 312e12, TOL_EXACT);
	assert_close(e.mfu_frac,
		     e.model_flop_per_step / (e.step_time_s * 8 * 312e12), TOL_EXACT);
	/* no recompute: hardware FLOPs are the model's */
	assert_close(e.hfu_frac, e.mfu_frac, TOL_EXACT);
	assert_close(e.total_time_s, 10 * e.step_time_s, TOL_EXACT);
	assert_close(e.gpu_hours, e.total_time_s * 8 / 3600, TOL_EXACT);
}

/*
 * ZeRO 0 on 8 GPUs of one node: once a step, the all-reduce of every
 * gradient, 2 B x 86,512,640 parameters (the matmul weights, the token
 * table V h and 2 x 2 h + h norm weights).  Without overlap all of it is
 * exposed; with it, part hides under the backward, and the step is
 * shorter by exactly what was hidden.
 */
static void test_exposed_dp(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate none, over;
	struct comm_group dp8 = { 8, 8 };
	double ar;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.plan.grad_overlap = 0;
	tc_estimate_ok(&w, &g, &none);
	ar = comm_time_s(&g, &none.plan, COLL_ALLREDUCE, dp8,
			 2 * (MATMUL_P + 32000.0 * 1024 + 5 * 1024));
	assert_close(none.breakdown_s[BRK_DP_COMM], ar, TOL_EXACT);
	w.plan.grad_overlap = 1;
	tc_estimate_ok(&w, &g, &over);
	assert_true(over.breakdown_s[BRK_DP_COMM] < ar);
	assert_true(over.breakdown_s[BRK_DP_COMM] >= 0);
	assert_close(none.step_time_s - over.step_time_s,
		     ar - over.breakdown_s[BRK_DP_COMM], TOL_TIGHT);
}

/*
 * Tied embeddings over 2 pipeline stages: the first stage's token table
 * and the last stage's head are one matrix, so their gradients are
 * all-reduced between the two stages once a step: V h x 2 B = 32000 x 1024
 * x 2 = 65,536,000 B over 2 GPUs of one node (tp 1 x dp 4 x (pp - 1) = 4
 * ranks apart, fewer than 8 a node).  Untied, the stages hold as many
 * parameters (the head instead of the copy), so the step's data-parallel
 * time differs by exactly that all-reduce.
 */
static void test_tied_embedding_allreduce(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate tied, untied;
	struct comm_group pair = { 2, 2 };
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.plan.pp = 2;
	w.plan.grad_overlap = 0;
	w.llm.tied_embeddings = 1;
	tc_estimate_ok(&w, &g, &tied);
	w.llm.tied_embeddings = 0;
	tc_estimate_ok(&w, &g, &untied);
	assert_close(tied.breakdown_s[BRK_DP_COMM] - untied.breakdown_s[BRK_DP_COMM],
		     comm_time_s(&g, &tied.plan, COLL_ALLREDUCE, pair, 65536000.0),
		     TOL_TIGHT);
}

/*
 * The limiter of a language model: on one node the step is compute
 * bound; spread one GPU a node over a 1 GB/s network, the gradient
 * all-reduce (173 MB, 2 x 7 / 8 of it sent, over 0.5 GB/s a direction:
 * over 0.6 s, against a step of about 8 ms) limits it.
 */
static void test_llm_limiter(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	tc_estimate_ok(&w, &g, &e);
	assert_int_equal(e.limiting, LIM_COMPUTE);
	w.plan.gpus_per_node = 1;
	w.plan.network_bytes_per_s = 1e9;
	tc_estimate_ok(&w, &g, &e);
	assert_int_equal(e.limiting, LIM_COMMUNICATION);
	assert_true(e.breakdown_s[BRK_DP_COMM] > 0.6);
}

/* Its FLOPs and its memory traffic, -1 where there is no such operator. */
static double op_flop(const char *name)
{
	const struct op *o = tc_find_op(&ws, name);
	return o ? o->flop : -1;
}

static double op_bytes(const char *name)
{
	const struct op *o = tc_find_op(&ws, name);
	return o ? o->bytes : -1;
}

/*
 * LoRA adapters run where the workload puts them.  An adapter of a linear
 * k -> n on T tokens is two GEMMs, x A (T x r x k) and (x A) B (T x n x
 * r): 2 T r (n + k) FLOPs forward.  T = 1024, r = 16: QKV (k = 1024, n =
 * 3072) 2 x 1024 x 16 x 4096 = 134,217,728; FC1 (k = 1024, n = 2f =
 * 4096) 2 x 1024 x 16 x 5120 = 167,772,160.  On attention only, FC1 and
 * FC2 have none, forward or backward.
 */
static void test_lora_targets_ops(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.train.finetune = FT_LORA;
	w.train.lora_rank = 16;
	tc_estimate_ok(&w, &g, &e);
	assert_close(op_flop("layer.qkv_lora"), 134217728.0, TOL_EXACT);
	assert_close(op_flop("layer.mlp_fc1_lora"), 167772160.0, TOL_EXACT);
	w.train.lora_targets = LORA_QKV | LORA_PROJ;
	tc_estimate_ok(&w, &g, &e);
	assert_close(op_flop("layer.qkv_lora"), 134217728.0, TOL_EXACT);
	assert_true(op_flop("layer.attn_out_lora") > 0);
	assert_true(op_flop("layer.mlp_fc1_lora") < 0);
	assert_true(op_flop("layer.mlp_fc2_lora") < 0);
	assert_true(op_flop("layer.mlp_fc1_lora.bwd") < 0);
	assert_true(op_flop("layer.mlp_fc2_lora.bwd") < 0);
	assert_true(op_flop("layer.qkv_lora.bwd") > 0);
}

/*
 * mlp_act_input_fp8: the SwiGLU input, T x 2f = 1024 x 4096 = 4,194,304
 * elements, is cast to fp8 after the forward's activation and back before
 * its backward, each a pass that reads 2 B and writes 1 B an element (or
 * the reverse): 4,194,304 x 3 = 12,582,912 B each way.  Without the key
 * neither pass exists.  fp8 GEMMs: the frozen H100 SXM.
 */
static void test_act_input_fp8_ops(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	tc_test_gpu("h100-sxm", &g);
	w.train.precision = PREC_FP8;
	tc_estimate_ok(&w, &g, &e);
	assert_true(op_bytes("layer.mlp_act_input_fp8") < 0);
	assert_true(op_bytes("layer.mlp_act_input_fp8.bwd") < 0);
	w.train.mlp_act_input_fp8 = 1;
	tc_estimate_ok(&w, &g, &e);
	assert_close(op_bytes("layer.mlp_act_input_fp8"), 12582912.0, TOL_EXACT);
	assert_close(op_bytes("layer.mlp_act_input_fp8.bwd"), 12582912.0, TOL_EXACT);
}

/*
 * A masked LM's head on lm_head_tokens = 256 of the 1024 tokens of a
 * sample (head_frac 1/4): its GEMM is 2 x 256 x 32,000 x 1024 =
 * 16,777,216,000 FLOPs a micro-batch, not 67,108,864,000, and the model
 * FLOPs count its weights on a quarter of the tokens: 8192 x (6 x
 * (20,971,520 + 32,768,000 / 4) + 12 x 2 x 1024 x 1024) = 8192 x
 * (174,981,120 + 25,165,824) = 1,639,603,765,248.
 */
static void test_lm_head_tokens(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	tc_estimate_ok(&w, &g, &e);
	assert_close(op_flop("lm_head.fwd"), 67108864000.0, TOL_EXACT);
	w.train.lm_head_tokens = 256;
	tc_estimate_ok(&w, &g, &e);
	assert_close(op_flop("lm_head.fwd"), 16777216000.0, TOL_EXACT);
	assert_close(e.model_flop_per_step, 1639603765248.0, TOL_EXACT);
}

/*
 * A mixture of 4 experts, top 2: a token meets the attention, two experts'
 * MLPs and the router's h x experts weights in each layer, and the head:
 * 2 x (4,194,304 + 2 x 6,291,456 + 1024 x 4) + 32,768,000 = 66,330,624
 * weights; model FLOPs 8192 x (6 x 66,330,624 + 12 x 2 x 1024 x 1024) =
 * 3,466,441,261,056 a step.
 */
static void test_moe_model_flop(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.llm.experts = 4;
	w.llm.top_k = 2;
	tc_estimate_ok(&w, &g, &e);
	assert_close(e.model_flop_per_step, 3466441261056.0, TOL_EXACT);
}

/* A run given in tokens takes whole steps, the last one partly used:
 * 2.5 steps' tokens (2.5 x 8192 = 20,480) take 3 steps. */
static void test_steps_from_tokens_round_up(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.train.steps = 0;
	w.train.tokens = 2.5 * TOKENS;
	tc_estimate_ok(&w, &g, &e);
	assert_close(e.steps, 3, TOL_EXACT);
	assert_close(e.total_time_s, 3 * e.step_time_s, TOL_EXACT);
}

/*
 * LoRA: the frozen weights take no weight gradient, 4 FLOPs a weight a
 * token instead of 6; the rank-16 adapters on every linear (229,376 a
 * layer) take all 6.  8192 x (4 x 53,739,520 + 12 x 2 x 1024 x 1024 + 6 x
 * 2 x 229,376) = 8192 x 242,876,416 = 1,989,643,599,872 a step.
 */
static void test_lora_model_flop(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.train.finetune = FT_LORA;
	w.train.lora_rank = 16;
	tc_estimate_ok(&w, &g, &e);
	assert_close(e.model_flop_per_step, 1989643599872.0, TOL_EXACT);
}

/*
 * Full recompute replays every layer's forward once more: 2 FLOPs a
 * weight a token of the layers' matmuls (the head is not replayed) and a
 * third of the attention term: 8192 x (2 x (53,739,520 - 32,768,000) +
 * 25,165,824 / 3) = 8192 x 50,331,648 = 412,316,860,416 hardware FLOPs a
 * step beyond the model's.
 */
static void test_full_recompute_hw_flop(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.train.recompute = RECOMP_FULL;
	tc_estimate_ok(&w, &g, &e);
	assert_close(e.hw_flop_per_step - e.model_flop_per_step,
		     412316860416.0, TOL_TIGHT);
}

/*
 * Selective recompute replays the attention core, a third of the
 * attention term (its forward): 8192 x 25,165,824 / 3 = 68,719,476,736
 * hardware FLOPs a step beyond the model's.  Per-op recompute of 4
 * experts, top 2, replays wk, wo and each of a token's 2 experts' w3: 8192
 * x 2 x 2 layers x (1024 x 1024 + 1024 x 1024 + 2 x 2048 x 1024) =
 * 206,158,430,208.
 */
static void test_selective_recompute_hw_flop(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.train.recompute = RECOMP_SELECTIVE;
	tc_estimate_ok(&w, &g, &e);
	assert_close(e.hw_flop_per_step - e.model_flop_per_step,
		     68719476736.0, TOL_TIGHT);
	w.train.recompute = RECOMP_SELECTIVE_OP;
	w.llm.experts = 4;
	w.llm.top_k = 2;
	tc_estimate_ok(&w, &g, &e);
	assert_close(e.hw_flop_per_step - e.model_flop_per_step,
		     206158430208.0, TOL_TIGHT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lora_targets_ops),
		cmocka_unit_test(test_act_input_fp8_ops),
		cmocka_unit_test(test_lm_head_tokens),
		cmocka_unit_test(test_moe_model_flop),
		cmocka_unit_test(test_steps_from_tokens_round_up),
		cmocka_unit_test(test_lora_model_flop),
		cmocka_unit_test(test_full_recompute_hw_flop),
		cmocka_unit_test(test_selective_recompute_hw_flop),
		cmocka_unit_test(test_model_flop_and_mfu),
		cmocka_unit_test(test_exposed_dp),
		cmocka_unit_test(test_tied_embedding_allreduce),
		cmocka_unit_test(test_llm_limiter),
	};
	tc_use_test_data();
	return cmocka_run_group_tests(tests, tc_llm_setup, tc_llm_teardown);
}
