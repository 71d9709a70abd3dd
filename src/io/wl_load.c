/*
 * wl_load.c - workload files (kind: llm): the model, training and plan
 * sections and the checks across them, read over the node tree
 * (yaml_node.h) with field tables (fields.h); other kinds are handed to
 * their loaders.  Architectures are read by wl_arch.c and wl_hf.c.  The
 * file format is documented in docs/workload-format.md.
 *
 * Every loader fills a local copy and writes its out-parameter only when no
 * problem was found; problems accumulate in the caller's struct tc_diag.
 */
#include "wl_load.h"

#include "wl_campaign.h"
#include "wl_common.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "fw_load.h"
#include "yaml_load.h"

#define DEFAULT_PRECISION 2 /* bf16 in the precision names (precision.h) */

/* Ranges (inclusive) of the workload fields; docs/workload-format.md. */
#define MAX_GLOBAL_BATCH 1e9
#define MAX_TOKENS 1e16   /* more text than exists */
#define MAX_STEPS 1e10
#define MAX_COUNT 1e6     /* GPUs */
#define MAX_PARALLEL 65536
#define MAX_MICRO_BATCH 1e6
#define MAX_INTERLEAVE 1024
#define MAX_GPUS_PER_NODE 1024

/* The folder part of `path` ("" for a bare name) into buf. */
static void dir_of(const char *path, char *buf, size_t n)
{
	const char *slash = strrchr(path, '/');
	if (!slash) {
		buf[0] = '\0';
		return;
	}
	size_t len = (size_t)(slash - path) + 1; /* keep the slash */
	if (len >= n)
		len = n - 1;
	memcpy(buf, path, len);
	buf[len] = '\0';
}

/* arch_override() copies every field as an int. */
_Static_assert(sizeof(enum llm_act) == sizeof(int) && sizeof(enum llm_pos) == sizeof(int) &&
		       sizeof(enum llm_norm) == sizeof(int) && sizeof(enum llm_form) == sizeof(int),
	       "architecture enums must be int-sized");

/* ---------------------------------------------------------------------- */
/* Workload files                                                          */

/* Type checks for the three sections (FD_CUSTOM handlers that store
 * nothing); the sections are read afterwards.  Return 0 or -1. */
static int need_map(const struct yn_node *v, const char *key, const struct fd_ctx *ctx)
{
	return v->type == YN_MAP ? 0 : fd_type_error(v, key, "a mapping", ctx);
}
static int need_map_model(const struct yn_node *v, void *t, const struct fd_ctx *ctx)
{
	(void)t;
	return need_map(v, "model", ctx);
}
static int need_map_training(const struct yn_node *v, void *t, const struct fd_ctx *ctx)
{
	(void)t;
	return need_map(v, "training", ctx);
}
static int need_map_plan(const struct yn_node *v, void *t, const struct fd_ctx *ctx)
{
	(void)t;
	return need_map(v, "plan", ctx);
}

struct top_sec {
	char kind[16];
	char name[WL_NAME_LEN];
	int dummy;
};

/* The loader's state while reading one workload. */
struct wl_state {
	const char *file;
	struct tc_diag *d;
	struct fd_ctx ctx;
	const struct tc_datapath *dp;
	struct workload *w;
	int maxpos_from_seq; /* inline model without max_positions */
	int form_known;      /* the model section was read: w->llm.form holds */
};

/* Record where field f was set (the value node n; nothing if n is NULL). */
static void mark(struct wl_state *st, enum wl_field f, const struct yn_node *n)
{
	if (n)
		st->w->mark[f] = (struct tc_mark){ n->line, n->col };
}

/* --- model: ---------------------------------------------------------- */

struct model_sec {
	char preset[WL_NAME_LEN];
	char hf_config[DP_PATH_LEN];
	struct llm_arch a;
};
#define MODEL_HEAD 2 /* rows before the architecture keys */

/* Copy the fields of `from` named in `has` into `to`. */
static void arch_override(struct llm_arch *to, const struct llm_arch *from, uint32_t has)
{
	for (int i = 0; i < AK_COUNT; i++)
		if (has & (1u << i)) /* every arch field is an int-sized value */
			memcpy((char *)to + wla_fields[i].offset,
			       (const char *)from + wla_fields[i].offset, sizeof(int));
}

