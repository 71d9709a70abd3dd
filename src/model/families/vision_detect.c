/*
 * vision_detect.c - the sizes of a detection network's parts on a feature
 * pyramid: the pyramid itself (FPN) and the RetinaNet, RPN and RoI heads,
 * as vision_infer() counts them.  Their operators are vision_heads.c's.
 */
#include "vision_detect.h"

#include <stdio.h>

/*
 * A feature pyramid network (Lin et al., arXiv:1612.03144; torchvision
 * ops/feature_pyramid_network.py) on the n feature maps fc x fh x fw,
 * largest first: a 1x1 lateral convolution per map to `out` channels, the
 * top-down path (nearest up-sampling + add), a 3x3 output convolution per
 * level, and `extra` 3x3 stride-2 convolutions above the last level (the
 * first on its output, the others after a ReLU: RetinaNet's P6, P7), then
 * `pooled` levels subsampled by a 1x1 stride-2 max-pool (Mask R-CNN's P6,
 * for the RPN only).  All convolutions carry biases.  The maps only shrink
 * along the list, so the top-down path always up-samples.  Fills the
 * entry's params, MACs and kept activations and the level sides lh, lw;
 * returns 0, or 1 with a message.
 */
int vis_fpn(const struct vis_layer *L, int n, const double *fc,
	    const double *fh, const double *fw, struct vis_shape *o,
	    double *lh, double *lw, char *msg, size_t msglen)
{
	double f = L->out, conv3 = 9 * f * f + f;
	int extra = L->extra > 0 ? L->extra : 0, j;
	int pooled = L->pooled > 0 ? L->pooled : 0;

	if (n == 0) {
		snprintf(msg, msglen, "fpn has no feature map to read "
			 "(expected pyramid: true on the entries whose outputs "
			 "feed it)");
		return 1;
	}
	if (n + extra + pooled > VIS_MAX_LEVELS) {
		snprintf(msg, msglen, "fpn of %d levels (expected at most "
			 "%d)", n + extra + pooled, VIS_MAX_LEVELS);
		return 1;
	}
	for (j = 0; j < n; j++) {
		o->params += fc[j] * f + f + conv3;
		o->macs += fh[j] * fw[j] * (fc[j] * f + 9 * f * f);
		/* lateral input, output-conv input */
		o->act_bytes += fh[j] * fw[j] * (fc[j] + f);
		lh[j] = fh[j];
		lw[j] = fw[j];
	}
	for (j = n; j < n + extra; j++) {
		lh[j] = vis_out_side(lh[j - 1], 3, 2);
		lw[j] = vis_out_side(lw[j - 1], 3, 2);
		o->params += conv3;
		o->macs += lh[j] * lw[j] * 9 * f * f;
		/* conv input (and the ReLU output before the later ones) */
		o->act_bytes += lh[j - 1] * lw[j - 1] * f * (j > n ? 2 : 1);
	}
	for (j = n + extra; j < n + extra + pooled; j++) {
		lh[j] = vis_out_side(lh[j - 1], 1, 2);
		lw[j] = vis_out_side(lw[j - 1], 1, 2);
	}
	return 0;
}

/* The positions of the nlev pyramid levels lh x lw, which a head shared
 * by the levels runs on. */
static double pyramid_positions(int nlev, const double *lh, const double *lw)
{
	double P = 0;
	for (int j = 0; j < nlev; j++)
		P += lh[j] * lw[j];
	return P;
}

/*
 * Faster R-CNN's region proposal head (Ren et al., arXiv:1506.01497;
 * torchvision models/detection/rpn.py), shared by the levels: a 3x3
 * convolution + ReLU, 1x1 convolutions to `anchors` objectness scores and
 * anchors x 4 box deltas.  Kept: conv input, ReLU output, both outputs.
 */
void vis_rpn_head(const struct vis_layer *L, double c, int nlev,
		  const double *lh, const double *lw, struct vis_shape *o)
{
	double A = L->anchors, P = pyramid_positions(nlev, lh, lw);

	o->params = 9 * c * c + c + c * 5 * A + 5 * A;
	o->macs = P * (9 * c * c + c * 5 * A);
	o->act_bytes = P * (2 * c + 5 * A);
}

/*
 * The RoI heads of Mask R-CNN (He et al., arXiv:1703.06870; torchvision
 * models/detection/roi_heads.py, faster_rcnn.py TwoMLPHead and
 * FastRCNNPredictor, mask_rcnn.py MaskRCNNHeads and MaskRCNNPredictor) on
 * `rois` regions per image, each pooled by RoIAlign to pool x pool x c:
 * - box: fully connected c*pool^2 -> mlp -> mlp (ReLU), then classes
 *   scores and classes x 4 deltas;
 * - mask: `convs` 3x3 convolutions + ReLU at pool x pool, a 2x2 stride-2
 *   transposed convolution + ReLU to 2 pool, a 1x1 convolution to one
 *   mask per class.
 * Kept: the pooled features, every layer input and ReLU output, the
 * outputs.
 */
void vis_roi_head(const struct vis_layer *L, double c, struct vis_shape *o)
{
	double R = L->rois, K = L->classes;
	double p = L->pool > 0 ? L->pool : L->kind == VL_ROI_BOX_HEAD ? 7 : 14;
	double m = L->mlp > 0 ? L->mlp : 1024, p2 = p * p, q2 = 4 * p2;
	int t = L->convs > 0 ? L->convs : 4;

	if (L->kind == VL_ROI_BOX_HEAD) {
		o->params = c * p2 * m + m + m * m + m + m * 5 * K + 5 * K;
		o->macs = R * (c * p2 * m + m * m + m * 5 * K);
		o->act_bytes = R * (c * p2 + 4 * m + 5 * K);
		return;
	}
	o->params = t * (9 * c * c + c) + 4 * c * c + c + c * K + K;
	o->macs = R * (t * p2 * 9 * c * c + q2 * c * c + q2 * c * K);
	o->act_bytes = R * (c * p2 + 2 * t * c * p2 + 3 * c * q2 + K * q2);
}

/*
 * RetinaNet's heads (Lin et al., "Focal Loss for Dense Object Detection",
 * arXiv:1708.02002; torchvision models/detection/retinanet.py), shared by
 * every pyramid level: a classification and a box tower of `convs` 3x3
 * convolutions with ReLU, then 3x3 output convolutions to anchors x
 * classes and anchors x 4.  Kept: tower inputs and ReLU outputs, and the
 * output logits the losses read.
 */
void vis_retina_head(const struct vis_layer *L, double c, int nlev,
		     const double *lh, const double *lw, struct vis_shape *o)
{
	double A = L->anchors, K = L->classes;
	double P = pyramid_positions(nlev, lh, lw);
	int t = L->convs > 0 ? L->convs : 4;

	o->params = 2 * t * (9 * c * c + c) + 9 * c * A * (K + 4) + A * (K + 4);
	o->macs = P * (2 * t * 9 * c * c + 9 * c * A * (K + 4));
	o->act_bytes = P * (2 * t * 2 * c + A * (K + 4));
}
