/*
 * vision_shape.c - the shapes, parameters and multiply-adds of a vision
 * network's layer list at one image size, and the checks that the list
 * can run (vision_infer()).
 */
#include "vision_shape.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vision_detect.h"

/* Bytes kept for backward by one transformer layer per image (16-bit),
 * Korthikanti et al. generalised as in memory.c, flash attention. */
static double attn_act_elems(double T, double C, double heads, double mlp)
{
	return T * (9 * C + 2 * mlp) + 2 * heads * T;
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

/* The running tensor and what the layer list has left for later entries,
 * as vision_infer() walks it. */
struct infer {
	double c, h, w, dp, T;    /* channels, height, width, depth; tokens
				     (0 while a feature map) */
	double bnp;               /* parameters per batch-norm channel */
	double E;                 /* timestep embedding width (diffusion) */
	double tw, tl;            /* text encoder width and tokens */
	int vol;                  /* a 3-D network */
	double fc[VIS_MAX_LEVELS], fh[VIS_MAX_LEVELS], fw[VIS_MAX_LEVELS];
	int nfeat;                /* pyramid inputs waiting for the fpn */
	int tap;                  /* the entry of the first of them */
	double lh[VIS_MAX_LEVELS], lw[VIS_MAX_LEVELS];
	int nlev;                 /* pyramid levels after the fpn */
	int trainable;            /* a trainable entry came */
	int head;                 /* the entry of a detection head, or -1 */
	int rpn;                  /* region proposals came */
	struct vis_skips sk;      /* saved outputs waiting for a concat */
	struct vis_summary S;
	char *msg;
	size_t msglen;
};

static int entry_error(const struct infer *I, int i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Write the message about entry i (-1: the network as a whole) and
 * return its 1-based index, the error of vision_infer(). */
static int entry_error(const struct infer *I, int i, const char *fmt, ...)
{
	va_list ap;
	if (I->msg && I->msglen) {
		va_start(ap, fmt);
		vsnprintf(I->msg, I->msglen, fmt, ap);
		va_end(ap);
	}
	return i + 1;
}

/* Save the running map as entry i's output for a later concat; 0, or
 * the error when too many wait. */
static int save_output(struct infer *I, int i)
{
	struct vis_skips *k = &I->sk;

	if (k->n == VIS_MAX_SKIPS)
		return entry_error(I, i, "more than %d saved outputs (expected "
				   "at most %d)", VIS_MAX_SKIPS, VIS_MAX_SKIPS);
	k->c[k->n] = I->c;
	k->h[k->n] = I->h;
	k->w[k->n] = I->w;
	k->d[k->n] = I->dp;
	k->at[k->n] = i;
	k->n++;
	return 0;
}

/* Concatenate the latest saved output onto the running map at entry i:
 * adds its channels to *c and returns 0, else the error. */
static int concat_saved(struct infer *I, int i, double *c)
{
	struct vis_skips *k = &I->sk;

	if (k->n == 0)
		return entry_error(I, i, "concat with no saved output left "
				   "(expected save: true on as many earlier "
				   "copies)");
	k->n--;
	if (k->h[k->n] != I->h || k->w[k->n] != I->w || k->d[k->n] != I->dp)
		return entry_error(I, i, "concat of a %gx%g output onto %gx%g "
				   "(expected the same size)", k->h[k->n],
				   k->w[k->n], I->h, I->w);
	*c += k->c[k->n];
	return 0;
}

/* An entry's fields with the defaults of those left unset: one copy,
 * stride 1, the input's channel count. */
static double copies(const struct vis_layer *L)
{
	return L->repeat > 0 ? L->repeat : 1;
}

static int stride_of(const struct vis_layer *L)
{
	return L->stride > 0 ? L->stride : 1;
}

static int kernel_or(const struct vis_layer *L, int unset)
{
	return L->kernel > 0 ? L->kernel : unset;
}

static double out_channels(const struct infer *I, const struct vis_layer *L)
{
	return L->out > 0 ? L->out : I->c;
}

/* The running tensor becomes a c x h x w map. */
static void set_map(struct infer *I, double c, double h, double w)
{
	I->c = c;
	I->h = h;
	I->w = w;
}

/* 0 while the running tensor is a feature map, else the error that entry
 * i needs one. */
static int need_map(const struct infer *I, const struct vis_layer *L, int i)
{
	if (I->T > 0)
		return entry_error(I, i, "%s after tokens (expected it on a "
				   "feature map)", vis_kind_names[L->kind]);
	return 0;
}

/*
 * The sides of the running map after a k x k window at stride s into *ho
 * and *wo (untouched on error): 0, or the error when nothing is left.  `name` starts the
 * message, with the window after it when `window_named`.
 */
static int window_sides(const struct infer *I, int i, const char *name,
			int k, int s, int window_named, double *ho, double *wo)
{
	double h = vis_out_side(I->h, k, s), w = vis_out_side(I->w, k, s);
	char window[32] = "";

	if (!(h < 1 || w < 1)) {
		*ho = h;
		*wo = w;
		return 0;
	}
	if (window_named)
		snprintf(window, sizeof(window), " %dx%d", k, k);
	return entry_error(I, i, "%s%s stride %d shrinks %gx%g to nothing "
			   "(expected a larger image_size or fewer "
			   "down-sampling layers)", name, window, s, I->h,
			   I->w);
}

/* The error that entry i's `flag` asks for a feature map it does not
 * give. */
static int not_a_map(const struct infer *I, const struct vis_layer *L, int i,
		     const char *flag)
{
	return entry_error(I, i, "%s on %s, whose output is not a feature map "
			   "(expected it on convolutional entries)", flag,
			   vis_kind_names[L->kind]);
}

/* 0 when `heads` attention heads divide the running width. */
static int heads_divide(const struct infer *I, int i, double heads)
{
	if (fmod(I->c, heads))
		return entry_error(I, i, "%g heads do not divide width %g "
				   "(expected a divisor)", heads, I->c);
	return 0;
}

/* A pre-norm transformer layer of width C (LayerNorm, attention with q,
 * k, v and output projections, LayerNorm, MLP C -> mlp -> C, biases
 * everywhere): its parameters, and its multiply-adds when each of T
 * positions attends to N. */
static double tf_layer_params(double C, double mlp)
{
	return 4 * C * C + 4 * C + 2 * C * mlp + mlp + C + 4 * C;
}

static double tf_layer_macs(double C, double mlp, double T, double N)
{
	return T * (4 * C * C + 2 * C * mlp) + 2 * T * N * C;
}

/* A diffusion UNet's resblocks, with their cross-attention blocks. */
static int infer_resblock(struct infer *I, const struct vis_layer *L, int i,
			  struct vis_shape *o)
{
	double r = copies(L), out = out_channels(I, L);
	int bad, j;

	if ((bad = need_map(I, L, i)))
		return bad;
	if (L->heads > 0 && (!(I->tw > 0) || fmod(out, L->heads)))
		return entry_error(I, i, "resblock of %g channels with %d "
				   "heads (expected heads that divide the "
				   "channels, and a text_encoder for their "
				   "cross-attention)", out, L->heads);
	for (j = 0; j < r; j++) {
		double cin = I->c;
		if (L->concat && (bad = concat_saved(I, i, &cin)))
			return bad;
		vis_resblock(cin, out, I->h * I->w, I->E, o);
		if (L->heads > 0)
			vis_transformer(out, I->h * I->w,
					L->mlp > 0 ? L->mlp : 4 * out, I->tw,
					I->tl, o);
		I->c = out;
		/* the last copy's output is saved by infer_record() */
		if (L->save && j < r - 1 && (bad = save_output(I, i)))
			return bad;
	}
	return 0;
}

/* A convolution, or a convblock (conv, norm, ReLU, conv, norm, ReLU). */
static int infer_conv(struct infer *I, const struct vis_layer *L, int i,
		      struct vis_shape *o)
{
	int s = stride_of(L), k = L->kind == VL_CONVBLOCK ? 3 : kernel_or(L, 1);
	int gr = L->groups > 0 ? L->groups : 1, bad;
	double out = out_channels(I, L), ho, wo, kv; /* kv: kernel volume */

	if (I->T > 0)
		return entry_error(I, i, "conv after tokens (expected "
				   "convolutions before the image becomes a "
				   "sequence)");
	if (fmod(I->c, gr) || fmod(out, gr))
		return entry_error(I, i, "groups %d do not divide %g input "
				   "and %g output channels (expected a common "
				   "divisor)", gr, I->c, out);
	if (L->concat && (bad = concat_saved(I, i, &I->c)))
		return bad;
	if ((bad = window_sides(I, i, "conv", k, s, 1, &ho, &wo)))
		return bad;
	kv = I->vol ? 27 : 9;
	if (L->kind == VL_CONV)
		kv = I->vol ? (double)k * k * k : (double)k * k;
	o->params = out * I->c / gr * kv + (L->bias ? out : 0);
	o->macs = ho * wo * out * I->c / gr * kv;
	o->act_bytes = I->c * I->h * I->w * I->dp; /* input kept */
	if (I->vol)
		I->dp = vis_out_side(I->dp, k, s);
	o->macs *= I->dp;
	if (L->kind == VL_CONVBLOCK) {
		/* norm, ReLU, 3x3 conv, norm, ReLU: norm
		 * inputs, ReLU outputs (the conv input) */
		double pos = ho * wo * I->dp;
		o->params += 2 * out + out * out * kv + 2 * out;
		o->macs += pos * out * out * kv;
		o->act_bytes += 4 * out * pos;
	}
	set_map(I, out, ho, wo);
	return 0;
}

/* Max or average pooling of a map, or of the tokens (class token or
 * mean). */
static int infer_pool(struct infer *I, const struct vis_layer *L, int i,
		      struct vis_shape *o)
{
	if (I->T > 0) { /* class token or mean over tokens */
		o->act_bytes = 0;
		I->T = 0;
		I->h = I->w = 1;
		return 0;
	}
	o->act_bytes = L->kind == VL_MAXPOOL ? I->c * I->h * I->w : 0;
	if (L->global) {
		I->h = I->w = 1;
		return 0;
	}
	return window_sides(I, i, vis_kind_names[L->kind], kernel_or(L, 1),
			    stride_of(L), 1, &I->h, &I->w);
}

/* Transformer blocks over the tokens. */
static int infer_attention(struct infer *I, const struct vis_layer *L, int i,
			   struct vis_shape *o)
{
	double r = copies(L), mlp = L->mlp > 0 ? L->mlp : 4 * I->c;
	int heads = L->heads > 0 ? L->heads : 1, bad;

	if (!(I->T > 0))
		return entry_error(I, i, "attention on an image (expected a "
				   "tokens entry before it)");
	if ((bad = heads_divide(I, i, heads)))
		return bad;
	o->params = r * tf_layer_params(I->c, mlp);
	o->macs = r * tf_layer_macs(I->c, mlp, I->T, I->T);
	o->act_bytes = r * attn_act_elems(I->T, I->c, heads, mlp);
	return 0;
}

/* A stage of residual blocks (bottleneck, basic, ConvNeXt). */
static int infer_block(struct infer *I, const struct vis_layer *L, int i,
		       struct vis_shape *o)
{
	double r = copies(L), out = out_channels(I, L);
	double wd = L->width > 0 ? L->width :
		    L->kind == VL_CNBLOCK ? 4 * out : out / 4;
	int s = stride_of(L), gr = L->groups > 0 ? L->groups : 1, j, bad;

	if (gr > 1 && (L->kind != VL_BOTTLENECK || fmod(wd, gr)))
		return entry_error(I, i, "groups %d on %s of width %g "
				   "(expected a bottleneck whose width the "
				   "groups divide)", gr,
				   vis_kind_names[L->kind], wd);
	if (I->T > 0)
		return entry_error(I, i, "%s after tokens (expected it "
				   "before)", vis_kind_names[L->kind]);
	if (L->kind == VL_BOTTLENECK && !(wd >= 1))
		return entry_error(I, i, "bottleneck width %g is below 1 "
				   "(expected width: inner channels)", wd);
	for (j = 0; j < r; j++) {
		int st = j == 0 ? s : 1;
		double cin = I->c, ho = I->h, wo = I->w, Xo;
		if (L->kind != VL_CNBLOCK) {
			if ((bad = window_sides(I, i, vis_kind_names[L->kind],
						3, st, 0, &ho, &wo)))
				return bad;
		} else if (st > 1) {
			return entry_error(I, i, "cnblock stride %d (expected "
					   "1: use a conv to down-sample)", st);
		}
		Xo = out * ho * wo;
		if (L->kind == VL_BOTTLENECK) {
			double Xw1 = wd * I->h * I->w, Xw2 = wd * ho * wo;
			o->params += cin * wd + 9 * wd * wd / gr +
				    wd * out + I->bnp * (2 * wd + out);
			o->macs += Xw1 * cin + Xw2 * wd * 9 / gr +
				  Xo * wd;
			/* each conv's output (its norm's input) and each
			 * ReLU's output (the next conv's input: one tensor
			 * for both); the block's input is the previous
			 * block's output, kept there */
			o->act_bytes += 2 * Xw1 + 2 * Xw2 + 2 * Xo;
		} else if (L->kind == VL_BASIC) {
			o->params += cin * out * 9 + out * out * 9 +
				    2 * I->bnp * out;
			o->macs += Xo * cin * 9 + Xo * out * 9;
			o->act_bytes += 2 * Xo + 2 * Xo;
		} else {
			int kk = L->kernel > 0 ? L->kernel : 7;
			if (out != cin)
				return entry_error(I, i, "cnblock out %g "
						   "differs from its %g input "
						   "channels (expected the "
						   "same width)", out, cin);
			o->params += out * kk * kk + out +
				    2 * out + 2 * out * wd +
				    wd + out + out;
			o->macs += Xo * kk * kk + 2 * Xo * wd;
			/* dw input, ln input, lin1 input,
			 * gelu input, lin2 input, scale */
			o->act_bytes += 4 * Xo + 2 * wd * ho * wo;
		}
		if (L->kind != VL_CNBLOCK &&
		    (st > 1 || cin != out)) {
			o->params += cin * out + I->bnp * out;
			o->macs += Xo * cin;
			o->act_bytes += Xo;
		}
		set_map(I, out, ho, wo);
	}
	return 0;
}

/*
 * A stage of EfficientNet's inverted residual blocks (MBConv: Sandler et
 * al., arXiv:1801.04381; Tan and Le, arXiv:1905.11946; torchvision
 * models/efficientnet.py): a 1x1 expansion to cin x expand channels with
 * batch-norm and SiLU (none when expand is 1), a k x k depthwise
 * convolution (stride on the first copy) with batch-norm and SiLU,
 * squeeze-excitation (global average, 1x1 to floor(cin x se) channels
 * with bias, SiLU, 1x1 back with bias, sigmoid, channel scale), a 1x1
 * projection to `out` with batch-norm, and the residual add when the
 * stride is 1 and the widths agree.  The channel scale is element-wise,
 * not a multiply-add of the count.
 */
static int infer_mbconv(struct infer *I, const struct vis_layer *L, int i,
			struct vis_shape *o)
{
	double r = copies(L), out = L->out, e = L->expand;
	int s = stride_of(L), k = kernel_or(L, 3), bad;

	if ((bad = need_map(I, L, i)))
		return bad;
	if (!(e >= 1) || !(out >= 1))
		return entry_error(I, i, "mbconv of %g channels, expansion %g "
				   "(expected out and expand of 1 or more)",
				   out, e);
	for (int j = 0; j < r; j++) {
		int st = j == 0 ? s : 1;
		double cin = I->c, ce = cin * e, sq = floor(cin * L->se);
		double hw = I->h * I->w, ho, wo, how;

		if ((bad = window_sides(I, i, "mbconv", k, st, 1, &ho, &wo)))
			return bad;
		how = ho * wo;
		if (L->se > 0 && sq < 1)
			sq = 1; /* torchvision: max(1, cin // 4) */
		if (e > 1) {
			o->params += cin * ce + I->bnp * ce;
			o->macs += hw * cin * ce;
			/* conv input, bn input, SiLU input */
			o->act_bytes += hw * (cin + 2 * ce);
		}
		o->params += ce * k * k + I->bnp * ce + ce * out + I->bnp * out;
		o->macs += how * ce * k * k + how * ce * out;
		/* dw input; bn, SiLU inputs; scaled map and its scale's
		 * input; bn input after the projection */
		o->act_bytes += hw * ce + 4 * how * ce + how * out;
		if (sq > 0) {
			o->params += 2 * ce * sq + sq + ce;
			o->macs += 2 * ce * sq;
			/* pooled vector, SiLU input, gate */
			o->act_bytes += 2 * ce + sq;
		}
		set_map(I, out, ho, wo);
	}
	return 0;
}

/* Swin's windows of side `win` over an h x w map, padded to whole windows
 * as torchvision pads: the positions they hold. */
static double swin_positions(double h, double w, double win)
{
	return ceil(h / win) * win * ceil(w / win) * win;
}

/*
 * A stage of Swin Transformer blocks (Liu et al., arXiv:2103.14030;
 * torchvision models/swin_transformer.py) on a c x h x w map kept as a
 * map: LayerNorm, multi-head self-attention inside each win x win window
 * (qkv and output projections with bias, a learned relative position
 * bias of (2 win - 1)^2 per head added to the scores), residual,
 * LayerNorm, MLP c -> mlp -> c with GELU, residual; every second copy
 * shifts the windows by win/2 (a cyclic roll, no parameters).  The map is
 * padded to whole windows; each of the T positions attends to the win^2
 * of its window, through explicit scores (PyTorch's Swin computes them:
 * the bias is added before the softmax).
 */
static int infer_swin(struct infer *I, const struct vis_layer *L, int i,
		      struct vis_shape *o)
{
	double r = copies(L), C = I->c, win = L->window;
	double mlp = L->mlp > 0 ? L->mlp : 4 * C, heads = L->heads;
	double T = swin_positions(I->h, I->w, win), N = win * win;
	int bad;

	if (I->T > 0)
		return entry_error(I, i, "swin after tokens (expected it on a "
				   "feature map: Swin keeps the image's "
				   "layout)");
	if (!(win >= 1) || !(heads >= 1))
		return entry_error(I, i, "swin of %g heads, window %g "
				   "(expected both 1 or more)", heads, win);
	if ((bad = heads_divide(I, i, heads)))
		return bad;
	/* the relative position bias: (2 win - 1)^2 per head */
	o->params = r * (tf_layer_params(C, mlp) +
			 (2 * win - 1) * (2 * win - 1) * heads);
	o->macs = r * tf_layer_macs(C, mlp, T, N);
	/* as a transformer layer, with the softmax output of the explicit
	 * attention kept in place of flash attention's statistics */
	o->act_bytes = r * (attn_act_elems(T, C, heads, mlp) - 2 * heads * T +
			    heads * T * N);
	return 0;
}

/*
 * Swin's patch merging: the 2 x 2 neighbours of each position
 * concatenated (4 c channels on a map halved, odd sides padded), a
 * LayerNorm and a linear layer to `out` [2 c] without bias.  Kept: the
 * LayerNorm's and the linear layer's inputs.
 */
static int infer_patch_merge(struct infer *I, const struct vis_layer *L,
			     int i, struct vis_shape *o)
{
	double out = L->out > 0 ? L->out : 2 * I->c, c4 = 4 * I->c;
	double ho = ceil(I->h / 2), wo = ceil(I->w / 2);
	int bad;

	if ((bad = need_map(I, L, i)))
		return bad;
	o->params = 2 * c4 + c4 * out;
	o->macs = ho * wo * c4 * out;
	o->act_bytes = 2 * ho * wo * c4;
	set_map(I, out, ho, wo);
	return 0;
}

/* A feature pyramid, or a detection head on one. */
static int infer_detect(struct infer *I, const struct vis_layer *L, int i,
			struct vis_shape *o)
{
	double out = out_channels(I, L);

	if ((L->kind == VL_RETINA_HEAD || L->kind == VL_RPN_HEAD) &&
	    I->nlev == 0)
		return entry_error(I, i, "%s without a feature pyramid "
				   "(expected an fpn entry before it)",
				   vis_kind_names[L->kind]);
	switch (L->kind) {
	case VL_FPN: {
		char why[200];
		if (vis_fpn(L, I->nfeat, I->fc, I->fh, I->fw, o, I->lh, I->lw, why,
			    sizeof(why)))
			return entry_error(I, i, "%s", why);
		I->nlev = I->nfeat + (L->extra > 0 ? L->extra : 0) +
		       (L->pooled > 0 ? L->pooled : 0);
		I->nfeat = 0;
		I->c = out;
		I->h = I->lh[0];
		I->w = I->lw[0];
		break;
	}
	case VL_RETINA_HEAD:
		vis_retina_head(L, I->c, I->nlev, I->lh, I->lw, o);
		I->head = i;
		break;
	case VL_RPN_HEAD:
		vis_rpn_head(L, I->c, I->nlev, I->lh, I->lw, o);
		I->rpn = 1;
		break;
	case VL_ROI_BOX_HEAD:
	case VL_ROI_MASK_HEAD:
		if (!I->rpn)
			return entry_error(I, i, "%s without region proposals "
					   "(expected an rpn_head before it)",
					   vis_kind_names[L->kind]);
		vis_roi_head(L, I->c, o);
		break;
	default:
		break;
	}
	return 0;
}

/* What entry i may not be where it stands.  0, or the error of
 * entry_error(). */
static int infer_check(struct infer *I, const struct vis_layer *L, int i)
{
	int seq = I->T > 0;

	if (I->vol && L->kind != VL_CONV && L->kind != VL_DECONV &&
	    L->kind != VL_CONVBLOCK &&
	    L->kind != VL_GROUPNORM && L->kind != VL_BATCHNORM &&
	    L->kind != VL_RELU && L->kind != VL_GELU &&
	    L->kind != VL_SILU && L->kind != VL_ADD)
		return entry_error(I, i, "%s in a 3-D network (expected conv, "
				   "convblock, deconv, groupnorm, batchnorm, "
				   "relu, gelu, silu or add)",
				   vis_kind_names[L->kind]);
	if (L->out < 0)
		return entry_error(I, i, "%s has %d output channels (expected "
				   "a positive count)", vis_kind_names[L->kind],
				   L->out);
	if (I->head >= 0)
		return entry_error(I, i, "%s after the detection head of "
				   "entry %d (expected the head last)",
				   vis_kind_names[L->kind], I->head + 1);
	if (L->frozen && I->trainable)
		return entry_error(I, i, "frozen %s after a trainable entry "
				   "(expected frozen entries first: gradients "
				   "flow through them to the layers before)",
				   vis_kind_names[L->kind]);
	I->trainable |= !L->frozen;
	if (I->nlev > 0 && L->kind < VL_RETINA_HEAD)
		return entry_error(I, i, "%s on a feature pyramid (expected a "
				   "detection head after fpn)",
				   vis_kind_names[L->kind]);
	if (L->concat && ((L->kind != VL_RESBLOCK && L->kind != VL_CONV &&
			   L->kind != VL_CONVBLOCK) || L->save))
		return entry_error(I, i, "concat on %s%s (expected it on a "
				   "conv, convblock or resblock that does not "
				   "save)", L->save ? "a saving " : "",
				   vis_kind_names[L->kind]);
	if (L->save && (seq || I->nlev > 0))
		return not_a_map(I, L, i, "save");
	return 0;
}

/* Entry i: its parameters, multiply-adds and kept activations into *o,
 * and the running tensor after it.  0, or the error of entry_error(). */
static int infer_entry(struct infer *I, const struct vis_layer *L, int i,
		       struct vis_shape *o)
{
	int k = kernel_or(L, 1), seq = I->T > 0, bad;
	double out = out_channels(I, L);
	double kv = I->vol ? (double)k * k * k : (double)k * k; /* volume */
	double X;

	switch (L->kind) {
	case VL_GROUPNORM:
		if ((bad = need_map(I, L, i)))
			return bad;
		o->params = 2 * I->c;
		o->act_bytes = I->c * I->h * I->w * I->dp;
		break;
	case VL_UPSAMPLE:
		if ((bad = need_map(I, L, i)))
			return bad;
		/* nearest x2, then a 3x3 convolution with bias */
		I->h *= 2;
		I->w *= 2;
		o->params = 9 * I->c * out + out;
		o->macs = I->h * I->w * 9 * I->c * out;
		o->act_bytes = I->c * I->h * I->w;
		I->c = out;
		break;
	case VL_RESBLOCK:
		return infer_resblock(I, L, i, o);
	case VL_CONV:
	case VL_CONVBLOCK:
		return infer_conv(I, L, i, o);
	case VL_DECONV:
		/* transposed convolution, stride = kernel, with bias */
		o->params = I->c * out * kv + out;
		o->macs = I->h * I->w * I->dp * I->c * out * kv;
		o->act_bytes = I->c * I->h * I->w * I->dp;
		I->h *= k;
		I->w *= k;
		if (I->vol)
			I->dp *= k;
		I->c = out;
		break;
	case VL_BATCHNORM:
	case VL_LAYERNORM:
		X = seq ? I->T * I->c : I->c * I->h * I->w * I->dp;
		o->params = L->kind == VL_BATCHNORM ? I->bnp * I->c : 2 * I->c;
		o->act_bytes = X;
		break;
	case VL_RELU:
	case VL_GELU:
	case VL_SILU:
	case VL_HARDSWISH:
		o->act_bytes = seq ? I->T * I->c : I->c * I->h * I->w * I->dp;
		break;
	case VL_ADD:
		break;
	case VL_MAXPOOL:
	case VL_AVGPOOL:
		return infer_pool(I, L, i, o);
	case VL_LINEAR: {
		double rows = seq ? I->T : I->h * I->w; /* per image */
		if (L->out <= 0)
			return entry_error(I, i, "linear needs out (expected "
					   "output features)");
		o->params = I->c * out + out;
		o->macs = rows * I->c * out;
		o->act_bytes = rows * I->c;
		I->c = out;
		break;
	}
	case VL_TOKENS:
		if (seq)
			return entry_error(I, i, "tokens twice (expected one "
					   "tokens entry)");
		I->T = I->h * I->w + (L->class_token ? 1 : 0);
		o->params = I->T * I->c + (L->class_token ? I->c : 0);
		o->act_bytes = 0;
		I->h = I->w = 1;
		break;
	case VL_ATTENTION:
		return infer_attention(I, L, i, o);
	case VL_BOTTLENECK:
	case VL_BASIC:
	case VL_CNBLOCK:
		return infer_block(I, L, i, o);
	case VL_MBCONV:
		return infer_mbconv(I, L, i, o);
	case VL_SWIN:
		return infer_swin(I, L, i, o);
	case VL_PATCH_MERGE:
		return infer_patch_merge(I, L, i, o);
	case VL_FPN:
	case VL_RETINA_HEAD:
	case VL_RPN_HEAD:
	case VL_ROI_BOX_HEAD:
	case VL_ROI_MASK_HEAD:
		return infer_detect(I, L, i, o);
	case VL_KIND_COUNT:
	default:
		return entry_error(I, i, "unknown layer kind (expected one of "
				   "conv, batchnorm, ...)");
	}
	return 0;
}

/* After entry i (output o; `seq`: its input was tokens): a saved output,
 * a pyramid input, the running shape into o and the totals. */
static int infer_record(struct infer *I, const struct vis_layer *L, int i,
			int seq, struct vis_shape *o)
{
	int bad;

	if (L->save && (bad = save_output(I, i)))
		return bad;
	if (L->pyramid) {
		if (seq || I->T > 0 || I->nlev > 0)
			return not_a_map(I, L, i, "pyramid");
		if (I->nfeat == VIS_MAX_LEVELS)
			return entry_error(I, i, "more than %d pyramid inputs "
					   "(expected at most %d)",
					   VIS_MAX_LEVELS, VIS_MAX_LEVELS);
		if (I->nfeat == 0)
			I->tap = i;
		I->fc[I->nfeat] = I->c;
		I->fh[I->nfeat] = I->h;
		I->fw[I->nfeat] = I->w;
		I->nfeat++;
	}
	o->c = I->c;
	o->h = I->h;
	o->w = I->w;
	o->d = I->dp;
	o->tokens = I->T;
	o->levels = I->nlev;
	memcpy(o->lh, I->lh, sizeof(o->lh));
	memcpy(o->lw, I->lw, sizeof(o->lw));
	I->S.params += o->params;
	I->S.macs += o->macs;
	I->S.act_elems += o->act_bytes;
	if (!L->frozen) {
		I->S.trainable_params += o->params;
		I->S.trainable_macs += o->macs;
	}
	return 0;
}

/* The checks and totals of the whole list, once every entry is in. */
static int infer_totals(struct infer *I, const struct vision_arch *a)
{
	if (I->nfeat > 0)
		return entry_error(I, I->tap, "pyramid output that no fpn "
				   "reads (expected an fpn entry after it)");
	if (I->sk.n > 0)
		return entry_error(I, I->sk.at[0], "saved output that no "
				   "concat reads (expected a concat for every "
				   "save; %d left)", I->sk.n);
	if (I->E > 0) {
		/* timestep embedding MLP: E/4 sinusoidal features -> E -> E */
		double tp = I->E / 4 * I->E + I->E + I->E * I->E + I->E;
		double tm = I->E / 4 * I->E + I->E * I->E;
		I->S.params += tp;
		I->S.trainable_params += tp;
		I->S.macs += tm;
		I->S.trainable_macs += tm;
	}
	if (a->text.layers > 0) {
		double L = a->text.layers, m = a->text.mlp;
		double tw = I->tw, tl = I->tl;
		I->S.encoder_params = L * tf_layer_params(tw, m);
		I->S.encoder_macs = L * tf_layer_macs(tw, m, tl, tl);
	}
	if (I->head < 0 && !I->rpn && I->h * I->w * I->dp > 1 && !(I->T > 0))
		I->S.out_map = I->c * I->h * I->w * I->dp;
	I->S.classes = I->head >= 0 || I->rpn || I->S.out_map > 0 ? 0 :
		       (int)I->c;
	return 0;
}

int vision_infer(const struct vision_arch *a, double image, double image_w,
		 struct vis_shape *sh, struct vis_summary *sum, char *msg,
		 size_t msglen)
{
	struct infer I;
	int i, bad;

	memset(&I, 0, sizeof(I));
	I.c = a->in_channels > 0 ? a->in_channels : 3;
	I.h = image;
	I.w = image_w > 0 ? image_w : image;
	I.bnp = a->frozen_bn ? 0 : 2;
	I.E = a->time_embed;
	I.tw = a->text.width;
	I.tl = a->text.tokens;
	I.vol = a->dims == 3;
	I.dp = I.vol ? image : 1;
	I.head = I.tap = -1;
	I.msg = msg;
	I.msglen = msglen;
	if (!(image >= 1) || !(I.w >= 1))
		return entry_error(&I, -1, "image size %g is not positive "
				   "(expected pixels per side)", image);
	for (i = 0; i < a->nlayers; i++) {
		const struct vis_layer *L = &a->layer[i];
		struct vis_shape o;
		int seq = I.T > 0;

		memset(&o, 0, sizeof(o));
		if ((bad = infer_check(&I, L, i)) ||
		    (bad = infer_entry(&I, L, i, &o)) ||
		    (bad = infer_record(&I, L, i, seq, &o)))
			return bad;
		if (sh)
			sh[i] = o;
	}
	if ((bad = infer_totals(&I, a)))
		return bad;
	if (sum)
		*sum = I.S;
	return 0;
}