/* Read the model section into st->w->llm.  Returns 0 or -1. */
static int read_model(struct wl_state *st, const struct yn_node *map)
{
	struct fd_field table[MODEL_HEAD + AK_COUNT + 1];
	struct model_sec ms;
	uint64_t seen = 0;
	struct llm_arch a;
	uint32_t base_has = 0; /* keys the base (preset, hf config) fixed */

	memset(&ms, 0, sizeof(ms));
	table[0] = (struct fd_field){ .key = "preset", .type = FD_STR,
				      .offset = offsetof(struct model_sec, preset), .size = WL_NAME_LEN };
	table[1] = (struct fd_field){ .key = "hf_config", .type = FD_STR,
				      .offset = offsetof(struct model_sec, hf_config), .size = DP_PATH_LEN };
	size_t n = wla_put_fields(table, MODEL_HEAD, offsetof(struct model_sec, a), 0);
	table[n] = (struct fd_field){ 0 };
	if (fd_parse_map(map, table, &ms, "model", &st->ctx, &seen))
		return -1;

	const struct yn_node *pn = yn_map_get(map, "preset");
	const struct yn_node *hn = yn_map_get(map, "hf_config");
	uint32_t has = (uint32_t)(seen >> MODEL_HEAD);
	struct arch_marks m = { .file = st->file, .fallback = map };
	wla_marks_from(&m, map);

	memset(&a, 0, sizeof(a));
	if (pn && hn)
		return wlx_err(st->d, st->file, hn,
			       "model has both preset and hf_config (expected one of them)");
	if (pn) {
		int prc = wla_preset_at(st->dp, ms.preset, st->file, pn, &a, st->d);
		if (prc == -2)
			wlx_err(st->d, st->file, pn, "preset '%s' could not be loaded", ms.preset);
		if (prc)
			return -1;
		m.fallback = pn;
		base_has = (1u << AK_COUNT) - 1;
	} else if (hn) {
		char path[DP_PATH_LEN * 2];
		char dir[DP_PATH_LEN];
		dir_of(st->file, dir, sizeof(dir));
		if (ms.hf_config[0] == '/')
			dir[0] = '\0';
		snprintf(path, sizeof(path), "%s%s", dir, ms.hf_config);
		if (arch_load_hf_config(path, &a, st->d)) {
			wlx_err(st->d, st->file, hn, "hf_config '%s' could not be loaded", ms.hf_config);
			return -1;
		}
		m.fallback = hn;
		base_has = (1u << AK_COUNT) - 1;
	} else {
		/* Inline: the four sizes are required, the rest default to a
		 * GPT-2/GPT-3-style decoder (docs/workload-format.md). */
		static const enum arch_key need[] = { AK_LAYERS, AK_HIDDEN, AK_HEADS, AK_VOCAB };
		int missing = 0;
		for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
			if (!(has & (1u << need[i])) &&
			    !(need[i] == AK_LAYERS && ms.a.form == FORM_ENCODER_DECODER)) {
				wlx_err(st->d, st->file, map,
					"missing required key '%s' in model (expected preset, hf_config, or inline layers, hidden, heads and vocab)",
					wla_fields[need[i]].key);
				missing = 1;
			}
		if (missing)
			return -1;
		a.act = ACT_GELU;
		a.tied_embeddings = 1;
		a.positions = POS_LEARNED;
		a.norm = NORM_LAYERNORM;
		a.causal = 1;
		a.bias = 1;
		a.max_positions = 0; /* = seq_len, set by wl_load_doc */
		wla_copy_str(a.name, sizeof(a.name), "inline");
		wla_copy_str(a.source, sizeof(a.source), st->file);
	}

	if (base_has && (has & (1u << AK_FORM)) && ms.a.form != a.form)
		return wlx_err(st->d, st->file, wla_mark(&m, AK_FORM),
			       "arch %s does not apply to '%s', a%s model (expected a %s with arch: %s, or an inline model)",
			       wla_form_names[ms.a.form], a.name,
			       a.form == FORM_ENCODER_DECODER ? "n encoder-decoder" : " single-stack",
			       pn ? "preset" : "config", wla_form_names[ms.a.form]);

	/* Derived fields of the base follow overridden sizes unless the base
	 * set them to something else than the derived value. */
	uint32_t fin_has = base_has | has;
	if (base_has) {
		int hd_derived = a.heads > 0 && (long long)a.head_dim * a.heads == a.hidden;
		int kv_follows = a.kv_heads == a.heads;
		int dense = a.experts <= 1;
		if (!(has & (1u << AK_FFN)) && (has & (1u << AK_HIDDEN)) && a.ffn == 4 * a.hidden) {
			/* plain 4h MLPs keep their ratio */
			a.ffn = 4 * ms.a.hidden;
		}
		if ((has & ((1u << AK_HIDDEN) | (1u << AK_HEADS))) && hd_derived &&
		    !(has & (1u << AK_HEAD_DIM)))
			fin_has &= ~(1u << AK_HEAD_DIM);
		if ((has & (1u << AK_HEADS)) && kv_follows && !(has & (1u << AK_KV_HEADS)))
			fin_has &= ~(1u << AK_KV_HEADS);
		if (dense && (has & (1u << AK_EXPERTS)) && !(has & (1u << AK_TOP_K)))
			fin_has &= ~(1u << AK_TOP_K);
	} else {
		if (!(has & (1u << AK_FFN)))
			a.ffn = 4 * ms.a.hidden;
	}
	arch_override(&a, &ms.a, has);
	if (!(has & (1u << AK_MAX_POSITIONS)) && !base_has)
		st->maxpos_from_seq = 1;
	if (wla_finish(&a, fin_has, &m, st->d) || wla_form_finish(&a, has, &m, "model", st->d))
		return -1;
	st->w->llm = a;
	return 0;
}

/* --- training: ------------------------------------------------------- */

struct training_sec {
	int seq_len, global_batch, input_len, target_len;
	double tokens, steps;
	int precision, recompute, flash_attention, finetune, lora_rank;
	unsigned lora_targets;
	int lora_base_fp8, mlp_act_input_fp8, lm_head_tokens;
	enum optimizer optimizer;
	int packing;
	double mean_seq_len, capacity_factor, recompute_frac;
};

