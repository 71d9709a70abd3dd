/*
 * wl_vision.c - `kind: vision` workload files and vision architecture
 * files (models/arch/<name>.yaml with family: vision).  The format is
 * documented in docs/workload-format.md ("Vision workloads").
 *
 * As everywhere in src/io, out-parameters are written only on success and
 * every problem goes to the caller's struct tc_diag at its position.
 */
#include "wl_vision.h"

#include "wl_common.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../model/families/vision_shape.h"
#include "../model/types/vision_kinds.h"
#include "fields.h"
#include "yaml_load.h"

#define MAX_IMAGE_SIZE 100000   /* pixels per side */
#define MAX_DATASET 1e13        /* images or samples */
#define MAX_EPOCHS 1e6
#define MAX_GLOBAL_BATCH 1e9
#define MAX_CHANNELS 1e6
#define MAX_REPEAT 10000

static const char *const v_precision_names[] = { "fp32", "tf32", "bf16", "fp16", NULL };
static const enum tc_prec v_prec_map[] = { PREC_FP32, PREC_TF32, PREC_BF16, PREC_FP16 };

/* --- layers ------------------------------------------------------------ */

struct layer_sec {
	int kind, out, kernel, stride, groups, width, heads, mlp, repeat;
	int global, class_token, bias, pyramid, frozen, extra, pooled;
	int anchors, classes, convs, proposals, rois, pool, save, concat;
	int expand, window;
	double se;
};

/* Whether space-separated list `keys` holds `key`. */
static int key_listed(const char *keys, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = keys; p && *p; p += strspn(p, " ")) {
		size_t w = strcspn(p, " ");
		if (w == n && !strncmp(p, key, n))
			return 1;
		p += w;
	}
	return 0;
}

/*
 * What the entry's kind asks (vision_kinds.h): a key another kind owns is
 * refused at the key (elsewhere it would be silently ignored), and the
 * kind's needed keys must be positive, reported at the entry.
 */
static int kind_keys(const struct yn_node *it, const char *file,
		     const struct layer_sec *ls, const struct fd_field *table,
		     struct tc_diag *d)
{
	const struct vis_kind_def *def = &vis_kind_defs[ls->kind];
	char needs[64] = "";

	for (int k = 0; k < VL_KIND_COUNT; k++) {
		const char *own = vis_kind_defs[k].own;
		for (const char *p = own; p && *p; p += strspn(p, " ")) {
			char key[32];
			size_t w = strcspn(p, " ");
			snprintf(key, sizeof(key), "%.*s", (int)w, p);
			p += w;
			const struct yn_node *v = it->type == YN_MAP ? yn_map_get(it, key) : NULL;
			if (v && ls->kind != k)
				return wlx_err(d, file, v, "%s on %s (expected it on "
					       "%s only)", key, vis_kind_names[ls->kind],
					       vis_kind_names[k]);
		}
	}
	if (!def->needs)
		return 0;
	for (const struct fd_field *f = table; f->key; f++)
		if (key_listed(def->needs, f->key) &&
		    *(const int *)(const void *)((const char *)ls + f->offset) <= 0) {
			/* "out and expand": the needed keys joined */
			for (const char *p = def->needs; *p; p += strspn(p, " ")) {
				size_t w = strcspn(p, " ");
				snprintf(needs + strlen(needs), sizeof(needs) - strlen(needs),
					 "%s%.*s", needs[0] ? " and " : "", (int)w, p);
				p += w;
			}
			return wlx_err(d, file, it, "%s needs %s (expected %s)",
				       vis_kind_names[ls->kind], needs, def->meaning);
		}
	return 0;
}

