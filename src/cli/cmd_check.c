/*
 * cmd_check.c - `traincost check FILE...`: load each file as what it is and
 * report every problem.
 */
#include <string.h>

#include "../io/fields.h"
#include "../io/gpu_load.h"
#include "../io/wl_load.h"
#include "../io/yaml_node.h"
#include "cli.h"
#include "opts.h"

enum file_kind { FK_UNKNOWN, FK_LLM, FK_GPU, FK_ARCH, FK_VISION, FK_RECSYS };

static const char *const kind_names[] = { "llm", "gpu", "arch", "vision", "recsys", NULL };

/* The folder a file lives in says what it is when `kind:` is absent. */
static enum file_kind kind_from_path(const char *path)
{
	if (strstr(path, "models/gpu/"))
		return FK_GPU;
	if (strstr(path, "models/arch/"))
		return FK_ARCH;
	return FK_UNKNOWN;
}

/*
 * Decide the kind of a parsed document: its top-level `kind:` or its folder.
 * Reports a positioned problem and returns FK_UNKNOWN when neither says.
 */
static enum file_kind detect_kind(const struct yn_doc *doc, const char *path,
				  struct tc_diag *d)
{
	const struct yn_node *root = doc->root;
	if (!root || root->type != YN_MAP) {
		tc_diag_at(d, TC_EXIT_INPUT, doc->file, root ? root->line : 1,
			   root ? root->col : 1,
			   "the file holds %s (expected a mapping of keys to values)",
			   root ? yn_type_name(root) : "nothing");
		return FK_UNKNOWN;
	}
	const struct yn_node *k = yn_map_get(root, "kind");
	if (!k) {
		enum file_kind fk = kind_from_path(path);
		if (fk == FK_UNKNOWN)
			tc_diag_at(d, TC_EXIT_INPUT, doc->file, root->line, root->col,
				   "missing key 'kind' (expected one of: llm, gpu, arch)");
		return fk;
	}
	if (k->type != YN_SCALAR) {
		fd_type_error(k, "kind", "one of: llm, gpu, arch",
			      &(struct fd_ctx){ .file = doc->file, .d = d });
		return FK_UNKNOWN;
	}
	for (int i = 0; kind_names[i]; i++)
		if (!strcmp(k->str, kind_names[i]))
			return (enum file_kind)(i + 1);
	if (!strcmp(k->str, "pricing") || !strcmp(k->str, "sweep")) {
		tc_diag_at(d, TC_EXIT_INPUT, doc->file, k->line, k->col,
			   "kind '%s' is not supported by traincost %s (expected one of: llm, gpu, arch)",
			   k->str, TC_VERSION);
		return FK_UNKNOWN;
	}
	const char *close = fd_suggest(k->str, kind_names);
	if (close)
		tc_diag_at(d, TC_EXIT_INPUT, doc->file, k->line, k->col,
			   "unknown kind '%s' (did you mean '%s'?)", k->str, close);
	else
		tc_diag_at(d, TC_EXIT_INPUT, doc->file, k->line, k->col,
			   "unknown kind '%s' (expected one of: llm, gpu, arch)", k->str);
	return FK_UNKNOWN;
}

/* Check one file; returns 0 if it is valid. */
static int check_one(struct cli_ctx *ctx, const char *path, struct tc_diag *d)
{
	struct yn_doc doc = { 0 };
	int rc = -1;
	if (yn_load_file(path, &doc, d))
		return -1;
	switch (detect_kind(&doc, path, d)) {
	case FK_LLM:
	case FK_VISION:
	case FK_RECSYS: {
		static struct workload w; /* large: vision and recsys parts */
		rc = wl_load_doc(&doc, &ctx->data, &w, d);
		break;
	}
	case FK_GPU: {
		struct gpu g;
		rc = gpu_load_file(path, &g, d);
		break;
	}
	case FK_ARCH: {
		char fam[16];
		wl_arch_family(&doc, fam, sizeof(fam));
		if (!strcmp(fam, "vision")) {
			static struct vision_arch va;
			rc = wl_vision_arch_load_file(path, &va, d);
		} else if (!strcmp(fam, "recsys")) {
			static struct recsys_arch ra;
			rc = wl_recsys_arch_load_file(path, &ra, d);
		} else {
			struct llm_arch a;
			rc = arch_load_file(path, &a, d);
		}
		break;
	}
	case FK_UNKNOWN:
		break;
	}
	yn_doc_release(&doc);
	return rc;
}

int cmd_check(int argc, char **argv, struct cli_ctx *ctx)
{
	const struct cli_opt opts[] = { { NULL, NULL, NULL, NULL } };
	char *pos[CLI_MAX_POS];
	int npos;
	int rc = cli_parse(ctx, "check", argc, argv, opts, pos, &npos);
	if (rc)
		return rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;
	if (npos == 0)
		return cli_usage_error(ctx, "check", "no file given (expected one or more YAML files)");

	int worst = TC_EXIT_OK;
	for (int i = 0; i < npos; i++) {
		struct tc_diag d;
		tc_diag_init(&d);
		if (check_one(ctx, pos[i], &d)) {
			int code = cli_report(ctx, &d);
			/* I/O trumps input errors: both are reported, the exit says the worst. */
			if (code == TC_EXIT_IO || worst == TC_EXIT_OK)
				worst = code;
		}
	}
	if (worst == TC_EXIT_OK)
		fprintf(ctx->out, "%d file%s ok\n", npos, npos == 1 ? "" : "s");
	return worst;
}
