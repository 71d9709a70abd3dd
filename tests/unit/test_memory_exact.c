/*
 * test_memory_exact.c - the memory model's parts worked out by hand on a
 * small Llama-style decoder: buffers (ZeRO-3's gathered layers included),
 * the reserve (MEM_CONTEXT_BYTES, MEM_FRAGMENTATION_FRAC), and the bytes per
 * parameter of each optimizer, of fp32 training and of QLoRA's 4-bit weights;
 * a layer's activations in bf16 and fp8, without dropout, and under
 * torchtitan's per-op selective recompute; the fp8-held LoRA base and MLP
 * activation input; a masked LM's logits; the combined fit advice at a
 * GPU count its pipeline stages do not divide.
 *
 * The decoder: 2 layers, h = 1024, 8 heads (no GQA), SwiGLU ffn 2048,
 * vocabulary 32000, untied embeddings, RMSNorm, no biases; sequence 1024,
 * micro-batch 1, on 8 GPUs of data parallelism (tp = pp = 1).
 */
#include "tc_test.h"
#include "tc_llm.h"

#include "../../src/model/families/memory.h"

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
 * ZeRO-3 holds 3 layers whole at its peak (MEM_ZERO3_LAYERS: the current
 * and the prefetched layer's weights, the current one's gradients):
 * 3 x LAYER_P x 2 B = 62,926,848 B more buffers than ZeRO-1, and weights
 * sharded 8 ways (2 x MODEL_P / 8).
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
	assert_close(z3[MEM_BUFFERS], 73924608.0 + 62926848.0, TOL_EXACT);
	assert_close(z3[MEM_BUFFERS] - z1[MEM_BUFFERS], 3 * LAYER_P * 2,
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

/*
 * QLoRA of a mixture of 4 experts at ep 2: a GPU holds the attention and
 * 2 of the experts' MLPs, 4,194,304 + 2 x 6,291,456 = 16,777,216 linear
 * weights a layer, 33,554,432 for the 2 layers, and only those are held
 * in 4 bits; the other 2 experts are on the other expert-parallel rank,
 * and the embeddings and head stay 16-bit.  Against LoRA's 16-bit base
 * each of them saves 2 - 0.5 - 0.127 / 8 B.
 */
static void test_qlora_local_experts(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	double q[MEM_COUNT], l[MEM_COUNT];
	double mm = 2 * (ATTN_P + 2 * MLP_P);
	(void)state;
	setup_run(&w, &pl, 0);
	w.llm.experts = 4;
	w.llm.top_k = 2;
	pl.ep = 2;
	w.train.finetune = FT_QLORA;
	w.train.lora_rank = 16;
	llm_shape_init(&w, &pl, &sh);
	mem_estimate(&w, &pl, &sh, q);
	w.train.finetune = FT_LORA;
	llm_shape_init(&w, &pl, &sh);
	mem_estimate(&w, &pl, &sh, l);
	assert_close(l[MEM_WEIGHTS] - q[MEM_WEIGHTS], mm * (2 - 0.5 - 0.127 / 8), TOL_TIGHT);
}

/*
 * One layer of the decoder (s b = 1024 tokens, h = 1024, a = g = 8, d =
 * 128, gated f = 2048, flash attention), bf16, per token:
 *   norm inputs 4h + QKV and FC1 inputs 2 x 2h + masks 2h   = 10,240
 *   Q 2ad + K, V 4gd + attention output 2ad                  =  8,192
 *   SwiGLU input 2 x 2f + FC2 input 2f                       = 12,288
 * = 30,720 B x 1024 = 31,457,280 B, + flash statistics 4 a s b = 32,768:
 * 31,490,048 B.  fp8 GEMMs keep the QKV, FC1 and FC2 inputs in 1 byte (h +
 * h + f saved a token) and the projection an fp8 copy of the attention
 * output (+ad): 3,072 B a token less, 28,344,320 B.  Without dropout the
 * masks (2h a token) go: 29,392,896 B.
 */
#define LAYER_BF16 31490048.0
#define LAYER_FP8 28344320.0
#define MASKS (2 * T_TOKENS * 1024)

static void test_layer_activations(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	(void)state;
	setup_run(&w, &pl, 1);
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_activation_bytes(&sh, RECOMP_NONE), LAYER_BF16,
		     TOL_EXACT);
	w.train.precision = PREC_FP8;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_saved_input_bytes(&sh), 1, TOL_EXACT);
	assert_close(mem_layer_activation_bytes(&sh, RECOMP_NONE), LAYER_FP8,
		     TOL_EXACT);
	/* full recompute keeps the 16-bit layer input either way: 2 s b h */
	assert_close(mem_layer_activation_bytes(&sh, RECOMP_FULL),
		     2 * T_TOKENS * 1024, TOL_EXACT);
	w.train.precision = PREC_BF16;
	w.llm.no_dropout = 1;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_activation_bytes(&sh, RECOMP_NONE),
		     LAYER_BF16 - MASKS, TOL_EXACT);
}

