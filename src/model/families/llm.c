/*
 * llm.c - operators of a transformer training step on one GPU.
 *
 * Conventions (docs/model.md): T = b*s tokens of a micro-batch; a linear
 * layer is a GEMM (T x N x K) forward, a data-gradient GEMM (T x K x N) and a
 * weight-gradient GEMM (K x N x T) backward (none for frozen weights).  Per
 * GPU, tensor parallelism t splits N (column-parallel: QKV, FC1, LM head) or K
 * (row-parallel: attention output, FC2).
 */
#include "llm.h"
#include "llm_prim.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/comm.h"
#include "../core/compose.h"
#include "../core/roofline.h"

static double dmax(double a, double b) { return a > b ? a : b; }

/* 4-bit weights of one layer on one GPU read (0.5 B) and written as 16-bit
 * (2 B) before their GEMMs (QLoRA, Dettmers et al. 2023). */
static double qlora_dequant_bytes(const struct llm_shape *sh)
{
	return 2.5 * llm_gpu_layer_matmul_params(sh);
}

/*
 * Ring attention (Liu et al. 2023; Megatron context parallelism): each of
 * the cp ranks passes its keys and values around the ring, cp - 1 steps,
 * while it computes attention on the block it holds, so only what the
 * ring takes longer than the attention ops pushed since `first` is
 * exposed.  `passes`: 1 forward, 2 backward (K/V again, and their
 * gradients).  Counted with the tensor-parallel traffic in the breakdown.
 */
static void cp_ring(struct bld *B, const char *name, size_t first,
		    double passes)
{
	const struct llm_shape *sh = B->sh;
	double kv_bytes = sh->b * sh->skv * 2 * sh->g * sh->d / sh->t * sh->e;
	const struct est_workspace *ws = B->out->ws;
	struct comm_group cpg;
	double ring, busy = 0;
	size_t k;

	if (sh->cp <= 1)
		return;
	cpg = lb_group(sh->cp, sh->t, sh->gpn);
	ring = passes * comm_time_s(B->g, B->pl, COLL_ALLGATHER, cpg,
				    kv_bytes);
	for (k = first; k < ws->count; k++)
		busy += ws->ops[k].time_s;
	B->out->sums->net_bytes += passes * B->out->count *
				  comm_net_bytes(COLL_ALLGATHER, cpg, kv_bytes);
	lb_wire(B, name, BRK_TP_COMM, passes * kv_bytes, dmax(0, ring - busy));
}

/*
 * The LoRA adapters of a linear layer (T x n x k, over `experts`): x*A then
 * (x*A)*B, r wide, two small GEMMs per adapter; `passes` 1 forward, 2
 * backward (data and weight gradients).
 */
static void lora(struct bld *B, const char *name, double T, double n,
		 double k, double experts, double passes)
{
	const struct llm_shape *sh = B->sh;
	double m = T / experts, r = sh->lora_r;
	struct op_cost c;
	c.flop = passes * 2 * T * r * (n + k);
	c.bytes = passes * sh->e * experts * (m * k + k * r + m * r + r * n +
					      m * n);
	c.prec = B->pa;
	c.time_s = roof_time_at(&B->rates, B->pa, c.flop,
				roof_gemm_eff(B->g, B->pa, m, r, k, experts),
				c.bytes, 2 * passes, &c.bound, &c.launch_s);
	sink_put(B->out, name, BRK_GEMM, &c, 1, c.flop);
}

/*
 * The cast of a GEMM input held in 16 bits (e) into the GEMM's narrower
 * format (eg: fp8, fp4) before an fp8 or fp4 GEMM: Transformer Engine's
 * cast-transpose reads the tensor once and writes it `copies` times, as
 * is and transposed, since Hopper's fp8 GEMMs take only the TN layout
 * and the weight gradient reads the transpose.  Apart from its test
 * (gemm_input_cast()), which every linear layer passes: a 16-bit GEMM pays
 * for neither the call nor the name buffer.
 */
static __attribute__((noinline)) void
cast_op(struct bld *B, const char *gemm_name, double elems, double copies)
{
	const struct llm_shape *sh = B->sh;
	char name[EST_OP_NAME_LEN];
	int literal = B->out->literal_names;

	snprintf(name, sizeof(name), "%s.cast", gemm_name);
	B->out->literal_names = 0; /* a name composed here: the row copies it */
	lb_elem(B, name, BRK_MEMBOUND, elems * (sh->e + copies * sh->eg), 0, 1);
	B->out->literal_names = literal;
}

/* The cast of cast_op() before a GEMM in a format narrower than 16 bits. */
static inline void gemm_input_cast(struct bld *B, const char *gemm_name,
				   double elems, double copies)
{
	if (B->sh->eg < B->sh->e)
		cast_op(B, gemm_name, elems, copies);
}

/*
 * The MLP activation's input cast to fp8 for its backward, and back in the
 * backward (mlp_act_input_fp8): Megatron-Core's fused SwiGLU casts the
 * tensor with .to() on each side, a pass that reads it in one format and
 * writes it in the other, e + 1 bytes an element.
 */
static void act_input_cast(struct bld *B, const char *name, double elems,
			   double experts)
{
	if (B->sh->act_in < B->sh->e)
		lb_elem(B, name, BRK_MEMBOUND, elems * (B->sh->e + 1), 0, experts);
}

