/*
 * llm_prim.c - the operator kinds a transformer's step is built of (llm.c):
 * GEMMs, memory-bound kernels, fused attention, collectives, each timed by
 * the operator kit (opkit.h) or the roofline and put into the builder's
 * sink.
 */
#include "llm_prim.h"

#include <string.h>

#include "../core/opkit.h"
#include "../core/roofline.h"

/*
 * Bytes per element of eager PyTorch's composite ops against the fused
 * kernels', e bytes an activation element, and their kernels for each
 * fused one; the ops are
 * those of Meta's reference Llama code (facebookresearch/llama model.py),
 * which torchtitan's model follows (docs/model.md, section 2):
 *  - RMSNorm forward, x.float(), pow(2), mean, + eps, rsqrt, mul,
 *    type_as, * weight: (e + 4) + 8 + 4 + 8 + (4 + e) + 2e = 24 + 4e
 *    against a fused 2e, in 8 kernels;
 *  - its backward through autograd: the weight's mul (2e and its
 *    gradient's 2e), type_as (e + 4), the fp32 mul (8 for the input's
 *    gradient, 8 for the scale's), pow and mean (8), the sum of the two
 *    fp32 gradients (12), float (4 + e): 44 + 6e against a fused 4e, in
 *    9 kernels where the fused backward has 2;
 *  - the rotary embedding, float (e + 4), the complex multiply (8 an
 *    element: 4 read, 4 written), type_as (4 + e): 16 + 2e against 2e,
 *    3 kernels for each of q and k; its backward the same;
 *  - the gated activation act(a) * b: act (2e) and the product (3e), 5e
 *    against 3e in 2 kernels; backward, the product's two gradients (6e)
 *    and act's (3e), 9e against 5e in 3 kernels.
 */
static const struct {
	double fixed, per_e; /* eager bytes an element: fixed + per_e x e */
	double fused_per_e;  /* the fused kernels': fused_per_e x e */
	double kernels;      /* eager kernels for each fused one */
} chain_eager[] = {
	[CHAIN_RMSNORM] = { 24, 4, 2, 8 },
	[CHAIN_RMSNORM_BWD] = { 44, 6, 4, 9 / 2.0 },
	[CHAIN_ROPE] = { 16, 2, 2, 6 },
	[CHAIN_GLU] = { 0, 5, 3, 2 },
	[CHAIN_GLU_BWD] = { 0, 9, 5, 3 },
};

void lb_init(struct bld *B, struct op_sink *out, const struct gpu *g,
	     const struct plan *pl, const struct llm_shape *sh,
	     enum tc_prec prec, struct kit_memo *memo)
{
	memset(B, 0, sizeof(*B));
	B->out = out;
	B->g = g;
	B->pl = pl;
	B->sh = sh;
	B->pg = prec;
	B->eg = sh->eg;
	B->pa = prec == PREC_FP8 || prec == PREC_FP4 ? PREC_BF16 : prec;
	if (roof_peak(g, B->pa) <= 0)
		B->pa = B->pg;
	B->graphs = pl->cuda_graphs;
	B->composite = pl->compile ? 0 : g->eff.composite_elem_frac;
	/* each chain's factors once, not at each of its operators */
	for (int k = 0; k < CHAIN_COUNT; k++) {
		double c = B->composite, e = sh->e;
		double ratio = (chain_eager[k].fixed + chain_eager[k].per_e * e) /
			       (chain_eager[k].fused_per_e * e);
		B->chain_bytes[k] = 1 + c * (ratio - 1);
		B->chain_kernels[k] = 1 + c * (chain_eager[k].kernels - 1);
	}
	kit_memo_init(memo);
	roof_rates_init(&B->rates, g, B->graphs);
	B->kit = (struct kit){ out, g, pl, B->graphs, memo, &B->rates };
	B->tpg = lb_group(sh->t, 1, sh->gpn);
}

void lb_gemm(struct bld *B, const char *name, enum brk cat, double m,
	     double n, double k, double batch)
{
	kit_gemm(&B->kit, name, cat, B->pg, m, n, k, batch, 1,
		 batch * (B->eg * (m * k + k * n) + B->sh->e * m * n),
		 B->grouped ? GEMM_GROUPED : GEMM_TILED, 1);
}

void lb_wgemm(struct bld *B, const char *name, double m, double n,
	      double k, double batch)
{
	B->out->wgrad = 1;
	lb_gemm(B, name, BRK_GEMM, m, n, k, batch);
	B->out->wgrad = 0;
}

void lb_elem(struct bld *B, const char *name, enum brk cat, double bytes,
	     double flop, double kernels)
{
	kit_stream(&B->kit, name, cat, B->pa, bytes, 1, flop, kernels, 1);
}

void lb_chain(struct bld *B, const char *name, enum lb_chain k,
	      double bytes, double kernels)
{
	lb_elem(B, name, BRK_MEMBOUND, bytes * B->chain_bytes[k], 0,
		kernels * B->chain_kernels[k]);
}

void lb_fused(struct bld *B, const char *name, double flop, double bytes,
	      double model_flop, double keys, int fwd)
{
	struct op_cost c;
	const struct roof_eff *q = &B->g->eff;
	double frac = q->attn_frac;
	/* the two kernels' times add: a harmonic mean of their rates; the
	 * library's backward is not measured, so it keeps attn_frac */
	if (fwd && q->attn_lib_fwd_frac > 0 && q->lib_attn_share > 0)
		frac = 1 / (q->lib_attn_share / q->attn_lib_fwd_frac +
			    (1 - q->lib_attn_share) / q->attn_frac);
	frac *= roof_attn_len_frac(keys);
	c.flop = flop;
	c.bytes = bytes;
	c.prec = B->pa;
	c.time_s = roof_time_at(&B->rates, B->pa, flop, frac, bytes, 1,
				&c.bound, &c.launch_s);
	sink_put(B->out, name, BRK_ATTN, &c, 1, model_flop);
}

void lb_wire(struct bld *B, const char *name, enum brk cat, double bytes,
	     double time_s)
{
	struct op_cost c = { 0, bytes, time_s, 0, B->pa, BOUND_NETWORK };
	sink_put(B->out, name, cat, &c, 1, 0);
}

void lb_coll(struct bld *B, const char *name, enum brk cat,
	     enum comm_coll c, struct comm_group grp, double bytes)
{
	kit_coll(&B->kit, name, cat, B->pa, c, grp, bytes);
}

struct comm_group lb_group(int n, int stride, int gpn)
{
	int local = stride >= gpn ? 1 : gpn / stride;
	struct comm_group gr = comm_group_of(n, local > 0 ? local : 1);
	if (gr.per_node < 1)
		gr.per_node = 1;
	return gr;
}

struct comm_group lb_stage_pair(const struct llm_shape *sh, int stages)
{
	struct comm_group pair = {
		2, stages * sh->t * sh->cp * sh->dp < sh->gpn ? 2 : 1 };
	return pair;
}
