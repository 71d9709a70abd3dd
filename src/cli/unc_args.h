/*
 * unc_args.h - the uncertainty options shared by estimate, compare and plan:
 * `--uncertainty[=N]` and `--seed S`, the Monte Carlo spec they describe
 * (spreads from a calibration or the documented defaults), its workspace,
 * and the JSON object every command writes for one result.
 */
#ifndef TC_CLI_UNC_ARGS_H
#define TC_CLI_UNC_ARGS_H

#include "../model/analyses/calibrate.h"
#include "../model/money/run_cost.h"
#include "../model/analyses/uncertainty.h"
#include "opts.h"

struct unc_args {
	int on;              /* --uncertainty given */
	const char *samples; /* its =N, or NULL */
	const char *seed;    /* --seed S, or NULL */
};

/* Append --uncertainty and --seed bound to *u to *t. */
void unc_args_opts(struct unc_args *u, struct cli_opts *t);

/*
 * The spec the options describe: spreads from `cal` when it holds a
 * calibration (cal->eff.measurements > 0), else the defaults; N (default
 * UNC_DEFAULT_SAMPLES) and the seed (default 1).  No cost, deadline or
 * budget.  Returns 0, or TC_EXIT_USAGE after printing the problem.
 */
int unc_args_spec(struct cli_ctx *ctx, const char *cmd, const struct unc_args *u,
		  const struct cal_overlay *cal, struct unc_spec *s);

/* Price the samples on the cheapest offer of *cost (its billing, kind and
 * spot assumptions); an unpriced cost leaves *s without one.  The offer is
 * borrowed from cost's price tables. */
void unc_spec_price(struct unc_spec *s, const struct run_cost *cost);

/* unc_workspace_init for s->samples; prints "out of memory" and returns
 * TC_EXIT_INTERNAL when it fails, else 0. */
int unc_args_workspace(struct cli_ctx *ctx, const char *cmd, const struct unc_spec *s,
		       struct unc_workspace *ws);


#endif
