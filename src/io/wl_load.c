/*
 * wl_load.c - workload files (kind: llm), architecture presets and Hugging
 * Face config.json files, read over the node tree (yaml_node.h) with field
 * tables (fields.h).  The file format is documented in docs/workload-format.md.
 *
 * Every loader fills a local copy and writes its out-parameter only when no
 * problem was found; problems accumulate in the caller's struct tc_diag.
 */
#include "wl_load.h"
#include "wl_common.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "fw_load.h"
#include "../model/schedule.h"

/* Names in the order of the enums they map to (workload.h, precision.h). */
static const char *const act_names[] = { "gelu", "swiglu", "relu", "geglu", NULL };
static const char *const pos_names[] = { "learned", "rope", "alibi", "relative", NULL };
static const char *const form_names[] = { "single-stack", "encoder-decoder", NULL };
static const char *const norm_names[] = { "layernorm", "rmsnorm", NULL };
static const char *const optimizer_names[] = { "adamw", "sgd", "adafactor", NULL };
static const char *const recompute_names[] = { "none", "selective", "full", NULL };
static const char *const finetune_names[] = { "full", "lora", "qlora", NULL };
/* Training precisions; index i maps to prec_map[i]. */
static const char *const precision_names[] = { "fp32", "tf32", "bf16", "fp16", "fp8", NULL };
static const enum tc_prec prec_map[] = { PREC_FP32, PREC_TF32, PREC_BF16, PREC_FP16, PREC_FP8 };
#define DEFAULT_PRECISION 2 /* bf16 */

/* Ranges (inclusive) of the workload fields; docs/workload-format.md. */
#define MAX_SEQ_LEN 1e7
#define MAX_GLOBAL_BATCH 1e9
#define MAX_TOKENS 1e16   /* more text than exists */
#define MAX_STEPS 1e10
#define MAX_COUNT 1e6     /* GPUs */
#define MAX_PARALLEL 65536
#define MAX_MICRO_BATCH 1e6
#define MAX_INTERLEAVE 1024
#define MAX_GPUS_PER_NODE 1024
#define MAX_LORA_RANK 65536

/* ---------------------------------------------------------------------- */
/* Small helpers                                                           */

/* Copy `s` into buf (size n), truncating; returns buf. */
static char *copy_str(char *buf, size_t n, const char *s)
{
	assert(n > 0);
	snprintf(buf, n, "%s", s ? s : "");
	return buf;
}

/* Report a problem at node n (or nowhere if n is NULL). */
static int err_at(struct tc_diag *d, const char *file, const struct yn_node *n,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int err_at(struct tc_diag *d, const char *file, const struct yn_node *n,
		  const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tc_diag_vat(d, TC_EXIT_INPUT, file, n ? n->line : 0, n ? n->col : 0, fmt, ap);
	va_end(ap);
	return -1;
}

/* True if s is a non-empty name made of [A-Za-z0-9._-] not starting with '.'. */
static int safe_name(const char *s)
{
	if (!s[0] || s[0] == '.')
		return 0;
	for (const char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '-' || *p == '_'))
			return 0;
	return 1;
}

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

/* The file name of `path` without folder and without a ".yaml"/".json"
 * extension, into buf. */
static void stem_of(const char *path, char *buf, size_t n)
{
	const char *slash = strrchr(path, '/');
	copy_str(buf, n, slash ? slash + 1 : path);
	char *dot = strrchr(buf, '.');
	if (dot && (!strcmp(dot, ".yaml") || !strcmp(dot, ".yml") || !strcmp(dot, ".json")))
		*dot = '\0';
}

/* ---------------------------------------------------------------------- */
/* Architecture fields                                                     */

/* Keys of an architecture, in this order in every table built from it. */
enum arch_key {
	AK_LAYERS, AK_HIDDEN, AK_HEADS, AK_KV_HEADS, AK_HEAD_DIM, AK_FFN,
	AK_FFN_ACT, AK_VOCAB, AK_TIED, AK_EXPERTS, AK_TOP_K, AK_POSITIONS,
	AK_NORM, AK_CAUSAL, AK_BIAS, AK_MAX_POSITIONS, AK_FORM, AK_ENC_LAYERS,
	AK_DEC_LAYERS, AK_REL_BUCKETS, AK_COUNT
};

/* arch_override() copies every field as an int. */
_Static_assert(sizeof(enum llm_act) == sizeof(int) && sizeof(enum llm_pos) == sizeof(int) &&
		       sizeof(enum llm_norm) == sizeof(int) && sizeof(enum llm_form) == sizeof(int),
	       "architecture enums must be int-sized");

#define AOFF(m) offsetof(struct llm_arch, m)
static const struct fd_field arch_fields[AK_COUNT] = {
	[AK_LAYERS] = { .key = "layers", .type = FD_INT, .offset = AOFF(layers), .min = 1, .max = 10000 },
	[AK_HIDDEN] = { .key = "hidden", .type = FD_INT, .offset = AOFF(hidden), .min = 1, .max = 1e6 },
	[AK_HEADS] = { .key = "heads", .type = FD_INT, .offset = AOFF(heads), .min = 1, .max = 100000 },
	[AK_KV_HEADS] = { .key = "kv_heads", .type = FD_INT, .offset = AOFF(kv_heads), .min = 1, .max = 100000 },
	[AK_HEAD_DIM] = { .key = "head_dim", .type = FD_INT, .offset = AOFF(head_dim), .min = 1, .max = 65536 },
	[AK_FFN] = { .key = "ffn", .type = FD_INT, .offset = AOFF(ffn), .min = 1, .max = 1e8 },
	[AK_FFN_ACT] = { .key = "ffn_act", .type = FD_ENUM, .offset = AOFF(act), .names = act_names },
	[AK_VOCAB] = { .key = "vocab", .type = FD_INT, .offset = AOFF(vocab), .min = 1, .max = 1e7 },
	[AK_TIED] = { .key = "tied_embeddings", .type = FD_BOOL, .offset = AOFF(tied_embeddings) },
	[AK_EXPERTS] = { .key = "experts", .type = FD_INT, .offset = AOFF(experts), .min = 1, .max = 65536 },
	[AK_TOP_K] = { .key = "top_k", .type = FD_INT, .offset = AOFF(top_k), .min = 1, .max = 65536 },
	[AK_POSITIONS] = { .key = "positions", .type = FD_ENUM, .offset = AOFF(positions), .names = pos_names },
	[AK_NORM] = { .key = "norm", .type = FD_ENUM, .offset = AOFF(norm), .names = norm_names },
	[AK_CAUSAL] = { .key = "causal", .type = FD_BOOL, .offset = AOFF(causal) },
	[AK_BIAS] = { .key = "bias", .type = FD_BOOL, .offset = AOFF(bias) },
	[AK_MAX_POSITIONS] = { .key = "max_positions", .type = FD_INT, .offset = AOFF(max_positions), .min = 1, .max = 1e8 },
	[AK_FORM] = { .key = "arch", .type = FD_ENUM, .offset = AOFF(form), .names = form_names },
	[AK_ENC_LAYERS] = { .key = "encoder_layers", .type = FD_INT, .offset = AOFF(encoder_layers), .min = 1, .max = 10000 },
	[AK_DEC_LAYERS] = { .key = "decoder_layers", .type = FD_INT, .offset = AOFF(decoder_layers), .min = 1, .max = 10000 },
	[AK_REL_BUCKETS] = { .key = "relative_buckets", .type = FD_INT, .offset = AOFF(rel_buckets), .min = 1, .max = 65536 },
};

