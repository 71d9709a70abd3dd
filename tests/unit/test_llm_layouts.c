/*
 * test_llm_layouts.c - context parallelism, ZeRO sharding groups (HSDP,
 * MiCS) and packed sequences: hand-computed values and relations.
 */
#include "tc_test.h"
#include "tc_llm.h"
#include "tc_ops.h"

#include "../../src/model/core/comm.h"
#include "../../src/model/families/estimate.h"
#include "../../src/model/families/llm.h"
#include "../../src/model/families/memory.h"
#include "../../src/model/core/roofline.h"
#include "../../src/model/analyses/validate.h"

/* A small Llama-style model: SwiGLU, RoPE, RMSNorm, GQA, no biases. */
static void small_llama(struct workload *w)
{
	tc_llama(w, 4, 256, 8, 2, 512, 1000);
	w->train.seq_len = 2048;
	w->train.global_batch = 16;
	w->train.steps = 10;
	w->plan.count = 8;
	w->plan.micro_batch = 1;
	w->plan.zero = 0;
	w->plan.network_bytes_per_s = 50e9;
}

/* The operators and sums of w as step.c resolves its plan (every field
 * the tests use is set, so the plan needs no defaults but dp and cp). */
static void build(const struct workload *w, const struct gpu *g,
		  struct plan *pl, struct llm_shape *sh, struct op_sums *S)
{
	*pl = w->plan;
	if (pl->cp < 1)
		pl->cp = 1;
	if (pl->tp < 1)
		pl->tp = 1;
	if (pl->pp < 1)
		pl->pp = 1;
	if (pl->ep < 1)
		pl->ep = 1;
	if (pl->interleave < 1)
		pl->interleave = 1;
	if (pl->gpus_per_node < 1)
		pl->gpus_per_node = 8;
	pl->dp = pl->count / (pl->tp * pl->pp * pl->cp);
	llm_shape_init(w, pl, sh);
	llm_build_ops(w, g, pl, sh, &ws, S);
}

/* cp 2 at a fixed micro-batch and dp: each GPU holds half the tokens of a
 * sequence, so every activation term (per layer, embedding output,
 * logits) halves, with or without flash attention (the score matrix is
 * s/cp queries x s keys); the work of the step, counted per token, stays
 * the same, and each GPU's layer FLOPs halve. */
static void test_cp_halves_activations(void **state)
{
	struct workload w1, w2;
	struct gpu g;
	struct estimate e1, e2;
	struct plan p1, p2;
	struct llm_shape s1, s2;
	struct op_sums S1, S2;
	int flash;
	(void)state;
	tc_test_a100(&g);
	for (flash = 0; flash <= 1; flash++) {
		small_llama(&w1);
		w1.train.flash_attention = flash;
		w2 = w1;
		w2.plan.count = 16;
		w2.plan.cp = 2;
		tc_estimate_ok(&w1, &g, &e1);
		tc_estimate_ok(&w2, &g, &e2);
		assert_int_equal(e2.plan.dp, e1.plan.dp);
		assert_close(e2.mem_bytes[MEM_ACTIVATIONS],
			     e1.mem_bytes[MEM_ACTIVATIONS] / 2, TOL_EXACT);
		assert_true(e2.memory_per_gpu_bytes < e1.memory_per_gpu_bytes);
		assert_close(e2.tokens_per_step, e1.tokens_per_step, TOL_EXACT);
		assert_close(e2.model_flop_per_step, e1.model_flop_per_step,
			     TOL_EXACT);
		build(&w1, &g, &p1, &s1, &S1);
		build(&w2, &g, &p2, &s2, &S2);
		assert_close(S2.hw_flop[OPS_LAYER], S1.hw_flop[OPS_LAYER] / 2,
			     TOL_EXACT);
		/* No context parallelism, no ring. */
		build(&w1, &g, &p1, &s1, &S1);
		assert_null(tc_find_op(&ws, "layer.cp_ring"));
	}
}

/* The ring's traffic, by hand.  One GPU per node, cp 2, dp 1: the keys and
 * values of a whole sequence, b * s * 2 * g * d * e = 1 * 2048 * 2 * 2 *
 * 32 * 2 = 524,288 B per layer, all-gathered over 2 ranks: (2-1)/2 of it,
 * 262,144 B, leaves each GPU forward, twice that backward (K/V again,
 * their gradients back): 3 * 262,144 * 4 layers * 16 micro-batches =
 * 50,331,648 B.  The gradients' all-reduce over the two cp ranks adds
 * 2 * (2-1)/2 * P * 2 B.  The exposed ring time is what the ring takes
 * beyond the attention kernel it overlaps, never negative. */