/* An adapter op's name where the linear has one (enum lora_target), else NULL */
#define IF_ADAPTED(bit, name) (B->sh->lora_on & (bit) ? (name) : NULL)
/* A linear layer forward: GEMM T x n x k, and its adapter `qname` if any. */
static void linear_fwd(struct bld *B, const char *name, const char *qname,
		       double T, double n, double k, double experts)
{
	const struct llm_shape *sh = B->sh;
	/* a frozen weight takes no gradient: no transposed copy */
	gemm_input_cast(B, name, T * k, sh->lora_r > 0 ? 1 : 2);
	/* Local experts: one GEMM each (Transformer Engine GroupedLinear,
	 * Megatron-Core grouped experts). */
	B->grouped = experts > 1;
	lb_gemm(B, name, BRK_GEMM, T / experts, n, k, experts);
	B->grouped = 0;
	if (sh->lora_r > 0 && qname)
		/* x*A then (x*A)*B, r-wide: two small GEMMs per adapter. */
		lora(B, qname, T, n, k, experts, 1);
}

/* Its backward: data, weight gradient unless frozen, adapter `aname` if any. */
static void linear_bwd(struct bld *B, const char *dname, const char *wname,
		       const char *aname, double T, double n, double k,
		       double experts)
{
	const struct llm_shape *sh = B->sh;
	double m = T / experts;
	gemm_input_cast(B, dname, T * n, sh->lora_r > 0 ? 1 : 2);
	B->grouped = experts > 1;
	lb_gemm(B, dname, BRK_GEMM, m, k, n, experts);
	if (sh->lora_r <= 0)
		lb_wgemm(B, wname, k, n, m, experts);
	B->grouped = 0;
	if (sh->lora_r > 0 && aname)
		lora(B, aname, T, n, k, experts, 2);
}

/*
 * The token shuffles around an expert layer (Megatron-Core's all-to-all
 * token dispatcher): `name` gathers a micro-batch's T tokens into their
 * top_k copies grouped by destination rank, or scatters them back weighted
 * by the router's probabilities; `sname` reorders the pairs that arrive
 * (Tr at the busiest rank) from rank-major to expert-major order, one read
 * and one write of each, when a rank holds more than one expert.  The same
 * bytes move in the backward.
 */
static void moe_permute(struct bld *B, const char *name, const char *sname,
			double T, double Tr)
{
	const struct llm_shape *sh = B->sh;
	double row = sh->h * sh->e, Tx = T * sh->top_k;

	lb_elem(B, name, BRK_MEMBOUND, (Tx + T) * row + 4 * Tx, 0, 1);
	if (sh->experts / sh->ep > 1)
		lb_elem(B, sname, BRK_MEMBOUND, 2 * Tr * row, 0, 1);
}

/* A norm of `bytes` in `kernels` fused kernels: RMSNorm is a chain that
 * eager PyTorch runs as composite ops (lb_chain), LayerNorm PyTorch's own
 * fused kernel in every stack. */
static void norm_op(struct bld *B, const char *name, double bytes,
		    double kernels, int bwd)
{
	if (B->sh->rmsnorm)
		lb_chain(B, name, bwd ? CHAIN_RMSNORM_BWD : CHAIN_RMSNORM, bytes,
			 kernels);
	else
		lb_elem(B, name, BRK_MEMBOUND, bytes, 0, kernels);
}

/* The rotary embedding of q and k, read and written once when fused (a
 * chain eager PyTorch runs as composite ops), forward or backward. */
static void rope_op(struct bld *B, const char *name)
{
	const struct llm_shape *sh = B->sh;
	lb_chain(B, name, CHAIN_ROPE,
		 2 * sh->b * sh->s * (sh->a + sh->g) * sh->d / sh->t * sh->e, 1);
}

/* The MLP's activation: a gated one is a chain (act(a) * b), a plain one
 * a single kernel in every stack. */
static void act_op(struct bld *B, const char *name, double bytes,
		   double kernels, int bwd)
{
	if (B->sh->gated)
		lb_chain(B, name, bwd ? CHAIN_GLU_BWD : CHAIN_GLU, bytes, kernels);
	else
		lb_elem(B, name, BRK_MEMBOUND, bytes, 0, kernels);
}

