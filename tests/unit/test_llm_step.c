/*
 * test_llm_step.c - the operators of a language model's step, one at a
 * time, against their sizes by hand: the bytes and FLOPs of GEMMs,
 * attention and memory-bound kernels, the kernels eager PyTorch launches,
 * the parameters of grouped-query, biased and mixture-of-experts models,
 * and the layouts' collectives (context parallelism, HSDP, ZeRO 3,
 * interleaved and uneven pipelines, tied embeddings).
 *
 * The decoder of most tests: 2 layers, h 1024, 8 heads of d 128, SwiGLU
 * ffn f 2048, vocabulary 32000, untied; sequence 1024, micro-batch 1, so
 * T = 1024 tokens a micro-batch; global batch 8 on 8 frozen A100 80GB
 * SXM (8 a node), dp 8, one micro-batch a step.  Its parameters: a
 * layer's attention 4 h^2 = 4,194,304, its MLP 3 h f = 6,291,456 and two
 * RMSNorm scales 2 h = 2048, so 10,487,808; 2 layers, the token table and
 * the head V h = 32,768,000 each, the final norm 1024: 86,512,640.
 */
#include "tc_test.h"
#include "tc_llm.h"
#include "tc_ops.h"

#include "../../src/model/core/comm.h"

/* A GPU whose kernel launches never overlap the kernels: an operator's
 * launch time is then its kernels times one launch. */
static void launches_in_full(struct gpu *g)
{
	g->eff.launch_overlap_frac = 0;
}

/*
 * Grouped-query attention: 2 key-value heads of d 128 give K and V
 * projections of h x 256 each.  A layer's attention holds h (a d) + 2 h (g
 * d) + (a d) h = 1,048,576 + 524,288 + 1,048,576 = 2,621,440 weights, so
 * the layer 2,621,440 + 6,291,456 + 2048 = 8,914,944 and the model 2 x
 * 8,914,944 + 2 x 32,768,000 + 1024 = 83,366,912.
 */
static void test_gqa_params(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.llm.kv_heads = 2;
	tc_estimate_ok(&w, &g, &e);
	assert_close(e.params, 83366912.0, TOL_EXACT);
}

/*
 * Biases on a gated MLP: FC1 projects to both halves, 2f = 4096 outputs,
 * so its bias holds 4096 and FC2's h = 1024; the attention's biases a d +
 * 2 g d + h = 4096.  A layer 10,487,808 + 4096 + 5120 = 10,497,024; the
 * model 2 x 10,497,024 + 65,536,000 + 1024 = 86,531,072.
 */
static void test_gated_mlp_bias_params(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.llm.bias = 1;
	tc_estimate_ok(&w, &g, &e);
	assert_close(e.params, 86531072.0, TOL_EXACT);
}

/*
 * 4 experts, top 2: the model holds every expert's MLP, a token meets 2 of
 * them.  A layer holds 4,194,304 + 4 x 6,291,456 + the router h x 4 = 4096
 * + 2048 = 29,366,272, of which 4,194,304 + 2 x 6,291,456 + 4096 + 2048 =
 * 16,783,360 are active: the model 2 x 29,366,272 + 65,537,024 =
 * 124,269,568 parameters, 2 x 16,783,360 + 65,537,024 = 99,103,744 active.
 */
static void test_moe_active_params(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.llm.experts = 4;
	w.llm.top_k = 2;
	tc_estimate_ok(&w, &g, &e);
	assert_close(e.params, 124269568.0, TOL_EXACT);
	assert_close(e.active_params, 99103744.0, TOL_EXACT);
}

/*
 * An fp8 GEMM reads its inputs in fp8 (1 B) and writes its output in 16
 * bits (2 B): the QKV projection, T x 3072 x h, moves 1 x (1024 x 1024 +
 * 1024 x 3072) + 2 x 1024 x 3072 = 4,194,304 + 6,291,456 = 10,485,760 B.
 * fp8 GEMMs: the frozen H100 SXM.
 */
static void test_fp8_gemm_writes_16_bit_output(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	tc_test_gpu("h100-sxm", &g);
	w.train.precision = PREC_FP8;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "layer.qkv")->bytes, 10485760.0, TOL_EXACT);
}

/*
 * Flash attention, causal, forward: half of 4 s skv d (b a / t) = 0.5 x 4
 * x 1024 x 1024 x 128 x 8 = 2,147,483,648 FLOPs; it reads q, k, v and
 * writes the output, e bh d (2 s + 2 skv) = 2 x 8 x 128 x 4096 =
 * 8,388,608 B, and its fp32 softmax statistics, 4 bh s = 32,768 B:
 * 8,421,376 B.
 */
