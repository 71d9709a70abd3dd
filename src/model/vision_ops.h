/*
 * vision_ops.h - the operator builder of a vision training step
 * (vision_ops.c), as vision.c drives it.
 */
#ifndef TC_VISION_OPS_H
#define TC_VISION_OPS_H

#include "opsink.h"
#include "vision.h"

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
/*
 * Put the operators of one micro-batch's forward (B->out.bwd 0) or
 * backward (1) pass over the layer list into the sink; the forward sets
 * *attn_act to the activation bytes of its transformer blocks.
 */
void vis_walk(struct vb *B, const struct workload *w,
	      const struct vis_shape *sh, double *attn_act);

/* A memory-bound kernel sequence moving `bytes`, `mult` times per
 * micro-batch (at norm_mem_frac of the streaming rate). */
void vis_elem(struct vb *B, const char *name, double bytes, double kernels,
	      double mult);

/* The operator kinds vision_ops.c builds on, also used by the detection
 * heads (vision_heads.c).  Each adds forward or backward operators as
 * B->out.bwd says, `mult` times per micro-batch. */

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

/* Detection networks (vision_heads.c): the FPN over n pyramid inputs
 * (channels fc, sides fh x fw; o: its output levels) and the heads on its
 * levels. */
void vis_op_fpn(struct vb *B, const char *pfx, const struct vis_layer *L,
		int n, const double *fc, const double *fh, const double *fw,
		const struct vis_shape *o);
void vis_op_retina_head(struct vb *B, const char *pfx,
			const struct vis_layer *L, double c, int nlev,
			const double *lh, const double *lw);
void vis_op_rpn_head(struct vb *B, const char *pfx, const struct vis_layer *L,
		     double c, int nlev, const double *lh, const double *lw);
void vis_op_roi_head(struct vb *B, const char *pfx, const struct vis_layer *L,
		     double c, double proposals);

#endif
