/*
 * vision.h - image networks (ResNets, ConvNeXt, EfficientNet, Swin, ViT,
 * detectors, U-Nets) as operator lists: convolutions as implicit GEMMs,
 * batch-norm, activations, pooling and residual adds as memory-bound
 * kernels, transformer blocks through the LLM operators (llm.c, no causal
 * mask).  docs/vision-recsys.md.
 */
#ifndef TC_VISION_H
#define TC_VISION_H

#include <stddef.h>

#include "estimate_types.h"
#include "gpu.h"
#include "workload.h"

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
double vis_out_side(double in, int k, int s);

/*
 * Infer the shape after every entry of `a` for images of `image` x
 * `image_w` pixels (image_w 0: square) into sh[0 .. a->nlayers-1] (may be
 * NULL) and the totals into *sum
 * (may be NULL).  Returns 0, or the 1-based index of the first entry that
 * cannot run (a size that shrinks to nothing, channels that do not divide,
 * an attention block before `tokens`) with a message in msg.
 */
int vision_infer(const struct vision_arch *a, double image, double image_w,
		 struct vis_shape *sh, struct vis_summary *sum, char *msg,
		 size_t msglen);


#endif
