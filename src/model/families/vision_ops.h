/*
 * vision_ops.h - the operator builder of a vision training step
 * (vision_ops.c), as vision.c drives it.
 */
#ifndef TC_VISION_OPS_H
#define TC_VISION_OPS_H

#include "vision_prim.h"

/*
 * Put the operators of one micro-batch's forward (B->out.bwd 0) or
 * backward (1) pass over the layer list into the sink; the forward sets
 * *attn_act to the activation bytes of its transformer blocks.
 */
void vis_walk(struct vb *B, const struct workload *w,
	      const struct vis_shape *sh, double *attn_act);

#endif