/* FD_CUSTOM: the optimizers a language model's file may name. */
static int parse_optimizer(const struct yn_node *v, void *at, const struct fd_ctx *ctx)
{
	return wlx_get_optimizer(v, WL_LLM, at, ctx);
}

/* The set a name of lora_target_names stands for; 0 for no such name. */
static unsigned lora_set_named(const char *name, size_t len)
{
	for (size_t k = 0; lora_target_names[k]; k++)
		if (strlen(lora_target_names[k]) == len && !strncmp(lora_target_names[k], name, len))
			return lora_target_sets[k];
	return 0;
}

/* FD_CUSTOM: the linears with LoRA adapters, the union of the names of a
 * list or of one value, whose names may be joined by '+' ("qkv+fc1", as
 * lora_targets_text() writes them). */
static int parse_lora_targets(const struct yn_node *v, void *at, const struct fd_ctx *ctx)
{
	static const char expect[] = "all, attention, mlp, qkv, proj, fc1, fc2";
	unsigned *set = at;
	size_t n = v->type == YN_SEQ ? v->count : 1;

	if (v->type == YN_MAP)
		return fd_type_error(v, "lora_targets", "a name or a list of names (all, attention, mlp, qkv, proj, fc1, fc2)",
				     ctx);
	if (n == 0)
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, v->line, v->col,
				  "lora_targets is an empty list (expected at least one of %s)", expect);
	*set = 0;
	for (size_t i = 0; i < n; i++) {
		const struct yn_node *x = v->type == YN_SEQ ? v->items[i] : v;
		if (x->type != YN_SCALAR)
			return fd_type_error(x, "lora_targets", "a name", ctx);
		for (const char *p = x->str;;) {
			size_t len = strcspn(p, "+");
			unsigned one = lora_set_named(p, len);
			if (!one)
				return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, x->line, x->col,
						  "lora_targets '%.*s' is not a linear of the block (expected one of %s, "
						  "or several joined by '+')", (int)len, p, expect);
			*set |= one;
			if (!p[len])
				break;
			p += len + 1;
		}
	}
	return 0;
}

/*
 * The lengths a model's form needs: seq_len for a single stack, input_len
 * and target_len for an encoder-decoder; packing only for the former.
 * Returns 0 or -1.
 */
static int training_lengths(struct wl_state *st, const struct yn_node *map,
			    const struct training_sec *ts)
{
	static const char *const lens[] = { "input_len", "target_len" };
	const struct llm_arch *a = &st->w->llm;
	const struct yn_node *sl = yn_map_get(map, "seq_len");
	int bad = 0;

	if (a->form != FORM_ENCODER_DECODER) {
		for (size_t i = 0; i < 2; i++)
			if (yn_map_get(map, lens[i]))
				bad |= wlx_err(st->d, st->file, yn_map_get(map, lens[i]),
					       "%s does not apply to '%s', a single-stack model (expected seq_len)",
					       lens[i], a->name);
		if (!sl)
			bad |= wlx_err(st->d, st->file, map, "missing required key 'seq_len' in training");
		return bad ? -1 : 0;
	}
	if (sl)
		bad |= wlx_err(st->d, st->file, sl,
			       "seq_len does not apply to '%s', an encoder-decoder model (expected input_len and target_len)",
			       a->name);
	for (size_t i = 0; i < 2; i++)
		if (!yn_map_get(map, lens[i]))
			bad |= wlx_err(st->d, st->file, map,
				       "missing required key '%s' in training (expected the %s tokens of a sample of '%s', an encoder-decoder model)",
				       lens[i], i ? "target's" : "encoder input's", a->name);
	if (ts->packing)
		bad |= wlx_err(st->d, st->file, yn_map_get(map, "packing"),
			       "packing is not modelled for encoder-decoder models (expected input_len and target_len as the lengths computed)");
	return bad ? -1 : 0;
}

/* LoRA's rank is needed by an adapter fine-tune, and its keys are refused
 * by full training.  Returns 0 or -1. */
static int check_lora_keys(struct wl_state *st, const struct yn_node *map,
			   const struct training_sec *ts)
{
	const struct yn_node *lr = yn_map_get(map, "lora_rank");
	const struct yn_node *lt = yn_map_get(map, "lora_targets");

	if (ts->finetune != FT_FULL && !lr)
		return wlx_err(st->d, st->file, yn_map_get(map, "finetune"),
			       "finetune %s needs lora_rank (expected lora_rank: 1 to %d in training)",
			       finetune_names[ts->finetune], LORA_MAX_RANK);
	if (ts->finetune == FT_FULL && lr)
		return wlx_err(st->d, st->file, lr,
			       "lora_rank is set but finetune is full (expected finetune: lora or qlora)");
	if (ts->finetune == FT_FULL && lt)
		return wlx_err(st->d, st->file, lt,
			       "lora_targets is set but finetune is full (expected finetune: lora or qlora)");
	return 0;
}

/* The fp8 storage keys into st->w->train, checked against the rest of it
 * (read before).  Returns 0 or -1. */