static void test_cp_ring_traffic(void **state)
{
	struct workload w;
	struct gpu g;
	struct plan pl;
	struct llm_shape sh;
	struct op_sums S;
	const struct op *ring, *attn;
	double kv = 1.0 * 2048 * 2 * 2 * 32 * 2, ring_s;
	struct comm_group cpg = { 2, 1 };
	(void)state;
	tc_test_a100(&g);
	small_llama(&w);
	w.plan.count = 2;
	w.plan.cp = 2;
	w.plan.gpus_per_node = 1;
	build(&w, &g, &pl, &sh, &S);
	assert_int_equal(sh.m, 16);
	assert_close(S.net_bytes,
		     3 * kv / 2 * 4 * 16 + sh.trainable_first * 2,
		     TOL_EXACT);
	ring = tc_find_op(&ws, "layer.cp_ring");
	attn = tc_find_op(&ws, "layer.attn_flash");
	assert_non_null(ring);
	assert_non_null(attn);
	ring_s = comm_time_s(&g, &pl, COLL_ALLGATHER, cpg, kv);
	assert_close(ring->time_s, fmax(0, ring_s - attn->time_s), TOL_TIGHT);
	/* A far slower network exposes the ring: ring time minus attention. */
	w.plan.network_bytes_per_s = 1e6;
	build(&w, &g, &pl, &sh, &S);
	ring = tc_find_op(&ws, "layer.cp_ring");
	attn = tc_find_op(&ws, "layer.attn_flash");
	ring_s = comm_time_s(&g, &pl, COLL_ALLGATHER, cpg, kv);
	assert_true(ring_s > attn->time_s);
	assert_close(ring->time_s, ring_s - attn->time_s, TOL_TIGHT);
}

/* A Llama-style 64-GPU job on 8-GPU nodes under ZeRO 3. */
static void sharded64(struct workload *w)
{
	small_llama(w);
	w->train.global_batch = 64;
	w->plan.count = 64;
	w->plan.gpus_per_node = 8;
	w->plan.zero = 3;
}

/* HSDP inside a node (shard_group 8) against ZeRO 3 over all 64 GPUs:
 * the weight gathers stay in the node, only the gradient shards cross
 * it, so less inter-node traffic; but every GPU keeps 1/8 instead of
 * 1/64 of the states, so more memory.  By hand, per layer and
 * micro-batch (lb = layer params * 2 B): ZeRO 3 over 64 (8 per node)
 * sends 7/8 of lb/8 per gather or scatter, three of them; HSDP
 * all-reduces the layer's gradient shard, lb/8, across the 8 nodes:
 * 2 * 7/8 of it. */
static void test_hsdp_traffic_and_memory(void **state)
{
	struct workload wz, wh;
	struct gpu g;
	struct estimate ez, eh;
	struct plan pl;
	struct llm_shape sh;
	struct op_sums S;
	double zero3_net, hsdp_net, lb, P;
	(void)state;
	tc_test_a100(&g);
	sharded64(&wz);
	wh = wz;
	wh.plan.shard_group = 8;

	build(&wz, &g, &pl, &sh, &S);
	lb = sh.layer_params * 2;
	assert_int_equal(sh.shard, 64);
	assert_close(S.net_bytes, 4 * sh.m * 3 * 7.0 / 8 * lb / 8, TOL_EXACT);
	zero3_net = S.net_bytes;

	build(&wh, &g, &pl, &sh, &S);
	P = sh.trainable_first;
	assert_int_equal(sh.shard, 8);
	assert_int_equal(sh.replicas, 8);
	assert_close(S.net_bytes, 4 * sh.m * 2 * 7.0 / 8 * lb / 8, TOL_EXACT);
	hsdp_net = S.net_bytes;
	assert_true(hsdp_net < zero3_net);

	tc_estimate_ok(&wz, &g, &ez);
	tc_estimate_ok(&wh, &g, &eh);
	assert_true(eh.memory_per_gpu_bytes > ez.memory_per_gpu_bytes);
	/* Optimizer states: 12 B per parameter over 8 instead of 64. */
	assert_close(eh.mem_bytes[MEM_OPTIMIZER],
		     8 * ez.mem_bytes[MEM_OPTIMIZER], TOL_EXACT);
	assert_close(eh.mem_bytes[MEM_OPTIMIZER], P * 12 / 8, TOL_EXACT);
}

