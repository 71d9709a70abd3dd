/*
 * test_encdec.c - encoder-decoder language models: parameters and FLOPs of
 * a tiny model computed by hand, and relations between the two stacks.
 */
#include "tc_test.h"
#include "tc_ops.h"

#include <stdlib.h>

#include "../../src/model/families/estimate.h"
#include "../../src/model/families/llm.h"
#include "../../src/model/families/llm_encdec.h"
#include "../../src/model/families/memory.h"

static struct est_workspace ws;

static int setup(void **state)
{
	(void)state;
	tc_use_test_data();
	return est_workspace_init(&ws, EST_MAX_OPS);
}

static int teardown(void **state)
{
	(void)state;
	est_workspace_release(&ws);
	return 0;
}

/*
 * A T5-style model: scale-only norms, no biases, tied embeddings, plain
 * ReLU MLP, relative position bias; bf16, Adam, one GPU.
 */
static void t5ish(struct workload *w, int enc, int dec, int h, int a, int f,
		  int V, double in, double tgt)
{
	memset(w, 0, sizeof(*w));
	w->kind = WL_LLM;
	w->llm.form = FORM_ENCODER_DECODER;
	w->llm.encoder_layers = enc;
	w->llm.decoder_layers = dec;
	w->llm.layers = enc + dec;
	w->llm.hidden = h;
	w->llm.heads = a;
	w->llm.kv_heads = a;
	w->llm.head_dim = h / a;
	w->llm.ffn = f;
	w->llm.vocab = V;
	w->llm.act = ACT_RELU;
	w->llm.positions = POS_RELATIVE;
	w->llm.rel_buckets = 4;
	w->llm.norm = NORM_RMSNORM;
	w->llm.tied_embeddings = 1;
	w->llm.causal = 1;
	w->train.input_len = in;
	w->train.target_len = tgt;
	w->train.seq_len = tgt;
	w->train.global_batch = 8;
	w->train.steps = 10;
	w->train.precision = PREC_BF16;
	w->train.optimizer = OPT_ADAMW;
	w->train.flash_attention = 1;
	w->plan.count = 1;
	w->plan.micro_batch = 1;
}

static struct plan one_gpu(void)
{
	struct plan pl;
	memset(&pl, 0, sizeof(pl));
	pl.tp = pl.pp = pl.dp = pl.count = pl.micro_batch = 1;
	pl.interleave = pl.ep = pl.cp = 1;
	pl.gpus_per_node = 8;
	return pl;
}

/*
 * The tiny model: h 8, 2 heads of 4, ffn 16, vocab 10, 2 encoder layers
 * and 1 decoder layer.
 *   attention 4 h^2 = 256, MLP 2 h f = 256, norm h = 8
 *   encoder layer 256 + 256 + 2 x 8 = 528, two of them 1056
 *   decoder layer 528 + cross-attention 256 + its norm 8 = 792
 *   token table 10 x 8 = 80 (head tied), relative bias 2 stacks x 4
 *   buckets x 2 heads = 16, final norms 2 x 8 = 16
 *   total 1056 + 792 + 80 + 16 + 16 = 1960
 */
static void test_params_by_hand(void **state)
{
	struct workload w;
	struct plan pl = one_gpu();
	struct encdec E;
	(void)state;
	t5ish(&w, 2, 1, 8, 2, 16, 10, 6, 3);
	encdec_init(&w, &pl, &E);
	assert_close(E.cross_params, 264.0, TOL_EXACT);
	assert_close(E.position_params, 16.0, TOL_EXACT);
	assert_close(E.params, 1960.0, TOL_EXACT);
}

/*
 * Model FLOPs of one sample of the tiny model, input 6 and target 3 tokens:
 *   weights over input tokens: encoder 2 x (256 + 256) + cross K/V
 *     1 x 2 h^2 = 128, so 1152; over target tokens: decoder self-attention
 *     256 + MLP 256 + cross Q and O 2 h^2 = 128, plus the head 80: 720
 *   6 x (1152 x 6 + 720 x 3) = 6 x 9072 = 54432
 *   attention 12 a d (2 x 6^2 + 3^2 + 3 x 6) = 96 x 99 = 9504
 *   total 63936; with LoRA-style frozen weights 4 x 9072 + 9504 = 45792
 * Recompute adds the forward: full 2 x (2 x 512 x 6 + 128 x 6 + 640 x 3)
 * + 4 a d x 99 = 17664 + 3168 = 20832; selective the attention's 3168.
 */
