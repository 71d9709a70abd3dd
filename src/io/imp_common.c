/*
 * imp_common.c - `traincost import` (imp_common.h): the keys a config sets with
 * their origin, the kind of a config, what the command line adds, the
 * checks between values, and the commented workload file.
 */
#include "imp_common.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/infile.h"
#include "fw_load.h"
#include "../model/types/network.h"
#include "imp_hfstack.h"
#include "imp_megatron.h"
#include "imp_nemo.h"
#include "imp_util.h"
#include "wl_load.h"
#include "yaml_load.h"

#define IMP_MAX_TEXT_BYTES (1u << 20) /* an argument list longer than 1 MiB is refused */

const char *const imp_kind_names[] = { "auto", "megatron", "nemo", "llm-foundry", "axolotl",
				       "deepspeed", "megatron-bridge", NULL };

/* What each kind reads as, for the file's header. */
static const char *const kind_words[] = {
	[IMP_MEGATRON] = "Megatron-LM / Megatron-DeepSpeed arguments",
	[IMP_NEMO] = "a NeMo 1.x recipe",
	[IMP_FOUNDRY] = "an llm-foundry YAML",
	[IMP_AXOLOTL] = "an Axolotl YAML",
	[IMP_DEEPSPEED] = "a DeepSpeed JSON",
	[IMP_BRIDGE] = "a Megatron-Bridge recipe",
};

static const char *const sec_names[] = { "model", "training", "plan" };

/* Every key the writer knows, in the order it prints them. */
static const char *const key_order[IMP_SEC_COUNT][24] = {
	[IMP_MODEL] = { "preset", "layers", "hidden", "heads", "kv_heads", "head_dim", "ffn", "ffn_act", "vocab",
			"tied_embeddings", "experts", "top_k", "positions", "norm", "bias",
			"max_positions", NULL },
	[IMP_TRAINING] = { "seq_len", "global_batch", "tokens", "steps", "precision", "optimizer",
			   "recompute", "recompute_frac", "flash_attention", "finetune", "lora_rank",
			   "lora_targets", "lora_base_fp8", "mlp_act_input_fp8", "packing", "mean_seq_len", NULL },
	[IMP_PLAN] = { "framework", "gpu", "count", "gpus_per_node", "tp", "pp", "cp", "ep", "zero",
		       "micro_batch", "interleave", "sequence_parallel", "grad_overlap",
		       "tp_comm_overlap", "compile", "network", NULL },
};

/* --- the architecture of a Hugging Face config.json -------------------- */

/* Put the fields of `a` the reader left unset, each noted as read from
 * `path`; a value the config states differently is kept, and named. */
static void take_hf_arch(struct imp_result *r, const struct llm_arch *a, const char *path)
{
	const int ints[] = { a->layers, a->hidden, a->heads, a->kv_heads, a->head_dim, a->ffn, a->vocab,
			     a->experts > 1 ? a->experts : 0, a->experts > 1 ? a->top_k : 0,
			     a->max_positions };
	static const char *const int_keys[] = { "layers", "hidden", "heads", "kv_heads", "head_dim", "ffn",
						 "vocab", "experts", "top_k", "max_positions" };
	const char *texts[][2] = {
		{ "ffn_act", wla_fields[AK_FFN_ACT].names[a->act] },
		{ "tied_embeddings", a->tied_embeddings ? "true" : "false" },
		{ "positions", wla_fields[AK_POSITIONS].names[a->positions] },
		{ "norm", wla_fields[AK_NORM].names[a->norm] },
		{ "bias", a->bias ? "true" : "false" },
	};
	char from[IMP_NOTE_LEN], buf[32];

	snprintf(from, sizeof(from), "%s", path);
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		if (!ints[i])
			continue;
		snprintf(buf, sizeof(buf), "%d", ints[i]);
		const struct imp_value *have = imp_get(r, IMP_MODEL, int_keys[i]);
		if (!have)
			imp_from(r, IMP_MODEL, int_keys[i], buf, from, 0, 0);
		else if (strcmp(have->text, buf))
			imp_warn(r, "%s %s in the config and %s in %s differ: the config's value is kept",
				 int_keys[i], have->text, buf, path);
	}
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (!imp_get(r, IMP_MODEL, texts[i][0]))
			imp_from(r, IMP_MODEL, texts[i][0], texts[i][1], from, 0, 0);
}

/* --- kinds --------------------------------------------------------------- */