/* A shard group as large as dp is plain ZeRO: the same estimate. */
static void test_shard_group_of_dp_is_zero(void **state)
{
	struct workload w, w2;
	struct gpu g;
	struct estimate e, e2;
	int z;
	(void)state;
	tc_test_a100(&g);
	for (z = 1; z <= 3; z++) {
		sharded64(&w);
		w.plan.zero = z;
		w2 = w;
		w2.plan.shard_group = 64;
		tc_estimate_ok(&w, &g, &e);
		tc_estimate_ok(&w2, &g, &e2);
		assert_close(e2.step_time_s, e.step_time_s, TOL_EXACT);
		assert_close(e2.memory_per_gpu_bytes, e.memory_per_gpu_bytes,
			     TOL_EXACT);
	}
}

/* Packed samples of mean length 512 in rows of 2,048: the GPU computes
 * only the real tokens, with attention inside each sample, so the step is
 * that of unpadded 512-token samples (RoPE: no position table sized by
 * seq_len), faster than padding every sample to 2,048, and the tokens of
 * a step are global_batch x 512 = 16 x 512 = 8,192. */
static void test_packing_counts_real_tokens(void **state)
{
	struct workload wp, w512, wpad;
	struct gpu g;
	struct estimate ep, e512, epad;
	(void)state;
	tc_test_a100(&g);
	small_llama(&wp);
	/* Wide enough that its GEMMs are not latency-bound. */
	wp.llm.hidden = 4096;
	wp.llm.heads = 32;
	wp.llm.kv_heads = 8;
	wp.llm.ffn = 14336;
	wpad = wp;
	wp.train.packing = 1;
	wp.train.mean_seq_len = 512;
	w512 = wpad;
	w512.train.seq_len = 512;
	tc_estimate_ok(&wp, &g, &ep);
	tc_estimate_ok(&w512, &g, &e512);
	tc_estimate_ok(&wpad, &g, &epad);
	assert_close(ep.tokens_per_step, 8192, TOL_EXACT);
	assert_close(ep.step_time_s, e512.step_time_s, TOL_EXACT);
	assert_close(ep.memory_per_gpu_bytes, e512.memory_per_gpu_bytes,
		     TOL_EXACT);
	assert_close(ep.mfu_frac, e512.mfu_frac, TOL_EXACT);
	assert_true(ep.step_time_s < epad.step_time_s);
	assert_true(ep.tokens_per_step < epad.tokens_per_step);
}

/* The compute-bound flash forward of w on g, after checking it is one;
 * *rate: its FLOP/s without the launch. */
static const struct op *flash_fwd(const struct workload *w,
				  const struct gpu *g, double *rate)
{
	struct plan pl;
	struct llm_shape sh;
	struct op_sums S;
	const struct op *a;
	build(w, g, &pl, &sh, &S);
	a = tc_find_op(&ws, "layer.attn_flash");
	assert_non_null(a);
	assert_int_equal(a->bound, BOUND_COMPUTE);
	*rate = a->flop / (a->time_s - a->launch_s);
	return a;
}

/* The flash kernel's rate against its long-sequence plateau:
 * keys / (keys + 200), the keys a query attends to on average.  Hand
 * values: 200 keys give half; 600 give 600/800 = 0.75; no length, 1.  The
 * anchor the constant was read from: FA2 on A100 at head dim 64 runs at
 * 132 TFLOP/s at 512 tokens and 176 at 16k (achievable.md section 6), a
 * ratio of 0.750; the curve gives (512/712) / (16384/16584) = 0.728. */
