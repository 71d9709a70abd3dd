/*
 * validate_fit.h - `validate --cross-validate K` and `validate
 * --fit-frameworks` (validate_fit.c).  Internal to the validate command.
 */
#ifndef TC_CLI_VALIDATE_FIT_H
#define TC_CLI_VALIDATE_FIT_H

#include "../io/gpu_load.h"
#include "../io/val_load.h"
#include "cli_ctx.h"

/* K-fold cross-validation of calibration on the cases of GPU gpu_id (NULL:
 * the first case's), written in `fmt` (table, csv, json, md).  Returns
 * the exit code. */
int cli_validate_cross(struct cli_ctx *ctx, const char *fmt, const struct val_set *set,
		       const struct gpu_catalog *cat, const char *gpu_id, int k);

/* stack_frac of every framework fitted on all counted runs, and of the
 * pooled unnamed stack per family, written in `fmt`; the cases' layers
 * keep the fitted values.  Returns the exit code. */
int cli_validate_fit_frameworks(struct cli_ctx *ctx, const char *fmt, struct val_set *set,
				struct gpu_catalog *cat);

#endif