/* Forward of one layer (also used for recompute). */
static void layer_fwd(struct bld *B, int core_only)
{
	const struct llm_shape *sh = B->sh;
	double T = sh->b * sh->s, t = sh->t;
	double Tn = sh->sp ? T / t : T; /* tokens seen by norms, dropouts */
	double e = sh->e, h = sh->h, bh = sh->b * sh->a / t;
	double s = sh->s, d = sh->d, ffn_in = sh->gated ? 2 * sh->f : sh->f;
	double qkv_n = (sh->a + 2 * sh->g) * d / t;
	double Tx = T * sh->top_k; /* token-expert pairs */
	double Tr = Tx * sh->cf;   /* of them, at the busiest rank's experts */
	double lexp = sh->experts / sh->ep;
	struct comm_group tpg = B->tpg;
	double skv = sh->skv;
	size_t first_attn;
#define NM(x) (B->out->recompute ? "layer.recompute" x : "layer" x)

	if (!core_only) {
		norm_op(B, NM(".norm1"), 2 * Tn * h * e, 1, 0);
		if (sh->sp)
			lb_coll(B, NM(".tp_allgather1"), BRK_TP_COMM,
				COLL_ALLGATHER, tpg, T * h * e);
		if (sh->lora_r > 0 && sh->qlora)
			lb_elem(B, NM(".dequant"), BRK_MEMBOUND,
				qlora_dequant_bytes(sh), 0, 4 + 2 * lexp);
		linear_fwd(B, NM(".qkv"), IF_ADAPTED(LORA_QKV, NM(".qkv_lora")), T, qkv_n, h, 1);
		if (sh->rope)
			rope_op(B, NM(".rope"));
	}
	first_attn = B->out->ws->count;
	if (sh->flash) {
		double cf = sh->causal ? 0.5 : 1.0;
		double mf = 4 * s * skv * d * bh;
		lb_fused(B, NM(".attn_flash"), cf * mf,
			 e * bh * d * (2 * s + 2 * skv) + 4 * bh * s, mf,
			 cf * s, 1);
	} else {
		lb_gemm(B, NM(".attn_scores"), BRK_ATTN, s, skv, d, bh);
		lb_elem(B, NM(".attn_softmax"), BRK_ATTN, 2 * bh * s * skv * e, 0,
			1);
		lb_elem(B, NM(".attn_dropout"), BRK_ATTN,
			bh * s * skv * (2 * e + 1), 0, 1);
		lb_gemm(B, NM(".attn_context"), BRK_ATTN, s, d, skv, bh);
		lb_elem(B, NM(".attn_reshape"), BRK_MEMBOUND,
			2 * T * sh->a * d / t * e, 0, 1);
	}
	cp_ring(B, NM(".cp_ring"), first_attn, 1);
	if (core_only)
		return;
	linear_fwd(B, NM(".attn_out"), IF_ADAPTED(LORA_PROJ, NM(".attn_out_lora")), T, h,
		   sh->a * d / t, 1);
	lb_coll(B, sh->sp ? NM(".tp_reducescatter1") : NM(".tp_allreduce1"),
		BRK_TP_COMM, sh->sp ? COLL_REDUCE_SCATTER : COLL_ALLREDUCE, tpg,
		T * h * e);
	lb_elem(B, NM(".residual1"), BRK_MEMBOUND, Tn * h * (3 * e + 1), 0, 1);
	norm_op(B, NM(".norm2"), 2 * Tn * h * e, 1, 0);
	if (sh->sp)
		lb_coll(B, NM(".tp_allgather2"), BRK_TP_COMM, COLL_ALLGATHER, tpg,
			T * h * e);
	if (sh->experts > 1) {
		struct comm_group epg = lb_group(sh->ep, sh->t, sh->gpn);
		lb_gemm(B, NM(".router"), BRK_GEMM, T, sh->experts, h, 1);
		lb_elem(B, NM(".router_topk"), BRK_MEMBOUND,
			4 * T * sh->experts * 3, 0, 4);
		moe_permute(B, NM(".moe_permute"), NM(".moe_sort"), T, Tr);
		lb_coll(B, NM(".ep_dispatch"), BRK_EP_COMM, COLL_ALLTOALL, epg,
			Tr * h * e);
		linear_fwd(B, NM(".mlp_fc1"), IF_ADAPTED(LORA_FC1, NM(".mlp_fc1_lora")), Tr,
			   ffn_in / t, h, lexp);
		act_op(B, NM(".mlp_act"), Tr * sh->f / t * e * (sh->gated ? 3 : 2),
		       lexp, 0);
		act_input_cast(B, NM(".mlp_act_input_fp8"), Tr * ffn_in / t,
			       lexp);
		linear_fwd(B, NM(".mlp_fc2"), IF_ADAPTED(LORA_FC2, NM(".mlp_fc2_lora")), Tr, h,
			   sh->f / t, lexp);
		lb_coll(B, NM(".ep_combine"), BRK_EP_COMM, COLL_ALLTOALL, epg,
			Tr * h * e);
		moe_permute(B, NM(".moe_unpermute"), NM(".moe_unsort"), T, Tr);
	} else {
		linear_fwd(B, NM(".mlp_fc1"), IF_ADAPTED(LORA_FC1, NM(".mlp_fc1_lora")), T,
			   ffn_in / t, h, 1);
		act_op(B, NM(".mlp_act"), T * sh->f / t * e * (sh->gated ? 3 : 2),
		       1, 0);
		act_input_cast(B, NM(".mlp_act_input_fp8"), T * ffn_in / t, 1);
		linear_fwd(B, NM(".mlp_fc2"), IF_ADAPTED(LORA_FC2, NM(".mlp_fc2_lora")), T, h,
			   sh->f / t, 1);
	}
	lb_coll(B, sh->sp ? NM(".tp_reducescatter2") : NM(".tp_allreduce2"),
		BRK_TP_COMM, sh->sp ? COLL_REDUCE_SCATTER : COLL_ALLREDUCE, tpg,
		T * h * e);
	lb_elem(B, NM(".residual2"), BRK_MEMBOUND, Tn * h * (3 * e + 1), 0, 1);
#undef NM
}

/*
 * The replay of a block under RECOMP_SELECTIVE_OP (torchtitan's per-op
 * checkpointing; what it keeps: mem_layer_op_saved_bytes(), memory.c):
 * the norms, RoPE, the activation and the residual adds again, and every
 * second matmul: wk (the K share of the fused QKV GEMM), wo and w3 (the up
 * half of a gated FC1) or, ungated, FC2.  Collectives are not replayed:
 * torchtitan's _save_list keeps reduce-scatter outputs, and its runs with
 * this policy are FSDP without TP.
 */
static void layer_op_replay(struct bld *B)
{
	const struct llm_shape *sh = B->sh;
	double T = sh->b * sh->s, t = sh->t, e = sh->e, h = sh->h, d = sh->d;
	double Tn = sh->sp ? T / t : T;
	double Tf = T * sh->top_k * sh->cf, lexp = sh->experts / sh->ep;

	norm_op(B, "layer.recompute.norm1", 2 * Tn * h * e, 1, 0);
	lb_gemm(B, "layer.recompute.qkv_k", BRK_GEMM, T, sh->g * d / t, h, 1);
	if (sh->rope)
		rope_op(B, "layer.recompute.rope");
	lb_gemm(B, "layer.recompute.attn_out", BRK_GEMM, T, h, sh->a * d / t, 1);
	lb_elem(B, "layer.recompute.residual1", BRK_MEMBOUND,
		Tn * h * (3 * e + 1), 0, 1);
	norm_op(B, "layer.recompute.norm2", 2 * Tn * h * e, 1, 0);
	B->grouped = lexp > 1;
	if (sh->gated)
		lb_gemm(B, "layer.recompute.mlp_fc1_up", BRK_GEMM, Tf / lexp,
			sh->f / t, h, lexp);
	else
		lb_gemm(B, "layer.recompute.mlp_fc2", BRK_GEMM, Tf / lexp, h,
			sh->f / t, lexp);
	B->grouped = 0;
	act_op(B, "layer.recompute.mlp_act",
	       Tf * sh->f / t * e * (sh->gated ? 3 : 2), lexp, 0);
	lb_elem(B, "layer.recompute.residual2", BRK_MEMBOUND,
		Tn * h * (3 * e + 1), 0, 1);
}

