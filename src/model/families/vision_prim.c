/*
 * vision_prim.c - the operator kinds a vision network is built of
 * (vision_prim.h): convolutions as implicit GEMMs (depthwise ones on CUDA
 * cores), GEMMs, memory-bound kernel sequences, activations and linear
 * layers, each through the operator kit (opkit.h) into the builder's sink.
 * The layer walk (vision_ops.c) and the detection heads (vision_heads.c)
 * build on them.  docs/vision-recsys.md gives the formulas and sources.
 */
#include "vision_prim.h"

#include <stdio.h>

#include "../core/opkit.h"
#include "../core/roofline.h"

/*
 * cuDNN's Winograd algorithms for 3x3 stride-1 convolutions, the fastest on
 * CUDA cores (fp32 without tensor cores), which cudnn.benchmark picks:
 * F(2x2, 3x3) needs 16 multiplies per 2x2 output tile where direct
 * convolution needs 36, 2.25x fewer (Lavin and Gray, "Fast Algorithms for
 * Convolutional Neural Networks", CVPR 2016, arXiv:1509.09308).  The
 * arithmetic factor, not a fit; on tensor cores implicit GEMMs win and no
 * reduction applies.
 */
#define VIS_WINOGRAD_GAIN 2.25

/* Record an operator executed `mult` times per micro-batch. */
static void put(struct vb *B, const char *name, enum brk cat, double flop,
		double bytes, enum tc_prec p, double time, double launch,
		enum op_bound bound, double mult)
{
	struct op_cost c = { flop, bytes, time, launch, p, bound };
	sink_put(&B->out, name, cat, &c, mult, flop);
}

/* The kit (opkit.h) over this builder's sink. */
static struct kit kit_of(struct vb *B)
{
	/* no memo: these kits time no collectives */
	struct kit K = { &B->out, B->g, B->pl, B->graphs, NULL, NULL };
	return K;
}

/* A GEMM (batch of m x n x k) at `frac` of the GEMM model's efficiency,
 * moving `bytes` through DRAM; a thin one may run on CUDA cores. */
static void gemm_moving(struct vb *B, const char *name, double m, double n,
			double k, double batch, double frac, double bytes,
			double mult)
{
	struct kit K = kit_of(B);
	kit_gemm(&K, name, BRK_GEMM, B->pg, m, n, k, batch, frac, bytes,
		 GEMM_OR_THIN, mult);
}

/* A GEMM reading both operands and writing its result once. */
void vis_gemm(struct vb *B, const char *name, double m, double n, double k,
	      double batch, double frac, double mult)
{
	gemm_moving(B, name, m, n, k, batch, frac,
		    batch * B->e * (m * k + k * n + m * n), mult);
}

/* A memory-bound kernel sequence moving `bytes` (at norm_mem_frac of the
 * streaming rate). */
void vis_elem(struct vb *B, const char *name, double bytes, double kernels,
		 double mult)
{
	struct kit K = kit_of(B);
	kit_stream(&K, name, BRK_MEMBOUND, B->pa, bytes, B->g->eff.norm_mem_frac,
		   0, kernels, mult);
}

/* A depthwise convolution pass on CUDA cores. */
static void dwconv(struct vb *B, const char *name, double flop, double bytes,
		   double mult)
{
	double eb = bytes / B->g->eff.norm_mem_frac;
	enum op_bound bound;
	double t = roof_time(B->g, PREC_FP32, flop, B->g->eff.dw_frac, eb, 1,
			     B->graphs, &bound);
	put(B, name, BRK_MEMBOUND, flop, bytes, PREC_FP32, t,
	    roof_launch_part(B->g, PREC_FP32, flop, B->g->eff.dw_frac, eb, t), bound,
	    mult);
}

/* Name "<pfx>.<what>.<pass>" cut to fit. */
const char *vis_op_name(char *buf, const char *pfx, const char *what,
			const char *pass)
{
	/* a longer name is cut: it only labels a report row */
	if (snprintf(buf, 40, "%s.%s%s%s", pfx, what, pass[0] ? "." : "",
		     pass) >= 40)
		buf[39] = '\0';
	return buf;
}

/*
 * A convolution of the running micro-batch: cin x hi x wi to cout x ho x
 * wo, kernel k, `groups`; forward or backward as B->out.bwd says.
 */
