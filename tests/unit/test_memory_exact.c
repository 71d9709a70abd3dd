/*
 * test_memory_exact.c - the memory model's parts worked out by hand on a
 * small Llama-style decoder: buffers (ZeRO-3's gathered layers included),
 * the reserve (MEM_CONTEXT_BYTES, MEM_FRAGMENTATION_FRAC), and the bytes per
 * parameter of each optimizer, of fp32 training and of QLoRA's 4-bit weights.
 *
 * The decoder: 2 layers, h = 1024, 8 heads (no GQA), SwiGLU ffn 2048,
 * vocabulary 32000, untied embeddings, RMSNorm, no biases; sequence 1024,
 * micro-batch 1, on 8 GPUs of data parallelism (tp = pp = 1).
 */
#include "tc_test.h"
#include "tc_llm.h"

#include "../../src/model/memory.h"

/* Hand counts of the decoder's parameters. */
/* attention: Q, K, V, O, each h x h = 4 x 1024^2 */
#define ATTN_P (4.0 * 1024 * 1024)            /* 4,194,304 */
/* SwiGLU MLP: gate, up (h x f) and down (f x h) = 3 x 1024 x 2048 */
#define MLP_P (3.0 * 1024 * 2048)             /* 6,291,456 */
/* two RMSNorm weight vectors of h */
#define NORM_P (2.0 * 1024)                   /* 2,048 */
#define LAYER_P (ATTN_P + MLP_P + NORM_P)     /* 10,487,808 */
/* token table and LM head, V x h each, and the final norm */
#define MODEL_P (2 * LAYER_P + 2 * 32000.0 * 1024 + 1024) /* 86,512,640 */
#define T_TOKENS 1024.0                       /* b x s = 1 x 1024 */

static void setup_run(struct workload *w, struct plan *pl, int zero)
{
	tc_llama(w, 2, 1024, 8, 8, 2048, 32000);
	w->train.seq_len = 1024;
	w->train.global_batch = 8;
	w->train.steps = 1;
	memset(pl, 0, sizeof(*pl));
	pl->tp = pl->pp = pl->micro_batch = pl->interleave = pl->ep = 1;
	pl->dp = pl->count = pl->gpus_per_node = 8;
	pl->zero = zero;
}

/* Total = the sum of the parts. */
static double sum_parts(const double part[MEM_COUNT])
{
	double t = 0;
	for (int k = 0; k < MEM_COUNT; k++)
		t += part[k];
	return t;
}

/* The shape agrees with the hand counts the other tests build on. */
static void test_hand_counts(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	(void)state;
	setup_run(&w, &pl, 0);
	llm_shape_init(&w, &pl, &sh);
	assert_close(sh.layer_params, LAYER_P, TOL_EXACT);
	assert_close(sh.layer_matmul_params, ATTN_P + MLP_P, TOL_EXACT);
	assert_close(sh.stage_params_first, MODEL_P, TOL_EXACT);
	assert_close(sh.params, MODEL_P, TOL_EXACT);
}

/*
 * Buffers: 4 layer outputs of T x h bf16 = 4 x 1024 x 1024 x 2 = 8,388,608
 * B, plus the largest weight gradient in flight, max(h x 2f, V x h) =
 * max(4,194,304, 32,768,000) x 2 B = 65,536,000 B: 73,924,608 B.
 * Reserve: MEM_CONTEXT_BYTES 1e9 + 5 % of activations and buffers.
 */
static void test_buffers_and_reserve(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	double part[MEM_COUNT], total;
	(void)state;
	setup_run(&w, &pl, 1);
	llm_shape_init(&w, &pl, &sh);
	total = mem_estimate(&w, &pl, &sh, part);
	assert_close(part[MEM_BUFFERS], 8388608.0 + 65536000.0, TOL_EXACT);
	assert_close(part[MEM_RESERVED],
		     1e9 + 0.05 * (part[MEM_ACTIVATIONS] + 73924608.0),
		     TOL_EXACT);
	assert_true(part[MEM_ACTIVATIONS] > 0);
	assert_close(total, sum_parts(part), TOL_EXACT);
}

/*
 * ZeRO-3 keeps about 4 gathered layers: 4 x LAYER_P x 2 B = 83,902,464 B
 * more buffers than ZeRO-1, and weights sharded 8 ways (2 x MODEL_P / 8).
 */
static void test_zero3_gathered_layers(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	double z1[MEM_COUNT], z3[MEM_COUNT];
	(void)state;
	setup_run(&w, &pl, 1);
	llm_shape_init(&w, &pl, &sh);
	mem_estimate(&w, &pl, &sh, z1);
	pl.zero = 3;
	llm_shape_init(&w, &pl, &sh);
	mem_estimate(&w, &pl, &sh, z3);
	assert_close(z3[MEM_BUFFERS], 73924608.0 + 83902464.0, TOL_EXACT);
	assert_close(z3[MEM_BUFFERS] - z1[MEM_BUFFERS], 4 * LAYER_P * 2,
		     TOL_EXACT);
	assert_close(z3[MEM_WEIGHTS], 2 * MODEL_P / 8, TOL_EXACT);
	assert_close(z3[MEM_GRADS], 2 * MODEL_P / 8, TOL_EXACT);
	assert_close(z3[MEM_RESERVED],
		     1e9 + 0.05 * (z3[MEM_ACTIVATIONS] + z3[MEM_BUFFERS]),
		     TOL_EXACT);
}

