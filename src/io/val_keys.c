/*
 * val_keys.c - the keys of a validation case file: their table, the check
 * of a value against its key and its store into a case, and the checks of
 * a whole case (val_keys.h).
 */
#include "val_keys.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_load.h"
#include "yaml_load.h"
#include "yaml_node.h"

/* Measured values, in the unit of their column (ms, TFLOP/s, %, 1/s);
 * VAL_MEASURED_RANGE spells them for messages. */
#define VAL_MEASURED_MIN 0.001
#define VAL_MEASURED_MAX 1e9
#define VAL_MEASURED_RANGE "0.001 to 1e9"

enum vk_type { VK_INT, VK_NUM, VK_BOOL, VK_STR, VK_ENUM, VK_MEASURE };

/* One key: its name, type, and (for measures) the factor to SI. */
struct vkey {
	const char *name;
	enum vk_type type;
	const char *const *names; /* VK_ENUM: allowed values, NULL-ended */
	double scale;             /* VK_MEASURE: file unit to SI */
	enum val_metric metric;   /* VK_MEASURE */
	long min, max;            /* VK_INT: allowed range; max 0 = any
				     non-negative integer */
};

/* The range of a number that must be a share or a factor, and the words of
 * its error; a key with no row here takes any non-negative number. */
struct vrange {
	double lo, hi;
	const char *expect;
};

static const char *const metric_names[] = { "iter_time_ms",
					    "megatron_tflops", "mfu_pct",
					    "tokens_per_s", "samples_per_s",
					    "images_per_s", NULL };
static const double metric_scale[] = { 1e-3, 1e12, 1e-2, 1, 1, 1 };
static const char *const emb_prec_names[] = { "fp32", "fp16", "bf16", NULL };
static const enum tc_prec emb_prec_map[] = { PREC_FP32, PREC_FP16, PREC_BF16 };