static void test_flash_rate_by_length(void **state)
{
	struct workload w;
	struct gpu g;
	const struct op *a;
	double l, rate_long, rate_short;
	(void)state;
	assert_close(roof_attn_len_frac(200), 0.5, TOL_EXACT);
	assert_close(roof_attn_len_frac(600), 0.75, TOL_EXACT);
	assert_close(roof_attn_len_frac(0), 1, TOL_EXACT);
	assert_close(roof_attn_len_frac(512) / roof_attn_len_frac(16384),
		     132.0 / 176.0, 0.03);
	tc_test_a100(&g);
	/* A causal sequence of 2048: a query sees 1024 keys on average, so
	 * the kernel runs at attn_frac x 1024 / 1224 = 0.8366 attn_frac. */
	tc_llama(&w, 2, 4096, 32, 32, 11008, 32000);
	w.train.seq_len = 2048;
	w.train.global_batch = 64;
	w.plan.count = 8;
	w.plan.micro_batch = 8;
	a = flash_fwd(&w, &g, &rate_long);
	assert_close(a->time_s,
		     roof_time_launch(&g, a->prec, a->flop,
				      g.eff.attn_frac * 1024.0 / 1224.0,
				      a->bytes, 1, 0, NULL, &l),
		     TOL_TIGHT);
	/* Packed samples of 512 real tokens: 256 keys a query, 256 / 456 =
	 * 0.5614 of the plateau: the rate falls by 0.5614 / 0.8366 = 0.671. */
	w.train.packing = 1;
	w.train.mean_seq_len = 512;
	flash_fwd(&w, &g, &rate_short);
	assert_close(rate_short / rate_long,
		     (256.0 / 456.0) / (1024.0 / 1224.0), TOL_TIGHT);
}

/* The vendor library's attention (lib_attn_share of a Transformer Engine
 * stack): the forward runs at attn_lib_fwd_frac, the backward keeps
 * attn_frac.  Hand values with the H100 SXM's figures, attn_frac 0.34 and
 * attn_lib_fwd_frac 0.601: share 1 runs the forward 0.601 / 0.34 = 1.7676
 * times as fast as share 0; share 0.5 at 1 / (0.5 / 0.601 + 0.5 / 0.34) =
 * 1 / (0.83195 + 1.47059) = 0.43430, 0.43430 / 0.34 = 1.2774 times; a GPU
 * without the library's rate (0) runs every share at attn_frac. */
static void test_library_attention(void **state)
{
	struct workload w;
	struct gpu g;
	double fa2, lib, half, none, bwd0, bwd1;
	(void)state;
	tc_test_a100(&g);
	g.eff.attn_frac = 0.34;
	g.eff.attn_lib_fwd_frac = 0.601;
	tc_llama(&w, 2, 4096, 32, 32, 11008, 32000);
	w.train.seq_len = 2048;
	w.train.global_batch = 64;
	w.plan.count = 8;
	w.plan.micro_batch = 8;
	g.eff.lib_attn_share = 0;
	flash_fwd(&w, &g, &fa2);
	bwd0 = tc_must_op(&ws, "layer.attn_flash.bwd")->time_s;
	g.eff.lib_attn_share = 1;
	flash_fwd(&w, &g, &lib);
	bwd1 = tc_must_op(&ws, "layer.attn_flash.bwd")->time_s;
	assert_close(lib / fa2, 1.7676, 1e-4);
	assert_close(bwd1, bwd0, TOL_EXACT);
	g.eff.lib_attn_share = 0.5;
	flash_fwd(&w, &g, &half);
	assert_close(half / fa2, 1.2774, 1e-4);
	g.eff.attn_lib_fwd_frac = 0;
	g.eff.lib_attn_share = 1;
	flash_fwd(&w, &g, &none);
	assert_close(none, fa2, TOL_EXACT);
}

/* Eager PyTorch's composite chains (composite_elem_frac), bytes against
 * the fused kernels', by hand with 16-bit activations (e = 2): RMSNorm
 * forward (24 + 4e) / 2e = 32 / 4 = 8, its backward (44 + 6e) / 4e =
 * 56 / 8 = 7; the rotary embedding (16 + 2e) / 2e = 20 / 4 = 5 both ways;
 * SwiGLU 5e / 3e = 5/3 forward, 9e / 5e = 9/5 backward.  Half the share
 * moves half the extra bytes: RMSNorm forward 1 + 0.5 x 7 = 4.5.  A
 * compiled plan, and a LayerNorm model's norms, keep the fused bytes. */