void vis_op_conv(struct vb *B, const char *pfx, const char *what,
		 double cin, double hi, double wi, double cout, double ho,
		 double wo, int k, int groups, double mult)
{
	char n[40];
	double b = B->b, e = B->e;
	/* kernel volume; a volume's depth is folded into hi and ho */
	double kk = B->vol ? (double)k * k * k : (double)k * k;
	double M = b * ho * wo, N = cout / groups, K = cin / groups * kk;
	double frac = k == 1 ? B->g->eff.conv1x1_frac : B->g->eff.conv_frac;
	double xin = b * cin * hi * wi, xout = b * cout * ho * wo;
	int first = B->first;

	if (groups > 1 && cin / groups == 1) {
		B->first = 0;
		double flop = 2 * xout * kk;
		double bytes = e * (xin + xout) + e * cout * kk;
		if (!B->out.bwd) {
			dwconv(B, vis_op_name(n, pfx, what, "fwd"), flop, bytes, mult);
		} else {
			dwconv(B, vis_op_name(n, pfx, what, "bwd_d"), flop, bytes, mult);
			dwconv(B, vis_op_name(n, pfx, what, "bwd_w"), flop, bytes, mult);
		}
		return;
	}
	B->first = 0;
	/* Implicit GEMM (cuDNN): the k x k windows are gathered on chip, not
	 * materialised, so DRAM sees the feature maps and the weights once,
	 * not the im2col matrix of k^2 times the input. */
	double traffic = e * (xin + xout + cout * cin / groups * kk);
	/* Winograd shortens each pass's reduction: fewer multiplies, the
	 * same output tiles. */
	double wg = !B->vol && B->pg == PREC_FP32 && k == 3 && groups == 1 &&
		    ho == hi &&
		    wo == wi ? VIS_WINOGRAD_GAIN : 1;
	if (!B->out.bwd) {
		gemm_moving(B, vis_op_name(n, pfx, what, "fwd"), M, N, K / wg, groups,
			    frac, traffic, mult);
	} else {
		if (!first)
			gemm_moving(B, vis_op_name(n, pfx, what, "bwd_d"), M, K, N / wg,
				    groups, frac, traffic, mult);
		gemm_moving(B, vis_op_name(n, pfx, what, "bwd_w"), N, K, M / wg, groups,
			    frac, traffic, mult);
	}
	if (B->layout) /* NCHW <-> NHWC around tensor-core kernels */
		vis_elem(B, vis_op_name(n, pfx, what, B->out.bwd ? "layout_bwd" : "layout"),
		     2 * e * (xin + xout) * (B->out.bwd ? 2 : 1), 2, mult);
}

/* Memory-bound kernels: forward / backward bytes per element of X. */
void vis_op_elem(struct vb *B, const char *pfx, const char *what, double X,
		 double fwd, double bwd, double kernels, double mult)
{
	char n[40];
	vis_elem(B, vis_op_name(n, pfx, what, B->out.bwd ? "bwd" : "fwd"),
	     B->e * X * (B->out.bwd ? bwd : fwd), kernels, mult);
}

/*
 * A normalisation or element-wise kernel that a framework may fuse into its
 * neighbours: only the share unfused_frac of its passes (bytes and kernels)
 * runs on its own.  The fused share's work rides on the convolutions'
 * prologues and epilogues, whose time is bound by their arithmetic.
 */
void vis_op_fusable(struct vb *B, const char *pfx, const char *what,
		    double X, double fwd, double bwd, double kernels,
		    double mult)
{
	double u = B->g->eff.unfused_frac;
	if (!(u > 0))
		return;
	vis_op_elem(B, pfx, what, X * u, fwd, bwd, kernels * u, mult);
}

void vis_op_act(struct vb *B, const char *pfx, const char *what, double X,
		double mult)
{
	vis_op_fusable(B, pfx, what, X, 2, 3, 1, mult);
}

/* A linear layer on `rows` rows: forward, or both backward GEMMs. */
void vis_op_linear(struct vb *B, const char *pfx, const char *what,
		   double rows, double in, double out, double mult)
{
	char n[40];
	if (!B->out.bwd) {
		vis_gemm(B, vis_op_name(n, pfx, what, "fwd"), rows, out, in, 1, 1, mult);
	} else {
		vis_gemm(B, vis_op_name(n, pfx, what, "bwd_d"), rows, in, out, 1, 1, mult);
		vis_gemm(B, vis_op_name(n, pfx, what, "bwd_w"), in, out, rows, 1, 1, mult);
	}
}
