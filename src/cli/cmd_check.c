/*
 * cmd_check.c - `traincost check FILE...`: load each file as what it is and
 * report every problem; a workload's plan is checked as `estimate` would.
 */
#include <stdlib.h>
#include <string.h>

#include "../io/calib_file.h"
#include "../io/fw_load.h"
#include "../io/fields.h"
#include "../io/gpu_load.h"
#include "../io/meas_load.h"
#include "../io/price_load.h"
#include "../io/sweep_ids.h"
#include "../io/sweep_load.h"
#include "../io/wl_load.h"
#include "../io/yaml_load.h"
#include "../io/yaml_node.h"
#include "../model/families/estimate.h"
#include "../util/units.h"
#include "cmd_check.h"
#include "cli_ctx.h"
#include "opts.h"

enum file_kind { FK_UNKNOWN, FK_LLM, FK_GPU, FK_ARCH, FK_VISION, FK_RECSYS,
		 FK_PRICING, FK_ONPREM, FK_MEASUREMENTS, FK_CALIBRATION, FK_SWEEP,
		 FK_UNJOINABLE };

static const char *const kind_names[] = { "llm", "gpu", "arch", "vision", "recsys",
					  "pricing", "onprem", "measurements",
					  "calibration", "sweep", "unjoinable", NULL };

#define KIND_LIST "llm, vision, recsys, gpu, arch, pricing, onprem, measurements, calibration, sweep, unjoinable"

/* The folder a file lives in says what it is when `kind:` is absent. */
static enum file_kind kind_from_path(const char *path)
{
	if (strstr(path, "models/gpu/"))
		return FK_GPU;
	if (strstr(path, "models/arch/"))
		return FK_ARCH;
	if (strstr(path, "pricing/"))
		return FK_PRICING;
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
				   "missing key 'kind' (expected one of: " KIND_LIST ")");
		return fk;
	}
	if (k->type != YN_SCALAR) {
		fd_type_error(k, "kind", "one of: " KIND_LIST,
			      &(struct fd_ctx){ .file = doc->file, .d = d });
		return FK_UNKNOWN;
	}
	for (int i = 0; kind_names[i]; i++)
		if (!strcmp(k->str, kind_names[i]))
			return (enum file_kind)(i + 1);
	const char *close = fd_suggest(k->str, kind_names);
	if (close)
		tc_diag_at(d, TC_EXIT_INPUT, doc->file, k->line, k->col,
			   "unknown kind '%s' (did you mean '%s'?)", k->str, close);
	else
		tc_diag_at(d, TC_EXIT_INPUT, doc->file, k->line, k->col,
			   "unknown kind '%s' (expected one of: " KIND_LIST ")", k->str);
	return FK_UNKNOWN;
}

/* The catalog's ids, NULL-terminated (owned array, borrowed strings). */
static const char **catalog_ids(const struct gpu_catalog *cat)
{
	const char **ids = calloc(cat->count + 1, sizeof(*ids));
	for (size_t i = 0; ids && i < cat->count; i++)
		ids[i] = cat->gpus[i].id;
	return ids;
}

/* A price file of kind FK_PRICING, FK_ONPREM or FK_UNJOINABLE: its own
 * checks, then its GPU ids against the catalog. */
static int check_prices(struct cli_ctx *ctx, const char *path, enum file_kind kind,
			struct tc_diag *d)
{
	int onprem = kind == FK_ONPREM, unjoin = kind == FK_UNJOINABLE;
	struct price_unjoin u = { 0 };
	const char *today = ctx->today;
	struct tc_diag warn;
	struct gpu_catalog cat = { 0 };
	struct price_table t = { 0 };
	struct price_onprem op = { 0 };
	const char **ids = NULL;
	int rc = -1;

	tc_diag_init(&warn);
	if (onprem ? price_onprem_load_file(path, today, &op, &warn, d) :
	    unjoin ? price_unjoin_load_file(path, today, &u, &warn, d) :
	    price_load_file(path, today, &t, &warn, d))
		goto out;
	if (gpu_catalog_load(&ctx->data, &cat, d))
		goto out;
	if (!(ids = catalog_ids(&cat))) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
		goto out;
	}
	rc = onprem ? price_onprem_check_gpus(&op, ids, d) :
	     unjoin ? price_unjoin_check_gpus(&u, ids, d) : price_check_gpus(&t, ids, d);
	if (!onprem && !unjoin)
		price_check_stale(&t, today, PRICE_STALE_DAYS, &warn);
out:
	for (int i = 0; i < warn.count; i++)
		fprintf(ctx->err, "%s\n", warn.entry[i].msg);
	free(ids);
	gpu_catalog_release(&cat);
	price_table_release(&t);
	price_onprem_release(&op);
	price_unjoin_release(&u);
	return rc;
}

/* Report msg at the position of field f of w (its first line when the
 * field was not written); returns -1. */