/*
 * The input gradient of a tensor-parallel block summed over the TP ranks:
 * with sequence parallelism reduce-scattered (`rs`) and gathered again for
 * the norm's backward (`ag`), else all-reduced (`ar`).
 */
static void tp_input_grad(struct bld *B, const char *rs, const char *ag,
			  const char *ar, struct comm_group tpg, double bytes)
{
	if (B->sh->sp) {
		lb_coll(B, rs, BRK_TP_COMM, COLL_REDUCE_SCATTER, tpg, bytes);
		lb_coll(B, ag, BRK_TP_COMM, COLL_ALLGATHER, tpg, bytes);
	} else {
		lb_coll(B, ar, BRK_TP_COMM, COLL_ALLREDUCE, tpg, bytes);
	}
}

/* Backward of one layer, recompute excluded. */
static void layer_bwd(struct bld *B)
{
	const struct llm_shape *sh = B->sh;
	double T = sh->b * sh->s, t = sh->t;
	double Tn = sh->sp ? T / t : T;
	double e = sh->e, h = sh->h, bh = sh->b * sh->a / t;
	double s = sh->s, d = sh->d, ffn_in = sh->gated ? 2 * sh->f : sh->f;
	double qkv_n = (sh->a + 2 * sh->g) * d / t;
	double Tr = T * sh->top_k * sh->cf, lexp = sh->experts / sh->ep;
	double xm = sh->experts > 1 ? Tr : T, xe = sh->experts > 1 ? lexp : 1;
	struct comm_group tpg = B->tpg;
	double tp_bytes = T * h * e;
	double skv = sh->skv;
	size_t first_attn;

	lb_elem(B, "layer.residual2.bwd", BRK_MEMBOUND, Tn * h * (2 * e + 1), 0,
		1);
	if (sh->lora_r > 0 && sh->qlora)
		lb_elem(B, "layer.dequant.bwd", BRK_MEMBOUND,
			qlora_dequant_bytes(sh), 0, 4 + 2 * lexp);
	if (sh->sp)
		lb_coll(B, "layer.tp_allgather2.bwd", BRK_TP_COMM, COLL_ALLGATHER,
			tpg, tp_bytes);
	if (sh->experts > 1) {
		struct comm_group epg = lb_group(sh->ep, sh->t, sh->gpn);
		moe_permute(B, "layer.moe_unpermute.bwd", "layer.moe_unsort.bwd",
			    T, Tr);
		lb_coll(B, "layer.ep_combine.bwd", BRK_EP_COMM, COLL_ALLTOALL,
			epg, Tr * h * e);
	}
	linear_bwd(B, "layer.mlp_fc2.bwd_d", "layer.mlp_fc2.bwd_w",
		   IF_ADAPTED(LORA_FC2, "layer.mlp_fc2_lora.bwd"), xm, h, sh->f / t, xe);
	act_input_cast(B, "layer.mlp_act_input_fp8.bwd", xm * ffn_in / t, xe);
	act_op(B, "layer.mlp_act.bwd", xm * sh->f / t * e * (sh->gated ? 5 : 3),
	       xe, 1);
	linear_bwd(B, "layer.mlp_fc1.bwd_d", "layer.mlp_fc1.bwd_w",
		   IF_ADAPTED(LORA_FC1, "layer.mlp_fc1_lora.bwd"), xm, ffn_in / t, h, xe);
	if (sh->experts > 1) {
		struct comm_group epg = lb_group(sh->ep, sh->t, sh->gpn);
		lb_coll(B, "layer.ep_dispatch.bwd", BRK_EP_COMM, COLL_ALLTOALL,
			epg, Tr * h * e);
		moe_permute(B, "layer.moe_permute.bwd", "layer.moe_sort.bwd", T,
			    Tr);
		lb_gemm(B, "layer.router.bwd_d", BRK_GEMM, T, h, sh->experts, 1);
		if (sh->lora_r <= 0)
			lb_wgemm(B, "layer.router.bwd_w", h, sh->experts, T, 1);
	}
	tp_input_grad(B, "layer.tp_reducescatter2.bwd", "layer.tp_regather2.bwd",
		      "layer.tp_allreduce2.bwd", tpg, tp_bytes);
	norm_op(B, "layer.norm2.bwd", 3 * Tn * h * e + Tn * h * e, 2, 1);
	lb_elem(B, "layer.residual1.bwd", BRK_MEMBOUND, Tn * h * (2 * e + 1), 0,
		1);
	if (sh->sp)
		lb_coll(B, "layer.tp_allgather1.bwd", BRK_TP_COMM, COLL_ALLGATHER,
			tpg, tp_bytes);
	linear_bwd(B, "layer.attn_out.bwd_d", "layer.attn_out.bwd_w",
		   IF_ADAPTED(LORA_PROJ, "layer.attn_out_lora.bwd"), T, h, sh->a * d / t, 1);
	first_attn = B->out->ws->count;
	if (sh->flash) {
		double cf = sh->causal ? 0.5 : 1.0;
		double mf = 4 * s * skv * d * bh;
		/* 5 GEMMs of the fwd's 2 (scores recomputed): 2.5x. */
		lb_fused(B, "layer.attn_flash.bwd", 2.5 * cf * mf,
			 e * bh * d * (4 * s + 4 * skv) + 8 * bh * s, 2 * mf,
			 cf * s, 0);
	} else {
		lb_elem(B, "layer.attn_reshape.bwd", BRK_MEMBOUND,
			2 * T * sh->a * d / t * e, 0, 1);
		lb_gemm(B, "layer.attn_context.bwd_d", BRK_ATTN, s, skv, d, bh);
		lb_gemm(B, "layer.attn_context.bwd_w", BRK_ATTN, skv, d, s, bh);
		lb_elem(B, "layer.attn_dropout.bwd", BRK_ATTN,
			bh * s * skv * (2 * e + 1), 0, 1);
		lb_elem(B, "layer.attn_softmax.bwd", BRK_ATTN,
			3 * bh * s * skv * e, 0, 1);
		lb_gemm(B, "layer.attn_scores.bwd_d", BRK_ATTN, s, d, skv, bh);
		lb_gemm(B, "layer.attn_scores.bwd_w", BRK_ATTN, skv, d, s, bh);
	}
	/* Keys and values pass the ring again, their gradients back. */
	cp_ring(B, "layer.cp_ring.bwd", first_attn, 2);
	if (sh->rope)
		rope_op(B, "layer.rope.bwd");
	linear_bwd(B, "layer.qkv.bwd_d", "layer.qkv.bwd_w", IF_ADAPTED(LORA_QKV, "layer.qkv_lora.bwd"),
		   T, qkv_n, h, 1);
	tp_input_grad(B, "layer.tp_reducescatter1.bwd", "layer.tp_regather1.bwd",
		      "layer.tp_allreduce1.bwd", tpg, tp_bytes);
	norm_op(B, "layer.norm1.bwd", 4 * Tn * h * e, 2, 1);
}

