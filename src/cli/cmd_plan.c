/*
 * cmd_plan.c - `traincost plan FILE`: the cheapest plan that meets a
 * deadline, the fastest within a budget, and the Pareto front of time
 * against cost, over GPU types, counts and parallel layouts.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../io/gpu_load.h"
#include "../io/price_load.h"
#include "../io/wl_load.h"
#include "../model/planner.h"
#include "../util/units.h"
#include "../report/json.h"
#include "cli.h"
#include "plan_args.h"
#include "opts.h"

#define PLAN_MAX_GPUS 65536
#define PLAN_MAX_TYPES 64

static const char *const formats[] = { "table", "csv", "json", NULL };
static const char *const rec_names[] = { "none", "selective", "full" };

struct price_ctx {
	const struct price_set *prices;
	enum cost_kind kind;
};

/* plan_price_fn over the loaded price tables: the cheapest offer of at
 * least a node's GPUs (the shape the plan's communication assumes). */
static int price_cb(void *vctx, const struct gpu *g, int count, double run_s,
		    double *cost, const char **prov, const char **inst)
{
	const struct price_ctx *c = vctx;
	struct cost_range r;
	double shape = count < g->gpus_per_node ? count : g->gpus_per_node;
	if (cost_range_shaped(c->prices->tables, c->prices->count, g->id, c->kind, count,
			      shape, run_s, &r))
		return -1;
	*cost = r.cheapest.run.cost_usd;
	*prov = r.cheapest.table->provider;
	*inst = r.cheapest.offer->instance;
	return 0;
}

/* Layout as "tp 8 pp 4 dp 16 zero 1 mb 1 rec selective v 2 sp". */
static void layout(const struct plan_point *p, char *buf, size_t n)
{
	snprintf(buf, n, "tp %d pp %d dp %d zero %d mb %d rec %s%s%s",
		 p->plan.tp, p->plan.pp, p->plan.dp, p->plan.zero, p->plan.micro_batch,
		 rec_names[p->recompute],
		 p->plan.interleave > 1 ? " v " : "",
		 p->plan.interleave > 1 ? (char[12]){ 0 } : "");
	if (p->plan.interleave > 1) {
		size_t l = strlen(buf);
		snprintf(buf + l, n - l, "%d", p->plan.interleave);
	}
	if (p->plan.sequence_parallel && p->plan.tp > 1) {
		size_t l = strlen(buf);
		snprintf(buf + l, n - l, " sp");
	}
}

static void print_row(struct cli_ctx *ctx, const char *fmt, const char *section,
		      const struct plan_point *p, const struct gpu *gpus)
{
	char lay[128], t[32];
	layout(p, lay, sizeof(lay));
	if (!strcmp(fmt, "csv")) {
		fprintf(ctx->out, "%s,%s,%d,%d,%d,%d,%d,%d,%s,%d,%d,%.6g,%.6g,%.2f,%s,%s\n",
			section, gpus[p->gpu].id, p->plan.count, p->plan.tp, p->plan.pp,
			p->plan.dp, p->plan.zero, p->plan.micro_batch, rec_names[p->recompute],
			p->plan.interleave, p->plan.sequence_parallel && p->plan.tp > 1,
			p->step_time_s, p->total_time_s, p->cost_usd, p->provider, p->instance);
		return;
	}
	tc_fmt_duration(p->total_time_s, t, sizeof(t));
	fprintf(ctx->out, "  %-16s %6d  %-44s %10s  $%12.0f  %s %s\n", gpus[p->gpu].id,
		p->plan.count, lay, t, p->cost_usd, p->provider, p->instance);
}

static void json_row(struct rep_json *j, const struct plan_point *p,
		     const struct gpu *gpus)
{
	rep_json_obj_begin(j, NULL);
	rep_json_str(j, "gpu", gpus[p->gpu].id);
	rep_json_int(j, "count", p->plan.count);
	rep_json_int(j, "tp", p->plan.tp);
	rep_json_int(j, "pp", p->plan.pp);
	rep_json_int(j, "dp", p->plan.dp);
	rep_json_int(j, "zero", p->plan.zero);
	rep_json_int(j, "micro_batch", p->plan.micro_batch);
	rep_json_str(j, "recompute", rec_names[p->recompute]);
	rep_json_int(j, "interleave", p->plan.interleave);
	rep_json_bool(j, "sequence_parallel", p->plan.sequence_parallel && p->plan.tp > 1);
	rep_json_num(j, "step_time_s", p->step_time_s);
	rep_json_num(j, "total_time_s", p->total_time_s);
	rep_json_num(j, "cost_usd", p->cost_usd);
	rep_json_str(j, "provider", p->provider);
	rep_json_str(j, "instance", p->instance);
	rep_json_obj_end(j);
}