/* Keys an architecture file must have (kv_heads, head_dim, experts and
 * top_k have defaults; layers and causal, which a single stack needs and
 * an encoder-decoder may not have, are checked by arch_form_finish()). */
static const uint32_t arch_file_required =
	(1u << AK_HIDDEN) | (1u << AK_HEADS) | (1u << AK_FFN) |
	(1u << AK_FFN_ACT) | (1u << AK_VOCAB) | (1u << AK_TIED) | (1u << AK_POSITIONS) |
	(1u << AK_NORM) | (1u << AK_BIAS) | (1u << AK_MAX_POSITIONS);

/*
 * Append the architecture rows to table t at t[at..], with offsets moved by
 * `base` and `required` set from the bit mask.  Returns the next free index.
 */
static size_t put_arch_fields(struct fd_field *t, size_t at, size_t base,
			      uint32_t required)
{
	for (int i = 0; i < AK_COUNT; i++) {
		t[at] = arch_fields[i];
		t[at].offset += base;
		t[at].required = (required >> i) & 1u;
		at++;
	}
	return at;
}

/* Where each architecture field came from, for cross-field messages. */
struct arch_marks {
	const char *file;               /* file the nodes belong to */
	const struct yn_node *at[AK_COUNT]; /* the value node, or NULL */
	const struct yn_node *fallback; /* used for fields without a node */
};

/* The node to blame for field k: its own value, else the fallback. */
static const struct yn_node *amark(const struct arch_marks *m, enum arch_key k)
{
	return m->at[k] ? m->at[k] : m->fallback;
}

/* Record the value nodes of the arch keys present in `map`. */
static void arch_marks_from(struct arch_marks *m, const struct yn_node *map)
{
	for (int i = 0; i < AK_COUNT; i++)
		if (!m->at[i])
			m->at[i] = yn_map_get(map, arch_fields[i].key);
}

/*
 * Fill the fields that default from others (kv_heads = heads, head_dim =
 * hidden / heads, experts 0 -> 1 = dense) and check the relations between
 * fields.  `has` is the bit mask of keys that were given.  Returns 0 or -1.
 */
static int arch_finish(struct llm_arch *a, uint32_t has, const struct arch_marks *m,
		       struct tc_diag *d)
{
	int bad = 0;
	if (!(has & (1u << AK_KV_HEADS)))
		a->kv_heads = a->heads;
	if (!(has & (1u << AK_HEAD_DIM))) {
		if (a->hidden % a->heads) {
			bad |= err_at(d, m->file, amark(m, AK_HEADS),
				      "heads %d does not divide hidden %d (expected a divisor, or head_dim set explicitly)",
				      a->heads, a->hidden);
		}
		a->head_dim = a->hidden / a->heads;
	}
	if (a->kv_heads > a->heads)
		bad |= err_at(d, m->file, amark(m, AK_KV_HEADS),
			      "kv_heads %d is more than heads %d (expected at most the number of query heads)",
			      a->kv_heads, a->heads);
	else if (a->heads % a->kv_heads)
		bad |= err_at(d, m->file, amark(m, AK_KV_HEADS),
			      "kv_heads %d does not divide heads %d (expected a divisor of %d)",
			      a->kv_heads, a->heads, a->heads);
	if (a->experts <= 1) {
		if (has & (1u << AK_TOP_K) && a->top_k > 1)
			bad |= err_at(d, m->file, amark(m, AK_TOP_K),
				      "top_k %d needs a mixture of experts (expected experts greater than 1)",
				      a->top_k);
		a->experts = 1;
		a->top_k = 1;
	} else if (!(has & (1u << AK_TOP_K))) {
		bad |= err_at(d, m->file, amark(m, AK_EXPERTS),
			      "experts %d without top_k (expected top_k: experts used per token)",
			      a->experts);
	} else if (a->top_k > a->experts) {
		bad |= err_at(d, m->file, amark(m, AK_TOP_K),
			      "top_k %d is more than experts %d (expected at most %d)",
			      a->top_k, a->experts, a->experts);
	}
	return bad ? -1 : 0;
}

/*
 * Check the keys that depend on the architecture's form and set `layers` of
 * an encoder-decoder to both stacks' (for readers of a single stack).
 * `has`: the keys given where m points; `what`: the mapping they are in, for
 * a missing key.  Returns 0 or -1.
 */
