/*
 * vision_ops.c - the operators of a vision training step on one GPU.
 *
 * The layer list is walked once per micro-batch shape.  A convolution is an
 * implicit GEMM (M = N*Ho*Wo, N = Cout/groups, K = Cin/groups*kh*kw, batch =
 * groups) forward, with a data-gradient and a weight-gradient GEMM of the
 * same size backward (none for the data gradient of the first layer: images
 * need no gradient).  Depthwise convolutions run on CUDA cores and are
 * usually bound by memory.  Batch-norm, activations, pooling and residual
 * adds are memory-bound kernels.  Transformer blocks (ViT) are the layer
 * operators of llm.c with causal = 0.  Data-parallel gradient all-reduce
 * overlaps the backward (PyTorch DDP buckets).  docs/vision-recsys.md gives
 * the formulas, their sources and the calibration.
 */
#include "vision_ops.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/comm.h"
#include "llm.h"
#include "memory.h"
#include "../core/roofline.h"
#include "vision_heads.h"

/*
 * The vision efficiency parameters (conv_frac, conv1x1_frac, norm_mem_frac,
 * dw_frac, skinny_frac) are rows of the registry (eff_param.h): per GPU in
 * g->eff.  docs/vision-recsys.md, "Calibration", says how they were set.
 */
static void op_bn(struct vb *B, const char *pfx, const char *what, double X,
		  double mult)
{
	/* training forward: statistics pass + normalise (3 X); backward:
	 * two reductions and the data gradient (5 X).  Frozen: a scale and
	 * shift each way (read, write: 2 X), nothing to reduce. */
	if (B->frozen_bn)
		vis_op_fusable(B, pfx, what, X, 2, 2, 1, mult);
	else
		vis_op_fusable(B, pfx, what, X, 3, 5, 2, mult);
}

/*
 * PyTorch autocast runs layer norm, group norm and softmax in fp32 (they
 * are on its list of CUDA ops that autocast to float32): the 16-bit input
 * is cast up (read e, write 4 bytes an element), the operator's own passes
 * move 4 bytes an element instead of e, and the next 16-bit operator casts
 * the result back (read 4, write e); backward the same around the
 * gradient.  The share fp32_norm_frac of these operators pays the
 * difference, as a kernel pair of its own; fp32 training pays nothing.
 */
static void op_fp32_casts(struct vb *B, const char *pfx, const char *what, double X,
			  double fwd, double bwd, double mult)
{
	double f = B->g->eff.fp32_norm_frac;
	char n[24];
	if (!(f > 0) || B->e >= 4)
		return;
	/* in units of e: each pass widened from e to 4 bytes, two casts of e + 4 */
	double widen = (4 - B->e) / B->e, casts = 2 * (B->e + 4) / B->e;
	snprintf(n, sizeof(n), "%.15s_fp32", what);
	vis_op_elem(B, pfx, n, X * f, fwd * widen + casts, bwd * widen + casts, 2 * f, mult);
}

/* Layer norm: read, write forward; four passes backward. */
static void op_ln(struct vb *B, const char *pfx, const char *what, double X, double mult)
{
	vis_op_fusable(B, pfx, what, X, 2, 4, 1, mult);
	op_fp32_casts(B, pfx, what, X, 2, 4, mult);
}

static void op_add(struct vb *B, const char *pfx, double X, double mult)
{
	/* backward: the gradient accumulation where the branches split */
	vis_op_fusable(B, pfx, "add", X, 3, 3, 1, mult);
}