static int read_fp8_store(struct wl_state *st, const struct yn_node *map,
			  const struct training_sec *ts)
{
	const char *why, *key;

	st->w->train.lora_base_fp8 = ts->lora_base_fp8;
	st->w->train.mlp_act_input_fp8 = ts->mlp_act_input_fp8;
	key = train_fp8_store_conflict(&st->w->train, &why);
	return key ? wlx_err(st->d, st->file, yn_map_get(map, key), "%s", why) : 0;
}

/* lm_head_tokens into st->w->train, checked against the model (when it
 * was read) and the sample's length.  Returns 0 or -1. */
static int read_head_tokens(struct wl_state *st, const struct yn_node *map,
			    const struct training_sec *ts)
{
	char why[160];

	st->w->train.lm_head_tokens = ts->lm_head_tokens;
	if (st->form_known && wl_head_tokens_conflict(st->w, why, sizeof(why)))
		return wlx_err(st->d, st->file, yn_map_get(map, "lm_head_tokens"), "%s", why);
	return 0;
}

/* Where each field of training: was written, for the estimate's errors. */
static void mark_training(struct wl_state *st, const struct yn_node *map)
{
	static const struct { enum wl_field f; const char *key; } at[] = {
		{ WLF_SEQ_LEN, "seq_len" }, { WLF_GLOBAL_BATCH, "global_batch" },
		{ WLF_TOKENS, "tokens" }, { WLF_STEPS, "steps" },
		{ WLF_PRECISION, "precision" }, { WLF_RECOMPUTE, "recompute" },
		{ WLF_FINETUNE, "finetune" }, { WLF_LORA_RANK, "lora_rank" },
		{ WLF_PACKING, "packing" }, { WLF_MEAN_SEQ_LEN, "mean_seq_len" },
		{ WLF_CAPACITY_FACTOR, "capacity_factor" }, { WLF_INPUT_LEN, "input_len" },
		{ WLF_TARGET_LEN, "target_len" },
	};
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		mark(st, at[i].f, yn_map_get(map, at[i].key));
}