void llm_layer_ops(struct op_sink *out, const struct gpu *g,
		   const struct plan *pl, const struct llm_shape *sh,
		   enum tc_prec prec)
{
	struct bld B;
	struct kit_memo memo;
	lb_init(&B, out, g, pl, sh, prec, &memo);
	if (out->bwd)
		layer_bwd(&B);
	else
		layer_fwd(&B, 0);
}

/* Bytes per trainable parameter moved by one optimizer update. */
static double opt_bytes_per_param(const struct workload *w, double e)
{
	int mixed = e < 4;
	switch (w->train.optimizer) {
	case OPT_SGD:
		/* grad, momentum r/w, weight r/w (fp32 master when mixed) */
		return (mixed ? 2 + 2 + 4 : 4) + 8 + 8;
	case OPT_ADAFACTOR:
		/* grad, weight r/w, factored second moment (negligible) */
		return (mixed ? 2 + 2 + 4 : 4) + 8 + 4;
	case OPT_ADAMW:
	default:
		/* grad (+ fp32 copy), master r/w, m r/w, v r/w, 16-bit weight
		 * write, grad-norm read: Megatron/apex fused Adam. */
		return mixed ? 2 + 4 + 8 + 8 + 8 + 2 + 4 : 4 + 8 + 8 + 8 + 4;
	}
}

/*
 * The data-parallel groups of a layout: the ranks holding the same weights,
 * dp x cp (TP innermost, then CP, then DP: Megatron's order); ZeRO's shard
 * groups of sh->shard of them; and the sh->replicas groups that reduce
 * their shards.
 */
static void dp_groups(const struct llm_shape *sh, struct comm_group *dpg,
		      struct comm_group *shg, struct comm_group *rpg)
{
	*dpg = lb_group(sh->dp * sh->cp, sh->t, sh->gpn);
	*shg = lb_group(sh->shard, sh->t, sh->gpn);
	*rpg = lb_group(sh->replicas, sh->t * sh->shard, sh->gpn);
}

/* Every layer of a stage: forward, backward with its recompute (of
 * `share` of the layers under full recompute), and the exposed part of
 * ZeRO-3's per-layer gathers. */
static void build_layers(struct bld *B, enum recompute rc, double share)
{
	const struct llm_shape *sh = B->sh;
	const struct gpu *g = B->g;
	const struct plan *pl = B->pl;
	struct op_sums *sums = B->out->sums;
	double t = sh->t, e = sh->e;

	/* Layers: forward, then backward with its recompute; listed for the
	 * GPU of the stage with the most layers. */
	B->out->stage = OPS_LAYER;
	B->out->count = llm_busiest_stage_layers(sh) * sh->m;
	layer_fwd(B, 0);
	B->out->bwd = 1;
	if (rc == RECOMP_FULL || rc == RECOMP_SELECTIVE) {
		B->out->recompute = 1;
		/* a share of the layers: their average */
		B->out->mult = rc == RECOMP_FULL ? share : 1;
		layer_fwd(B, rc == RECOMP_SELECTIVE);
		B->out->mult = 1;
		B->out->recompute = 0;
	} else if (rc == RECOMP_SELECTIVE_OP) {
		B->out->recompute = 1;
		layer_op_replay(B);
		B->out->recompute = 0;
	}
	layer_bwd(B);
	B->out->bwd = 0;
	if (pl->zero == 3 && sh->dp * sh->cp > 1) {
		/* Gather the layer's weights forward and backward, scatter its
		 * gradients, and with several shard groups all-reduce the
		 * scattered shard across them (HSDP, as FSDP does per unit in
		 * the backward): hidden behind the layer's compute by
		 * prefetch where the stack overlaps (grad_overlap), slowing
		 * that compute; what is left is exposed. */
		double lb = sh->layer_params / t * e;
		struct comm_group dpg, shg, rpg;
		dp_groups(sh, &dpg, &shg, &rpg);
		double c = 2 * comm_time_s(g, pl, COLL_ALLGATHER, shg, lb) +
			   comm_time_s(g, pl, COLL_REDUCE_SCATTER, shg, lb) +
			   comm_time_s(g, pl, COLL_ALLREDUCE, rpg,
					lb / sh->shard);
		double busy = 0;
		int k;
		for (k = 0; k < BRK_COUNT; k++)
			busy += sums->t[OPS_LAYER][k];
		sums->net_bytes += B->out->count *
			(2 * comm_net_bytes(COLL_ALLGATHER, shg, lb) +
			 comm_net_bytes(COLL_REDUCE_SCATTER, shg, lb) +
			 comm_net_bytes(COLL_ALLREDUCE, rpg, lb / sh->shard));
		double exposed = c;
		if (pl->grad_overlap)
			exposed = dmax(0, c - busy) +
				  overlap_cost_s(fmin(c, busy), g->eff.overlap_slow_frac);
		lb_wire(B, "layer.zero3_gather.exposed", BRK_DP_COMM, 3 * lb, exposed);
	}
}

