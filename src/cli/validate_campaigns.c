/*
 * validate_campaigns.c - `traincost validate --campaigns`: the campaign
 * model (docs/model.md, section 9) against training campaigns whose wall
 * clock was observed (tests/validation/campaigns/campaigns.yaml), as a
 * set of its own, and its one-line summary under validate's table.
 */
#include "validate_campaigns.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../io/camp_val_load.h"
#include "../model/families/campaign.h"
#include "../model/families/estimate.h"
#include "../report/json.h"
#include "../report/rows.h"

/* Where the set lives inside a validation folder. */
#define CAMP_VAL_FILE "campaigns/campaigns.yaml"

int cli_campaign_case(const struct camp_val_run *r, const struct gpu_catalog *cat,
			struct camp_val_result *out, struct plan_problem *why)
{
	struct gpu g;
	char msg[160];
	if (gpu_catalog_lookup(cat, r->gpu, &g, msg, sizeof(msg))) {
		snprintf(why->msg, sizeof(why->msg), "gpu '%s': %.160s", r->gpu, msg);
		return -1;
	}
	/* Every run of the set trained 16-bit mixed precision with Adam
	 * (tests/validation/README.md, "Campaigns"). */
	struct campaign_job j = {
		.steady_s = r->steady_s,
		.gpus = r->gpus,
		.gpus_per_node = r->gpus_per_node,
		.checkpoint_bytes = campaign_state_bytes(r->params, PREC_BF16, OPT_ADAMW),
		.host_bytes_per_s = g.pcie_bytes_per_s / 2,
	};
	if (campaign_compute(&r->campaign, &j, &out->c, why))
		return -1;
	out->error_frac = out->c.wall_s / r->wall_s - 1;
	return 0;
}

enum { V_ID, V_GPUS, V_OPERATION, V_STEADY, V_PREDICTED, V_OBSERVED, V_ERROR, V_GOODPUT,
       V_OBSERVED_RATIO, V_INTERRUPTIONS, V_INTERVAL, V_SOURCE, V_NOTE, V_NCOLS };
static const struct rep_col cols[V_NCOLS] = {
	REP_TEXT_COL("case", "campaign", REP_VIEW_ALL, 0),
	{ "gpus", "GPUs", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_ALL, 0 },
	REP_TEXT_COL("operation", "restarts", REP_VIEW_ALL, 0),
	{ "steady_s", "steady", REP_COL_DURATION, 0, 0, NULL, NULL, NULL, REP_CSV_EXP6,
	  REP_VIEW_ALL, 0 },
	{ "predicted_wall_s", "predicted", REP_COL_DURATION, 0, 0, NULL, NULL, NULL,
	  REP_CSV_EXP6, REP_VIEW_ALL, 0 },
	{ "observed_wall_s", "observed", REP_COL_DURATION, 0, 0, NULL, NULL, NULL, REP_CSV_EXP6,
	  REP_VIEW_ALL, 0 },
	{ "error_frac", "error", REP_COL_DELTA, 100, 1, " %", NULL, NULL, REP_CSV_SIG4,
	  REP_VIEW_ALL, 0 },
	{ "goodput_frac", "goodput", REP_COL_NUM, 100, 1, " %", NULL, NULL, REP_CSV_SIG4,
	  REP_VIEW_ALL, 0 },
	{ "observed_goodput_frac", "observed", REP_COL_NUM, 100, 1, " %", NULL, NULL,
	  REP_CSV_SIG4, REP_VIEW_ALL, 0 },
	{ "interruptions", "interruptions", REP_COL_AMOUNT, 0, 0, NULL, NULL, NULL, REP_CSV_SIG4,
	  REP_VIEW_ALL, 0 },
	{ "interval_s", "checkpoints", REP_COL_DURATION, 0, 0, NULL, NULL, NULL, REP_CSV_EXP6,
	  REP_VIEW_ALL, 0 },
	REP_TEXT_COL("source", "source", REP_VIEW_DATA, 0),
	REP_TEXT_COL("note", "note", REP_VIEW_DATA, 0),
};

/* The set's rows into *rows and its mean and worst absolute error. */
static void set_rows(const struct camp_val_set *set, const struct camp_val_result *res,
		     struct rep_rows *rows, double *mean, double *worst)
{
	rep_rows_init(rows, cols, V_NCOLS);
	*mean = *worst = 0;
	for (size_t i = 0; i < set->count; i++) {
		const struct camp_val_run *r = &set->run[i];
		const struct campaign *c = &res[i].c;
		struct rep_cell v[V_NCOLS] = {
			[V_ID] = { .text = r->id }, [V_GPUS] = { .num = r->gpus },
			[V_OPERATION] = { .text = camp_operation_names[c->in.operation] },
			[V_STEADY] = { .num = r->steady_s }, [V_PREDICTED] = { .num = c->wall_s },
			[V_OBSERVED] = { .num = r->wall_s }, [V_ERROR] = { .num = res[i].error_frac },
			[V_GOODPUT] = { .num = c->goodput_frac },
			[V_OBSERVED_RATIO] = { .num = r->steady_s / r->wall_s },
			[V_INTERRUPTIONS] = { .num = c->interruptions },
			[V_INTERVAL] = { .num = c->interval_s },
			[V_SOURCE] = { .text = r->source }, [V_NOTE] = { .text = r->note },
		};
		rep_rows_add(rows, v);
		*mean += fabs(res[i].error_frac) / (double)set->count;
		*worst = fmax(*worst, fabs(res[i].error_frac));
	}
}

