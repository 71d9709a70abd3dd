/*
 * vision_heads.c - the operators of detection networks: the feature
 * pyramid (FPN) and the RetinaNet, RPN and RoI heads on its levels, with
 * what their losses and proposal steps do per anchor or region.
 * docs/vision-recsys.md gives the formulas and sources.
 */
#include "vision_heads.h"

#include <math.h>
#include <stdio.h>

/*
 * The FPN of vis_fpn(): per input a lateral 1x1 convolution, the top-down
 * up-sample + add (one fusable add pass on the level, none on the top),
 * a 3x3 output convolution; then the extra stride-2 levels, a ReLU before
 * each but the first; then the subsampled levels (a pool pass each).
 */
void vis_op_fpn(struct vb *B, const char *pfx, const struct vis_layer *L,
		int n, const double *fc, const double *fh, const double *fw,
		const struct vis_shape *o)
{
	double f = L->out, b = B->b;
	char what[24];
	int j;

	for (j = 0; j < n; j++) {
		snprintf(what, sizeof(what), "lat%d", j + 1);
		vis_op_conv(B, pfx, what, fc[j], fh[j], fw[j], f, fh[j], fw[j], 1, 1,
			1);
		if (j < n - 1) {
			snprintf(what, sizeof(what), "topdown%d", j + 1);
			vis_op_fusable(B, pfx, what, b * f * fh[j] * fw[j], 3, 3, 1,
				   1);
		}
		snprintf(what, sizeof(what), "out%d", j + 1);
		vis_op_conv(B, pfx, what, f, fh[j], fw[j], f, fh[j], fw[j], 3, 1, 1);
	}
	for (j = n; j < n + (L->extra > 0 ? L->extra : 0); j++) {
		if (j > n) {
			snprintf(what, sizeof(what), "relu%d", j + 1);
			vis_op_act(B, pfx, what, b * f * o->lh[j - 1] * o->lw[j - 1],
			       1);
		}
		snprintf(what, sizeof(what), "extra%d", j + 1);
		vis_op_conv(B, pfx, what, f, o->lh[j - 1], o->lw[j - 1], f, o->lh[j],
			o->lw[j], 3, 1, 1);
	}
	for (; j < o->levels; j++) {
		double X = b * f * o->lh[j - 1] * o->lw[j - 1];
		snprintf(what, sizeof(what), "pool%d", j + 1);
		vis_op_elem(B, pfx, what, X, 1 + o->lh[j] * o->lw[j] /
			(o->lh[j - 1] * o->lw[j - 1]), 2, 1, 1);
	}
}

/*
 * RetinaNet's heads on every level (vis_retina_head()) and what its loss
 * does per anchor, charged as what it is: memory-bound passes.
 * - Anchor matching (forward only): each anchor's box read (16 B), the
 *   best ground-truth index and label written (8 B), its regression
 *   target encoded (16 B read, 16 B written): 56 B per anchor.  The
 *   anchors x boxes IoU matrix (4 B per pair) is left out: at fewer than
 *   about 50 boxes per image it is under 1 % of the classification loss
 *   traffic below.
 * - Sigmoid focal loss over anchors x classes logits as one element-wise
 *   kernel each way (apex's fused focal loss, a compiled graph): forward
 *   reads the logit and writes its loss (2 elements), backward reads the
 *   logit and the incoming gradient and writes the logit's (3).  Eager
 *   PyTorch runs it as a chain of about eight kernels: not modelled.
 * - Box regression loss (L1 on anchors x 4), likewise 2 / 3.
 */
void vis_op_retina_head(struct vb *B, const char *pfx,
			const struct vis_layer *L, double c, int nlev,
			const double *lh, const double *lw)
{
	double b = B->b, A = L->anchors, K = L->classes;
	int t = L->convs > 0 ? L->convs : 4, j;
	char p[24];

	for (j = 0; j < nlev; j++) {
		double hw = lh[j] * lw[j], X = b * c * hw;
		snprintf(p, sizeof(p), "%.8s.p%d", pfx, j + 1);
		vis_op_conv(B, p, "cls_tower", c, lh[j], lw[j], c, lh[j], lw[j], 3,
			1, t);
		vis_op_act(B, p, "cls_relu", X, t);
		vis_op_conv(B, p, "cls_out", c, lh[j], lw[j], A * K, lh[j], lw[j], 3,
			1, 1);
		vis_op_conv(B, p, "box_tower", c, lh[j], lw[j], c, lh[j], lw[j], 3,
			1, t);
		vis_op_act(B, p, "box_relu", X, t);
		vis_op_conv(B, p, "box_out", c, lh[j], lw[j], A * 4, lh[j], lw[j], 3,
			1, 1);
		vis_op_elem(B, p, "focal_loss", b * hw * A * K, 2, 3, 1, 1);
		vis_op_elem(B, p, "box_loss", b * hw * A * 4, 2, 3, 1, 1);
		if (!B->out.bwd) {
			char n[40];
			vis_elem(B, vis_op_name(n, p, "anchor_match", "fwd"), b * hw * A * 56,
			     2, 1);
		}
	}
}