/* Residual blocks (one copy), forward or backward. */
static void op_block(struct vb *B, const struct vis_layer *L, const char *pfx,
		     double cin, double h, double w, double out, double wd,
		     int st, double mult)
{
	double b = B->b;
	double ho, wo, X;
	int down;

	if (L->kind == VL_CNBLOCK) {
		int k = L->kernel > 0 ? L->kernel : 7;
		X = b * out * h * w;
		double Xw = b * wd * h * w;
		vis_op_conv(B, pfx, "dw", cin, h, w, out, h, w, k, (int)out, mult);
		op_ln(B, pfx, "ln", X, mult);
		vis_op_linear(B, pfx, "pw1", b * h * w, out, wd, mult);
		vis_op_act(B, pfx, "gelu", Xw, mult);
		vis_op_linear(B, pfx, "pw2", b * h * w, wd, out, mult);
		vis_op_fusable(B, pfx, "scale", X, 3, 4, 1, mult);
		op_add(B, pfx, X, mult);
		return;
	}
	ho = vis_out_side(h, 3, st);
	wo = vis_out_side(w, 3, st);
	X = b * out * ho * wo;
	down = st > 1 || cin != out;
	if (L->kind == VL_BOTTLENECK) {
		double X1 = b * wd * h * w, X2 = b * wd * ho * wo;
		vis_op_conv(B, pfx, "c1", cin, h, w, wd, h, w, 1, 1, mult);
		op_bn(B, pfx, "bn1", X1, mult);
		vis_op_act(B, pfx, "relu1", X1, mult);
		vis_op_conv(B, pfx, "c2", wd, h, w, wd, ho, wo, 3,
			L->groups > 0 ? L->groups : 1, mult);
		op_bn(B, pfx, "bn2", X2, mult);
		vis_op_act(B, pfx, "relu2", X2, mult);
		vis_op_conv(B, pfx, "c3", wd, ho, wo, out, ho, wo, 1, 1, mult);
		op_bn(B, pfx, "bn3", X, mult);
	} else {
		vis_op_conv(B, pfx, "c1", cin, h, w, out, ho, wo, 3, 1, mult);
		op_bn(B, pfx, "bn1", X, mult);
		vis_op_act(B, pfx, "relu1", X, mult);
		vis_op_conv(B, pfx, "c2", out, ho, wo, out, ho, wo, 3, 1, mult);
		op_bn(B, pfx, "bn2", X, mult);
	}
	if (down) {
		/* 1x1 stride-st projection: GEMM over the output positions */
		char n[40];
		double M = b * ho * wo;
		if (!B->out.bwd) {
			vis_gemm(B, vis_op_name(n, pfx, "down", "fwd"), M, out, cin, 1,
			     B->g->eff.conv1x1_frac, mult);
		} else {
			vis_gemm(B, vis_op_name(n, pfx, "down", "bwd_d"), M, cin, out, 1,
			     B->g->eff.conv1x1_frac, mult);
			vis_gemm(B, vis_op_name(n, pfx, "down", "bwd_w"), out, cin, M, 1,
			     B->g->eff.conv1x1_frac, mult);
		}
		op_bn(B, pfx, "down_bn", X, mult);
	}
	op_add(B, pfx, X, mult);
	vis_op_act(B, pfx, "relu", X, mult);
}

/*
 * One inverted residual block (vis_shape's infer_mbconv()) from cin x h x
 * w to L->out x ho x wo, forward or backward.  The squeeze-excitation's
 * pool and scale are passes over the depthwise output; its two layers
 * are GEMMs of one row per image.
 */
static void op_mbconv(struct vb *B, const struct vis_layer *L, const char *pfx,
		      double cin, double h, double w, double ho, double wo,
		      int st, double mult)
{
	double b = B->b, ce = cin * L->expand, out = L->out;
	double Xe = b * ce * h * w, Xd = b * ce * ho * wo, Xo = b * out * ho * wo;
	double sq = L->se > 0 ? fmax(1, floor(cin * L->se)) : 0;
	int k = L->kernel > 0 ? L->kernel : 3;

	if (L->expand > 1) {
		vis_op_conv(B, pfx, "expand", cin, h, w, ce, h, w, 1, 1, mult);
		op_bn(B, pfx, "bn1", Xe, mult);
		vis_op_act(B, pfx, "silu1", Xe, mult);
	}
	vis_op_conv(B, pfx, "dw", ce, h, w, ce, ho, wo, k, (int)ce, mult);
	op_bn(B, pfx, "bn2", Xd, mult);
	vis_op_act(B, pfx, "silu2", Xd, mult);
	if (sq > 0) {
		double per = 1 + 1 / (ho * wo); /* the map and its mean */
		vis_op_elem(B, pfx, "se_pool", Xd, per, per, 1, mult);
		vis_op_linear(B, pfx, "se_fc1", b, ce, sq, mult);
		vis_op_act(B, pfx, "se_silu", b * sq, mult);
		vis_op_linear(B, pfx, "se_fc2", b, sq, ce, mult);
		vis_op_act(B, pfx, "se_gate", b * ce, mult);
		/* forward: read the map, write it scaled; backward: the
		 * map's gradient (read, write) and the gate's (read the
		 * gradient and the map) */
		vis_op_fusable(B, pfx, "se_scale", Xd, 2, 4, 1, mult);
	}
	vis_op_conv(B, pfx, "project", ce, ho, wo, out, ho, wo, 1, 1, mult);
	op_bn(B, pfx, "bn3", Xo, mult);
	if (st == 1 && cin == out)
		op_add(B, pfx, Xo, mult);
}

