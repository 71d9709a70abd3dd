/*
 * vision.h - image networks (ResNets, ConvNeXt, EfficientNet, Swin, ViT,
 * detectors, U-Nets) as operator lists: convolutions as implicit GEMMs,
 * batch-norm, activations, pooling and residual adds as memory-bound
 * kernels, transformer blocks through the LLM operators (llm.c, no causal
 * mask).  docs/vision-recsys.md.
 *
 * This is the family's row (family.h); the shapes of a network are
 * vision_shape.h's, its operators vision_ops.h's.
 */
#ifndef TC_VISION_H
#define TC_VISION_H

#include "../core/family.h"

extern const struct est_family vision_family;

#endif