/* The kind of a YAML/JSON config from its keys, or IMP_AUTO. */
static enum imp_kind yaml_kind(const struct yn_node *root)
{
	const struct yn_node *model = yn_map_get(root, "model");
	const struct yn_node *train = yn_map_get(root, "train");
	if (yn_map_get(root, "trainer") && model && model->type == YN_MAP)
		return IMP_NEMO;
	if (train && train->type == YN_MAP && model && model->type == YN_MAP)
		return IMP_BRIDGE;
	if (yn_map_get(root, "global_train_batch_size") || yn_map_get(root, "device_train_microbatch_size"))
		return IMP_FOUNDRY;
	if (yn_map_get(root, "base_model") || yn_map_get(root, "sequence_len"))
		return IMP_AXOLOTL;
	if (yn_map_get(root, "train_micro_batch_size_per_gpu") || yn_map_get(root, "zero_optimization") ||
	    yn_map_get(root, "train_batch_size"))
		return IMP_DEEPSPEED;
	return IMP_AUTO;
}

/* True when text reads as a Megatron-LM argument list. */
static int looks_like_megatron(const char *text)
{
	static const char *const marks[] = { "--num-layers", "--tensor-model-parallel-size",
					     "--hidden-size", "--micro-batch-size", NULL };
	for (int i = 0; marks[i]; i++)
		if (strstr(text, marks[i]))
			return 1;
	return 0;
}

/* Read text file `path` (at most IMP_MAX_TEXT_BYTES) into a new buffer
 * with a NUL after it.  Returns the buffer, or NULL with the error in d. */