/* The first stage's own work: the embedding, and the pipeline's sends and
 * receives (listed once; the composer adds sums->p2p_s to every stage). */
static void build_first(struct bld *B, const struct workload *w)
{
	const struct llm_shape *sh = B->sh;
	const struct gpu *g = B->g;
	const struct plan *pl = B->pl;
	struct op_sums *sums = B->out->sums;
	double T = sh->b * sh->s, t = sh->t, e = sh->e, h = sh->h;
	double Tn = sh->sp ? T / t : T;
	struct comm_group tpg = B->tpg;

	/* First stage: embedding. */
	B->out->stage = OPS_FIRST;
	B->out->count = sh->m;
	lb_elem(B, "embed.fwd", BRK_MEMBOUND,
		T * h * e * (w->llm.positions == POS_LEARNED ? 4 : 2) +
		     Tn * h * (2 * e + 1),
	     0, w->llm.positions == POS_LEARNED ? 3 : 2);
	if (sh->t > 1)
		lb_coll(B, sh->sp ? "embed.tp_reducescatter" : "embed.tp_allreduce",
			BRK_TP_COMM, sh->sp ? COLL_REDUCE_SCATTER : COLL_ALLREDUCE,
			tpg, T * h * e);
	B->out->bwd = 1;
	if (sh->lora_r <= 0)
		lb_elem(B, "embed.bwd", BRK_MEMBOUND, 3 * T * h * e, 0, 2);
	B->out->bwd = 0;
	if (sh->p > 1) {
		/* 1F1B: every stage sends or receives one activation forward
		 * and one gradient backward per micro-batch (Megatron scatters
		 * them over the TP ranks).  Listed once; step.c adds
		 * sums->p2p_s to every stage. */
		struct comm_group pg = lb_stage_pair(sh, 1);
		struct op_cost c = { 0, T * h * e / t, 0, 0, B->pa,
				     BOUND_NETWORK };
		double n = 2 * sh->m * sh->v;
		c.time_s = comm_time_s(g, pl, COLL_P2P, pg, c.bytes);
		sink_coll(B->out, sink_list(B->out, "pp.send_recv", BRK_PP_COMM, &c, n),
			  COLL_P2P, pg);
		sums->p2p_s = 2 * sh->v * c.time_s;
		sums->net_bytes += n * comm_net_bytes(COLL_P2P, pg, c.bytes);
	}
}

/* The last stage's own work: final norm, LM head, loss, filed under
 * `stage`; without the head and loss, the final norm alone. */
static void build_last(struct bld *B, enum op_stage stage, int with_head)
{
	const struct llm_shape *sh = B->sh;
	double T = sh->b * sh->s, t = sh->t, e = sh->e, h = sh->h;
	double Tn = sh->sp ? T / t : T;
	/* the rows the head projects: a masked LM gathers its masked
	 * positions first (google-research/bert run_pretraining.py,
	 * get_masked_lm_output: gather_indexes before the transform) */
	double Th = T * sh->head_frac;
	struct comm_group tpg = B->tpg;
	/*
	 * The head's GEMMs stay in 16 bits in fp8 and fp4 training:
	 * Megatron's output layer is not a Transformer Engine module, and
	 * torchtitan's float8 conversion skips it.
	 */
	struct bld head = *B;
	head.pg = B->pa;
	head.eg = sh->e;

	B->out->stage = stage;
	norm_op(B, "final_norm.fwd", 2 * Tn * h * e, 1, 0);
	/* no head, or a task head of a few outputs: negligible */
	if (!with_head || sh->no_lm_head) {
		B->out->bwd = 1;
		norm_op(B, "final_norm.bwd", 4 * Tn * h * e, 2, 1);
		B->out->bwd = 0;
		return;
	}
	if (sh->sp)
		lb_coll(B, "head.tp_allgather", BRK_TP_COMM, COLL_ALLGATHER, tpg,
			T * h * e);
	lb_gemm(&head, "lm_head.fwd", BRK_GEMM, Th, sh->V / t, h, 1);
	lb_elem(B, "loss.fwd", BRK_MEMBOUND, Th * sh->V / t * (e + 4 * 3), 0, 6);
	if (sh->t > 1)
		lb_coll(B, "loss.tp_allreduce", BRK_TP_COMM, COLL_ALLREDUCE, tpg,
			3 * Th * 4);
	B->out->bwd = 1;
	lb_elem(B, "loss.bwd", BRK_MEMBOUND, Th * sh->V / t * (4 * 2 + e), 0, 3);
	lb_gemm(&head, "lm_head.bwd_d", BRK_GEMM, Th, h, sh->V / t, 1);
	if (sh->lora_r <= 0)
		lb_wgemm(&head, "lm_head.bwd_w", h, sh->V / t, Th, 1);
	if (sh->t > 1)
		lb_coll(B, sh->sp ? "head.tp_reducescatter.bwd" :
				  "head.tp_allreduce.bwd",
		     BRK_TP_COMM, sh->sp ? COLL_REDUCE_SCATTER : COLL_ALLREDUCE,
		     tpg, T * h * e);
	norm_op(B, "final_norm.bwd", 4 * Tn * h * e, 2, 1);
	B->out->bwd = 0;
}