static void test_flop_by_hand(void **state)
{
	struct workload w;
	struct plan pl = one_gpu();
	struct encdec E;
	(void)state;
	t5ish(&w, 2, 1, 8, 2, 16, 10, 6, 3);
	encdec_init(&w, &pl, &E);
	assert_close(encdec_model_flop(&E, 0), 63936.0, TOL_EXACT);
	assert_close(encdec_model_flop(&E, 1), 45792.0, TOL_EXACT);
	assert_close(encdec_recompute_flop(&E, RECOMP_FULL), 20832.0,
		     TOL_EXACT);
	assert_close(encdec_recompute_flop(&E, RECOMP_SELECTIVE), 3168.0,
		     TOL_EXACT);
	assert_close(encdec_recompute_flop(&E, RECOMP_NONE), 0.0, TOL_EXACT);
}

/* Sum of count x time of the operators whose names start with `prefix`. */
static double time_of(const char *prefix)
{
	double s = 0;
	size_t k, n = strlen(prefix);
	for (k = 0; k < ws.count; k++)
		if (!strncmp(ws.ops[k].name, prefix, n))
			s += ws.ops[k].count * ws.ops[k].time_s;
	return s;
}

/* Estimate w on the frozen A100 80GB SXM; the test fails on an error. */
static void estimate_ok(const struct workload *w, struct estimate *e)
{
	struct gpu g;
	struct plan_problem why;
	tc_test_a100(&g);
	if (step_estimate(w, &g, &ws, e, &why))
		fail_msg("estimate failed: %s", why.msg);
}

/*
 * On one GPU nothing overlaps: the step is every operator's count x time.
 * The encoder's LM head and optimizer are not among them; its final norm
 * is.  Tokens are the inputs'; model FLOPs are encdec_model_flop's.
 */
static void test_step_is_its_operators(void **state)
{
	struct workload w;
	struct estimate e;
	struct plan pl = one_gpu();
	struct encdec E;
	size_t k;
	(void)state;
	t5ish(&w, 12, 12, 768, 12, 3072, 32128, 512, 128);
	estimate_ok(&w, &e);
	assert_close(time_of(""), e.step_time_s, TOL_TIGHT);
	for (k = 0; k < ws.count; k++) {
		assert_true(strncmp(ws.ops[k].name, "encoder.lm_head", 15));
		assert_true(strncmp(ws.ops[k].name, "encoder.optimizer", 17));
	}
	assert_int_equal(tc_must_op(&ws, "encoder.final_norm.fwd")->stage, OPS_FIRST);
	assert_close(tc_must_op(&ws, "optimizer.step")->count, 1.0, TOL_EXACT);
	assert_close(e.tokens_per_step, 8.0 * 512, TOL_EXACT);
	encdec_init(&w, &pl, &E);
	assert_close(e.model_flop_per_step, 8 * encdec_model_flop(&E, 0),
		     TOL_EXACT);
	assert_close(e.params, E.params, TOL_EXACT);
}

/*
 * Cross-attention's operators by hand (micro-batch 1, tp 1, input 512,
 * target 128, h 768, 12 heads of 64): queries 2 x 128 x 768 x 768 FLOPs,
 * keys and values 2 x 512 x 1536 x 768, the fused core 4 x 128 x 512 x 64
 * x 12 (no mask: no halving).
 */
static void test_cross_ops_by_hand(void **state)
{
	struct workload w;
	struct estimate e;
	(void)state;
	t5ish(&w, 12, 12, 768, 12, 3072, 32128, 512, 128);
	estimate_ok(&w, &e);
	assert_close(tc_must_op(&ws, "cross.q")->flop, 2.0 * 128 * 768 * 768,
		     TOL_EXACT);
	assert_close(tc_must_op(&ws, "cross.kv")->flop, 2.0 * 512 * 1536 * 768,
		     TOL_EXACT);
	assert_close(tc_must_op(&ws, "cross.attn_flash")->flop,
		     4.0 * 128 * 512 * 64 * 12, TOL_EXACT);
	assert_close(tc_must_op(&ws, "cross.q")->count, 12.0 * 8, TOL_EXACT);
}

/* Doubling the target leaves the encoder's time alone and about doubles
 * the decoder's; doubling the input does the converse for the encoder
 * (the decoder's self-attention stays, its cross-attention grows).
 * Micro-batches of 8 keep the GEMMs large enough to scale with tokens. */
