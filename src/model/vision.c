/*
 * vision.c - operators of an image-classification training step on one GPU.
 *
 * The layer list is walked once per micro-batch shape.  A convolution is an
 * implicit GEMM (M = N*Ho*Wo, N = Cout/groups, K = Cin/groups*kh*kw, batch =
 * groups) forward, with a data-gradient and a weight-gradient GEMM of the
 * same size backward (none for the data gradient of the first layer: images
 * need no gradient).  Depthwise convolutions run on CUDA cores and are
 * usually bound by memory.  Batch-norm, activations, pooling and residual
 * adds are memory-bound kernels.  Transformer blocks (ViT) are the layer
 * operators of llm.c with causal = 0.  Data-parallel gradient all-reduce
 * overlaps the backward (PyTorch DDP buckets).  docs/vision-recsys.md gives
 * the formulas, their sources and the calibration.
 */
#include "vision.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "comm.h"
#include "compose.h"
#include "llm.h"
#include "memory.h"
#include "opsink.h"
#include "roofline.h"

const char *const vis_kind_names[VL_KIND_COUNT + 1] = {
	"conv", "batchnorm", "layernorm", "relu", "gelu", "silu", "maxpool",
	"avgpool", "linear", "add", "tokens", "attention", "bottleneck",
	"basic", "cnblock", "groupnorm", "resblock", "upsample", "deconv",
	"convblock", "fpn", "retina_head", "rpn_head", "roi_box_head",
	"roi_mask_head", NULL,
};

/*
 * The vision efficiency parameters (conv_frac, conv1x1_frac, norm_mem_frac,
 * dw_frac, skinny_frac) are rows of the registry (eff_param.h): per GPU in
 * g->eff.  docs/vision-recsys.md, "Calibration", says how they were set.
 */
/*
 * cuDNN's Winograd algorithms for 3x3 stride-1 convolutions, the fastest on
 * CUDA cores (fp32 without tensor cores), which cudnn.benchmark picks:
 * F(2x2, 3x3) needs 16 multiplies per 2x2 output tile where direct
 * convolution needs 36, 2.25x fewer (Lavin and Gray, "Fast Algorithms for
 * Convolutional Neural Networks", CVPR 2016, arXiv:1509.09308).  The
 * arithmetic factor, not a fit; on tensor cores implicit GEMMs win and no
 * reduction applies.
 */
#define VIS_WINOGRAD_GAIN 2.25
/* DDP gradient bucket (PyTorch default bucket_cap_mb = 25): the last one
 * is reduced after the backward ends. */
#define VIS_DDP_BUCKET_BYTES 25e6
/* Parameter tensors updated per multi-tensor optimizer kernel (apex /
 * PyTorch foreach chunks). */
#define VIS_TENSORS_PER_KERNEL 64.0

/* ---------------------------------------------------------------------- */
/* Shapes                                                                  */

static int bad_entry(char *msg, size_t len, int idx, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Write the message and return the 1-based entry index. */
static int bad_entry(char *msg, size_t len, int idx, const char *fmt, ...)
{
	va_list ap;
	if (msg && len) {
		va_start(ap, fmt);
		vsnprintf(msg, len, fmt, ap);
		va_end(ap);
	}
	return idx + 1;
}

/* Output side of a convolution or pool: padding (k-1)/2 for odd kernels,
 * none for even ones (patchify), as torchvision's models use. */
static double out_side(double in, int k, int s)
{
	int pad = k % 2 ? (k - 1) / 2 : 0;
	return floor((in + 2.0 * pad - k) / s) + 1;
}

/* Bytes kept for backward by one transformer layer per image (16-bit),
 * Korthikanti et al. generalised as in memory.c, flash attention. */
static double attn_act_elems(double T, double C, double heads, double mlp)
{
	return T * (9 * C + 2 * mlp) + 2 * heads * T;
}

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
static int vis_fpn(const struct vis_layer *L, int n, const double *fc,
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
		lh[j] = out_side(lh[j - 1], 3, 2);
		lw[j] = out_side(lw[j - 1], 3, 2);
		o->params += conv3;
		o->macs += lh[j] * lw[j] * 9 * f * f;
		/* conv input (and the ReLU output before the later ones) */
		o->act_bytes += lh[j - 1] * lw[j - 1] * f * (j > n ? 2 : 1);
	}
	for (j = n + extra; j < n + extra + pooled; j++) {
		lh[j] = out_side(lh[j - 1], 1, 2);
		lw[j] = out_side(lw[j - 1], 1, 2);
	}
	return 0;
}

/*
 * Faster R-CNN's region proposal head (Ren et al., arXiv:1506.01497;
 * torchvision models/detection/rpn.py), shared by the levels: a 3x3
 * convolution + ReLU, 1x1 convolutions to `anchors` objectness scores and
 * anchors x 4 box deltas.  Kept: conv input, ReLU output, both outputs.
 */