/*
 * LoRA: a frozen linear keeps no input (its input serves its weight
 * gradient only); an adapter keeps the 16-bit input for its own.  With
 * adapters on every linear the layer keeps what full bf16 training keeps,
 * 31,490,048 B, in fp8 as in bf16 (16-bit adapter inputs, no fp8 copy for
 * the frozen projection).  On attention only (QKV and projection), the FC1
 * input 2h = 2,048 and the FC2 input 2f = 4,096 B a token go: 6,144 x
 * 1024 = 6,291,456 B less, 25,198,592 B.  On QKV alone, with flash
 * attention, the projection's input is flash's own output: the same.
 * Adapter parameters, r = 16: QKV 16 x (1024 + 3072) = 65,536, projection
 * 16 x (1024 + 1024) = 32,768 a layer; x 2 layers = 196,608 on attention.
 */
static void test_lora_activations(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	double attention_only = LAYER_BF16 - 6 * 1024 * T_TOKENS;
	(void)state;
	setup_run(&w, &pl, 1);
	w.train.finetune = FT_LORA;
	w.train.lora_rank = 16;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_activation_bytes(&sh, RECOMP_NONE), LAYER_BF16, TOL_EXACT);
	assert_close(sh.trainable_first, ADAPTERS_P, TOL_EXACT);
	w.train.precision = PREC_FP8;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_activation_bytes(&sh, RECOMP_NONE), LAYER_BF16, TOL_EXACT);
	w.train.lora_targets = LORA_QKV | LORA_PROJ;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_activation_bytes(&sh, RECOMP_NONE), attention_only, TOL_EXACT);
	assert_close(sh.trainable_first, 196608.0, TOL_EXACT);
	w.train.precision = PREC_BF16;
	w.train.lora_targets = LORA_QKV;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_activation_bytes(&sh, RECOMP_NONE), attention_only, TOL_EXACT);
	assert_close(sh.trainable_first, 2 * 65536.0, TOL_EXACT);
	/* full training is untouched by the targets */
	w.train.finetune = FT_FULL;
	w.train.lora_rank = 0;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_activation_bytes(&sh, RECOMP_NONE), LAYER_BF16, TOL_EXACT);
}

/*
 * Tensors held in fp8.  mlp_act_input_fp8 keeps the SwiGLU input (2f =
 * 4,096 elements a token) in 1 byte, not 2: 4,096 B x 1024 tokens =
 * 4,194,304 B a layer less, 28,344,320 - 4,194,304 = 24,150,016 B under
 * fp8 GEMMs.  lora_base_fp8 holds the frozen base in 1 byte a parameter:
 * (86,512,640 - 458,752) x 1 + 458,752 adapters x 2 = 86,971,392 B, where
 * the 16-bit base takes 2 x 86,512,640 = 173,025,280 B.  Both need fp8 (or
 * fp4) GEMMs, and the base one a LoRA base (QLoRA's is NF4).
 */