/* One list item: a bare kind ("relu") or a mapping with `layer:`. */
static int read_layer(const struct yn_node *it, const char *file,
		      struct vis_layer *L, struct tc_diag *d)
{
#define LOFF(m) offsetof(struct layer_sec, m)
	static const struct fd_field table[] = {
		{ .key = "layer", .type = FD_ENUM, .required = 1, .offset = LOFF(kind), .names = vis_kind_names },
		{ .key = "out", .type = FD_INT, .offset = LOFF(out), .min = 1, .max = MAX_CHANNELS },
		{ .key = "kernel", .type = FD_INT, .offset = LOFF(kernel), .min = 1, .max = 1024 },
		{ .key = "stride", .type = FD_INT, .offset = LOFF(stride), .min = 1, .max = 1024 },
		{ .key = "groups", .type = FD_INT, .offset = LOFF(groups), .min = 1, .max = MAX_CHANNELS },
		{ .key = "width", .type = FD_INT, .offset = LOFF(width), .min = 1, .max = MAX_CHANNELS },
		{ .key = "heads", .type = FD_INT, .offset = LOFF(heads), .min = 1, .max = 65536 },
		{ .key = "mlp", .type = FD_INT, .offset = LOFF(mlp), .min = 1, .max = 1e8 },
		{ .key = "repeat", .type = FD_INT, .offset = LOFF(repeat), .min = 1, .max = MAX_REPEAT },
		{ .key = "global", .type = FD_BOOL, .offset = LOFF(global) },
		{ .key = "class_token", .type = FD_BOOL, .offset = LOFF(class_token) },
		{ .key = "bias", .type = FD_BOOL, .offset = LOFF(bias) },
		{ .key = "pyramid", .type = FD_BOOL, .offset = LOFF(pyramid) },
		{ .key = "frozen", .type = FD_BOOL, .offset = LOFF(frozen) },
		{ .key = "extra", .type = FD_INT, .offset = LOFF(extra), .min = 0, .max = VIS_MAX_LEVELS },
		{ .key = "save", .type = FD_BOOL, .offset = LOFF(save) },
		{ .key = "concat", .type = FD_BOOL, .offset = LOFF(concat) },
		{ .key = "pooled", .type = FD_INT, .offset = LOFF(pooled), .min = 0, .max = VIS_MAX_LEVELS },
		{ .key = "proposals", .type = FD_INT, .offset = LOFF(proposals), .min = 1, .max = 1000000 },
		{ .key = "rois", .type = FD_INT, .offset = LOFF(rois), .min = 1, .max = 1000000 },
		{ .key = "pool", .type = FD_INT, .offset = LOFF(pool), .min = 1, .max = 1024 },
		{ .key = "anchors", .type = FD_INT, .offset = LOFF(anchors), .min = 1, .max = 1000 },
		{ .key = "classes", .type = FD_INT, .offset = LOFF(classes), .min = 1, .max = 1000000 },
		{ .key = "convs", .type = FD_INT, .offset = LOFF(convs), .min = 1, .max = 64 },
		{ .key = "expand", .type = FD_INT, .offset = LOFF(expand), .min = 1, .max = 64 },
		{ .key = "se", .type = FD_NUM, .offset = LOFF(se), .unit = TC_UNIT_COUNT, .min = 0, .max = 1 },
		{ .key = "window", .type = FD_INT, .offset = LOFF(window), .min = 1, .max = 1024 },
		{ 0 },
	};
#undef LOFF
	struct fd_ctx ctx = { .file = file, .d = d };
	struct layer_sec ls;

