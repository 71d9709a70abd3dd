/*
 * wl_arch.c - the architecture of a language model: its fields (one table
 * that architecture files, workload `model:` sections and the Hugging Face
 * import share), the checks between them, and architecture files
 * (models/arch/<name>.yaml) looked up as presets.  The small text helpers
 * the LLM loaders share live here too (wl_arch.h).
 */
#include "wl_arch.h"
#include "wl_common.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "yaml_load.h"

/* Names in the order of the enums they map to (workload.h). */
const char *const wla_form_names[] = { "single-stack", "encoder-decoder", NULL };

/* ---------------------------------------------------------------------- */
/* Small helpers                                                           */

/* Copy `s` into buf (size n), truncating; returns buf. */
char *wla_copy_str(char *buf, size_t n, const char *s)
{
	assert(n > 0);
	snprintf(buf, n, "%s", s ? s : "");
	return buf;
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

/* The file name of `path` without folder and without a ".yaml"/".json"
 * extension, into buf. */
void wla_stem(const char *path, char *buf, size_t n)
{
	const char *slash = strrchr(path, '/');
	wla_copy_str(buf, n, slash ? slash + 1 : path);
	char *dot = strrchr(buf, '.');
	if (dot && (!strcmp(dot, ".yaml") || !strcmp(dot, ".yml") || !strcmp(dot, ".json")))
		*dot = '\0';
}

/* ---------------------------------------------------------------------- */
/* Architecture fields                                                     */

/* `dropout` and `lm_head`: true (index 0, the default of a zeroed struct)
 * or false; the struct keeps the index in no_dropout, no_lm_head. */
static const char *const on_off_names[] = { "true", "false", NULL };

#define AOFF(m) offsetof(struct llm_arch, m)
const struct fd_field wla_fields[AK_COUNT] = {
	[AK_LAYERS] = { .key = "layers", .type = FD_INT, .offset = AOFF(layers), .min = 1, .max = 10000 },
	[AK_HIDDEN] = { .key = "hidden", .type = FD_INT, .offset = AOFF(hidden), .min = 1, .max = 1e6 },
	[AK_HEADS] = { .key = "heads", .type = FD_INT, .offset = AOFF(heads), .min = 1, .max = 100000 },
	[AK_KV_HEADS] = { .key = "kv_heads", .type = FD_INT, .offset = AOFF(kv_heads), .min = 1, .max = 100000 },
	[AK_HEAD_DIM] = { .key = "head_dim", .type = FD_INT, .offset = AOFF(head_dim), .min = 1, .max = 65536 },
	[AK_FFN] = { .key = "ffn", .type = FD_INT, .offset = AOFF(ffn), .min = 1, .max = 1e8 },
	[AK_FFN_ACT] = { .key = "ffn_act", .type = FD_ENUM, .offset = AOFF(act), .names = llm_act_names },
	[AK_VOCAB] = { .key = "vocab", .type = FD_INT, .offset = AOFF(vocab), .min = 1, .max = 1e7 },
	[AK_TIED] = { .key = "tied_embeddings", .type = FD_BOOL, .offset = AOFF(tied_embeddings) },
	[AK_EXPERTS] = { .key = "experts", .type = FD_INT, .offset = AOFF(experts), .min = 1, .max = 65536 },
	[AK_TOP_K] = { .key = "top_k", .type = FD_INT, .offset = AOFF(top_k), .min = 1, .max = 65536 },
	[AK_POSITIONS] = { .key = "positions", .type = FD_ENUM, .offset = AOFF(positions), .names = llm_pos_names },
	[AK_NORM] = { .key = "norm", .type = FD_ENUM, .offset = AOFF(norm), .names = llm_norm_names },
	[AK_CAUSAL] = { .key = "causal", .type = FD_BOOL, .offset = AOFF(causal) },
	[AK_BIAS] = { .key = "bias", .type = FD_BOOL, .offset = AOFF(bias) },
	[AK_MAX_POSITIONS] = { .key = "max_positions", .type = FD_INT, .offset = AOFF(max_positions), .min = 1, .max = 1e8 },
	[AK_FORM] = { .key = "arch", .type = FD_ENUM, .offset = AOFF(form), .names = wla_form_names },
	[AK_ENC_LAYERS] = { .key = "encoder_layers", .type = FD_INT, .offset = AOFF(encoder_layers), .min = 1, .max = 10000 },
	[AK_DEC_LAYERS] = { .key = "decoder_layers", .type = FD_INT, .offset = AOFF(decoder_layers), .min = 1, .max = 10000 },
	[AK_REL_BUCKETS] = { .key = "relative_buckets", .type = FD_INT, .offset = AOFF(rel_buckets), .min = 1, .max = 65536 },
	[AK_DROPOUT] = { .key = "dropout", .type = FD_ENUM, .offset = AOFF(no_dropout), .names = on_off_names },
	[AK_LM_HEAD] = { .key = "lm_head", .type = FD_ENUM, .offset = AOFF(no_lm_head), .names = on_off_names },
};

/* Keys an architecture file must have (kv_heads, head_dim, experts and
 * top_k have defaults; layers and causal, which a single stack needs and
 * an encoder-decoder may not have, are checked by wla_form_finish()). */
static const uint32_t arch_file_required =
	(1u << AK_HIDDEN) | (1u << AK_HEADS) | (1u << AK_FFN) |
	(1u << AK_FFN_ACT) | (1u << AK_VOCAB) | (1u << AK_TIED) | (1u << AK_POSITIONS) |
	(1u << AK_NORM) | (1u << AK_BIAS) | (1u << AK_MAX_POSITIONS);

/*
 * Append the architecture rows to table t at t[at..], with offsets moved by
 * `base` and `required` set from the bit mask.  Returns the next free index.
 */
size_t wla_put_fields(struct fd_field *t, size_t at, size_t base,
		      uint32_t required)
{
	for (int i = 0; i < AK_COUNT; i++) {
		t[at] = wla_fields[i];
		t[at].offset += base;
		t[at].required = (required >> i) & 1u;
		at++;
	}
	return at;
}

/* The node to blame for field k: its own value, else the fallback. */
const struct yn_node *wla_mark(const struct arch_marks *m, enum arch_key k)
{
	return m->at[k] ? m->at[k] : m->fallback;
}

/* Record the value nodes of the arch keys present in `map`. */
void wla_marks_from(struct arch_marks *m, const struct yn_node *map)
{
	for (int i = 0; i < AK_COUNT; i++)
		if (!m->at[i])
			m->at[i] = yn_map_get(map, wla_fields[i].key);
}

/*
 * Fill the fields that default from others (kv_heads = heads, head_dim =
 * hidden / heads, experts 0 -> 1 = dense) and check the relations between
 * fields.  `has` is the bit mask of keys that were given.  Returns 0 or -1.
 */
int wla_finish(struct llm_arch *a, uint32_t has, const struct arch_marks *m,
	       struct tc_diag *d)
{
	int bad = 0;
	if (!(has & (1u << AK_KV_HEADS)))
		a->kv_heads = a->heads;
	if (!(has & (1u << AK_HEAD_DIM))) {
		if (a->hidden % a->heads) {
			bad |= wlx_err(d, m->file, wla_mark(m, AK_HEADS),
				       "heads %d does not divide hidden %d (expected a divisor, or head_dim set explicitly)",
				       a->heads, a->hidden);
		}
		a->head_dim = a->hidden / a->heads;
	}
	if (a->kv_heads > a->heads)
		bad |= wlx_err(d, m->file, wla_mark(m, AK_KV_HEADS),
			       "kv_heads %d is more than heads %d (expected at most the number of query heads)",
			       a->kv_heads, a->heads);
	else if (a->heads % a->kv_heads)
		bad |= wlx_err(d, m->file, wla_mark(m, AK_KV_HEADS),
			       "kv_heads %d does not divide heads %d (expected a divisor of %d)",
			       a->kv_heads, a->heads, a->heads);
	if (a->experts <= 1) {
		if (has & (1u << AK_TOP_K) && a->top_k > 1)
			bad |= wlx_err(d, m->file, wla_mark(m, AK_TOP_K),
				       "top_k %d needs a mixture of experts (expected experts greater than 1)",
				       a->top_k);
		a->experts = 1;
		a->top_k = 1;
	} else if (!(has & (1u << AK_TOP_K))) {
		bad |= wlx_err(d, m->file, wla_mark(m, AK_EXPERTS),
			       "experts %d without top_k (expected top_k: experts used per token)",
			       a->experts);
	} else if (a->top_k > a->experts) {
		bad |= wlx_err(d, m->file, wla_mark(m, AK_TOP_K),
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
int wla_form_finish(struct llm_arch *a, uint32_t has, const struct arch_marks *m,
		    const char *what, struct tc_diag *d)
{
	static const enum arch_key stacks[] = { AK_ENC_LAYERS, AK_DEC_LAYERS };
	int bad = 0;

	if (a->positions == POS_RELATIVE && a->rel_buckets < 1)
		bad |= wlx_err(d, m->file, wla_mark(m, AK_POSITIONS),
			       "positions relative needs relative_buckets (expected the buckets of the learned position bias, such as 32)");
	if (a->positions != POS_RELATIVE && (has & (1u << AK_REL_BUCKETS)))
		bad |= wlx_err(d, m->file, wla_mark(m, AK_REL_BUCKETS),
			       "relative_buckets needs positions: relative (expected no relative_buckets for %s positions)",
			       llm_pos_names[a->positions]);
	if (a->form != FORM_ENCODER_DECODER) {
		for (size_t i = 0; i < 2; i++)
			if (has & (1u << stacks[i]))
				bad |= wlx_err(d, m->file, wla_mark(m, stacks[i]),
					       "%s does not apply to '%s', a single-stack model (expected layers, or a model with arch: encoder-decoder)",
					       wla_fields[stacks[i]].key, a->name[0] ? a->name : "inline");
		if (a->layers < 1)
			bad |= wlx_err(d, m->file, m->fallback,
				       "missing required key 'layers' in %s (expected layers, or arch: encoder-decoder with encoder_layers and decoder_layers)",
				       what);
		else if (!(has & (1u << AK_CAUSAL)) && !strcmp(what, "architecture file"))
			bad |= wlx_err(d, m->file, m->fallback,
				       "missing required key 'causal' in %s", what);
		return bad ? -1 : 0;
	}
	if (has & (1u << AK_LAYERS))
		bad |= wlx_err(d, m->file, wla_mark(m, AK_LAYERS),
			       "layers is for a single-stack model (expected encoder_layers and decoder_layers for arch: encoder-decoder)");
	if (has & (1u << AK_CAUSAL))
		bad |= wlx_err(d, m->file, wla_mark(m, AK_CAUSAL),
			       "causal does not apply to arch: encoder-decoder (expected no causal: the encoder attends both ways, the decoder causally)");
	for (size_t i = 0; i < 2; i++)
		if (*(const int *)((const char *)a + wla_fields[stacks[i]].offset) < 1)
			bad |= wlx_err(d, m->file, m->fallback,
				       "missing required key '%s' in %s (expected the %s's layer count for arch: encoder-decoder)",
				       wla_fields[stacks[i]].key, what, i ? "decoder" : "encoder");
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
	return wlx_err(ctx->d, ctx->file, v,
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
	i = wla_put_fields(t, i, offsetof(struct arch_file, a), arch_file_required);
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
		return wlx_err(d, file, root,
			       "the file holds %s (expected a mapping of architecture fields)",
			       root ? yn_type_name(root) : "nothing");
	/* Another family's file has other keys: say so once, not per key. */
	const struct yn_node *fam = yn_map_get(root, "family");
	if (fam && fam->type == YN_SCALAR && strcmp(fam->str, "llm"))
		return wlx_err(d, file, fam,
			       "family '%s' is not a language model (expected family: llm)", fam->str);

	memset(&af, 0, sizeof(af));
	arch_file_table(table);
	int rc = fd_parse_map(root, table, &af, "architecture file", &ctx, &seen);
	if (rc)
		return -1;
	if (strcmp(af.kind, "arch"))
		return wlx_err(d, file, yn_map_get(root, "kind"),
			       "kind '%s' is not an architecture (expected kind: arch)", af.kind);
	wla_stem(file, stem, sizeof(stem));
	if (strcmp(af.name, want ? want : stem))
		return wlx_err(d, file, yn_map_get(root, "name"),
			       "name '%s' does not match the file name '%s' (expected name: %s)",
			       af.name, stem, want ? want : stem);

	uint32_t has = (uint32_t)(seen >> ARCH_FILE_HEAD);
	struct arch_marks m = { .file = file, .fallback = root };
	wla_marks_from(&m, root);
	wla_copy_str(af.a.name, sizeof(af.a.name), af.name);
	if (wla_finish(&af.a, has, &m, d) || wla_form_finish(&af.a, has, &m, "architecture file", d))
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
int wla_preset_at(const struct tc_datapath *dp, const char *name,
		  const char *file, const struct yn_node *at,
		  struct llm_arch *out, struct tc_diag *d)
{
	char path[DP_PATH_LEN];
	char fname[WL_NAME_LEN + 8];

	if (!safe_name(name) || strlen(name) >= WL_NAME_LEN)
		return wlx_err(d, file, at,
			       "preset name '%s' is not a file name (expected letters, digits, '.', '-' or '_')",
			       name);
	snprintf(fname, sizeof(fname), "%s.yaml", name);
	if (dp_find(dp, "models/arch", fname, path, sizeof(path))) {
		char close[WL_NAME_LEN];
		if (wlx_closest_preset(dp, name, close, sizeof(close)))
			wlx_err(d, file, at, "unknown preset '%s' (did you mean '%s'?)", name, close);
		else
			wlx_err(d, file, at,
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
	return wla_preset_at(dp, name, NULL, NULL, out, d) ? -1 : 0;
}