/* Load the set of folder `dir` and run it into *set and res (of
 * CAMP_VAL_MAX_RUNS).  Returns 0, 1 when the folder has no set, or an
 * exit code after printing the problem. */
static int load_and_run(struct cli_ctx *ctx, const char *dir, const struct gpu_catalog *cat,
			struct camp_val_set *set, struct camp_val_result *res)
{
	char path[DP_PATH_LEN + 32];
	struct tc_diag d;
	struct plan_problem why = { WLF_NONE, "" };
	FILE *probe;
	snprintf(path, sizeof(path), "%s/%s", dir, CAMP_VAL_FILE);
	if (!(probe = fopen(path, "r")))
		return 1;
	fclose(probe);
	tc_diag_init(&d);
	if (camp_val_load(path, set, &d))
		return cli_report(ctx, &d);
	for (size_t i = 0; i < set->count; i++)
		if (cli_campaign_case(&set->run[i], cat, &res[i], &why)) {
			fprintf(ctx->err, "%s:%d:%d: %s\n", path, set->run[i].line, set->run[i].col,
				why.msg);
			return TC_EXIT_INPUT;
		}
	return 0;
}

/* The set's run, allocated: the set is some 50 kB. */
struct camp_val_work {
	struct camp_val_set set;
	struct camp_val_result res[CAMP_VAL_MAX_RUNS];
};

int cli_validate_campaigns(struct cli_ctx *ctx, const char *format, const char *dir,
			   const struct gpu_catalog *cat)
{
	struct camp_val_work *wk = malloc(sizeof(*wk));
	struct rep_rows rows;
	double mean, worst;
	int rc;
	if (!wk) {
		fputs("traincost validate: out of memory\n", ctx->err);
		return TC_EXIT_INTERNAL;
	}
	rc = load_and_run(ctx, dir, cat, &wk->set, wk->res);
	if (rc == 1) {
		fprintf(ctx->err, "traincost validate: no campaigns in %s (expected %s/%s)\n", dir,
			dir, CAMP_VAL_FILE);
		rc = TC_EXIT_IO;
	}
	if (rc) {
		free(wk);
		return rc;
	}
	set_rows(&wk->set, wk->res, &rows, &mean, &worst);
	if (!strcmp(format, "json")) {
		struct rep_json j;
		rep_json_doc_begin(&j, ctx->out, "validate");
		rep_json_str(&j, "set", "campaigns");
		rep_json_str(&j, "source", wk->set.source);
		rep_json_str(&j, "as_of", wk->set.as_of);
		rc = rep_rows_json(&rows, &j, "cases");
		rep_json_num(&j, "mean_abs_error_frac", mean);
		rep_json_num(&j, "worst_abs_error_frac", worst);
		rep_json_obj_end(&j);
		rc |= rep_json_finish(&j);
	} else {
		if (strcmp(format, "csv"))
			fprintf(ctx->out, "Wall clock of training campaigns: the campaign model "
				"(docs/model.md, section 9) on each run's stated steady state and "
				"operation, against its observed wall clock (%s)\n\n",
				wk->set.source);
		rc = rep_rows_print(&rows, ctx->out, format);
		if (strcmp(format, "csv"))
			fprintf(ctx->out, "\nwall-clock error over %zu campaigns: mean %.1f %%, "
				"worst %.1f %%\n", wk->set.count, 100 * mean, 100 * worst);
	}
	rep_rows_release(&rows);
	free(wk);
	if (rc) {
		fputs("traincost validate: internal error: a non-finite campaign figure\n", ctx->err);
		return TC_EXIT_INTERNAL;
	}
	return 0;
}

int cli_validate_campaigns_line(struct cli_ctx *ctx, const char *dir,
				const struct gpu_catalog *cat)
{
	struct camp_val_work *wk = malloc(sizeof(*wk));
	struct rep_rows rows;
	double mean, worst;
	if (!wk) {
		fputs("traincost validate: out of memory\n", ctx->err);
		return TC_EXIT_INTERNAL;
	}
	int rc = load_and_run(ctx, dir, cat, &wk->set, wk->res);
	if (rc == 0) {
		set_rows(&wk->set, wk->res, &rows, &mean, &worst);
		rep_rows_release(&rows);
		fprintf(ctx->out, "\nwall clock of %zu training campaigns: mean error %.1f %%, worst "
			"%.1f %% (traincost validate --campaigns)\n", wk->set.count, 100 * mean,
			100 * worst);
	}
	free(wk);
	return rc == 1 ? 0 : rc;
}