static void test_lengths_scale_their_stack(void **state)
{
	struct workload w;
	struct estimate e;
	double enc1, dec1, enc2, dec2, self1, self2;
	(void)state;
	t5ish(&w, 4, 4, 2048, 32, 8192, 32128, 1024, 512);
	w.plan.micro_batch = 8;
	estimate_ok(&w, &e);
	enc1 = time_of("encoder.");
	dec1 = time_of("decoder.") + time_of("cross.q") +
	       time_of("cross.attn_out");
	w.train.target_len = w.train.seq_len = 1024;
	estimate_ok(&w, &e);
	enc2 = time_of("encoder.");
	dec2 = time_of("decoder.") + time_of("cross.q") +
	       time_of("cross.attn_out");
	assert_close(enc2, enc1, TOL_EXACT);
	assert_true(dec2 > 1.6 * dec1 && dec2 < 2.4 * dec1);

	t5ish(&w, 4, 4, 2048, 32, 8192, 32128, 512, 512);
	w.plan.micro_batch = 8;
	estimate_ok(&w, &e);
	enc1 = time_of("encoder.");
	self1 = time_of("decoder.");
	w.train.input_len = 1024;
	estimate_ok(&w, &e);
	enc2 = time_of("encoder.");
	self2 = time_of("decoder.");
	assert_close(self2, self1, TOL_EXACT);
	assert_true(enc2 > 1.6 * enc1 && enc2 < 2.4 * enc1);
}

/* Longer inputs hold more keys and values of cross-attention: memory grows
 * with input_len at a fixed target. */
static void test_memory_grows_with_input(void **state)
{
	struct workload w;
	struct estimate e;
	double m1;
	(void)state;
	t5ish(&w, 12, 12, 768, 12, 3072, 32128, 512, 128);
	estimate_ok(&w, &e);
	m1 = e.mem_bytes[MEM_ACTIVATIONS];
	w.train.input_len = 1024;
	estimate_ok(&w, &e);
	assert_true(e.mem_bytes[MEM_ACTIVATIONS] > m1);
}

/* The most operators a step has (no flash attention, full recompute,
 * tensor and sequence parallelism, ZeRO-3 over data parallelism) fit in a
 * workspace of EST_MAX_OPS. */
static void test_workspace_holds_the_largest_step(void **state)
{
	struct workload w;
	struct estimate e;
	(void)state;
	t5ish(&w, 2, 2, 768, 12, 3072, 32128, 512, 128);
	w.train.flash_attention = 0;
	w.train.recompute = RECOMP_FULL;
	w.plan.tp = 2;
	w.plan.count = 8;
	w.plan.zero = 3;
	w.plan.sequence_parallel = 1;
	estimate_ok(&w, &e);
	assert_true(ws.count <= EST_MAX_OPS);
	assert_true(tc_must_op(&ws, "cross.recompute.attn_scores")->flop > 0);
}

/*
 * Biases in the cross-attention: its query, key and value projections
 * add (a + 2 g) d = (2 + 4) x 4 = 24 and its output projection h = 8 to
 * the 256 weights and the norm's 8 of the tiny model: 296.
 */
static void test_cross_params_with_bias(void **state)
{
	struct workload w;
	struct plan pl = one_gpu();
	struct encdec E;
	(void)state;
	t5ish(&w, 2, 1, 8, 2, 16, 10, 6, 3);
	w.llm.bias = 1;
	encdec_init(&w, &pl, &E);
	assert_close(E.cross_params, 296.0, TOL_EXACT);
}

/*
 * Tensor parallelism splits every weight of the tiny model but the two
 * stacks' final norms: on each of 2 GPUs (1960 - 2 x 8) / 2 + 2 x 8 = 988
 * parameters, the gradients and optimizer state of every stage.
 */
static void test_tp_splits_all_but_final_norms(void **state)
{
	struct workload w;
	struct plan pl = one_gpu();
	struct encdec E;
	(void)state;
	t5ish(&w, 2, 1, 8, 2, 16, 10, 6, 3);
	pl.tp = pl.count = 2;
	encdec_init(&w, &pl, &E);
	assert_close(E.sd.stage_params_first, 988.0, TOL_EXACT);
	assert_close(E.sd.trainable_last, 988.0, TOL_EXACT);
}

/*
 * The optimizer's kernels count the tensors of both stacks, filed under
 * the decoder's layers.  LayerNorm, no biases: a decoder layer's 4 weight
 * matrices and 2 norms of 2 tensors, 8; its cross-attention's 4 matrices
 * and a norm, 6; the 2 encoder layers' 8 each spread over the 1 decoder
 * layer, 16: 30 a layer.
 */
static void test_optimizer_tensors_of_both_stacks(void **state)
{
	struct workload w;
	struct plan pl = one_gpu();
	struct encdec E;
	(void)state;
	t5ish(&w, 2, 1, 8, 2, 16, 10, 6, 3);
	w.llm.norm = NORM_LAYERNORM;
	encdec_init(&w, &pl, &E);
	assert_close(E.sd.layer_tensors, 30.0, TOL_EXACT);
}