/*
 * Transformer blocks through llm.c's layer operators: `repeat` layers of
 * width c, `heads`, MLP `mlp` with activation `act`, sequence T, no causal
 * mask, flash attention, one stage, data parallel; named "<pfx>.<op>".
 * The pass B->out.bwd says, none backward for a frozen encoder
 * (`fwd_only`); the forward sets *act_bytes to the bytes they keep.
 */
static void op_attention(struct vb *B, const struct workload *w,
			 const char *pfx, double c, double T, int heads,
			 double mlp, enum llm_act act, double repeat,
			 int fwd_only, double *act_bytes)
{
	struct llm_arch A;
	struct training tr = w->train;
	struct plan pl = *B->pl;
	struct llm_shape sh;

	if (fwd_only && B->out.bwd)
		return;
	memset(&A, 0, sizeof(A));
	A.layers = (int)repeat;
	A.hidden = (int)c;
	A.heads = heads;
	A.kv_heads = heads;
	A.head_dim = (int)(c / heads);
	A.ffn = (int)mlp;
	A.act = act;
	A.vocab = 1;
	A.tied_embeddings = 1;
	A.experts = 1;
	A.top_k = 1;
	A.positions = POS_LEARNED;
	A.norm = NORM_LAYERNORM;
	A.causal = 0;
	A.bias = 1;
	A.max_positions = (int)T;
	tr.seq_len = T;
	tr.global_batch = B->b * B->m * pl.dp;
	tr.recompute = RECOMP_NONE;
	tr.flash_attention = 1;
	tr.finetune = FT_FULL;
	tr.optimizer = OPT_ADAMW;
	pl.tp = pl.pp = pl.ep = pl.interleave = 1;
	pl.sequence_parallel = 0;
	pl.zero = 0;
	pl.micro_batch = (int)B->b;
	llm_shape_of(&A, &tr, &pl, &sh);
	B->out.mult = repeat;
	B->out.prefix = pfx;
	llm_layer_ops(&B->out, B->g, &pl, &sh, tr.precision);
	B->out.mult = 1;
	B->out.prefix = NULL;
	/* the layer's two LayerNorms, as autocast runs them */
	op_fp32_casts(B, pfx, "ln", B->b * T * c, 2, 4, 2 * repeat);
	if (!B->out.bwd)
		*act_bytes = repeat * mem_layer_activation_bytes(&sh,
								 RECOMP_NONE);
}

/*
 * Swin's patch merging (vis_shape's infer_patch_merge()) into an ho x wo
 * map of `out` channels: the gather of 2 x 2 neighbours (a copy), the
 * LayerNorm and the linear reduction.
 */
static void op_patch_merge(struct vb *B, const char *pfx, double c,
			   double ho, double wo, double out)
{
	double rows = B->b * ho * wo, X = rows * 4 * c;
	vis_op_fusable(B, pfx, "gather", X, 2, 2, 1, 1);
	op_ln(B, pfx, "ln", X, 1);
	vis_op_linear(B, pfx, "reduce", rows, 4 * c, out, 1);
}

