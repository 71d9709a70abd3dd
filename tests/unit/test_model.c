/*
 * test_model.c - the LLM performance model: hand-computed values and
 * relations that must hold for any parameters.
 */
#include "tc_test.h"
#include "tc_warn.h"
#include "tc_llm.h"
#include "tc_ops.h"

#include <stdlib.h>

#include "../../src/model/core/comm.h"
#include "../../src/model/families/estimate.h"
#include "../../src/model/types/gpu.h"
#include "../../src/model/families/llm.h"
#include "../../src/model/families/memory.h"
#include "../../src/model/core/roofline.h"
#include "../../src/model/core/schedule.h"
#include "../../src/model/analyses/validate.h"

/* A GPT-style workload: fp16, Adam, learned positions, biases. */
static void gpt(struct workload *w, int L, int h, int a, int V, double s)
{
	memset(w, 0, sizeof(*w));
	w->kind = WL_LLM;
	w->llm.layers = L;
	w->llm.hidden = h;
	w->llm.heads = a;
	w->llm.vocab = V;
	llm_arch_gpt_style(&w->llm);
	w->train.seq_len = s;
	w->train.global_batch = 8;
	w->train.steps = 10;
	w->train.precision = PREC_FP16;
	w->train.optimizer = OPT_ADAMW;
	w->plan.count = 1;
	w->plan.micro_batch = 1;
}

/* A run longer than EST_MAX_RUN_S is refused, exactly past the limit, and
 * the field blamed is the one that sets the amount of work. */
static void test_run_length_limit(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	double step_s, max_steps;
	(void)state;
	gpt(&w, 2, 64, 4, 100, 32);
	tc_test_a100(&g);
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	step_s = e.step_time_s;
	max_steps = floor(EST_MAX_RUN_S / step_s);
	w.train.steps = max_steps;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_true(e.total_time_s <= EST_MAX_RUN_S);
	w.train.steps = max_steps + 1;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), -1);
	assert_int_equal(why.field, WLF_STEPS);
	assert_non_null(strstr(why.msg, "the run takes 100.0 years (expected at most 100 years; more GPUs or fewer steps)"));
	/* the same work given as tokens blames tokens */
	w.train.steps = 0;
	w.train.tokens = 1e6 * max_steps * w.train.global_batch * w.train.seq_len;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), -1);
	assert_int_equal(why.field, WLF_TOKENS);
	assert_non_null(strstr(why.msg, "fewer tokens)"));
	/* one step is still estimated without the limit */
	assert_int_equal(step_estimate_unbounded(&w, &g, &ws, &e, &why), 0);
	assert_close(e.step_time_s, step_s, TOL_EXACT);
}

/*
 * The casts before fp8 GEMMs, the small layer on an H100 (h 64, ffn 256,
 * 32 tokens, activations in 16 bits: 2 B, GEMM inputs 1 B).  Forward, the
 * QKV input (32 x 64 = 2,048 elements) is read once and written twice,
 * as is and transposed: 2,048 x (2 + 2 x 1) = 8,192 B; FC2's input (32 x
 * 256) 32,768 B.  Backward, the output gradient: of FC1 (32 x 256)
 * 32,768 B, of QKV (32 x 192) 24,576 B.  A frozen base (LoRA) takes no
 * weight gradient, so no transposed copy: 2,048 x (2 + 1) = 6,144 B.
 * 16-bit GEMMs cast nothing.  The LM head stays in 16 bits: 32 x 100 x 64
 * reads 2 x (32 x 64 + 64 x 100) = 16,896 B and writes 2 x 32 x 100 =
 * 6,400 B, 23,296 B.
 */
static void test_fp8_casts(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	(void)state;
	gpt(&w, 2, 64, 4, 100, 32);
	tc_test_gpu("h100-sxm", &g);
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_null(tc_find_op(&ws, "layer.qkv.cast"));
	w.train.precision = PREC_FP8;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_close(tc_must_op(&ws, "layer.qkv.cast")->bytes, 8192.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "layer.mlp_fc2.cast")->bytes, 32768.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "layer.mlp_fc1.bwd_d.cast")->bytes, 32768.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "layer.qkv.bwd_d.cast")->bytes, 24576.0, TOL_EXACT);
	assert_int_equal(tc_must_op(&ws, "layer.qkv")->prec, PREC_FP8);
	assert_int_equal(tc_must_op(&ws, "lm_head.fwd")->prec, PREC_BF16);
	assert_close(tc_must_op(&ws, "lm_head.fwd")->bytes, 23296.0, TOL_EXACT);
	assert_null(tc_find_op(&ws, "lm_head.fwd.cast"));
	w.train.finetune = FT_LORA;
	w.train.lora_rank = 4;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_close(tc_must_op(&ws, "layer.qkv.cast")->bytes, 6144.0, TOL_EXACT);
}

/* FLOPs of a small layer, h 64, 4 heads (d 16), ffn 256, s 32, b 1. */
static void test_layer_flops(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	(void)state;
	gpt(&w, 2, 64, 4, 100, 32);
	tc_test_a100(&g);
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	/* QKV: 2 * T * 3h * h = 2 * 32 * 192 * 64 = 786432 */
	assert_close(tc_must_op(&ws, "layer.qkv")->flop, 786432, TOL_EXACT);
	/* output projection: 2 * 32 * 64 * 64 = 262144 */
	assert_close(tc_must_op(&ws, "layer.attn_out")->flop, 262144, TOL_EXACT);
	/* FC1 and FC2: 2 * 32 * 256 * 64 = 1048576 each */
	assert_close(tc_must_op(&ws, "layer.mlp_fc1")->flop, 1048576, TOL_EXACT);
	assert_close(tc_must_op(&ws, "layer.mlp_fc2")->flop, 1048576, TOL_EXACT);
	/* scores: 2 * s * s * d * a = 2 * 32 * 32 * 16 * 4 = 131072 */
	assert_close(tc_must_op(&ws, "layer.attn_scores")->flop, 131072, TOL_EXACT);
	/* backward of a linear: data and weight gradient, each = forward */
	assert_close(tc_must_op(&ws, "layer.qkv.bwd_w")->flop, 786432, TOL_EXACT);
	assert_close(tc_must_op(&ws, "layer.qkv.bwd_d")->flop, 786432, TOL_EXACT);
	/* Model FLOPs per token: 6 * (L*(4h^2 + 2hf) + V*h) + 12*L*a*d*s
	 * = 6 * (2*(16384 + 32768) + 6400) + 12*2*4*16*32
	 * = 6 * 104704 + 49152 = 677376; 8 sequences of 32 tokens. */
	assert_close(e.model_flop_per_step, 677376.0 * 256, TOL_EXACT);
	/* no recompute: hardware FLOPs = model FLOPs */
	assert_close(e.hw_flop_per_step, e.model_flop_per_step, TOL_EXACT);
	/* per layer forward + backward = 3x forward GEMM FLOPs */
	{
		size_t i;
		double fwd = 0, all = 0;
		for (i = 0; i < ws.count; i++) {
			const struct op *o = &ws.ops[i];
			if (o->stage != OPS_LAYER || o->category == BRK_MEMBOUND)
				continue;
			all += o->flop;
			if (!strstr(o->name, ".bwd"))
				fwd += o->flop;
		}
		assert_close(all, 3 * fwd, TOL_EXACT);
	}
}

/* The layer of the activation tests: s 2048, h 4096, a 32, b 1, on one
 * GPU. */
static void activation_case(struct workload *w, struct plan *pl,
			    struct llm_shape *sh)
{
	gpt(w, 8, 4096, 32, 51200, 2048);
	memset(pl, 0, sizeof(*pl));
	pl->tp = pl->pp = pl->dp = pl->micro_batch = pl->interleave = pl->ep = 1;
	pl->count = 1;
	pl->gpus_per_node = 8;
	llm_shape_init(w, pl, sh);
}

/* Korthikanti et al. 2022 activation bytes per layer, s 2048, h 4096,
 * a 32, b 1. */