static void test_fp8_storage(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	double part[MEM_COUNT];
	const char *why;
	(void)state;
	setup_run(&w, &pl, 0);
	w.train.precision = PREC_FP8;
	w.train.mlp_act_input_fp8 = 1;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_activation_bytes(&sh, RECOMP_NONE), 24150016.0, TOL_EXACT);
	assert_null(train_fp8_store_conflict(&w.train, &why));
	w.train.mlp_act_input_fp8 = 0;
	w.train.finetune = FT_LORA;
	w.train.lora_rank = 16;
	llm_shape_init(&w, &pl, &sh);
	mem_estimate(&w, &pl, &sh, part);
	assert_close(part[MEM_WEIGHTS], 173025280.0, TOL_EXACT);
	w.train.lora_base_fp8 = 1;
	llm_shape_init(&w, &pl, &sh);
	mem_estimate(&w, &pl, &sh, part);
	assert_close(part[MEM_WEIGHTS], 86971392.0, TOL_EXACT);
	assert_null(train_fp8_store_conflict(&w.train, &why));
	w.train.finetune = FT_QLORA;
	assert_string_equal(train_fp8_store_conflict(&w.train, &why), "lora_base_fp8");
	w.train.finetune = FT_LORA;
	w.train.precision = PREC_BF16;
	assert_string_equal(train_fp8_store_conflict(&w.train, &why), "lora_base_fp8");
	w.train.lora_base_fp8 = 0;
	w.train.mlp_act_input_fp8 = 1;
	assert_string_equal(train_fp8_store_conflict(&w.train, &why), "mlp_act_input_fp8");
	assert_non_null(strstr(why, "precision: fp8 or fp4"));
}

/*
 * Attention without flash: softmax output 2, dropout mask 1 and dropout
 * output 2 bytes a score (Korthikanti's 5 a s^2 b): 8 x 1024^2 x 5 =
 * 41,943,040 B; without dropout the softmax output alone, 2 bytes:
 * 16,777,216 B.  The rest of the layer is the flash case's less its
 * statistics.
 */
static void test_attention_without_dropout(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	double rest = LAYER_BF16 - 32768;
	(void)state;
	setup_run(&w, &pl, 1);
	w.train.flash_attention = 0;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_activation_bytes(&sh, RECOMP_NONE),
		     rest + 41943040.0, TOL_EXACT);
	w.llm.no_dropout = 1;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_activation_bytes(&sh, RECOMP_NONE),
		     rest - MASKS + 16777216.0, TOL_EXACT);
}

/*
 * torchtitan's per-op selective recompute, per token: the block input 2h,
 * Q 2ad and V 2gd (wq, wv: odd matmuls), the flash output 2ad and its
 * fp32 log-sum-exp 4a, w1's output 2f, w2's output 2h = 2,048 + 2,048 +
 * 2,048 + 2,048 + 32 + 4,096 + 2,048 = 14,368 B x 1024 = 14,712,832 B a
 * layer.  The stage: 2 layers, one layer's full activations while it is
 * replayed, the logits and their fp32 softmax 1024 x 32000 x 6 =
 * 196,608,000 B: 2 x 14,712,832 + 31,490,048 + 196,608,000 = 257,523,712 B.
 */
static void test_selective_op(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	double part[MEM_COUNT];
	(void)state;
	setup_run(&w, &pl, 1);
	w.train.recompute = RECOMP_SELECTIVE_OP;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_op_saved_bytes(&sh), 14712832.0, TOL_EXACT);
	assert_close(mem_layer_kept_bytes(&sh, &w.train), 14712832.0,
		     TOL_EXACT);
	mem_estimate(&w, &pl, &sh, part);
	assert_close(part[MEM_ACTIVATIONS], 257523712.0, TOL_EXACT);
	/* less than selective (which keeps all but the attention core) */
	w.train.recompute = RECOMP_SELECTIVE;
	assert_true(mem_layer_kept_bytes(&sh, &w.train) > 14712832.0);
}

/*
 * What must still not fit: Llama 3.1 8B (32 layers, h 4096, 32 heads, 8 KV
 * heads, f 14336, V 128256) at 8192 tokens, FSDP over 8, per-op
 * recompute.  A token keeps 2h + 2h + 2ad + 2gd + 2f + 2ad + 4a = 8,192 +
 * 8,192 + 8,192 + 2,048 + 28,672 + 8,192 + 128 = 63,616 B a layer; at
 * micro-batch 4 (32,768 tokens) the 32 layers keep 66,706,210,816 B and
 * the logits 32,768 x 128,256 x 6 = 25,216,598,016 B: 91.9 GB before
 * anything else, more than an 80 GB H100.  Micro-batch 2, the published
 * torchtitan run, fits.
 */
