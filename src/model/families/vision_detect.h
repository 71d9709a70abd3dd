/*
 * vision_detect.h - the sizes of a detection network's pyramid and heads
 * (vision_detect.c), for vision_infer().
 */
#ifndef TC_VISION_DETECT_H
#define TC_VISION_DETECT_H

#include <stddef.h>

#include "vision_types.h"

/* The FPN of entry L on the n feature maps fc x fh x fw, largest first:
 * its parameters, multiply-adds and kept activations added to *o, the
 * level sides into lh, lw.  0, or 1 with a message. */
int vis_fpn(const struct vis_layer *L, int n, const double *fc,
	    const double *fh, const double *fw, struct vis_shape *o,
	    double *lh, double *lw, char *msg, size_t msglen);

/* The heads shared by the nlev pyramid levels lh x lw of c channels, and
 * the RoI heads on their regions: parameters, multiply-adds and kept
 * activations into *o. */
void vis_rpn_head(const struct vis_layer *L, double c, int nlev,
		  const double *lh, const double *lw, struct vis_shape *o);
void vis_retina_head(const struct vis_layer *L, double c, int nlev,
		     const double *lh, const double *lw, struct vis_shape *o);
void vis_roi_head(const struct vis_layer *L, double c, struct vis_shape *o);

#endif