static void test_activation_bytes(void **state)
{
	struct workload w;
	struct llm_shape sh;
	struct plan pl;
	(void)state;
	activation_case(&w, &pl, &sh);
	/* sbh (34 + 5as/h) = 2048*4096 * (34 + 5*32*2048/4096) = 8388608 * 114 */
	assert_close(mem_layer_activation_bytes(&sh, w.train.recompute),
		     8388608.0 * 114,
		     TOL_EXACT);
	/* TP 8 without SP: sbh (10 + 24/8 + 5as/(8h)) = 8388608 * 23 */
	pl.tp = 8;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_activation_bytes(&sh, w.train.recompute),
		     8388608.0 * 23,
		     TOL_EXACT);
	/* TP 8 + SP + selective: 34 sbh / 8 */
	pl.sequence_parallel = 1;
	w.train.recompute = RECOMP_SELECTIVE;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_activation_bytes(&sh, w.train.recompute),
		     8388608.0 * 34 / 8,
		     TOL_EXACT);
	/* full recompute: the layer input, 2 sbh, split by SP */
	w.train.recompute = RECOMP_FULL;
	assert_close(mem_layer_activation_bytes(&sh, w.train.recompute),
		     8388608.0 * 2 / 8,
		     TOL_EXACT);
	/* flash attention drops the 5as/h term: 34 sbh (+ fp32 statistics
	 * 4*a*s*b = 262144 bytes) */
	pl.tp = 1;
	pl.sequence_parallel = 0;
	w.train.recompute = RECOMP_NONE;
	w.train.flash_attention = 1;
	llm_shape_init(&w, &pl, &sh);
	assert_close(mem_layer_activation_bytes(&sh, w.train.recompute),
		     8388608.0 * 34 + 4.0 * 32 * 2048, TOL_EXACT);
}

/*
 * Full recompute of a share s of the layers: a layer keeps on average s of
 * the full-recompute bytes and 1 - s of all of them, and the step does s of
 * the recompute work.  The shape of test_activation_bytes (sbh = 2048 x
 * 4096 = 8388608 bytes): no recompute keeps 114 sbh, full 2 sbh.
 */
static void test_recompute_share(void **state)
{
	struct workload w;
	struct llm_shape sh;
	struct plan pl;
	struct gpu g;
	struct estimate none, full, part;
	struct plan_problem why;
	(void)state;
	activation_case(&w, &pl, &sh);
	w.train.recompute = RECOMP_FULL;
	/* 0.25 x 2 + 0.75 x 114 = 0.5 + 85.5 = 86 sbh */
	w.train.recompute_frac = 0.25;
	assert_close(mem_layer_kept_bytes(&sh, &w.train), 8388608.0 * 86,
		     TOL_EXACT);
	/* 1, or unset: every layer */
	w.train.recompute_frac = 1;
	assert_close(mem_layer_kept_bytes(&sh, &w.train), 8388608.0 * 2,
		     TOL_EXACT);
	w.train.recompute_frac = 0;
	assert_close(mem_layer_kept_bytes(&sh, &w.train), 8388608.0 * 2,
		     TOL_EXACT);

	/* One GPU overlaps nothing, so the step is linear in the share. */
	tc_test_a100(&g);
	w.train.recompute = RECOMP_NONE;
	assert_int_equal(step_estimate(&w, &g, &ws, &none, &why), 0);
	w.train.recompute = RECOMP_FULL;
	assert_int_equal(step_estimate(&w, &g, &ws, &full, &why), 0);
	w.train.recompute_frac = 0.25;
	assert_int_equal(step_estimate(&w, &g, &ws, &part, &why), 0);
	assert_true(full.step_time_s > none.step_time_s);
	assert_close(part.step_time_s,
		     none.step_time_s +
			     0.25 * (full.step_time_s - none.step_time_s),
		     TOL_TIGHT);
	assert_close(part.hw_flop_per_step,
		     none.hw_flop_per_step +
			     0.25 * (full.hw_flop_per_step -
				     none.hw_flop_per_step),
		     TOL_TIGHT);
	assert_close(part.model_flop_per_step, none.model_flop_per_step,
		     TOL_EXACT);
}

/* ZeRO: 2 + 2 + 12 bytes per parameter, sharded stage by stage. */
static void test_zero_memory(void **state)
{
	struct workload w;
	struct llm_shape sh;
	struct plan pl;
	double part[MEM_COUNT], P;
	int z;
	(void)state;
	gpt(&w, 4, 1024, 16, 51200, 1024);
	w.train.global_batch = 64;
	memset(&pl, 0, sizeof(pl));
	pl.tp = pl.pp = pl.micro_batch = pl.interleave = pl.ep = 1;
	pl.dp = pl.count = 8;
	pl.gpus_per_node = 8;
	for (z = 0; z <= 3; z++) {
		pl.zero = z;
		llm_shape_init(&w, &pl, &sh);
		mem_estimate(&w, &pl, &sh, part);
		P = sh.stage_params_first;
		assert_close(part[MEM_WEIGHTS], z >= 3 ? 2 * P / 8 : 2 * P,
			     TOL_TIGHT);
		assert_close(part[MEM_GRADS], z >= 2 ? 2 * P / 8 : 2 * P,
			     TOL_TIGHT);
		assert_close(part[MEM_OPTIMIZER], z >= 1 ? 12 * P / 8 : 12 * P,
			     TOL_TIGHT);
	}
	/* parameters: L (12h^2 + 13h) + V h + s h (positions) */
	assert_close(sh.params, 4 * (12.0 * 1024 * 1024 + 13 * 1024) +
				       51200.0 * 1024 + 1024.0 * 1024 + 2048,
		     TOL_EXACT);
}

/* Ring volumes: all-reduce 2(n-1)/n, the others (n-1)/n. */
static void test_ring_volume(void **state)
{
	struct gpu g;
	struct plan pl;
	struct comm_group grp = { 8, 8 };
	double t1, t2;
	(void)state;
	assert_close(comm_volume(COLL_ALLREDUCE, 8, 1e9), 1.75e9, TOL_EXACT);
	assert_close(comm_volume(COLL_REDUCE_SCATTER, 8, 1e9), 0.875e9,
		     TOL_EXACT);
	assert_close(comm_volume(COLL_ALLGATHER, 4, 1e9), 0.75e9, TOL_EXACT);
	assert_close(comm_volume(COLL_ALLREDUCE, 1, 1e9), 0, TOL_EXACT);
	assert_close(comm_steps(COLL_ALLREDUCE, 8), 14, TOL_EXACT);
	/* a send is one step, whatever the group */
	assert_close(comm_steps(COLL_P2P, 2), 1, TOL_EXACT);
	/* 1 GiB over 8 A100 SXM: NCCL measured 8.19 ms (vTrain curve);
	 * the fitted model within 10 %. */
	tc_test_a100(&g);
	memset(&pl, 0, sizeof(pl));
	t1 = comm_time_s(&g, &pl, COLL_ALLREDUCE, grp, 1073741824.0);
	assert_close(t1, 8.19e-3, 0.10);
	/* across 2 nodes the ring runs over the NICs, slower than NVLink */
	grp.n = 16;
	pl.network_bytes_per_s = 50e9;
	t2 = comm_time_s(&g, &pl, COLL_ALLREDUCE, grp, 1073741824.0);
	assert_true(t2 > t1);
}

/* Bubble time over the pipeline's busy time (the step less bubble and
 * optimizer). */
static double bubble_ratio(const struct estimate *e)
{
	return e->breakdown_s[BRK_BUBBLE] /
	       (e->step_time_s - e->breakdown_s[BRK_BUBBLE] -
		e->breakdown_s[BRK_OPTIMIZER]);
}

/* Bubble: (p-1)/m of the ideal time, (p-1)/(v m) interleaved when the
 * pipeline is full (m >= p).  Within 3 %: the formulas assume equal
 * stages, and even with a tiny vocabulary the first stage still holds the
 * embedding and the last the final norm, head and loss. */
static void test_bubble(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	double ratio;
	(void)state;
	gpt(&w, 32, 4096, 32, 128, 2048); /* tiny vocab: stages balanced */
	w.train.global_batch = 16;
	w.plan.count = 4;
	w.plan.pp = 4;
	tc_test_a100(&g);
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_int_equal(e.micro_batches, 16);
	ratio = bubble_ratio(&e);
	assert_close(ratio, 3.0 / 16, 0.03);
	w.plan.interleave = 2;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	ratio = bubble_ratio(&e);
	assert_close(ratio, 3.0 / 32, 0.03);

	/* Fewer micro-batches than stages: a micro-batch passes the p stages
	 * in turn, T = t_sum + (m - 1) t / v.  p = 4 equal stages of time t:
	 * m = 1: T = 4t, busy t, bubble 3t (ratio 3, with or without v);
	 * m = 2, v = 2: T = 4t + t/2, busy 2t, bubble 2.5t (ratio 1.25, not
	 * the (p-1)/(v m) = 0.75 of a full pipeline). */
	w.train.global_batch = 1;
	w.plan.interleave = 1;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_int_equal(e.micro_batches, 1);
	ratio = bubble_ratio(&e);
	assert_close(ratio, 3.0, 0.03);
	w.plan.interleave = 2;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	ratio = bubble_ratio(&e);
	assert_close(ratio, 3.0, 0.03);
	w.train.global_batch = 2;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_int_equal(e.micro_batches, 2);
	ratio = bubble_ratio(&e);
	assert_close(ratio, 1.25, 0.03);
}