static void test_selective_op_still_too_big(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	double part[MEM_COUNT], total;
	(void)state;
	tc_llama(&w, 32, 4096, 32, 8, 14336, 128256);
	w.train.seq_len = 8192;
	w.train.global_batch = 32;
	w.train.steps = 1;
	w.train.recompute = RECOMP_SELECTIVE_OP;
	w.llm.no_dropout = 1;
	memset(&pl, 0, sizeof(pl));
	pl.tp = pl.pp = pl.interleave = pl.ep = 1;
	pl.dp = pl.count = pl.gpus_per_node = 8;
	pl.zero = 3;
	pl.micro_batch = 4;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_op_saved_bytes(&sh), 32768 * 63616.0,
		     TOL_EXACT);
	total = mem_estimate(&w, &pl, &sh, part);
	assert_true(part[MEM_ACTIVATIONS] >
		    66706210816.0 + 25216598016.0);
	assert_true(total > 80e9);
	pl.micro_batch = 2;
	llm_shape_init(&w, &pl, &sh);
	total = mem_estimate(&w, &pl, &sh, part);
	assert_true(total < 80e9);
}

/*
 * The replay's time: per token 2 x (wk g d h + wo a d h + w3 f h) FLOPs a
 * layer = 2 x (1024^2 + 1024^2 + 2048 x 1024) = 8,388,608, x 2 layers x
 * 8,192 tokens a step = 137,438,953,472 more hardware FLOPs than no
 * recompute; model FLOPs unchanged, the step slower.
 */
static void test_selective_op_time(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate none, op;
	(void)state;
	setup_run(&w, &w.plan, 1);
	tc_test_gpu("h100-sxm", &g);
	tc_estimate_ok(&w, &g, &none);
	w.train.recompute = RECOMP_SELECTIVE_OP;
	tc_estimate_ok(&w, &g, &op);
	assert_close(op.model_flop_per_step, none.model_flop_per_step,
		     TOL_EXACT);
	assert_close(op.hw_flop_per_step - none.hw_flop_per_step,
		     137438953472.0, TOL_TIGHT);
	assert_true(op.step_time_s > none.step_time_s);
}

/*
 * lm_head false (a span or class head, as BERT for SQuAD): no logits, so
 * the last stage's activations lose 1024 x 32000 x (2 + 4) = 196,608,000 B
 * (2 x 31,490,048 B of layers are left); the untied head's V x h =
 * 32,768,000 parameters go, and with them 6 x 32,768,000 x 8,192 tokens =
 * 1,610,612,736,000 model FLOPs a step; the step is faster.
 */
static void test_no_lm_head(void **state)
{
	struct workload w;
	struct gpu g;
	struct llm_shape sh;
	struct estimate with, without;
	double part[MEM_COUNT];
	(void)state;
	setup_run(&w, &w.plan, 1);
	tc_test_gpu("h100-sxm", &g);
	tc_estimate_ok(&w, &g, &with);
	w.llm.no_lm_head = 1;
	llm_shape_init(&w, &w.plan, &sh);
	assert_close(sh.params, MODEL_P - 32768000.0, TOL_EXACT);
	mem_estimate(&w, &w.plan, &sh, part);
	assert_close(part[MEM_ACTIVATIONS], 2 * LAYER_BF16, TOL_EXACT);
	tc_estimate_ok(&w, &g, &without);
	assert_close(with.model_flop_per_step - without.model_flop_per_step,
		     1610612736000.0, TOL_TIGHT);
	assert_true(without.step_time_s < with.step_time_s);
}

/*
 * lm_head_tokens 256 of 1024: the logits and their fp32 softmax cover a
 * quarter of the tokens, 256 x 32000 x (2 + 4) = 49,152,000 B beside the
 * 2 x 31,490,048 B of layers, not 196,608,000.  A head on more tokens
 * than a sample has, or on a model without one, is refused.
 */