static void vis_rpn_head(const struct vis_layer *L, double c, int nlev,
			 const double *lh, const double *lw, struct vis_shape *o)
{
	double A = L->anchors, P = 0;
	int j;
	for (j = 0; j < nlev; j++)
		P += lh[j] * lw[j];
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
static void vis_roi_head(const struct vis_layer *L, double c,
			 struct vis_shape *o)
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
static void vis_retina_head(const struct vis_layer *L, double c, int nlev,
			    const double *lh, const double *lw,
			    struct vis_shape *o)
{
	double A = L->anchors, K = L->classes, P = 0;
	int t = L->convs > 0 ? L->convs : 4, j;

	for (j = 0; j < nlev; j++)
		P += lh[j] * lw[j];
	o->params = 2 * t * (9 * c * c + c) + 9 * c * A * (K + 4) + A * (K + 4);
	o->macs = P * (2 * t * 9 * c * c + 9 * c * A * (K + 4));
	o->act_bytes = P * (2 * t * 2 * c + A * (K + 4));
}

/*
 * A U-Net residual block (Ho et al., arXiv:2006.11239; the latent
 * diffusion code's ResBlock, reference §2.6) from cin to cout channels on
 * hw positions: GroupNorm, SiLU, 3x3 convolution, the timestep embedding
 * (width E) projected and added, GroupNorm, SiLU, 3x3 convolution, a 1x1
 * convolution on the shortcut when the widths differ; biases everywhere.
 */
static void vis_resblock(double cin, double cout, double hw, double E,
			 struct vis_shape *o)
{
	int proj = cin != cout;
	o->params += 2 * cin + 9 * cin * cout + cout + (E > 0 ? E * cout + cout : 0) +
		     2 * cout + 9 * cout * cout + cout +
		     (proj ? cin * cout + cout : 0);
	o->macs += hw * (9 * cin * cout + 9 * cout * cout +
			 (proj ? cin * cout : 0)) + E * cout;
	/* GroupNorm inputs and SiLU outputs (the convolutions' inputs) */
	o->act_bytes += hw * (2 * cin + 2 * cout);
}

/*
 * The spatial transformer of latent diffusion (linear projections, depth
 * 1) on T = hw tokens of width c, `heads` heads, feed-forward GEGLU of
 * inner width m (its input projection 2 m wide), cross-attention to L
 * context tokens of width d: GroupNorm, proj_in, LayerNorm + self-attention
 * (q, k, v without bias), LayerNorm + cross-attention (q from the image,
 * k, v from the context, without bias), LayerNorm + feed-forward,
 * proj_out.  With m = 4c: 20 c^2 + 2 d c + 21 c parameters.
 */
static void vis_transformer(double c, double T, double m, double d, double L,
			    struct vis_shape *o)
{
	o->params += 2 * c + c * c + c + 2 * c + 3 * c * c + c * c + c + 2 * c +
		     c * c + 2 * d * c + c * c + c + 2 * c + c * 2 * m + 2 * m +
		     m * c + c + c * c + c;
	o->macs += T * (c * c + 3 * c * c + c * c + c * c + c * c + 2 * c * m +
			m * c + c * c) + 2 * T * T * c + 2 * T * L * c +
		   2 * L * d * c;
	/* inputs of the norms and projections, q k v, attention outputs,
	 * the GEGLU projection and its gate (flash attention keeps no
	 * T x T scores) */
	o->act_bytes += T * (16 * c + 3 * m);
}

/* U-Net outputs saved for a later concatenation, last saved first. */
struct vis_skips {
	int n;
	double c[VIS_MAX_SKIPS], h[VIS_MAX_SKIPS], w[VIS_MAX_SKIPS];
	double d[VIS_MAX_SKIPS];
	int at[VIS_MAX_SKIPS];  /* entry that saved it */
};

/* Save a c x h x w x d output of entry i; returns 0, or 1 when full. */
static int skip_push(struct vis_skips *k, double c, double h, double w,
		     double d, int i)
{
	if (k->n == VIS_MAX_SKIPS)
		return 1;
	k->c[k->n] = c;
	k->h[k->n] = h;
	k->w[k->n] = w;
	k->d[k->n] = d;
	k->at[k->n] = i;
	k->n++;
	return 0;
}

/*
 * Take the latest saved output to concatenate onto an h x w x d map of
 * entry i: adds its channels to *c and returns 0, else the 1-based entry
 * index with a message.
 */
static int skip_pop(struct vis_skips *k, double h, double w, double d,
		    double *c, int i, char *msg, size_t msglen)
{
	if (k->n == 0)
		return bad_entry(msg, msglen, i, "concat with no saved output "
				 "left (expected save: true on as many earlier "
				 "copies)");
	k->n--;
	if (k->h[k->n] != h || k->w[k->n] != w || k->d[k->n] != d)
		return bad_entry(msg, msglen, i, "concat of a %gx%g output onto "
				 "%gx%g (expected the same size)", k->h[k->n],
				 k->w[k->n], h, w);
	*c += k->c[k->n];
	return 0;
}

int vision_infer(const struct vision_arch *a, double image, double image_w,
		 struct vis_shape *sh, struct vis_summary *sum, char *msg,
		 size_t msglen)
{
	double c = a->in_channels > 0 ? a->in_channels : 3;
	double h = image, w = image_w > 0 ? image_w : image, T = 0;
	double bnp = a->frozen_bn ? 0 : 2; /* parameters per BN channel */
	double fc[VIS_MAX_LEVELS], fh[VIS_MAX_LEVELS], fw[VIS_MAX_LEVELS];
	struct vis_summary S;
	int i, nfeat = 0, nlev = 0, trainable = 0, head = -1, tap = -1;
	int rpn = 0, bad;
	struct vis_skips sk = { 0 };
	double E = a->time_embed, tw = a->text.width, tl = a->text.tokens;
	double lh[VIS_MAX_LEVELS], lw[VIS_MAX_LEVELS];
	int vol = a->dims == 3;
	double dp = vol ? image : 1; /* depth */

	memset(&S, 0, sizeof(S));
	if (!(image >= 1) || !(w >= 1))
		return bad_entry(msg, msglen, -1, "image size %g is not "
				 "positive (expected pixels per side)", image);
	for (i = 0; i < a->nlayers; i++) {
		const struct vis_layer *L = &a->layer[i];
		struct vis_shape o;
		double X, r = L->repeat > 0 ? L->repeat : 1;
		int s = L->stride > 0 ? L->stride : 1;
		int k = L->kernel > 0 ? L->kernel : 1;
		double out = L->out > 0 ? L->out : c;
		double kv = vol ? (double)k * k * k : (double)k * k; /* kernel
								      volume */
		int seq = T > 0;

		memset(&o, 0, sizeof(o));
		if (vol && L->kind != VL_CONV && L->kind != VL_DECONV &&
		    L->kind != VL_CONVBLOCK &&
		    L->kind != VL_GROUPNORM && L->kind != VL_BATCHNORM &&
		    L->kind != VL_RELU && L->kind != VL_GELU &&
		    L->kind != VL_SILU && L->kind != VL_ADD)
			return bad_entry(msg, msglen, i, "%s in a 3-D network "
					 "(expected conv, convblock, deconv, "
					 "groupnorm, "
					 "batchnorm, relu, gelu, silu or add)",
					 vis_kind_names[L->kind]);
		if (L->out < 0)
			return bad_entry(msg, msglen, i, "%s has %d output "
					 "channels (expected a positive count)",
					 vis_kind_names[L->kind], L->out);
		if (head >= 0)
			return bad_entry(msg, msglen, i, "%s after the "
					 "detection head of entry %d (expected "
					 "the head last)",
					 vis_kind_names[L->kind], head + 1);
		if (L->frozen && trainable)
			return bad_entry(msg, msglen, i, "frozen %s after a "
					 "trainable entry (expected frozen "
					 "entries first: gradients flow through "
					 "them to the layers before)",
					 vis_kind_names[L->kind]);
		trainable |= !L->frozen;
		if (nlev > 0 && L->kind < VL_RETINA_HEAD)
			return bad_entry(msg, msglen, i, "%s on a feature "
					 "pyramid (expected a detection head "
					 "after fpn)", vis_kind_names[L->kind]);
		if (L->concat && ((L->kind != VL_RESBLOCK &&
				   L->kind != VL_CONV &&
				   L->kind != VL_CONVBLOCK) || L->save))
			return bad_entry(msg, msglen, i, "concat on %s%s "
					 "(expected it on a conv, convblock or "
					 "resblock that does not save)",
					 L->save ? "a saving " : "",
					 vis_kind_names[L->kind]);
		if (L->save && (seq || nlev > 0))
			return bad_entry(msg, msglen, i, "save on %s, whose "
					 "output is not a feature map "
					 "(expected it on convolutional "
					 "entries)", vis_kind_names[L->kind]);
		switch (L->kind) {
		case VL_GROUPNORM:
			if (seq)
				return bad_entry(msg, msglen, i, "groupnorm "
						 "after tokens (expected it on "
						 "a feature map)");
			o.params = 2 * c;
			o.act_bytes = c * h * w * dp;
			break;
		case VL_UPSAMPLE:
			if (seq)
				return bad_entry(msg, msglen, i, "upsample "
						 "after tokens (expected it on "
						 "a feature map)");
			/* nearest x2, then a 3x3 convolution with bias */
			h *= 2;
			w *= 2;
			o.params = 9 * c * out + out;
			o.macs = h * w * 9 * c * out;
			o.act_bytes = c * h * w;
			c = out;
			break;
		case VL_RESBLOCK: {
			int j;
			if (seq)
				return bad_entry(msg, msglen, i, "resblock "
						 "after tokens (expected it on "
						 "a feature map)");
			if (L->heads > 0 && (!(tw > 0) || fmod(out, L->heads)))
				return bad_entry(msg, msglen, i, "resblock of "
						 "%g channels with %d heads "
						 "(expected heads that divide "
						 "the channels, and a "
						 "text_encoder for their "
						 "cross-attention)", out,
						 L->heads);
			for (j = 0; j < r; j++) {
				double cin = c;
				if (L->concat && (bad = skip_pop(&sk, h, w, dp,
								&cin, i, msg,
								msglen)))
					return bad;
				vis_resblock(cin, out, h * w, E, &o);
				if (L->heads > 0)
					vis_transformer(out, h * w,
							L->mlp > 0 ? L->mlp :
							4 * out, tw, tl, &o);
				c = out;
				/* the last copy's output is saved below */
				if (L->save && j < r - 1 &&
				    skip_push(&sk, c, h, w, dp, i))
					return bad_entry(msg, msglen, i, "more "
							 "than %d saved outputs "
							 "(expected at most %d)",
							 VIS_MAX_SKIPS,
							 VIS_MAX_SKIPS);
			}
			break;
		}
		case VL_CONV:
		case VL_CONVBLOCK: {
			int gr = L->groups > 0 ? L->groups : 1;
			double ho, wo;
			if (L->kind == VL_CONVBLOCK)
				k = 3;
			if (seq)
				return bad_entry(msg, msglen, i, "conv after "
						 "tokens (expected convolutions "
						 "before the image becomes a "
						 "sequence)");
			if (fmod(c, gr) || fmod(out, gr))
				return bad_entry(msg, msglen, i, "groups %d do "
						 "not divide %g input and %g "
						 "output channels (expected a "
						 "common divisor)", gr, c, out);
			if (L->concat && (bad = skip_pop(&sk, h, w, dp, &c, i,
							msg, msglen)))
				return bad;
			ho = out_side(h, k, s);
			wo = out_side(w, k, s);
			if (ho < 1 || wo < 1)
				return bad_entry(msg, msglen, i, "conv %dx%d "
						 "stride %d shrinks %gx%g to "
						 "nothing (expected a larger "
						 "image_size or fewer "
						 "down-sampling layers)", k, k,
						 s, h, w);
			kv = vol ? 27 : 9;
			if (L->kind == VL_CONV)
				kv = vol ? (double)k * k * k : (double)k * k;
			o.params = out * c / gr * kv + (L->bias ? out : 0);
			o.macs = ho * wo * out * c / gr * kv;
			o.act_bytes = c * h * w * dp; /* input kept */
			if (vol)
				dp = out_side(dp, k, s);
			o.macs *= dp;
			if (L->kind == VL_CONVBLOCK) {
				/* norm, ReLU, 3x3 conv, norm, ReLU: norm
				 * inputs, ReLU outputs (the conv input) */
				double pos = ho * wo * dp;
				o.params += 2 * out + out * out * kv + 2 * out;
				o.macs += pos * out * out * kv;
				o.act_bytes += 4 * out * pos;
			}
			h = ho;
			w = wo;
			c = out;
			break;
		}
		case VL_DECONV:
			/* transposed convolution, stride = kernel, with bias */
			o.params = c * out * kv + out;
			o.macs = h * w * dp * c * out * kv;
			o.act_bytes = c * h * w * dp;
			h *= k;
			w *= k;
			if (vol)
				dp *= k;
			c = out;
			break;
		case VL_BATCHNORM:
		case VL_LAYERNORM:
			X = seq ? T * c : c * h * w * dp;
			o.params = L->kind == VL_BATCHNORM ? bnp * c : 2 * c;
			o.act_bytes = X;
			break;
		case VL_RELU:
		case VL_GELU:
		case VL_SILU:
			o.act_bytes = seq ? T * c : c * h * w * dp;
			break;
		case VL_ADD:
			break;
		case VL_MAXPOOL:
		case VL_AVGPOOL:
			if (seq) { /* class token or mean over tokens */
				o.act_bytes = 0;
				T = 0;
				h = w = 1;
				break;
			}
			o.act_bytes = L->kind == VL_MAXPOOL ? c * h * w : 0;
			if (L->global) {
				h = w = 1;
			} else {
				double ho = out_side(h, k, s), wo = out_side(w, k, s);
				if (ho < 1 || wo < 1)
					return bad_entry(msg, msglen, i, "%s "
							 "%dx%d stride %d shrinks "
							 "%gx%g to nothing "
							 "(expected a larger "
							 "image_size or fewer "
							 "down-sampling layers)",
							 vis_kind_names[L->kind],
							 k, k, s, h, w);
				h = ho;
				w = wo;
			}
			break;
		case VL_LINEAR: {
			double rows = seq ? T : h * w; /* per image */
			if (L->out <= 0)
				return bad_entry(msg, msglen, i, "linear needs "
						 "out (expected output "
						 "features)");
			o.params = c * out + out;
			o.macs = rows * c * out;
			o.act_bytes = rows * c;
			c = out;
			break;
		}
		case VL_TOKENS:
			if (seq)
				return bad_entry(msg, msglen, i, "tokens twice "
						 "(expected one tokens entry)");
			T = h * w + (L->class_token ? 1 : 0);
			o.params = T * c + (L->class_token ? c : 0);
			o.act_bytes = 0;
			h = w = 1;
			break;
		case VL_ATTENTION: {
			double mlp = L->mlp > 0 ? L->mlp : 4 * c;
			int heads = L->heads > 0 ? L->heads : 1;
			if (!seq)
				return bad_entry(msg, msglen, i, "attention on "
						 "an image (expected a tokens "
						 "entry before it)");
			if (fmod(c, heads))
				return bad_entry(msg, msglen, i, "%d heads do "
						 "not divide width %g (expected "
						 "a divisor)", heads, c);
			o.params = r * (4 * c * c + 4 * c + 2 * c * mlp + mlp +
					c + 4 * c);
			o.macs = r * (T * (4 * c * c + 2 * c * mlp) +
				      2 * T * T * c);
			o.act_bytes = r * attn_act_elems(T, c, heads, mlp);
			break;
		}
		case VL_BOTTLENECK:
		case VL_BASIC:
		case VL_CNBLOCK: {
			double wd = L->width > 0 ? L->width :
				    L->kind == VL_CNBLOCK ? 4 * out : out / 4;
			int gr = L->groups > 0 ? L->groups : 1, j;
			if (gr > 1 && (L->kind != VL_BOTTLENECK || fmod(wd, gr)))
				return bad_entry(msg, msglen, i, "groups %d on "
						 "%s of width %g (expected a "
						 "bottleneck whose width the "
						 "groups divide)", gr,
						 vis_kind_names[L->kind], wd);
			if (seq)
				return bad_entry(msg, msglen, i, "%s after "
						 "tokens (expected it before)",
						 vis_kind_names[L->kind]);
			if (L->kind == VL_BOTTLENECK && !(wd >= 1))
				return bad_entry(msg, msglen, i, "bottleneck "
						 "width %g is below 1 (expected "
						 "width: inner channels)", wd);
			for (j = 0; j < r; j++) {
				int st = j == 0 ? s : 1;
				double cin = c, ho = h, wo = w, Xo;
				if (L->kind != VL_CNBLOCK) {
					ho = out_side(h, 3, st);
					wo = out_side(w, 3, st);
				} else if (st > 1) {
					return bad_entry(msg, msglen, i,
							 "cnblock stride %d "
							 "(expected 1: use a "
							 "conv to down-sample)",
							 st);
				}
				if (ho < 1 || wo < 1)
					return bad_entry(msg, msglen, i, "%s "
							 "stride %d shrinks "
							 "%gx%g to nothing "
							 "(expected a larger "
							 "image_size or fewer "
							 "down-sampling layers)",
							 vis_kind_names[L->kind],
							 st, h, w);
				Xo = out * ho * wo;
				if (L->kind == VL_BOTTLENECK) {
					double Xw1 = wd * h * w, Xw2 = wd * ho * wo;
					o.params += cin * wd + 9 * wd * wd / gr +
						    wd * out + bnp * (2 * wd + out);
					o.macs += Xw1 * cin + Xw2 * wd * 9 / gr +
						  Xo * wd;
					/* conv inputs, bn inputs, relu outputs */
					o.act_bytes += cin * h * w + Xw1 + Xw2 +
						       2 * Xw1 + 2 * Xw2 + 2 * Xo;
				} else if (L->kind == VL_BASIC) {
					o.params += cin * out * 9 + out * out * 9 +
						    2 * bnp * out;
					o.macs += Xo * cin * 9 + Xo * out * 9;
					o.act_bytes += cin * h * w + Xo +
						       2 * Xo + 2 * Xo;
				} else {
					int kk = L->kernel > 0 ? L->kernel : 7;
					if (out != cin)
						return bad_entry(msg, msglen, i,
								 "cnblock out %g "
								 "differs from its "
								 "%g input channels "
								 "(expected the same "
								 "width)", out, cin);
					o.params += out * kk * kk + out +
						    2 * out + 2 * out * wd +
						    wd + out + out;
					o.macs += Xo * kk * kk + 2 * Xo * wd;
					/* dw input, ln input, lin1 input,
					 * gelu input, lin2 input, scale */
					o.act_bytes += 4 * Xo + 2 * wd * ho * wo;
				}
				if (L->kind != VL_CNBLOCK &&
				    (st > 1 || cin != out)) {
					o.params += cin * out + bnp * out;
					o.macs += Xo * cin;
					o.act_bytes += Xo;
				}
				c = out;
				h = ho;
				w = wo;
			}
			break;
		}
		case VL_FPN: {
			char why[200];
			if (vis_fpn(L, nfeat, fc, fh, fw, &o, lh, lw, why,
				    sizeof(why)))
				return bad_entry(msg, msglen, i, "%s", why);
			nlev = nfeat + (L->extra > 0 ? L->extra : 0) +
			       (L->pooled > 0 ? L->pooled : 0);
			nfeat = 0;
			c = out;
			h = lh[0];
			w = lw[0];
			break;
		}
		case VL_RETINA_HEAD:
			if (nlev == 0)
				return bad_entry(msg, msglen, i, "retina_head "
						 "without a feature pyramid "
						 "(expected an fpn entry before "
						 "it)");
			vis_retina_head(L, c, nlev, lh, lw, &o);
			head = i;
			break;
		case VL_RPN_HEAD:
			if (nlev == 0)
				return bad_entry(msg, msglen, i, "rpn_head "
						 "without a feature pyramid "
						 "(expected an fpn entry before "
						 "it)");
			vis_rpn_head(L, c, nlev, lh, lw, &o);
			rpn = 1;
			break;
		case VL_ROI_BOX_HEAD:
		case VL_ROI_MASK_HEAD:
			if (!rpn)
				return bad_entry(msg, msglen, i, "%s without "
						 "region proposals (expected an "
						 "rpn_head before it)",
						 vis_kind_names[L->kind]);
			vis_roi_head(L, c, &o);
			break;
		case VL_KIND_COUNT:
		default:
			return bad_entry(msg, msglen, i, "unknown layer kind "
					 "(expected one of conv, batchnorm, ...)");
		}
		if (L->save && skip_push(&sk, c, h, w, dp, i))
			return bad_entry(msg, msglen, i, "more than %d saved "
					 "outputs (expected at most %d)",
					 VIS_MAX_SKIPS, VIS_MAX_SKIPS);
		if (L->pyramid) {
			if (seq || T > 0 || nlev > 0)
				return bad_entry(msg, msglen, i, "pyramid on "
						 "%s, whose output is not a "
						 "feature map (expected it on "
						 "convolutional entries)",
						 vis_kind_names[L->kind]);
			if (nfeat == VIS_MAX_LEVELS)
				return bad_entry(msg, msglen, i, "more than %d "
						 "pyramid inputs (expected at "
						 "most %d)", VIS_MAX_LEVELS,
						 VIS_MAX_LEVELS);
			if (nfeat == 0)
				tap = i;
			fc[nfeat] = c;
			fh[nfeat] = h;
			fw[nfeat] = w;
			nfeat++;
		}
		o.c = c;
		o.h = h;
		o.w = w;
		o.d = dp;
		o.tokens = T;
		o.levels = nlev;
		memcpy(o.lh, lh, sizeof(o.lh));
		memcpy(o.lw, lw, sizeof(o.lw));
		if (sh)
			sh[i] = o;
		S.params += o.params;
		S.macs += o.macs;
		S.act_elems += o.act_bytes;
		if (!L->frozen) {
			S.trainable_params += o.params;
			S.trainable_macs += o.macs;
		}
	}
	if (nfeat > 0)
		return bad_entry(msg, msglen, tap, "pyramid output that no fpn "
				 "reads (expected an fpn entry after it)");
	if (sk.n > 0)
		return bad_entry(msg, msglen, sk.at[0], "saved output that no "
				 "concat reads (expected a concat for every "
				 "save; %d left)", sk.n);
	if (E > 0) {
		/* timestep embedding MLP: E/4 sinusoidal features -> E -> E */
		double tp = E / 4 * E + E + E * E + E;
		S.params += tp;
		S.trainable_params += tp;
		S.macs += E / 4 * E + E * E;
		S.trainable_macs += E / 4 * E + E * E;
	}
	if (a->text.layers > 0) {
		double L = a->text.layers, m = a->text.mlp;
		S.encoder_params = L * (4 * tw * tw + 4 * tw + 2 * tw * m + m +
					tw + 4 * tw);
		S.encoder_macs = L * (tl * (4 * tw * tw + 2 * tw * m) +
				      2 * tl * tl * tw);
	}
	if (head < 0 && !rpn && h * w * dp > 1 && !(T > 0))
		S.out_map = c * h * w * dp;
	S.classes = head >= 0 || rpn || S.out_map > 0 ? 0 : (int)c;
	if (sum)
		*sum = S;
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Operators                                                               */

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

/* Record an operator executed `mult` times per micro-batch. */
static void put(struct vb *B, const char *name, enum brk cat, double flop,
		double bytes, enum tc_prec p, double time, double launch,
		enum op_bound bound, double mult)
{
	struct op_cost c = { flop, bytes, time, launch, p, bound };
	sink_put(&B->out, name, cat, &c, mult, flop);
}

/* A GEMM (batch of m x n x k) at `frac` of the GEMM model's efficiency,
 * moving `bytes` through DRAM. */
static void gemm_moving(struct vb *B, const char *name, double m, double n,
			double k, double batch, double frac, double bytes,
			double mult)
{
	double flop = 2 * m * n * k * batch;
	double split = roof_split_k(B->g->sm_count, m, n, k, batch);
	double eff = roof_gemm_eff_prec(B->g, B->pg, m, n, k / split, batch * split) *
		     frac;
	enum op_bound bound;
	double t = roof_time(B->g, B->pg, flop, eff, bytes, 1, B->graphs, &bound);
	double alt = roof_skinny_time(B->g, flop, bytes, B->graphs);
	if (alt < t) { /* a GEMV-like kernel on CUDA cores is faster */
		put(B, name, BRK_GEMM, flop, bytes, PREC_FP32, alt,
		    roof_launch_part(B->g, PREC_FP32, flop, B->g->eff.skinny_frac, bytes,
				alt), BOUND_MEMORY, mult);
		return;
	}
	put(B, name, BRK_GEMM, flop, bytes, B->pg, t,
	    roof_launch_part(B->g, B->pg, flop, eff, bytes, t), bound, mult);
}

/* A GEMM reading both operands and writing its result once. */
static void gemm(struct vb *B, const char *name, double m, double n, double k,
		 double batch, double frac, double mult)
{
	gemm_moving(B, name, m, n, k, batch, frac,
		    batch * B->e * (m * k + k * n + m * n), mult);
}

/* A memory-bound kernel sequence moving `bytes` (at norm_mem_frac of the
 * streaming rate). */
static void elem(struct vb *B, const char *name, double bytes, double kernels,
		 double mult)
{
	double eb = bytes / B->g->eff.norm_mem_frac;
	enum op_bound bound;
	double t = roof_time(B->g, B->pa, 0, B->g->eff.elem_flop_frac, eb, kernels, B->graphs,
			     &bound);
	if (bound == BOUND_COMPUTE)
		bound = BOUND_MEMORY;
	put(B, name, BRK_MEMBOUND, 0, bytes, B->pa, t,
	    roof_launch_part(B->g, B->pa, 0, B->g->eff.elem_flop_frac, eb, t), bound, mult);
}

/* A depthwise convolution pass on CUDA cores. */
static void dwconv(struct vb *B, const char *name, double flop, double bytes,
		   double mult)
{
	double eb = bytes / B->g->eff.norm_mem_frac;
	enum op_bound bound;
	double t = roof_time(B->g, PREC_FP32, flop, B->g->eff.dw_frac, eb, 1,
			     B->graphs, &bound);
	put(B, name, BRK_MEMBOUND, flop, bytes, PREC_FP32, t,
	    roof_launch_part(B->g, PREC_FP32, flop, B->g->eff.dw_frac, eb, t), bound,
	    mult);
}

/* Name "<pfx>.<what>.<pass>" cut to fit. */
static const char *nm(char *buf, const char *pfx, const char *what,
		      const char *pass)
{
	/* a longer name is cut: it only labels a report row */
	if (snprintf(buf, 40, "%s.%s%s%s", pfx, what, pass[0] ? "." : "",
		     pass) >= 40)
		buf[39] = '\0';
	return buf;
}

/*
 * A convolution of the running micro-batch: cin x hi x wi to cout x ho x
 * wo, kernel k, `groups`; forward or backward as B->out.bwd says.
 */
static void op_conv(struct vb *B, const char *pfx, const char *what,
		    double cin, double hi, double wi, double cout, double ho,
		    double wo, int k, int groups, double mult)
{
	char n[40];
	double b = B->b, e = B->e;
	/* kernel volume; a volume's depth is folded into hi and ho */
	double kk = B->vol ? (double)k * k * k : (double)k * k;
	double M = b * ho * wo, N = cout / groups, K = cin / groups * kk;
	double frac = k == 1 ? B->g->eff.conv1x1_frac : B->g->eff.conv_frac;
	double xin = b * cin * hi * wi, xout = b * cout * ho * wo;
	int first = B->first;

	if (groups > 1 && cin / groups == 1) {
		B->first = 0;
		double flop = 2 * xout * kk;
		double bytes = e * (xin + xout) + e * cout * kk;
		if (!B->out.bwd) {
			dwconv(B, nm(n, pfx, what, "fwd"), flop, bytes, mult);
		} else {
			dwconv(B, nm(n, pfx, what, "bwd_d"), flop, bytes, mult);
			dwconv(B, nm(n, pfx, what, "bwd_w"), flop, bytes, mult);
		}
		return;
	}
	B->first = 0;
	/* Implicit GEMM (cuDNN): the k x k windows are gathered on chip, not
	 * materialised, so DRAM sees the feature maps and the weights once,
	 * not the im2col matrix of k^2 times the input. */
	double traffic = e * (xin + xout + cout * cin / groups * kk);
	/* Winograd shortens each pass's reduction: fewer multiplies, the
	 * same output tiles. */
	double wg = !B->vol && B->pg == PREC_FP32 && k == 3 && groups == 1 &&
		    ho == hi &&
		    wo == wi ? VIS_WINOGRAD_GAIN : 1;
	if (!B->out.bwd) {
		gemm_moving(B, nm(n, pfx, what, "fwd"), M, N, K / wg, groups,
			    frac, traffic, mult);
	} else {
		if (!first)
			gemm_moving(B, nm(n, pfx, what, "bwd_d"), M, K, N / wg,
				    groups, frac, traffic, mult);
		gemm_moving(B, nm(n, pfx, what, "bwd_w"), N, K, M / wg, groups,
			    frac, traffic, mult);
	}
	if (B->layout) /* NCHW <-> NHWC around tensor-core kernels */
		elem(B, nm(n, pfx, what, B->out.bwd ? "layout_bwd" : "layout"),
		     2 * e * (xin + xout) * (B->out.bwd ? 2 : 1), 2, mult);
}

/* Memory-bound kernels: forward / backward bytes per element of X. */
static void op_elem(struct vb *B, const char *pfx, const char *what, double X,
		    double fwd, double bwd, double kernels, double mult)
{
	char n[40];
	elem(B, nm(n, pfx, what, B->out.bwd ? "bwd" : "fwd"),
	     B->e * X * (B->out.bwd ? bwd : fwd), kernels, mult);
}

/*
 * A normalisation or element-wise kernel that a framework may fuse into its
 * neighbours: only the share unfused_frac of its passes (bytes and kernels)
 * runs on its own.  The fused share's work rides on the convolutions'
 * prologues and epilogues, whose time is bound by their arithmetic.
 */
static void op_fusable(struct vb *B, const char *pfx, const char *what,
		       double X, double fwd, double bwd, double kernels,
		       double mult)
{
	double u = B->g->eff.unfused_frac;
	if (!(u > 0))
		return;
	op_elem(B, pfx, what, X * u, fwd, bwd, kernels * u, mult);
}

static void op_bn(struct vb *B, const char *pfx, const char *what, double X,
		  double mult)
{
	/* training forward: statistics pass + normalise (3 X); backward:
	 * two reductions and the data gradient (5 X).  Frozen: a scale and
	 * shift each way (read, write: 2 X), nothing to reduce. */
	if (B->frozen_bn)
		op_fusable(B, pfx, what, X, 2, 2, 1, mult);
	else
		op_fusable(B, pfx, what, X, 3, 5, 2, mult);
}

static void op_act(struct vb *B, const char *pfx, const char *what, double X,
		   double mult)
{
	op_fusable(B, pfx, what, X, 2, 3, 1, mult);
}

static void op_add(struct vb *B, const char *pfx, double X, double mult)
{
	/* backward: the gradient accumulation where the branches split */
	op_fusable(B, pfx, "add", X, 3, 3, 1, mult);
}

/* A linear layer on `rows` rows: forward, or both backward GEMMs. */
static void op_linear(struct vb *B, const char *pfx, const char *what,
		      double rows, double in, double out, double mult)
{
	char n[40];
	if (!B->out.bwd) {
		gemm(B, nm(n, pfx, what, "fwd"), rows, out, in, 1, 1, mult);
	} else {
		gemm(B, nm(n, pfx, what, "bwd_d"), rows, in, out, 1, 1, mult);
		gemm(B, nm(n, pfx, what, "bwd_w"), in, out, rows, 1, 1, mult);
	}
}

/* Residual blocks (one copy), forward or backward. */
static void op_block(struct vb *B, const struct vis_layer *L, const char *pfx,
		     double cin, double h, double w, double out, double wd,
		     int st, double mult)
{
	double b = B->b;
	double ho, wo, X;
	int down;

	if (L->kind == VL_CNBLOCK) {
		int k = L->kernel > 0 ? L->kernel : 7;
		X = b * out * h * w;
		double Xw = b * wd * h * w;
		op_conv(B, pfx, "dw", cin, h, w, out, h, w, k, (int)out, mult);
		op_fusable(B, pfx, "ln", X, 2, 4, 1, mult);
		op_linear(B, pfx, "pw1", b * h * w, out, wd, mult);
		op_act(B, pfx, "gelu", Xw, mult);
		op_linear(B, pfx, "pw2", b * h * w, wd, out, mult);
		op_fusable(B, pfx, "scale", X, 3, 4, 1, mult);
		op_add(B, pfx, X, mult);
		return;
	}
	ho = out_side(h, 3, st);
	wo = out_side(w, 3, st);
	X = b * out * ho * wo;
	down = st > 1 || cin != out;
	if (L->kind == VL_BOTTLENECK) {
		double X1 = b * wd * h * w, X2 = b * wd * ho * wo;
		op_conv(B, pfx, "c1", cin, h, w, wd, h, w, 1, 1, mult);
		op_bn(B, pfx, "bn1", X1, mult);
		op_act(B, pfx, "relu1", X1, mult);
		op_conv(B, pfx, "c2", wd, h, w, wd, ho, wo, 3,
			L->groups > 0 ? L->groups : 1, mult);
		op_bn(B, pfx, "bn2", X2, mult);
		op_act(B, pfx, "relu2", X2, mult);
		op_conv(B, pfx, "c3", wd, ho, wo, out, ho, wo, 1, 1, mult);
		op_bn(B, pfx, "bn3", X, mult);
	} else {
		op_conv(B, pfx, "c1", cin, h, w, out, ho, wo, 3, 1, mult);
		op_bn(B, pfx, "bn1", X, mult);
		op_act(B, pfx, "relu1", X, mult);
		op_conv(B, pfx, "c2", out, ho, wo, out, ho, wo, 3, 1, mult);
		op_bn(B, pfx, "bn2", X, mult);
	}
	if (down) {
		/* 1x1 stride-st projection: GEMM over the output positions */
		char n[40];
		double M = b * ho * wo;
		if (!B->out.bwd) {
			gemm(B, nm(n, pfx, "down", "fwd"), M, out, cin, 1,
			     B->g->eff.conv1x1_frac, mult);
		} else {
			gemm(B, nm(n, pfx, "down", "bwd_d"), M, cin, out, 1,
			     B->g->eff.conv1x1_frac, mult);
			gemm(B, nm(n, pfx, "down", "bwd_w"), out, cin, M, 1,
			     B->g->eff.conv1x1_frac, mult);
		}
		op_bn(B, pfx, "down_bn", X, mult);
	}
	op_add(B, pfx, X, mult);
	op_act(B, pfx, "relu", X, mult);
}

/*
 * Transformer blocks through llm.c: a one-stage, data-parallel encoder of
 * `repeat` layers, width c, `heads`, MLP `mlp` with activation `act`,
 * sequence T, causal 0, flash attention; only its layer operators are
 * used, named "<pfx>.<op>".  Adds forward and backward at once (called in
 * the forward walk), or the forward only (`fwd_only`: a frozen encoder).
 */
static int op_attention(struct vb *B, const struct workload *w,
			const char *pfx, double c, double T, int heads,
			double mlp, enum llm_act act, double repeat,
			int fwd_only, double *act_bytes)
{
	struct op tmp[LLM_MAX_OPS];
	struct est_workspace sub = { tmp, 0, LLM_MAX_OPS };
	struct workload lw;
	struct plan pl = *B->pl;
	struct llm_shape sh;
	struct op_sums S;
	size_t i;

	memset(&lw, 0, sizeof(lw));
	lw.kind = WL_LLM;
	lw.llm.layers = (int)repeat;
	lw.llm.hidden = (int)c;
	lw.llm.heads = heads;
	lw.llm.kv_heads = heads;
	lw.llm.head_dim = (int)(c / heads);
	lw.llm.ffn = (int)mlp;
	lw.llm.act = act;
	lw.llm.vocab = 1;
	lw.llm.tied_embeddings = 1;
	lw.llm.experts = 1;
	lw.llm.top_k = 1;
	lw.llm.positions = POS_LEARNED;
	lw.llm.norm = NORM_LAYERNORM;
	lw.llm.causal = 0;
	lw.llm.bias = 1;
	lw.llm.max_positions = (int)T;
	lw.train = w->train;
	lw.train.seq_len = T;
	lw.train.global_batch = B->b * B->m * pl.dp;
	lw.train.recompute = RECOMP_NONE;
	lw.train.flash_attention = 1;
	lw.train.finetune = FT_FULL;
	lw.train.optimizer = OPT_ADAMW;
	pl.tp = pl.pp = pl.ep = pl.interleave = 1;
	pl.sequence_parallel = 0;
	pl.zero = 0;
	pl.micro_batch = (int)B->b;
	llm_shape_init(&lw, &pl, &sh);
	llm_build_ops(&lw, B->g, &pl, &sh, &sub, &S);
	for (i = 0; i < sub.count; i++) {
		const struct op *o = &tmp[i];
		char n[40];
		int was = B->out.bwd;
		if (o->stage != OPS_LAYER)
			continue;
		B->out.bwd = strstr(o->name, ".bwd") != NULL;
		if (fwd_only && B->out.bwd) {
			B->out.bwd = was;
			continue;
		}
		snprintf(n, sizeof(n), "%.8s.%.30s", pfx,
			 !strncmp(o->name, "layer.", 6) ? o->name + 6 : o->name);
		put(B, n, o->category, o->flop, o->bytes, o->prec, o->time_s,
		    o->launch_s, o->bound, repeat);
		B->out.bwd = was;
	}
	*act_bytes = repeat * mem_layer_activation_bytes(&lw, &sh);
	return 0;
}

/*
 * The FPN of vis_fpn(): per input a lateral 1x1 convolution, the top-down
 * up-sample + add (one fusable add pass on the level, none on the top),
 * a 3x3 output convolution; then the extra stride-2 levels, a ReLU before
 * each but the first; then the subsampled levels (a pool pass each).
 */
static void op_fpn(struct vb *B, const char *pfx, const struct vis_layer *L,
		   int n, const double *fc, const double *fh, const double *fw,
		   const struct vis_shape *o)
{
	double f = L->out, b = B->b;
	char what[24];
	int j;

	for (j = 0; j < n; j++) {
		snprintf(what, sizeof(what), "lat%d", j + 1);
		op_conv(B, pfx, what, fc[j], fh[j], fw[j], f, fh[j], fw[j], 1, 1,
			1);
		if (j < n - 1) {
			snprintf(what, sizeof(what), "topdown%d", j + 1);
			op_fusable(B, pfx, what, b * f * fh[j] * fw[j], 3, 3, 1,
				   1);
		}
		snprintf(what, sizeof(what), "out%d", j + 1);
		op_conv(B, pfx, what, f, fh[j], fw[j], f, fh[j], fw[j], 3, 1, 1);
	}
	for (j = n; j < n + (L->extra > 0 ? L->extra : 0); j++) {
		if (j > n) {
			snprintf(what, sizeof(what), "relu%d", j + 1);
			op_act(B, pfx, what, b * f * o->lh[j - 1] * o->lw[j - 1],
			       1);
		}
		snprintf(what, sizeof(what), "extra%d", j + 1);
		op_conv(B, pfx, what, f, o->lh[j - 1], o->lw[j - 1], f, o->lh[j],
			o->lw[j], 3, 1, 1);
	}
	for (; j < o->levels; j++) {
		double X = b * f * o->lh[j - 1] * o->lw[j - 1];
		snprintf(what, sizeof(what), "pool%d", j + 1);
		op_elem(B, pfx, what, X, 1 + o->lh[j] * o->lw[j] /
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
static void op_retina_head(struct vb *B, const char *pfx,
			   const struct vis_layer *L, double c, int nlev,
			   const double *lh, const double *lw)
{
	double b = B->b, A = L->anchors, K = L->classes;
	int t = L->convs > 0 ? L->convs : 4, j;
	char p[24];

	for (j = 0; j < nlev; j++) {
		double hw = lh[j] * lw[j], X = b * c * hw;
		snprintf(p, sizeof(p), "%.8s.p%d", pfx, j + 1);
		op_conv(B, p, "cls_tower", c, lh[j], lw[j], c, lh[j], lw[j], 3,
			1, t);
		op_act(B, p, "cls_relu", X, t);
		op_conv(B, p, "cls_out", c, lh[j], lw[j], A * K, lh[j], lw[j], 3,
			1, 1);
		op_conv(B, p, "box_tower", c, lh[j], lw[j], c, lh[j], lw[j], 3,
			1, t);
		op_act(B, p, "box_relu", X, t);
		op_conv(B, p, "box_out", c, lh[j], lw[j], A * 4, lh[j], lw[j], 3,
			1, 1);
		op_elem(B, p, "focal_loss", b * hw * A * K, 2, 3, 1, 1);
		op_elem(B, p, "box_loss", b * hw * A * 4, 2, 3, 1, 1);
		if (!B->out.bwd) {
			char n[40];
			elem(B, nm(n, p, "anchor_match", "fwd"), b * hw * A * 56,
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
 * op_retina_head() (56 B per anchor).  Its losses run on 256 sampled
 * anchors per image: negligible, not charged.
 */
static void op_rpn_head(struct vb *B, const char *pfx,
			const struct vis_layer *L, double c, int nlev,
			const double *lh, const double *lw)
{
	double b = B->b, A = L->anchors;
	int j;
	char p[24], n[40];

	for (j = 0; j < nlev; j++) {
		double hw = lh[j] * lw[j], anchors = b * hw * A;
		double keep = fmin(VIS_RPN_PRE_NMS, hw * A);
		snprintf(p, sizeof(p), "%.8s.p%d", pfx, j + 1);
		op_conv(B, p, "conv", c, lh[j], lw[j], c, lh[j], lw[j], 3, 1, 1);
		op_act(B, p, "relu", b * c * hw, 1);
		op_conv(B, p, "score", c, lh[j], lw[j], A, lh[j], lw[j], 1, 1, 1);
		op_conv(B, p, "delta", c, lh[j], lw[j], 4 * A, lh[j], lw[j], 1, 1,
			1);
		if (B->out.bwd)
			continue;
		elem(B, nm(n, p, "decode", "fwd"),
		     anchors * (5 * B->e + 16 + 16 + 8), 3, 1);
		elem(B, nm(n, p, "nms", "fwd"), b * keep * keep / 4, 2, 1);
		elem(B, nm(n, p, "anchor_match", "fwd"), anchors * 56, 2, 1);
	}
}

/*
 * A convolution over the pooled regions: the regions of the micro-batch
 * are its images.
 */
static void op_roi_conv(struct vb *B, const char *pfx, const char *what,
			double rois, double cin, double p, double cout,
			double po, int k, double mult)
{
	double b = B->b;
	B->b = b * rois;
	op_conv(B, pfx, what, cin, p, p, cout, po, po, k, 1, mult);
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
static void op_roi_head(struct vb *B, const char *pfx,
			const struct vis_layer *L, double c, double proposals)
{
	double b = B->b, R = L->rois, K = L->classes, rows = b * R;
	double p = L->pool > 0 ? L->pool : L->kind == VL_ROI_BOX_HEAD ? 7 : 14;
	double m = L->mlp > 0 ? L->mlp : 1024, p2 = p * p, q2 = 4 * p2;
	int t = L->convs > 0 ? L->convs : 4;
	char n[40];

	op_elem(B, pfx, "roi_align", rows * c * p2, 2, 3, 1, 1);
	if (L->kind == VL_ROI_BOX_HEAD) {
		op_linear(B, pfx, "fc6", rows, c * p2, m, 1);
		op_act(B, pfx, "relu6", rows * m, 1);
		op_linear(B, pfx, "fc7", rows, m, m, 1);
		op_act(B, pfx, "relu7", rows * m, 1);
		op_linear(B, pfx, "cls", rows, m, K, 1);
		op_linear(B, pfx, "box", rows, m, 4 * K, 1);
		op_elem(B, pfx, "loss", rows * (K + 4), 2, 3, 2, 1);
		if (!B->out.bwd)
			elem(B, nm(n, pfx, "match", "fwd"), b * proposals * 56, 2,
			     1);
		return;
	}
	op_roi_conv(B, pfx, "conv", R, c, p, c, p, 3, t);
	op_act(B, pfx, "relu", rows * c * p2, t);
	op_linear(B, pfx, "deconv", rows * p2, c, 4 * c, 1);
	op_act(B, pfx, "relu_up", rows * c * q2, 1);
	op_roi_conv(B, pfx, "logits", R, c, 2 * p, K, 2 * p, 1, 1);
	op_elem(B, pfx, "loss", rows * q2, 2, 3, 1, 1);
}

/*
 * GroupNorm: statistics over groups of channels and the whole map, so a
 * statistics pass and a normalising pass as batch-norm (3 X forward, 5 X
 * backward), fusable as the other normalisations.
 */
static void op_gn(struct vb *B, const char *pfx, const char *what, double X)
{
	op_fusable(B, pfx, what, X, 3, 5, 2, 1);
}

/*
 * vis_resblock() of the running micro-batch; `skip` channels of a saved
 * output are first concatenated (a copy: read both, write, 2 X of the
 * result each way).
 */
static void op_resblock(struct vb *B, const char *pfx, double c, double skip,
			double cout, double h, double w, double E)
{
	double b = B->b, cin = c + skip, Xi = b * cin * h * w, Xo = b * cout * h * w;
	if (skip > 0)
		op_elem(B, pfx, "concat", Xi, 2, 2, 1, 1);
	op_gn(B, pfx, "gn1", Xi);
	op_act(B, pfx, "silu1", Xi, 1);
	op_conv(B, pfx, "conv1", cin, h, w, cout, h, w, 3, 1, 1);
	if (E > 0) {
		op_linear(B, pfx, "emb", b, E, cout, 1);
		op_add(B, pfx, Xo, 1);
	}
	op_gn(B, pfx, "gn2", Xo);
	op_act(B, pfx, "silu2", Xo, 1);
	op_conv(B, pfx, "conv2", cout, h, w, cout, h, w, 3, 1, 1);
	if (cin != cout)
		op_conv(B, pfx, "skip", cin, h, w, cout, h, w, 1, 1, 1);
	op_add(B, pfx, Xo, 1);
}

/*
 * Cross-attention core of b x heads (T x dh) queries against L context
 * keys and values: scores and weighted sum as batched GEMMs, the softmax
 * as one element-wise kernel each way; backward the four gradient GEMMs.
 * Short contexts (77 tokens) leave these GEMMs skinny: the GEMM model's
 * shape efficiency says what they reach.
 */
static void op_cross_core(struct vb *B, const char *pfx, double T, double L,
			  double dh, double heads)
{
	double bh = B->b * heads;
	char n[40];
	if (!B->out.bwd) {
		gemm(B, nm(n, pfx, "xscore", "fwd"), T, L, dh, bh, 1, 1);
		gemm(B, nm(n, pfx, "xvalue", "fwd"), T, dh, L, bh, 1, 1);
	} else {
		gemm(B, nm(n, pfx, "xscore", "bwd_q"), T, dh, L, bh, 1, 1);
		gemm(B, nm(n, pfx, "xscore", "bwd_k"), L, dh, T, bh, 1, 1);
		gemm(B, nm(n, pfx, "xvalue", "bwd_p"), T, L, dh, bh, 1, 1);
		gemm(B, nm(n, pfx, "xvalue", "bwd_v"), L, dh, T, bh, 1, 1);
	}
	op_elem(B, pfx, "xsoftmax", bh * T * L, 2, 3, 1, 1);
}

/*
 * vis_transformer() on the micro-batch: GroupNorm and the projections in,
 * the self-attention and GEGLU feed-forward layer through llm.c (forward
 * and backward, added in the forward walk), the cross-attention (its
 * LayerNorm, q from the image, k and v from the context, core, output
 * projection, residual add), the projection out and the residual add.
 */
static int op_transformer(struct vb *B, const struct workload *w,
			  const char *pfx, double c, double h, double wd,
			  int heads, double m)
{
	double b = B->b, T = h * wd, X = b * T * c;
	double d = w->vis.text.width, L = w->vis.text.tokens, unused;
	char p[24];
	snprintf(p, sizeof(p), "%.10s.st", pfx);
	op_gn(B, p, "gn", X);
	op_linear(B, p, "proj_in", b * T, c, c, 1);
	if (!B->out.bwd && op_attention(B, w, p, c, T, heads, m, ACT_GEGLU, 1, 0,
				    &unused))
		return -1;
	op_fusable(B, p, "ln2", X, 2, 4, 1, 1);
	op_linear(B, p, "xq", b * T, c, c, 1);
	op_linear(B, p, "xkv", b * L, d, 2 * c, 1);
	op_cross_core(B, p, T, L, c / heads, heads);
	op_linear(B, p, "xout", b * T, c, c, 1);
	op_add(B, p, X, 1);
	op_linear(B, p, "proj_out", b * T, c, c, 1);
	op_add(B, p, X, 1);
	return 0;
}

/*
 * The frozen text encoder (a causal transformer of the arch's `text`
 * shape): its forward only, once per micro-batch, through llm.c.
 */
static int op_text_encoder(struct vb *B, const struct workload *w)
{
	const struct vision_arch *a = &w->vis;
	double unused;
	if (a->text.layers <= 0 || B->out.bwd)
		return 0;
	return op_attention(B, w, "text", a->text.width, a->text.tokens,
			    a->text.heads, a->text.mlp, ACT_GELU, a->text.layers,
			    1, &unused);
}

/* Walk the layer list once forward (bwd = 0) or backward (bwd = 1). */
static int walk(struct vb *B, const struct workload *w,
		const struct vis_shape *sh, double *attn_act)
{
	const struct vision_arch *a = &w->vis;
	double c = a->in_channels > 0 ? a->in_channels : 3;
	double h = w->vtrain.image_size, T = 0;
	double wd = w->vtrain.image_width > 0 ? w->vtrain.image_width : h;
	double b = B->b;
	double fc[VIS_MAX_LEVELS], fh[VIS_MAX_LEVELS], fw[VIS_MAX_LEVELS];
	double proposals = 0, skc[VIS_MAX_SKIPS];
	double dpt = a->dims == 3 ? h : 1; /* depth */
	int i, nfeat = 0, nskip = 0;
	char pfx[32];

	B->first = 1;
	if (op_text_encoder(B, w))
		return -1;
	if (a->time_embed > 0) {
		double E = a->time_embed;
		op_linear(B, "time", "fc1", b, E / 4, E, 1);
		op_act(B, "time", "silu", b * E, 1);
		op_linear(B, "time", "fc2", b, E, E, 1);
	}
	for (i = 0; i < a->nlayers; i++) {
		const struct vis_layer *L = &a->layer[i];
		const struct vis_shape *o = &sh[i];
		double Xin = b * (T > 0 ? T * c : c * h * wd * dpt);
		double Xout = b * (o->tokens > 0 ? o->tokens * o->c :
				   o->c * o->h * o->w * o->d);
		double r = L->repeat > 0 ? L->repeat : 1;
		int s = L->stride > 0 ? L->stride : 1;
		int k = L->kernel > 0 ? L->kernel : 1;

		if (L->pyramid) {
			fc[nfeat] = o->c;
			fh[nfeat] = o->h;
			fw[nfeat] = o->w;
			nfeat++;
		}
		/* A frozen prefix has no backward: nothing before it needs
		 * a gradient, and its weights take none. */
		if (B->out.bwd && L->frozen)
			goto next;

		snprintf(pfx, sizeof(pfx), "l%d", i + 1);
		switch (L->kind) {
		case VL_CONV:
		case VL_CONVBLOCK: {
			double cin = c;
			if (L->concat && nskip > 0) {
				cin += skc[--nskip];
				op_elem(B, pfx, "concat", Xin * cin / c, 2, 2, 1, 1);
			}
			if (L->kind == VL_CONV) {
				op_conv(B, pfx, "conv", cin, h * dpt, wd, o->c,
					o->h * o->d, o->w, k,
					L->groups > 0 ? L->groups : 1, 1);
				break;
			}
			/* conv, norm, ReLU, conv, norm, ReLU */
			op_conv(B, pfx, "conv1", cin, h * dpt, wd, o->c,
				o->h * o->d, o->w, 3, 1, 1);
			op_gn(B, pfx, "norm1", Xout);
			op_act(B, pfx, "relu1", Xout, 1);
			op_conv(B, pfx, "conv2", o->c, o->h * o->d, o->w, o->c,
				o->h * o->d, o->w, 3, 1, 1);
			op_gn(B, pfx, "norm2", Xout);
			op_act(B, pfx, "relu2", Xout, 1);
			break;
		}
		case VL_DECONV:
			/* each input position writes a k^dims block: a GEMM */
			op_linear(B, pfx, "deconv", Xin / c, c,
				  o->c * o->h * o->w * o->d / (h * wd * dpt), 1);
			break;
		case VL_BATCHNORM:
			op_bn(B, pfx, "bn", Xin, 1);
			break;
		case VL_LAYERNORM:
			op_fusable(B, pfx, "ln", Xin, 2, 4, 1, 1);
			break;
		case VL_RELU:
		case VL_GELU:
		case VL_SILU:
			op_act(B, pfx, vis_kind_names[L->kind], Xin, 1);
			break;
		case VL_ADD:
			op_add(B, pfx, Xin, 1);
			break;
		case VL_MAXPOOL:
			op_elem(B, pfx, "maxpool", Xin, 1 + Xout / Xin,
				2 + Xout / Xin, 1, 1);
			break;
		case VL_AVGPOOL:
			op_elem(B, pfx, "avgpool", Xin, 1 + Xout / Xin,
				1 + Xout / Xin, 1, 1);
			break;
		case VL_LINEAR:
			op_linear(B, pfx, "linear", b * (T > 0 ? T : h * wd), c,
				  o->c, 1);
			break;
		case VL_TOKENS:
			/* flatten + class token + position add */
			op_elem(B, pfx, "tokens", Xout, 5, 3, 3, 1);
			break;
		case VL_ATTENTION:
			if (!B->out.bwd && op_attention(B, w, "vit", c, T,
						    L->heads > 0 ? L->heads : 1,
						    L->mlp > 0 ? L->mlp : 4 * c,
						    ACT_GELU, r, 0, attn_act))
				return -1;
			break;
		case VL_BOTTLENECK:
		case VL_BASIC:
		case VL_CNBLOCK: {
			double wdt = L->width > 0 ? L->width :
				     L->kind == VL_CNBLOCK ? 4 * o->c : o->c / 4;
			double hh = h, ww = wd, cc = c;
			snprintf(pfx, sizeof(pfx), "l%d.first", i + 1);
			op_block(B, L, pfx, cc, hh, ww, o->c, wdt, s, 1);
			if (L->kind != VL_CNBLOCK) {
				hh = out_side(hh, 3, s);
				ww = out_side(ww, 3, s);
			}
			snprintf(pfx, sizeof(pfx), "l%d", i + 1);
			if (r > 1)
				op_block(B, L, pfx, o->c, hh, ww, o->c, wdt, 1,
					 r - 1);
			break;
		}
		case VL_FPN:
			op_fpn(B, pfx, L, nfeat, fc, fh, fw, o);
			nfeat = 0;
			break;
		case VL_RETINA_HEAD:
			op_retina_head(B, pfx, L, c, o->levels, o->lh, o->lw);
			break;
		case VL_GROUPNORM:
			op_gn(B, pfx, "gn", Xin);
			break;
		case VL_UPSAMPLE:
			/* nearest: read X, write 4 X; backward the reverse */
			op_elem(B, pfx, "up", Xin, 5, 5, 1, 1);
			op_conv(B, pfx, "conv", c, o->h, o->w, o->c, o->h, o->w, 3,
				1, 1);
			break;
		case VL_RESBLOCK: {
			double cc = c;
			for (int j = 0; j < r; j++) {
				double skip = 0;
				snprintf(pfx, sizeof(pfx), "l%d.%d", i + 1, j + 1);
				if (L->concat && nskip > 0)
					skip = skc[--nskip];
				op_resblock(B, pfx, cc, skip, o->c, h, wd,
					    a->time_embed);
				if (L->heads > 0 &&
				    op_transformer(B, w, pfx, o->c, h, wd,
						   L->heads, L->mlp > 0 ? L->mlp :
						   4 * o->c))
					return -1;
				cc = o->c;
			}
			break;
		}
		case VL_RPN_HEAD:
			op_rpn_head(B, pfx, L, c, o->levels, o->lh, o->lw);
			proposals = L->proposals > 0 ? L->proposals : 0;
			break;
		case VL_ROI_BOX_HEAD:
		case VL_ROI_MASK_HEAD:
			op_roi_head(B, pfx, L, c, proposals);
			break;
		case VL_KIND_COUNT:
		default:
			break;
		}
next:
		/* every copy of a saving entry leaves one output of o->c */
		for (int j = 0; L->save && j < (L->kind == VL_RESBLOCK ? r : 1) &&
		     nskip < VIS_MAX_SKIPS; j++)
			skc[nskip++] = o->c;
		c = o->c;
		h = o->h;
		wd = o->w;
		dpt = o->d;
		T = o->tokens;
	}
	return 0;
}

/* Bytes per parameter moved by one optimizer step (fp32 master weights,
 * as PyTorch AMP keeps them): gradient read, weight and states read and
 * written; 16-bit training adds the weight copy the next forward casts. */
static double opt_bytes(enum optimizer o, double e)
{
	double cast = e < 4 ? 4 + 2 : 0;
	switch (o) {
	case OPT_SGD: return 4 + 8 + 8 + cast;
	case OPT_LARS: return 4 + 8 + 8 + 8 + cast; /* + norms pass */
	case OPT_ADAGRAD: return 4 + 8 + 8 + cast;
	case OPT_ADAFACTOR: return 4 + 8 + 4 + cast;
	case OPT_ADAMW:
	default: return 4 + 8 + 8 + 8 + cast;
	}
}

/* Optimizer state bytes per parameter (fp32). */
static double opt_state_bytes(enum optimizer o)
{
	switch (o) {
	case OPT_SGD: case OPT_LARS: case OPT_ADAGRAD: return 4;
	case OPT_ADAFACTOR: return 1;
	case OPT_ADAMW:
	default: return 8;
	}
}

int vision_estimate(const struct workload *w, const struct gpu *g,
		    struct est_workspace *ws, struct estimate *out,
		    struct plan_problem *why)
{
	struct vis_shape sh[VIS_MAX_LAYERS];
	struct vis_summary sum;
	struct estimate E;
	struct plan pl;
	struct vb B;
	char msg[200];
	struct step_parts parts;
	double gb = w->train.global_batch, mb, attn_act = 0, P, nodes;
	int bad, k;

	assert(w && g && ws && out);
	pl = w->plan;
	if (pl.gpus_per_node <= 0)
		pl.gpus_per_node = g->gpus_per_node > 0 ? g->gpus_per_node : 8;
	if (pl.count <= 0)
		pl.count = 1;
	pl.tp = pl.pp = pl.ep = pl.interleave = 1;
	pl.dp = pl.count;
	pl.zero = 0;
	pl.sequence_parallel = 0;
	if (w->vis.nlayers < 1)
		return est_problem(why, WLF_MODEL, "the network has no layers "
			       "(expected a preset or a layer list)");
	bad = vision_infer(&w->vis, w->vtrain.image_size, w->vtrain.image_width,
			   sh, &sum, msg,
			   sizeof(msg));
	if (bad)
		return est_problem(why, bad > 0 ? WLF_MODEL : WLF_IMAGE_SIZE, "%s",
			       msg);
	if (!(gb >= 1) || !isfinite(gb))
		return est_problem(why, WLF_GLOBAL_BATCH, "global_batch %g is not "
			       "positive (expected images per step, >= 1)",
			       gb);
	if (fmod(gb, pl.dp))
		return est_problem(why, WLF_GLOBAL_BATCH, "global_batch %g is not "
			       "a multiple of %d GPUs (expected a multiple of "
			       "%d)", gb, pl.dp, pl.dp);
	if (w->plan.micro_batch <= 0)
		pl.micro_batch = (int)(gb / pl.dp);
	mb = (double)pl.dp * pl.micro_batch;
	if (fmod(gb, mb))
		return est_problem(why, WLF_MICRO_BATCH, "global_batch %g is not a "
			       "multiple of %d GPUs x micro_batch %d (expected "
			       "a multiple of %g)", gb, pl.dp, pl.micro_batch,
			       mb);
	if ((int)w->train.precision < 0 || w->train.precision >= PREC_COUNT ||
	    w->train.precision == PREC_INT8 || w->train.precision == PREC_FP8 ||
	    !(roof_peak(g, w->train.precision) > 0))
		return est_problem(why, WLF_PRECISION, "%s has no %s training rate "
			       "(expected fp32, tf32, bf16 or fp16 the GPU "
			       "supports)", g->id,
			       (int)w->train.precision >= 0 &&
			       w->train.precision < PREC_COUNT ?
			       tc_prec_names[w->train.precision] : "?");
	if (!(g->mem_bytes_per_s > 0) || !(g->memory_bytes > 0) ||
	    !(roof_peak(g, PREC_FP32) > 0))
		return est_problem(why, WLF_GPU, "%s lacks memory size, bandwidth "
			       "or an fp32 rate (expected them in its catalog "
			       "file)", g->id);
	if (!(w->vtrain.dataset_size >= 1) || !(w->vtrain.epochs > 0))
		return est_problem(why, WLF_DATASET_SIZE, "dataset_size and epochs "
			       "must be positive (expected images and "
			       "passes)");

	memset(&E, 0, sizeof(E));
	memset(&B, 0, sizeof(B));
	ws->count = 0;
	B.g = g;
	B.pl = &pl;
	sink_start(&B.out, ws, &B.S, 1);
	B.out.count = gb / mb;
	B.pg = w->train.precision;
	B.pa = B.pg;
	B.e = B.pg == PREC_FP32 || B.pg == PREC_TF32 ? 4 : 2;
	B.b = pl.micro_batch;
	B.m = gb / mb;
	B.graphs = pl.cuda_graphs;
	B.frozen_bn = w->vis.frozen_bn;
	B.vol = w->vis.dims == 3;
	B.layout = !w->vtrain.channels_last && B.pg != PREC_FP32;
	if (walk(&B, w, sh, &attn_act))
		return est_problem(why, WLF_NONE, "internal: transformer operators "
			       "do not fit their workspace");
	B.out.bwd = 1;
	walk(&B, w, sh, &attn_act);
	B.out.bwd = 0;
	if (sum.out_map > 0) {
		/* a U-Net's prediction against its target: mean squared
		 * error, reading both and writing per element (3 X each way) */
		double X = B.b * sum.out_map;
		elem(&B, "loss.fwd", 3 * B.e * X, 1, 1);
		B.out.bwd = 1;
		elem(&B, "loss.bwd", 3 * B.e * X, 1, 1);
		B.out.bwd = 0;
	} else if (sum.classes > 0) {
		/* loss: fp32 softmax cross-entropy over the classes (a
		 * detection head charges its own) */
		double X = B.b * sum.classes;
		elem(&B, "loss.fwd", X * (B.e + 12), 3, 1);
		B.out.bwd = 1;
		elem(&B, "loss.bwd", X * (B.e + 8), 2, 1);
		B.out.bwd = 0;
	}
	/* Once per step: gradient all-reduce (fp32 gradients), optimizer,
	 * both over the trainable parameters. */
	P = sum.trainable_params;
	memset(&parts, 0, sizeof(parts));
	parts.m = B.m;
	parts.p = parts.v = 1;
	parts.lps = 1;
	B.out.stage = OPS_STEP;
	B.out.count = 1;
	if (pl.dp > 1) {
		struct comm_group grp;
		struct op_cost c = { 0, 4 * P, 0, 0, PREC_FP32, BOUND_NETWORK };
		grp.n = pl.dp;
		grp.per_node = est_gcd(pl.dp, pl.dp < pl.gpus_per_node ? pl.dp :
				   pl.gpus_per_node);
		c.time_s = comm_time_s(g, &pl, COLL_ALLREDUCE, grp, c.bytes);
		sink_put(&B.out, "dp.grad_allreduce", BRK_DP_COMM, &c, 1, 0);
		parts.dp_overlap = pl.grad_overlap;
		parts.dp_tail_s = c.time_s * fmin(1.0, VIS_DDP_BUCKET_BYTES /
						  c.bytes);
	}
	{
		double tensors = 0, kern;
		/* its launches are counted as optimizer time */
		struct op_cost c = { 0, P * opt_bytes(w->train.optimizer, B.e),
				     0, 0, PREC_FP32, BOUND_MEMORY };
		enum op_bound bound;
		for (k = 0; k < w->vis.nlayers; k++)
			tensors += 2 * (w->vis.layer[k].repeat > 0 ?
					w->vis.layer[k].repeat : 1) *
				   (w->vis.layer[k].kind >= VL_ATTENTION ? 6 : 1);
		kern = 1 + ceil(tensors / VIS_TENSORS_PER_KERNEL);
		c.time_s = roof_time(g, PREC_FP32, 0, g->eff.elem_flop_frac,
				     c.bytes, kern, pl.cuda_graphs, &bound);
		sink_put(&B.out, "optimizer.step", BRK_OPTIMIZER, &c, 1, 0);
	}
	/* The input pipeline: decoded images per second of all nodes. */
	nodes = ceil((double)pl.count / pl.gpus_per_node);
	if (w->vtrain.loader_images_per_s_per_node > 0) {
		parts.loader_images_per_s = w->vtrain.loader_images_per_s_per_node;
		parts.loader_s = gb / (parts.loader_images_per_s * nodes);
		parts.loader_on_gpu = w->vtrain.loader_on_gpu;
	}
	compose_step(&B.S, &parts, &E);

	/* Counts. */
	E.plan = pl;
	E.params = E.active_params = sum.params;
	E.micro_batches = (int)B.m;
	E.samples_per_step = gb;
	E.steps = ceil(w->vtrain.dataset_size / gb) * w->vtrain.epochs;
	/* 2 FLOP per multiply-add, backward twice the forward (§0.1); a
	 * frozen prefix runs forward only */
	E.model_flop_per_step = (2 * (sum.macs + sum.encoder_macs) +
				 4 * sum.trainable_macs) * gb;
	E.hw_flop_per_step = E.model_flop_per_step;

	/* Memory per GPU: fp32 weights (+ 16-bit copies), fp32 gradients,
	 * optimizer states, kept activations, DDP buckets, reserve. */
	E.mem_bytes[MEM_WEIGHTS] = sum.params * (B.e < 4 ? 6 : 4) +
				   sum.encoder_params * B.e;
	E.mem_bytes[MEM_GRADS] = 4 * P;
	E.mem_bytes[MEM_OPTIMIZER] = opt_state_bytes(w->train.optimizer) * P;
	{
		/* vision_infer counts transformer blocks at 16 bits per image;
		 * memory.c's figure for the micro-batch replaces it */
		double infer_attn = 0;
		for (k = 0; k < w->vis.nlayers; k++)
			if (w->vis.layer[k].kind == VL_ATTENTION)
				infer_attn += sh[k].act_bytes;
		E.mem_bytes[MEM_ACTIVATIONS] = B.b * B.e *
			(sum.act_elems - infer_attn) + attn_act;
	}
	E.mem_bytes[MEM_BUFFERS] = (pl.dp > 1 ? 4 * P : 0) +
				   2 * B.b * B.e * sh[0].c * sh[0].h * sh[0].w *
				   sh[0].d;
	E.mem_bytes[MEM_RESERVED] = MEM_CONTEXT_BYTES + MEM_FRAGMENTATION_FRAC *
				    (E.mem_bytes[MEM_ACTIVATIONS] +
				     E.mem_bytes[MEM_BUFFERS]);
	if (compose_finish(&E, g, w->train.precision, 1, ws, why))
		return -1;
	if (!E.fits)
		snprintf(E.fit_advice, sizeof(E.fit_advice), "needs %.1f GB of "
			 "%.1f GB: try micro_batch %d (gradient accumulation) "
			 "or more GPUs", E.memory_per_gpu_bytes / 1e9,
			 g->memory_bytes / 1e9,
			 pl.micro_batch > 1 ? pl.micro_batch / 2 : 1);
	*out = E;
	return 0;
}