/* Sort by time, then cost. */
static int by_time(const void *a, const void *b)
{
	const struct plan_point *x = a, *y = b;
	if (x->total_time_s != y->total_time_s)
		return x->total_time_s < y->total_time_s ? -1 : 1;
	return (x->cost_usd > y->cost_usd) - (x->cost_usd < y->cost_usd);
}

int cmd_plan(int argc, char **argv, struct cli_ctx *ctx)
{
	const char *deadline_s = NULL, *budget_s = NULL, *gpus_s = NULL,
		   *max_s = NULL, *pricing = "on-demand", *fmt = "table",
		   *calibration = NULL;
	struct cli_opt opts[] = {
		{ "deadline", &deadline_s, NULL, NULL },
		{ "budget", &budget_s, NULL, NULL },
		{ "gpus", &gpus_s, NULL, NULL },
		{ "max-gpus", &max_s, NULL, NULL },
		{ "pricing", &pricing, NULL, cost_kind_names },
		{ "format", &fmt, NULL, formats },
		{ "calibration", &calibration, NULL, NULL },
		{ NULL, NULL, NULL, NULL },
	};
	char *pos[CLI_MAX_POS];
	int npos, rc;
	rc = cli_parse(ctx, "plan", argc, argv, opts, pos, &npos);
	if (rc)
		return rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;
	if (npos != 1)
		return cli_usage_error(ctx, "plan", "%s", npos ? "too many files (expected one workload file)"
							      : "no workload file given (expected FILE)");
	double deadline = 0, budget = 0;
	const char *why = NULL;
	if (deadline_s && (tc_parse_quantity(deadline_s, TC_UNIT_SECONDS, &deadline, &why) || !(deadline > 0)))
		return cli_usage_error(ctx, "plan", "--deadline '%s' is not valid (expected a duration such as 14d or 36h)",
				       deadline_s);
	if (budget_s && (tc_parse_quantity(budget_s, TC_UNIT_USD, &budget, &why) || !(budget > 0)))
		return cli_usage_error(ctx, "plan", "--budget '%s' is not valid (expected dollars such as 50000 or $50000)",
				       budget_s);
	int max_gpus = 4096;
	if (max_s && cli_int_arg(ctx, "plan", "max-gpus", max_s, 1, PLAN_MAX_GPUS, &max_gpus))
		return TC_EXIT_USAGE;

	struct tc_diag d;
	struct workload w;
	struct gpu_catalog cat = { 0 };
	struct price_set prices = { 0 };
	struct gpu *gpus = NULL;
	struct plan_point *pts = NULL;
	size_t npts = 0;
	int *front = NULL;
	char today[PRICE_DATE_LEN];
	tc_diag_init(&d);
	if (wl_load_file(pos[0], &ctx->data, &w, &d))
		return cli_report(ctx, &d);
	struct cal_overlay cal;
	if ((rc = cli_load_catalog(ctx, calibration, &cat, &cal)))
		return rc;
	if (price_today(today, sizeof(today)) ||
	    price_load_all(&ctx->data, today, &prices, NULL, &d)) {
		rc = d.count ? cli_report(ctx, &d) : TC_EXIT_INTERNAL;
		goto out;
	}
	struct price_ctx pc = { &prices, (enum cost_kind)cost_kind_parse(pricing) };
	gpus = calloc(PLAN_MAX_TYPES, sizeof(*gpus));
	if (!gpus)
		goto oom;
	int ngpus = 0;
	if (gpus_s) {
		char list[1024];
		snprintf(list, sizeof(list), "%s", gpus_s);
		for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
			char msg[512];
			if (ngpus == PLAN_MAX_TYPES) {
				rc = cli_usage_error(ctx, "plan", "--gpus lists more than %d GPUs", PLAN_MAX_TYPES);
				goto out;
			}
			if (gpu_catalog_lookup(&cat, tok, &gpus[ngpus], msg, sizeof(msg))) {
				rc = cli_usage_error(ctx, "plan", "--gpus: %s", msg);
				goto out;
			}
			ngpus++;
		}
	} else {
		/* Every whole GPU of the catalog that has an offer of this kind. */
		for (size_t i = 0; i < cat.count && ngpus < PLAN_MAX_TYPES; i++) {
			struct cost_range r;
			if (cat.gpus[i].mig_of[0])
				continue;
			if (cost_range(prices.tables, prices.count, cat.gpus[i].id, pc.kind, 0, 0, &r))
				continue;
			gpus[ngpus++] = cat.gpus[i];
		}
	}
	struct planner_in in = { .w = &w, .gpus = gpus, .ngpus = ngpus, .max_gpus = max_gpus,
				 .price = price_cb, .price_ctx = &pc };
	search_knobs_all(&in.knobs);
	struct plan_problem closest = { WLF_NONE, "" };
	if (planner_run(&in, &pts, &npts, &closest))
		goto oom;
	if (!npts) {
		fprintf(ctx->err, "traincost plan: no plan fits on up to %d GPUs of the %d types with %s prices%s%s\n",
			max_gpus, ngpus, cost_kind_names[pc.kind], closest.msg[0] ? ": " : "", closest.msg);
		rc = TC_EXIT_INPUT;
		goto out;
	}
	qsort(pts, npts, sizeof(*pts), by_time);
	front = calloc(npts, sizeof(*front));
	if (!front)
		goto oom;
	planner_pareto(pts, npts, front);

	/* The answer: cheapest by the deadline, fastest within the budget, or
	 * every plan meeting both. */
	long best = -1;
	size_t nboth = 0;
	for (size_t i = 0; i < npts; i++) {
		int in_d = !deadline_s || pts[i].total_time_s <= deadline;
		int in_b = !budget_s || pts[i].cost_usd <= budget;
		if (!in_d || !in_b)
			continue;
		nboth++;
		if (best < 0 ||
		    (deadline_s && !budget_s && pts[i].cost_usd < pts[best].cost_usd) ||
		    (!deadline_s && budget_s && pts[i].total_time_s < pts[best].total_time_s))
			best = (long)i;
	}
	int json = !strcmp(fmt, "json"), csv = !strcmp(fmt, "csv");
	char dl[32] = "", bu[32] = "";
	if (deadline_s)
		tc_fmt_duration(deadline, dl, sizeof(dl));
	if (budget_s)
		snprintf(bu, sizeof(bu), "$%.0f", budget);
	/* When nothing meets: the closest, and by how much. */
	char miss[512] = "";
	if ((deadline_s || budget_s) && !nboth) {
		size_t fastest = 0, cheapest = 0;
		for (size_t i = 0; i < npts; i++) {
			if (pts[i].total_time_s < pts[fastest].total_time_s)
				fastest = i;
			if (pts[i].cost_usd < pts[cheapest].cost_usd)
				cheapest = i;
		}
		char t[32];
		size_t used = 0;
		if (deadline_s) {
			tc_fmt_duration(pts[fastest].total_time_s, t, sizeof(t));
			used += (size_t)snprintf(miss + used, sizeof(miss) - used,
						 "the fastest plan (%d x %s) takes %s, %.0f%% over the %s deadline",
						 pts[fastest].plan.count, gpus[pts[fastest].gpu].id, t,
						 100 * (pts[fastest].total_time_s / deadline - 1), dl);
		}
		if (budget_s && used < sizeof(miss))
			snprintf(miss + used, sizeof(miss) - used,
				 "%sthe cheapest plan (%d x %s) costs $%.0f, %.0f%% over the %s budget",
				 used ? "; " : "", pts[cheapest].plan.count, gpus[pts[cheapest].gpu].id,
				 pts[cheapest].cost_usd, 100 * (pts[cheapest].cost_usd / budget - 1), bu);
	}

	if (json) {
		struct rep_json j;
		rep_json_init(&j, ctx->out);
		rep_json_obj_begin(&j, NULL);
		rep_json_int(&j, "format_version", 1);
		rep_json_str(&j, "kind", "plan");
		rep_json_str(&j, "workload", w.name);
		rep_json_str(&j, "pricing", cost_kind_names[pc.kind]);
		if (deadline_s)
			rep_json_num(&j, "deadline_s", deadline);
		if (budget_s)
			rep_json_num(&j, "budget_usd", budget);
		rep_json_arr_begin(&j, "meets");
		for (size_t i = 0; i < npts && (deadline_s || budget_s); i++) {
			int in_d = !deadline_s || pts[i].total_time_s <= deadline;
			int in_b = !budget_s || pts[i].cost_usd <= budget;
			int show = (deadline_s && budget_s) ? in_d && in_b : (long)i == best;
			if (show)
				json_row(&j, &pts[i], gpus);
		}
		rep_json_arr_end(&j);
		if (miss[0])
			rep_json_str(&j, "closest", miss);
		rep_json_arr_begin(&j, "pareto");
		for (size_t i = 0; i < npts; i++)
			if (front[i])
				json_row(&j, &pts[i], gpus);
		rep_json_arr_end(&j);
		rep_json_obj_end(&j);
		if (rep_json_finish(&j)) {
			fprintf(ctx->err, "traincost plan: internal error: non-finite value in '%s'\n", j.bad_key);
			rc = TC_EXIT_INTERNAL;
		}
	} else if (csv) {
		fprintf(ctx->out, "section,gpu,count,tp,pp,dp,zero,micro_batch,recompute,interleave,"
				  "sequence_parallel,step_time_s,total_time_s,cost_usd,provider,instance\n");
		for (size_t i = 0; i < npts && (deadline_s || budget_s); i++) {
			int in_d = !deadline_s || pts[i].total_time_s <= deadline;
			int in_b = !budget_s || pts[i].cost_usd <= budget;
			int show = (deadline_s && budget_s) ? in_d && in_b : (long)i == best;
			if (show)
				print_row(ctx, fmt, deadline_s && budget_s ? "meets" :
						    deadline_s ? "cheapest" : "fastest", &pts[i], gpus);
		}
		for (size_t i = 0; i < npts; i++)
			if (front[i])
				print_row(ctx, fmt, "pareto", &pts[i], gpus);
	} else {
		fprintf(ctx->out, "%s: %zu plan%s that fit%s over %d GPU type%s, up to %d GPUs, %s prices\n\n",
			w.name, npts, npts == 1 ? "" : "s", npts == 1 ? "s" : "", ngpus,
			ngpus == 1 ? "" : "s", max_gpus, cost_kind_names[pc.kind]);
		if (deadline_s && budget_s) {
			fprintf(ctx->out, "Plans that finish within %s for at most %s (%zu):\n", dl, bu, nboth);
		} else if (deadline_s) {
			fprintf(ctx->out, "Cheapest plan that finishes within %s:\n", dl);
		} else if (budget_s) {
			fprintf(ctx->out, "Fastest plan that costs at most %s:\n", bu);
		}
		for (size_t i = 0; i < npts && (deadline_s || budget_s); i++) {
			int in_d = !deadline_s || pts[i].total_time_s <= deadline;
			int in_b = !budget_s || pts[i].cost_usd <= budget;
			int show = (deadline_s && budget_s) ? in_d && in_b : (long)i == best;
			if (show)
				print_row(ctx, fmt, "", &pts[i], gpus);
		}
		if (miss[0])
			fprintf(ctx->out, "  none: %s\n", miss);
		if (deadline_s || budget_s)
			fputc('\n', ctx->out);
		fprintf(ctx->out, "Pareto front, time against cost (no plan is both faster and cheaper):\n");
		for (size_t i = 0; i < npts; i++)
			if (front[i])
				print_row(ctx, fmt, "", &pts[i], gpus);
	}
	/* Nothing meeting the targets is an answer ("closest"), not an error. */
	if (rc != TC_EXIT_INTERNAL)
		rc = TC_EXIT_OK;
	goto out;
oom:
	fprintf(ctx->err, "traincost plan: out of memory\n");
	rc = TC_EXIT_INTERNAL;
out:
	free(front);
	free(pts);
	free(gpus);
	price_set_release(&prices);
	gpu_catalog_release(&cat);
	return rc;
}
