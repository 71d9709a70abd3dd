/*
 * cmd_import.c - `traincost import CONFIG [-o workload.yaml]`: a training
 * config of Megatron-LM, NeMo, llm-foundry, Axolotl or DeepSpeed written
 * as a commented workload file (docs/import.md).  The file is loaded by
 * the workload loader before it is kept, so what is written is a valid
 * workload or nothing is.
 */
#include <stdlib.h>
#include <string.h>

#include "../io/imp.h"
#include "../io/imp_common.h"
#include "../io/wl_load.h"
#include "../io/yaml_load.h"
#include "../util/outfile.h"
#include "../util/units.h"
#include "cmd_import.h"
#include "cli_ctx.h"
#include "opts.h"

#define CMD "import"
#define IMP_MAX_ARGV_BYTES (1u << 20)

/* The arguments after "--" as one text, a space between them.  Returns a
 * new buffer (NULL when out of memory or too long: *len then 0). */
static char *join_args(int argc, char **argv, size_t *len)
{
	size_t n = 1;
	for (int i = 0; i < argc; i++)
		n += strlen(argv[i]) + 1;
	*len = 0;
	if (n > IMP_MAX_ARGV_BYTES)
		return NULL;
	char *buf = malloc(n), *p = buf;
	if (!buf)
		return NULL;
	for (int i = 0; i < argc; i++) {
		size_t k = strlen(argv[i]);
		memcpy(p, argv[i], k);
		p += k;
		*p++ = ' ';
	}
	*p = '\0';
	*len = (size_t)(p - buf);
	return buf;
}

/* The command-line values of struct imp_options.  0 or TC_EXIT_USAGE. */
static int parse_values(struct cli_ctx *ctx, const char *kind, const char *count, const char *tokens,
			const char *seq_len, struct imp_options *o)
{
	const char *why;
	double t;
	if (kind) {
		int k = 0;
		while (imp_kind_names[k] && strcmp(imp_kind_names[k], kind))
			k++;
		if (!imp_kind_names[k])
			return cli_usage_error(ctx, CMD, "--kind '%s' is not known (expected megatron, nemo, "
					       "megatron-bridge, llm-foundry, axolotl or deepspeed)", kind);
		o->kind = (enum imp_kind)k;
	}
	if (o->preset && o->hf_config)
		return cli_usage_error(ctx, CMD, "--preset and --hf-config both name the model (expected one)");
	if (count && cli_int_arg(ctx, CMD, "--count", count, 1, 1000000, &o->count))
		return TC_EXIT_USAGE;
	if (seq_len && cli_int_arg(ctx, CMD, "--seq-len", seq_len, 1, 10000000, &o->seq_len))
		return TC_EXIT_USAGE;
	if (tokens) {
		if (tc_parse_quantity(tokens, TC_UNIT_COUNT, &t, &why) || !(t >= 1))
			return cli_usage_error(ctx, CMD, "--tokens '%s' is not a token count (expected a number "
					       "such as 2e12 or 300B)", tokens);
		o->tokens = t;
	}
	return 0;
}

/* Check that `text` loads as a workload, as `estimate` would read it.
 * Returns 0, or -1 with the loader's messages in d. */
static int verify(const char *name, const char *text, size_t len, const struct cli_ctx *ctx,
		  struct tc_diag *d)
{
	struct yn_doc doc = { 0 };
	struct workload w;
	int rc = yn_load_buffer(name, text, len, &doc, d);
	if (!rc)
		rc = wl_load_doc(&doc, &ctx->data, &w, d);
	yn_doc_release(&doc);
	return rc;
}