static const struct vkey keys[K_N] = {
	[K_ID] = { "id", VK_STR, NULL, 0, 0, 0, 0 },
	[K_FAMILY] = { "family", VK_ENUM, wl_kind_names, 0, 0, 0, 0 },
	[K_SOURCE] = { "source", VK_STR, NULL, 0, 0, 0, 0 },
	[K_GPU] = { "gpu", VK_STR, NULL, 0, 0, 0, 0 },
	[K_COUNT] = { "gpus", VK_INT, NULL, 0, 0, 1, 1000000 },
	[K_GPN] = { "gpus_per_node", VK_INT, NULL, 0, 0, 0, 0 },
	[K_LAYERS] = { "layers", VK_INT, NULL, 0, 0, 0, 0 },
	[K_HIDDEN] = { "hidden", VK_INT, NULL, 0, 0, 0, 0 },
	[K_HEADS] = { "heads", VK_INT, NULL, 0, 0, 0, 0 },
	[K_KV] = { "kv_heads", VK_INT, NULL, 0, 0, 0, 0 },
	[K_FFN] = { "ffn", VK_INT, NULL, 0, 0, 0, 0 },
	[K_VOCAB] = { "vocab", VK_INT, NULL, 0, 0, 0, 0 },
	[K_ACT] = { "act", VK_ENUM, llm_act_names, 0, 0, 0, 0 },
	[K_POS] = { "positions", VK_ENUM, llm_pos_names, 0, 0, 0, 0 },
	[K_NORM] = { "norm", VK_ENUM, llm_norm_names, 0, 0, 0, 0 },
	[K_BIAS] = { "bias", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_TIED] = { "tied_embeddings", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_CAUSAL] = { "causal", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_SEQ] = { "seq_len", VK_INT, NULL, 0, 0, 0, 0 },
	[K_GB] = { "global_batch", VK_INT, NULL, 0, 0, 0, 0 },
	[K_MB] = { "micro_batch", VK_INT, NULL, 0, 0, 0, 0 },
	[K_TP] = { "tp", VK_INT, NULL, 0, 0, 0, 0 },
	[K_PP] = { "pp", VK_INT, NULL, 0, 0, 0, 0 },
	[K_DP] = { "dp", VK_INT, NULL, 0, 0, 0, 0 },
	[K_EP] = { "ep", VK_INT, NULL, 0, 0, 0, 0 },
	[K_EXPERTS] = { "experts", VK_INT, NULL, 0, 0, 0, 0 },
	[K_TOPK] = { "top_k", VK_INT, NULL, 0, 0, 0, 0 },
	[K_INTERLEAVE] = { "interleave", VK_INT, NULL, 0, 0, 0, 0 },
	[K_SP] = { "sequence_parallel", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_ZERO] = { "zero", VK_INT, NULL, 0, 0, 0, 0 },
	[K_RECOMPUTE] = { "recompute", VK_ENUM, recompute_names, 0, 0, 0, 0 },
	[K_PREC] = { "precision", VK_ENUM, tc_llm_train_prec_names, 0, 0, 0, 0 },
	[K_OPT] = { "optimizer", VK_ENUM, opt_names, 0, 0, 0, 0 },
	[K_FLASH] = { "flash_attention", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_FINETUNE] = { "finetune", VK_ENUM, finetune_names, 0, 0, 0, 0 },
	[K_LORA_RANK] = { "lora_rank", VK_INT, NULL, 0, 0, 1,
			  LORA_MAX_RANK },
	[K_LORA_TARGETS] = { "lora_targets", VK_ENUM, lora_target_names, 0, 0, 0, 0 },
	[K_OVERLAP] = { "grad_overlap", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_GRAPHS] = { "cuda_graphs", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_NET] = { "network_gb_per_s", VK_NUM, NULL, 0, 0, 0, 0 },
	[K_METRIC] = { "metric", VK_ENUM, metric_names, 0, 0, 0, 0 },
	[K_MEASURED] = { "measured", VK_NUM, NULL, 0, 0, 0, 0 },
	[K_ITER_MS] = { "iter_time_ms", VK_MEASURE, NULL, 1e-3,
			VAL_ITER_TIME, 0, 0 },
	[K_MTFLOPS] = { "megatron_tflops", VK_MEASURE, NULL, 1e12,
			VAL_MEGATRON_TFLOPS, 0, 0 },
	[K_MFU] = { "mfu_pct", VK_MEASURE, NULL, 1e-2, VAL_MFU, 0, 0 },
	[K_TOKS] = { "tokens_per_s", VK_MEASURE, NULL, 1, VAL_TOKENS_PER_S, 0, 0 },
	[K_SAMPLES_S] = { "samples_per_s", VK_MEASURE, NULL, 1,
			  VAL_SAMPLES_PER_S, 0, 0 },
	[K_IMAGES_S] = { "images_per_s", VK_MEASURE, NULL, 1,
			 VAL_IMAGES_PER_S, 0, 0 },
	[K_NETWORK] = { "network", VK_STR, NULL, 0, 0, 0, 0 },
	[K_IMAGE] = { "image_size", VK_INT, NULL, 0, 0, 0, 0 },
	[K_IMAGE_W] = { "image_width", VK_INT, NULL, 0, 0, 0, 0 },
	[K_CHLAST] = { "channels_last", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_EMB_ROWS] = { "emb_rows", VK_STR, NULL, 0, 0, 0, 0 },
	[K_EMB_PREC] = { "embedding_precision", VK_ENUM, emb_prec_names, 0, 0, 0, 0 },
	[K_EMB_PLACE] = { "embeddings", VK_ENUM, rec_placement_names, 0, 0, 0, 0 },
	[K_FRAMEWORK] = { "framework", VK_STR, NULL, 0, 0, 0, 0 },
	[K_SANITY] = { "sanity_only", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_PAIR] = { "pair", VK_STR, NULL, 0, 0, 0, 0 },
	[K_UNIQUE] = { "unique_rows", VK_NUM, NULL, 0, 0, 0, 0 },
	[K_HOST_INPUT] = { "input_on_host", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_CP] = { "cp", VK_INT, NULL, 0, 0, 1, 65536 },
	[K_SHARD] = { "shard_group", VK_INT, NULL, 0, 0, 0, 0 }, /* 0 = dp */
	[K_PACKING] = { "packing", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_MEAN_SEQ] = { "mean_seq_len", VK_NUM, NULL, 0, 0, 0, 0 },
	[K_HEAD_DIM] = { "head_dim", VK_INT, NULL, 0, 0, 0, 0 }, /* 0 = h/a */
	[K_SCHEDULE] = { "schedule", VK_ENUM, sched_names + 1, 0, 0, 0, 0 },
	[K_CAPACITY] = { "capacity_factor", VK_NUM, NULL, 0, 0, 0, 0 },
	/* 0 = an even split */
	[K_FIRST_STAGE] = { "first_stage_layers", VK_INT, NULL, 0, 0, 0, 0 },
	[K_LAST_STAGE] = { "last_stage_layers", VK_INT, NULL, 0, 0, 0, 0 },
	[K_TP_OVERLAP] = { "tp_comm_overlap", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_RECOMPUTE_FRAC] = { "recompute_frac", VK_NUM, NULL, 0, 0, 0, 0 },
	/* 0 = a steady-state figure */
	[K_FIG_STEPS] = { "figure_steps", VK_INT, NULL, 0, 0, 0, 0 },
	[K_FIG_WARMUP] = { "figure_warmup", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_FIG_MEAN] = { "figure_mean", VK_ENUM, val_mean_names, 0, 0, 0, 0 },
	[K_DROPOUT] = { "dropout", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_LM_HEAD] = { "lm_head", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_LORA_BASE_FP8] = { "lora_base_fp8", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_MLP_ACT_FP8] = { "mlp_act_input_fp8", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_LM_HEAD_TOKENS] = { "lm_head_tokens", VK_INT, NULL, 0, 0, 0, SEQ_LEN_MAX }, /* 0 = every token */
	[K_COMPILE] = { "compile", VK_BOOL, NULL, 0, 0, 0, 0 },
	[K_LAYOUT] = { "layout", VK_ENUM, val_layout_names, 0, 0, 0, 0 },
};