static int arch_form_finish(struct llm_arch *a, uint32_t has, const struct arch_marks *m,
			    const char *what, struct tc_diag *d)
{
	static const enum arch_key stacks[] = { AK_ENC_LAYERS, AK_DEC_LAYERS };
	int bad = 0;

	if (a->positions == POS_RELATIVE && a->rel_buckets < 1)
		bad |= err_at(d, m->file, amark(m, AK_POSITIONS),
			      "positions relative needs relative_buckets (expected the buckets of the learned position bias, such as 32)");
	if (a->positions != POS_RELATIVE && (has & (1u << AK_REL_BUCKETS)))
		bad |= err_at(d, m->file, amark(m, AK_REL_BUCKETS),
			      "relative_buckets needs positions: relative (expected no relative_buckets for %s positions)",
			      pos_names[a->positions]);
	if (a->form != FORM_ENCODER_DECODER) {
		for (size_t i = 0; i < 2; i++)
			if (has & (1u << stacks[i]))
				bad |= err_at(d, m->file, amark(m, stacks[i]),
					      "%s does not apply to '%s', a single-stack model (expected layers, or a model with arch: encoder-decoder)",
					      arch_fields[stacks[i]].key, a->name[0] ? a->name : "inline");
		if (a->layers < 1)
			bad |= err_at(d, m->file, m->fallback,
				      "missing required key 'layers' in %s (expected layers, or arch: encoder-decoder with encoder_layers and decoder_layers)",
				      what);
		else if (!(has & (1u << AK_CAUSAL)) && !strcmp(what, "architecture file"))
			bad |= err_at(d, m->file, m->fallback,
				      "missing required key 'causal' in %s", what);
		return bad ? -1 : 0;
	}
	if (has & (1u << AK_LAYERS))
		bad |= err_at(d, m->file, amark(m, AK_LAYERS),
			      "layers is for a single-stack model (expected encoder_layers and decoder_layers for arch: encoder-decoder)");
	if (has & (1u << AK_CAUSAL))
		bad |= err_at(d, m->file, amark(m, AK_CAUSAL),
			      "causal does not apply to arch: encoder-decoder (expected no causal: the encoder attends both ways, the decoder causally)");
	for (size_t i = 0; i < 2; i++)
		if (*(const int *)((const char *)a + arch_fields[stacks[i]].offset) < 1)
			bad |= err_at(d, m->file, m->fallback,
				      "missing required key '%s' in %s (expected the %s's layer count for arch: encoder-decoder)",
				      arch_fields[stacks[i]].key, what, i ? "decoder" : "encoder");
	if (bad)
		return -1;
	a->layers = a->encoder_layers + a->decoder_layers;
	a->causal = 1; /* the decoder's self-attention */
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Architecture files: models/arch/<name>.yaml                             */

/* Reject a key that may not appear in an architecture file; returns -1. */
static int reject_in_arch(const struct yn_node *v, void *target, const struct fd_ctx *ctx)
{
	(void)target;
	return err_at(ctx->d, ctx->file, v,
		      "an architecture file cannot name another model (expected the architecture's own fields; presets do not refer to other presets)");
}

struct arch_file {
	struct llm_arch a;
	char kind[16];
	char name[WL_NAME_LEN];
	char family[16];
	char display_name[WL_NAME_LEN];
	double params;
	char notes[2048];
	int dummy; /* target of the rejecting handlers */
};

/* Build the field table of an architecture file into t (ARCH_FILE_HEAD +
 * AK_COUNT + 1 rows). */
static void arch_file_table(struct fd_field *t)
{
	size_t i = 0;
#define FOFF(m) offsetof(struct arch_file, m)
	t[i++] = (struct fd_field){ .key = "kind", .type = FD_STR, .required = 1,
				    .offset = FOFF(kind), .size = sizeof(((struct arch_file *)0)->kind) };
	t[i++] = (struct fd_field){ .key = "name", .type = FD_STR, .required = 1,
				    .offset = FOFF(name), .size = WL_NAME_LEN };
	t[i++] = (struct fd_field){ .key = "family", .type = FD_STR, .required = 1,
				    .offset = FOFF(family), .size = sizeof(((struct arch_file *)0)->family) };
	t[i++] = (struct fd_field){ .key = "display_name", .type = FD_STR,
				    .offset = FOFF(display_name), .size = WL_NAME_LEN };
	t[i++] = (struct fd_field){ .key = "params", .type = FD_NUM, .offset = FOFF(params),
				    .unit = TC_UNIT_COUNT, .min = 1, .max = 1e16 };
	t[i++] = (struct fd_field){ .key = "source", .type = FD_STR, .required = 1,
				    .offset = FOFF(a) + AOFF(source), .size = GPU_TEXT_LEN };
	t[i++] = (struct fd_field){ .key = "notes", .type = FD_STR, .offset = FOFF(notes),
				    .size = sizeof(((struct arch_file *)0)->notes) };
	t[i++] = (struct fd_field){ .key = "preset", .type = FD_CUSTOM, .offset = FOFF(dummy),
				    .parse = reject_in_arch };
	t[i++] = (struct fd_field){ .key = "hf_config", .type = FD_CUSTOM, .offset = FOFF(dummy),
				    .parse = reject_in_arch };
#undef FOFF
	i = put_arch_fields(t, i, offsetof(struct arch_file, a), arch_file_required);
	t[i] = (struct fd_field){ 0 };
}
#define ARCH_FILE_HEAD 9 /* rows before the architecture keys */

/*
 * Read the architecture file `path` (already parsed as doc) into *out.
 * `want` is the preset name it must carry, or NULL to accept the file's
 * stem.  Returns 0 or -1.
 */
static int arch_from_doc(const struct yn_doc *doc, const char *want,
			 struct llm_arch *out, struct tc_diag *d)
{
	const char *file = doc->file;
	const struct yn_node *root = doc->root;
	struct fd_ctx ctx = { .file = file, .d = d };
	struct fd_field table[ARCH_FILE_HEAD + AK_COUNT + 1];
	struct arch_file af;
	uint64_t seen = 0;
	char stem[WL_NAME_LEN];

	if (!root || root->type != YN_MAP)
		return err_at(d, file, root,
			      "the file holds %s (expected a mapping of architecture fields)",
			      root ? yn_type_name(root) : "nothing");
	/* Another family's file has other keys: say so once, not per key. */
	const struct yn_node *fam = yn_map_get(root, "family");
	if (fam && fam->type == YN_SCALAR && strcmp(fam->str, "llm"))
		return err_at(d, file, fam,
			      "family '%s' is not a language model (expected family: llm)", fam->str);

	memset(&af, 0, sizeof(af));
	arch_file_table(table);
	int rc = fd_parse_map(root, table, &af, "architecture file", &ctx, &seen);
	if (rc)
		return -1;
	if (strcmp(af.kind, "arch"))
		return err_at(d, file, yn_map_get(root, "kind"),
			      "kind '%s' is not an architecture (expected kind: arch)", af.kind);
	stem_of(file, stem, sizeof(stem));
	if (strcmp(af.name, want ? want : stem))
		return err_at(d, file, yn_map_get(root, "name"),
			      "name '%s' does not match the file name '%s' (expected name: %s)",
			      af.name, stem, want ? want : stem);

	uint32_t has = (uint32_t)(seen >> ARCH_FILE_HEAD);
	struct arch_marks m = { .file = file, .fallback = root };
	arch_marks_from(&m, root);
	copy_str(af.a.name, sizeof(af.a.name), af.name);
	if (arch_finish(&af.a, has, &m, d) || arch_form_finish(&af.a, has, &m, "architecture file", d))
		return -1;
	*out = af.a;
	return 0;
}

int arch_load_file(const char *path, struct llm_arch *out, struct tc_diag *d)
{
	struct yn_doc doc = { 0 };
	assert(path && out && d);
	if (yn_load_file(path, &doc, d))
		return -1;
	int rc = arch_from_doc(&doc, NULL, out, d);
	yn_doc_release(&doc);
	return rc;
}

/*
 * Find and load preset `name`.  An unknown name is reported at (file, at),
 * with the closest known preset suggested.  Returns 0, -1 when the name is
 * unusable or unknown, or -2 when the preset file itself has problems
 * (reported at their positions in that file).
 */
static int preset_at(const struct tc_datapath *dp, const char *name,
		     const char *file, const struct yn_node *at,
		     struct llm_arch *out, struct tc_diag *d)
{
	char path[DP_PATH_LEN];
	char fname[WL_NAME_LEN + 8];

	if (!safe_name(name) || strlen(name) >= WL_NAME_LEN)
		return err_at(d, file, at,
			      "preset name '%s' is not a file name (expected letters, digits, '.', '-' or '_')",
			      name);
	snprintf(fname, sizeof(fname), "%s.yaml", name);
	if (dp_find(dp, "models/arch", fname, path, sizeof(path))) {
		char close[WL_NAME_LEN];
		if (wlx_closest_preset(dp, name, close, sizeof(close)))
			err_at(d, file, at, "unknown preset '%s' (did you mean '%s'?)", name, close);
		else
			err_at(d, file, at,
			       "unknown preset '%s' (expected the name of a file in models/arch, such as llama2-7b)",
			       name);
		return -1;
	}
	struct yn_doc doc = { 0 };
	if (yn_load_file(path, &doc, d))
		return -2;
	int rc = arch_from_doc(&doc, name, out, d);
	yn_doc_release(&doc);
	return rc ? -2 : 0;
}

int arch_load_preset(const struct tc_datapath *dp, const char *name,
		     struct llm_arch *out, struct tc_diag *d)
{
	assert(dp && name && out && d);
	return preset_at(dp, name, NULL, NULL, out, d) ? -1 : 0;
}

/* ---------------------------------------------------------------------- */
/* Hugging Face config.json                                                */

/* The first of `keys` present in map with a non-null value, or NULL. */
static const struct yn_node *hf_get(const struct yn_node *map, const char *const *keys,
				    const char **which)
{
	for (int i = 0; keys[i]; i++) {
		const struct yn_node *v = yn_map_get(map, keys[i]);
		if (v && !yn_is_null(v)) {
			if (which)
				*which = keys[i];
			return v;
		}
	}
	return NULL;
}

/* What a model_type implies about the parts config.json does not spell out. */
struct hf_family {
	const char *model_type;
	enum llm_norm norm;
	enum llm_pos positions;
	int bias;
	int tied;   /* default when tie_word_embeddings is absent */
	int gated;  /* a gelu activation is GeGLU */
	int causal;
};
static const struct hf_family hf_families[] = {
	{ "llama", NORM_RMSNORM, POS_ROPE, 0, 0, 0, 1 },
	{ "mistral", NORM_RMSNORM, POS_ROPE, 0, 0, 0, 1 },
	{ "mixtral", NORM_RMSNORM, POS_ROPE, 0, 0, 0, 1 },
	{ "qwen2", NORM_RMSNORM, POS_ROPE, 0, 0, 0, 1 },
	{ "qwen3", NORM_RMSNORM, POS_ROPE, 0, 0, 0, 1 },
	{ "phi3", NORM_RMSNORM, POS_ROPE, 0, 0, 0, 1 },
	{ "gemma", NORM_RMSNORM, POS_ROPE, 0, 1, 1, 1 },
	{ "gemma2", NORM_RMSNORM, POS_ROPE, 0, 1, 1, 1 },
	{ "gemma3_text", NORM_RMSNORM, POS_ROPE, 0, 1, 1, 1 },
	{ "gpt2", NORM_LAYERNORM, POS_LEARNED, 1, 1, 0, 1 },
	{ "gpt_neox", NORM_LAYERNORM, POS_ROPE, 1, 0, 0, 1 },
	{ "gptj", NORM_LAYERNORM, POS_ROPE, 1, 0, 0, 1 },
	{ "opt", NORM_LAYERNORM, POS_LEARNED, 1, 1, 0, 1 },
	{ "bloom", NORM_LAYERNORM, POS_ALIBI, 1, 1, 0, 1 },
	{ "falcon", NORM_LAYERNORM, POS_ROPE, 0, 1, 0, 1 },
	{ "mpt", NORM_LAYERNORM, POS_ALIBI, 0, 1, 0, 1 },
	{ "bert", NORM_LAYERNORM, POS_LEARNED, 1, 1, 0, 0 },
	{ "roberta", NORM_LAYERNORM, POS_LEARNED, 1, 1, 0, 0 },
};
/* Model types whose structure this model cannot represent. */
static const char *const hf_unsupported[] = {
	"deepseek_v2", "deepseek_v3", "qwen2_moe", "mt5", NULL
};

/* Name (_name_or_path, else model_type, else the file's stem) and source
 * of an architecture read from config.json `path`. */
static void hf_name(const struct yn_node *root, const char *model_type, const char *path,
		    struct llm_arch *a)
{
	const struct yn_node *np = yn_map_get(root, "_name_or_path");
	if (np && np->type == YN_SCALAR && np->str[0] && !yn_is_null(np))
		copy_str(a->name, sizeof(a->name), np->str);
	else if (model_type[0])
		copy_str(a->name, sizeof(a->name), model_type);
	else
		stem_of(path, a->name, sizeof(a->name));
	copy_str(a->source, sizeof(a->source), path);
}

/* Read an integer field of a config.json into *out if present.  Returns 0
 * (absent or read) or -1. */
static int hf_int(const struct yn_node *root, const char *const *keys, double min,
		  double max, int *out, int *found, const struct fd_ctx *ctx)
{
	const char *key = keys[0];
	const struct yn_node *v = hf_get(root, keys, &key);
	*found = 0;
	if (!v)
		return 0;
	if (fd_get_int(v, key, min, max, out, ctx))
		return -1;
	*found = 1;
	return 0;
}

/*
 * The sizes of a T5 or BART config.json into *a (model_type t5 or bart);
 * what the file leaves implicit follows the family (docs/workload-format.md,
 * "Hugging Face config.json").  Sets the bits of the keys read in *has.
 * Returns 0 or -1.
 */
static int hf_encoder_decoder(const struct yn_node *root, int bart, struct llm_arch *a,
			      uint32_t *has, struct arch_marks *m, const struct fd_ctx *ctx)
{
	static const char *const t5[][2] = {
		{ "num_layers", "the encoder's layer count" }, { "num_decoder_layers", NULL },
		{ "d_model", "the model width" }, { "num_heads", "the attention head count" },
		{ "d_kv", "the head width" }, { "d_ff", "the MLP width" },
		{ "vocab_size", "the vocabulary size" },
		{ "relative_attention_num_buckets", NULL }, { "n_positions", NULL },
	};
	static const char *const bart_keys[][2] = {
		{ "encoder_layers", "the encoder's layer count" },
		{ "decoder_layers", "the decoder's layer count" },
		{ "d_model", "the model width" }, { "encoder_attention_heads", "the attention head count" },
		{ NULL, NULL }, { "encoder_ffn_dim", "the MLP width" },
		{ "vocab_size", "the vocabulary size" }, { NULL, NULL },
		{ "max_position_embeddings", "the learned position count" },
	};
	static const enum arch_key ak[] = { AK_ENC_LAYERS, AK_DEC_LAYERS, AK_HIDDEN, AK_HEADS,
					    AK_HEAD_DIM, AK_FFN, AK_VOCAB, AK_REL_BUCKETS,
					    AK_MAX_POSITIONS };
	const char *const (*keys)[2] = bart ? bart_keys : t5;
	int bad = 0;

	for (size_t i = 0; i < sizeof(ak) / sizeof(ak[0]); i++) {
		const char *key = keys[i][0];
		const struct yn_node *v = key ? yn_map_get(root, key) : NULL;
		int *dst = (int *)((char *)a + arch_fields[ak[i]].offset);
		if (v && !yn_is_null(v)) {
			bad |= fd_get_int(v, key, 1, arch_fields[ak[i]].max, dst, ctx) != 0;
			*has |= 1u << ak[i];
			m->at[ak[i]] = v;
		} else if (key && keys[i][1]) {
			bad |= err_at(ctx->d, ctx->file, root,
				      "missing required key '%s' in Hugging Face config (expected %s)", key,
				      keys[i][1]);
		}
	}
	/* The two stacks have one width of heads and MLP here. */
	static const char *const same[][2] = { { "encoder_attention_heads", "decoder_attention_heads" },
					       { "encoder_ffn_dim", "decoder_ffn_dim" } };
	for (size_t i = 0; bart && !bad && i < 2; i++) {
		const struct yn_node *v = yn_map_get(root, same[i][1]);
		int dec = 0;
		if (!v || yn_is_null(v))
			continue;
		if (fd_get_int(v, same[i][1], 1, 1e8, &dec, ctx))
			return -1;
		if (dec != (i ? a->ffn : a->heads))
			return err_at(ctx->d, ctx->file, v,
				      "%s %d differs from %s %d (expected the same in both stacks)",
				      same[i][1], dec, same[i][0], i ? a->ffn : a->heads);
	}
	if (bad)
		return -1;
	a->form = FORM_ENCODER_DECODER;
	a->tied_embeddings = 1; /* both families' default */
	if (bart) {
		a->norm = NORM_LAYERNORM;
		a->positions = POS_LEARNED;
		a->bias = 1;
		a->max_positions += 2; /* BART's position ids start at 2 */
		a->kv_heads = a->heads;
		*has &= ~(1u << AK_REL_BUCKETS);
		return 0;
	}
	if (!(*has & (1u << AK_DEC_LAYERS)))
		a->decoder_layers = a->encoder_layers; /* num_decoder_layers absent */
	if (!(*has & (1u << AK_REL_BUCKETS)))
		a->rel_buckets = 32; /* T5Config's default */
	*has &= ~(1u << AK_REL_BUCKETS);
	a->norm = NORM_RMSNORM;
	a->positions = POS_RELATIVE;
	a->bias = 0;
	a->kv_heads = a->heads;
	return 0;
}

/* The MLP activation of a T5 or BART config.json (feed_forward_proj or
 * activation_function).  Returns 0 or -1. */
static int hf_encdec_act(const struct yn_node *root, int bart, struct llm_arch *a,
			 const struct fd_ctx *ctx)
{
	static const struct { const char *name; enum llm_act act; } acts[] = {
		{ "relu", ACT_RELU }, { "gelu", ACT_GELU }, { "gelu_new", ACT_GELU },
		{ "gated-gelu", ACT_GEGLU }, { "gated-silu", ACT_SWIGLU },
	};
	const char *key = bart ? "activation_function" : "feed_forward_proj";
	const struct yn_node *v = yn_map_get(root, key);
	char act[64] = "relu"; /* T5Config's default */

	if (!v || yn_is_null(v)) {
		if (bart)
			copy_str(act, sizeof(act), "gelu"); /* BartConfig's default */
	} else if (fd_get_str(v, key, act, sizeof(act), ctx)) {
		return -1;
	}
	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
		if (!strcmp(act, acts[i].name)) {
			a->act = acts[i].act;
			return 0;
		}
	return err_at(ctx->d, ctx->file, v, "%s '%s' is not supported (expected relu, gelu, gelu_new, gated-gelu or gated-silu)",
		      key, act);
}

/* The architecture of a T5 or BART config.json (`root`, read from `path`)
 * into *a.  Returns 0 or -1. */
static int hf_encdec_arch(const struct yn_node *root, const char *model_type, const char *path,
			  struct llm_arch *a, const struct fd_ctx *ctx)
{
	int bart = model_type[0] == 'b';
	struct arch_marks m = { .file = ctx->file, .fallback = root };
	const struct yn_node *v;
	uint32_t has = 0;

	if (hf_encoder_decoder(root, bart, a, &has, &m, ctx) || hf_encdec_act(root, bart, a, ctx))
		return -1;
	if ((v = yn_map_get(root, "tie_word_embeddings")) && !yn_is_null(v) &&
	    fd_get_bool(v, "tie_word_embeddings", &a->tied_embeddings, ctx))
		return -1;
	hf_name(root, model_type, path, a);
	if (arch_finish(a, has, &m, ctx->d) ||
	    arch_form_finish(a, has, &m, "Hugging Face config", ctx->d))
		return -1;
	return 0;
}

int arch_load_hf_config(const char *path, struct llm_arch *out, struct tc_diag *d)
{
	static const char *const k_layers[] = { "num_hidden_layers", "n_layer", NULL };
	static const char *const k_hidden[] = { "hidden_size", "n_embd", NULL };
	static const char *const k_heads[] = { "num_attention_heads", "n_head", NULL };
	static const char *const k_kv[] = { "num_key_value_heads", "num_kv_heads", NULL };
	static const char *const k_ffn[] = { "intermediate_size", "n_inner", "ffn_dim", NULL };
	static const char *const k_vocab[] = { "vocab_size", NULL };
	static const char *const k_maxpos[] = { "max_position_embeddings", "n_positions", "n_ctx", NULL };
	static const char *const k_head_dim[] = { "head_dim", NULL };
	static const char *const k_experts[] = { "num_local_experts", NULL };
	static const char *const k_top_k[] = { "num_experts_per_tok", NULL };
	static const char *const k_act[] = { "hidden_act", "activation_function", NULL };
	struct yn_doc doc = { 0 };
	struct llm_arch a;
	int rc = -1, found, bad = 0;
	uint32_t has = 0;

	assert(path && out && d);
	if (yn_load_file(path, &doc, d))
		return -1;
	const char *file = doc.file;
	struct fd_ctx ctx = { .file = file, .d = d };
	const struct yn_node *root = doc.root;
	if (!root || root->type != YN_MAP) {
		err_at(d, file, root, "the file holds %s (expected a Hugging Face config.json object)",
		       root ? yn_type_name(root) : "nothing");
		goto out;
	}
	memset(&a, 0, sizeof(a));

	/* model_type decides what the file leaves implicit. */
	char model_type[64] = "";
	const struct yn_node *mt = yn_map_get(root, "model_type");
	if (mt && !yn_is_null(mt) && fd_get_str(mt, "model_type", model_type, sizeof(model_type), &ctx))
		bad = 1;
	for (int i = 0; hf_unsupported[i]; i++)
		if (!strcmp(model_type, hf_unsupported[i])) {
			err_at(d, file, mt,
			       "model_type '%s' is not supported (expected a dense or Mixtral-style decoder: its attention or expert layout has no equivalent here)",
			       model_type);
			goto out;
		}
	if (!strcmp(model_type, "t5") || !strcmp(model_type, "bart")) {
		rc = hf_encdec_arch(root, model_type, path, &a, &ctx);
		if (rc == 0)
			*out = a;
		goto out;
	}
	const struct hf_family *fam = NULL;
	for (size_t i = 0; i < sizeof(hf_families) / sizeof(hf_families[0]); i++)
		if (!strcmp(model_type, hf_families[i].model_type))
			fam = &hf_families[i];

	struct {
		const char *const *keys;
		double min, max;
		int *dst;
		enum arch_key ak;
		const char *what; /* for a missing required key, else NULL */
	} ints[] = {
		{ k_layers, 1, 10000, &a.layers, AK_LAYERS, "the layer count" },
		{ k_hidden, 1, 1e6, &a.hidden, AK_HIDDEN, "the model width" },
		{ k_heads, 1, 100000, &a.heads, AK_HEADS, "the attention head count" },
		{ k_vocab, 1, 1e7, &a.vocab, AK_VOCAB, "the vocabulary size" },
		{ k_kv, 1, 100000, &a.kv_heads, AK_KV_HEADS, NULL },
		{ k_ffn, 1, 1e8, &a.ffn, AK_FFN, NULL },
		{ k_maxpos, 1, 1e8, &a.max_positions, AK_MAX_POSITIONS, NULL },
		{ k_head_dim, 1, 65536, &a.head_dim, AK_HEAD_DIM, NULL },
		{ k_experts, 1, 65536, &a.experts, AK_EXPERTS, NULL },
		{ k_top_k, 1, 65536, &a.top_k, AK_TOP_K, NULL },
	};
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		if (hf_int(root, ints[i].keys, ints[i].min, ints[i].max, ints[i].dst, &found, &ctx)) {
			bad = 1;
			continue;
		}
		if (found)
			has |= 1u << ints[i].ak;
		else if (ints[i].what) {
			if (ints[i].keys[1])
				err_at(d, file, root,
				       "missing required key '%s' in Hugging Face config (expected %s as %s or %s)",
				       ints[i].keys[0], ints[i].what, ints[i].keys[0], ints[i].keys[1]);
			else
				err_at(d, file, root,
				       "missing required key '%s' in Hugging Face config (expected %s)",
				       ints[i].keys[0], ints[i].what);
			bad = 1;
		}
	}
	/* Falcon 7B: multi_query means one KV head. */
	const struct yn_node *mq = yn_map_get(root, "multi_query");
	int multi_query = 0;
	if (mq && !yn_is_null(mq) && fd_get_bool(mq, "multi_query", &multi_query, &ctx))
		bad = 1;
	const struct yn_node *nda = yn_map_get(root, "new_decoder_architecture");
	int new_arch = 0;
	if (nda && !yn_is_null(nda) && fd_get_bool(nda, "new_decoder_architecture", &new_arch, &ctx))
		bad = 1;
	if (bad)
		goto out;
	if (multi_query && !new_arch) {
		a.kv_heads = 1;
		has |= 1u << AK_KV_HEADS;
	}
	if (!(has & (1u << AK_FFN)))
		a.ffn = 4 * a.hidden; /* GPT-2 n_inner null, BLOOM, Falcon */
	if (!(has & (1u << AK_MAX_POSITIONS)))
		a.max_positions = 2048;

	/* Activation. */
	const char *act_key = "hidden_act";
	const struct yn_node *actn = hf_get(root, k_act, &act_key);
	char act[64] = "";
	if (actn && fd_get_str(actn, act_key, act, sizeof(act), &ctx))
		goto out;
	if (!actn) /* Falcon, BLOOM, MPT: GELU without a key */
		copy_str(act, sizeof(act), "gelu");
	if (!strcmp(act, "silu") || !strcmp(act, "swish"))
		a.act = ACT_SWIGLU;
	else if (!strncmp(act, "gelu", 4) || !strcmp(act, "quick_gelu"))
		a.act = fam && fam->gated ? ACT_GEGLU : ACT_GELU;
	else if (!strcmp(act, "relu"))
		a.act = ACT_RELU;
	else {
		err_at(d, file, actn,
		       "activation '%s' is not supported (expected silu, gelu, gelu_new, gelu_pytorch_tanh or relu)",
		       act);
		goto out;
	}

	/* Norm, positions, bias, tying, causality from the family. */
	if (fam) {
		a.norm = fam->norm;
		a.positions = fam->positions;
		a.bias = fam->bias;
		a.tied_embeddings = fam->tied;
		a.causal = fam->causal;
	} else if (a.act == ACT_SWIGLU) { /* a Llama-like decoder */
		a.norm = NORM_RMSNORM;
		a.positions = POS_ROPE;
		a.bias = 0;
		a.tied_embeddings = 0;
		a.causal = 1;
	} else { /* a GPT-2-like decoder */
		a.norm = NORM_LAYERNORM;
		a.positions = POS_LEARNED;
		a.bias = 1;
		a.tied_embeddings = 1;
		a.causal = 1;
	}
	const struct yn_node *v;
	if ((v = yn_map_get(root, "tie_word_embeddings")) && !yn_is_null(v) &&
	    fd_get_bool(v, "tie_word_embeddings", &a.tied_embeddings, &ctx))
		goto out;
	if ((v = yn_map_get(root, "bias")) && !yn_is_null(v) && fd_get_bool(v, "bias", &a.bias, &ctx))
		goto out;
	int alibi = 0;
	if ((v = yn_map_get(root, "alibi")) && !yn_is_null(v)) {
		if (fd_get_bool(v, "alibi", &alibi, &ctx))
			goto out;
		if (alibi)
			a.positions = POS_ALIBI;
	}

	hf_name(root, model_type, path, &a);

	struct arch_marks m = { .file = file, .fallback = root };
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		m.at[ints[i].ak] = hf_get(root, ints[i].keys, NULL);
	if (arch_finish(&a, has, &m, d))
		goto out;
	*out = a;
	rc = 0;
out:
	yn_doc_release(&doc);
	return rc;
}

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
			memcpy((char *)to + arch_fields[i].offset,
			       (const char *)from + arch_fields[i].offset, sizeof(int));
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
	size_t n = put_arch_fields(table, MODEL_HEAD, offsetof(struct model_sec, a), 0);
	table[n] = (struct fd_field){ 0 };
	if (fd_parse_map(map, table, &ms, "model", &st->ctx, &seen))
		return -1;

	const struct yn_node *pn = yn_map_get(map, "preset");
	const struct yn_node *hn = yn_map_get(map, "hf_config");
	uint32_t has = (uint32_t)(seen >> MODEL_HEAD);
	struct arch_marks m = { .file = st->file, .fallback = map };
	arch_marks_from(&m, map);

	memset(&a, 0, sizeof(a));
	if (pn && hn)
		return err_at(st->d, st->file, hn,
			      "model has both preset and hf_config (expected one of them)");
	if (pn) {
		int prc = preset_at(st->dp, ms.preset, st->file, pn, &a, st->d);
		if (prc == -2)
			err_at(st->d, st->file, pn, "preset '%s' could not be loaded", ms.preset);
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
			err_at(st->d, st->file, hn, "hf_config '%s' could not be loaded", ms.hf_config);
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
				err_at(st->d, st->file, map,
				       "missing required key '%s' in model (expected preset, hf_config, or inline layers, hidden, heads and vocab)",
				       arch_fields[need[i]].key);
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
		copy_str(a.name, sizeof(a.name), "inline");
		copy_str(a.source, sizeof(a.source), st->file);
	}

	if (base_has && (has & (1u << AK_FORM)) && ms.a.form != a.form)
		return err_at(st->d, st->file, amark(&m, AK_FORM),
			      "arch %s does not apply to '%s', a%s model (expected a %s with arch: %s, or an inline model)",
			      form_names[ms.a.form], a.name,
			      a.form == FORM_ENCODER_DECODER ? "n encoder-decoder" : " single-stack",
			      pn ? "preset" : "config", form_names[ms.a.form]);

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
	if (arch_finish(&a, fin_has, &m, st->d) || arch_form_finish(&a, has, &m, "model", st->d))
		return -1;
	st->w->llm = a;
	return 0;
}