/* Format r, check it, write it to `output` (or standard output). */
static int write_result(struct cli_ctx *ctx, const struct imp_result *r, const char *output)
{
	char *text = NULL;
	size_t len = 0;
	struct tc_diag d;
	struct outfile of;
	FILE *mem = open_memstream(&text, &len);
	int rc = TC_EXIT_INTERNAL;

	tc_diag_init(&d);
	if (!mem)
		return TC_EXIT_INTERNAL;
	int bad = imp_write(r, mem);
	if (fclose(mem) || bad)
		goto out;
	if (!r->incomplete && verify(output ? output : "(imported workload)", text, len, ctx, &d)) {
		fprintf(ctx->err, "traincost import: the workload made from %s is not valid:\n", r->file);
		rc = cli_report(ctx, &d);
		goto out;
	}
	if (outfile_open(&of, output, ctx->out, &d)) {
		rc = cli_report(ctx, &d);
		goto out;
	}
	outfile_write(&of, text, len);
	if (outfile_commit(&of, &d)) {
		rc = cli_report(ctx, &d);
		goto out;
	}
	if (output && strcmp(output, "-"))
		fprintf(ctx->out, "Wrote %s%s\n", output, r->incomplete ?
			" (set the commented-out keys before `traincost estimate`)" : "");
	rc = TC_EXIT_OK;
out:
	free(text);
	return rc;
}

int cmd_import(int argc, char **argv, struct cli_ctx *ctx)
{
	const char *output = NULL, *kind = NULL, *count = NULL, *tokens = NULL, *seq_len = NULL;
	struct imp_options o = { 0 };
	const struct cli_opt opts[] = {
		{ .name = "output", .value = &output, .short_name = 'o', .arg = "FILE",
		  .help = "write to FILE (a temporary file renamed at the end)" },
		CLI_CHOICE("kind", &kind, imp_kind_names, "K",
			   "the config's kind (default: recognised from the content)"),
		CLI_VALUE("hf-config", &o.hf_config, "FILE", "the model's Hugging Face config.json"),
		CLI_VALUE("preset", &o.preset, "NAME", "or a preset of models/arch (llama2-70b, ...)"),
		CLI_VALUE("gpu", &o.gpu, "ID", "the GPU, which no config states"),
		CLI_VALUE("count", &count, "N", "GPUs in total, where the config does not state it"),
		CLI_VALUE("tokens", &tokens, "N", "tokens to train on, where the config does not state it"),
		CLI_VALUE("seq-len", &seq_len, "N", "sequence length, where the config does not state it"),
		CLI_VALUE("framework", &o.framework, "ID", "the stack profile (default: the config's kind)"),
		CLI_VALUE("name", &o.name, "TEXT", "the workload's name"),
		{ 0 },
	};
	char *pos[CLI_MAX_POS], *args = NULL;
	int npos, rc, own = argc;
	size_t alen = 0;
	struct tc_diag d;
	struct imp_result *r = NULL;

	/* The arguments after "--" are a Megatron-LM command line, not ours. */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			own = i;
			break;
		}
	tc_diag_init(&d);
	rc = cli_parse(ctx, CMD, own, argv, opts, pos, &npos);
	if (rc) {
		rc = rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;
		goto out;
	}
	if ((rc = parse_values(ctx, kind, count, tokens, seq_len, &o)))
		goto out;
	if (npos + (own < argc) != 1) {
		rc = cli_usage_error(ctx, CMD, "%s", (npos + (own < argc)) ? "too many configs (expected one CONFIG, "
				     "or arguments after --)" : "no config given (expected CONFIG, or -- and "
				     "Megatron-LM arguments)");
		goto out;
	}
	if (!(r = malloc(sizeof(*r)))) {
		rc = TC_EXIT_INTERNAL;
		goto out;
	}
	if (own < argc) {
		if (!(args = join_args(argc - own - 1, argv + own + 1, &alen))) {
			rc = cli_usage_error(ctx, CMD, "the arguments after -- are longer than 1 MiB");
			goto out;
		}
		if (o.kind == IMP_AUTO)
			o.kind = IMP_MEGATRON;
		rc = imp_load_text("(arguments)", args, alen, &o, &ctx->data, r, &d);
	} else {
		rc = imp_load_file(pos[0], &o, &ctx->data, r, &d);
	}
	if (rc) {
		rc = cli_report(ctx, &d);
		goto out;
	}
	for (int i = 0; i < r->nwarn; i++)
		fprintf(ctx->err, "traincost import: warning: %s\n", r->warning[i]);
	rc = write_result(ctx, r, output);
out:
	free(args);
	free(r);
	return rc;
}