static const struct vrange key_ranges[K_N] = {
	/* above 0: the smallest positive double */
	[K_UNIQUE] = { DBL_TRUE_MIN, 1, "the share of lookups that hit distinct "
		       "rows, above 0 and at most 1" },
	[K_RECOMPUTE_FRAC] = { RECOMPUTE_FRAC_MIN, 1, RECOMPUTE_FRAC_EXPECT },
	[K_CAPACITY] = { 1, CAPACITY_FACTOR_MAX, CAPACITY_FACTOR_EXPECT },
};

int val_find_key(const char *name)
{
	int k;
	for (k = 0; k < K_N; k++)
		if (!strcmp(keys[k].name, name))
			return k;
	return -1;
}

int val_bad(struct vstate *st, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tc_diag_vat(st->d, TC_EXIT_INPUT, st->file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

static void enter_family(struct val_case *c, const char *family);

/*
 * The vision or recommender architecture `name` of the catalog
 * (models/arch/<name>.yaml on the data path), into case c, which enters
 * its family first (the family's part is cleared when the family changes).
 * Returns 0, or -1 with the problem at the case file's (line, col).
 */

static int network_preset(struct vstate *st, const char *name, struct val_case *c,
			  int line, int col)
{
	struct workload *w = &c->w;
	char path[DP_PATH_LEN], fname[WL_NAME_LEN + 8], family[16];
	struct yn_doc doc = { 0 };
	int rc;

	int named = strlen(name) < WL_NAME_LEN && !strchr(name, '/') && name[0] != '.';
	if (named)
		snprintf(fname, sizeof(fname), "%s.yaml", name);
	if (!named || !st->dp || dp_find(st->dp, "models/arch", fname, path, sizeof(path)))
		return val_bad(st, line, col, "unknown network '%s' (expected a vision or "
			   "recommender architecture of models/arch such as resnet50 or "
			   "dlrm-criteo-1tb)", name);
	if (yn_load_file(path, &doc, st->d))
		return val_bad(st, line, col, "network '%s' could not be loaded", name);
	wl_arch_family(&doc, family, sizeof(family));
	yn_doc_release(&doc);
	if (!strcmp(family, "vision")) {
		enter_family(c, family);
		rc = wl_vision_arch_load_file(path, &w->vis, st->d);
	} else if (!strcmp(family, "recsys")) {
		enter_family(c, family);
		rc = wl_recsys_arch_load_file(path, &w->rec, st->d);
	} else {
		return val_bad(st, line, col, "network '%s' is a %s architecture (expected a "
			   "vision or recommender one; language models are described by columns)",
			   name, family[0] ? family : "family-less");
	}
	if (rc)
		return val_bad(st, line, col, "network '%s' could not be loaded", name);
	return 0;
}

/*
 * Into the family `family` (a `family` key, or a `network` of another
 * family): its part of the workload cleared and its defaults set, only
 * when the family changes, so that a directive given after the family was
 * declared (an optimizer, a placement) holds for its rows, as every other
 * directive does.  The language models' defaults: a GPT-style decoder.
 */
static void enter_family(struct val_case *c, const char *family)
{
	struct workload *w = &c->w;

	if (!strcmp(c->family, family))
		return;
	snprintf(c->family, sizeof(c->family), "%s", family);
	if (!strcmp(family, "llm")) {
		wl_set_kind(w, WL_LLM);
		llm_arch_gpt_style(&w->llm);
		w->train.optimizer = OPT_ADAMW;
		w->plan.grad_overlap = 0;
		return;
	}
	if (!strcmp(family, "vision")) {
		wl_set_kind(w, WL_VISION);
		w->vtrain.image_size = 224;
		w->vtrain.dataset_size = 1;
		w->vtrain.epochs = 1;
	} else {
		wl_set_kind(w, WL_RECSYS);
		w->rtrain.samples = 1;
		w->plan.embeddings = EMB_TABLE_WISE;
		w->rtrain.emb_precision = PREC_FP32;
	}
	w->train.optimizer = OPT_SGD;
	w->plan.grad_overlap = 1;
}

/* Store value `v` of key k into case c (or the measurement state). */
/* emb_rows: the rows of every table, separated by ';', in table order.
 * 0, or -1 with the error. */
static int read_emb_rows(struct vstate *st, struct workload *w, const char *v,
			 int line, int col)
{
	char *end;
	const char *p = v;
	int n = 0;

	if (w->kind != WL_RECSYS)
		return val_bad(st, line, col, "emb_rows before a "
			   "recommender network (expected the network "
			   "column first)");
	while (*p && n < REC_MAX_TABLES) {
		double r = strtod(p, &end);
		if (end == p || !(r >= 1) || (*end && *end != ';'))
			return val_bad(st, line, col, "bad emb_rows '%s' "
				   "(expected row counts separated by "
				   "';')", v);
		w->rec.table[n++].rows = r;
		p = *end ? end + 1 : end;
	}
	if (n != w->rec.ntables)
		return val_bad(st, line, col, "emb_rows has %d tables, the "
			   "network %d (expected one count per table)",
			   n, w->rec.ntables);
	return 0;
}

/* Check value v of key k against its type into *iv, *dv or *ev.  0, or
 * -1 with the error. */
static int parse_value(struct vstate *st, int k, const char *v, int line, int col,
		       long *ivp, double *dvp, int *evp)
{
	const struct vkey *K = &keys[k];
	char *end;
	long iv = 0;
	double dv = 0;
	int ev = -1, i;

	switch (K->type) {
	case VK_INT:
		errno = 0;
		iv = strtol(v, &end, 10);
		if (K->max && (!*v || *end || errno || iv < K->min ||
			       iv > K->max))
			return val_bad(st, line, col, "bad value '%s' for '%s' "
				   "(expected a whole number from %ld to %ld)",
				   v, K->name, K->min, K->max);
		if (!*v || *end || errno || iv < 0 || iv > 1000000000L)
			return val_bad(st, line, col, "bad value '%s' for '%s' "
				   "(expected a non-negative integer)", v,
				   K->name);
		break;
	case VK_NUM:
	case VK_MEASURE:
		errno = 0;
		dv = strtod(v, &end);
		if (!*v || *end || errno || !isfinite(dv) || dv < 0)
			return val_bad(st, line, col, "bad value '%s' for '%s' "
				   "(expected a non-negative number)", v,
				   K->name);
		/* a measurement, in its column's unit: no zero, no 1e300 */
		if (K->type == VK_MEASURE || k == K_MEASURED) {
			if (dv == 0)
				return val_bad(st, line, col, "bad value '%s' for "
					   "'%s' (expected a positive number)",
					   v, K->name);
			if (dv < VAL_MEASURED_MIN || dv > VAL_MEASURED_MAX)
				return val_bad(st, line, col, "bad value '%s' for "
					   "'%s' (expected a number from "
					   VAL_MEASURED_RANGE ")", v, K->name);
		}
		break;
	case VK_BOOL:
		if (!strcmp(v, "1") || !strcmp(v, "true"))
			iv = 1;
		else if (!strcmp(v, "0") || !strcmp(v, "false"))
			iv = 0;
		else
			return val_bad(st, line, col, "bad value '%s' for '%s' "
				   "(expected true or false)", v, K->name);
		break;
	case VK_ENUM:
		for (i = 0; K->names[i]; i++)
			if (!strcmp(K->names[i], v))
				ev = i;
		if (ev < 0) {
			char list[200] = "";
			for (i = 0; K->names[i]; i++) {
				size_t l = strlen(list);
				snprintf(list + l, sizeof(list) - l, "%s%s",
					 i ? ", " : "", K->names[i]);
			}
			return val_bad(st, line, col, "unknown %s '%s' (expected "
				   "one of %s)", K->name, v, list);
		}
		break;
	case VK_STR:
		if (!*v)
			return val_bad(st, line, col, "empty value for '%s' "
				   "(expected text)", K->name);
		break;
	}

	*ivp = iv;
	*dvp = dv;
	*evp = ev;
	return 0;
}

/* The family whose part of the workload key k sets; WL_KIND_COUNT for a
 * key of the parts every family has (and emb_rows, which says more). */
static enum wl_kind key_family(int k)
{
	switch ((enum vk_id)k) {
	case K_LAYERS: case K_HIDDEN: case K_HEADS: case K_KV: case K_FFN:
	case K_VOCAB: case K_ACT: case K_POS: case K_NORM: case K_BIAS:
	case K_TIED: case K_CAUSAL: case K_DROPOUT: case K_LM_HEAD: case K_LM_HEAD_TOKENS:
	case K_EXPERTS: case K_TOPK: case K_HEAD_DIM: case K_COMPILE: case K_LAYOUT:
		return WL_LLM;
	case K_IMAGE: case K_IMAGE_W: case K_CHLAST:
		return WL_VISION;
	case K_EMB_PREC: case K_UNIQUE: case K_HOST_INPUT:
		return WL_RECSYS;
	default:
		return WL_KIND_COUNT;
	}
}

/* -1 with the error when key k has a range (a share, a factor) and dv is
 * outside it, else 0. */
static int out_of_range(struct vstate *st, int k, const char *v, int line,
			int col, double dv)
{
	const struct vrange *r = &key_ranges[k];
	if (!r->expect || (dv >= r->lo && dv <= r->hi))
		return 0;
	return val_bad(st, line, col, "bad value '%s' for '%s' (expected %s)", v,
		       keys[k].name, r->expect);
}

/* Store the checked value of training key k (iv, dv or ev) in t. */
static void store_training(struct training *t, int k, long iv, double dv, int ev)
{
	switch ((enum vk_id)k) {
	case K_SEQ: t->seq_len = (double)iv; break;
	case K_GB: t->global_batch = (double)iv; break;
	case K_RECOMPUTE: t->recompute = (enum recompute)ev; break;
	case K_PREC: t->precision = tc_llm_train_precs[ev]; break;
	case K_OPT: t->optimizer = (enum optimizer)ev; break;
	case K_FLASH: t->flash_attention = (int)iv; break;
	case K_FINETUNE: t->finetune = (enum finetune)ev; break;
	case K_LORA_RANK: t->lora_rank = (int)iv; break;
	case K_LORA_TARGETS: t->lora_targets = lora_target_sets[ev]; break;
	case K_LORA_BASE_FP8: t->lora_base_fp8 = (int)iv; break;
	case K_MLP_ACT_FP8: t->mlp_act_input_fp8 = (int)iv; break;
	case K_LM_HEAD_TOKENS: t->lm_head_tokens = (double)iv; break;
	case K_RECOMPUTE_FRAC: t->recompute_frac = dv; break;
	case K_CAPACITY: t->capacity_factor = dv; break;
	case K_PACKING: t->packing = (int)iv; break;
	case K_MEAN_SEQ: t->mean_seq_len = dv; break;
	default: /* a key of another part of the case: store_value's */
		break;
	}
}

/* Store the checked value of key k (iv, dv or ev, or the text v) in the
 * case.  0, or -1 with the error of a value out of its key's range. */
static int store_value(struct vstate *st, struct val_case *c, int k, const char *v,
		       int line, int col, long iv, double dv, int ev)
{
	struct workload *w = &c->w;
	const struct vkey *K = &keys[k];
	enum wl_kind fam = key_family(k);

	/* a workload holds the part of its own family only */
	if (fam != WL_KIND_COUNT && fam != w->kind)
		return val_bad(st, line, col, "'%s' is a key of the %s family, and the "
			   "case is of the %s family (expected the family or network "
			   "first)", K->name, wl_kind_names[fam], wl_kind_names[w->kind]);
	if (out_of_range(st, k, v, line, col, dv))
		return -1;
	switch ((enum vk_id)k) {
	case K_ID: snprintf(c->id, sizeof(c->id), "%s", v); break;
	case K_FAMILY: enter_family(c, v); break;
	case K_SOURCE: snprintf(c->source, sizeof(c->source), "%s", v); break;
	case K_GPU:
		snprintf(c->gpu_id, sizeof(c->gpu_id), "%s", v);
		snprintf(w->plan.gpu, sizeof(w->plan.gpu), "%s", v);
		break;
	case K_COUNT: w->plan.count = (int)iv; break;
	case K_GPN: w->plan.gpus_per_node = (int)iv; break;
	case K_LAYERS: w->llm.layers = (int)iv; break;
	case K_HIDDEN: w->llm.hidden = (int)iv; break;
	case K_HEADS: w->llm.heads = (int)iv; break;
	case K_KV: w->llm.kv_heads = (int)iv; break;
	case K_FFN: w->llm.ffn = (int)iv; break;
	case K_VOCAB: w->llm.vocab = (int)iv; break;
	case K_ACT: w->llm.act = (enum llm_act)ev; break;
	case K_POS:
		if (ev == POS_RELATIVE) /* its buckets have no key here */
			return val_bad(st, line, col, "positions relative in a case "
				       "(expected one of learned, rope, alibi)");
		w->llm.positions = (enum llm_pos)ev;
		break;
	case K_NORM: w->llm.norm = (enum llm_norm)ev; break;
	case K_BIAS: w->llm.bias = (int)iv; break;
	case K_TIED: w->llm.tied_embeddings = (int)iv; break;
	case K_CAUSAL: w->llm.causal = (int)iv; break;
	case K_DROPOUT: w->llm.no_dropout = !iv; break;
	case K_LM_HEAD: w->llm.no_lm_head = !iv; break;
	case K_MB: w->plan.micro_batch = (int)iv; break;
	case K_TP: w->plan.tp = (int)iv; break;
	case K_PP: w->plan.pp = (int)iv; break;
	case K_DP: w->plan.dp = (int)iv; break;
	case K_EP: w->plan.ep = (int)iv; break;
	case K_EXPERTS: w->llm.experts = (int)iv; break;
	case K_TOPK: w->llm.top_k = (int)iv; break;
	case K_INTERLEAVE: w->plan.interleave = (int)iv; break;
	case K_SP: w->plan.sequence_parallel = (int)iv; break;
	case K_ZERO: w->plan.zero = (int)iv; break;
	case K_OVERLAP: w->plan.grad_overlap = (int)iv; break;
	case K_GRAPHS: w->plan.cuda_graphs = (int)iv; break;
	case K_COMPILE: w->plan.compile = (int)iv; break;
	case K_NET: w->plan.network_bytes_per_s = dv * 1e9; break;
	case K_METRIC: st->metric_file = ev; break;
	case K_MEASURED:
		st->raw_measured = dv;
		st->have_measured = 1;
		break;
	case K_NETWORK:
		/* the preset's family sets the kind */
		if (network_preset(st, v, c, line, col))
			return -1;
		break;
	case K_IMAGE: w->vtrain.image_size = (double)iv; break;
	case K_IMAGE_W: w->vtrain.image_width = (double)iv; break;
	case K_CHLAST: w->vtrain.channels_last = (int)iv; break;
	case K_EMB_ROWS:
		if (read_emb_rows(st, w, v, line, col))
			return -1;
		break;
	case K_EMB_PREC: w->rtrain.emb_precision = emb_prec_map[ev]; break;
	case K_UNIQUE: w->rtrain.unique_rows = dv; break;
	case K_EMB_PLACE: w->plan.embeddings = ev; break;
	case K_HOST_INPUT: w->rtrain.input_on_host = (int)iv; break;
	case K_FRAMEWORK:
		/* "none": a stack no profile describes (the registry's values);
		 * "default": a stack the source does not name (what a workload
		 * naming none gets); neither names a fitted profile */
		c->default_stack = !strcmp(v, "default");
		snprintf(c->framework, sizeof(c->framework), "%s",
			 strcmp(v, "none") && !c->default_stack ? v : "");
		break;
	case K_SANITY: c->sanity_only = (int)iv; break;
	case K_PAIR:
		/* "none": a run with no counterpart on another GPU type */
		snprintf(c->pair, sizeof(c->pair), "%s", strcmp(v, "none") ? v : "");
		break;
	case K_CP: w->plan.cp = (int)iv; break;
	case K_SHARD: w->plan.shard_group = (int)iv; break;
	case K_HEAD_DIM: w->llm.head_dim = (int)iv; break;
	case K_SCHEDULE: w->plan.schedule = (enum pp_schedule)(ev + 1); break;
	case K_FIRST_STAGE: w->plan.first_stage_layers = (int)iv; break;
	case K_LAST_STAGE: w->plan.last_stage_layers = (int)iv; break;
	case K_TP_OVERLAP: w->plan.tp_comm_overlap = (int)iv; break;
	case K_FIG_STEPS: c->figure.steps = (int)iv; break;
	case K_FIG_WARMUP: c->figure.warmup = (int)iv; break;
	case K_FIG_MEAN: c->figure.mean = (enum val_mean)ev; break;
	case K_LAYOUT: c->layout = (enum val_layout)ev; break;
	case K_ITER_MS: case K_MTFLOPS: case K_MFU: case K_TOKS:
	case K_SAMPLES_S: case K_IMAGES_S:
		c->metric = K->metric;
		c->measured = dv * K->scale;
		st->have_measured = 2;
		break;
	case K_SEQ: case K_GB: case K_RECOMPUTE: case K_PREC: case K_OPT:
	case K_FLASH: case K_FINETUNE: case K_LORA_RANK: case K_LORA_TARGETS:
	case K_LORA_BASE_FP8: case K_MLP_ACT_FP8: case K_LM_HEAD_TOKENS: case K_RECOMPUTE_FRAC:
	case K_CAPACITY: case K_PACKING: case K_MEAN_SEQ:
		store_training(&w->train, k, iv, dv, ev);
		break;
	case K_N:
		break;
	}
	return 0;
}

int val_set_key(struct vstate *st, struct val_case *c, int k,
		const char *v, int line, int col)
{
	long iv = 0;
	double dv = 0;
	int ev = -1;

	if (parse_value(st, k, v, line, col, &iv, &dv, &ev))
		return -1;
	return store_value(st, c, k, v, line, col, iv, dv, ev);
}

/* Built-in defaults: a GPT-style decoder in fp16 with Adam. */
void val_case_defaults(struct val_case *c)
{
	memset(c, 0, sizeof(*c));
	enter_family(c, "llm");
	c->w.train.precision = PREC_FP16;
	c->w.train.recompute = RECOMP_NONE;
	c->w.train.steps = 1;
	c->metric = VAL_ITER_TIME;
}

/*
 * The row's context-parallel, sharding and packing values against its
 * sequence and data parallelism; vcol[k] is where key k's value is (0 =
 * from a directive: the row's first column).  Returns 0 or -1.
 */
int val_check_layout(struct vstate *st, const struct workload *w,
			int line, const int *vcol)
{
	const struct plan *p = &w->plan;
	const struct training *t = &w->train;
	int cp = p->cp > 1 ? p->cp : 1;
	long model_par = (long)(p->tp > 1 ? p->tp : 1) *
			 (p->pp > 1 ? p->pp : 1) * cp;
	long dp = p->dp > 0 ? p->dp : p->count / model_par;

#define AT(k) (vcol[k] > 0 ? vcol[k] : 1)
	if (cp > 1 && fmod(t->seq_len, cp) != 0)
		return val_bad(st, line, AT(K_CP), "cp %d does not divide seq_len "
			   "%.0f (expected a divisor of the sequence length)",
			   cp, t->seq_len);
	if (p->shard_group > 0 && (dp < 1 || dp % p->shard_group))
		return val_bad(st, line, AT(K_SHARD), "shard_group %d does not "
			   "divide dp %ld (expected a divisor of %ld)",
			   p->shard_group, dp, dp);
	if (t->packing && !(t->mean_seq_len >= 1 &&
			    t->mean_seq_len <= t->seq_len))
		return val_bad(st, line, AT(K_MEAN_SEQ), "mean_seq_len %g is not "
			   "within 1 to seq_len %.0f (expected the mean real "
			   "length of the packed samples)", t->mean_seq_len,
			   t->seq_len);
	if (!t->packing && t->mean_seq_len > 0)
		return val_bad(st, line, AT(K_MEAN_SEQ), "mean_seq_len without "
			   "packing (expected packing true)");
	if (t->recompute_frac > 0 && t->recompute_frac < 1 &&
	    t->recompute != RECOMP_FULL)
		return val_bad(st, line, AT(K_RECOMPUTE_FRAC), "recompute_frac "
			   "without full recompute (expected recompute full)");
#undef AT
	return 0;
}

int val_finish_case(struct vstate *st, const struct vstate *rs, struct val_case *c, int lineno)
{
	const char *why;
	char head_why[160];

	/* a start-up inside the figure is spread over its steps */
	if (c->figure.warmup && c->figure.steps < 1)
		return val_bad(st, lineno, 1, "figure_warmup without "
			   "figure_steps (expected the number of steps "
			   "the figure averages)");
	/* a searched layout starts from none: a stated one would be ignored */
	if (c->layout == VAL_LAYOUT_FASTEST &&
	    (c->w.plan.tp > 1 || c->w.plan.pp > 1 || c->w.plan.micro_batch > 0))
		return val_bad(st, lineno, 1, "layout fastest with tp %d, pp %d and "
			   "micro_batch %d (expected tp 1, pp 1 and micro_batch 0: the "
			   "search chooses them)", c->w.plan.tp > 1 ? c->w.plan.tp : 1,
			   c->w.plan.pp > 1 ? c->w.plan.pp : 1, c->w.plan.micro_batch);
	/* LoRA needs its rank; full training has none. */
	if (c->w.train.finetune == FT_FULL && c->w.train.lora_rank > 0)
		return val_bad(st, lineno, 1, "lora_rank without "
			   "LoRA (expected finetune lora or "
			   "qlora)");
	if (c->w.train.finetune == FT_FULL && c->w.train.lora_targets)
		return val_bad(st, lineno, 1, "lora_targets without "
			   "LoRA (expected finetune lora or "
			   "qlora)");
	if (c->w.train.finetune != FT_FULL && c->w.train.lora_rank < 1)
		return val_bad(st, lineno, 1, "finetune %s without "
			   "lora_rank (expected lora_rank 1 to "
			   "%d)", finetune_names[c->w.train.finetune],
			   LORA_MAX_RANK);
	if (train_fp8_store_conflict(&c->w.train, &why))
		return val_bad(st, lineno, 1, "%s", why);
	if (wl_head_tokens_conflict(&c->w, head_why, sizeof(head_why)))
		return val_bad(st, lineno, 1, "%s", head_why);
	if (rs->have_measured == 1) {
		if (rs->metric_file < 0)
			return val_bad(st, lineno, 1, "'measured' "
				       "without 'metric' (expected a "
				       "metric such as iter_time_ms)");
		c->metric = keys[K_ITER_MS + rs->metric_file].metric;
		c->measured = rs->raw_measured * metric_scale[rs->metric_file];
	} else if (!rs->have_measured) {
		return val_bad(st, lineno, 1, "no measured value "
			       "(expected a column such as "
			       "iter_time_ms or measured)");
	}
	/* Narayanan et al.'s formula counts a language model's layers */
	if (c->metric == VAL_MEGATRON_TFLOPS && c->w.kind != WL_LLM)
		return val_bad(st, lineno, 1, "megatron_tflops for a case of the %s "
			       "family (expected a language model: the formula counts "
			       "its layers, width and vocabulary)", wl_kind_names[c->w.kind]);
	return 0;
}
