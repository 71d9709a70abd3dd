/*
 * val_cases.h - the measured cases as the commands that judge the model on
 * them use them (val_cases.c): validate, report and the framework fits.
 */
#ifndef TC_CLI_VAL_CASES_H
#define TC_CLI_VAL_CASES_H

#include <stddef.h>

#include "cli_ctx.h"

struct gpu;
/* The folder of the measured cases of `traincost validate`: tests/validation
 * or validation in a data root (cmd_validate.c).  Returns 0, or -1 if none. */
int cli_validation_dir(const struct cli_ctx *ctx, char *out, size_t outlen);
struct val_set;
struct tc_diag;
/* Give each case the layer of the framework it names.  Returns 0 or -1. */
int cli_resolve_frameworks(struct cli_ctx *ctx, struct val_set *set, struct tc_diag *d);
/* A val_gpu_fn over a struct gpu_catalog (ctx): 0, or -1 if unknown. */
int cli_catalog_gpu(const char *id, struct gpu *out, void *ctx);
struct val_result;
struct val_case;
/* Copy into kept[] (room for n) the results `validate` counts in its
 * errors: all but those of sanity-only cases, which it shows but never
 * counts.  Returns how many (cmd_validate.c). */
size_t cli_validate_counted(const struct val_set *set, const struct val_result *res, size_t n,
			    struct val_result *kept);
/* The key of `validate`'s per-GPU table: the case's GPU id. */
const char *cli_case_gpu(const struct val_case *c);

#endif