static int at_field(struct tc_diag *d, const struct workload *w, enum wl_field f,
		    enum tc_exit code, const char *msg)
{
	const struct tc_mark *m = f > WLF_NONE && f < WLF_FIELD_COUNT ? &w->mark[f] : NULL;
	int have = m && m->line > 0;
	tc_diag_at(d, code, w->file, have ? m->line : 1, have ? m->col : 1, "%s", msg);
	return -1;
}

/*
 * What `estimate` checks once a workload has loaded: its GPU id against the
 * catalog, the plan against the model and the GPU (layout, precision, run
 * length), and the fit in memory.  The model stops at a plan's first
 * problem, so one is reported per file.  A file without a GPU (given by
 * --gpu later) has no plan to check.  Returns 0 if all pass.
 */
static int check_plan(struct cli_ctx *ctx, struct workload *w, struct tc_diag *d)
{
	struct gpu_catalog cat = { 0 };
	struct est_workspace ws = { 0 };
	struct plan_problem why = { WLF_NONE, "" };
	struct estimate e;
	struct gpu g;
	char msg[1024], need[32], have[32];

	if (!w->plan.gpu[0])
		return 0;
	if (gpu_catalog_load(&ctx->data, &cat, d))
		return -1;
	int rc = gpu_catalog_lookup(&cat, w->plan.gpu, &g, msg, sizeof(msg));
	gpu_catalog_release(&cat);
	if (rc)
		return at_field(d, w, WLF_GPU, TC_EXIT_INPUT, msg);
	if (est_workspace_init(&ws, EST_MAX_OPS))
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
	struct eff_stack stack;
	if (fw_stack(&ctx->data, w->plan.framework, &stack, d)) {
		est_workspace_release(&ws);
		return -1;
	}
	gpu_resolve(&g, &g, &stack, NULL);
	rc = step_estimate(w, &g, &ws, &e, &why);
	est_workspace_release(&ws);
	if (rc)
		return at_field(d, w, why.field, TC_EXIT_INPUT, why.msg);
	if (e.fits)
		return 0;
	if (e.fit_advice[0])
		snprintf(msg, sizeof(msg), "the plan does not fit in GPU memory (%s)", e.fit_advice);
	else
		snprintf(msg, sizeof(msg), "the plan does not fit in GPU memory (needs %s per GPU of the %s of %s)",
			 tc_fmt_bytes(e.memory_per_gpu_bytes, need, sizeof(need)),
			 tc_fmt_bytes(e.memory_capacity_bytes, have, sizeof(have)), g.id);
	return at_field(d, w, WLF_GPU, TC_EXIT_NO_FIT, msg);
}

/*
 * A sweep file: what `sweep` checks before it runs (keys, paths, values,
 * the base workload, the GPU, framework and preset ids it varies, each at
 * its value).  Rows the model rejects are results of the sweep (a row with
 * a reason), not errors of the file.  Returns 0 if all pass.
 */
static int check_sweep(struct cli_ctx *ctx, const char *path, struct tc_diag *d)
{
	struct sweep sw;
	if (sweep_load_file(path, &ctx->data, &sw, d))
		return -1;
	int rc = sweep_check_ids(&sw, &ctx->data, d);
	sweep_release(&sw);
	return rc;
}

/* Check one file; returns 0 if it is valid. */
static int check_one(struct cli_ctx *ctx, const char *path, struct tc_diag *d)
{
	struct yn_doc doc = { 0 };
	int rc = -1;
	if (yn_load_file(path, &doc, d))
		return -1;
	enum file_kind kind = detect_kind(&doc, path, d);
	switch (kind) {
	case FK_LLM:
	case FK_VISION:
	case FK_RECSYS: {
		static struct workload w; /* large: vision and recsys parts */
		rc = wl_load_doc(&doc, &ctx->data, &w, d) || check_plan(ctx, &w, d) ? -1 : 0;
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
	case FK_PRICING:
	case FK_ONPREM:
	case FK_UNJOINABLE:
		rc = check_prices(ctx, path, kind, d);
		break;
	case FK_MEASUREMENTS: {
		struct meas_set m;
		meas_set_init(&m);
		rc = meas_load_file(path, &ctx->data, &m, d);
		meas_set_release(&m);
		break;
	}
	case FK_CALIBRATION: {
		struct cal_overlay o;
		rc = calib_read_file(path, &o, d);
		break;
	}
	case FK_SWEEP:
		rc = check_sweep(ctx, path, d);
		break;
	case FK_UNKNOWN:
		break;
	}
	yn_doc_release(&doc);
	return rc;
}

int cmd_check(int argc, char **argv, struct cli_ctx *ctx)
{
	const struct cli_opt opts[] = { { 0 } };
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
			/* I/O trumps input errors, which trump a plan that does not
			 * fit: all are reported, the exit says the worst. */
			if (code == TC_EXIT_IO || worst == TC_EXIT_OK ||
			    (worst == TC_EXIT_NO_FIT && code != TC_EXIT_NO_FIT))
				worst = code;
		}
	}
	if (worst == TC_EXIT_OK)
		fprintf(ctx->out, "%d file%s ok\n", npos, npos == 1 ? "" : "s");
	return worst;
}
