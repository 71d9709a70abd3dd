/*
 * val_cases.c - where the measured cases are, the GPU and stack each
 * names, and which of them `validate` counts (val_cases.h).
 */
#include "val_cases.h"

#include <stdio.h>

#include "../io/fw_load.h"
#include "../io/gpu_load.h"
#include "../io/val_load.h"
#include "../model/analyses/validate.h"

/* Validation cases are found like the catalog (datapath.h): in each data
 * root, a source tree's tests/validation or an installation's validation. */
int cli_validation_dir(const struct cli_ctx *ctx, char *out, size_t outlen)
{
	static const char *const subs[] = { "tests/validation", "validation", NULL };
	return dp_find_dir(&ctx->data, subs, out, outlen);
}

/* GPUs come from the catalog, with its efficiency parameters. */
int cli_catalog_gpu(const char *id, struct gpu *out, void *ctx)
{
	char why[512];
	return gpu_catalog_lookup(ctx, id, out, why, sizeof(why));
}

const char *cli_case_gpu(const struct val_case *c)
{
	return c->gpu_id;
}

size_t cli_validate_counted(const struct val_set *set, const struct val_result *res, size_t n,
			    struct val_result *kept)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!set->cases[res[i].index].sanity_only)
			kept[k++] = res[i];
	return k;
}

/* Each case's software stack, from models/framework/. */
int cli_resolve_frameworks(struct cli_ctx *ctx, struct val_set *set, struct tc_diag *d)
{
	struct fw_catalog fws;
	char why[512];
	int rc = 0;

	if (fw_catalog_load(&ctx->data, &fws, d))
		return -1;
	for (size_t i = 0; i < set->count; i++) {
		struct val_case *c = &set->cases[i];
		if (!c->framework[0]) {
			/* an unnamed stack gets the profile a workload naming
			 * none gets */
			const struct framework *f = c->default_stack ?
				fw_catalog_default(&fws, c->w.kind) : NULL;
			if (f) {
				c->stack = f->layer;
				snprintf(c->w.plan.framework, sizeof(c->w.plan.framework),
					 "%s", f->layer.id);
			}
			continue;
		}
		const struct framework *f = fw_catalog_find(&fws, c->framework, why, sizeof(why));
		if (f) { /* the case owns the values; its workload names the id */
			c->stack = f->layer;
			snprintf(c->w.plan.framework, sizeof(c->w.plan.framework), "%s",
				 f->layer.id);
		} else
			rc = tc_diag_at(d, TC_EXIT_INPUT, c->file, c->line, 1, "%s", why);
	}
	fw_catalog_release(&fws);
	return rc;
}
