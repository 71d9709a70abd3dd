/*
 * imp_megatron.c - a Megatron-LM / Megatron-DeepSpeed argument list (a
 * launch script, or the arguments after `--`) read into workload keys.
 * Argument names follow megatron/training/arguments.py; the launcher's
 * --nproc-per-node and --nnodes (torchrun, torch.distributed.launch) give
 * the GPU count.
 */
#include "imp_megatron.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/utf8.h"
#include "imp_util.h"

#define MEG_MAX_ARGS 1024
#define GPT2_BPE_VOCAB 50257   /* GPT-2's byte-level BPE vocabulary */
#define MEG_VOCAB_DIVISOR 128  /* --make-vocab-size-divisible-by default */

struct marg {
	char *name;   /* without "--", '_' read as '-' */
	char *value;  /* NULL for a flag */
	int line, col;
	int used;
};

struct margs {
	struct marg a[MEG_MAX_ARGS];
	int n;
	char *buf;    /* the tokens, NUL-separated, owned */
};

/* One token of shell text from t[*i]: quotes removed, a backslash before a
 * newline joining lines.  Writes it to *out (advanced past its NUL).
 * Returns 1 when a token was read, 0 at the end. */
static int next_token(const char *t, size_t len, size_t *i, int *line, int *col, char **out, int *tl,
		      int *tc)
{
	for (;;) {
		while (*i < len && (t[*i] == ' ' || t[*i] == '\t' || t[*i] == '\r' || t[*i] == '\n')) {
			if (t[*i] == '\n') {
				++*line;
				*col = 0;
			}
			++*i;
			++*col;
		}
		if (*i + 1 < len && t[*i] == '\\' && (t[*i + 1] == '\n' || t[*i + 1] == '\r')) {
			++*i;
			++*col;
			continue;
		}
		if (*i < len && t[*i] == '#') { /* a comment to the end of the line */
			while (*i < len && t[*i] != '\n')
				++*i;
			continue;
		}
		break;
	}
	if (*i >= len)
		return 0;
	*tl = *line;
	*tc = *col;
	char quote = 0;
	while (*i < len) {
		char c = t[*i];
		if (!quote && (c == ' ' || c == '\t' || c == '\r' || c == '\n'))
			break;
		if (!quote && c == '\\' && *i + 1 < len && (t[*i + 1] == '\n' || t[*i + 1] == '\r'))
			break;
		++*i;
		++*col;
		if (!quote && (c == '"' || c == '\'')) {
			quote = c;
			continue;
		}
		if (quote && c == quote) {
			quote = 0;
			continue;
		}
		if (c == '\n') {
			++*line;
			*col = 1;
		}
		*(*out)++ = c;
	}
	*(*out)++ = '\0';
	return 1;
}

/* The argument list of text into *m.  Returns 0 or -1. */
static int split_args(const char *t, size_t len, struct margs *m, struct imp_result *r, struct tc_diag *d)
{
	size_t i = 0, bad = tc_utf8_check((const unsigned char *)t, len);
	int line = 1, col = 1, tl, tc;
	const void *nul = memchr(t, '\0', len);
	if (nul && (size_t)((const char *)nul - t) < bad)
		bad = (size_t)((const char *)nul - t);
	if (bad < len) {
		for (size_t k = 0; k < bad; k++, col++)
			if (t[k] == '\n') {
				line++;
				col = 0;
			}
		return imp_err(d, r, line, col, "binary data (expected Megatron-LM arguments as UTF-8 text)");
	}
	if (!(m->buf = malloc(len + 1)))
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
	char *out = m->buf, *tok = out, *prev_flag = NULL;
	while (next_token(t, len, &i, &line, &col, &out, &tl, &tc)) {
		if (tok[0] == '-' && tok[1] == '-' && tok[2]) {
			if (m->n == MEG_MAX_ARGS)
				return imp_err(d, r, tl, tc, "more than %d arguments (expected a training command line)",
					       MEG_MAX_ARGS);
			struct marg *a = &m->a[m->n++];
			memset(a, 0, sizeof(*a));
			a->name = tok + 2;
			a->line = tl;
			a->col = tc;
			char *eq = strchr(a->name, '=');
			if (eq) {
				*eq = '\0';
				a->value = eq + 1;
			}
			for (char *p = a->name; *p; p++)
				if (*p == '_')
					*p = '-';
			prev_flag = eq ? NULL : tok;
		} else if (prev_flag && m->n) {
			m->a[m->n - 1].value = tok; /* the value of the argument before */
			prev_flag = NULL;
		}
		tok = out;
	}
	return 0;
}