/* The bubble of each schedule on 4 equal stages whose micro-batch takes
 * t_F = t_B = t_W = 1 s (t = 3 s, t_sum = 12 s, t_max = 3 s). */
static void test_schedule_bubble(void **state)
{
	struct sched_stages st = { .p = 4, .m = 8, .v = 1, .t_sum = 12,
				   .t_max = 3, .t_w = 1 };
	(void)state;
	/* 1F1B: (p-1) t = 9 s. */
	assert_close(sched_bubble_s(SCHED_1F1B, &st), 9, TOL_EXACT);
	/* ZB-H1, m >= p: (p-1)(t_F + t_B - t_W) = 3 x 1 = 3 s, a third of
	 * 1F1B's (Qi et al. sec. 3.1). */
	assert_close(sched_bubble_s(SCHED_ZERO_BUBBLE, &st), 3, TOL_EXACT);
	/* Interleaved, v = 2, m >= p: 9 / 2 = 4.5 s. */
	st.v = 2;
	assert_close(sched_bubble_s(SCHED_INTERLEAVED, &st), 4.5, TOL_EXACT);
	/* m = 1: no W can fill the drain, only the B chain is shorter:
	 * 9 - 3 x 1 = 6 s = (p-1)(t_F + t_B); interleaving cannot help:
	 * 12 + 0 - 3 = 9 s. */
	st.m = 1;
	assert_close(sched_bubble_s(SCHED_INTERLEAVED, &st), 9, TOL_EXACT);
	st.v = 1;
	assert_close(sched_bubble_s(SCHED_ZERO_BUBBLE, &st), 6, TOL_EXACT);
	/* m = 2: one deferred W fills the drain: 9 - 3 - 1 = 5 s. */
	st.m = 2;
	assert_close(sched_bubble_s(SCHED_ZERO_BUBBLE, &st), 5, TOL_EXACT);
	/* Nothing to defer (frozen weights): ZB-H1 is 1F1B. */
	st.t_w = 0;
	assert_close(sched_bubble_s(SCHED_ZERO_BUBBLE, &st), 9, TOL_EXACT);
	/* Unequal stages, 1 s and 10 s a micro-batch (t_sum 11 s, t_max 10
	 * s), 3 s of W on the slow one: the fill, 1 s, is shorter than the
	 * W's taken off the chain and deferred, 1 x 3 + min(3, 1) x 3 = 6
	 * s; the bubble is none, never negative. */
	st = (struct sched_stages){ .p = 2, .m = 4, .v = 1, .t_sum = 11,
				    .t_max = 10, .t_w = 3 };
	assert_close(sched_bubble_s(SCHED_ZERO_BUBBLE, &st), 0, TOL_EXACT);
	st = (struct sched_stages){ .p = 1, .m = 4, .v = 1, .t_sum = 3,
				    .t_max = 3, .t_w = 1 };
	assert_close(sched_bubble_s(SCHED_ZERO_BUBBLE, &st), 0, TOL_EXACT);
	/* In flight on the first stage: min(p, m) for 1F1B and ZB-H1;
	 * x (1 + 3/8) for v = 2. */
	assert_close(sched_inflight(SCHED_1F1B, 4, 8, 1, 0), 4, TOL_EXACT);
	assert_close(sched_inflight(SCHED_ZERO_BUBBLE, 4, 2, 1, 0), 2,
		     TOL_EXACT);
	assert_close(sched_inflight(SCHED_INTERLEAVED, 4, 8, 2, 0), 5.5,
		     TOL_EXACT);
	/* On the second: min(p - 1, m) = 3; interleaved, Megatron-Core's
	 * warm-up of (p - i - 1) x 2 + (v - 1) x p = 4 + 4 = 8 chunks plus
	 * the one in its forward, 9 chunks of 1/2 micro-batch = 4.5 (the
	 * first stage: 6 + 4 + 1 = 11 chunks, the 5.5 above). */
	assert_close(sched_inflight(SCHED_1F1B, 4, 8, 1, 1), 3, TOL_EXACT);
	assert_close(sched_inflight(SCHED_INTERLEAVED, 4, 8, 2, 1), 4.5,
		     TOL_EXACT);
	assert_int_equal(sched_resolve(SCHED_DEFAULT, 1), SCHED_1F1B);
	assert_int_equal(sched_resolve(SCHED_DEFAULT, 3), SCHED_INTERLEAVED);
	/* The planner's layouts: no schedule without a pipeline, interleaved
	 * with chunks, else the one named. */
	assert_int_equal(sched_for_layout(SCHED_ZERO_BUBBLE, 1, 1),
			 SCHED_DEFAULT);
	assert_int_equal(sched_for_layout(SCHED_ZERO_BUBBLE, 4, 2),
			 SCHED_INTERLEAVED);
	assert_int_equal(sched_for_layout(SCHED_ZERO_BUBBLE, 4, 1),
			 SCHED_ZERO_BUBBLE);
	assert_int_equal(sched_for_layout(SCHED_INTERLEAVED, 4, 1), SCHED_1F1B);
	assert_int_equal(sched_for_layout(SCHED_DEFAULT, 4, 1), SCHED_DEFAULT);
}

/* Seconds of the weight-gradient GEMMs of the last stage in one
 * micro-batch, read from the operator list of the last estimate (the
 * attention's ".bwd_w" GEMMs take gradients of activations, not weights). */
static double last_stage_wgrad_s(double layers_per_stage)
{
	double t = 0;
	size_t i;
	for (i = 0; i < ws.count; i++) {
		const struct op *o = &ws.ops[i];
		size_t n = strlen(o->name);
		if (n < 6 || strcmp(o->name + n - 6, ".bwd_w") ||
		    !strncmp(o->name, "layer.attn_scores", 17) ||
		    !strncmp(o->name, "layer.attn_context", 18))
			continue;
		if (o->stage == OPS_LAYER)
			t += layers_per_stage * o->time_s;
		else if (o->stage == OPS_LAST)
			t += o->time_s;
	}
	return t;
}

/* A whole estimate under ZB-H1: the bubble is 1F1B's less 2 (p-1) t_W
 * (m >= p), the memory is 1F1B's, and the gain lies between nothing and
 * the whole bubble. */
static void test_zero_bubble_estimate(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate one, zb;
	struct plan_problem why;
	double tw;
	(void)state;
	gpt(&w, 32, 4096, 32, 128, 2048);
	w.train.global_batch = 16;
	w.plan.count = 4;
	w.plan.pp = 4;
	tc_test_a100(&g);
	w.plan.schedule = SCHED_1F1B;
	assert_int_equal(step_estimate(&w, &g, &ws, &one, &why), 0);
	w.plan.schedule = SCHED_ZERO_BUBBLE;
	assert_int_equal(step_estimate(&w, &g, &ws, &zb, &why), 0);
	/* The last stage is the critical one (its loss and head outweigh the
	 * embedding): t_W is its 8 layers' and the head's. */
	tw = last_stage_wgrad_s(32 / 4);
	assert_true(tw > 0);
	/* p = 4, m = 16: 1F1B - 3 t_W - min(15, 3) t_W. */
	assert_close(zb.breakdown_s[BRK_BUBBLE],
		     one.breakdown_s[BRK_BUBBLE] - 6 * tw, 1e-9);
	assert_true(zb.breakdown_s[BRK_BUBBLE] > 0);
	assert_true(zb.step_time_s < one.step_time_s);
	assert_close(zb.memory_per_gpu_bytes, one.memory_per_gpu_bytes,
		     TOL_EXACT);
	assert_int_equal(zb.plan.schedule, SCHED_ZERO_BUBBLE);
	/* Without a schedule named, interleave picks it. */
	w.plan.schedule = SCHED_DEFAULT;
	w.plan.interleave = 2;
	assert_int_equal(step_estimate(&w, &g, &ws, &one, &why), 0);
	assert_int_equal(one.plan.schedule, SCHED_INTERLEAVED);
	/* Frozen weights (LoRA): hardly any W to defer, hardly any gain. */
	w.plan.interleave = 1;
	w.train.finetune = FT_LORA;
	w.train.lora_rank = 8;
	w.plan.schedule = SCHED_1F1B;
	assert_int_equal(step_estimate(&w, &g, &ws, &one, &why), 0);
	w.plan.schedule = SCHED_ZERO_BUBBLE;
	assert_int_equal(step_estimate(&w, &g, &ws, &zb, &why), 0);
	assert_close(zb.breakdown_s[BRK_BUBBLE], one.breakdown_s[BRK_BUBBLE],
		     1e-9);
}

