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
	struct op_sums S;
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
 * backward (1) pass over the layer list into the sink; *attn_act gets the
 * activation bytes of its transformer blocks.  0, or -1 when they do not
 * fit their workspace.
 */
int vis_walk(struct vb *B, const struct workload *w,
	     const struct vis_shape *sh, double *attn_act);

/* A memory-bound kernel sequence moving `bytes`, `mult` times per
 * micro-batch (at norm_mem_frac of the streaming rate). */
void vis_elem(struct vb *B, const char *name, double bytes, double kernels,
	      double mult);

#endif
