/*
 * cmd_estimate.c - `traincost estimate FILE` (one training run, explained)
 * and `traincost explain FILE` (the roofline of every operator).
 */
#include <string.h>

#include "../report/estimate_record.h"
#include "../report/estimate_report.h"
#include <stdlib.h>


#include "../model/analyses/uncertainty.h"
#include "../report/explain_report.h"
#include "../report/plot_estimate.h"
#include "../util/units.h"
#include "cmd_estimate.h"
#include "cli_ctx.h"
#include "money.h"
#include "plan_args.h"
#include "plot_out.h"
#include "unc_args.h"

/* The estimate's own uncertainty targets: probabilities of meeting them. */
struct unc_targets {
	const char *deadline, *budget;
};

static void target_opts(struct unc_targets *u, struct cli_opts *t)
{
	const struct cli_opt rows[] = {
		CLI_VALUE("deadline", &u->deadline, "D",
			  "report the probability of finishing within D (with --uncertainty)"),
		CLI_VALUE("budget", &u->budget, "USD",
			  "report the probability of costing at most USD (50000, $50,000, 2.5k or 3M)"),
	};
	CLI_OPTS_ADD_GROUP(t, "Uncertainty:", rows);
}

/*
 * Monte Carlo over the efficiency parameters (and spot preemptions) around
 * the point estimate.  Returns 0 with *r filled, or an exit code.
 */
static int run_uncertainty(struct cli_ctx *ctx, const char *cmd, const struct unc_args *u,
			   const struct unc_targets *t, const struct workload *w,
			   const struct gpu *g, const struct cal_overlay *cal,
			   const struct run_cost *cost, struct unc_result *r)
{
	struct unc_spec s;
	struct unc_workspace ws = { 0 };
	struct plan_problem why = { WLF_NONE, "" };
	const char *bad;
	int rc;

	if ((rc = unc_args_spec(ctx, cmd, u, cal, &s)))
		return rc;
	if (t->deadline && (tc_parse_quantity(t->deadline, TC_UNIT_SECONDS, &s.deadline_s, &bad) ||
			    s.deadline_s <= 0))
		return cli_usage_error(ctx, cmd, "--deadline '%s' is not valid (expected a duration such as 14d)",
				       t->deadline);
	if (t->budget && money_budget_arg(ctx, cmd, t->budget, &s.budget_usd))
		return TC_EXIT_USAGE;
	unc_spec_price(&s, cost);
	s.wall = !cost->campaign_hopeless; /* P10-P90 of the wall clock too */
	if ((rc = unc_args_workspace(ctx, cmd, &s, &ws)))
		return rc;
	struct workload *pw = malloc(sizeof(*pw)); /* the run as priced */
	if (!pw) {
		unc_workspace_release(&ws);
		fprintf(ctx->err, "traincost %s: out of memory\n", cmd);
		return TC_EXIT_INTERNAL;
	}
	money_priced_workload(cost, w, pw);
	rc = unc_run(pw, g, &s, &ws, r, &why);
	free(pw);
	unc_workspace_release(&ws);
	if (rc) {
		fprintf(ctx->err, "traincost %s: --uncertainty: %s\n", cmd, why.msg);
		return TC_EXIT_INPUT;
	}
	return 0;
}

/*
 * --plot: the chart of estimate (ws NULL) or of explain, written before
 * the table so that a chart that cannot be written stops the command
 * first.  Returns 0 (also without --plot) or an exit code (printed).
 */
static int draw(struct cli_ctx *ctx, const char *cmd, const char *path,
		const struct workload *w, const struct gpu *g, const struct estimate *e,
		const struct est_workspace *ws)
{
	struct svg s;
	if (!path)
		return 0;
	if (ws)
		plot_explain(&s, 1, w, g, e, ws);
	else
		plot_estimate(&s, 1, w, g, e);
	return plot_out_write(ctx, cmd, &s, path);
}

/* The spot notice against the checkpoint write where the estimate could
 * not judge it (a workload that states its notice was warned of with the
 * estimate): the preemptions of --pricing spot against their provider's
 * notice, or a workload's own rate against the assumed one when nothing
 * spot is priced.  Returns 0, so that it can sit in a chain of conditions. */