/* Schedules that do not fit the plan are refused with the field named. */
static void test_schedule_checks(void **state)
{
	static const struct {
		enum pp_schedule s;
		int pp, v;
		const char *msg;
	} bad[] = {
		{ SCHED_ZERO_BUBBLE, 1, 1, "schedule zero-bubble needs pipeline "
		  "parallelism (expected pp > 1)" },
		{ SCHED_INTERLEAVED, 4, 1, "schedule interleaved needs "
		  "interleave 2 or more (expected the model chunks per GPU in "
		  "plan.interleave)" },
		{ SCHED_1F1B, 4, 2, "schedule 1f1b runs one model chunk per GPU, "
		  "not interleave 2 (expected interleave 1 or schedule "
		  "interleaved)" },
		{ SCHED_ZERO_BUBBLE, 4, 2, "schedule zero-bubble runs one model "
		  "chunk per GPU, not interleave 2 (expected interleave 1 or "
		  "schedule interleaved)" },
	};
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	size_t i;
	(void)state;
	tc_test_a100(&g);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		gpt(&w, 32, 4096, 32, 128, 2048);
		w.train.global_batch = 16;
		w.plan.count = bad[i].pp;
		w.plan.pp = bad[i].pp;
		w.plan.interleave = bad[i].v;
		w.plan.schedule = bad[i].s;
		assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), -1);
		assert_int_equal(why.field, WLF_SCHEDULE);
		assert_string_equal(why.msg, bad[i].msg);
	}
}

/* Llama-2-70B-like on 64 GPUs: the shared workload of the relations. */
static void llama70(struct workload *w)
{
	tc_llama(w, 80, 8192, 64, 8, 28672, 32000);
	w->train.seq_len = 4096;
	w->train.global_batch = 1024;
	w->train.tokens = 2e12;
	w->train.recompute = RECOMP_SELECTIVE;
	w->plan.count = 512;
	w->plan.tp = 8;
	w->plan.pp = 4;
	w->plan.micro_batch = 1;
	w->plan.zero = 1;
	w->plan.sequence_parallel = 1;
	w->plan.network_bytes_per_s = 50e9;
}

static double sum_brk(const struct estimate *e)
{
	double s = 0;
	int k;
	for (k = 0; k < BRK_COUNT; k++)
		s += e->breakdown_s[k];
	return s;
}

static void test_relations(void **state)
{
	struct workload w, w2;
	struct gpu g, pcie;
	struct estimate a, b;
	struct plan_problem why;
	int n;
	(void)state;
	llama70(&w);
	tc_test_a100(&g);
	assert_int_equal(step_estimate(&w, &g, &ws, &a, &why), 0);
	/* breakdown adds up; rates finite; MFU <= HFU <= 1 */
	assert_close(sum_brk(&a), a.step_time_s, TOL_TIGHT);
	assert_true(a.mfu_frac > 0.2 && a.mfu_frac <= a.hfu_frac);
	assert_true(a.hfu_frac <= 1);
	assert_close(a.gpu_hours, a.total_time_s * 512 / 3600, TOL_TIGHT);

	/* doubling GPUs (dp) at fixed global batch never slows compute */
	for (n = 64; n <= 512; n *= 2) {
		w2 = w;
		w2.plan.count = n;
		assert_int_equal(step_estimate(&w2, &g, &ws, &a, &why), 0);
		w2.plan.count = 2 * n;
		assert_int_equal(step_estimate(&w2, &g, &ws, &b, &why), 0);
		assert_true(b.breakdown_s[BRK_GEMM] <=
			    a.breakdown_s[BRK_GEMM]);
		assert_true(b.step_time_s <= a.step_time_s);
	}

	/* full recompute: slower, less memory than none */
	w2 = w;
	w2.train.recompute = RECOMP_NONE;
	w2.train.flash_attention = 0;
	assert_int_equal(step_estimate(&w2, &g, &ws, &a, &why), 0);
	w2.train.recompute = RECOMP_FULL;
	assert_int_equal(step_estimate(&w2, &g, &ws, &b, &why), 0);
	assert_true(b.step_time_s > a.step_time_s);
	assert_true(b.memory_per_gpu_bytes < a.memory_per_gpu_bytes);
	assert_true(b.hw_flop_per_step > a.hw_flop_per_step);
	assert_close(b.model_flop_per_step, a.model_flop_per_step, TOL_EXACT);

	/* bf16 faster than fp32 */
	w2 = w;
	assert_int_equal(step_estimate(&w2, &g, &ws, &a, &why), 0);
	w2.train.precision = PREC_FP32;
	assert_int_equal(step_estimate(&w2, &g, &ws, &b, &why), 0);
	assert_true(a.step_time_s < b.step_time_s);

	/* A100 SXM never slower than A100 PCIe (1935 GB/s, no NVLink) */
	pcie = g;
	strcpy(pcie.id, "a100-80gb-pcie");
	pcie.mem_bytes_per_s = 1935e9;
	pcie.nvlink_bytes_per_s = 0;
	pcie.tdp_w = 300;
	assert_int_equal(step_estimate(&w, &g, &ws, &a, &why), 0);
	assert_int_equal(step_estimate(&w, &pcie, &ws, &b, &why), 0);
	assert_true(a.step_time_s <= b.step_time_s);
	assert_true(b.breakdown_s[BRK_TP_COMM] > a.breakdown_s[BRK_TP_COMM]);
}

/* The memory check flips exactly at capacity. */
static void test_memory_flip(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	double need;
	(void)state;
	llama70(&w);
	tc_test_a100(&g);
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	need = e.memory_per_gpu_bytes;
	g.memory_bytes = need;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_true(e.fits);
	assert_string_equal(e.fit_advice, "");
	g.memory_bytes = nextafter(need, 0);
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_false(e.fits);
	assert_non_null(strstr(e.fit_advice, "would fit"));
}

/* Llama 2 70B on 64 GPUs, tp 8 and pure data parallelism, no ZeRO, no
 * recompute: does not fit in 80 GB. */
static void llama70_no_fit(struct workload *w)
{
	llama70(w);
	w->plan.count = 64;
	w->plan.tp = 8;
	w->plan.pp = 1;
	w->plan.zero = 0;
	w->train.recompute = RECOMP_NONE;
	w->train.global_batch = 64;
	w->plan.micro_batch = 1;
}

/* An 8-GPU plan of a 70B model does not fit; the advice names a fix that
 * the memory model confirms. */
static void test_fit_advice(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	(void)state;
	llama70_no_fit(&w);
	tc_test_a100(&g);
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_false(e.fits);
	assert_non_null(strstr(e.fit_advice, "needs "));
	assert_non_null(strstr(e.fit_advice, "would fit"));
}

/*
 * A smaller micro-batch is advised only where it divides the rank's share
 * of the global batch, so that the workload can state it.  Llama 2 70B on
 * 64 GPUs, tp 8, dp 8, ZeRO 3, every layer recomputed (so only a smaller
 * micro-batch, or more tp or pp, is left to advise), global batch 72: 9
 * sequences a rank.  With the GPU's memory set to what micro-batch 3
 * takes, 4 no longer fits; halving from 9 would try 4, then advise 2,
 * which does not divide 9 (72 / (8 x 2) = 4.5 micro-batches).  The
 * divisors of 9 below 9 are 3 and 1: the advice is micro_batch 3, and the
 * plan it names estimates and fits.
 */
static void test_fit_advice_micro_batch_divides(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	double need3;
	(void)state;
	llama70_no_fit(&w);
	w.plan.zero = 3;
	w.train.recompute = RECOMP_FULL;
	w.train.global_batch = 72;
	tc_test_a100(&g);
	w.plan.micro_batch = 3;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	need3 = e.memory_per_gpu_bytes;
	w.plan.micro_batch = 4; /* not a divisor of 9: the plan is refused, */
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), -1);
	w.plan.micro_batch = 9;
	g.memory_bytes = need3;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_false(e.fits);
	assert_non_null(strstr(e.fit_advice, "micro_batch: 3 would fit"));
	w.plan.micro_batch = 3;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_true(e.fits);
}

/*
 * ZeRO 3 alone is advised when it is the least change that fits.  The
 * 70B plan with every layer already recomputed (so no recompute change is
 * left to advise) and ZeRO 0, on a GPU with exactly the memory the same
 * plan takes under ZeRO 3: ZeRO 1 and 2 still hold the whole weights, so
 * the advice is zero 3, before any change of micro-batch, tp or pp.
 */