/* Once per step: the gradient reduction of the layout's ZeRO stage, the
 * tied embeddings' all-reduce, the optimizer. */
static void build_step(struct bld *B, const struct workload *w)
{
	const struct llm_shape *sh = B->sh;
	double t = sh->t, e = sh->e, h = sh->h;
	double gb = e;              /* gradient bytes */
	double train_params;
	int zero = B->pl->zero;
	struct comm_group dpg, shg, rpg;

	dp_groups(sh, &dpg, &shg, &rpg);
	/* Once per step: gradient reduction, optimizer. */
	B->out->stage = OPS_STEP;
	B->out->count = 1;
	train_params = dmax(dmax(sh->trainable_first, sh->trainable_last),
			    sh->trainable_mid);
	if (sh->dp * sh->cp > 1) {
		double gbytes = train_params * gb;
		if (zero == 0)
			lb_coll(B, "dp.grad_allreduce", BRK_DP_COMM,
				COLL_ALLREDUCE, dpg, gbytes);
		else if (zero <= 2)
			lb_coll(B, "dp.grad_reducescatter", BRK_DP_COMM,
				COLL_REDUCE_SCATTER, shg, gbytes);
		/* MiCS / ZeRO++ hpZ: each shard is all-reduced across the
		 * groups that hold it (Zhang et al. VLDB'22, sec. 3); under
		 * ZeRO 3 that happens per layer, above. */
		if (zero >= 1 && zero <= 2)
			lb_coll(B, "dp.shard_allreduce", BRK_DP_COMM,
				COLL_ALLREDUCE, rpg, gbytes / sh->shard);
		if (zero >= 1 && zero <= 2)
			lb_coll(B, "dp.param_allgather", BRK_DP_COMM,
				COLL_ALLGATHER, shg, train_params * e);
	}
	if (sh->p > 1 && w->llm.tied_embeddings && !sh->no_lm_head &&
	    sh->lora_r <= 0) {
		/* Tied word embeddings live on the first and last stage. */
		struct comm_group eg = lb_stage_pair(sh, sh->p - 1);
		lb_coll(B, "pp.embed_grad_allreduce", BRK_DP_COMM, COLL_ALLREDUCE,
			eg, sh->V * h / t * gb);
	}
	{
		double pp_ = train_params / (zero >= 1 ? sh->shard : 1);
		double kern = 20 + sh->layer_tensors *
				   llm_busiest_stage_layers(sh);
		lb_elem(B, "optimizer.step", BRK_OPTIMIZER,
			pp_ * opt_bytes_per_param(w, e), 0, kern);
	}
}

void llm_build_stack(struct op_sink *out, const struct workload *w,
		     const struct gpu *g, const struct plan *pl,
		     const struct llm_shape *sh, unsigned parts)
{
	struct bld B;
	struct kit_memo memo;

	lb_init(&B, out, g, pl, sh, w->train.precision, &memo);
	if (parts & LLM_PART_LAYERS)
		build_layers(&B, w->train.recompute,
			     train_recompute_share(&w->train));
	if (parts & LLM_PART_FIRST)
		build_first(&B, w);
	if (parts & LLM_PART_LAST)
		build_last(&B, OPS_LAST, 1);
	else if (parts & LLM_PART_FINAL_NORM_FIRST)
		build_last(&B, OPS_FIRST, 0);
	if (parts & LLM_PART_STEP)
		build_step(&B, w);
}

void llm_build_ops(const struct workload *w, const struct gpu *g,
		  const struct plan *pl, const struct llm_shape *sh,
		  struct est_workspace *ws, struct op_sums *sums)
{
	struct op_sink sink;

	sink_start(&sink, ws, sums, 0);
	sink.literal_names = 1; /* the builder's names, but for its casts' */
	llm_build_stack(&sink, w, g, pl, sh, LLM_PART_ALL);
}

/*
 * Cross-attention of a decoder layer (encoder-decoder models): queries from
 * the decoder's sh->s tokens, keys and values projected from the encoder's
 * output, enc_s tokens a sample, attended without a mask.  Forward, also
 * for recompute (core_only: the attention core alone, as selective
 * recompute does).
 */