/* --- training: ------------------------------------------------------- */

struct training_sec {
	int seq_len, global_batch, input_len, target_len;
	double tokens, steps;
	int precision, optimizer, recompute, flash_attention, finetune, lora_rank;
	int packing;
	double mean_seq_len, capacity_factor;
};

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
				bad |= err_at(st->d, st->file, yn_map_get(map, lens[i]),
					      "%s does not apply to '%s', a single-stack model (expected seq_len)",
					      lens[i], a->name);
		if (!sl)
			bad |= err_at(st->d, st->file, map, "missing required key 'seq_len' in training");
		return bad ? -1 : 0;
	}
	if (sl)
		bad |= err_at(st->d, st->file, sl,
			      "seq_len does not apply to '%s', an encoder-decoder model (expected input_len and target_len)",
			      a->name);
	for (size_t i = 0; i < 2; i++)
		if (!yn_map_get(map, lens[i]))
			bad |= err_at(st->d, st->file, map,
				      "missing required key '%s' in training (expected the %s tokens of a sample of '%s', an encoder-decoder model)",
				      lens[i], i ? "target's" : "encoder input's", a->name);
	if (ts->packing)
		bad |= err_at(st->d, st->file, yn_map_get(map, "packing"),
			      "packing is not modelled for encoder-decoder models (expected input_len and target_len as the lengths computed)");
	return bad ? -1 : 0;
}