static void test_fit_advice_zero3(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	(void)state;
	llama70_no_fit(&w);
	w.train.recompute = RECOMP_FULL;
	tc_test_a100(&g);
	w.plan.zero = 3;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	g.memory_bytes = e.memory_per_gpu_bytes;
	w.plan.zero = 0;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_false(e.fits);
	assert_non_null(strstr(e.fit_advice, "available; zero: 3 would fit"));
}

/*
 * Where no single change fits, the advice combines them, and names only
 * what changes: the 70B plan with every layer already recomputed, ZeRO 0
 * and micro-batch 2, on a GPU with the memory of the same plan under ZeRO
 * 3 at micro-batch 1.  Neither change alone fits (ZeRO 3 still holds two
 * sequences' activations, micro-batch 1 the whole weights); together they
 * do, and recompute is not among them.
 */
static void test_fit_advice_combined_changes(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	(void)state;
	llama70_no_fit(&w);
	w.train.recompute = RECOMP_FULL;
	tc_test_a100(&g);
	w.plan.zero = 3;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	g.memory_bytes = e.memory_per_gpu_bytes;
	w.plan.zero = 0;
	w.plan.micro_batch = 2;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_false(e.fits);
	assert_non_null(strstr(e.fit_advice, "available; zero: 3, "
			       "micro_batch: 1, pp: 1 would fit"));
}

/*
 * ZeRO is advised only where it shards: a combined change that leaves one
 * data-parallel rank keeps the plan's ZeRO stage (ZeRO 3 over one rank
 * would only add its gathered layers).  A 2-layer decoder (h 1024, 8
 * heads, ffn 2048, vocabulary 32,000) on 2 GPUs, one a node (so no tp),
 * dp 2, micro-batch 4, no recompute; the GPU has the
 * memory of the plan at full recompute, micro-batch 1, pp 2 and dp 1,
 * which no single change reaches: that plan is the advice, ZeRO 0 kept.
 */
static void test_fit_advice_zero_needs_ranks(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	(void)state;
	tc_test_a100(&g);
	tc_llama(&w, 2, 1024, 8, 8, 2048, 32000);
	w.train.seq_len = 1024;
	w.train.global_batch = 8;
	w.train.steps = 1;
	w.plan.count = 2;
	w.plan.gpus_per_node = 1;
	w.plan.pp = 2;
	w.plan.micro_batch = 1;
	w.train.recompute = RECOMP_FULL;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	g.memory_bytes = e.memory_per_gpu_bytes;
	w.plan.pp = 1;
	w.plan.micro_batch = 4;
	w.train.recompute = RECOMP_NONE;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_false(e.fits);
	assert_non_null(strstr(e.fit_advice, "available; recompute: full, "
			       "zero: 0, micro_batch: 1, pp: 2 would fit"));
}

/* The logit-heavy decoder of the next two cases: 2 layers, h 512, 8
 * heads (kv_heads of them for K and V), ffn 2048, vocabulary 256,000, one
 * step of global_batch sequences of 32,768 tokens, every layer
 * recomputed, micro-batch 1, tp 2 on `count` GPUs. */
static void logit_heavy(struct workload *w, int kv_heads, int count, int global_batch)
{
	tc_llama(w, 2, 512, 8, kv_heads, 2048, 256000);
	w->train.seq_len = 32768;
	w->train.global_batch = global_batch;
	w->train.steps = 1;
	w->train.recompute = RECOMP_FULL;
	w->plan.micro_batch = 1;
	w->plan.tp = 2;
	w->plan.count = count;
}

/*
 * The advice keeps the GPU count: more tensor parallelism is advised only
 * where it divides the data-parallel ranks.  A small decoder (2 layers, h
 * 512, 8 heads, vocabulary 256,000) at 32,768 tokens a sequence keeps
 * mostly logits, 32,768 x 256,000 x 6 B = 50.3 GB, which only tp splits.
 * On 3 GPUs (dp 3, every layer recomputed, micro-batch 1) with the memory
 * that tp 2 takes on 2 GPUs, tp 2 would need dp 1.5: nothing at 3 GPUs
 * fits.
 */
static void test_fit_advice_keeps_gpu_count(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	(void)state;
	logit_heavy(&w, 8, 2, 1);
	tc_test_a100(&g);
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	g.memory_bytes = e.memory_per_gpu_bytes;
	w.train.global_batch = 3;
	w.plan.tp = 1;
	w.plan.count = 3;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_false(e.fits);
	assert_non_null(strstr(e.fit_advice, "no change of recompute, zero, "
			       "micro_batch, tp or pp at 3 GPUs fits"));
}

/*
 * More tensor parallelism is advised only where it divides the kv heads
 * too.  The logit-heavy decoder of the previous case with 2 kv heads, at
 * tp 2 on 4 GPUs (dp 2): its logits alone take 32,768 x 256,000 x 6 B / 2
 * = 25.2 GB a GPU, more than a 20 GB GPU; tp 4 would split them to 12.6
 * GB, but 4 does not divide the 2 kv heads, and nothing else at 4 GPUs
 * splits them.
 */
static void test_fit_advice_tp_divides_kv_heads(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	(void)state;
	logit_heavy(&w, 2, 4, 2);
	tc_test_a100(&g);
	g.memory_bytes = 20e9;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_false(e.fits);
	assert_null(strstr(e.fit_advice, "tp: 4"));
	assert_non_null(strstr(e.fit_advice, "no change of recompute, zero, "
			       "micro_batch, tp or pp at 4 GPUs fits"));
}

/*
 * Tensor parallelism within one node is the usual layout and draws no
 * warning: tp 8 on nodes of 8 GPUs.  On nodes of 4 GPUs the same tp 8
 * crosses the network, and is warned of.
 */
static void test_tp_spanning_nodes_warning(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	(void)state;
	llama70(&w);
	tc_test_a100(&g);
	w.plan.gpus_per_node = 8;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_false(tc_warned(&e, "spans nodes"));
	w.plan.gpus_per_node = 4;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_true(tc_warned(&e, "tp 8 spans nodes of 4 GPUs"));
}

/* step_estimate_brief() is step_estimate() less the advice: the same
 * figures, the same operators, an empty fit_advice. */
static void test_brief_estimate(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate full, brief;
	struct plan_problem why;
	size_t nops;
	(void)state;
	llama70_no_fit(&w);
	tc_test_a100(&g);
	assert_int_equal(step_estimate(&w, &g, &ws, &full, &why), 0);
	nops = ws.count;
	assert_int_equal(step_estimate_brief(&w, &g, &ws, &brief, &why), 0);
	assert_false(brief.fits);
	assert_string_equal(brief.fit_advice, "");
	assert_non_null(strstr(full.fit_advice, "would fit"));
	assert_int_equal(ws.count, nops);
	assert_true(brief.step_time_s == full.step_time_s);
	assert_true(brief.memory_per_gpu_bytes == full.memory_per_gpu_bytes);
	assert_true(brief.mfu_frac == full.mfu_frac);
	assert_int_equal(brief.warning_count, full.warning_count);
	/* The run-length limit still holds. */
	w.train.tokens = 1e30;
	assert_int_equal(step_estimate_brief(&w, &g, &ws, &brief, &why), -1);
	assert_int_equal(why.field, WLF_TOKENS);
}

/*
 * ZeRO shards an expert's optimizer state over the ranks that hold that
 * expert, dp / ep, not over dp.  A tiny MoE (2 layers, h 64, 4 heads, ffn
 * 128 GELU, 8 experts, no bias, RMSNorm, RoPE, untied vocab 100) on 8 GPUs,
 * dp 8, ep 8, ZeRO 1, fp16 AdamW (12 B of optimizer state per parameter):
 *   per layer: attention 4 * 64 * 64 = 16,384; router 64 * 8 = 512; norms
 *   2 * 64 = 128; one expert (128 + 128) * 64 = 16,384 (8 / ep 8 = one).
 *   shared: 2 * (16,384 + 512 + 128) + embedding 6,400 + head 6,400 +
 *   final norm 64 = 46,912; experts: 2 * 16,384 = 32,768.
 *   optimizer: 46,912 * 12 / 8 + 32,768 * 12 / (8 / 8) = 70,368 + 393,216
 *   = 463,584 B (sharding all of it over dp 8 gave 119,520 B).
 */