	memset(&ls, 0, sizeof(ls));
	if (it->type == YN_SCALAR) {
		if (fd_get_enum(it, "layer", vis_kind_names, &ls.kind, &ctx))
			return -1;
	} else if (it->type == YN_MAP) {
		if (fd_parse_map(it, table, &ls, "layer", &ctx, NULL))
			return -1;
	} else {
		return fd_type_error(it, "layer", "a layer name or a mapping "
				     "with 'layer'", &ctx);
	}
	memset(L, 0, sizeof(*L));
	L->kind = (enum vis_kind)ls.kind;
	L->out = ls.out;
	L->kernel = ls.kernel;
	L->stride = ls.stride;
	L->groups = ls.groups;
	L->width = ls.width;
	L->heads = ls.heads;
	L->mlp = ls.mlp;
	L->repeat = ls.repeat;
	L->global = ls.global;
	L->class_token = ls.class_token;
	L->bias = ls.bias;
	L->pyramid = ls.pyramid;
	L->frozen = ls.frozen;
	L->extra = ls.extra;
	L->anchors = ls.anchors;
	L->classes = ls.classes;
	L->convs = ls.convs;
	L->pooled = ls.pooled;
	L->proposals = ls.proposals;
	L->rois = ls.rois;
	L->pool = ls.pool;
	L->save = ls.save;
	L->concat = ls.concat;
	L->expand = ls.expand;
	L->se = ls.se;
	L->window = ls.window;
	L->line = it->line;
	L->col = it->col;
	if (kind_keys(it, file, &ls, table, d))
		return -1;
	return 0;
}

/* model.layers (or an architecture file's layers) into *a. */
static int read_layers(const struct yn_node *seq, const char *file,
		       struct vision_arch *a, struct tc_diag *d)
{
	struct fd_ctx ctx = { .file = file, .d = d };
	int bad = 0;

	if (seq->type != YN_SEQ)
		return fd_type_error(seq, "layers", "a list of layers", &ctx);
	if (seq->count == 0)
		return wlx_err(d, file, seq, "layers is empty (expected at "
			       "least one layer)");
	if (seq->count > VIS_MAX_LAYERS)
		return wlx_err(d, file, seq->items[VIS_MAX_LAYERS], "more than "
			       "%d layers (expected blocks with repeat: for "
			       "repeated structure)", VIS_MAX_LAYERS);
	a->nlayers = (int)seq->count;
	for (size_t i = 0; i < seq->count; i++)
		if (read_layer(seq->items[i], file, &a->layer[i], d))
			bad = 1;
	snprintf(a->file, sizeof(a->file), "%s", file);
	return bad ? -1 : 0;
}

/* Shapes at image x image_w: a problem is reported at the offending
 * layer. */
static int check_shapes(const struct vision_arch *a, double image,
			double image_w, const char *file,
			const struct yn_node *fallback, struct tc_diag *d)
{
	char msg[256];
	int bad = vision_infer(a, image, image_w, NULL, NULL, msg, sizeof(msg));
	if (!bad)
		return 0;
	if (bad > 0 && a->layer[bad - 1].line > 0)
		return tc_diag_at(d, TC_EXIT_INPUT, file, a->layer[bad - 1].line,
				  a->layer[bad - 1].col, "%s", msg);
	return wlx_err(d, file, fallback, "%s", msg);
}

/* text_encoder: { layers, width, heads, mlp, tokens }, all required. */
static int read_text_encoder(const struct yn_node *map, const char *file,
			     struct vision_arch *a, struct tc_diag *d)
{
	struct tsec { int layers, width, heads, mlp, tokens; } ts;
	static const struct fd_field table[] = {
		{ .key = "layers", .type = FD_INT, .required = 1, .offset = offsetof(struct tsec, layers), .min = 1, .max = 10000 },
		{ .key = "width", .type = FD_INT, .required = 1, .offset = offsetof(struct tsec, width), .min = 1, .max = 1000000 },
		{ .key = "heads", .type = FD_INT, .required = 1, .offset = offsetof(struct tsec, heads), .min = 1, .max = 65536 },
		{ .key = "mlp", .type = FD_INT, .required = 1, .offset = offsetof(struct tsec, mlp), .min = 1, .max = 100000000 },
		{ .key = "tokens", .type = FD_INT, .required = 1, .offset = offsetof(struct tsec, tokens), .min = 1, .max = 1000000 },
		{ 0 },
	};
	struct fd_ctx ctx = { .file = file, .d = d };