/* Read the training section into st->w->train.  Returns 0 or -1. */
static int read_training(struct wl_state *st, const struct yn_node *map)
{
#define TOFF(m) offsetof(struct training_sec, m)
	static const struct fd_field table[] = {
		{ .key = "seq_len", .type = FD_INT, .offset = TOFF(seq_len), .min = 1, .max = SEQ_LEN_MAX },
		{ .key = "input_len", .type = FD_INT, .offset = TOFF(input_len), .min = 1, .max = SEQ_LEN_MAX },
		{ .key = "target_len", .type = FD_INT, .offset = TOFF(target_len), .min = 1, .max = SEQ_LEN_MAX },
		{ .key = "global_batch", .type = FD_INT, .required = 1, .offset = TOFF(global_batch), .min = 1, .max = MAX_GLOBAL_BATCH },
		{ .key = "tokens", .type = FD_NUM, .offset = TOFF(tokens), .unit = TC_UNIT_COUNT, .min = 1, .max = MAX_TOKENS },
		{ .key = "steps", .type = FD_NUM, .offset = TOFF(steps), .unit = TC_UNIT_COUNT, .min = 1, .max = MAX_STEPS },
		{ .key = "precision", .type = FD_ENUM, .offset = TOFF(precision), .names = tc_llm_train_prec_names },
		{ .key = "optimizer", .type = FD_CUSTOM, .offset = TOFF(optimizer), .parse = parse_optimizer },
		{ .key = "recompute", .type = FD_ENUM, .offset = TOFF(recompute), .names = recompute_names },
		{ .key = "recompute_frac", .type = FD_NUM, .offset = TOFF(recompute_frac), .unit = TC_UNIT_COUNT,
		  .min = RECOMPUTE_FRAC_MIN, .max = 1, .expect = RECOMPUTE_FRAC_EXPECT },
		{ .key = "flash_attention", .type = FD_BOOL, .offset = TOFF(flash_attention) },
		{ .key = "finetune", .type = FD_ENUM, .offset = TOFF(finetune), .names = finetune_names },
		{ .key = "lora_rank", .type = FD_INT, .offset = TOFF(lora_rank), .min = 1, .max = LORA_MAX_RANK },
		{ .key = "lora_targets", .type = FD_CUSTOM, .offset = TOFF(lora_targets), .parse = parse_lora_targets },
		{ .key = "lora_base_fp8", .type = FD_BOOL, .offset = TOFF(lora_base_fp8) },
		{ .key = "mlp_act_input_fp8", .type = FD_BOOL, .offset = TOFF(mlp_act_input_fp8) },
		{ .key = "lm_head_tokens", .type = FD_INT, .offset = TOFF(lm_head_tokens), .min = 1, .max = SEQ_LEN_MAX },
		{ .key = "packing", .type = FD_BOOL, .offset = TOFF(packing) },
		{ .key = "mean_seq_len", .type = FD_NUM, .offset = TOFF(mean_seq_len), .unit = TC_UNIT_COUNT, .min = 1,
		  .max = SEQ_LEN_MAX },
		{ .key = "capacity_factor", .type = FD_NUM, .offset = TOFF(capacity_factor), .unit = TC_UNIT_COUNT,
		  .min = 1, .max = CAPACITY_FACTOR_MAX, .expect = CAPACITY_FACTOR_EXPECT },
		{ 0 },
	};
#undef TOFF
	struct training_sec ts = {
		.precision = DEFAULT_PRECISION,
		.optimizer = OPT_ADAMW,
		.recompute = RECOMP_NONE,
		.flash_attention = 1,
		.finetune = FT_FULL,
	};
	uint64_t seen = 0;
	struct workload *w = st->w;
	int bad = 0;

	if (fd_parse_map(map, table, &ts, "training", &st->ctx, &seen))
		bad = 1;
	const struct yn_node *tok = yn_map_get(map, "tokens");
	const struct yn_node *stp = yn_map_get(map, "steps");
	mark_training(st, map);

	if (st->form_known && training_lengths(st, map, &ts))
		bad = 1;
	if (tok && stp) {
		const struct yn_node *later = (stp->line > tok->line ||
					       (stp->line == tok->line && stp->col > tok->col)) ? stp : tok;
		bad |= wlx_err(st->d, st->file, later,
			       "training has both tokens and steps (expected one of them)");
	} else if (!tok && !stp) {
		bad |= wlx_err(st->d, st->file, map,
			       "missing required key 'tokens' in training (expected tokens or steps)");
	}
	if (bad)
		return -1;
	if (stp && ts.steps != floor(ts.steps))
		return wlx_err(st->d, st->file, stp, "steps %g is not a whole number (expected an integer)",
			       ts.steps);
	/* An encoder-decoder's tokens are its inputs' (docs/model.md). */
	int tok_len = ts.input_len > 0 ? ts.input_len : ts.seq_len;
	if (stp && ts.steps * ts.global_batch * (double)tok_len > MAX_TOKENS)
		return wlx_err(st->d, st->file, stp,
			       "steps %.0f x global_batch %d x %s %d = %.3g tokens is out of range (expected at most 1e16 tokens)",
			       ts.steps, ts.global_batch, ts.input_len > 0 ? "input_len" : "seq_len", tok_len,
			       ts.steps * ts.global_batch * (double)tok_len);
	if (check_lora_keys(st, map, &ts))
		return -1;

	w->train.seq_len = ts.input_len > 0 ? ts.target_len : ts.seq_len;
	w->train.input_len = ts.input_len;
	w->train.target_len = ts.target_len;
	if (ts.input_len > 0)
		mark(st, WLF_SEQ_LEN, yn_map_get(map, "target_len"));
	w->train.global_batch = ts.global_batch;
	w->train.tokens = tok ? ts.tokens : 0;
	w->train.steps = stp ? ts.steps : 0;
	w->train.precision = tc_llm_train_precs[ts.precision];
	w->train.optimizer = ts.optimizer;
	w->train.recompute = (enum recompute)ts.recompute;
	const struct yn_node *rf = yn_map_get(map, "recompute_frac");
	if (rf && ts.recompute != RECOMP_FULL)
		return wlx_err(st->d, st->file, rf,
			       "recompute_frac is set but recompute is %s (expected recompute: full, of which it is the share of the layers)",
			       recompute_names[ts.recompute]);
	w->train.recompute_frac = rf ? ts.recompute_frac : 0;
	w->train.flash_attention = ts.flash_attention;
	w->train.finetune = (enum finetune)ts.finetune;
	w->train.lora_rank = ts.finetune == FT_FULL ? 0 : ts.lora_rank;
	w->train.lora_targets = ts.lora_targets;
	const struct yn_node *pk = yn_map_get(map, "packing");
	const struct yn_node *mn = yn_map_get(map, "mean_seq_len");
	if (ts.packing && !mn)
		return wlx_err(st->d, st->file, pk,
			       "packing needs mean_seq_len (expected mean_seq_len: the mean real tokens per sample)");
	if (mn && !ts.packing)
		return wlx_err(st->d, st->file, mn,
			       "mean_seq_len is set but packing is not (expected packing: true)");
	if (mn && ts.mean_seq_len > ts.seq_len)
		return wlx_err(st->d, st->file, mn,
			       "mean_seq_len %g is longer than seq_len %d (expected at most %d)",
			       ts.mean_seq_len, ts.seq_len, ts.seq_len);
	w->train.packing = ts.packing;
	w->train.mean_seq_len = ts.packing ? ts.mean_seq_len : 0;
	w->train.capacity_factor = ts.capacity_factor;
	if (read_fp8_store(st, map, &ts))
		return -1;
	return read_head_tokens(st, map, &ts);
}

/* --- plan: ----------------------------------------------------------- */

struct plan_sec {
	char gpu[GPU_ID_LEN];
	int count, gpus_per_node, tp, pp, ep, cp, zero, shard_group, micro_batch, interleave;
	int first_stage_layers, last_stage_layers;
	int schedule; /* index into sched_names + 1, -1 = none named */
	int sequence_parallel, cuda_graphs, compile, grad_overlap, tp_comm_overlap;
	int dummy;
};