static void test_moe_zero_shards_experts_over_their_group(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	(void)state;
	gpt(&w, 2, 64, 4, 100, 128);
	w.llm.ffn = 128;
	w.llm.experts = 8;
	w.llm.top_k = 2;
	w.llm.bias = 0;
	w.llm.norm = NORM_RMSNORM;
	w.llm.positions = POS_ROPE;
	w.llm.tied_embeddings = 0;
	w.plan.count = 8;
	w.plan.ep = 8;
	w.plan.zero = 1;
	tc_test_a100(&g);
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_close(e.mem_bytes[MEM_OPTIMIZER], 463584.0, TOL_EXACT);
	/* ZeRO 2: gradients the same way, 2 B each: 46,912 * 2 / 8 +
	 * 32,768 * 2 = 11,728 + 65,536 = 77,264 B. */
	w.plan.zero = 2;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_close(e.mem_bytes[MEM_GRADS], 77264.0, TOL_EXACT);
	/* LoRA rank 4: adapters per layer 4 * (64 + 192) + 4 * (64 + 64) =
	 * 1,536 shared and 8 * 4 * (64 + 128 + 128 + 64) = 12,288 for the
	 * experts, one eighth of them on this GPU: 2 * 1,536 shared, 2 *
	 * 1,536 expert.  ZeRO 1: 3,072 * 12 / 8 + 3,072 * 12 = 41,472 B. */
	w.plan.zero = 1;
	w.train.finetune = FT_LORA;
	w.train.lora_rank = 4;
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	assert_close(e.mem_bytes[MEM_OPTIMIZER], 41472.0, TOL_EXACT);
}

/* A small MoE: 8 experts, top 2, hidden 64, expert FFN 128, 8 GPUs. */
static void small_moe(struct workload *w, int ep)
{
	gpt(w, 2, 64, 4, 100, 128);
	w->llm.ffn = 128;
	w->llm.experts = 8;
	w->llm.top_k = 2;
	w->llm.bias = 0;
	w->llm.norm = NORM_RMSNORM;
	w->llm.positions = POS_ROPE;
	w->llm.tied_embeddings = 0;
	w->plan.count = 8;
	w->plan.ep = ep;
	w->plan.zero = 1;
}

/* The token shuffles of the all-to-all dispatcher, and the capacity
 * factor in time and memory. */
static void test_moe_dispatch_and_capacity(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate one, cf;
	struct plan_problem why;
	const struct op *o;
	double fc1_flop, act;
	(void)state;
	tc_test_a100(&g);
	/* ep 4: 2 experts per GPU.  T = 1 x 128 tokens, 256 pairs, 2 B:
	 * permute (256 + 128) x 64 x 2 + 4 x 256 = 50,176 B; sort of the
	 * pairs that arrive, 2 x 256 x 64 x 2 = 65,536 B. */
	small_moe(&w, 4);
	assert_int_equal(step_estimate(&w, &g, &ws, &one, &why), 0);
	o = tc_must_op(&ws, "layer.moe_permute");
	assert_non_null(o);
	assert_close(o->bytes, 50176.0, TOL_EXACT);
	o = tc_must_op(&ws, "layer.moe_sort");
	assert_non_null(o);
	assert_close(o->bytes, 65536.0, TOL_EXACT);
	assert_non_null(tc_find_op(&ws, "layer.moe_unpermute.bwd"));
	assert_non_null(tc_find_op(&ws, "layer.moe_unsort.bwd"));
	/* fc1 (not gated): 2 x 256 pairs x 128 x 64 = 4,194,304 FLOP over
	 * the two local experts. */
	o = tc_must_op(&ws, "layer.mlp_fc1");
	assert_non_null(o);
	fc1_flop = o->flop;
	assert_close(fc1_flop, 4194304.0, TOL_EXACT);
	act = one.mem_bytes[MEM_ACTIVATIONS];

	/* Capacity factor 1.5: the busiest rank computes 384 pairs, fc1
	 * 6,291,456 FLOP; sorting 1.5 x 65,536 B; the model FLOPs (useful
	 * work) do not change. */
	w.train.capacity_factor = 1.5;
	assert_int_equal(step_estimate(&w, &g, &ws, &cf, &why), 0);
	assert_close(tc_must_op(&ws, "layer.mlp_fc1")->flop, 1.5 * fc1_flop,
		     TOL_EXACT);
	assert_close(tc_must_op(&ws, "layer.moe_sort")->bytes, 98304.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "layer.moe_permute")->bytes, 50176.0, TOL_EXACT);
	assert_true(tc_must_op(&ws, "layer.ep_dispatch")->bytes == 1.5 * 256 * 64 * 2);
	assert_close(cf.model_flop_per_step, one.model_flop_per_step,
		     TOL_EXACT);
	/* Activations: the experts' 2 x (128 + 128) + ... grow, the rest
	 * does not: more memory, less than 1.5 x. */
	assert_true(cf.mem_bytes[MEM_ACTIVATIONS] > act);
	assert_true(cf.mem_bytes[MEM_ACTIVATIONS] < 1.5 * act);

	/* Large enough that kernels are not latency-bound: strictly slower,
	 * lower MFU. */
	w.llm.hidden = 1024;
	w.llm.ffn = 2048;
	w.llm.heads = 16;
	w.train.seq_len = 2048;
	w.train.capacity_factor = 0;
	assert_int_equal(step_estimate(&w, &g, &ws, &one, &why), 0);
	w.train.capacity_factor = 1.5;
	assert_int_equal(step_estimate(&w, &g, &ws, &cf, &why), 0);
	assert_true(cf.step_time_s > one.step_time_s);
	assert_true(cf.mfu_frac < one.mfu_frac);

	/* One expert per GPU: nothing to sort. */
	small_moe(&w, 8);
	assert_int_equal(step_estimate(&w, &g, &ws, &one, &why), 0);
	assert_null(tc_find_op(&ws, "layer.moe_sort"));
	assert_non_null(tc_find_op(&ws, "layer.moe_permute"));

	/* Out of range: above experts / top_k = 4, or on a dense model. */
	small_moe(&w, 4);
	w.train.capacity_factor = 4.5;
	assert_int_equal(step_estimate(&w, &g, &ws, &cf, &why), -1);
	assert_int_equal(why.field, WLF_CAPACITY_FACTOR);
	assert_string_equal(why.msg, "capacity_factor 4.5 is above experts / "
			    "top_k = 4 (expected at most the factor at which "
			    "one expert takes every token)");
	gpt(&w, 2, 64, 4, 100, 128);
	w.train.capacity_factor = 1.25;
	assert_int_equal(step_estimate(&w, &g, &ws, &cf, &why), -1);
	assert_int_equal(why.field, WLF_CAPACITY_FACTOR);
	assert_string_equal(why.msg, "capacity_factor 1.25 needs a mixture of "
			    "experts (expected experts greater than 1, or no "
			    "capacity_factor)");
}

/* Grouped expert GEMMs pay the fixed per-GEMM cost each: slower than
 * one batched kernel of the same work, as fast as one GEMM alone. */
static void test_grouped_gemm(void **state)
{
	struct gpu g;
	(void)state;
	tc_test_a100(&g);
	assert_close(roof_grouped_gemm_eff(&g, PREC_BF16, 4096, 1536, 2048, 1),
		     roof_gemm_eff(&g, PREC_BF16, 4096, 1536, 2048, 1), TOL_EXACT);
	assert_true(roof_grouped_gemm_eff(&g, PREC_BF16, 512, 768, 2048, 16) <
		    roof_gemm_eff(&g, PREC_BF16, 512, 768, 2048, 16));
	/* Larger experts lose less. */
	assert_true(roof_grouped_gemm_eff(&g, PREC_BF16, 4096, 768, 2048, 16) /
			    roof_gemm_eff(&g, PREC_BF16, 4096, 768, 2048, 16) >
		    roof_grouped_gemm_eff(&g, PREC_BF16, 512, 768, 2048, 16) /
			    roof_gemm_eff(&g, PREC_BF16, 512, 768, 2048, 16));
}

struct bad_plan {
	const char *what;
	enum wl_field field;
	const char *msg;
};