static void test_flash_forward_flop_and_bytes(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "layer.attn_flash")->flop, 2147483648.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "layer.attn_flash")->bytes, 8421376.0, TOL_EXACT);
}

/*
 * Its backward runs 5 GEMMs of the forward's 2 (the scores again): 2.5 x
 * 2,147,483,648 = 5,368,709,120 FLOPs; it reads and writes twice as much,
 * e bh d (4 s + 4 skv) + 8 bh s = 16,777,216 + 65,536 = 16,842,752 B.
 */
static void test_flash_backward_flop_and_bytes(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "layer.attn_flash.bwd")->flop, 5368709120.0,
		     TOL_EXACT);
	assert_close(tc_must_op(&ws, "layer.attn_flash.bwd")->bytes, 16842752.0,
		     TOL_EXACT);
}

/*
 * SwiGLU's activation act(a) * b: forward it reads a and b and writes the
 * product, 3 e an element of T x f; backward it reads the gradient, a and
 * b and writes both gradients, 5 e.  Fused (no eager composite ops):
 * forward 1024 x 2048 x 2 x 3 = 12,582,912 B, backward 1024 x 2048 x 2 x
 * 5 = 20,971,520 B.
 */
static void test_gated_activation_bytes(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	g.eff.composite_elem_frac = 0;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "layer.mlp_act")->bytes, 12582912.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "layer.mlp_act.bwd")->bytes, 20971520.0, TOL_EXACT);
}

/*
 * Eager PyTorch runs RMSNorm's backward as 9 autograd kernels where the
 * fused backward has 2 (llm_prim.c): with every elementwise chain eager,
 * a layer's norm backward launches 2 x 9 / 2 = 9 kernels, its forward 8.
 */
static void test_eager_rmsnorm_kernels(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	launches_in_full(&g);
	g.eff.composite_elem_frac = 1;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "layer.norm1.bwd")->launch_s, 9 * g.eff.launch_s,
		     TOL_TIGHT);
	assert_close(tc_must_op(&ws, "layer.norm1")->launch_s, 8 * g.eff.launch_s,
		     TOL_TIGHT);
}

/*
 * The router's top-k selection of 4 experts: softmax, top-k and their
 * fp32 scores, 3 passes of 4 B over the T x experts logits, 4 x 1024 x 4
 * x 3 = 49,152 B.
 */
static void test_moe_router_topk_bytes(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.llm.experts = 4;
	w.llm.top_k = 2;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "layer.router_topk")->bytes, 49152.0, TOL_EXACT);
}

/*
 * Each of a token's top_k = 2 copies goes to an expert: the experts' MLPs
 * take 2 T = 2048 token rows, and the SwiGLU activation over them moves
 * 2048 x 2048 x 2 x 3 = 25,165,824 B (fused).
 */
static void test_moe_activation_bytes(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.llm.experts = 4;
	w.llm.top_k = 2;
	g.eff.composite_elem_frac = 0;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "layer.mlp_act")->bytes, 25165824.0, TOL_EXACT);
}

/*
 * A capacity factor of 1.5 sizes the busiest rank's experts for 1.5 times
 * their share: 1024 x 2 x 1.5 = 3072 token rows, forward and backward.
 * FC1's data gradient, 3072 x h x 2f: 2 x 3072 x 1024 x 4096 =
 * 25,769,803,776 FLOPs.
 */
static void test_capacity_factor_expert_rows(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.llm.experts = 4;
	w.llm.top_k = 2;
	w.train.capacity_factor = 1.5;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "layer.mlp_fc1")->flop, 25769803776.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "layer.mlp_fc1.bwd_d")->flop, 25769803776.0,
		     TOL_EXACT);
}

/*
 * Per-op recompute (selective_op) replays wk, the K share of the QKV
 * GEMM: with 2 key-value heads, T x (g d) x h, 2 x 1024 x 256 x 1024 =
 * 536,870,912 FLOPs, not the query's 2,147,483,648.
 */
static void test_selective_op_replays_gqa_keys(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.llm.kv_heads = 2;
	w.train.recompute = RECOMP_SELECTIVE_OP;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "layer.recompute.qkv_k")->flop, 536870912.0,
		     TOL_EXACT);
}