static char *read_text(const char *path, size_t *len, struct tc_diag *d)
{
	int fd = tc_input_open(path, "a configuration file", d);
	char *buf;
	size_t n = 0;
	if (fd < 0)
		return NULL;
	buf = malloc(IMP_MAX_TEXT_BYTES + 1);
	if (!buf) {
		close(fd);
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
		return NULL;
	}
	for (;;) {
		ssize_t got = read(fd, buf + n, IMP_MAX_TEXT_BYTES + 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			tc_diag_at(d, TC_EXIT_IO, path, 0, 0, "cannot read file: %s", strerror(errno));
			goto fail;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > IMP_MAX_TEXT_BYTES) {
			tc_diag_at(d, TC_EXIT_INPUT, path, 0, 0, "file is larger than 1 MiB (expected a training "
				   "configuration)");
			goto fail;
		}
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	close(fd);
	free(buf);
	return NULL;
}

/* --- what the command line adds, and the checks ------------------------- */

/* The whole number held by key (sec, key), or `dflt` when absent or left
 * for the user. */
static long value_long(const struct imp_result *r, enum imp_sec sec, const char *key, long dflt)
{
	const struct imp_value *v = imp_get(r, sec, key);
	long x;
	return v && v->text[0] && !imp_parse_long(v->text, 1, 1L << 40, &x) ? x : dflt;
}

static void apply_options(struct imp_result *r, const struct imp_options *o)
{
	char buf[64];
	if (o->gpu)
		imp_from(r, IMP_PLAN, "gpu", o->gpu, "--gpu", 0, 0);
	if (o->count) {
		snprintf(buf, sizeof(buf), "%d", o->count);
		imp_from(r, IMP_PLAN, "count", buf, "--count", 0, 0);
	}
	if (o->tokens > 0) {
		snprintf(buf, sizeof(buf), "%.15g", o->tokens);
		imp_from(r, IMP_TRAINING, "tokens", buf, "--tokens", 0, 0);
		const struct imp_value *steps = imp_get(r, IMP_TRAINING, "steps");
		if (steps) {
			imp_warn(r, "--tokens replaces the config's run length (%s steps)", steps->text);
			r->v[steps - r->v] = r->v[--r->n];
		}
	}
	if (o->seq_len) {
		snprintf(buf, sizeof(buf), "%d", o->seq_len);
		imp_from(r, IMP_TRAINING, "seq_len", buf, "--seq-len", 0, 0);
	}
	if (o->framework)
		imp_from(r, IMP_PLAN, "framework", o->framework, "--framework", 0, 0);
	if (o->name)
		snprintf(r->name, sizeof(r->name), "%s", o->name);
}

/* The position to blame for key (sec, key): its own, else the file's start. */
static void blame(const struct imp_result *r, enum imp_sec sec, const char *key, int *line, int *col)
{
	const struct imp_value *v = imp_get(r, sec, key);
	*line = v && v->line ? v->line : 1;
	*col = v && v->line ? v->col : 1;
}

/* Required model keys, the layout against the GPUs and the global batch
 * against micro-batch x dp.  Returns 0 or -1. */
static int check(struct imp_result *r, struct tc_diag *d)
{
	static const char *const need[] = { "layers", "hidden", "heads", "vocab", NULL };
	int line, col, bad = 0;
	for (int i = 0; need[i] && !imp_get(r, IMP_MODEL, "preset"); i++)
		if (!imp_get(r, IMP_MODEL, need[i]))
			bad |= imp_err(d, r, 1, 1, "the config does not state the model's %s (expected it in the "
				       "config, --hf-config config.json or --preset NAME)", need[i]);
	if (!imp_get(r, IMP_TRAINING, "seq_len"))
		bad |= imp_err(d, r, 1, 1, "the config does not state the sequence length (expected it in the config)");
	if (!imp_get(r, IMP_TRAINING, "global_batch"))
		bad |= imp_err(d, r, 1, 1, "the config does not state the global batch (expected it in the config)");
	if (bad)
		return -1;
	long tp = value_long(r, IMP_PLAN, "tp", 1), pp = value_long(r, IMP_PLAN, "pp", 1);
	long cp = value_long(r, IMP_PLAN, "cp", 1), count = value_long(r, IMP_PLAN, "count", 0);
	long gb = value_long(r, IMP_TRAINING, "global_batch", 0), mb = value_long(r, IMP_PLAN, "micro_batch", 0);
	long mp = tp * pp * cp;
	if (count > 0 && count % mp) {
		const char *at = imp_get(r, IMP_PLAN, "tp") ? "tp" : "pp";
		blame(r, IMP_PLAN, at, &line, &col);
		return imp_err(d, r, line, col, "tp %ld x pp %ld x cp %ld = %ld does not divide the %ld GPUs "
			       "(expected a GPU count that is a multiple of %ld)", tp, pp, cp, mp, count, mp);
	}
	if (count > 0 && mb > 0 && gb % (mb * (count / mp))) {
		blame(r, IMP_TRAINING, "global_batch", &line, &col);
		return imp_err(d, r, line, col, "global batch %ld is not divisible by micro-batch %ld x dp %ld = %ld "
			       "(expected a multiple of %ld)", gb, mb, count / mp, mb * (count / mp),
			       mb * (count / mp));
	}
	return 0;
}

/* The global batch of a config that states it per GPU.  0 or -1. */
static int batch_per_gpu(struct imp_result *r, struct tc_diag *d)
{
	char buf[32], from[IMP_NOTE_LEN];
	long count = value_long(r, IMP_PLAN, "count", 0);
	long mp = value_long(r, IMP_PLAN, "tp", 1) * value_long(r, IMP_PLAN, "pp", 1) * value_long(r, IMP_PLAN, "cp", 1);
	if (imp_get(r, IMP_TRAINING, "global_batch") || !r->batch_micro)
		return 0;
	if (!count)
		return imp_err(d, r, 1, 1, "the global batch is %s x the data-parallel GPUs (expected --count N)",
			       r->batch_what);
	if (count % mp)
		return 0; /* check() names the layout */
	snprintf(buf, sizeof(buf), "%ld", r->batch_micro * (r->batch_accum ? r->batch_accum : 1) * (count / mp));
	snprintf(from, sizeof(from), "%s x dp %ld", r->batch_what, count / mp);
	imp_from(r, IMP_TRAINING, "global_batch", buf, from, 0, 0);
	return 0;
}

/* Leave what no one stated for the user: count, the run length. */
static void left_for_user(struct imp_result *r)
{
	if (!imp_get(r, IMP_PLAN, "count")) {
		imp_from(r, IMP_PLAN, "count", "", "not stated: give --count N or set it here", 0, 0);
		r->incomplete = 1;
	}
	if (!imp_get(r, IMP_TRAINING, "tokens") && !imp_get(r, IMP_TRAINING, "steps")) {
		imp_from(r, IMP_TRAINING, "tokens", "", "not stated: give --tokens N or set it here", 0, 0);
		r->incomplete = 1;
	}
	imp_default(r, IMP_TRAINING, "optimizer", "adamw", "the config names no other optimizer: AdamW");
	imp_default(r, IMP_TRAINING, "flash_attention", "true",
		    "the config does not say how attention runs: fused (FlashAttention), traincost's default");
	imp_default(r, IMP_PLAN, "network", net_default()->name,
		    "the config does not name the network between nodes: traincost's default");
	if (!imp_get(r, IMP_PLAN, "gpu"))
		imp_from(r, IMP_PLAN, "gpu", "", "not stated: give --gpu ID (see `traincost gpus`) or set it here", 0, 0);
}

int imp_load_text(const char *name, const char *text, size_t len, const struct imp_options *o,
		  const struct tc_datapath *dp, struct imp_result *r, struct tc_diag *d)
{
	struct yn_doc doc = { 0 };
	int rc = -1;

	assert(name && text && o && r && d);
	memset(r, 0, sizeof(*r));
	snprintf(r->file, sizeof(r->file), "%s", name);
	wla_stem(name, r->name, sizeof(r->name));
	r->kind = o->kind;
	if (r->kind == IMP_AUTO && looks_like_megatron(text))
		r->kind = IMP_MEGATRON;
	if (r->kind == IMP_MEGATRON) {
		rc = imp_megatron_read(text, len, r, d);
	} else if (yn_load_buffer(name, text, len, &doc, d)) {
		tc_diag_at(d, TC_EXIT_INPUT, name, 0, 0, "not Megatron-LM arguments, and not a YAML or JSON config "
			   "(expected one of the kinds `traincost import --help` lists)");
	} else {
		if (r->kind == IMP_AUTO && doc.root->type == YN_MAP)
			r->kind = yaml_kind(doc.root);
		if (doc.root->type != YN_MAP || r->kind == IMP_AUTO)
			rc = imp_err(d, r, doc.root->line, doc.root->col,
				     "unknown config kind (expected Megatron-LM arguments, a NeMo or Megatron-Bridge "
				     "recipe, an llm-foundry or Axolotl YAML or a DeepSpeed JSON, or --kind)");
		else if (r->kind == IMP_NEMO)
			rc = imp_nemo_read(&doc, r, d);
		else if (r->kind == IMP_BRIDGE)
			rc = imp_bridge_read(&doc, r, d);
		else if (r->kind == IMP_FOUNDRY)
			rc = imp_foundry_read(&doc, r, d);
		else if (r->kind == IMP_AXOLOTL)
			rc = imp_axolotl_read(&doc, r, d);
		else
			rc = imp_deepspeed_read(&doc, r, d);
	}
	yn_doc_release(&doc);
	if (rc)
		return -1;
	if (o->hf_config) {
		struct llm_arch a;
		if (arch_load_hf_config(o->hf_config, &a, d))
			return -1;
		if (a.form != FORM_DECODER)
			return tc_diag_at(d, TC_EXIT_INPUT, o->hf_config, 0, 0, "an encoder-decoder model cannot "
					  "be imported (expected a decoder-only config.json)");
		take_hf_arch(r, &a, o->hf_config);
	}
	if (o->preset) {
		struct llm_arch a;
		if (arch_load_preset(dp, o->preset, &a, d))
			return tc_diag_msg(d, TC_EXIT_INPUT, "--preset '%s' could not be loaded", o->preset);
		imp_from(r, IMP_MODEL, "preset", o->preset, "--preset", 0, 0);
	}
	apply_options(r, o);
	const struct imp_value *fw = imp_get(r, IMP_PLAN, "framework");
	struct eff_stack layer;
	if (fw && fw_resolve_id(dp, "--framework", fw->text, &layer, d))
		return -1;
	if (batch_per_gpu(r, d))
		return -1;
	left_for_user(r);
	return check(r, d);
}

int imp_load_file(const char *path, const struct imp_options *o, const struct tc_datapath *dp,
		  struct imp_result *r, struct tc_diag *d)
{
	size_t len = 0;
	char *text = read_text(path, &len, d);
	if (!text)
		return -1;
	int rc = imp_load_text(path, text, len, o, dp, r, d);
	free(text);
	return rc;
}

/* --- the workload file ----------------------------------------------- */

/* Print `s` as a double-quoted YAML scalar. */
static void put_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\n' || *s == '\t' ? ' ' : *s, f);
	}
	fputc('"', f);
}