static void test_lm_head_tokens_memory(void **state)
{
	struct workload w;
	struct llm_shape sh;
	double part[MEM_COUNT];
	char why[160];
	(void)state;
	setup_run(&w, &w.plan, 1);
	w.train.lm_head_tokens = 256;
	llm_shape_init(&w, &w.plan, &sh);
	mem_estimate(&w, &w.plan, &sh, part);
	assert_close(part[MEM_ACTIVATIONS], 2 * LAYER_BF16 + 49152000.0, TOL_EXACT);
	assert_int_equal(wl_head_tokens_conflict(&w, why, sizeof(why)), 0);
	w.train.lm_head_tokens = 1025;
	assert_int_equal(wl_head_tokens_conflict(&w, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "1025 is more than the 1024 tokens"));
	w.train.lm_head_tokens = 256;
	w.llm.no_lm_head = 1;
	assert_int_equal(wl_head_tokens_conflict(&w, why, sizeof(why)), -1);
}

/*
 * Grouped-query attention: K and V are g d wide, not a d.  With 2 KV heads
 * (g d = 256) a token keeps 2 x 2 x 256 = 1,024 B of K and V instead of
 * 2 x 2 x 1024 = 4,096: 3,072 B a token less, 3,072 x 1024 = 3,145,728 B,
 * so the layer keeps 31,490,048 - 3,145,728 = 28,344,320 B.
 */
static void test_gqa_activations(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	(void)state;
	setup_run(&w, &pl, 1);
	w.llm.kv_heads = 2;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_activation_bytes(&sh, RECOMP_NONE),
		     LAYER_BF16 - 3072 * T_TOKENS, TOL_EXACT);
}

/*
 * Per-op selective recompute under tp 2 with sequence parallelism: the
 * block input is split over the TP ranks with everything else split, 2 h
 * x 1024 / 2 = 1,048,576 B; w2's row-parallel output stays whole, 2 h x
 * 1024 = 2,097,152 B; Q, V, the flash output and its statistics and w1's
 * output, 10,272 B a token, split: 10,272 x 1024 / 2 = 5,259,264 B.
 * 8,404,992 B in all; without sequence parallelism the input is whole,
 * 1,048,576 B more.
 */
static void test_selective_op_sequence_parallel(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	(void)state;
	setup_run(&w, &pl, 1);
	w.train.recompute = RECOMP_SELECTIVE_OP;
	pl.tp = 2;
	pl.dp = 4;
	pl.sequence_parallel = 1;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_op_saved_bytes(&sh), 8404992.0, TOL_EXACT);
	pl.sequence_parallel = 0;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_op_saved_bytes(&sh), 8404992.0 + 1048576.0,
		     TOL_EXACT);
}

/*
 * LoRA in fp32: an adapter keeps its input in the activations' 4 bytes,
 * as full fp32 training does, not in 16 bits.  The layer a token, scale 2
 * (4 B over the 16-bit baseline): norm inputs 4h x 2 + QKV and FC1 inputs
 * 2 x 4h + masks 2h = 18,432; Q and K, V (2ad + 4gd) x 2 + attention
 * output 4ad = 16,384; SwiGLU input 2f x 4 + FC2 input 4f = 24,576; =
 * 59,392 B x 1024 = 60,817,408 B, + flash statistics 32,768: 60,850,176 B.
 */
static void test_lora_fp32_activations(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	(void)state;
	setup_run(&w, &pl, 1);
	w.train.precision = PREC_FP32;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_activation_bytes(&sh, RECOMP_NONE), 60850176.0,
		     TOL_EXACT);
	w.train.finetune = FT_LORA;
	w.train.lora_rank = 16;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_linear_input_bytes(&sh, LORA_QKV), 4, TOL_EXACT);
	assert_close(mem_layer_activation_bytes(&sh, RECOMP_NONE), 60850176.0,
		     TOL_EXACT);
}