/* plan.dp: "auto" or an integer.  Returns 0 or -1. */
static int read_dp(struct wl_state *st, const struct yn_node *v, int *out)
{
	if (v->type == YN_SCALAR && !strcmp(v->str, "auto")) {
		*out = 0;
		return 0;
	}
	if (v->type == YN_SCALAR && v->style == YN_PLAIN && v->str[0] &&
	    strchr("0123456789+-.", v->str[0]))
		return fd_get_int(v, "dp", 1, MAX_PARALLEL, out, &st->ctx);
	if (v->type != YN_SCALAR)
		return fd_type_error(v, "dp", "auto or an integer from 1 to 65536", &st->ctx);
	return wlx_err(st->d, st->file, v, "dp '%s' is not valid (expected auto or an integer from 1 to %d)",
		       v->str, MAX_PARALLEL);
}

/* Read the plan section into st->w->plan.  Returns 0 or -1. */
static int read_plan(struct wl_state *st, const struct yn_node *map)
{
#define POFF(m) offsetof(struct plan_sec, m)
	static const struct fd_field table[] = {
		{ .key = "gpu", .type = FD_STR, .offset = POFF(gpu), .size = GPU_ID_LEN },
		{ .key = "count", .type = FD_INT, .required = 1, .offset = POFF(count), .min = 1, .max = MAX_COUNT,
		  .expect = "a whole number of GPUs from 1 to 1000000" },
		{ .key = "gpus_per_node", .type = FD_INT, .offset = POFF(gpus_per_node), .min = 1, .max = MAX_GPUS_PER_NODE },
		{ .key = "tp", .type = FD_INT, .offset = POFF(tp), .min = 1, .max = MAX_PARALLEL },
		{ .key = "pp", .type = FD_INT, .offset = POFF(pp), .min = 1, .max = MAX_PARALLEL },
		{ .key = "dp", .type = FD_IGNORE, .offset = POFF(dummy) },
		{ .key = "ep", .type = FD_INT, .offset = POFF(ep), .min = 1, .max = MAX_PARALLEL },
		{ .key = "cp", .type = FD_INT, .offset = POFF(cp), .min = 1, .max = MAX_PARALLEL },
		{ .key = "zero", .type = FD_INT, .offset = POFF(zero), .min = 0, .max = 3 },
		{ .key = "shard_group", .type = FD_INT, .offset = POFF(shard_group), .min = 1, .max = MAX_PARALLEL },
		{ .key = "micro_batch", .type = FD_INT, .offset = POFF(micro_batch), .min = 1, .max = MAX_MICRO_BATCH },
		{ .key = "interleave", .type = FD_INT, .offset = POFF(interleave), .min = 1, .max = MAX_INTERLEAVE },
		{ .key = "first_stage_layers", .type = FD_INT, .offset = POFF(first_stage_layers), .min = 1,
		  .max = MAX_PARALLEL },
		{ .key = "last_stage_layers", .type = FD_INT, .offset = POFF(last_stage_layers), .min = 1,
		  .max = MAX_PARALLEL },
		{ .key = "schedule", .type = FD_ENUM, .offset = POFF(schedule), .names = sched_names + 1 },
		{ .key = "sequence_parallel", .type = FD_BOOL, .offset = POFF(sequence_parallel) },
		{ .key = "cuda_graphs", .type = FD_BOOL, .offset = POFF(cuda_graphs) },
		{ .key = "compile", .type = FD_BOOL, .offset = POFF(compile) },
		{ .key = "grad_overlap", .type = FD_BOOL, .offset = POFF(grad_overlap) },
		{ .key = "tp_comm_overlap", .type = FD_BOOL, .offset = POFF(tp_comm_overlap) },
		{ .key = "network", .type = FD_IGNORE, .offset = POFF(dummy) },
		{ .key = "framework", .type = FD_IGNORE, .offset = POFF(dummy) },
		{ 0 },
	};
#undef POFF
	/* micro_batch 0: none given, the model takes the fastest that fits */
	struct plan_sec ps = { .tp = 1, .pp = 1, .ep = 1, .cp = 1, .zero = 1, .micro_batch = 0,
			       .interleave = 1, .schedule = -1, .sequence_parallel = -1,
			       /* PyTorch DDP and FSDP overlap by default. */
			       .grad_overlap = 1 };
	struct plan *p = &st->w->plan;
	uint64_t seen = 0;
	int bad = 0;

	if (fd_parse_map(map, table, &ps, "plan", &st->ctx, &seen))
		bad = 1;
	const struct yn_node *gn = yn_map_get(map, "gpu");
	const struct yn_node *dn = yn_map_get(map, "dp");
	const struct yn_node *nn = yn_map_get(map, "network");
	mark(st, WLF_GPU, gn);
	mark(st, WLF_COUNT, yn_map_get(map, "count"));
	mark(st, WLF_GPUS_PER_NODE, yn_map_get(map, "gpus_per_node"));
	mark(st, WLF_TP, yn_map_get(map, "tp"));
	mark(st, WLF_PP, yn_map_get(map, "pp"));
	mark(st, WLF_DP, dn);
	mark(st, WLF_EP, yn_map_get(map, "ep"));
	mark(st, WLF_ZERO, yn_map_get(map, "zero"));
	mark(st, WLF_CP, yn_map_get(map, "cp"));
	mark(st, WLF_SHARD_GROUP, yn_map_get(map, "shard_group"));
	mark(st, WLF_MICRO_BATCH, yn_map_get(map, "micro_batch"));
	mark(st, WLF_INTERLEAVE, yn_map_get(map, "interleave"));
	mark(st, WLF_FIRST_STAGE_LAYERS, yn_map_get(map, "first_stage_layers"));
	mark(st, WLF_LAST_STAGE_LAYERS, yn_map_get(map, "last_stage_layers"));
	mark(st, WLF_SCHEDULE, yn_map_get(map, "schedule"));
	mark(st, WLF_SEQUENCE_PARALLEL, yn_map_get(map, "sequence_parallel"));
	mark(st, WLF_NETWORK, nn);

	if (gn && ps.gpu[0] && !wl_gpu_id_ok(ps.gpu))
		bad |= wlx_err(st->d, st->file, gn,
			       "gpu '%s' is not a catalog id (expected letters, digits, '.', '-', '_', and ':PROFILE' for a MIG slice, as in a100-80gb-sxm:1g.10gb)",
			       ps.gpu);
	p->dp = 0;
	if (dn && read_dp(st, dn, &p->dp))
		bad = 1;
	wl_default_network(p);
	if (nn && wl_read_network(nn, st->file, p, st->d))
		bad = 1;
	const struct yn_node *fn = yn_map_get(map, "framework");
	struct eff_stack stack = { 0 }; /* the workload keeps its id */
	if (fn ? fw_resolve(st->dp, st->file, fn, &stack, st->d) :
		 fw_resolve_default(st->dp, WL_LLM, &stack, st->d))
		bad = 1;
	snprintf(p->framework, sizeof(p->framework), "%s", stack.id);
	if (bad)
		return -1;

	wla_copy_str(p->gpu, sizeof(p->gpu), ps.gpu);
	p->count = ps.count;
	p->gpus_per_node = ps.gpus_per_node;
	p->tp = ps.tp;
	p->pp = ps.pp;
	p->ep = ps.ep;
	p->cp = ps.cp;
	p->zero = ps.zero;
	p->shard_group = ps.shard_group;
	p->micro_batch = ps.micro_batch;
	p->interleave = ps.interleave;
	p->first_stage_layers = ps.first_stage_layers;
	p->last_stage_layers = ps.last_stage_layers;
	p->schedule = (enum pp_schedule)(ps.schedule + 1);
	p->sequence_parallel = ps.sequence_parallel < 0 ? ps.tp > 1 : ps.sequence_parallel;
	p->cuda_graphs = ps.cuda_graphs;
	p->compile = ps.compile;
	p->grad_overlap = ps.grad_overlap;
	p->tp_comm_overlap = ps.tp_comm_overlap;

	/* The layout must use every GPU. */
	double model_par = (double)p->tp * p->pp * p->cp;
	char cp_txt[24] = "";
	if (p->cp > 1)
		snprintf(cp_txt, sizeof(cp_txt), " x cp %d", p->cp);
	if (p->dp > 0 && model_par * p->dp != p->count)
		return wlx_err(st->d, st->file, dn,
			       "dp %d x tp %d x pp %d%s = %.0f GPUs does not match count %d (expected dp: auto or a product equal to count)",
			       p->dp, p->tp, p->pp, cp_txt, model_par * p->dp, p->count);
	if (p->dp == 0 && fmod((double)p->count, model_par) != 0)
		return wlx_err(st->d, st->file, yn_map_get(map, "count"),
			       "count %d is not a multiple of tp x pp%s = %.0f (expected a multiple, so data parallelism is a whole number)",
			       p->count, p->cp > 1 ? " x cp" : "", model_par);
	return 0;
}