/* One key: "  key: text  # note (line N)", or commented out when left for
 * the user. */
static void put_value(FILE *f, const struct imp_value *v)
{
	char lhs[IMP_KEY_LEN + IMP_TEXT_LEN + 16];
	int n = snprintf(lhs, sizeof(lhs), "  %s%s: %s", v->text[0] ? "" : "# ", v->key, v->text);
	fprintf(f, "%s%*s# %s%s", lhs, n < 30 ? 30 - n : 1, "", strncmp(v->note, "chosen: ", 8) && v->text[0] ? "from " : "",
		v->note);
	if (v->line)
		fprintf(f, " (line %d)", v->line);
	fputc('\n', f);
}

int imp_write(const struct imp_result *r, FILE *f)
{
	fprintf(f, "# Imported by `traincost import` from %s (%s).\n", r->file, kind_words[r->kind]);
	fputs("# Each value names the config key (and line) it came from, or why it was chosen.\n", f);
	if (r->incomplete)
		fputs("# Some values are left for you: set the commented-out keys before `traincost estimate`.\n", f);
	for (int i = 0; i < r->nwarn; i++)
		fprintf(f, "# warning: %s\n", r->warning[i]);
	fputs("kind: llm\nname: ", f);
	put_quoted(f, r->name);
	fputc('\n', f);
	int written = 0;
	for (int s = 0; s < IMP_SEC_COUNT; s++) {
		fprintf(f, "%s:\n", sec_names[s]);
		for (int k = 0; key_order[s][k]; k++) {
			const struct imp_value *v = imp_get(r, (enum imp_sec)s, key_order[s][k]);
			if (v) {
				put_value(f, v);
				written++;
			}
		}
	}
	/* a reader's key the writer does not know would be lost unsaid */
	assert(written == r->n);
	return fflush(f) || ferror(f) ? -1 : 0;
}