/* The last occurrence of --name (as Python's argparse keeps), marked used. */
static struct marg *arg(struct margs *m, const char *name)
{
	struct marg *found = NULL;
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->a[i].name, name)) {
			m->a[i].used = 1;
			found = &m->a[i];
		}
	return found;
}

/* A whole number of [1, max] held by --name into *out (0 when absent).
 * Returns 0, or -1 (reported) for a missing or non-numeric value. */
static int arg_long(struct margs *m, const char *name, long max, long *out, struct imp_result *r,
		    struct tc_diag *d)
{
	struct marg *a = arg(m, name);
	*out = 0;
	if (!a)
		return 0;
	if (!a->value)
		return imp_err(d, r, a->line, a->col, "--%s has no value (expected a whole number)", name);
	if (a->value[0] == '$')
		return imp_err(d, r, a->line, a->col, "--%s is '%s', a shell variable (expected a number: "
			       "expand the script's variables first)", name, a->value);
	if (imp_parse_long(a->value, 1, max, out))
		return imp_err(d, r, a->line, a->col, "--%s is '%s' (expected a whole number from 1 to %ld)",
			       name, a->value, max);
	return 0;
}

/* Arguments that set one workload key to their number. */
static const struct {
	const char *arg;
	enum imp_sec sec;
	const char *key;
	long max;
} numbers[] = {
	{ "num-layers", IMP_MODEL, "layers", 10000 },
	{ "hidden-size", IMP_MODEL, "hidden", 1000000 },
	{ "num-attention-heads", IMP_MODEL, "heads", 100000 },
	{ "num-query-groups", IMP_MODEL, "kv_heads", 100000 },
	{ "kv-channels", IMP_MODEL, "head_dim", 65536 },
	{ "ffn-hidden-size", IMP_MODEL, "ffn", 100000000 },
	{ "max-position-embeddings", IMP_MODEL, "max_positions", 100000000 },
	{ "num-experts", IMP_MODEL, "experts", 65536 },
	{ "moe-router-topk", IMP_MODEL, "top_k", 65536 },
	{ "vocab-size", IMP_MODEL, "vocab", 10000000 },
	{ "seq-length", IMP_TRAINING, "seq_len", 10000000 },
	{ "global-batch-size", IMP_TRAINING, "global_batch", 100000000 },
	{ "train-iters", IMP_TRAINING, "steps", 1000000000000L },
	{ "micro-batch-size", IMP_PLAN, "micro_batch", 1000000 },
	{ "tensor-model-parallel-size", IMP_PLAN, "tp", 65536 },
	{ "pipeline-model-parallel-size", IMP_PLAN, "pp", 65536 },
	{ "context-parallel-size", IMP_PLAN, "cp", 65536 },
	{ "expert-model-parallel-size", IMP_PLAN, "ep", 65536 },
	{ "num-virtual-stages-per-pipeline-rank", IMP_PLAN, "interleave", 1024 },
};

/* Flags that set one workload key to a fixed value. */
static const struct {
	const char *arg;
	enum imp_sec sec;
	const char *key, *text;
} flags[] = {
	{ "sequence-parallel", IMP_PLAN, "sequence_parallel", "true" },
	{ "swiglu", IMP_MODEL, "ffn_act", "swiglu" },
	{ "untie-embeddings-and-output-weights", IMP_MODEL, "tied_embeddings", "false" },
	{ "disable-bias-linear", IMP_MODEL, "bias", "false" },
	{ "use-rotary-position-embeddings", IMP_MODEL, "positions", "rope" },
	{ "use-distributed-optimizer", IMP_PLAN, "zero", "1" },
	{ "overlap-grad-reduce", IMP_PLAN, "grad_overlap", "true" },
	{ "tp-comm-overlap", IMP_PLAN, "tp_comm_overlap", "true" },
	{ "use-flash-attn", IMP_TRAINING, "flash_attention", "true" },
	{ "fp16", IMP_TRAINING, "precision", "fp16" },
	{ "bf16", IMP_TRAINING, "precision", "bf16" },
	{ "checkpoint-activations", IMP_TRAINING, "recompute", "full" },
	{ "recompute-activations", IMP_TRAINING, "recompute", "selective" },
};