/*
 * Of a gated MLP, per-op recompute replays w3, the up half of FC1 (T x f
 * x h, 2 x 1024 x 2048 x 1024 = 4,294,967,296 FLOPs), and not FC2; of an
 * ungated one, FC2, as many FLOPs.
 */
static void test_selective_op_replays_the_right_mlp_matmul(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.train.recompute = RECOMP_SELECTIVE_OP;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "layer.recompute.mlp_fc1_up")->flop, 4294967296.0,
		     TOL_EXACT);
	assert_null(tc_find_op(&ws, "layer.recompute.mlp_fc2"));
	w.llm.act = ACT_GELU;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "layer.recompute.mlp_fc2")->flop, 4294967296.0,
		     TOL_EXACT);
	assert_null(tc_find_op(&ws, "layer.recompute.mlp_fc1_up"));
}

/*
 * Per-op recompute of experts sized by a capacity factor of 1.5 replays
 * w3 on the busiest rank's 1024 x 2 x 1.5 = 3072 rows: 2 x 3072 x 2048 x
 * 1024 = 12,884,901,888 FLOPs.
 */
static void test_selective_op_replay_capacity_factor(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.llm.experts = 4;
	w.llm.top_k = 2;
	w.train.capacity_factor = 1.5;
	w.train.recompute = RECOMP_SELECTIVE_OP;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "layer.recompute.mlp_fc1_up")->flop, 12884901888.0,
		     TOL_EXACT);
}

/*
 * A LoRA adapter's backward moves twice its forward's bytes: for QKV (k =
 * h = 1024, n = 3072, r = 16, T = 1024) x, A, x A, B and the output, e (T
 * k + k r + T r + r n + T n) = 2 x (1,048,576 + 16,384 + 16,384 + 49,152
 * + 3,145,728) = 8,552,448 B forward, 17,104,896 B backward.
 */
static void test_lora_backward_bytes(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.train.finetune = FT_LORA;
	w.train.lora_rank = 16;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "layer.qkv_lora")->bytes, 8552448.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "layer.qkv_lora.bwd")->bytes, 17104896.0, TOL_EXACT);
}

/*
 * LoRA's gradients are the adapters' alone.  With heads of 64 (a d = 512,
 * not h), rank 16 on every linear: QKV r (h + 3 a d) = 16 x 2560 =
 * 40,960; the output projection r (a d + h) = 16 x 1536 = 24,576; FC1 r
 * (h + 2f) = 81,920; FC2 r (f + h) = 49,152: 196,608 a layer, 2 layers x
 * 2 B = 786,432 B all-reduced.
 */
static void test_lora_gradient_bytes_narrow_heads(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.llm.head_dim = 64;
	w.train.finetune = FT_LORA;
	w.train.lora_rank = 16;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "dp.grad_allreduce")->bytes, 786432.0, TOL_EXACT);
}

/*
 * QLoRA dequantises a layer's 4-bit weights before their GEMMs: each read
 * at 0.5 B and written at 2 B, 2.5 x 10,485,760 matmul weights =
 * 26,214,400 B, in 4 kernels for the attention's weights and 2 for the
 * MLP's: 6.
 */
static void test_qlora_dequant_bytes_and_kernels(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	launches_in_full(&g);
	w.train.finetune = FT_QLORA;
	w.train.lora_rank = 16;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "layer.dequant")->bytes, 26214400.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "layer.dequant")->launch_s, 6 * g.eff.launch_s,
		     TOL_TIGHT);
}

/*
 * Bytes an optimizer update moves per parameter under mixed precision
 * (llm.c, opt_bytes_per_param): AdamW 36, SGD with momentum 2 + 2 + 4 +
 * 8 + 8 = 24, Adafactor 2 + 2 + 4 + 8 + 4 = 20; ZeRO 0, each GPU updates
 * all 86,512,640: 3,114,455,040, 2,076,303,360 and 1,730,252,800 B.
 */
static void test_optimizer_bytes_by_optimizer(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "optimizer.step")->bytes, 3114455040.0, TOL_EXACT);
	w.train.optimizer = OPT_SGD;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "optimizer.step")->bytes, 2076303360.0, TOL_EXACT);
	w.train.optimizer = OPT_ADAFACTOR;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "optimizer.step")->bytes, 1730252800.0, TOL_EXACT);
}

/*
 * The optimizer's kernels: 20, and per layer of the busiest stage its
 * tensors, for 4 experts 4 weight matrices + 2 norms + the router + 2 x
 * 3 more expert matrices = 13; 20 + 2 x 13 = 46 launches.
 */
