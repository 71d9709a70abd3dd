/*
 * vision_heads.h - the operators of a detection network's feature pyramid
 * and heads (vision_heads.c), which the layer walk (vision_ops.c) puts
 * where the layer list names them.
 */
#ifndef TC_VISION_HEADS_H
#define TC_VISION_HEADS_H

#include "vision_prim.h"

/* The FPN over n pyramid inputs (channels fc, sides fh x fw; o: its
 * output levels) and the heads on its levels. */
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