/* Arguments with a word as value: which word sets which key. */
static const struct {
	const char *arg, *word;
	enum imp_sec sec;
	const char *key, *text;
} words[] = {
	{ "recompute-granularity", "full", IMP_TRAINING, "recompute", "full" },
	{ "recompute-granularity", "selective", IMP_TRAINING, "recompute", "selective" },
	{ "normalization", "RMSNorm", IMP_MODEL, "norm", "rmsnorm" },
	{ "normalization", "LayerNorm", IMP_MODEL, "norm", "layernorm" },
	{ "position-embedding-type", "rope", IMP_MODEL, "positions", "rope" },
	{ "position-embedding-type", "learned_absolute", IMP_MODEL, "positions", "learned" },
	{ "fp8-format", "hybrid", IMP_TRAINING, "precision", "fp8" },
	{ "fp8-format", "e4m3", IMP_TRAINING, "precision", "fp8" },
	{ "transformer-impl", "transformer_engine", IMP_TRAINING, "flash_attention", "true" },
	{ "transformer-impl", "local", IMP_TRAINING, "flash_attention", "false" },
	{ "attention-backend", "flash", IMP_TRAINING, "flash_attention", "true" },
	{ "attention-backend", "fused", IMP_TRAINING, "flash_attention", "true" },
	{ "attention-backend", "auto", IMP_TRAINING, "flash_attention", "true" },
	{ "attention-backend", "unfused", IMP_TRAINING, "flash_attention", "false" },
	{ "attention-backend", "local", IMP_TRAINING, "flash_attention", "false" },
	{ "optimizer", "adam", IMP_TRAINING, "optimizer", "adamw" },
	{ "optimizer", "sgd", IMP_TRAINING, "optimizer", "sgd" },
};

/* Arguments (or their prefixes, ending in '-') that do not change how
 * long a step takes: read past without a warning. */
static const char *const no_time[] = {
	"lr", "min-lr", "lr-", "weight-decay", "clip-grad", "adam-", "init-method-std", "data-",
	"vocab-file", "merge-file", "tokenizer-model", "save", "save-", "load", "log-", "eval-", "split",
	"distributed-backend", "seed", "attention-dropout", "hidden-dropout", "tensorboard-", "wandb-",
	"exit-", "master-addr", "master-port", "node-rank", "rdzv-", "num-workers", "dataloader-type",
	"use-mcore-models", "mock-data", "ckpt-", "async-save", "timing-log-", "use-checkpoint-args",
	"group-query-attention", "make-vocab-size-divisible-by", "train-samples", "tokenizer-type",
	"nproc-per-node", "nnodes", "recompute-method", "recompute-num-layers", "norm-epsilon",
	"layernorm-epsilon", "rotary-", "num-layers-per-virtual-pipeline-stage", "no-load-", "finetune",
	"override-opt-param-scheduler", "use-legacy-models", "standalone", "deepspeed-config",
	"deepspeed", "overlap-param-gather", NULL
};

static int quiet_arg(const char *name)
{
	for (int i = 0; no_time[i]; i++) {
		size_t n = strlen(no_time[i]);
		if (no_time[i][n - 1] == '-' ? !strncmp(name, no_time[i], n) : !strcmp(name, no_time[i]))
			return 1;
	}
	return 0;
}

/* The tables above into r.  Returns 0 or -1. */
static int read_tables(struct margs *m, struct imp_result *r, struct tc_diag *d)
{
	char from[64], buf[32];
	int bad = 0;
	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
		long x;
		if (arg_long(m, numbers[i].arg, numbers[i].max, &x, r, d)) {
			bad = 1;
			continue;
		}
		struct marg *a = arg(m, numbers[i].arg);
		if (!a)
			continue;
		snprintf(from, sizeof(from), "--%s", numbers[i].arg);
		snprintf(buf, sizeof(buf), "%ld", x);
		imp_from(r, numbers[i].sec, numbers[i].key, buf, from, a->line, a->col);
	}
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		struct marg *a = arg(m, flags[i].arg);
		if (!a)
			continue;
		snprintf(from, sizeof(from), "--%s", flags[i].arg);
		imp_from(r, flags[i].sec, flags[i].key, flags[i].text, from, a->line, a->col);
	}
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		struct marg *a = arg(m, words[i].arg);
		if (!a || !a->value || strcmp(a->value, words[i].word))
			continue;
		snprintf(from, sizeof(from), "--%s %s", words[i].arg, words[i].word);
		imp_from(r, words[i].sec, words[i].key, words[i].text, from, a->line, a->col);
	}
	return bad ? -1 : 0;
}

