/*
 * wl_hf.c - the architecture of a language model read from a Hugging Face
 * config.json (decoders, Mixtral-style experts, T5 and BART encoder-
 * decoders): what the file spells out and what its model_type implies
 * (docs/workload-format.md, "Hugging Face config.json").
 */
#include "wl_hf.h"

#include "wl_arch.h"
#include "wl_common.h"

#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "fields.h"
#include "yaml_load.h"

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
		wla_copy_str(a->name, sizeof(a->name), np->str);
	else if (model_type[0])
		wla_copy_str(a->name, sizeof(a->name), model_type);
	else
		wla_stem(path, a->name, sizeof(a->name));
	wla_copy_str(a->source, sizeof(a->source), path);
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
		int *dst = (int *)((char *)a + wla_fields[ak[i]].offset);
		if (v && !yn_is_null(v)) {
			bad |= fd_get_int(v, key, 1, wla_fields[ak[i]].max, dst, ctx) != 0;
			*has |= 1u << ak[i];
			m->at[ak[i]] = v;
		} else if (key && keys[i][1]) {
			bad |= wlx_err(ctx->d, ctx->file, root,
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
			return wlx_err(ctx->d, ctx->file, v,
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
			wla_copy_str(act, sizeof(act), "gelu"); /* BartConfig's default */
	} else if (fd_get_str(v, key, act, sizeof(act), ctx)) {
		return -1;
	}
	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
		if (!strcmp(act, acts[i].name)) {
			a->act = acts[i].act;
			return 0;
		}
	return wlx_err(ctx->d, ctx->file, v, "%s '%s' is not supported (expected relu, gelu, gelu_new, gated-gelu or gated-silu)",
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
	if (wla_finish(a, has, &m, ctx->d) ||
	    wla_form_finish(a, has, &m, "Hugging Face config", ctx->d))
		return -1;
	return 0;
}

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

/* The integer keys of a decoder's config, by their names in the families
 * that write them. */
static const struct {
	const char *const *keys;
	double min, max;
	size_t off;        /* of the int in struct llm_arch */
	enum arch_key ak;
	const char *what;  /* for a missing required key, else NULL */
} hf_ints[] = {
	{ k_layers, 1, 10000, offsetof(struct llm_arch, layers), AK_LAYERS, "the layer count" },
	{ k_hidden, 1, 1e6, offsetof(struct llm_arch, hidden), AK_HIDDEN, "the model width" },
	{ k_heads, 1, 100000, offsetof(struct llm_arch, heads), AK_HEADS, "the attention head count" },
	{ k_vocab, 1, 1e7, offsetof(struct llm_arch, vocab), AK_VOCAB, "the vocabulary size" },
	{ k_kv, 1, 100000, offsetof(struct llm_arch, kv_heads), AK_KV_HEADS, NULL },
	{ k_ffn, 1, 1e8, offsetof(struct llm_arch, ffn), AK_FFN, NULL },
	{ k_maxpos, 1, 1e8, offsetof(struct llm_arch, max_positions), AK_MAX_POSITIONS, NULL },
	{ k_head_dim, 1, 65536, offsetof(struct llm_arch, head_dim), AK_HEAD_DIM, NULL },
	{ k_experts, 1, 65536, offsetof(struct llm_arch, experts), AK_EXPERTS, NULL },
	{ k_top_k, 1, 65536, offsetof(struct llm_arch, top_k), AK_TOP_K, NULL },
};
#define HF_INT_KEYS (sizeof(hf_ints) / sizeof(hf_ints[0]))

/* The counts and sizes into *a (bit ak of *has for each found), Falcon's
 * one KV head, and the defaults of the keys a file may leave out.  0, or
 * -1 with every bad key reported. */
static int hf_counts(const struct yn_node *root, struct llm_arch *a, uint32_t *has,
		     struct fd_ctx *ctx)
{
	int found, bad = 0;

	for (size_t i = 0; i < HF_INT_KEYS; i++) {
		int *dst = (int *)(void *)((char *)a + hf_ints[i].off);
		if (hf_int(root, hf_ints[i].keys, hf_ints[i].min, hf_ints[i].max, dst, &found, ctx)) {
			bad = 1;
			continue;
		}
		if (found)
			*has |= 1u << hf_ints[i].ak;
		else if (hf_ints[i].what) {
			if (hf_ints[i].keys[1])
				wlx_err(ctx->d, ctx->file, root,
					"missing required key '%s' in Hugging Face config (expected %s as %s or %s)",
					hf_ints[i].keys[0], hf_ints[i].what, hf_ints[i].keys[0], hf_ints[i].keys[1]);
			else
				wlx_err(ctx->d, ctx->file, root,
					"missing required key '%s' in Hugging Face config (expected %s)",
					hf_ints[i].keys[0], hf_ints[i].what);
			bad = 1;
		}
	}
	/* Falcon 7B: multi_query means one KV head. */
	const struct yn_node *mq = yn_map_get(root, "multi_query");
	int multi_query = 0;
	if (mq && !yn_is_null(mq) && fd_get_bool(mq, "multi_query", &multi_query, ctx))
		bad = 1;
	const struct yn_node *nda = yn_map_get(root, "new_decoder_architecture");
	int new_arch = 0;
	if (nda && !yn_is_null(nda) && fd_get_bool(nda, "new_decoder_architecture", &new_arch, ctx))
		bad = 1;
	if (bad)
		return -1;
	if (multi_query && !new_arch) {
		a->kv_heads = 1;
		*has |= 1u << AK_KV_HEADS;
	}
	if (!(*has & (1u << AK_FFN)))
		a->ffn = 4 * a->hidden; /* GPT-2 n_inner null, BLOOM, Falcon */
	if (!(*has & (1u << AK_MAX_POSITIONS)))
		a->max_positions = 2048;
	return 0;
}

/* The activation into a->act (gated where the family is).  0 or -1. */
static int hf_activation(const struct yn_node *root, const struct hf_family *fam,
			 struct llm_arch *a, struct fd_ctx *ctx)
{
	const char *act_key = "hidden_act";
	const struct yn_node *actn = hf_get(root, k_act, &act_key);
	char act[64] = "";
	if (actn && fd_get_str(actn, act_key, act, sizeof(act), ctx))
		return -1;
	if (!actn) /* Falcon, BLOOM, MPT: GELU without a key */
		wla_copy_str(act, sizeof(act), "gelu");
	if (!strcmp(act, "silu") || !strcmp(act, "swish"))
		a->act = ACT_SWIGLU;
	else if (!strncmp(act, "gelu", 4) || !strcmp(act, "quick_gelu"))
		a->act = fam && fam->gated ? ACT_GEGLU : ACT_GELU;
	else if (!strcmp(act, "relu"))
		a->act = ACT_RELU;
	else
		return wlx_err(ctx->d, ctx->file, actn,
			       "activation '%s' is not supported (expected silu, gelu, gelu_new, gelu_pytorch_tanh or relu)",
			       act);
	return 0;
}

/* Norm, positions, bias, tying, causality: from the family (or the
 * activation's usual decoder), then the file's own keys.  0 or -1. */
static int hf_layout(const struct yn_node *root, const struct hf_family *fam,
		     struct llm_arch *a, struct fd_ctx *ctx)
{
	if (fam) {
		a->norm = fam->norm;
		a->positions = fam->positions;
		a->bias = fam->bias;
		a->tied_embeddings = fam->tied;
		a->causal = fam->causal;
	} else if (a->act == ACT_SWIGLU) { /* a Llama-like decoder */
		a->norm = NORM_RMSNORM;
		a->positions = POS_ROPE;
		a->bias = 0;
		a->tied_embeddings = 0;
		a->causal = 1;
	} else { /* a GPT-2-like decoder */
		a->norm = NORM_LAYERNORM;
		a->positions = POS_LEARNED;
		a->bias = 1;
		a->tied_embeddings = 1;
		a->causal = 1;
	}
	const struct yn_node *v;
	if ((v = yn_map_get(root, "tie_word_embeddings")) && !yn_is_null(v) &&
	    fd_get_bool(v, "tie_word_embeddings", &a->tied_embeddings, ctx))
		return -1;
	if ((v = yn_map_get(root, "bias")) && !yn_is_null(v) && fd_get_bool(v, "bias", &a->bias, ctx))
		return -1;
	int alibi = 0;
	if ((v = yn_map_get(root, "alibi")) && !yn_is_null(v)) {
		if (fd_get_bool(v, "alibi", &alibi, ctx))
			return -1;
		if (alibi)
			a->positions = POS_ALIBI;
	}
	return 0;
}

int arch_load_hf_config(const char *path, struct llm_arch *out, struct tc_diag *d)
{
	struct yn_doc doc = { 0 };
	struct llm_arch a;
	int rc = -1;
	uint32_t has = 0;

	assert(path && out && d);
	if (yn_load_file(path, &doc, d))
		return -1;
	const char *file = doc.file;
	struct fd_ctx ctx = { .file = file, .d = d };
	const struct yn_node *root = doc.root;
	if (!root || root->type != YN_MAP) {
		wlx_err(d, file, root, "the file holds %s (expected a Hugging Face config.json object)",
			root ? yn_type_name(root) : "nothing");
		goto out;
	}
	memset(&a, 0, sizeof(a));

	/* model_type decides what the file leaves implicit. */
	char model_type[64] = "";
	const struct yn_node *mt = yn_map_get(root, "model_type");
	int bad = mt && !yn_is_null(mt) &&
		  fd_get_str(mt, "model_type", model_type, sizeof(model_type), &ctx);
	for (int i = 0; hf_unsupported[i]; i++)
		if (!strcmp(model_type, hf_unsupported[i])) {
			wlx_err(d, file, mt,
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

	if (hf_counts(root, &a, &has, &ctx) || bad || hf_activation(root, fam, &a, &ctx) ||
	    hf_layout(root, fam, &a, &ctx))
		goto out;
	hf_name(root, model_type, path, &a);

	struct arch_marks m = { .file = file, .fallback = root };
	for (size_t i = 0; i < HF_INT_KEYS; i++)
		m.at[hf_ints[i].ak] = hf_get(root, hf_ints[i].keys, NULL);
	if (wla_finish(&a, has, &m, d))
		goto out;
	*out = a;
	rc = 0;
out:
	yn_doc_release(&doc);
	return rc;
}