/* Optimizer bytes per parameter, ZeRO 0 (nothing sharded). */
static double optimizer_bytes(enum optimizer o, enum tc_prec p)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	double part[MEM_COUNT];
	setup_run(&w, &pl, 0);
	w.train.optimizer = o;
	w.train.precision = p;
	llm_shape_init(&w, &pl, &sh);
	mem_estimate(&w, &pl, &sh, part);
	return part[MEM_OPTIMIZER];
}

/*
 * Mixed precision keeps an fp32 master copy (4 B) beside the optimizer's
 * own state: AdamW m + v = 8 B, SGD momentum 4 B, Adafactor's factored
 * second moment about 0.05 B; fp32 training has no master copy.
 */
static void test_optimizer_bytes(void **state)
{
	(void)state;
	assert_close(optimizer_bytes(OPT_ADAMW, PREC_BF16), 12 * MODEL_P, TOL_EXACT);
	assert_close(optimizer_bytes(OPT_SGD, PREC_BF16), 8 * MODEL_P, TOL_EXACT);
	assert_close(optimizer_bytes(OPT_ADAFACTOR, PREC_BF16), 4.05 * MODEL_P,
		     TOL_EXACT);
	assert_close(optimizer_bytes(OPT_ADAMW, PREC_FP32), 8 * MODEL_P, TOL_EXACT);
	assert_close(optimizer_bytes(OPT_SGD, PREC_FP32), 4 * MODEL_P, TOL_EXACT);
}

/* fp32 training: 4 B weights and 4 B gradients a parameter; ZeRO-2 shards
 * the gradients and the optimizer's 8 B 8 ways. */
static void test_fp32_adam(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	double part[MEM_COUNT];
	(void)state;
	setup_run(&w, &pl, 2);
	w.train.precision = PREC_FP32;
	llm_shape_init(&w, &pl, &sh);
	mem_estimate(&w, &pl, &sh, part);
	assert_close(part[MEM_WEIGHTS], 4 * MODEL_P, TOL_EXACT);
	assert_close(part[MEM_GRADS], 4 * MODEL_P / 8, TOL_EXACT);
	assert_close(part[MEM_OPTIMIZER], 8 * MODEL_P / 8, TOL_EXACT);
}

/*
 * QLoRA: the frozen linear weights of the layers in NF4, 0.5 B a
 * parameter plus 0.127 bit of double-quantised constants (Dettmers et al.
 * 2023): 2 x 10,485,760 x (0.5 + 0.127 / 8) B; the other frozen weights
 * (embeddings, head, norms) in bf16, 2 B; the adapters in bf16 with their
 * gradients and 12 B of AdamW state.  LoRA keeps every frozen weight in bf16.
 *
 * Rank-16 adapters, per layer (A: r x in, B: r x out): fused QKV
 * 16 x (1024 + 3 x 1024) = 65,536, output 16 x (1024 + 1024) = 32,768,
 * fused gate and up 16 x (1024 + 2 x 2048) = 81,920, down 16 x (2048 +
 * 1024) = 49,152: 229,376 a layer, 458,752 in all.
 *
 * The model counts the adapters inside the stage's parameters (frozen =
 * P - A), so the weights come to 2 B x (P - A) + 2 B x A under LoRA, not
 * 2 B x (P + A): A x 2 B = 0.9 MB short here, 0.1 % of the frozen
 * weights; pinned as the model has it.
 */
#define ADAPTERS_P 458752.0

static void test_qlora_weights(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	double q[MEM_COUNT], l[MEM_COUNT], A = ADAPTERS_P;
	double mm = 2 * (ATTN_P + MLP_P);
	(void)state;
	setup_run(&w, &pl, 0);
	w.train.finetune = FT_QLORA;
	w.train.lora_rank = 16;
	llm_shape_init(&w, &pl, &sh);
	mem_estimate(&w, &pl, &sh, q);
	assert_close(sh.trainable_first, A, TOL_EXACT);
	assert_close(q[MEM_WEIGHTS],
		     mm * (0.5 + 0.127 / 8) + (MODEL_P - A - mm) * 2 + A * 2,
		     TOL_EXACT);
	assert_close(q[MEM_GRADS], 2 * A, TOL_EXACT);
	assert_close(q[MEM_OPTIMIZER], 12 * A, TOL_EXACT);
	w.train.finetune = FT_LORA;
	llm_shape_init(&w, &pl, &sh);
	mem_estimate(&w, &pl, &sh, l);
	assert_close(l[MEM_WEIGHTS], (MODEL_P - A) * 2 + A * 2, TOL_EXACT);
	/* 4-bit saves (2 - 0.5159) B on each linear weight */
	assert_close(l[MEM_WEIGHTS] - q[MEM_WEIGHTS],
		     mm * (2 - 0.5 - 0.127 / 8), TOL_TIGHT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_counts),
		cmocka_unit_test(test_buffers_and_reserve),
		cmocka_unit_test(test_zero3_gathered_layers),
		cmocka_unit_test(test_optimizer_bytes),
		cmocka_unit_test(test_fp32_adam),
		cmocka_unit_test(test_qlora_weights),
	};
	tc_use_test_data();
	return cmocka_run_group_tests(tests, tc_llm_setup, tc_llm_teardown);
}