/*
 * GroupNorm: statistics over groups of channels and the whole map, so a
 * statistics pass and a normalising pass as batch-norm (3 X forward, 5 X
 * backward), fusable as the other normalisations.
 */
static void op_gn(struct vb *B, const char *pfx, const char *what, double X)
{
	vis_op_fusable(B, pfx, what, X, 3, 5, 2, 1);
	op_fp32_casts(B, pfx, what, X, 3, 5, 1);
}

/*
 * vis_resblock() of the running micro-batch; `skip` channels of a saved
 * output are first concatenated (a copy: read both, write, 2 X of the
 * result each way).
 */
static void op_resblock(struct vb *B, const char *pfx, double c, double skip,
			double cout, double h, double w, double E)
{
	double b = B->b, cin = c + skip, Xi = b * cin * h * w, Xo = b * cout * h * w;
	if (skip > 0)
		vis_op_elem(B, pfx, "concat", Xi, 2, 2, 1, 1);
	op_gn(B, pfx, "gn1", Xi);
	vis_op_act(B, pfx, "silu1", Xi, 1);
	vis_op_conv(B, pfx, "conv1", cin, h, w, cout, h, w, 3, 1, 1);
	if (E > 0) {
		vis_op_linear(B, pfx, "emb", b, E, cout, 1);
		op_add(B, pfx, Xo, 1);
	}
	op_gn(B, pfx, "gn2", Xo);
	vis_op_act(B, pfx, "silu2", Xo, 1);
	vis_op_conv(B, pfx, "conv2", cout, h, w, cout, h, w, 3, 1, 1);
	if (cin != cout)
		vis_op_conv(B, pfx, "skip", cin, h, w, cout, h, w, 1, 1, 1);
	op_add(B, pfx, Xo, 1);
}

/*
 * Attention core of seqs x heads (T x dh) queries against L keys and
 * values each (a cross-attention to the text context, or a Swin window
 * attending to itself): scores and weighted sum as batched GEMMs, the
 * softmax as one element-wise kernel each way; backward the four
 * gradient GEMMs; `mult` times.  Names start with `tag` ("xscore").
 * Short sequences (77 context tokens, 49 in a window) leave these GEMMs
 * skinny: the GEMM model's shape efficiency says what they reach.
 */
static void op_attn_core(struct vb *B, const char *pfx, const char *tag,
			 double seqs, double T, double L, double dh,
			 double heads, double mult)
{
	double bh = seqs * heads;
	char n[40], sc[16], va[16], sm[16];
	snprintf(sc, sizeof(sc), "%sscore", tag);
	snprintf(va, sizeof(va), "%svalue", tag);
	snprintf(sm, sizeof(sm), "%ssoftmax", tag);
	if (!B->out.bwd) {
		vis_gemm(B, vis_op_name(n, pfx, sc, "fwd"), T, L, dh, bh, 1, mult);
		vis_gemm(B, vis_op_name(n, pfx, va, "fwd"), T, dh, L, bh, 1, mult);
	} else {
		vis_gemm(B, vis_op_name(n, pfx, sc, "bwd_q"), T, dh, L, bh, 1, mult);
		vis_gemm(B, vis_op_name(n, pfx, sc, "bwd_k"), L, dh, T, bh, 1, mult);
		vis_gemm(B, vis_op_name(n, pfx, va, "bwd_p"), T, L, dh, bh, 1, mult);
		vis_gemm(B, vis_op_name(n, pfx, va, "bwd_v"), L, dh, T, bh, 1, mult);
	}
	vis_op_elem(B, pfx, sm, bh * T * L, 2, 3, 1, mult);
	op_fp32_casts(B, pfx, sm, bh * T * L, 2, 3, mult);
}

/*
 * vis_transformer() on the micro-batch: GroupNorm and the projections in,
 * the self-attention and GEGLU feed-forward layer through llm.c (forward
 * and backward, added in the forward walk), the cross-attention (its
 * LayerNorm, q from the image, k and v from the context, core, output
 * projection, residual add), the projection out and the residual add.
 */
