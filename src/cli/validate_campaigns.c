/*
 * validate_campaigns.c - `traincost validate --campaigns`: the campaign
 * model (docs/model.md, section 9) against training campaigns whose wall
 * clock was observed (tests/validation/campaigns/campaigns.yaml), as a
 * set of its own, and its one-line summary under validate's table; the
 * report/validate_campaigns_report.c writes them.
 */
#include "validate_campaigns.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../io/camp_val_load.h"
#include "../model/families/campaign.h"
#include "../model/families/estimate.h"
#include "../report/validate_campaigns_report.h"

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
	struct rep_campaign_run shown[CAMP_VAL_MAX_RUNS]; /* what the report shows of each */
};

/* The runs of wk as the report shows them, into wk->shown (pointing into
 * wk). */
static void show_runs(struct camp_val_work *wk)
{
	for (size_t i = 0; i < wk->set.count; i++) {
		const struct camp_val_run *r = &wk->set.run[i];
		wk->shown[i] = (struct rep_campaign_run){
			.id = r->id, .gpus = r->gpus, .steady_s = r->steady_s, .wall_s = r->wall_s,
			.source = r->source, .note = r->note, .c = &wk->res[i].c,
			.error_frac = wk->res[i].error_frac,
		};
	}
}

int cli_validate_campaigns(struct cli_ctx *ctx, const char *format, const char *dir,
			   const struct gpu_catalog *cat)
{
	struct camp_val_work *wk = malloc(sizeof(*wk));
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
	} else if (rc == 0) {
		show_runs(wk);
		if (rep_validate_campaigns(ctx->out, format, wk->set.source, wk->set.as_of, wk->shown,
					   wk->set.count)) {
			fputs("traincost validate: internal error: a non-finite campaign figure\n",
			      ctx->err);
			rc = TC_EXIT_INTERNAL;
		}
	}
	free(wk);
	return rc;
}

int cli_validate_campaigns_line(struct cli_ctx *ctx, const char *dir,
				const struct gpu_catalog *cat)
{
	struct camp_val_work *wk = malloc(sizeof(*wk));
	if (!wk) {
		fputs("traincost validate: out of memory\n", ctx->err);
		return TC_EXIT_INTERNAL;
	}
	int rc = load_and_run(ctx, dir, cat, &wk->set, wk->res);
	if (rc == 0) {
		show_runs(wk);
		rep_validate_campaigns_line(ctx->out, wk->shown, wk->set.count);
	}
	free(wk);
	return rc == 1 ? 0 : rc;
}
