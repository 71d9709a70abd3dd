/*
 * cmd_estimate.c - `traincost estimate FILE` (one training run, explained)
 * and `traincost explain FILE` (the roofline of every operator).
 */
#include <string.h>

#include "../report/estimate_report.h"
#include "cli.h"
#include "money.h"
#include "plan_args.h"

/* Both commands load, estimate and report; they differ in the report. */
static int run(int argc, char **argv, struct cli_ctx *ctx, const char *cmd,
	       int per_operator)
{
	struct plan_args a = { .format = "table" };
	struct money_args ma = { 0 };
	struct cli_opt opts[PLAN_ARGS_NOPTS + MONEY_NOPTS + 1] = { 0 };
	char *pos[CLI_MAX_POS];
	int npos;

	plan_args_opts(&a, opts);
	if (!per_operator)
		money_opts(&ma, opts + PLAN_ARGS_NOPTS);
	int rc = cli_parse(ctx, cmd, argc, argv, opts, pos, &npos);
	if (rc)
		return rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;
	if (npos != 1)
		return cli_usage_error(ctx, cmd, "%s", npos ? "too many files (expected one workload file)"
							    : "no workload file given (expected FILE)");

	struct workload w;
	struct gpu g;
	struct est_workspace ws = { 0 };
	struct estimate est;
	struct money m = { 0 };
	struct run_cost cost;
	if (!per_operator && (rc = money_prepare(ctx, cmd, &ma, &m)))
		return rc;
	if ((rc = plan_args_run(ctx, cmd, pos[0], &a, &w, &g, &ws, &est))) {
		money_release(&m);
		return rc;
	}
	if (per_operator) {
		rc = rep_explain(ctx->out, a.format, &w, &g, &est, &ws);
	} else if (money_cost(&m, &g, est.plan.count, est.plan.gpus_per_node, est.total_time_s, &cost)) {
		fprintf(ctx->err, "traincost %s: internal error: the run cannot be costed\n", cmd);
		rc = TC_EXIT_INTERNAL;
	} else {
		rc = rep_estimate(ctx->out, a.format, &w, &g, &est, &cost);
	}
	money_release(&m);
	est_workspace_release(&ws);
	if (rc == TC_EXIT_INTERNAL)
		return rc;
	if (rc) {
		fprintf(ctx->err, "traincost %s: internal error: non-finite value in the report\n", cmd);
		return TC_EXIT_INTERNAL;
	}
	return TC_EXIT_OK;
}

int cmd_estimate(int argc, char **argv, struct cli_ctx *ctx)
{
	return run(argc, argv, ctx, "estimate", 0);
}

int cmd_explain(int argc, char **argv, struct cli_ctx *ctx)
{
	return run(argc, argv, ctx, "explain", 1);
}