static void op_transformer(struct vb *B, const struct workload *w,
			  const char *pfx, double c, double h, double wd,
			  int heads, double m)
{
	double b = B->b, T = h * wd, X = b * T * c;
	double d = w->vis.text.width, L = w->vis.text.tokens, unused;
	char p[24];
	snprintf(p, sizeof(p), "%.10s.st", pfx);
	op_gn(B, p, "gn", X);
	vis_op_linear(B, p, "proj_in", b * T, c, c, 1);
	op_attention(B, w, p, c, T, heads, m, ACT_GEGLU, 1, 0, &unused);
	op_ln(B, p, "ln2", X, 1);
	vis_op_linear(B, p, "xq", b * T, c, c, 1);
	vis_op_linear(B, p, "xkv", b * L, d, 2 * c, 1);
	op_attn_core(B, p, "x", B->b, T, L, c / heads, heads, 1);
	vis_op_linear(B, p, "xout", b * T, c, c, 1);
	op_add(B, p, X, 1);
	vis_op_linear(B, p, "proj_out", b * T, c, c, 1);
	op_add(B, p, X, 1);
}

/*
 * A stage of Swin blocks (vis_shape's infer_swin()) on a c x h x wd map,
 * as PyTorch runs them: LayerNorm; the window partition (a permute made
 * contiguous: a copy), and in every second copy the cyclic shift before
 * it (another), when a window is smaller than the map; the qkv
 * projection; the attention core of b x windows sequences of win^2
 * tokens with the relative position bias added to the scores, and in the
 * shifted copies the mask (another pass over the scores, forward only:
 * its gradient is the identity); the output projection; the reverse
 * copies; residual add, LayerNorm, MLP with GELU, residual add.  The
 * linear layers are the split-K GEMMs of the convolutions: at stage 1
 * their weight gradients have a 96-wide output and a reduction over every
 * position.
 *
 * The attention's head reshapes are copies too (timm's and torchvision's
 * window attention: qkv reshaped to (b, N, 3, heads, d) and permuted to
 * heads first).  Forward, in passes over X: q scaled (2); q, k and v
 * copied to batched matrices for matmul, as their strides cannot merge
 * (2 each); the output transposed back to (b, N, c) (2): 10 passes, 5
 * kernels.  Backward: the output's gradient copied to a batched matrix
 * (2), the scaling (2), the q, k, v gradients stacked (6) and made
 * contiguous for the qkv projection (6): 16 passes, 4 kernels.  Like the
 * window copies, only the stack's unfused share of them runs.
 */
static void op_swin(struct vb *B, const struct vis_layer *L, const char *pfx,
		    double c, double h, double wd, double r)
{
	double win = L->window, N = win * win, heads = L->heads;
	double mlp = L->mlp > 0 ? L->mlp : 4 * c;
	double nw = ceil(h / win) * ceil(wd / win), rows = B->b * nw * N;
	double X = rows * c, S = B->b * nw * heads * N * N;
	double shifted = win < h || win < wd ? floor(r / 2) : 0;

	op_ln(B, pfx, "ln1", X, r);
	vis_op_fusable(B, pfx, "windows", X, 4, 4, 2, r);
	if (shifted > 0)
		vis_op_fusable(B, pfx, "shift", X, 4, 4, 2, shifted);
	vis_op_linear(B, pfx, "qkv", rows, c, 3 * c, r);
	/* the bias gathered per head and added: read, write the scores;
	 * backward its gradient sums them */
	vis_op_elem(B, pfx, "bias", S, 2, 1, 1, r);
	if (shifted > 0 && !B->out.bwd)
		vis_op_elem(B, pfx, "mask", S, 2, 0, 1, shifted);
	op_attn_core(B, pfx, "w", B->b * nw, N, N, c / heads, heads, r);
	vis_op_fusable(B, pfx, "heads", X, 10, 16, B->out.bwd ? 4 : 5, r);
	vis_op_linear(B, pfx, "proj", rows, c, c, r);
	op_add(B, pfx, X, r);
	op_ln(B, pfx, "ln2", X, r);
	vis_op_linear(B, pfx, "fc1", rows, c, mlp, r);
	vis_op_act(B, pfx, "gelu", rows * mlp, r);
	vis_op_linear(B, pfx, "fc2", rows, mlp, c, r);
	op_add(B, pfx, X, r);
}