static void test_moe_optimizer_kernels(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	launches_in_full(&g);
	w.llm.experts = 4;
	w.llm.top_k = 2;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "optimizer.step")->launch_s, 46 * g.eff.launch_s,
		     TOL_TIGHT);
}

/*
 * ZeRO shards over data and context parallelism together: cp 2 on 16 GPUs
 * leaves dp 8, and the 16 ranks that hold the same weights shard them, so
 * each updates 86,512,640 / 16 = 5,407,040 parameters, x 36 B =
 * 194,653,440 B.
 */
static void test_zero_shards_over_context_parallel(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 16);
	w.plan.cp = 2;
	w.plan.zero = 1;
	tc_estimate_ok(&w, &g, &e);
	assert_int_equal(e.plan.dp, 8);
	assert_close(tc_must_op(&ws, "optimizer.step")->bytes, 194653440.0, TOL_EXACT);
}

/*
 * HSDP with ZeRO 1: 16 data-parallel ranks in shard groups of 8; after the
 * reduce-scatter within its group, each rank all-reduces its shard with
 * the other group's: 86,512,640 x 2 B / 8 = 21,628,160 B.
 */
static void test_hsdp_shard_allreduce_bytes(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 16);
	w.train.global_batch = 16;
	w.plan.zero = 1;
	w.plan.shard_group = 8;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "dp.shard_allreduce")->bytes, 21628160.0, TOL_EXACT);
}

/*
 * ZeRO 3 gathers each layer's weights forward and backward and scatters
 * its gradients, 3 x 10,487,808 x 2 B = 62,926,848 B a layer, also where
 * the only ranks that share the weights are context-parallel ones (cp 2,
 * dp 1).
 */
static void test_zero3_gathers_over_context_parallel(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 2);
	w.plan.cp = 2;
	w.plan.zero = 3;
	tc_estimate_ok(&w, &g, &e);
	assert_int_equal(e.plan.dp, 1);
	assert_close(tc_must_op(&ws, "layer.zero3_gather.exposed")->bytes, 62926848.0,
		     TOL_EXACT);
}

/*
 * Uneven pipeline stages: 8 layers on 3 stages, 2 on the first and 2 on
 * the last, leave 4 on the middle one, the busiest: each of the 8
 * micro-batches runs 4 layers there, 32 executions of a layer's operator.
 */
static void test_uneven_stages_middle_layers(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 3);
	w.llm.layers = 8;
	w.plan.pp = 3;
	w.plan.first_stage_layers = 2;
	w.plan.last_stage_layers = 2;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "layer.qkv")->count, 32, TOL_EXACT);
}

/*
 * Tied embeddings without an LM head (an encoder's task head): the last
 * stage holds its layer and the final norm, not the token table, so the
 * first stage, one layer and the table, 10,487,808 + 32,768,000 =
 * 43,255,808 parameters, has the most gradients: 86,511,616 B
 * all-reduced.
 */
static void test_tied_table_without_head_stays_on_first_stage(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.plan.pp = 2;
	w.llm.tied_embeddings = 1;
	w.llm.no_lm_head = 1;
	tc_estimate_ok(&w, &g, &e);
	assert_close(tc_must_op(&ws, "dp.grad_allreduce")->bytes, 86511616.0, TOL_EXACT);
}

/*
 * The tied embeddings' all-reduce pairs the first and the last stage,
 * tp x dp x (pp - 1) ranks apart: tp 1, dp 2, pp 3 on nodes of 4, 4 ranks
 * apart, so on two nodes: V h x 2 B = 65,536,000 B between nodes.
 */
static void test_tied_allreduce_across_nodes(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct comm_group apart = { 2, 1 };
	(void)state;
	tc_small_decoder(&w, &g, 6);
	w.llm.layers = 6;
	w.llm.tied_embeddings = 1;
	w.plan.pp = 3;
	w.plan.gpus_per_node = 4;
	tc_estimate_ok(&w, &g, &e);
	assert_int_equal(tc_must_op(&ws, "pp.embed_grad_allreduce")->coll.grp.per_node, 1);
	assert_close(tc_must_op(&ws, "pp.embed_grad_allreduce")->time_s,
		     comm_time_s(&g, &e.plan, COLL_ALLREDUCE, apart, 65536000.0),
		     TOL_EXACT);
}