static void cross_fwd(struct bld *B, double enc_s, int core_only)
{
	const struct llm_shape *sh = B->sh;
	double T = sh->b * sh->s, Te = sh->b * enc_s, t = sh->t;
	double Tn = sh->sp ? T / t : T, e = sh->e, h = sh->h, d = sh->d;
	double bh = sh->b * sh->a / t, s = sh->s, ad = sh->a * d / t;
	struct comm_group tpg = B->tpg;
#define NM(x) (B->out->recompute ? "cross.recompute" x : "cross" x)

	if (!core_only) {
		norm_op(B, NM(".norm"), 2 * Tn * h * e, 1, 0);
		if (sh->sp) /* the norm's output and the encoder's output */
			lb_coll(B, NM(".tp_allgather"), BRK_TP_COMM,
				COLL_ALLGATHER, tpg, (T + Te) * h * e);
		linear_fwd(B, NM(".q"), IF_ADAPTED(LORA_QKV, NM(".q_lora")), T, ad, h, 1);
		linear_fwd(B, NM(".kv"), IF_ADAPTED(LORA_QKV, NM(".kv_lora")), Te,
			   2 * sh->g * d / t, h, 1);
	}
	if (sh->flash) {
		double mf = 4 * s * enc_s * d * bh;
		lb_fused(B, NM(".attn_flash"), mf,
			 e * bh * d * (2 * s + 2 * enc_s) + 4 * bh * s, mf,
			 enc_s, 1);
	} else {
		lb_gemm(B, NM(".attn_scores"), BRK_ATTN, s, enc_s, d, bh);
		lb_elem(B, NM(".attn_softmax"), BRK_ATTN,
			2 * bh * s * enc_s * e, 0, 1);
		lb_elem(B, NM(".attn_dropout"), BRK_ATTN,
			bh * s * enc_s * (2 * e + 1), 0, 1);
		lb_gemm(B, NM(".attn_context"), BRK_ATTN, s, d, enc_s, bh);
	}
	if (core_only)
		return;
	linear_fwd(B, NM(".attn_out"), IF_ADAPTED(LORA_PROJ, NM(".attn_out_lora")), T, h, ad, 1);
	lb_coll(B, sh->sp ? NM(".tp_reducescatter") : NM(".tp_allreduce"),
		BRK_TP_COMM, sh->sp ? COLL_REDUCE_SCATTER : COLL_ALLREDUCE, tpg,
		T * h * e);
	lb_elem(B, NM(".residual"), BRK_MEMBOUND, Tn * h * (3 * e + 1), 0, 1);
#undef NM
}

/* Backward of cross_fwd (recompute excluded); the keys' and values'
 * data gradient flows into the encoder's output. */
static void cross_bwd(struct bld *B, double enc_s)
{
	const struct llm_shape *sh = B->sh;
	double T = sh->b * sh->s, Te = sh->b * enc_s, t = sh->t;
	double Tn = sh->sp ? T / t : T, e = sh->e, h = sh->h, d = sh->d;
	double bh = sh->b * sh->a / t, s = sh->s, ad = sh->a * d / t;
	struct comm_group tpg = B->tpg;

	lb_elem(B, "cross.residual.bwd", BRK_MEMBOUND, Tn * h * (2 * e + 1), 0,
		1);
	if (sh->sp)
		lb_coll(B, "cross.tp_allgather.bwd", BRK_TP_COMM, COLL_ALLGATHER,
			tpg, T * h * e);
	linear_bwd(B, "cross.attn_out.bwd_d", "cross.attn_out.bwd_w",
		   IF_ADAPTED(LORA_PROJ, "cross.attn_out_lora.bwd"), T, h, ad, 1);
	if (sh->flash) {
		double mf = 4 * s * enc_s * d * bh;
		lb_fused(B, "cross.attn_flash.bwd", 2.5 * mf,
			 e * bh * d * (4 * s + 4 * enc_s) + 8 * bh * s, 2 * mf,
			 enc_s, 0);
	} else {
		lb_gemm(B, "cross.attn_context.bwd_d", BRK_ATTN, s, enc_s, d, bh);
		lb_gemm(B, "cross.attn_context.bwd_w", BRK_ATTN, enc_s, d, s, bh);
		lb_elem(B, "cross.attn_softmax.bwd", BRK_ATTN,
			bh * s * enc_s * (5 * e + 1), 0, 2);
		lb_gemm(B, "cross.attn_scores.bwd_d", BRK_ATTN, s, d, enc_s, bh);
		lb_gemm(B, "cross.attn_scores.bwd_w", BRK_ATTN, enc_s, d, s, bh);
	}
	linear_bwd(B, "cross.kv.bwd_d", "cross.kv.bwd_w", IF_ADAPTED(LORA_QKV, "cross.kv_lora.bwd"),
		   Te, 2 * sh->g * d / t, h, 1);
	linear_bwd(B, "cross.q.bwd_d", "cross.q.bwd_w", IF_ADAPTED(LORA_QKV, "cross.q_lora.bwd"), T,
		   ad, h, 1);
	/* The query's input gradient, and the encoder output's summed over
	 * the tensor-parallel ranks. */
	lb_coll(B, sh->sp ? "cross.tp_reducescatter.bwd" : "cross.tp_allreduce.bwd",
		BRK_TP_COMM, sh->sp ? COLL_REDUCE_SCATTER : COLL_ALLREDUCE, tpg,
		(T + Te) * h * e);
	norm_op(B, "cross.norm.bwd", 4 * Tn * h * e, 2, 1);
}

void llm_build_cross_ops(struct op_sink *out, const struct workload *w,
			 const struct gpu *g, const struct plan *pl,
			 const struct llm_shape *sh, double enc_s)
{
	struct bld B;
	struct kit_memo memo;
	enum recompute rc = w->train.recompute;

	lb_init(&B, out, g, pl, sh, w->train.precision, &memo);
	B.out->stage = OPS_LAYER;
	B.out->count = llm_busiest_stage_layers(sh) * sh->m;
	cross_fwd(&B, enc_s, 0);
	B.out->bwd = 1;
	if (rc == RECOMP_FULL || rc == RECOMP_SELECTIVE) {
		B.out->recompute = 1;
		B.out->mult = rc == RECOMP_FULL ?
			train_recompute_share(&w->train) : 1;
		cross_fwd(&B, enc_s, rc == RECOMP_SELECTIVE);
		B.out->mult = 1;
		B.out->recompute = 0;
	}
	cross_bwd(&B, enc_s);
}