/*
 * The frozen text encoder (a causal transformer of the arch's `text`
 * shape): its forward only, once per micro-batch, through llm.c.
 */
static void op_text_encoder(struct vb *B, const struct workload *w)
{
	const struct vision_arch *a = &w->vis;
	double unused;
	if (a->text.layers > 0)
		op_attention(B, w, "text", a->text.width, a->text.tokens,
			     a->text.heads, a->text.mlp, ACT_GELU,
			     a->text.layers, 1, &unused);
}

/* Walk the layer list once forward (bwd = 0) or backward (bwd = 1). */
/* Where the walk over the layer list is: the next entry's input and
 * what earlier entries left for later ones. */
struct walk {
	double c, h, wd, dpt, T;  /* input: channels, height, width, depth,
				     tokens (0 for a feature map) */
	double fc[VIS_MAX_LEVELS], fh[VIS_MAX_LEVELS], fw[VIS_MAX_LEVELS];
	int nfeat;                /* pyramid inputs waiting for the fpn */
	double skc[VIS_MAX_SKIPS];
	int nskip;                /* saved outputs waiting for a concat */
	double proposals;         /* regions the rpn passes on */
};

/* A conv or convblock entry (conv, norm, ReLU, conv, norm, ReLU), with
 * the saved output a concat joins to its input. */
static void walk_conv(struct vb *B, const struct vis_layer *L,
		      const char *pfx, struct walk *W,
		      const struct vis_shape *o, double Xin, double Xout)
{
	double cin = W->c;
	int k = L->kernel > 0 ? L->kernel : 1;

	if (L->concat && W->nskip > 0) {
		cin += W->skc[--W->nskip];
		vis_op_elem(B, pfx, "concat", Xin * cin / W->c, 2, 2, 1, 1);
	}
	if (L->kind == VL_CONV) {
		vis_op_conv(B, pfx, "conv", cin, W->h * W->dpt, W->wd, o->c,
			o->h * o->d, o->w, k, L->groups > 0 ? L->groups : 1, 1);
		return;
	}
	vis_op_conv(B, pfx, "conv1", cin, W->h * W->dpt, W->wd, o->c, o->h * o->d,
		o->w, 3, 1, 1);
	op_gn(B, pfx, "norm1", Xout);
	vis_op_act(B, pfx, "relu1", Xout, 1);
	vis_op_conv(B, pfx, "conv2", o->c, o->h * o->d, o->w, o->c, o->h * o->d,
		o->w, 3, 1, 1);
	op_gn(B, pfx, "norm2", Xout);
	vis_op_act(B, pfx, "relu2", Xout, 1);
}

/* A stage of residual blocks (bottleneck, basic, ConvNeXt): the first
 * block, which may stride, then the repeats. */
static void walk_block(struct vb *B, const struct vis_layer *L, int i,
		       const struct walk *W, const struct vis_shape *o)
{
	double wdt = L->width > 0 ? L->width :
		     L->kind == VL_CNBLOCK ? 4 * o->c : o->c / 4;
	double hh = W->h, ww = W->wd, r = L->repeat > 0 ? L->repeat : 1;
	int s = L->stride > 0 ? L->stride : 1;
	char pfx[32];

	snprintf(pfx, sizeof(pfx), "l%d.first", i + 1);
	op_block(B, L, pfx, W->c, hh, ww, o->c, wdt, s, 1);
	if (L->kind != VL_CNBLOCK) {
		hh = vis_out_side(hh, 3, s);
		ww = vis_out_side(ww, 3, s);
	}
	snprintf(pfx, sizeof(pfx), "l%d", i + 1);
	if (r > 1)
		op_block(B, L, pfx, o->c, hh, ww, o->c, wdt, 1, r - 1);
}

/* A stage of inverted residual blocks: the first, which may stride and
 * change the width, then the repeats. */