static void test_composite_chains(void **state)
{
	static const struct { const char *op; double ratio; } chains[] = {
		{ "layer.norm1", 8 }, { "layer.norm2", 8 },
		{ "layer.norm1.bwd", 7 }, { "layer.norm2.bwd", 7 },
		{ "final_norm.fwd", 8 }, { "final_norm.bwd", 7 },
		{ "layer.rope", 5 }, { "layer.rope.bwd", 5 },
		{ "layer.mlp_act", 5.0 / 3 }, { "layer.mlp_act.bwd", 9.0 / 5 },
	};
	enum { N = sizeof(chains) / sizeof(chains[0]) };
	struct workload w;
	struct gpu g;
	struct plan pl;
	struct llm_shape sh;
	struct op_sums S;
	double fused[N], fused_launch;
	int i;
	(void)state;
	tc_test_a100(&g);
	small_llama(&w);
	build(&w, &g, &pl, &sh, &S);
	for (i = 0; i < N; i++)
		fused[i] = tc_must_op(&ws, chains[i].op)->bytes;
	fused_launch = tc_must_op(&ws, "layer.norm1")->launch_s;
	g.eff.composite_elem_frac = 1;
	build(&w, &g, &pl, &sh, &S);
	for (i = 0; i < N; i++)
		assert_close(tc_must_op(&ws, chains[i].op)->bytes,
			     chains[i].ratio * fused[i], TOL_EXACT);
	assert_non_null(tc_must_op(&ws, "layer.norm1")->launch_s > fused_launch);
	g.eff.composite_elem_frac = 0.5;
	build(&w, &g, &pl, &sh, &S);
	assert_close(tc_must_op(&ws, "layer.norm1")->bytes, 4.5 * fused[0], TOL_EXACT);
	g.eff.composite_elem_frac = 1;
	w.plan.compile = 1;
	build(&w, &g, &pl, &sh, &S);
	for (i = 0; i < N; i++)
		assert_close(tc_must_op(&ws, chains[i].op)->bytes, fused[i], TOL_EXACT);
	/* LayerNorm is PyTorch's own fused kernel: eager or not, the same. */
	w.plan.compile = 0;
	w.llm.norm = NORM_LAYERNORM;
	g.eff.composite_elem_frac = 0;
	build(&w, &g, &pl, &sh, &S);
	fused[0] = tc_must_op(&ws, "layer.norm1")->bytes;
	g.eff.composite_elem_frac = 1;
	build(&w, &g, &pl, &sh, &S);
	assert_close(tc_must_op(&ws, "layer.norm1")->bytes, fused[0], TOL_EXACT);
}

struct bad_layout {
	const char *what;
	enum wl_field field;
	const char *msg;
};

static void test_invalid_layouts(void **state)
{
	static const struct bad_layout cases[] = {
		{ "cp3", WLF_CP, "cp 3 does not divide seq_len 2048 (expected "
		  "a divisor of the sequence length)" },
		{ "cpcount", WLF_CP, "count 12 is not divisible by tp 1 x pp 1 "
		  "x cp 8 (expected a multiple of 8)" },
		{ "shard3", WLF_SHARD_GROUP, "shard_group 3 does not divide dp "
		  "64 (expected a divisor of 64)" },
		{ "shardzero0", WLF_SHARD_GROUP, "shard_group 8 needs sharded "
		  "states (expected zero 1, 2 or 3)" },
		{ "mean", WLF_MEAN_SEQ_LEN, "mean_seq_len 4096 is not within 1 "
		  "to seq_len 2048 (expected the mean real length of the "
		  "packed samples)" },
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
		sharded64(&w);
		if (!strcmp(c, "cp3")) {
			w.plan.cp = 3;
			w.plan.count = 3;
		} else if (!strcmp(c, "cpcount")) {
			w.plan.cp = 8;
			w.plan.count = 12;
		} else if (!strcmp(c, "shard3")) {
			w.plan.shard_group = 3;
		} else if (!strcmp(c, "shardzero0")) {
			w.plan.shard_group = 8;
			w.plan.zero = 0;
		} else if (!strcmp(c, "mean")) {
			w.train.packing = 1;
			w.train.mean_seq_len = 4096;
		}
		memset(&why, 0, sizeof(why));
		assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), -1);
		assert_int_equal(why.field, cases[i].field);
		assert_string_equal(why.msg, cases[i].msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cp_halves_activations),
		cmocka_unit_test(test_cp_ring_traffic),
		cmocka_unit_test(test_hsdp_traffic_and_memory),
		cmocka_unit_test(test_shard_group_of_dp_is_zero),
		cmocka_unit_test(test_packing_counts_real_tokens),
		cmocka_unit_test(test_flash_rate_by_length),
		cmocka_unit_test(test_library_attention),
		cmocka_unit_test(test_composite_chains),
		cmocka_unit_test(test_invalid_layouts),
	};
	return cmocka_run_group_tests(tests, tc_llm_setup, tc_llm_teardown);
}