/* GPUs from the launcher: --nnodes x --nproc-per-node. */
static int read_launcher(struct margs *m, struct imp_result *r, struct tc_diag *d)
{
	long nodes, per_node;
	char buf[32];
	if (arg_long(m, "nnodes", 100000, &nodes, r, d) || arg_long(m, "nproc-per-node", 1024, &per_node, r, d))
		return -1;
	if (!per_node)
		return 0;
	struct marg *a = arg(m, "nproc-per-node");
	snprintf(buf, sizeof(buf), "%ld", per_node);
	imp_from(r, IMP_PLAN, "gpus_per_node", buf, "--nproc-per-node", a->line, a->col);
	snprintf(buf, sizeof(buf), "%ld", per_node * (nodes ? nodes : 1));
	imp_from(r, IMP_PLAN, "count", buf, nodes ? "--nnodes x --nproc-per-node" :
		 "--nproc-per-node (one node: no --nnodes)", a->line, a->col);
	return 0;
}

/* Values derived from several arguments: the vocabulary, interleaving,
 * tokens from samples, the share of layers recomputed.  0 or -1. */
static int read_derived(struct margs *m, struct imp_result *r, struct tc_diag *d)
{
	long layers = 0, pp = 1, tp = 1, per_stage, samples, div, n;
	char buf[64], why[IMP_NOTE_LEN];
	const struct imp_value *v;
	if ((v = imp_get(r, IMP_MODEL, "layers")))
		imp_parse_long(v->text, 1, 10000, &layers);
	if ((v = imp_get(r, IMP_PLAN, "pp")))
		imp_parse_long(v->text, 1, 65536, &pp);
	if ((v = imp_get(r, IMP_PLAN, "tp")))
		imp_parse_long(v->text, 1, 65536, &tp);
	struct marg *tok = arg(m, "tokenizer-type");
	if (arg_long(m, "make-vocab-size-divisible-by", 1 << 20, &div, r, d))
		return -1;
	if (!imp_get(r, IMP_MODEL, "vocab") && tok && tok->value && !strcmp(tok->value, "GPT2BPETokenizer")) {
		long unit = (div ? div : MEG_VOCAB_DIVISOR) * tp;
		snprintf(buf, sizeof(buf), "%ld", (GPT2_BPE_VOCAB + unit - 1) / unit * unit);
		snprintf(why, sizeof(why), "GPT2BPETokenizer's %d tokens padded to a multiple of %ld = %ld x tp, "
			 "as Megatron-LM pads them", GPT2_BPE_VOCAB, unit, div ? div : MEG_VOCAB_DIVISOR);
		imp_chose(r, IMP_MODEL, "vocab", buf, why);
	}
	struct marg *a = arg(m, "num-layers-per-virtual-pipeline-stage");
	if (arg_long(m, "num-layers-per-virtual-pipeline-stage", 10000, &per_stage, r, d))
		return -1;
	if (per_stage && layers) {
		if (layers % (pp * per_stage))
			return imp_err(d, r, a->line, a->col, "--num-layers-per-virtual-pipeline-stage %ld does not "
				       "divide the %ld layers of a pipeline stage (expected a divisor of %ld)",
				       per_stage, layers / pp, layers / pp);
		snprintf(buf, sizeof(buf), "%ld", layers / (pp * per_stage));
		imp_from(r, IMP_PLAN, "interleave", buf, "--num-layers / (pp x --num-layers-per-virtual-pipeline-stage)",
			 a->line, a->col);
	}
	a = arg(m, "train-samples");
	if (arg_long(m, "train-samples", 1000000000000L, &samples, r, d))
		return -1;
	v = imp_get(r, IMP_TRAINING, "seq_len");
	if (samples && v && !imp_get(r, IMP_TRAINING, "steps")) {
		snprintf(buf, sizeof(buf), "%.15g", (double)samples * atof(v->text));
		imp_from(r, IMP_TRAINING, "tokens", buf, "--train-samples x --seq-length", a->line, a->col);
	}
	if ((a = arg(m, "zero-stage"))) { /* Megatron-DeepSpeed */
		long stage;
		if (!a->value || imp_parse_long(a->value, 0, 3, &stage))
			return imp_err(d, r, a->line, a->col, "--zero-stage is '%s' (expected 0 to 3)",
				       a->value ? a->value : "");
		imp_from(r, IMP_PLAN, "zero", a->value, "--zero-stage", a->line, a->col);
	}
	a = arg(m, "recompute-method");
	if (arg_long(m, "recompute-num-layers", 10000, &n, r, d))
		return -1;
	if (a && a->value && !strcmp(a->value, "block") && n && layers && n * pp < layers) {
		snprintf(buf, sizeof(buf), "%.4g", (double)(n * pp) / (double)layers);
		imp_from(r, IMP_TRAINING, "recompute_frac", buf,
			 "--recompute-method block: --recompute-num-layers of a stage's layers", a->line, a->col);
	}
	return 0;
}