static void test_invalid_plans(void **state)
{
	static const struct bad_plan cases[] = {
		{ "tp3", WLF_TP, "tp 3 does not divide 64 attention heads "
		  "(expected a divisor of 64)" },
		{ "tp16kv", WLF_TP, "tp 16 does not divide 8 kv heads "
		  "(expected a divisor of 8)" },
		{ "pp3", WLF_PP, "pp 3 does not divide 80 layers (expected a "
		  "divisor of 80, or first_stage_layers and "
		  "last_stage_layers)" },
		{ "count", WLF_COUNT, "count 500 is not divisible by tp 8 x pp "
		  "4 (expected a multiple of 32)" },
		{ "dp", WLF_DP, "dp 8 x tp 8 x pp 4 is not count 512 "
		  "(expected dp = 16)" },
		{ "batch", WLF_GLOBAL_BATCH, "global_batch 1000 is not a "
		  "multiple of dp 16 x micro_batch 1 (expected a multiple of "
		  "16)" },
		{ "fp8", WLF_PRECISION, "a100-80gb-sxm has no fp8 rate "
		  "(expected a precision the GPU supports)" },
		{ "lora", WLF_LORA_RANK, "lora_rank is missing (expected a rank "
		  ">= 1 for lora)" },
		{ "ep", WLF_EP, "ep 3 does not divide 8 experts (expected a "
		  "divisor of 8)" },
		/* 32 experts one a rank need 32 data-parallel ranks, not 16 */
		{ "epdp", WLF_EP, "ep 32 does not divide dp 16 (expected "
		  "experts spread over data-parallel ranks)" },
		{ "interleave", WLF_INTERLEAVE, "80 layers are not divisible "
		  "by pp 4 x interleave 3 (expected a multiple of 12)" },
	};
	struct gpu g;
	size_t i;
	(void)state;
	tc_test_a100(&g);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct workload w;
		struct estimate e;
		struct plan_problem why;
		const char *c = cases[i].what;
		llama70(&w);
		if (!strcmp(c, "tp3"))
			w.plan.tp = 3;
		else if (!strcmp(c, "tp16kv"))
			w.plan.tp = 16;
		else if (!strcmp(c, "pp3"))
			w.plan.pp = 3;
		else if (!strcmp(c, "count"))
			w.plan.count = 500;
		else if (!strcmp(c, "dp"))
			w.plan.dp = 8;
		else if (!strcmp(c, "batch"))
			w.train.global_batch = 1000;
		else if (!strcmp(c, "fp8"))
			w.train.precision = PREC_FP8;
		else if (!strcmp(c, "lora"))
			w.train.finetune = FT_LORA;
		else if (!strcmp(c, "ep")) {
			w.llm.experts = 8;
			w.llm.top_k = 2;
			w.plan.ep = 3;
		} else if (!strcmp(c, "epdp")) {
			w.llm.experts = 32;
			w.llm.top_k = 2;
			w.plan.ep = 32;
		} else if (!strcmp(c, "interleave"))
			w.plan.interleave = 3;
		memset(&why, 0, sizeof(why));
		assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), -1);
		assert_int_equal(why.field, cases[i].field);
		assert_string_equal(why.msg, cases[i].msg);
	}
}

/* Variants (MoE, LoRA, QLoRA, ZeRO 3, fp32, no flash, several nodes)
 * give finite, positive, consistent results. */
static void test_variants_finite(void **state)
{
	struct gpu g;
	int v;
	(void)state;
	tc_test_a100(&g);
	for (v = 0; v < 9; v++) {
		struct workload w;
		struct estimate e, full;
		struct plan_problem why;
		llama70(&w);
		switch (v) {
		case 1: w.llm.experts = 8; w.llm.top_k = 2; w.plan.ep = 8;
			break;
		case 2: w.train.finetune = FT_LORA; w.train.lora_rank = 16;
			break;
		case 3: w.train.finetune = FT_QLORA; w.train.lora_rank = 64;
			break;
		case 4: w.plan.zero = 3; w.plan.pp = 1; w.plan.tp = 8; break;
		case 5: w.train.precision = PREC_TF32; break;
		case 6: w.train.flash_attention = 0; break;
		case 7: w.plan.cuda_graphs = 1; w.plan.grad_overlap = 1;
			break;
		case 8: w.train.optimizer = OPT_SGD; w.plan.zero = 2; break;
		}
		assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
		assert_true(isfinite(e.step_time_s) && e.step_time_s > 0);
		assert_close(sum_brk(&e), e.step_time_s, TOL_TIGHT);
		assert_true(e.mfu_frac > 0 && e.mfu_frac <= 1);
		assert_true(e.memory_per_gpu_bytes > 0);
		if (v == 2 || v == 3) {
			/* adapters only: less memory and less time than
			 * full fine-tuning of the same model */
			llama70(&w);
			assert_int_equal(step_estimate(&w, &g, &ws, &full,
						       &why), 0);
			assert_true(e.mem_bytes[MEM_OPTIMIZER] <
				    full.mem_bytes[MEM_OPTIMIZER] / 50);
			assert_true(e.memory_per_gpu_bytes <
				    full.memory_per_gpu_bytes);
		}
	}
}

/* GEMM efficiency: tile and wave quantisation. */
static void test_gemm_util(void **state)
{
	(void)state;
	/* 108 tiles of 128x128 on 108 SMs: one full wave */
	assert_close(roof_gemm_util(108, 128 * 12, 128 * 9, 1), 1.0,
		     TOL_EXACT);
	/* 109 tiles: a second wave with one tile, best of the tilings
	 * is below 1 */
	assert_true(roof_gemm_util(108, 128 * 109, 128, 1) < 0.6);
	/* a 129-wide edge wastes most of the second tile column */
	assert_true(roof_gemm_util(108, 8192, 129, 1) <
		    roof_gemm_util(108, 8192, 128, 1));
}

/* The launch part of an operator's time is what it takes beyond its
 * roof, the longer of its compute and its memory traffic: 1e12 FLOP with
 * bytes for twice their compute time tc have a roof of 2 tc, so of 2 tc +
 * 0.1 ms, 0.1 ms is launch; a time under the roof has none. */
static void test_launch_part(void **state)
{
	struct gpu g;
	(void)state;
	tc_test_a100(&g);
	double tc = roof_time(&g, PREC_BF16, 1e12, 0.5, 0, 0, 0, NULL);
	double bw = g.mem_bytes_per_s * g.eff.mem_frac;
	assert_close(roof_launch_part(&g, PREC_BF16, 1e12, 0.5, 2 * tc * bw, 2 * tc + 1e-4),
		     1e-4, TOL_TIGHT);
	assert_close(roof_launch_part(&g, PREC_BF16, 1e12, 0.5, 0, tc + 1e-4), 1e-4, TOL_TIGHT);
	assert_close(roof_launch_part(&g, PREC_BF16, 1e12, 0.5, 0, 0.5 * tc), 0, TOL_EXACT);
}

/* One GEMM model for every family: split-K where the output's tiles leave
 * SMs idle, and a fixed per-GEMM time that costs more FLOPs on a faster
 * GPU or precision. */
static void test_gemm_eff_one_model(void **state)
{
	struct gpu g, fast;
	(void)state;
	tc_test_a100(&g);
	double h = g.eff.gemm_half_flop; /* stated at 312 TFLOP/s: A100 bf16 */
	/* A weight gradient, 768 x 768 output, K = 65536 tokens.  128x128
	 * tiles: 6 x 6 = 36 tiles, one wave on 108 SMs, util 36/108 = 1/3
	 * (256x128: 18 tiles, 1/6).  Split-K: 65536/512 = 128 slices allowed,
	 * ceil(108/36) = 3 taken: 108 tiles, one full wave, util 1. */
	double f = 2.0 * 768 * 768 * 65536;
	assert_close(roof_gemm_eff(&g, PREC_BF16, 768, 768, 65536, 1),
		     g.eff.gemm_max_frac * 1.0 * f / (f + h), 1e-12);
	/* Too short to split (K = 768 < 2 x 512): the plain third. */
	f = 2.0 * 768 * 768 * 768;
	assert_close(roof_gemm_eff(&g, PREC_BF16, 768, 768, 768, 1),
		     g.eff.gemm_max_frac / 3.0 * f / (f + h), 1e-12);
	/* K = 1024 allows two slices, the least split there is: 2 x 36 = 72
	 * tiles in one wave, util 72/108 = 2/3. */
	f = 2.0 * 768 * 768 * 1024;
	assert_close(roof_gemm_eff(&g, PREC_BF16, 768, 768, 1024, 1),
		     g.eff.gemm_max_frac * 2.0 / 3.0 * f / (f + h), 1e-12);

	/* The same GEMM (4096 x 4096 x 64) on a GPU of twice the peak: the
	 * fixed time holds 2h FLOPs, so eff2 / eff1 = (f + h) / (f + 2h);
	 * tiling alike (same SMs). */
	fast = g;
	fast.peak_flop_per_s[PREC_BF16] *= 2;
	f = 2.0 * 4096 * 4096 * 64;
	assert_close(roof_gemm_eff(&fast, PREC_BF16, 4096, 4096, 64, 1) /
			     roof_gemm_eff(&g, PREC_BF16, 4096, 4096, 64, 1),
		     (f + h) / (f + 2 * h), 1e-12);
	/* TF32 at 156 of 312 TFLOP/s: half the FLOPs, (f + h) / (f + h/2). */
	assert_close(roof_gemm_eff(&g, PREC_TF32, 4096, 4096, 64, 1) /
			     roof_gemm_eff(&g, PREC_BF16, 4096, 4096, 64, 1),
		     (f + h) / (f + h / 2), 1e-12);
}