static int spot_warning(const struct workload *w, const struct run_cost *cost,
			struct estimate *e)
{
	unsigned both = 1u << CAMP_P_PREEMPT | 1u << CAMP_P_NOTICE;
	const struct price_table *t = cost->range.cheapest.table;
	char whose[PRICE_ID_LEN + 48];
	if ((w->campaign.set & both) == both)
		return 0;
	if (cost->spot_counted && !cost->campaign_hopeless) {
		if (cost->spot.notice_given)
			snprintf(whose, sizeof(whose), "the workload states it");
		else if (cost->spot.notice_known)
			snprintf(whose, sizeof(whose), "%s states it", t->provider);
		else
			snprintf(whose, sizeof(whose), "assumed: %s states none",
				 t ? t->provider : "no offer");
		campaign_spot_warning(e, &cost->campaign, whose);
	} else if (!cost->spot_counted && (w->campaign.set & both) == 1u << CAMP_P_PREEMPT) {
		campaign_spot_warning(e, &e->campaign, "assumed: nothing spot is priced");
	}
	return 0;
}

/* Both commands load, estimate and report; they differ in the report. */
static int run(int argc, char **argv, struct cli_ctx *ctx, const char *cmd,
	       int per_operator)
{
	struct plan_args a = { .format = "table" };
	struct money_args ma = { 0 };
	struct unc_args ua = { 0 };
	struct unc_targets ut = { 0 };
	const char *plot = NULL;
	const struct cli_opt mine[] = {
		CLI_VALUE("plot", &plot, "FILE", per_operator ?
			  "also draw the operators on the GPU's roofline as an SVG chart into FILE" :
			  "also draw where the step time goes and the memory per GPU as an SVG "
			  "chart into FILE"),
	};
	struct cli_opts opts = { 0 };
	char *pos[CLI_MAX_POS];
	int npos;

	CLI_OPTS_ADD(&opts, mine);
	plan_args_opts(&a, &opts);
	if (!per_operator) {
		money_opts(&ma, &opts);
		unc_args_opts(&ua, &opts);
		target_opts(&ut, &opts);
	}
	int rc = cli_parse(ctx, cmd, argc, argv, opts.row, pos, &npos);
	if (rc)
		return rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;
	if ((rc = plot_out_check(ctx, cmd, plot)))
		return rc;
	if (npos != 1)
		return cli_usage_error(ctx, cmd, "%s", npos ? "too many files (expected one workload file)"
							    : "no workload file given (expected FILE)");

	struct workload w;
	struct gpu g;
	struct est_workspace ws = { 0 };
	struct estimate est;
	struct money m = { 0 };
	struct run_cost cost;
	struct cal_overlay cal;
	struct unc_result unc;
	if (!per_operator && (rc = money_parse(ctx, cmd, &ma, &m)))
		return rc;
	if ((rc = plan_args_run(ctx, cmd, pos[0], &a, &w, &g, &ws, &est, &cal)))
		return rc;
	if (!per_operator && (rc = money_load(ctx, cmd, &ma, &m))) {
		est_workspace_release(&ws);
		return rc;
	}
	m.network_fixed = a.network != NULL;
	if (!per_operator && m.in.kind == COST_SPOT)
		money_warn_spot(ctx, cmd, &m.set, m.tables, m.ntables, &g);
	if (per_operator) {
		rc = draw(ctx, cmd, plot, &w, &g, &est, &ws);
		if (!rc)
			rc = rep_explain(ctx->out, a.format, &w, &g, &est, &ws);
	} else if (money_cost(&m, &g, &w, &est, &cost)) {
		fprintf(ctx->err, "traincost %s: internal error: the run cannot be costed\n", cmd);
		rc = TC_EXIT_INTERNAL;
	} else if (!spot_warning(&w, &cost, &est) && ua.on &&
		   (rc = run_uncertainty(ctx, cmd, &ua, &ut, &w, &g, &cal, &cost, &unc))) {
		money_release(&m);
		est_workspace_release(&ws);
		return rc;
	} else if (!(rc = draw(ctx, cmd, plot, &w, &g, &est, NULL))) {
		rc = rep_estimate(ctx->out, a.format, &w, &g, &est, &cost, ua.on ? &unc : NULL);
	}
	if (rc == TC_EXIT_IO) {
		money_release(&m);
		est_workspace_release(&ws);
		return rc;
	}
	money_release(&m);
	est_workspace_release(&ws);
	if (rc == TC_EXIT_INTERNAL)
		return rc;
	if (rc) {
		fprintf(ctx->err, "traincost %s: internal error: non-finite value in the report\n", cmd);
		return TC_EXIT_INTERNAL;
	}
	/* The report is printed either way; scripts learn from the status that
	 * the plan cannot run as written. */
	return per_operator || est.fits ? TC_EXIT_OK : TC_EXIT_NO_FIT;
}

int cmd_estimate(int argc, char **argv, struct cli_ctx *ctx)
{
	return run(argc, argv, ctx, "estimate", 0);
}

int cmd_explain(int argc, char **argv, struct cli_ctx *ctx)
{
	return run(argc, argv, ctx, "explain", 1);
}