/*
 * ZeRO-3 over 8 data-parallel ranks of a mixture of 4 experts (top 2) at
 * ep 2: each GPU holds 2 experts' MLPs, 2 x 6,291,456 = 12,582,912
 * parameters a layer, sharded over the 8 / 2 = 4 ranks holding the same
 * experts; the rest (attention 4,194,304, router 4 x 1024 = 4,096, norms
 * 2,048 a layer; embeddings, head 2 x 32,768,000, final norm 1,024) over
 * all 8.  Stage: 2 x 16,783,360 + 65,537,024 = 99,103,744 parameters, of
 * them 25,165,824 the experts'.  Weights in bf16: (99,103,744 -
 * 25,165,824) x 2 / 8 + 25,165,824 x 2 / 4 = 18,484,480 + 12,582,912 =
 * 31,067,392 B; gradients the same.
 *
 * At ep 4 with shard_group 2 a GPU holds one expert, 6,291,456 parameters
 * a layer, whose copies (8 / 4 = 2) are fewer than one a shard set's
 * ranks: the experts are not sharded at all, the rest over 2.  Stage: 2 x
 * 10,491,904 + 65,537,024 = 86,520,832 parameters; (86,520,832 -
 * 12,582,912) x 2 / 2 + 12,582,912 x 2 = 73,937,920 + 25,165,824 =
 * 99,103,744 B of weights.
 */
static void test_zero3_experts_sharded(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	double part[MEM_COUNT];
	(void)state;
	setup_run(&w, &pl, 3);
	w.llm.experts = 4;
	w.llm.top_k = 2;
	pl.ep = 2;
	llm_shape_init(&w, &pl, &sh);
	assert_close(sh.stage_params_first, 99103744.0, TOL_EXACT);
	mem_estimate(&w, &pl, &sh, part);
	assert_close(part[MEM_WEIGHTS], 31067392.0, TOL_EXACT);
	assert_close(part[MEM_GRADS], 31067392.0, TOL_EXACT);
	pl.ep = 4;
	pl.shard_group = 2;
	llm_shape_init(&w, &pl, &sh);
	assert_close(sh.stage_params_first, 86520832.0, TOL_EXACT);
	mem_estimate(&w, &pl, &sh, part);
	assert_close(part[MEM_WEIGHTS], 99103744.0, TOL_EXACT);
}

/*
 * The weight gradient in flight is the larger of the MLP's first matrix
 * and the head, in the weights' bytes.  fp32: 4 layer outputs 4 x 1024 x
 * 1024 x 4 B = 16,777,216 B + the head's 32,768,000 x 4 B = 131,072,000
 * B: 147,849,216 B.  A vocabulary of 1,000 (V h = 1,024,000) leaves the
 * SwiGLU's h x 2f = 4,194,304 the larger: 8,388,608 + 4,194,304 x 2 =
 * 16,777,216 B in bf16.
 */
static void test_buffers_largest_gradient(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	double part[MEM_COUNT];
	(void)state;
	setup_run(&w, &pl, 1);
	w.train.precision = PREC_FP32;
	llm_shape_init(&w, &pl, &sh);
	mem_estimate(&w, &pl, &sh, part);
	assert_close(part[MEM_BUFFERS], 147849216.0, TOL_EXACT);
	w.train.precision = PREC_BF16;
	w.llm.vocab = 1000;
	llm_shape_init(&w, &pl, &sh);
	mem_estimate(&w, &pl, &sh, part);
	assert_close(part[MEM_BUFFERS], 16777216.0, TOL_EXACT);
}

/*
 * A mixture of experts adds the all-to-all's send and receive buffers of
 * the busiest rank's token-expert pairs, 2 x capacity factor x top_k x T
 * x h x 2 B, to the dense buffers (73,924,608 B).  Two experts, top 1:
 * 2 x 1 x 1 x 1024 x 1024 x 2 = 4,194,304 B, 78,118,912 B in all.  Four
 * experts, top 2, capacity factor 1.5: 2 x 1.5 x 2 x 1024 x 1024 x 2 =
 * 12,582,912 B, 86,507,520 B in all.
 */
static void test_moe_dispatch_buffers(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	double part[MEM_COUNT];
	(void)state;
	setup_run(&w, &pl, 1);
	w.llm.experts = 2;
	w.llm.top_k = 1;
	llm_shape_init(&w, &pl, &sh);
	mem_estimate(&w, &pl, &sh, part);
	assert_close(part[MEM_BUFFERS], 73924608.0 + 4194304.0, TOL_EXACT);
	w.llm.experts = 4;
	w.llm.top_k = 2;
	w.train.capacity_factor = 1.5;
	llm_shape_init(&w, &pl, &sh);
	mem_estimate(&w, &pl, &sh, part);
	assert_close(part[MEM_BUFFERS], 73924608.0 + 12582912.0, TOL_EXACT);
}