/* Checks that need more than one section.  Returns 0 or -1. */
static int cross_checks(struct wl_state *st, const struct yn_node *model,
			const struct yn_node *training, const struct yn_node *plan)
{
	const struct workload *w = st->w;
	const struct llm_arch *a = &w->llm;
	int bad = 0;
	const struct yn_node *ep = yn_map_get(plan, "ep");
	if (w->plan.ep > 1 && a->experts <= 1)
		bad |= wlx_err(st->d, st->file, ep,
			       "ep %d needs a mixture-of-experts model (expected ep: 1 for a dense model)",
			       w->plan.ep);
	else if (w->plan.ep > 1 && a->experts % w->plan.ep)
		bad |= wlx_err(st->d, st->file, ep,
			       "ep %d does not divide %d experts (expected a divisor of %d)",
			       w->plan.ep, a->experts, a->experts);
	const struct yn_node *mb = yn_map_get(plan, "micro_batch");
	if (w->plan.micro_batch > w->train.global_batch)
		bad |= wlx_err(st->d, st->file, mb,
			       "micro_batch %d is larger than global_batch %.0f (expected at most %.0f)",
			       w->plan.micro_batch, w->train.global_batch, w->train.global_batch);
	if (a->form == FORM_ENCODER_DECODER) {
		static const char *const lens[] = { "input_len", "target_len" };
		double len[2] = { w->train.input_len, w->train.target_len };
		for (size_t i = 0; i < 2 && a->positions == POS_LEARNED; i++)
			if (len[i] > a->max_positions)
				bad |= wlx_err(st->d, st->file, yn_map_get(training, lens[i]),
					       "%s %.0f is longer than the model's %d learned positions (expected at most %d)",
					       lens[i], len[i], a->max_positions, a->max_positions);
	} else if (a->positions == POS_LEARNED && w->train.seq_len > a->max_positions) {
		const struct yn_node *at = yn_map_get(training, "seq_len");
		bad |= wlx_err(st->d, st->file, at ? at : model,
			       "seq_len %.0f is longer than the model's %d learned positions (expected at most %d, or model: max_positions: %.0f)",
			       w->train.seq_len, a->max_positions, a->max_positions, w->train.seq_len);
	}
	return bad ? -1 : 0;
}