static void walk_mbconv(struct vb *B, const struct vis_layer *L, int i,
			const struct walk *W, const struct vis_shape *o)
{
	double r = L->repeat > 0 ? L->repeat : 1;
	int s = L->stride > 0 ? L->stride : 1, k = L->kernel > 0 ? L->kernel : 3;
	double ho = vis_out_side(W->h, k, s), wo = vis_out_side(W->wd, k, s);
	char pfx[32];

	snprintf(pfx, sizeof(pfx), "l%d.first", i + 1);
	op_mbconv(B, L, pfx, W->c, W->h, W->wd, ho, wo, s, 1);
	snprintf(pfx, sizeof(pfx), "l%d", i + 1);
	if (r > 1)
		op_mbconv(B, L, pfx, o->c, ho, wo, ho, wo, 1, r - 1);
}

/* A diffusion UNet's resblocks, each with its cross-attention block when
 * the entry has heads. */
static void walk_resblock(struct vb *B, const struct workload *w, int i,
			 struct walk *W, const struct vis_shape *o)
{
	const struct vis_layer *L = &w->vis.layer[i];
	double cc = W->c, r = L->repeat > 0 ? L->repeat : 1;
	char pfx[32];

	for (int j = 0; j < r; j++) {
		double skip = 0;
		snprintf(pfx, sizeof(pfx), "l%d.%d", i + 1, j + 1);
		if (L->concat && W->nskip > 0)
			skip = W->skc[--W->nskip];
		op_resblock(B, pfx, cc, skip, o->c, W->h, W->wd,
			    w->vis.time_embed);
		if (L->heads > 0)
			op_transformer(B, w, pfx, o->c, W->h, W->wd, L->heads,
				       L->mlp > 0 ? L->mlp : 4 * o->c);
		cc = o->c;
	}
}

/* The operators of entry i (output shape o) of one micro-batch's pass. */
static void walk_entry(struct vb *B, const struct workload *w, int i,
		      const struct vis_shape *o, struct walk *W,
		      double *attn_act)
{
	const struct vision_arch *a = &w->vis;
	const struct vis_layer *L = &a->layer[i];
	double c = W->c, h = W->h, wd = W->wd, dpt = W->dpt, T = W->T;
	double b = B->b;
	double Xin = b * (T > 0 ? T * c : c * h * wd * dpt);
	double Xout = b * (o->tokens > 0 ? o->tokens * o->c :
			   o->c * o->h * o->w * o->d);
	double r = L->repeat > 0 ? L->repeat : 1;
	char pfx[32];

	snprintf(pfx, sizeof(pfx), "l%d", i + 1);
	switch (L->kind) {
	case VL_CONV:
	case VL_CONVBLOCK:
		walk_conv(B, L, pfx, W, o, Xin, Xout);
		break;
	case VL_DECONV:
		/* each input position writes a k^dims block: a GEMM */
		vis_op_linear(B, pfx, "deconv", Xin / c, c,
			  o->c * o->h * o->w * o->d / (h * wd * dpt), 1);
		break;
	case VL_BATCHNORM:
		op_bn(B, pfx, "bn", Xin, 1);
		break;
	case VL_LAYERNORM:
		op_ln(B, pfx, "ln", Xin, 1);
		break;
	case VL_RELU:
	case VL_GELU:
	case VL_SILU:
	case VL_HARDSWISH:
		vis_op_act(B, pfx, vis_kind_names[L->kind], Xin, 1);
		break;
	case VL_ADD:
		op_add(B, pfx, Xin, 1);
		break;
	case VL_MAXPOOL:
		vis_op_elem(B, pfx, "maxpool", Xin, 1 + Xout / Xin,
			2 + Xout / Xin, 1, 1);
		break;
	case VL_AVGPOOL:
		vis_op_elem(B, pfx, "avgpool", Xin, 1 + Xout / Xin,
			1 + Xout / Xin, 1, 1);
		break;
	case VL_LINEAR:
		vis_op_linear(B, pfx, "linear", b * (T > 0 ? T : h * wd), c,
			  o->c, 1);
		break;
	case VL_TOKENS:
		/* flatten + class token + position add */
		vis_op_elem(B, pfx, "tokens", Xout, 5, 3, 3, 1);
		break;
	case VL_ATTENTION:
		op_attention(B, w, "vit", c, T, L->heads > 0 ? L->heads : 1,
			     L->mlp > 0 ? L->mlp : 4 * c, ACT_GELU, r, 0,
			     attn_act);
		break;
	case VL_BOTTLENECK:
	case VL_BASIC:
	case VL_CNBLOCK:
		walk_block(B, L, i, W, o);
		break;
	case VL_MBCONV:
		walk_mbconv(B, L, i, W, o);
		break;
	case VL_SWIN:
		op_swin(B, L, pfx, c, h, wd, r);
		break;
	case VL_PATCH_MERGE:
		op_patch_merge(B, pfx, c, o->h, o->w, o->c);
		break;
	case VL_FPN:
		vis_op_fpn(B, pfx, L, W->nfeat, W->fc, W->fh, W->fw, o);
		W->nfeat = 0;
		break;
	case VL_RETINA_HEAD:
		vis_op_retina_head(B, pfx, L, c, o->levels, o->lh, o->lw);
		break;
	case VL_GROUPNORM:
		op_gn(B, pfx, "gn", Xin);
		break;
	case VL_UPSAMPLE:
		/* nearest: read X, write 4 X; backward the reverse */
		vis_op_elem(B, pfx, "up", Xin, 5, 5, 1, 1);
		vis_op_conv(B, pfx, "conv", c, o->h, o->w, o->c, o->h, o->w, 3,
			1, 1);
		break;
	case VL_RESBLOCK:
		walk_resblock(B, w, i, W, o);
		break;
	case VL_RPN_HEAD:
		vis_op_rpn_head(B, pfx, L, c, o->levels, o->lh, o->lw);
		W->proposals = L->proposals > 0 ? L->proposals : 0;
		break;
	case VL_ROI_BOX_HEAD:
	case VL_ROI_MASK_HEAD:
		vis_op_roi_head(B, pfx, L, c, W->proposals);
		break;
	case VL_KIND_COUNT:
	default:
		break;
	}
}