/* FP32 work runs on CUDA cores at their own measured ceiling where the GPU
 * file states one; the tensor-core ceiling otherwise, and 16-bit work
 * keeps the tensor-core one. */
static void test_fp32_gemm_ceiling(void **state)
{
	struct gpu g;
	(void)state;
	tc_test_a100(&g);
	/* 128*12 x 128*9 output on 108 SMs: 108 tiles, one full wave, util 1;
	 * K = 4096.  The fixed per-GEMM cost at the FP32 peak (19.5 of 312
	 * TFLOP/s) holds h x 19.5 / 312 FLOPs. */
	double m = 128 * 12, n = 128 * 9, k = 4096;
	double f = 2.0 * m * n * k;
	double h = g.eff.gemm_half_flop * g.peak_flop_per_s[PREC_FP32] / 312e12;
	g.eff.fp32_gemm_frac = 0; /* not measured: the tensor-core ceiling */
	assert_close(roof_gemm_eff(&g, PREC_FP32, m, n, k, 1),
		     g.eff.gemm_max_frac * f / (f + h), 1e-12);
	g.eff.fp32_gemm_frac = 0.96; /* A100 SXM: 0.85 / 0.869 x 19.2 / 19.5 */
	assert_close(roof_gemm_eff(&g, PREC_FP32, m, n, k, 1), 0.96 * f / (f + h),
		     1e-12);
	/* BF16 keeps gemm_max_frac: h at its own peak, 312 TFLOP/s. */
	h = g.eff.gemm_half_flop;
	assert_close(roof_gemm_eff(&g, PREC_BF16, m, n, k, 1),
		     g.eff.gemm_max_frac * f / (f + h), 1e-12);
	/* The same for the grouped GEMM of MoE experts: 2 groups of a 128*6 x
	 * 128*9 output, 108 tiles, util 1. */
	f = 2.0 * (128 * 6) * n * k;
	h = g.eff.gemm_half_flop * g.peak_flop_per_s[PREC_FP32] / 312e12;
	assert_close(roof_grouped_gemm_eff(&g, PREC_FP32, 128 * 6, n, k, 2),
		     0.96 * f / (f + h), 1e-12);
}

/* A part whose rates were measured on a sibling at a higher power limit
 * runs its compute at the clock its own limit allows: (tdp / measured)^(1/3),
 * memory traffic untouched, never faster than measured, and a MIG slice
 * keeps the whole card's clock. */
static void test_power_clock(void **state)
{
	struct gpu g, slice;
	(void)state;
	tc_test_a100(&g); /* 400 W, 108 SMs, MIG 1g.10gb = 14 SMs */
	assert_close(roof_power_clock_frac(&g), 1.0, TOL_EXACT); /* own rates */

	/* Rates measured at 3200 W: 400 / 3200 = 1/8, cube root 1/2. */
	g.eff.measured_tdp_w = 3200;
	assert_close(roof_power_clock_frac(&g), 0.5, TOL_EXACT);
	/* 1e12 FLOP at bf16 peak 312e12 x 0.5 of peak x clock 0.5:
	 * 1e12 / 78e12 s; no bytes, no kernels to launch. */
	double peak = g.peak_flop_per_s[PREC_BF16];
	assert_close(roof_time(&g, PREC_BF16, 1e12, 0.5, 0, 0, 0, NULL),
		     1e12 / (peak * 0.5 * g.eff.stack_frac * 0.5), 1e-12);
	/* Bytes: 2039e9 x mem_frac moves mem_frac x 2039e9 bytes in 1 s,
	 * whatever the clock. */
	double bw = g.mem_bytes_per_s * g.eff.mem_frac;
	assert_close(roof_time(&g, PREC_BF16, 0, 0.5, bw, 0, 0, NULL), 1.0,
		     1e-12);

	/* 700 W measured, 400 W here: (4/7)^(1/3) = 0.8298 (0.8298^3 = 0.5714). */
	g.eff.measured_tdp_w = 700;
	assert_close(roof_power_clock_frac(&g), 0.829827, 1e-6);
	/* A MIG slice: 14/108 of the TDP and of the sibling's limit, the same
	 * ratio, the same clock. */
	assert_int_equal(gpu_mig_slice(&g, "1g.10gb", &slice), 0);
	assert_close(roof_power_clock_frac(&slice), 0.829827, 1e-6);

	/* A sibling at a lower limit does not make this part faster. */
	g.eff.measured_tdp_w = 300;
	assert_close(roof_power_clock_frac(&g), 1.0, TOL_EXACT);
}

/* Narrow linear layers (LoRA adapters) use thin tiles and split-K. */
static void test_narrow_gemm(void **state)
{
	struct gpu g;
	struct workload w;
	struct estimate full, lora;
	struct plan_problem why;
	(void)state;
	tc_test_a100(&g);
	/* x*A of a rank-16 adapter: 8192 x 16 output, K = 8192.  With 128x128
	 * tiles: 64 tiles of which 16/128 useful, one wave on 108 SMs:
	 * util = 0.125 * 64 / 108 = 0.074.  With 128x32 tiles and split-K the
	 * same output fills 64 x 1 tiles x 1 split at 0.5 use: 0.5 * 64 / 108
	 * = 0.296; the efficiency is never below the plain tiling's. */
	double plain = 0.85 * 0.125 * 64 / 108;
	double flop = 2.0 * 8192 * 16 * 8192;
	double size = flop / (flop + g.eff.gemm_half_flop);
	assert_true(roof_gemm_eff(&g, PREC_BF16, 8192, 16, 8192, 1) >= 3.9 * plain * size);

	/* With GEMMs of a useful size (micro-batch 4), a LoRA step is shorter
	 * than the full fine-tune's: no weight gradients, a small optimizer.
	 * (At micro-batch 1 on 512 GPUs the adapters' small GEMMs, each paying
	 * the fixed per-GEMM time, can cost more than the weight gradients
	 * they save.) */
	llama70(&w);
	w.plan.micro_batch = 4;
	w.train.finetune = FT_FULL;
	w.train.tokens = 1e9;
	assert_int_equal(step_estimate(&w, &g, &ws, &full, &why), 0);
	w.train.finetune = FT_LORA;
	w.train.lora_rank = 16;
	assert_int_equal(step_estimate(&w, &g, &ws, &lora, &why), 0);
	assert_true(lora.step_time_s < full.step_time_s);
	assert_true(lora.memory_per_gpu_bytes < full.memory_per_gpu_bytes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layer_flops),
		cmocka_unit_test(test_fp8_casts),
		cmocka_unit_test(test_run_length_limit),
		cmocka_unit_test(test_activation_bytes),
		cmocka_unit_test(test_recompute_share),
		cmocka_unit_test(test_zero_memory),
		cmocka_unit_test(test_ring_volume),
		cmocka_unit_test(test_bubble),
		cmocka_unit_test(test_schedule_bubble),
		cmocka_unit_test(test_zero_bubble_estimate),
		cmocka_unit_test(test_schedule_checks),
		cmocka_unit_test(test_relations),
		cmocka_unit_test(test_memory_flip),
		cmocka_unit_test(test_fit_advice),
		cmocka_unit_test(test_fit_advice_micro_batch_divides),
		cmocka_unit_test(test_fit_advice_zero3),
		cmocka_unit_test(test_fit_advice_combined_changes),
		cmocka_unit_test(test_fit_advice_zero_needs_ranks),
		cmocka_unit_test(test_fit_advice_keeps_gpu_count),
		cmocka_unit_test(test_fit_advice_tp_divides_kv_heads),
		cmocka_unit_test(test_tp_spanning_nodes_warning),
		cmocka_unit_test(test_brief_estimate),
		cmocka_unit_test(test_moe_zero_shards_experts_over_their_group),
		cmocka_unit_test(test_moe_dispatch_and_capacity),
		cmocka_unit_test(test_grouped_gemm),
		cmocka_unit_test(test_invalid_plans),
		cmocka_unit_test(test_variants_finite),
		cmocka_unit_test(test_gemm_util),
		cmocka_unit_test(test_gemm_eff_one_model),
		cmocka_unit_test(test_narrow_gemm),
		cmocka_unit_test(test_power_clock),
		cmocka_unit_test(test_launch_part),
		cmocka_unit_test(test_fp32_gemm_ceiling),
	};
	return cmocka_run_group_tests(tests, tc_llm_setup, tc_llm_teardown);
}