/*
 * Interleaved 1F1B with v = 2 chunks a stage: for each micro-batch a
 * stage sends or receives an activation forward and a gradient backward
 * for each of its chunks, 2 v = 4 transfers, so the step's pipeline
 * communication is 8 micro-batches x 2 x 2 transfers of T h e =
 * 2,097,152 B between the 2 GPUs of a node.
 */
static void test_interleaved_pipeline_transfers(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct comm_group pair = { 2, 2 };
	(void)state;
	tc_small_decoder(&w, &g, 2);
	w.llm.layers = 4;
	w.plan.pp = 2;
	w.plan.interleave = 2;
	tc_estimate_ok(&w, &g, &e);
	assert_int_equal(e.plan.dp, 1);
	assert_close(e.breakdown_s[BRK_PP_COMM],
		     8 * 2 * 2 * comm_time_s(&g, &e.plan, COLL_P2P, pair,
					     2097152.0),
		     TOL_TIGHT);
}

/*
 * Pipeline neighbours are a whole stage apart, and a stage is tp x cp x dp
 * ranks (Megatron's order: tensor, then context, then data parallelism).
 * tp 2, cp 2, pp 2 with tied embeddings:
 * - on 8 GPUs (dp 1) a stage is 2 x 2 x 1 = 4 ranks, both stages in the
 *   node of 8: the sends and the tied table's all-reduce stay inside it;
 * - on 16 GPUs (dp 2) a stage is 2 x 2 x 2 = 8 ranks, a whole node: the
 *   next stage is on the other node, and so is the last.
 */
static void test_pipeline_neighbours_a_stage_apart(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate e;
	(void)state;
	tc_small_decoder(&w, &g, 8);
	w.llm.tied_embeddings = 1;
	w.plan.tp = w.plan.cp = w.plan.pp = 2;
	tc_estimate_ok(&w, &g, &e);
	assert_int_equal(e.plan.dp, 1);
	assert_int_equal(tc_must_op(&ws, "pp.send_recv")->coll.grp.per_node, 2);
	assert_int_equal(tc_must_op(&ws, "pp.embed_grad_allreduce")->coll.grp.per_node, 2);
	w.plan.count = 16;
	tc_estimate_ok(&w, &g, &e);
	assert_int_equal(e.plan.dp, 2);
	assert_int_equal(tc_must_op(&ws, "pp.send_recv")->coll.grp.per_node, 1);
	assert_int_equal(tc_must_op(&ws, "pp.embed_grad_allreduce")->coll.grp.per_node, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gqa_params),
		cmocka_unit_test(test_gated_mlp_bias_params),
		cmocka_unit_test(test_moe_active_params),
		cmocka_unit_test(test_fp8_gemm_writes_16_bit_output),
		cmocka_unit_test(test_flash_forward_flop_and_bytes),
		cmocka_unit_test(test_flash_backward_flop_and_bytes),
		cmocka_unit_test(test_gated_activation_bytes),
		cmocka_unit_test(test_eager_rmsnorm_kernels),
		cmocka_unit_test(test_moe_router_topk_bytes),
		cmocka_unit_test(test_moe_activation_bytes),
		cmocka_unit_test(test_capacity_factor_expert_rows),
		cmocka_unit_test(test_selective_op_replays_gqa_keys),
		cmocka_unit_test(test_selective_op_replays_the_right_mlp_matmul),
		cmocka_unit_test(test_selective_op_replay_capacity_factor),
		cmocka_unit_test(test_lora_backward_bytes),
		cmocka_unit_test(test_lora_gradient_bytes_narrow_heads),
		cmocka_unit_test(test_qlora_dequant_bytes_and_kernels),
		cmocka_unit_test(test_optimizer_bytes_by_optimizer),
		cmocka_unit_test(test_moe_optimizer_kernels),
		cmocka_unit_test(test_zero_shards_over_context_parallel),
		cmocka_unit_test(test_hsdp_shard_allreduce_bytes),
		cmocka_unit_test(test_zero3_gathers_over_context_parallel),
		cmocka_unit_test(test_uneven_stages_middle_layers),
		cmocka_unit_test(test_tied_table_without_head_stays_on_first_stage),
		cmocka_unit_test(test_tied_allreduce_across_nodes),
		cmocka_unit_test(test_interleaved_pipeline_transfers),
		cmocka_unit_test(test_pipeline_neighbours_a_stage_apart),
	};
	tc_use_test_data();
	return cmocka_run_group_tests(tests, tc_llm_setup, tc_llm_teardown);
}
