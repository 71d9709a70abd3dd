/*
 * vision_prim.h - the builder of a vision training step's operators and
 * the operator kinds it is built of (vision_prim.c), which the layer walk
 * (vision_ops.c) and the detection heads (vision_heads.c) use.
 */
#ifndef TC_VISION_PRIM_H
#define TC_VISION_PRIM_H

#include "../core/opsink.h"
#include "vision_types.h"

/* Builder state: how an operator's time is computed; the sink lists it
 * (merging the repeats of a block) and sums it per micro-batch. */
struct vb {
	struct op_sink out;
	const struct gpu *g;
	const struct plan *pl;
	enum tc_prec pg;   /* GEMM precision */
	enum tc_prec pa;   /* element-wise precision */
	double e;          /* bytes per activation element */
	double b;          /* images per micro-batch */
	double m;          /* micro-batches per step */
	int graphs;
	int frozen_bn;     /* batch-norms are fixed affine maps */
	int vol;           /* 3-D network: cubic kernels */
	int layout;        /* NCHW with tensor cores: transposes per conv */
	int first;         /* the next conv is the first layer */
};

/* A memory-bound kernel sequence moving `bytes`, `mult` times per
 * micro-batch (at norm_mem_frac of the streaming rate). */
void vis_elem(struct vb *B, const char *name, double bytes, double kernels,
	      double mult);

/* A GEMM (batch of m x n x k) at `frac` of the GEMM model's efficiency,
 * reading both operands and writing its result once, `mult` times per
 * micro-batch; a thin one may run on CUDA cores. */
void vis_gemm(struct vb *B, const char *name, double m, double n, double k,
	      double batch, double frac, double mult);

/* The operator kinds of a layer.  Each adds forward or backward operators
 * as B->out.bwd says, `mult` times per micro-batch. */
/* Name "<pfx>.<what>.<pass>" cut to fit a 40-byte buffer. */
const char *vis_op_name(char *buf, const char *pfx, const char *what,
			const char *pass);
/* A convolution of the running micro-batch: cin x hi x wi to cout x ho x
 * wo, kernel k, `groups`. */
void vis_op_conv(struct vb *B, const char *pfx, const char *what,
		 double cin, double hi, double wi, double cout, double ho,
		 double wo, int k, int groups, double mult);
/* Memory-bound kernels: forward / backward bytes per element of X. */
void vis_op_elem(struct vb *B, const char *pfx, const char *what, double X,
		 double fwd, double bwd, double kernels, double mult);
/* A normalisation or element-wise kernel a framework may fuse into its
 * neighbours (only unfused_frac of its passes runs on its own). */
void vis_op_fusable(struct vb *B, const char *pfx, const char *what,
		    double X, double fwd, double bwd, double kernels,
		    double mult);
/* An activation over X elements (fusable). */
void vis_op_act(struct vb *B, const char *pfx, const char *what, double X,
		double mult);
/* A linear layer on `rows` rows: forward, or both backward GEMMs. */
void vis_op_linear(struct vb *B, const char *pfx, const char *what,
		   double rows, double in, double out, double mult);

#endif