	if (!map)
		return 0;
	if (map->type != YN_MAP)
		return fd_type_error(map, "text_encoder", "a mapping", &ctx);
	memset(&ts, 0, sizeof(ts));
	if (fd_parse_map(map, table, &ts, "text_encoder", &ctx, NULL))
		return -1;
	if (ts.width % ts.heads)
		return wlx_err(d, file, map, "text_encoder heads %d do not "
			       "divide its width %d (expected a divisor)",
			       ts.heads, ts.width);
	a->text.layers = ts.layers;
	a->text.width = ts.width;
	a->text.heads = ts.heads;
	a->text.mlp = ts.mlp;
	a->text.tokens = ts.tokens;
	return 0;
}

struct varch_file {
	int in_channels, frozen_bn, time_embed, dims;
	double params, macs;
	char source[GPU_TEXT_LEN];
	int dummy;
};

/* A parsed vision architecture file into *out.  Returns 0 or -1. */
static int varch_from_doc(const struct yn_doc *doc, const char *want,
			  struct vision_arch *out, struct tc_diag *d)
{
#define VOFF(m) offsetof(struct varch_file, m)
	static const struct fd_field table[] = {
		{ .key = "kind", .type = FD_IGNORE, .offset = VOFF(dummy) },
		{ .key = "name", .type = FD_IGNORE, .offset = VOFF(dummy) },
		{ .key = "family", .type = FD_IGNORE, .offset = VOFF(dummy) },
		{ .key = "display_name", .type = FD_IGNORE, .offset = VOFF(dummy) },
		{ .key = "notes", .type = FD_IGNORE, .offset = VOFF(dummy) },
		{ .key = "layers", .type = FD_IGNORE, .required = 1, .offset = VOFF(dummy) },
		{ .key = "in_channels", .type = FD_INT, .offset = VOFF(in_channels), .min = 1, .max = 1024 },
		{ .key = "frozen_batchnorm", .type = FD_BOOL, .offset = VOFF(frozen_bn) },
		{ .key = "time_embed", .type = FD_INT, .offset = VOFF(time_embed), .min = 4, .max = 1000000 },
		{ .key = "dims", .type = FD_INT, .offset = VOFF(dims), .min = 2, .max = 3 },
		{ .key = "text_encoder", .type = FD_IGNORE, .offset = VOFF(dummy) },
		{ .key = "params", .type = FD_NUM, .offset = VOFF(params), .unit = TC_UNIT_COUNT, .min = 1, .max = 1e15 },
		{ .key = "macs", .type = FD_NUM, .offset = VOFF(macs), .unit = TC_UNIT_COUNT, .min = 1, .max = 1e18 },
		{ .key = "image_size", .type = FD_IGNORE, .offset = VOFF(dummy) },
		{ .key = "source", .type = FD_STR, .required = 1, .offset = VOFF(source), .size = GPU_TEXT_LEN },
		{ 0 },
	};
#undef VOFF
	struct fd_ctx ctx = { .file = doc->file, .d = d };
	struct varch_file vf;
	struct vision_arch a;
	char st[WL_NAME_LEN];

	if (!doc->root || doc->root->type != YN_MAP)
		return wlx_err(d, doc->file, doc->root, "the file holds %s "
			       "(expected a mapping of architecture fields)",
			       doc->root ? yn_type_name(doc->root) : "nothing");
	if (wlx_arch_head(doc, want, "vision", d))
		return -1;
	memset(&vf, 0, sizeof(vf));
	vf.in_channels = 3;
	if (fd_parse_map(doc->root, table, &vf, "architecture file", &ctx, NULL))
		return -1;
	memset(&a, 0, sizeof(a));
	if (read_layers(yn_map_get(doc->root, "layers"), doc->file, &a, d))
		return -1;
	a.in_channels = vf.in_channels;
	a.frozen_bn = vf.frozen_bn;
	a.time_embed = vf.time_embed;
	a.dims = vf.dims;
	if (read_text_encoder(yn_map_get(doc->root, "text_encoder"), doc->file,
			      &a, d))
		return -1;
	wlx_stem(doc->file, st, sizeof(st));
	snprintf(a.name, sizeof(a.name), "%s", want ? want : st);
	snprintf(a.source, sizeof(a.source), "%s", vf.source);
	/* The reference size (224) must run through the whole network. */
	if (check_shapes(&a, 224, 0, doc->file, doc->root, d))
		return -1;
	*out = a;
	return 0;
}