/* Read the training section into st->w->train.  Returns 0 or -1. */
static int read_training(struct wl_state *st, const struct yn_node *map)
{
#define TOFF(m) offsetof(struct training_sec, m)
	static const struct fd_field table[] = {
		{ .key = "seq_len", .type = FD_INT, .offset = TOFF(seq_len), .min = 1, .max = MAX_SEQ_LEN },
		{ .key = "input_len", .type = FD_INT, .offset = TOFF(input_len), .min = 1, .max = MAX_SEQ_LEN },
		{ .key = "target_len", .type = FD_INT, .offset = TOFF(target_len), .min = 1, .max = MAX_SEQ_LEN },
		{ .key = "global_batch", .type = FD_INT, .required = 1, .offset = TOFF(global_batch), .min = 1, .max = MAX_GLOBAL_BATCH },
		{ .key = "tokens", .type = FD_NUM, .offset = TOFF(tokens), .unit = TC_UNIT_COUNT, .min = 1, .max = MAX_TOKENS },
		{ .key = "steps", .type = FD_NUM, .offset = TOFF(steps), .unit = TC_UNIT_COUNT, .min = 1, .max = MAX_STEPS },
		{ .key = "precision", .type = FD_ENUM, .offset = TOFF(precision), .names = precision_names },
		{ .key = "optimizer", .type = FD_ENUM, .offset = TOFF(optimizer), .names = optimizer_names },
		{ .key = "recompute", .type = FD_ENUM, .offset = TOFF(recompute), .names = recompute_names },
		{ .key = "flash_attention", .type = FD_BOOL, .offset = TOFF(flash_attention) },
		{ .key = "finetune", .type = FD_ENUM, .offset = TOFF(finetune), .names = finetune_names },
		{ .key = "lora_rank", .type = FD_INT, .offset = TOFF(lora_rank), .min = 1, .max = MAX_LORA_RANK },
		{ .key = "packing", .type = FD_BOOL, .offset = TOFF(packing) },
		{ .key = "mean_seq_len", .type = FD_NUM, .offset = TOFF(mean_seq_len), .unit = TC_UNIT_COUNT, .min = 1,
		  .max = MAX_SEQ_LEN },
		{ .key = "capacity_factor", .type = FD_NUM, .offset = TOFF(capacity_factor), .unit = TC_UNIT_COUNT,
		  .min = 1, .max = 65536, .expect = "the busiest expert-parallel rank's tokens over the mean, 1 to 65536" },
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
	mark(st, WLF_SEQ_LEN, yn_map_get(map, "seq_len"));
	mark(st, WLF_GLOBAL_BATCH, yn_map_get(map, "global_batch"));
	mark(st, WLF_TOKENS, tok);
	mark(st, WLF_STEPS, stp);
	mark(st, WLF_PRECISION, yn_map_get(map, "precision"));
	mark(st, WLF_RECOMPUTE, yn_map_get(map, "recompute"));
	mark(st, WLF_FINETUNE, yn_map_get(map, "finetune"));
	mark(st, WLF_LORA_RANK, yn_map_get(map, "lora_rank"));
	mark(st, WLF_PACKING, yn_map_get(map, "packing"));
	mark(st, WLF_MEAN_SEQ_LEN, yn_map_get(map, "mean_seq_len"));
	mark(st, WLF_CAPACITY_FACTOR, yn_map_get(map, "capacity_factor"));
	mark(st, WLF_INPUT_LEN, yn_map_get(map, "input_len"));
	mark(st, WLF_TARGET_LEN, yn_map_get(map, "target_len"));

	if (st->form_known && training_lengths(st, map, &ts))
		bad = 1;
	if (tok && stp) {
		const struct yn_node *later = (stp->line > tok->line ||
					       (stp->line == tok->line && stp->col > tok->col)) ? stp : tok;
		bad |= err_at(st->d, st->file, later,
			      "training has both tokens and steps (expected one of them)");
	} else if (!tok && !stp) {
		bad |= err_at(st->d, st->file, map,
			      "missing required key 'tokens' in training (expected tokens or steps)");
	}
	if (bad)
		return -1;
	if (stp && ts.steps != floor(ts.steps))
		return err_at(st->d, st->file, stp, "steps %g is not a whole number (expected an integer)",
			      ts.steps);
	/* An encoder-decoder's tokens are its inputs' (docs/model.md). */
	int tok_len = ts.input_len > 0 ? ts.input_len : ts.seq_len;
	if (stp && ts.steps * ts.global_batch * (double)tok_len > MAX_TOKENS)
		return err_at(st->d, st->file, stp,
			      "steps %.0f x global_batch %d x %s %d = %.3g tokens is out of range (expected at most 1e16 tokens)",
			      ts.steps, ts.global_batch, ts.input_len > 0 ? "input_len" : "seq_len", tok_len,
			      ts.steps * ts.global_batch * (double)tok_len);
	const struct yn_node *lr = yn_map_get(map, "lora_rank");
	if (ts.finetune != FT_FULL && !lr)
		return err_at(st->d, st->file, yn_map_get(map, "finetune"),
			      "finetune %s needs lora_rank (expected lora_rank: 1 to %d in training)",
			      finetune_names[ts.finetune], MAX_LORA_RANK);
	if (ts.finetune == FT_FULL && lr)
		return err_at(st->d, st->file, lr,
			      "lora_rank is set but finetune is full (expected finetune: lora or qlora)");

	w->train.seq_len = ts.input_len > 0 ? ts.target_len : ts.seq_len;
	w->train.input_len = ts.input_len;
	w->train.target_len = ts.target_len;
	if (ts.input_len > 0)
		mark(st, WLF_SEQ_LEN, yn_map_get(map, "target_len"));
	w->train.global_batch = ts.global_batch;
	w->train.tokens = tok ? ts.tokens : 0;
	w->train.steps = stp ? ts.steps : 0;
	w->train.precision = prec_map[ts.precision];
	w->train.optimizer = (enum optimizer)ts.optimizer;
	w->train.recompute = (enum recompute)ts.recompute;
	w->train.flash_attention = ts.flash_attention;
	w->train.finetune = (enum finetune)ts.finetune;
	w->train.lora_rank = ts.finetune == FT_FULL ? 0 : ts.lora_rank;
	const struct yn_node *pk = yn_map_get(map, "packing");
	const struct yn_node *mn = yn_map_get(map, "mean_seq_len");
	if (ts.packing && !mn)
		return err_at(st->d, st->file, pk,
			      "packing needs mean_seq_len (expected mean_seq_len: the mean real tokens per sample)");
	if (mn && !ts.packing)
		return err_at(st->d, st->file, mn,
			      "mean_seq_len is set but packing is not (expected packing: true)");
	if (mn && ts.mean_seq_len > ts.seq_len)
		return err_at(st->d, st->file, mn,
			      "mean_seq_len %g is longer than seq_len %d (expected at most %d)",
			      ts.mean_seq_len, ts.seq_len, ts.seq_len);
	w->train.packing = ts.packing;
	w->train.mean_seq_len = ts.packing ? ts.mean_seq_len : 0;
	w->train.capacity_factor = ts.capacity_factor;
	return 0;
}

/* --- plan: ----------------------------------------------------------- */

struct plan_sec {
	char gpu[GPU_ID_LEN];
	int count, gpus_per_node, tp, pp, ep, cp, zero, shard_group, micro_batch, interleave;
	int schedule; /* index into sched_names + 1, -1 = none named */
	int sequence_parallel, cuda_graphs, grad_overlap;
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
	return err_at(st->d, st->file, v, "dp '%s' is not valid (expected auto or an integer from 1 to %d)",
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
		{ .key = "schedule", .type = FD_ENUM, .offset = POFF(schedule), .names = sched_names + 1 },
		{ .key = "sequence_parallel", .type = FD_BOOL, .offset = POFF(sequence_parallel) },
		{ .key = "cuda_graphs", .type = FD_BOOL, .offset = POFF(cuda_graphs) },
		{ .key = "grad_overlap", .type = FD_BOOL, .offset = POFF(grad_overlap) },
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
	mark(st, WLF_SCHEDULE, yn_map_get(map, "schedule"));
	mark(st, WLF_SEQUENCE_PARALLEL, yn_map_get(map, "sequence_parallel"));
	mark(st, WLF_NETWORK, nn);

	if (gn && ps.gpu[0] && !wl_gpu_id_ok(ps.gpu))
		bad |= err_at(st->d, st->file, gn,
			      "gpu '%s' is not a catalog id (expected letters, digits, '.', '-', '_', and ':PROFILE' for a MIG slice, as in a100-80gb-sxm:1g.10gb)",
			      ps.gpu);
	p->dp = 0;
	if (dn && read_dp(st, dn, &p->dp))
		bad = 1;
	wl_default_network(p);
	if (nn && wl_read_network(nn, st->file, p, st->d))
		bad = 1;
	const struct yn_node *fn = yn_map_get(map, "framework");
	if (fn ? fw_resolve(st->dp, st->file, fn, &p->framework, st->d) :
		 fw_resolve_default(st->dp, WL_LLM, &p->framework, st->d))
		bad = 1;
	if (bad)
		return -1;

	copy_str(p->gpu, sizeof(p->gpu), ps.gpu);
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
	p->schedule = (enum pp_schedule)(ps.schedule + 1);
	p->sequence_parallel = ps.sequence_parallel < 0 ? ps.tp > 1 : ps.sequence_parallel;
	p->cuda_graphs = ps.cuda_graphs;
	p->grad_overlap = ps.grad_overlap;

	/* The layout must use every GPU. */
	double model_par = (double)p->tp * p->pp * p->cp;
	char cp_txt[24] = "";
	if (p->cp > 1)
		snprintf(cp_txt, sizeof(cp_txt), " x cp %d", p->cp);
	if (p->dp > 0 && model_par * p->dp != p->count)
		return err_at(st->d, st->file, dn,
			      "dp %d x tp %d x pp %d%s = %.0f GPUs does not match count %d (expected dp: auto or a product equal to count)",
			      p->dp, p->tp, p->pp, cp_txt, model_par * p->dp, p->count);
	if (p->dp == 0 && fmod((double)p->count, model_par) != 0)
		return err_at(st->d, st->file, yn_map_get(map, "count"),
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
		bad |= err_at(st->d, st->file, ep,
			      "ep %d needs a mixture-of-experts model (expected ep: 1 for a dense model)",
			      w->plan.ep);
	else if (w->plan.ep > 1 && a->experts % w->plan.ep)
		bad |= err_at(st->d, st->file, ep,
			      "ep %d does not divide %d experts (expected a divisor of %d)",
			      w->plan.ep, a->experts, a->experts);
	const struct yn_node *mb = yn_map_get(plan, "micro_batch");
	if (w->plan.micro_batch > w->train.global_batch)
		bad |= err_at(st->d, st->file, mb,
			      "micro_batch %d is larger than global_batch %.0f (expected at most %.0f)",
			      w->plan.micro_batch, w->train.global_batch, w->train.global_batch);
	if (a->form == FORM_ENCODER_DECODER) {
		static const char *const lens[] = { "input_len", "target_len" };
		double len[2] = { w->train.input_len, w->train.target_len };
		for (size_t i = 0; i < 2 && a->positions == POS_LEARNED; i++)
			if (len[i] > a->max_positions)
				bad |= err_at(st->d, st->file, yn_map_get(training, lens[i]),
					      "%s %.0f is longer than the model's %d learned positions (expected at most %d)",
					      lens[i], len[i], a->max_positions, a->max_positions);
	} else if (a->positions == POS_LEARNED && w->train.seq_len > a->max_positions) {
		const struct yn_node *at = yn_map_get(training, "seq_len");
		bad |= err_at(st->d, st->file, at ? at : model,
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
		return err_at(d, doc->file, root,
			      "the file holds %s (expected a mapping with kind, model, training and plan)",
			      root ? yn_type_name(root) : "nothing");
	const struct yn_node *kn = yn_map_get(root, "kind");
	if (kn && kn->type == YN_SCALAR && !strcmp(kn->str, "vision"))
		return wl_vision_load_doc(doc, dp, out, d);
	if (kn && kn->type == YN_SCALAR && !strcmp(kn->str, "recsys"))
		return wl_recsys_load_doc(doc, dp, out, d);
	if (kn && kn->type == YN_SCALAR && strcmp(kn->str, "llm"))
		return err_at(d, doc->file, kn,
			      "kind '%s' is not a workload kind (expected kind: llm, vision or recsys)", kn->str);
	if (fd_parse_map(root, top_table, &top, "workload", &st.ctx, NULL))
		bad = 1;

	w.kind = WL_LLM;
	copy_str(w.file, sizeof(w.file), doc->file);
	if (top.name[0])
		copy_str(w.name, sizeof(w.name), top.name);
	else
		stem_of(doc->file, w.name, sizeof(w.name));

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