void vis_walk(struct vb *B, const struct workload *w,
	      const struct vis_shape *sh, double *attn_act)
{
	const struct vision_arch *a = &w->vis;
	struct walk W;
	double b = B->b;
	int i;

	memset(&W, 0, sizeof(W));
	W.c = a->in_channels > 0 ? a->in_channels : 3;
	vtrain_input(&w->vtrain, &W.h, &W.wd);
	W.dpt = a->dims == 3 ? W.h : 1;
	B->first = 1;
	op_text_encoder(B, w);
	if (a->time_embed > 0) {
		double E = a->time_embed;
		vis_op_linear(B, "time", "fc1", b, E / 4, E, 1);
		vis_op_act(B, "time", "silu", b * E, 1);
		vis_op_linear(B, "time", "fc2", b, E, E, 1);
	}
	for (i = 0; i < a->nlayers; i++) {
		const struct vis_layer *L = &a->layer[i];
		const struct vis_shape *o = &sh[i];
		double r = L->repeat > 0 ? L->repeat : 1;

		if (L->pyramid) {
			W.fc[W.nfeat] = o->c;
			W.fh[W.nfeat] = o->h;
			W.fw[W.nfeat] = o->w;
			W.nfeat++;
		}
		/* A frozen prefix has no backward: nothing before it needs
		 * a gradient, and its weights take none. */
		if (!(B->out.bwd && L->frozen))
			walk_entry(B, w, i, o, &W, attn_act);
		/* every copy of a saving entry leaves one output of o->c */
		for (int j = 0; L->save && j < (L->kind == VL_RESBLOCK ? r : 1) &&
		     W.nskip < VIS_MAX_SKIPS; j++)
			W.skc[W.nskip++] = o->c;
		W.c = o->c;
		W.h = o->h;
		W.wd = o->w;
		W.dpt = o->d;
		W.T = o->tokens;
	}
}