int wl_vision_arch_load_file(const char *path, struct vision_arch *out,
			     struct tc_diag *d)
{
	struct yn_doc doc = { 0 };
	assert(path && out && d);
	if (yn_load_file(path, &doc, d))
		return -1;
	int rc = varch_from_doc(&doc, NULL, out, d);
	yn_doc_release(&doc);
	return rc;
}

/* --- the workload ---------------------------------------------------------- */

/* FD_CUSTOM: the optimizers a vision file may name. */
static int parse_optimizer(const struct yn_node *v, void *at, const struct fd_ctx *ctx)
{
	return wlx_get_optimizer(v, WL_VISION, at, ctx);
}

struct vtrain_sec {
	int image_size, image_width, crop, crop_width, global_batch;
	int precision;
	enum optimizer optimizer;
	int channels_last;
	double dataset_size, epochs;
	int dummy;
};

struct loader_sec {
	double rate;
	int on_gpu;
};

/*
 * The crop against the image it is cut from: crop_width only with crop,
 * and neither side of the crop larger than the image's.  0, or -1 with
 * the problem reported at the crop's key.
 */
static int check_crop(const char *file, const struct yn_node *map,
		      const struct vtrain_sec *ts, struct tc_diag *d)
{
	const struct yn_node *cw = yn_map_get(map, "crop_width");
	const char *across = ts->image_width ? "image_width" : "image_size";
	int image_w = ts->image_width ? ts->image_width : ts->image_size;

	if (!ts->crop) {
		if (cw)
			return wlx_err(d, file, cw, "crop_width without crop "
				       "(expected crop: the crop's height)");
		return 0;
	}
	if (ts->crop > ts->image_size)
		return wlx_err(d, file, yn_map_get(map, "crop"), "crop %d is "
			       "larger than image_size %d (expected at most "
			       "%d)", ts->crop, ts->image_size, ts->image_size);
	if (cw && ts->crop_width > image_w)
		return wlx_err(d, file, cw, "crop_width %d is larger than %s "
			       "%d (expected at most %d)", ts->crop_width,
			       across, image_w, image_w);
	if (!cw && ts->crop > image_w)
		return wlx_err(d, file, yn_map_get(map, "crop"), "crop %d is "
			       "larger than %s %d (expected at most %d, or "
			       "crop_width)", ts->crop, across, image_w,
			       image_w);
	return 0;
}