/*
 * Torchvision's per-level cap on the proposals that enter NMS in training
 * (rpn_pre_nms_top_n_train, recalled from models/detection/faster_rcnn.py).
 */
#define VIS_RPN_PRE_NMS 2000.0

/*
 * The RPN of vis_rpn_head() on every level, and its proposal stage,
 * forward only, as memory-bound passes per anchor: decoding (score and 4
 * deltas read, anchor box read, 16 B box written) and the top-k sort key
 * and index (8 B); NMS among the level's best VIS_RPN_PRE_NMS (its IoU
 * bit matrix written and read, n^2 / 8 B each); anchor matching as in
 * vis_op_retina_head() (56 B per anchor).  Its losses run on 256 sampled
 * anchors per image: negligible, not charged.
 */
void vis_op_rpn_head(struct vb *B, const char *pfx, const struct vis_layer *L,
		     double c, int nlev, const double *lh, const double *lw)
{
	double b = B->b, A = L->anchors;
	int j;
	char p[24], n[40];

	for (j = 0; j < nlev; j++) {
		double hw = lh[j] * lw[j], anchors = b * hw * A;
		double keep = fmin(VIS_RPN_PRE_NMS, hw * A);
		snprintf(p, sizeof(p), "%.8s.p%d", pfx, j + 1);
		vis_op_conv(B, p, "conv", c, lh[j], lw[j], c, lh[j], lw[j], 3, 1, 1);
		vis_op_act(B, p, "relu", b * c * hw, 1);
		vis_op_conv(B, p, "score", c, lh[j], lw[j], A, lh[j], lw[j], 1, 1, 1);
		vis_op_conv(B, p, "delta", c, lh[j], lw[j], 4 * A, lh[j], lw[j], 1, 1,
			1);
		if (B->out.bwd)
			continue;
		vis_elem(B, vis_op_name(n, p, "decode", "fwd"),
		     anchors * (5 * B->e + 16 + 16 + 8), 3, 1);
		vis_elem(B, vis_op_name(n, p, "nms", "fwd"), b * keep * keep / 4, 2, 1);
		vis_elem(B, vis_op_name(n, p, "anchor_match", "fwd"), anchors * 56, 2, 1);
	}
}

/*
 * A convolution over the pooled regions: the regions of the micro-batch
 * are its images.
 */
static void roi_conv(struct vb *B, const char *pfx, const char *what,
		     double rois, double cin, double p, double cout,
		     double po, int k, double mult)
{
	double b = B->b;
	B->b = b * rois;
	vis_op_conv(B, pfx, what, cin, p, p, cout, po, po, k, 1, mult);
	B->b = b;
}

/*
 * The RoI heads of vis_roi_head().  RoIAlign is a gather (2 bilinear
 * samples a side per bin, mostly from cache): charged as its output
 * written and read once forward (2 X), backward an atomic scatter-add
 * into the level's gradient (3 X).  Proposal-to-box matching (56 B per
 * proposal, forward) runs with the box head.  Losses: softmax
 * cross-entropy on rois x classes and L1 on rois x 4 (box), per-pixel
 * binary cross-entropy on the true class's 2 pool x 2 pool mask: one
 * element-wise kernel each way (2 / 3).
 */
void vis_op_roi_head(struct vb *B, const char *pfx, const struct vis_layer *L,
		     double c, double proposals)
{
	double b = B->b, R = L->rois, K = L->classes, rows = b * R;
	double p = L->pool > 0 ? L->pool : L->kind == VL_ROI_BOX_HEAD ? 7 : 14;
	double m = L->mlp > 0 ? L->mlp : 1024, p2 = p * p, q2 = 4 * p2;
	int t = L->convs > 0 ? L->convs : 4;
	char n[40];

	vis_op_elem(B, pfx, "roi_align", rows * c * p2, 2, 3, 1, 1);
	if (L->kind == VL_ROI_BOX_HEAD) {
		vis_op_linear(B, pfx, "fc6", rows, c * p2, m, 1);
		vis_op_act(B, pfx, "relu6", rows * m, 1);
		vis_op_linear(B, pfx, "fc7", rows, m, m, 1);
		vis_op_act(B, pfx, "relu7", rows * m, 1);
		vis_op_linear(B, pfx, "cls", rows, m, K, 1);
		vis_op_linear(B, pfx, "box", rows, m, 4 * K, 1);
		vis_op_elem(B, pfx, "loss", rows * (K + 4), 2, 3, 2, 1);
		if (!B->out.bwd)
			vis_elem(B, vis_op_name(n, pfx, "match", "fwd"), b * proposals * 56, 2,
			     1);
		return;
	}
	roi_conv(B, pfx, "conv", R, c, p, c, p, 3, t);
	vis_op_act(B, pfx, "relu", rows * c * p2, t);
	vis_op_linear(B, pfx, "deconv", rows * p2, c, 4 * c, 1);
	vis_op_act(B, pfx, "relu_up", rows * c * q2, 1);
	roi_conv(B, pfx, "logits", R, c, 2 * p, K, 2 * p, 1, 1);
	vis_op_elem(B, pfx, "loss", rows * q2, 2, 3, 1, 1);
}