/*
 * The combined advice keeps the GPU count: it adds pipeline stages only
 * where they divide the data-parallel ranks.  The decoder of these tests
 * with 4 layers and a vocabulary of 1,000, every layer recomputed,
 * micro-batch 1, ZeRO-2.  On 4 GPUs as pp 4 (dp 1) its first stage holds
 * one layer and the token table, 10,487,808 + 1,000 x 1,024 = 11,511,808
 * parameters at 16 B (2 weight, 2 gradient, 12 AdamW with the fp32
 * master): 184,188,928 B.  Give the GPU exactly that plan's memory, and
 * run on 5 GPUs (dp 5):
 * - ZeRO-3 over 5 shards all 4 x 10,487,808 + 2 x 1,024,000 + 1,024 =
 *   44,000,256 parameters: 44,000,256 x 16 / 5 = 140,800,819.2 B, but
 *   holds 3 gathered layers in bf16, 3 x 10,487,808 x 2 = 62,926,848 B
 *   more: 203,727,667.2 B, more than pp 4's 184,188,928 B, and the
 *   activations are alike (4 layers' inputs, or 1 layer's for 4
 *   micro-batches in flight).
 * - Every tp or pp change needs a k that divides 5.
 * So nothing at 5 GPUs fits; pp 4 would, but on 4 GPUs (dp 5 / 4 is not
 * whole), and is not advised.
 */
static void test_combined_advice_keeps_gpu_count(void **state)
{
	struct workload w;
	struct plan pl;
	struct llm_shape sh;
	struct gpu g;
	double part[MEM_COUNT], need4, need5;
	char advice[512];
	(void)state;
	setup_run(&w, &pl, 2);
	w.llm.layers = 4;
	w.llm.vocab = 1000;
	w.train.recompute = RECOMP_FULL;
	w.train.global_batch = 20;
	pl.pp = pl.count = 4;
	pl.dp = 1;
	llm_shape_init(&w, &pl, &sh);
	need4 = mem_estimate(&w, &pl, &sh, part);
	assert_close(part[MEM_WEIGHTS] + part[MEM_GRADS] + part[MEM_OPTIMIZER],
		     184188928.0, TOL_EXACT);

	pl.pp = 1;
	pl.dp = pl.count = 5;
	pl.zero = 3;
	llm_shape_init(&w, &pl, &sh);
	mem_estimate(&w, &pl, &sh, part);
	assert_close(part[MEM_WEIGHTS] + part[MEM_GRADS] + part[MEM_OPTIMIZER],
		     140800819.2, TOL_EXACT);

	pl.zero = 2;
	llm_shape_init(&w, &pl, &sh);
	need5 = mem_estimate(&w, &pl, &sh, part);
	tc_test_a100(&g);
	g.memory_bytes = need4;
	assert_true(need5 > need4);
	mem_fit_advice(&w, &g, &pl, need5, advice, sizeof(advice));
	assert_null(strstr(advice, "pp: 4"));
	assert_non_null(strstr(advice, "no change of recompute, zero, "
			       "micro_batch, tp or pp at 5 GPUs fits"));
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
		cmocka_unit_test(test_qlora_local_experts),
		cmocka_unit_test(test_lora_activations),
		cmocka_unit_test(test_fp8_storage),
		cmocka_unit_test(test_lm_head_tokens_memory),
		cmocka_unit_test(test_layer_activations),
		cmocka_unit_test(test_attention_without_dropout),
		cmocka_unit_test(test_selective_op),
		cmocka_unit_test(test_selective_op_still_too_big),
		cmocka_unit_test(test_selective_op_time),
		cmocka_unit_test(test_no_lm_head),
		cmocka_unit_test(test_gqa_activations),
		cmocka_unit_test(test_selective_op_sequence_parallel),
		cmocka_unit_test(test_lora_fp32_activations),
		cmocka_unit_test(test_zero3_experts_sharded),
		cmocka_unit_test(test_buffers_largest_gradient),
		cmocka_unit_test(test_moe_dispatch_buffers),
		cmocka_unit_test(test_combined_advice_keeps_gpu_count),
	};
	tc_use_test_data();
	return cmocka_run_group_tests(tests, tc_llm_setup, tc_llm_teardown);
}