static int read_vtraining(const char *file, const struct yn_node *map,
			  struct workload *w, struct tc_diag *d)
{
#define TOFF(m) offsetof(struct vtrain_sec, m)
	static const struct fd_field table[] = {
		{ .key = "image_size", .type = FD_INT, .offset = TOFF(image_size), .min = 1, .max = MAX_IMAGE_SIZE },
		{ .key = "image_width", .type = FD_INT, .offset = TOFF(image_width), .min = 1, .max = MAX_IMAGE_SIZE },
		{ .key = "crop", .type = FD_INT, .offset = TOFF(crop), .min = 1, .max = MAX_IMAGE_SIZE },
		{ .key = "crop_width", .type = FD_INT, .offset = TOFF(crop_width), .min = 1, .max = MAX_IMAGE_SIZE },
		{ .key = "dataset_size", .type = FD_NUM, .required = 1, .offset = TOFF(dataset_size), .unit = TC_UNIT_COUNT, .min = 1, .max = MAX_DATASET },
		{ .key = "epochs", .type = FD_NUM, .required = 1, .offset = TOFF(epochs), .unit = TC_UNIT_COUNT, .min = 1e-6, .max = MAX_EPOCHS },
		{ .key = "global_batch", .type = FD_INT, .required = 1, .offset = TOFF(global_batch), .min = 1, .max = MAX_GLOBAL_BATCH },
		{ .key = "precision", .type = FD_ENUM, .offset = TOFF(precision), .names = v_precision_names },
		{ .key = "optimizer", .type = FD_CUSTOM, .offset = TOFF(optimizer), .parse = parse_optimizer },
		{ .key = "channels_last", .type = FD_BOOL, .offset = TOFF(channels_last) },
		{ .key = "data_loader", .type = FD_IGNORE, .offset = TOFF(dummy) },
		{ 0 },
	};
#undef TOFF
	static const struct fd_field ltable[] = {
		{ .key = "images_per_s_per_node", .type = FD_NUM, .required = 1, .offset = offsetof(struct loader_sec, rate),
		  .unit = TC_UNIT_COUNT, .min = 1, .max = 1e9 },
		{ .key = "on_gpu", .type = FD_BOOL, .offset = offsetof(struct loader_sec, on_gpu) },
		{ 0 },
	};
	struct fd_ctx ctx = { .file = file, .d = d };
	struct vtrain_sec ts = { .image_size = 224, .precision = 2, .optimizer = OPT_SGD };
	struct loader_sec ls = { 0, 0 };
	const struct yn_node *dl = yn_map_get(map, "data_loader");
	int bad = 0;

	if (fd_parse_map(map, table, &ts, "training", &ctx, NULL))
		bad = 1;
	if (dl) {
		if (dl->type != YN_MAP)
			bad |= fd_type_error(dl, "data_loader", "a mapping", &ctx);
		else if (fd_parse_map(dl, ltable, &ls, "data_loader", &ctx, NULL))
			bad = 1;
	}
	if (bad || check_crop(file, map, &ts, d))
		return -1;
	w->train.global_batch = ts.global_batch;
	w->train.precision = v_prec_map[ts.precision];
	w->train.optimizer = ts.optimizer;
	w->train.seq_len = 1;
	w->vtrain.image_size = ts.image_size;
	w->vtrain.image_width = ts.image_width;
	w->vtrain.crop = ts.crop;
	w->vtrain.crop_width = ts.crop_width;
	w->vtrain.dataset_size = ts.dataset_size;
	w->vtrain.epochs = ts.epochs;
	w->vtrain.channels_last = ts.channels_last;
	w->vtrain.loader_images_per_s_per_node = ls.rate;
	w->vtrain.loader_on_gpu = ls.on_gpu;
	wlx_mark(w, WLF_IMAGE_SIZE, map, "image_size");
	wlx_mark(w, WLF_IMAGE_SIZE, map, "crop");     /* the network's input */
	wlx_mark(w, WLF_DATASET_SIZE, map, "dataset_size");
	wlx_mark(w, WLF_EPOCHS, map, "epochs");
	wlx_mark(w, WLF_GLOBAL_BATCH, map, "global_batch");
	wlx_mark(w, WLF_PRECISION, map, "precision");
	wlx_mark(w, WLF_OPTIMIZER, map, "optimizer");
	wlx_mark(w, WLF_DATA_LOADER, map, "data_loader");
	return 0;
}