/*
 * The fused cross-attention backward of the tiny model (input 6, target
 * 3, 2 heads of 4, no mask): 2.5 times the forward's 4 x 3 x 6 x 4 x 2 =
 * 576 FLOPs, 1440.
 */
static void test_cross_flash_backward_flop(void **state)
{
	struct workload w;
	struct estimate e;
	(void)state;
	t5ish(&w, 2, 1, 8, 2, 16, 10, 6, 3);
	estimate_ok(&w, &e);
	assert_close(tc_must_op(&ws, "cross.attn_flash")->flop, 576.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "cross.attn_flash.bwd")->flop, 1440.0, TOL_EXACT);
}

/*
 * Without flash attention the cross-attention's softmax backward reads
 * the probabilities, their gradient and the dropout mask and writes the
 * scores' gradient: (5 e + 1) B for each of bh x s x enc_s = 2 x 3 x 6 =
 * 36 scores, 396 B.
 */
static void test_cross_softmax_backward_bytes(void **state)
{
	struct workload w;
	struct estimate e;
	(void)state;
	t5ish(&w, 2, 1, 8, 2, 16, 10, 6, 3);
	w.train.flash_attention = 0;
	estimate_ok(&w, &e);
	assert_close(tc_must_op(&ws, "cross.attn_softmax.bwd")->bytes, 396.0, TOL_EXACT);
}

/*
 * Under tensor parallelism the cross-attention's input gradients are
 * summed over the ranks for the decoder's 3 tokens and the encoder's 6:
 * (3 + 6) x h 8 x 2 B = 144 B all-reduced.
 */
static void test_cross_input_gradient_allreduce(void **state)
{
	struct workload w;
	struct estimate e;
	(void)state;
	t5ish(&w, 2, 1, 8, 2, 16, 10, 6, 3);
	w.plan.tp = w.plan.count = 2;
	estimate_ok(&w, &e);
	assert_close(tc_must_op(&ws, "cross.tp_allreduce.bwd")->bytes, 144.0, TOL_EXACT);
}

/*
 * Full recompute of half the layers (recompute_frac 0.5) replays half the
 * cross-attentions: 1 decoder layer x 8 micro-batches x 0.5 = 4 replays
 * of its query projection a step.
 */
static void test_cross_partial_full_recompute(void **state)
{
	struct workload w;
	struct estimate e;
	(void)state;
	t5ish(&w, 2, 1, 8, 2, 16, 10, 6, 3);
	w.train.recompute = RECOMP_FULL;
	w.train.recompute_frac = 0.5;
	estimate_ok(&w, &e);
	assert_close(tc_must_op(&ws, "cross.q")->count, 8.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "cross.recompute.q")->count, 4.0, TOL_EXACT);
}

/* Activation bytes the encoder-decoder model keeps beyond the decoder's
 * own (mem_estimate() of the decoder's view) and the encoder's layers
 * (mem_layer_kept_bytes()): its cross-attentions and the encoder's
 * output. */
static double cross_and_encoder_output_bytes(const struct workload *w,
					     const struct plan *pl)
{
	struct encdec E;
	double all[MEM_COUNT] = { 0 }, dec[MEM_COUNT] = { 0 };
	encdec_init(w, pl, &E);
	llm_memory_bytes(w, pl, all);
	mem_estimate(&E.dec, pl, &E.sd, dec);
	return all[MEM_ACTIVATIONS] - dec[MEM_ACTIVATIONS] -
	       E.se.L * mem_layer_kept_bytes(&E.se, &E.enc.train);
}

/*
 * The tiny model's cross-attention keeps, for sb = 3 target and sbe = 6
 * input tokens: the norm's input and output 2 sb h e = 96 B and its
 * dropout mask sb h = 24 B; the query and the output projection's input
 * 2 sb a d e = 96 B and the encoder's keys and values 2 sbe g d e = 192 B;
 * flash attention's fp32 statistics 4 a sb = 24 B: 432 B.  The encoder's
 * output, read by every cross-attention, 6 x 8 x 2 = 96 B: 528 B.
 */
static void test_cross_activation_bytes(void **state)
{
	struct workload w;
	struct plan pl = one_gpu();
	(void)state;
	t5ish(&w, 2, 1, 8, 2, 16, 10, 6, 3);
	assert_close(cross_and_encoder_output_bytes(&w, &pl), 528.0, 1e-9);
}

