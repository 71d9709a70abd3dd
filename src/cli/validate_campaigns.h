/*
 * validate_campaigns.h - the campaigns set of `traincost validate`: the
 * campaign model against training campaigns whose wall clock was observed
 * (validate_campaigns.c).
 */
#ifndef TC_CLI_VALIDATE_CAMPAIGNS_H
#define TC_CLI_VALIDATE_CAMPAIGNS_H

#include "../io/camp_val_load.h"
#include "../io/gpu_load.h"
#include "../model/families/estimate.h"
#include "cli_ctx.h"

/* One run of the set as the model sees it. */
struct camp_val_result {
	struct campaign c;
	double error_frac;          /* predicted wall / observed - 1 */
};

/* The campaign of run *r (16-bit mixed precision with Adam, on its GPU's
 * host bus from catalog *cat): 0 with *out, or -1 with *why. */
int cli_campaign_case(const struct camp_val_run *r, const struct gpu_catalog *cat,
		      struct camp_val_result *out, struct plan_problem *why);

/* `validate --campaigns`: the set of validation folder `dir` in `format`
 * (table, csv, json, md).  Returns an exit code (0: written). */
int cli_validate_campaigns(struct cli_ctx *ctx, const char *format, const char *dir,
			   const struct gpu_catalog *cat);

/* The set's one-line summary under validate's table; nothing when `dir`
 * has no set.  Returns an exit code (0: written or nothing to write). */
int cli_validate_campaigns_line(struct cli_ctx *ctx, const char *dir,
				const struct gpu_catalog *cat);

#endif