/* model: { preset: NAME } or { layers: [...], in_channels: 3 }. */
static int read_vmodel(const char *file, const struct yn_node *map,
		       const struct tc_datapath *dp, struct workload *w,
		       struct tc_diag *d)
{
	struct msec { char preset[WL_NAME_LEN]; int in_channels, frozen_bn, dims; int dummy; } ms;
	static const struct fd_field table[] = {
		{ .key = "preset", .type = FD_STR, .offset = offsetof(struct msec, preset), .size = WL_NAME_LEN },
		{ .key = "layers", .type = FD_IGNORE, .offset = offsetof(struct msec, dummy) },
		{ .key = "in_channels", .type = FD_INT, .offset = offsetof(struct msec, in_channels), .min = 1, .max = 1024 },
		{ .key = "frozen_batchnorm", .type = FD_BOOL, .offset = offsetof(struct msec, frozen_bn) },
		{ .key = "dims", .type = FD_INT, .offset = offsetof(struct msec, dims), .min = 2, .max = 3 },
		{ 0 },
	};
	struct fd_ctx ctx = { .file = file, .d = d };
	const struct yn_node *pn, *ln;

	memset(&ms, 0, sizeof(ms));
	ms.in_channels = 3;
	if (fd_parse_map(map, table, &ms, "model", &ctx, NULL))
		return -1;
	pn = yn_map_get(map, "preset");
	ln = yn_map_get(map, "layers");
	if (pn && ln)
		return wlx_err(d, file, ln, "model has both preset and layers "
			       "(expected one of them)");
	if (!pn && !ln)
		return wlx_err(d, file, map, "missing required key 'preset' in "
			       "model (expected preset or layers)");
	if (pn) {
		struct yn_doc doc = { 0 };
		int rc = wlx_open_preset(dp, ms.preset, file, pn, &doc, d);
		if (rc == 0)
			rc = varch_from_doc(&doc, ms.preset, &w->vis, d) ? -2 : 0;
		yn_doc_release(&doc);
		if (rc == -2)
			wlx_err(d, file, pn, "preset '%s' could not be loaded",
				ms.preset);
		return rc ? -1 : 0;
	}
	memset(&w->vis, 0, sizeof(w->vis));
	if (read_layers(ln, file, &w->vis, d))
		return -1;
	w->vis.in_channels = ms.in_channels;
	w->vis.frozen_bn = ms.frozen_bn;
	w->vis.dims = ms.dims;
	snprintf(w->vis.name, sizeof(w->vis.name), "inline");
	snprintf(w->vis.source, sizeof(w->vis.source), "%s", file);
	return 0;
}

/* The image size against the network, and the micro-batch against the
 * global batch: 0, or -1 with the problem reported. */
static int check_vworkload(const struct yn_doc *doc,
			   const struct yn_node *training,
			   const struct yn_node *plan, struct workload *w,
			   struct tc_diag *d)
{
	/* the network's input: the crop when there is one */
	const char *key = w->vtrain.crop > 0 ? "crop" : "image_size";
	const struct yn_node *is = yn_map_get(training, key);
	const char *lf = w->vis.file[0] ? w->vis.file : doc->file;
	double in_h, in_w;

	/* Layer positions point into the preset file when there is one; the
	 * input size of the workload is the cause too. */
	vtrain_input(&w->vtrain, &in_h, &in_w);
	if (check_shapes(&w->vis, in_h, in_w, lf, is ? is : training, d)) {
		if (strcmp(lf, doc->file) || !is)
			wlx_err(d, doc->file, is ? is : training,
				"%s %.0f does not fit the network (expected a "
				"larger size)", key, in_h);
		return -1;
	}
	if (w->plan.micro_batch > 0 &&
	    w->plan.micro_batch > w->train.global_batch) {
		const struct yn_node *mb = yn_map_get(plan, "micro_batch");
		wlx_err(d, doc->file, mb, "micro_batch %d is larger than "
			"global_batch %.0f (expected at most %.0f)",
			w->plan.micro_batch, w->train.global_batch,
			w->train.global_batch);
		return -1;
	}
	return 0;
}

int wl_vision_load_doc(const struct yn_doc *doc, const struct tc_datapath *dp,
		       struct workload *out, struct tc_diag *d)
{
	static const struct wlx_family vision = {
		.kind = WL_VISION, .model = read_vmodel,
		.training = read_vtraining, .check = check_vworkload,
	};
	return wlx_load_family(doc, dp, &vision, out, d);
}
