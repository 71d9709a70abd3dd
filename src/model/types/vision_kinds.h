/*
 * vision_kinds.h - the kinds of entry a vision network is written with, one
 * row each: its name in workload and architecture files, the keys it needs
 * (each a positive integer) and what they mean, and the keys no other kind
 * takes.  The enum, the names and the loader's checks (io/wl_vision.c) come
 * from the rows.  A new kind is a row here, its shapes in vision_shape.c and
 * its operators in vision_ops.c.
 *
 * Plain layers act on the running tensor (channels x height x width, or a
 * sequence of tokens after `tokens`); blocks (bottleneck, basic, cnblock,
 * mbconv, swin, attention) stand for `repeat` copies of a residual block.
 * Shapes are inferred from the image size.
 */
#ifndef TC_VISION_KINDS_H
#define TC_VISION_KINDS_H

/* X(ID, name, needed keys, what they mean, keys of its own); key lists are
 * space-separated, NULL for none.  Rows after VL_ATTENTION are blocks of
 * several parameter tensors (vision.c counts the optimizer's kernels so). */
#define VIS_KINDS(X) \
	X(CONV, "conv", "out", "out: output channels", NULL) \
	X(BATCHNORM, "batchnorm", NULL, NULL, NULL) \
	X(LAYERNORM, "layernorm", NULL, NULL, NULL) \
	X(RELU, "relu", NULL, NULL, NULL) \
	X(GELU, "gelu", NULL, NULL, NULL) \
	X(SILU, "silu", NULL, NULL, NULL) \
	/* x * ReLU6(x + 3) / 6, MobileNetV3 (Howard et al., ICCV 2019) */ \
	X(HARDSWISH, "hardswish", NULL, NULL, NULL) \
	X(MAXPOOL, "maxpool", NULL, NULL, NULL) \
	X(AVGPOOL, "avgpool", NULL, NULL, NULL) \
	X(LINEAR, "linear", "out", "out: output features", NULL) \
	X(ADD, "add", NULL, NULL, NULL) \
	X(TOKENS, "tokens", NULL, NULL, NULL) \
	X(ATTENTION, "attention", NULL, NULL, NULL) \
	X(BOTTLENECK, "bottleneck", NULL, NULL, NULL) \
	X(BASIC, "basic", NULL, NULL, NULL) \
	X(CNBLOCK, "cnblock", NULL, NULL, NULL) \
	/* EfficientNet and Swin (docs/vision-recsys.md, "Network and shapes") */ \
	X(MBCONV, "mbconv", "out expand", \
	  "out: output channels, expand: the expansion ratio, 1 for none", "expand se") \
	X(SWIN, "swin", "heads window", \
	  "heads: attention heads, window: the side of its attention windows", "window") \
	X(PATCH_MERGE, "patch_merge", NULL, NULL, NULL) \
	/* U-Nets (docs/vision-recsys.md, "U-Nets") */ \
	X(GROUPNORM, "groupnorm", NULL, NULL, NULL) \
	X(RESBLOCK, "resblock", "out", "out: output channels", NULL) \
	X(UPSAMPLE, "upsample", "out", "out: output channels", NULL) \
	X(DECONV, "deconv", "out kernel", \
	  "out: output channels, kernel: the up-sampling factor", NULL) \
	X(CONVBLOCK, "convblock", "out", "out: output channels", NULL) \
	/* detection (docs/vision-recsys.md, "Detectors") */ \
	X(FPN, "fpn", "out", "out: pyramid channels", NULL) \
	X(RETINA_HEAD, "retina_head", "anchors classes", \
	  "anchors: per position, classes: object classes", NULL) \
	X(RPN_HEAD, "rpn_head", "anchors proposals", \
	  "anchors: per position, proposals: regions kept per image", NULL) \
	X(ROI_BOX_HEAD, "roi_box_head", "rois classes", \
	  "rois: regions per image, classes: object classes", NULL) \
	X(ROI_MASK_HEAD, "roi_mask_head", "rois classes", \
	  "rois: regions per image, classes: object classes", NULL)

enum vis_kind {
#define VIS_KIND_ENUM(id, ...) VL_##id,
	VIS_KINDS(VIS_KIND_ENUM)
#undef VIS_KIND_ENUM
	VL_KIND_COUNT
};

/* What a kind asks of its entries (the row's last three columns). */
struct vis_kind_def {
	const char *needs;    /* keys that must be positive */
	const char *meaning;  /* what they mean, for the error */
	const char *own;      /* keys only this kind takes */
};

/* Names in enum order, NULL-terminated. */
extern const char *const vis_kind_names[VL_KIND_COUNT + 1];
extern const struct vis_kind_def vis_kind_defs[VL_KIND_COUNT];

#endif