/*
 * Tensor parallelism over 2 GPUs splits the cross-attention's query,
 * keys, values and core, (96 + 192 + 24) / 2 = 156 B, and keeps the
 * norm's 120 B whole: 276 B; sequence parallelism splits those too, 432 /
 * 2 = 216 B.  The encoder's output stays 96 B.
 */
static void test_cross_activation_bytes_split(void **state)
{
	struct workload w;
	struct plan pl = one_gpu();
	(void)state;
	t5ish(&w, 2, 1, 8, 2, 16, 10, 6, 3);
	pl.tp = pl.count = 2;
	assert_close(cross_and_encoder_output_bytes(&w, &pl), 276.0 + 96, 1e-9);
	pl.sequence_parallel = 1;
	assert_close(cross_and_encoder_output_bytes(&w, &pl), 216.0 + 96, 1e-9);
}

/*
 * The cross-attention's RMSNorm is run as the decoder's own norms are: in
 * an eager stack (composite_elem_frac 1) as composite ops, bf16 (e = 2):
 * forward (24 + 4 e) / (2 e) = 8 times the fused kernel's 2 x 3 tokens x
 * h 8 x 2 B = 96 B, 768 B, in 8 kernels; backward (44 + 6 e) / (4 e) =
 * 7 times the fused 4 x 3 x 8 x 2 = 192 B, 1,344 B, in 2 x 4.5 = 9:
 * the kernels of the decoder's own norm1.
 */
static void test_cross_norm_eager_composite(void **state)
{
	struct workload w;
	struct estimate e;
	struct gpu g;
	struct plan_problem why;
	(void)state;
	t5ish(&w, 2, 1, 8, 2, 16, 10, 6, 3);
	tc_test_a100(&g);
	g.eff.composite_elem_frac = 1;
	if (step_estimate(&w, &g, &ws, &e, &why))
		fail_msg("estimate failed: %s", why.msg);
	assert_close(tc_must_op(&ws, "cross.norm")->bytes, 768.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "cross.norm.bwd")->bytes, 1344.0, TOL_EXACT);
	/* the same kernels as the decoder's norm: the same launch time */
	assert_close(tc_must_op(&ws, "cross.norm")->launch_s,
		     tc_must_op(&ws, "decoder.norm1")->launch_s, TOL_EXACT);
	assert_close(tc_must_op(&ws, "cross.norm.bwd")->launch_s,
		     tc_must_op(&ws, "decoder.norm1.bwd")->launch_s, TOL_EXACT);
}

/* What is not modelled is refused, naming the field. */
static void test_refusals(void **state)
{
	static const struct {
		int pp, cp, lora, experts;
		enum wl_field field;
	} t[] = {
		{ 2, 1, 0, 0, WLF_PP },
		{ 1, 2, 0, 0, WLF_CP },
		{ 1, 1, 8, 0, WLF_FINETUNE },
		{ 1, 1, 0, 4, WLF_MODEL },
	};
	struct workload w;
	struct estimate e;
	struct plan_problem why;
	struct gpu g;
	size_t i;
	(void)state;
	tc_test_a100(&g);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		t5ish(&w, 2, 2, 64, 4, 256, 100, 64, 16);
		w.plan.pp = t[i].pp;
		w.plan.cp = t[i].cp;
		w.plan.count = t[i].pp * t[i].cp;
		if (t[i].lora) {
			w.train.finetune = FT_LORA;
			w.train.lora_rank = t[i].lora;
		}
		if (t[i].experts) {
			w.llm.experts = t[i].experts;
			w.llm.top_k = 1;
		}
		assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), -1);
		assert_int_equal(why.field, t[i].field);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_params_by_hand),
		cmocka_unit_test(test_flop_by_hand),
		cmocka_unit_test(test_step_is_its_operators),
		cmocka_unit_test(test_cross_ops_by_hand),
		cmocka_unit_test(test_lengths_scale_their_stack),
		cmocka_unit_test(test_memory_grows_with_input),
		cmocka_unit_test(test_workspace_holds_the_largest_step),
		cmocka_unit_test(test_cross_norm_eager_composite),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_cross_params_with_bias),
		cmocka_unit_test(test_tp_splits_all_but_final_norms),
		cmocka_unit_test(test_optimizer_tensors_of_both_stacks),
		cmocka_unit_test(test_cross_flash_backward_flop),
		cmocka_unit_test(test_cross_softmax_backward_bytes),
		cmocka_unit_test(test_cross_input_gradient_allreduce),
		cmocka_unit_test(test_cross_partial_full_recompute),
		cmocka_unit_test(test_cross_activation_bytes),
		cmocka_unit_test(test_cross_activation_bytes_split),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