int wl_load_doc(const struct yn_doc *doc, const struct tc_datapath *dp,
		struct workload *out, struct tc_diag *d)
{
	static const struct fd_field top_table[] = {
		{ .key = "kind", .type = FD_STR, .required = 1, .offset = offsetof(struct top_sec, kind),
		  .size = sizeof(((struct top_sec *)0)->kind) },
		{ .key = "name", .type = FD_STR, .offset = offsetof(struct top_sec, name), .size = WL_NAME_LEN },
		{ .key = "model", .type = FD_CUSTOM, .required = 1, .offset = offsetof(struct top_sec, dummy),
		  .parse = need_map_model },
		{ .key = "training", .type = FD_CUSTOM, .required = 1, .offset = offsetof(struct top_sec, dummy),
		  .parse = need_map_training },
		{ .key = "plan", .type = FD_CUSTOM, .required = 1, .offset = offsetof(struct top_sec, dummy),
		  .parse = need_map_plan },
		{ .key = "campaign", .type = FD_IGNORE, .offset = offsetof(struct top_sec, dummy) },
		{ 0 },
	};
	struct workload w;
	struct top_sec top;
	struct wl_state st = { .file = doc->file, .d = d, .dp = dp, .w = &w };
	int bad = 0;

	assert(doc && dp && out && d);
	st.ctx = (struct fd_ctx){ .file = doc->file, .d = d };
	memset(&w, 0, sizeof(w));
	memset(&top, 0, sizeof(top));
	const struct yn_node *root = doc->root;
	if (!root || root->type != YN_MAP)
		return wlx_err(d, doc->file, root,
			       "the file holds %s (expected a mapping with kind, model, training and plan)",
			       root ? yn_type_name(root) : "nothing");
	const struct yn_node *kn = yn_map_get(root, "kind");
	if (kn && kn->type == YN_SCALAR && !strcmp(kn->str, "vision"))
		return wl_vision_load_doc(doc, dp, out, d);
	if (kn && kn->type == YN_SCALAR && !strcmp(kn->str, "recsys"))
		return wl_recsys_load_doc(doc, dp, out, d);
	if (kn && kn->type == YN_SCALAR && strcmp(kn->str, "llm"))
		return wlx_err(d, doc->file, kn,
			       "kind '%s' is not a workload kind (expected kind: llm, vision or recsys)", kn->str);
	if (fd_parse_map(root, top_table, &top, "workload", &st.ctx, NULL))
		bad = 1;

	w.kind = WL_LLM;
	wla_copy_str(w.file, sizeof(w.file), doc->file);
	if (top.name[0])
		wla_copy_str(w.name, sizeof(w.name), top.name);
	else
		wla_stem(doc->file, w.name, sizeof(w.name));

	const struct yn_node *model = yn_map_get(root, "model");
	const struct yn_node *training = yn_map_get(root, "training");
	const struct yn_node *plan = yn_map_get(root, "plan");
	/* Sections in file order, so messages come out in that order. */
	int ok_m = model && model->type == YN_MAP && read_model(&st, model) == 0;
	st.form_known = ok_m;
	int ok_t = training && training->type == YN_MAP && read_training(&st, training) == 0;
	if (ok_m && ok_t && st.maxpos_from_seq)
		w.llm.max_positions = (int)fmax(w.train.seq_len, w.train.input_len);
	int ok_p = plan && plan->type == YN_MAP && read_plan(&st, plan) == 0;
	if (model)
		mark(&st, WLF_MODEL, model);
	if (wl_read_campaign(root, doc->file, &w, d))
		bad = 1;
	if (bad || !ok_t || !ok_m || !ok_p)
		return -1;
	if (cross_checks(&st, model, training, plan))
		return -1;
	*out = w;
	return 0;
}

int wl_load_file(const char *path, const struct tc_datapath *dp, struct workload *w,
		 struct tc_diag *d)
{
	struct yn_doc doc = { 0 };
	assert(path && dp && w && d);
	if (yn_load_file(path, &doc, d))
		return -1;
	int rc = wl_load_doc(&doc, dp, w, d);
	yn_doc_release(&doc);
	return rc;
}

/* The scalar `family` at the document's root, else "". */
void wl_arch_family(const struct yn_doc *doc, char *buf, size_t len)
{
	const struct yn_node *f = doc && doc->root ?
		yn_map_get(doc->root, "family") : NULL;
	snprintf(buf, len, "%s", f && f->type == YN_SCALAR ? f->str : "");
}
