/*
 * vision_types.h - the shape of a vision network's running tensor after
 * each entry of its layer list and the totals of the network, as
 * vision_infer() (vision_shape.c) works them out and the operator walk
 * (vision_ops.c), the detection parts (vision_detect.c, vision_heads.c)
 * and the family hooks (vision.c) read them; with the one rule of a
 * convolution's output side they all apply.  Types and that rule only, so
 * that every vision unit includes this header and none needs another unit
 * to name them.
 */
#ifndef TC_VISION_TYPES_H
#define TC_VISION_TYPES_H

#include <math.h>

#include "../types/workload.h"

/* Shape of the running tensor after one entry of the layer list. */
struct vis_shape {
	double c, h, w;    /* channels, height, width (h = w = 1 for a vector) */
	double d;          /* depth (1 for images) */
	double tokens;     /* sequence length once `tokens` ran, else 0 */
	double params;     /* parameters of the entry (all repeats) */
	double macs;       /* forward multiply-adds per image (all repeats) */
	double act_bytes;  /* activations kept for backward per image, at
			      2 bytes per element (scale by e/2) */
	int levels;        /* pyramid levels after an fpn, else 0 */
	double lh[VIS_MAX_LEVELS], lw[VIS_MAX_LEVELS]; /* their sides */
};

/* Totals of a network at one image size. */
struct vis_summary {
	double params;
	double macs;       /* forward multiply-adds per image */
	double act_elems;  /* activation elements kept per image */
	double trainable_params; /* params of the entries after the frozen
				    prefix */
	double trainable_macs;   /* their forward multiply-adds per image */
	double encoder_params;   /* frozen text encoder (not in params) */
	double encoder_macs;     /* its forward multiply-adds per image */
	double out_map;    /* elements per image of a feature-map output (a
			      U-Net's prediction), else 0 */
	int classes;       /* features of the last entry; 0 when a detection
			      head computes its own loss */
};

/* Output side of a convolution or pool: padding (k-1)/2 for odd kernels,
 * none for even ones (patchify), as torchvision's models use. */
static inline double vis_out_side(double in, int k, int s)
{
	int pad = k % 2 ? (k - 1) / 2 : 0;
	return floor((in + 2.0 * pad - k) / s) + 1;
}

#endif
