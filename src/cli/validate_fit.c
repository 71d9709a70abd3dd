/*
 * validate_fit.c - the two fitting modes of `traincost validate`:
 * `--cross-validate K` (calibration on K-1 folds, scored on the one held
 * out) and `--fit-frameworks` (stack_frac of every framework); the
 * report/validate_fit_report.c writes their results.
 */
#include <stdlib.h>
#include <string.h>

#include "../io/gpu_load.h"
#include "../model/analyses/crossval.h"
#include "../model/analyses/fw_fit.h"
#include "../report/validate_fit_report.h"
#include "cli_ctx.h"
#include "val_cases.h"
#include "validate_fit.h"

static int out_of_memory(struct cli_ctx *ctx)
{
	fputs("traincost validate: out of memory\n", ctx->err);
	return TC_EXIT_INTERNAL;
}

int cli_validate_cross(struct cli_ctx *ctx, const char *fmt, const struct val_set *set,
		       const struct gpu_catalog *cat, const char *gpu_id, int k)
{
	struct gpu g;
	struct tc_diag d;
	char why[512];
	const char *id = gpu_id ? gpu_id : set->count ? set->cases[0].gpu_id : "";
	if (gpu_catalog_lookup(cat, id, &g, why, sizeof(why))) {
		fprintf(ctx->err, "traincost validate: %s\n", why);
		return TC_EXIT_INPUT;
	}
	struct val_cv_fold *f = calloc((size_t)k, sizeof(*f));
	if (!f)
		return out_of_memory(ctx);
	tc_diag_init(&d);
	if (val_cross_validate(set->cases, set->count, &g, (size_t)k, NULL, f, &d)) {
		free(f);
		return cli_report(ctx, &d);
	}
	int rc = rep_validate_folds(ctx->out, fmt, g.id, f, k);
	free(f);
	if (rc) {
		fputs("traincost validate: internal error: a non-finite error statistic or out of "
		      "memory\n", ctx->err);
		return TC_EXIT_INTERNAL;
	}
	return TC_EXIT_OK;
}

/* The fits of every framework on all counted runs (named, *nnamed of
 * them), then of the stack nobody named (pooled, *npooled): every run of
 * a family that names a framework, pooled, with the defaults below the
 * fitted rate (models/framework/generic.yaml).  Each array holds
 * FW_FIT_MAX.  Returns 0, or -1 when out of memory. */
static int fit_all(struct val_set *set, struct gpu_catalog *cat, struct fw_fit *named,
		   int *nnamed, struct fw_fit *pooled, int *npooled)
{
	size_t n = set->count ? set->count : 1;
	unsigned char *use = malloc(n);
	struct val_case *pool = malloc(n * sizeof(*pool));
	int rc = -1;
	if (!use || !pool)
		goto out;
	memset(use, 1, set->count);
	for (size_t i = 0; i < set->count; i++)
		set->cases[i].stack.set &= ~(1ULL << eff_id_stack_frac);
	if ((*nnamed = fw_fit_shrunk(set->cases, set->count, use, cli_catalog_gpu, cat, named,
				     FW_FIT_MAX)) < 0)
		goto out;
	memcpy(pool, set->cases, set->count * sizeof(*pool));
	for (size_t i = 0; i < set->count; i++) {
		struct val_case *c = &pool[i];
		if (c->framework[0])
			snprintf(c->framework, sizeof(c->framework), "generic-%s", c->family);
		memset(&c->w.plan.framework, 0, sizeof(c->w.plan.framework));
		memset(&c->stack, 0, sizeof(c->stack));
	}
	if ((*npooled = fw_fit_stack(pool, set->count, use, cli_catalog_gpu, cat, pooled,
				     FW_FIT_MAX)) < 0)
		goto out;
	rc = 0;
out:
	free(use);
	free(pool);
	return rc;
}

int cli_validate_fit_frameworks(struct cli_ctx *ctx, const char *fmt, struct val_set *set,
				struct gpu_catalog *cat)
{
	struct fw_fit *fits = calloc(2 * FW_FIT_MAX, sizeof(*fits));
	int nnamed = 0, npooled = 0;
	if (!fits || fit_all(set, cat, fits, &nnamed, fits + FW_FIT_MAX, &npooled)) {
		free(fits);
		return out_of_memory(ctx);
	}
	int rc = rep_validate_fits(ctx->out, fmt, fits, nnamed, fits + FW_FIT_MAX, npooled);
	free(fits);
	if (rc) {
		fputs("traincost validate: internal error: a non-finite fitted value or out of "
		      "memory\n", ctx->err);
		return TC_EXIT_INTERNAL;
	}
	return TC_EXIT_OK;
}