/* What the arguments leave to Megatron-LM's own defaults. */
static void megatron_defaults(struct imp_result *r)
{
	imp_default(r, IMP_TRAINING, "precision", "fp32", "neither --bf16 nor --fp16: Megatron-LM trains in fp32");
	imp_default(r, IMP_TRAINING, "optimizer", "adamw", "Megatron-LM's default --optimizer adam (decoupled weight decay)");
	imp_default(r, IMP_TRAINING, "recompute", "none", "no --recompute-granularity: Megatron-LM keeps the activations");
	imp_default(r, IMP_TRAINING, "flash_attention", "false",
		    "no --use-flash-attn, --attention-backend or --transformer-impl transformer_engine");
	imp_default(r, IMP_PLAN, "framework", "megatron", "the config is a Megatron-LM argument list");
	imp_default(r, IMP_PLAN, "tp", "1", "Megatron-LM's default");
	imp_default(r, IMP_PLAN, "pp", "1", "Megatron-LM's default");
	imp_default(r, IMP_PLAN, "zero", "0", "no --use-distributed-optimizer: every rank holds the optimizer states");
	imp_default(r, IMP_PLAN, "sequence_parallel", "false", "no --sequence-parallel");
	imp_default(r, IMP_PLAN, "grad_overlap", "false", "no --overlap-grad-reduce: gradients are reduced after the backward");
}

int imp_megatron_read(const char *text, size_t len, struct imp_result *r, struct tc_diag *d)
{
	struct margs *m = calloc(1, sizeof(*m));
	int rc = -1;
	if (!m)
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
	if (split_args(text, len, m, r, d))
		goto out;
	if (m->n == 0) {
		rc = imp_err(d, r, 1, 1, "no --arguments (expected a Megatron-LM command line)");
		goto out;
	}
	if (read_tables(m, r, d) || read_launcher(m, r, d) || read_derived(m, r, d))
		goto out;
	/* No --global-batch-size: Megatron-LM takes micro-batch x dp. */
	const struct imp_value *mb = imp_get(r, IMP_PLAN, "micro_batch");
	if (mb && !imp_get(r, IMP_TRAINING, "global_batch")) {
		imp_parse_long(mb->text, 1, 1000000, &r->batch_micro);
		r->batch_what = "--micro-batch-size (Megatron-LM's default global batch)";
	}
	megatron_defaults(r);
	char unknown[IMP_WARN_LEN] = "";
	size_t used = 0;
	int nunk = 0;
	for (int i = 0; i < m->n; i++)
		if (!m->a[i].used && !quiet_arg(m->a[i].name) && used < sizeof(unknown) - 64) {
			used += (size_t)snprintf(unknown + used, sizeof(unknown) - used, "%s--%s (line %d)",
						 nunk++ ? ", " : "", m->a[i].name, m->a[i].line);
		}
	if (nunk)
		imp_warn(r, "not expressed in the workload, check they do not change the step time: %s", unknown);
	rc = 0;
out:
	free(m->buf);
	free(m);
	return rc;
}
