/*
 * cmd_plan.c - `traincost plan FILE`: the cheapest plan that meets a
 * deadline, the fastest within a budget, and the Pareto front of time
 * against cost, over GPU types, counts and parallel layouts.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../io/gpu_load.h"
#include "../io/price_load.h"
#include "../io/wl_load.h"
#include "../model/planner.h"
#include "../util/units.h"
#include "../util/utf8.h"
#include "../report/estimate_report.h"
#include "../report/json.h"
#include "../report/layout_text.h"
#include "../report/numfmt.h"
#include "../report/plot.h"
#include "../report/table.h"
#include "../report/unc_json.h"
#include "cli.h"
#include "money.h"
#include "plan_args.h"
#include "opts.h"
#include "plot_out.h"
#include "unc_args.h"

#define PLAN_MAX_GPUS 65536
#define PLAN_MAX_TYPES 64

static const char *const formats[] = { "table", "csv", "json", "md", NULL };
static const char *const rec_names[] = { "none", "selective", "full" };
static const char *const risks[] = { "p50", "p90", NULL };

struct price_ctx {
	const struct price_set *prices;
	enum cost_kind kind;
	struct run_cost_in in; /* kind and the spot assumptions */
	int network_fixed; /* --network: every offer timed over the plan's */
	/* Written by the planner's threads, under mu. */
	pthread_mutex_t mu;
	int unhosted; /* plans left unpriced: no offer could join their instances */
	int spot_unfinished; /* spot plans left out: restarts lose work as fast as it is made */
	struct cost_choice largest; /* of those, the offer whose order holds the most GPUs */
};

/* plan_price_fn over the loaded price tables: the cheapest offer of at
 * least a node's GPUs (the shape the plan's communication assumes), each
 * offer timed over its own network unless --network fixed one. */
static int price_cb(void *vctx, const struct gpu *g, const struct workload *w,
		    const struct estimate *e, struct plan_priced *out)
{
	struct price_ctx *c = vctx;
	struct run_cost cost;
	struct money_timer mt;
	money_timer_init(&mt, w, g, e->total_time_s);
	struct cost_timer timer = { money_timer_time, &mt };
	int rc = run_cost_compute_timed(c->prices->tables, c->prices->count, g->id, e->plan.count,
					e->plan.gpus_per_node, g->tdp_w, e->total_time_s,
					c->network_fixed ? NULL : &timer, &c->in, &cost);
	money_timer_release(&mt);
	if (rc)
		return -1;
	/* A spot run that loses work as fast as it makes it never finishes. */
	if (cost.spot_applied && cost_spot_loss_per_h(&cost.in.spot) >= 1) {
		pthread_mutex_lock(&c->mu);
		c->spot_unfinished++;
		pthread_mutex_unlock(&c->mu);
		return -1;
	}
	if (!cost.priced) {
		const struct cost_range *r = &cost.range;
		pthread_mutex_lock(&c->mu);
		c->unhosted += r->skipped_fabric > 0;
		if (r->skipped_fabric && r->largest.offer &&
		    (!c->largest.offer ||
		     cost_offer_capacity(r->largest.offer) > cost_offer_capacity(c->largest.offer)))
			c->largest = r->largest;
		pthread_mutex_unlock(&c->mu);
		return -1;
	}
	/* On spot the run includes its expected restarts. */
	out->cost_usd = cost.range.cheapest.run.cost_usd;
	out->total_time_s = cost.range.cheapest.run_s;
	out->net_time_s = cost.priced_base_s;
	out->provider = cost.range.cheapest.table->provider;
	out->instance = cost.range.cheapest.offer->instance;
	out->network = cost.range.cheapest.network;
	return 0;
}

/* plan_offer_fn: the offer price_cb chose, found by its provider and
 * instance, for sampling the cost. */
static int offer_cb(void *vctx, const struct gpu *g, const struct plan_point *p,
		    const struct price_offer **offer, const struct cost_billing **billing)
{
	const struct price_ctx *c = vctx;
	for (size_t t = 0; t < c->prices->count; t++) {
		const struct price_table *pt = &c->prices->tables[t];
		if (strcmp(pt->provider, p->provider))
			continue;
		for (size_t i = 0; i < pt->count; i++)
			if (!strcmp(pt->offers[i].instance, p->instance) &&
			    !strcmp(pt->offers[i].gpu, g->id) &&
			    pt->offers[i].price_usd_per_h[c->kind] > 0) {
				*offer = &pt->offers[i];
				*billing = &pt->billing;
				return 0;
			}
	}
	return -1;
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

/* The CSV columns --uncertainty adds, empty for plans not sampled. */
static void csv_unc(struct cli_ctx *ctx, const struct plan_point *p)
{
	const struct unc_result *u = &p->unc;
	if (!p->sampled) {
		fputs(",,,,,,,", ctx->out);
		return;
	}
	fprintf(ctx->out, ",%.6g,%.6g,%.6g", u->total_s.p10, u->total_s.p50, u->total_s.p90);
	if (u->has_cost)
		fprintf(ctx->out, ",%.2f,%.2f,%.2f", u->cost_usd.p10, u->cost_usd.p50, u->cost_usd.p90);
	else
		fputs(",,,", ctx->out);
	if (u->has_deadline)
		fprintf(ctx->out, ",%.4g", u->p_deadline);
	else
		fputc(',', ctx->out);
	if (u->has_budget)
		fprintf(ctx->out, ",%.4g", u->p_budget);
	else
		fputc(',', ctx->out);
}

/* The table's second line for a sampled plan: P10 / P50 / P90 of its time
 * and cost, and the chances of meeting the targets. */
static void text_unc(struct cli_ctx *ctx, const struct plan_point *p)
{
	const struct unc_result *u = &p->unc;
	char a[32], b[32], c[32];
	if (!p->sampled)
		return;
	fprintf(ctx->out, "  %-16s P10/P50/P90  time %s / %s / %s", "",
		tc_fmt_duration(u->total_s.p10, a, sizeof(a)),
		tc_fmt_duration(u->total_s.p50, b, sizeof(b)),
		tc_fmt_duration(u->total_s.p90, c, sizeof(c)));
	if (u->has_cost) {
		char x[32], y[32], z[32];
		fprintf(ctx->out, "  cost %s / %s / %s", rep_fmt_usd(u->cost_usd.p10, x, sizeof(x)),
			rep_fmt_usd(u->cost_usd.p50, y, sizeof(y)), rep_fmt_usd(u->cost_usd.p90, z, sizeof(z)));
	}
	if (u->has_deadline)
		fprintf(ctx->out, "  deadline %.0f %%", 100 * u->p_deadline);
	if (u->has_budget)
		fprintf(ctx->out, "  budget %.0f %%", 100 * u->p_budget);
	fputc('\n', ctx->out);
}

static void print_row(struct cli_ctx *ctx, const char *fmt, const char *section,
		      const struct plan_point *p, const struct gpu *gpus, int with_unc)
{
	char lay[128], t[32], usd[32];
	layout(p, lay, sizeof(lay));
	if (!strcmp(fmt, "csv")) {
		char cells[REP_LAYOUT_FIELDS][REP_LAYOUT_CELL];
		rep_layout_cells(cells, &p->plan, p->recompute);
		fprintf(ctx->out, "%s,%s", section, gpus[p->gpu].id);
		for (int k = 0; k < REP_LAYOUT_FIELDS; k++)
			fprintf(ctx->out, ",%s", cells[k]);
		fprintf(ctx->out, ",%.6g,%.6g,%.2f,%s,%s", p->step_time_s, p->total_time_s,
			p->cost_usd, p->provider, p->instance);
		if (with_unc)
			csv_unc(ctx, p);
		fprintf(ctx->out, ",%s\n", p->network ? p->network : "");
		return;
	}
	if (!strcmp(fmt, "md")) {
		char id[96], prov[96], inst[160];
		tc_fmt_duration(p->total_time_s, t, sizeof(t));
		fprintf(ctx->out, "| %s | %s | %d | %s | %s | %s | %s %s%s%s |", section,
			rep_show(id, sizeof(id), gpus[p->gpu].id, fmt), p->plan.count, lay, t,
			rep_fmt_usd(p->cost_usd, usd, sizeof(usd)),
			rep_show(prov, sizeof(prov), p->provider, fmt),
			rep_show(inst, sizeof(inst), p->instance, fmt),
			p->network ? " over " : "", p->network ? p->network : "");
		if (with_unc && p->sampled) {
			const struct unc_result *u = &p->unc;
			char a[32], b[32], c[32];
			fprintf(ctx->out, " %s / %s / %s |", tc_fmt_duration(u->total_s.p10, a, sizeof(a)),
				tc_fmt_duration(u->total_s.p50, b, sizeof(b)),
				tc_fmt_duration(u->total_s.p90, c, sizeof(c)));
			if (u->has_cost)
				fprintf(ctx->out, " %s / %s / %s |", rep_fmt_usd(u->cost_usd.p10, a, sizeof(a)),
					rep_fmt_usd(u->cost_usd.p50, b, sizeof(b)),
					rep_fmt_usd(u->cost_usd.p90, c, sizeof(c)));
			else
				fputs("  |", ctx->out);
		} else if (with_unc) {
			fputs("  |  |", ctx->out);
		}
		fputc('\n', ctx->out);
		return;
	}
	tc_fmt_duration(p->total_time_s, t, sizeof(t));
	/* A time taken over the offer's own network says so. */
	fprintf(ctx->out, "  %-16s %6d  %-44s %10s  %13s  %s %s%s%s\n", gpus[p->gpu].id,
		p->plan.count, lay, t, rep_fmt_usd(p->cost_usd, usd, sizeof(usd)), p->provider,
		p->instance, p->network ? " over " : "", p->network ? p->network : "");
	if (with_unc)
		text_unc(ctx, p);
}

/* The cheapest and the fastest of the plans meeting both limits, each with
 * its headroom: the budget and the time it leaves. */
static void both_limits(struct cli_ctx *ctx, const char *fmt, const struct plan_point *pts,
			size_t npts, const struct gpu *gpus, enum plan_risk risk, double deadline,
			double budget, int with_unc)
{
	long pick[2] = { -1, -1 }; /* cheapest, fastest */
	double key[2] = { 0, 0 };
	static const char *const label[2] = { "cheapest", "fastest" };
	for (size_t i = 0; i < npts; i++) {
		double t, c;
		if (!planner_meets(&pts[i], risk, deadline, budget) || planner_ranked(&pts[i], risk, &t, &c))
			continue;
		if (pick[0] < 0 || c < key[0])
			pick[0] = (long)i, key[0] = c;
		if (pick[1] < 0 || t < key[1])
			pick[1] = (long)i, key[1] = t;
	}
	for (int k = 0; k < 2; k++) {
		double t, c;
		char usd[32], dur[32];
		if (pick[k] < 0 || planner_ranked(&pts[pick[k]], risk, &t, &c))
			continue;
		fprintf(ctx->out, "  %s:\n", label[k]);
		print_row(ctx, fmt, "", &pts[pick[k]], gpus, with_unc);
		fprintf(ctx->out, "  %-16s headroom: %s of the budget unspent (the budget is %.3g x this cost), "
			"%s to spare before the deadline (%.0f %% of it used)\n", "",
			rep_fmt_usd(budget - c, usd, sizeof(usd)), c > 0 ? budget / c : 0,
			tc_fmt_duration(deadline - t, dur, sizeof(dur)), 100 * t / deadline);
	}
}

static void json_row(struct rep_json *j, const struct plan_point *p,
		     const struct gpu *gpus)
{
	rep_json_obj_begin(j, NULL);
	rep_json_str(j, "gpu", gpus[p->gpu].id);
	rep_layout_json(j, &p->plan, p->recompute);
	rep_json_num(j, "step_time_s", p->step_time_s);
	rep_json_num(j, "total_time_s", p->total_time_s);
	rep_json_num(j, "cost_usd", p->cost_usd);
	rep_json_str(j, "provider", p->provider);
	rep_json_str(j, "instance", p->instance);
	if (p->network)
		rep_json_str(j, "network", p->network);
	else
		rep_json_null(j, "network");
	if (p->sampled)
		rep_unc_json(j, "uncertainty", &p->unc);
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

/* Sort by P90 time, then P90 cost, then point time and cost; plans without
 * samples last. */
static int by_p90_time(const void *a, const void *b)
{
	const struct plan_point *x = a, *y = b;
	double tx, cx, ty, cy;
	int nx = planner_ranked(x, PLAN_RISK_P90, &tx, &cx) != 0;
	int ny = planner_ranked(y, PLAN_RISK_P90, &ty, &cy) != 0;
	if (nx != ny)
		return nx - ny;
	if (!nx && tx != ty)
		return tx < ty ? -1 : 1;
	if (!nx && cx != cy)
		return cx < cy ? -1 : 1;
	return by_time(a, b);
}

/* --plot: every plan, the front, and the plans the answer shows (those
 * meeting both targets, or the one best plan) ringed. */
static int write_plot(struct cli_ctx *ctx, const char *path, const struct workload *w,
		      const struct plan_point *pts, size_t npts, const int *front,
		      const struct gpu *gpus, int ngpus, enum plan_risk risk, long best,
		      double deadline, double budget)
{
	char *chosen = calloc(npts ? npts : 1, 1);
	struct svg s;
	if (!chosen) {
		fputs("traincost plan: out of memory\n", ctx->err);
		return TC_EXIT_INTERNAL;
	}
	for (size_t i = 0; i < npts; i++)
		chosen[i] = deadline > 0 && budget > 0 ? planner_meets(&pts[i], risk, deadline, budget)
						       : (long)i == best;
	plot_plan(&s, 1, w->name[0] ? w->name : w->file, pts, npts, front, chosen, gpus, ngpus,
		  risk, deadline, budget);
	free(chosen);
	return plot_out_write(ctx, "plan", &s, path);
}

int cmd_plan(int argc, char **argv, struct cli_ctx *ctx)
{
	const char *deadline_s = NULL, *budget_s = NULL, *gpus_s = NULL,
		   *max_s = NULL, *pricing = "on-demand", *fmt = "table",
		   *calibration = NULL, *risk_s = "p50", *plot = NULL,
		   *network = NULL;
	int include_unverified = 0;
	struct unc_args ua = { 0 };
	struct money_args ma = { 0 }; /* the spot assumptions */
	struct cli_opt opts[14 + UNC_ARGS_NOPTS + 1] = {
		{ "deadline", &deadline_s, NULL, NULL },
		{ "budget", &budget_s, NULL, NULL },
		{ "gpus", &gpus_s, NULL, NULL },
		{ "max-gpus", &max_s, NULL, NULL },
		{ "pricing", &pricing, NULL, cost_kind_names },
		{ "format", &fmt, NULL, formats },
		{ "calibration", &calibration, NULL, NULL },
		{ "network", &network, NULL, net_names },
		{ "include-unverified", NULL, &include_unverified, NULL },
		{ "risk", &risk_s, NULL, risks },
		{ "plot", &plot, NULL, NULL },
		{ "preempt-per-h", &ma.preempt, NULL, NULL },
		{ "checkpoint", &ma.checkpoint, NULL, NULL },
		{ "restart", &ma.restart, NULL, NULL },
	};
	char *pos[CLI_MAX_POS];
	int npos, rc;
	unc_args_opts(&ua, opts + 14);
	rc = cli_parse(ctx, "plan", argc, argv, opts, pos, &npos);
	if (rc)
		return rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;
	if ((rc = plot_out_check(ctx, "plan", plot)))
		return rc;
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
	int max_gpus = CLI_DEFAULT_MAX_GPUS;
	if (max_s && cli_int_arg(ctx, "plan", "max-gpus", max_s, 1, PLAN_MAX_GPUS, &max_gpus))
		return TC_EXIT_USAGE;
	struct money spot; /* only its assumptions: plan loads its own prices */
	ma.pricing = pricing;
	if ((rc = money_parse(ctx, "plan", &ma, &spot)))
		return rc;
	/* --risk p90 ranks by samples: it implies --uncertainty. */
	enum plan_risk risk = strcmp(risk_s, "p90") ? PLAN_RISK_P50 : PLAN_RISK_P90;
	if (risk == PLAN_RISK_P90)
		ua.on = 1;
	struct unc_spec us;
	struct cal_overlay nocal;
	memset(&nocal, 0, sizeof(nocal));
	/* Checked before the search; the spreads are set once the calibration is read. */
	if (ua.on && (rc = unc_args_spec(ctx, "plan", &ua, &nocal, &us)))
		return rc;

	struct tc_diag d;
	struct workload w;
	struct gpu_catalog cat = { 0 };
	struct price_set prices = { 0 };
	struct gpu *gpus = NULL;
	struct plan_point *pts = NULL;
	size_t npts = 0;
	int *front = NULL;
	char *want = NULL;
	struct price_ctx pc = { .prices = &prices, .kind = spot.in.kind, .in = spot.in };
	tc_diag_init(&d);
	if (wl_load_file(pos[0], &ctx->data, &w, &d))
		return cli_report(ctx, &d);
	pthread_mutex_init(&pc.mu, NULL); /* destroyed at out */
	pc.network_fixed = network != NULL;
	if (network)
		wl_set_network(&w.plan, net_find(network)); /* a choice of net_names */
	struct cal_overlay cal;
	if ((rc = cli_load_catalog(ctx, calibration, &cat, &cal)))
		return rc;
	if (ua.on && cal.measurements && (rc = unc_args_spec(ctx, "plan", &ua, &cal, &us)))
		goto out;
	if ((rc = money_load_prices(ctx, NULL, PRICE_STALE_DAYS, include_unverified, &prices)))
		goto out;
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
	/* A kind of price the tables lack is named, not mistaken for plans
	 * that do not fit. */
	const char *lacking = ngpus ? NULL : "any GPU";
	for (int i = 0; !lacking && i < ngpus; i++) {
		struct cost_range r;
		if (cost_range(prices.tables, prices.count, gpus[i].id, pc.kind, 0, 0, &r))
			lacking = gpus[i].id;
	}
	if (lacking) {
		char key[32]; /* the price file's key: on_demand */
		snprintf(key, sizeof(key), "%s", cost_kind_names[pc.kind]);
		for (char *c = key; *c; c++)
			*c = *c == '-' ? '_' : *c;
		fprintf(ctx->err, "traincost plan: no %s prices for %s in the price tables (expected another "
			"--pricing or --gpus, or a price file with %s offers; docs/pricing.md)\n",
			cost_kind_names[pc.kind], lacking, key);
		rc = TC_EXIT_INPUT;
		goto out;
	}
	struct planner_in in = { .w = &w, .gpus = gpus, .ngpus = ngpus, .max_gpus = max_gpus,
				 .price = price_cb, .price_ctx = &pc, .offer = offer_cb };
	search_knobs_all(&in.knobs);
	struct plan_problem closest = { WLF_NONE, "" };
	if (planner_run(&in, &pts, &npts, &closest))
		goto oom;
	if (!npts && pc.unhosted) {
		const struct price_offer *big = pc.largest.offer;
		fprintf(ctx->err, "traincost plan: no offer can host the %d plan%s that fit on up to %d GPUs of the %d types "
			"with %s prices: the largest order on sale holds %.4g GPU%s (%s %s) (expected an offer whose "
			"network and max_instances join the instances a plan needs; `traincost prices` lists them)\n",
			pc.unhosted, pc.unhosted == 1 ? "" : "s", max_gpus, ngpus, cost_kind_names[pc.kind],
			cost_offer_capacity(big), cost_offer_capacity(big) == 1 ? "" : "s",
			pc.largest.table->provider, big->instance);
		rc = TC_EXIT_INPUT;
		goto out;
	}
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
	size_t nboth = 0, nsampled = 0;
	long best = planner_select(pts, npts, PLAN_RISK_P50, deadline, budget, &nboth);
	if (ua.on) {
		/* Sample only the candidates: the Pareto front, and the answer (or,
		 * ranked by P90, every plan whose point estimate meets the targets). */
		want = calloc(npts, 1);
		if (!want)
			goto oom;
		for (size_t i = 0; i < npts; i++) {
			int meets = (deadline_s || budget_s) && planner_meets(&pts[i], PLAN_RISK_P50, deadline, budget);
			int shown = (deadline_s && budget_s) ? meets : (long)i == best;
			want[i] = front[i] || (risk == PLAN_RISK_P90 ? meets : shown);
		}
		us.deadline_s = deadline;
		us.budget_usd = budget;
		us.kind = pc.kind; /* the offers of in.offer are bought this way */
		us.spot = pc.in.spot; /* planner_sample sets each plan's instances */
		if (planner_sample(&in, pts, npts, want, &us))
			goto oom;
		for (size_t i = 0; i < npts; i++)
			nsampled += pts[i].sampled;
	}
	if (risk == PLAN_RISK_P90) {
		qsort(pts, npts, sizeof(*pts), by_p90_time);
		planner_pareto_ranked(pts, npts, risk, front);
		best = planner_select(pts, npts, risk, deadline, budget, &nboth);
	}
	if (plot && (rc = write_plot(ctx, plot, &w, pts, npts, front, gpus, ngpus, risk, best,
				     deadline, budget)))
		goto out;
	int json = !strcmp(fmt, "json"), csv = !strcmp(fmt, "csv"), md = !strcmp(fmt, "md");
	char dl[32] = "", bu[32] = "";
	if (deadline_s)
		tc_fmt_duration(deadline, dl, sizeof(dl));
	if (budget_s)
		rep_fmt_usd(budget, bu, sizeof(bu));
	/* When nothing meets: the closest, and by how much.  With both limits,
	 * each is met alone: the cheapest plan within the deadline (how far
	 * over the budget) and the fastest within the budget (how far over
	 * the deadline), or, where no plan meets that limit either, the
	 * plan closest to it. */
	char miss[512] = "";
	if ((deadline_s || budget_s) && !nboth) {
		long fastest = -1, cheapest = -1, cheap_in_time = -1, fast_in_budget = -1;
		double ft = 0, cc = 0, cit = 0, fib = 0;
		for (size_t i = 0; i < npts; i++) {
			double t, c;
			if (planner_ranked(&pts[i], risk, &t, &c))
				continue;
			if (fastest < 0 || t < ft) {
				fastest = (long)i;
				ft = t;
			}
			if (cheapest < 0 || c < cc) {
				cheapest = (long)i;
				cc = c;
			}
			if (deadline_s && t <= deadline && (cheap_in_time < 0 || c < cit)) {
				cheap_in_time = (long)i;
				cit = c;
			}
			if (budget_s && c <= budget && (fast_in_budget < 0 || t < fib)) {
				fast_in_budget = (long)i;
				fib = t;
			}
		}
		const char *at = risk == PLAN_RISK_P90 ? " at P90" : "";
		char t[32], usd[32];
		size_t used = 0;
		if (deadline_s && budget_s && cheap_in_time >= 0) {
			used += (size_t)snprintf(miss + used, sizeof(miss) - used,
						 "within the %s deadline the cheapest plan (%d x %s) costs %s%s, "
						 "%.0f%% over the %s budget", dl, pts[cheap_in_time].plan.count,
						 gpus[pts[cheap_in_time].gpu].id, rep_fmt_usd(cit, usd, sizeof(usd)), at,
						 100 * (cit / budget - 1), bu);
		} else if (deadline_s && fastest >= 0) {
			tc_fmt_duration(ft, t, sizeof(t));
			used += (size_t)snprintf(miss + used, sizeof(miss) - used,
						 "the fastest plan (%d x %s) takes %s%s, %.0f%% over the %s deadline",
						 pts[fastest].plan.count, gpus[pts[fastest].gpu].id, t, at,
						 100 * (ft / deadline - 1), dl);
		}
		if (deadline_s && budget_s && fast_in_budget >= 0 && used < sizeof(miss)) {
			tc_fmt_duration(fib, t, sizeof(t));
			snprintf(miss + used, sizeof(miss) - used,
				 "%swithin the %s budget the fastest plan (%d x %s) takes %s%s, "
				 "%.0f%% over the %s deadline", used ? "; " : "", bu,
				 pts[fast_in_budget].plan.count, gpus[pts[fast_in_budget].gpu].id, t, at,
				 100 * (fib / deadline - 1), dl);
		} else if (budget_s && cheapest >= 0 && used < sizeof(miss)) {
			snprintf(miss + used, sizeof(miss) - used,
				 "%sthe cheapest plan (%d x %s) costs %s%s, %.0f%% over the %s budget",
				 used ? "; " : "", pts[cheapest].plan.count, gpus[pts[cheapest].gpu].id,
				 rep_fmt_usd(cc, usd, sizeof(usd)), at, 100 * (cc / budget - 1), bu);
		}
		if (!miss[0])
			snprintf(miss, sizeof(miss), "no plan could be sampled");
	}
	/* What the plans were ranked by, in words. */
	char ranked[160] = "";
	if (ua.on && risk == PLAN_RISK_P90)
		snprintf(ranked, sizeof(ranked), "P90 time and cost of %zu samples (seed %lu) "
			 "of the %zu candidate plan%s", us.samples, us.seed, nsampled, nsampled == 1 ? "" : "s");
	else if (ua.on)
		snprintf(ranked, sizeof(ranked), "the point estimate; P10/P50/P90 from %zu samples (seed %lu)",
			 us.samples, us.seed);

	if (json) {
		struct rep_json j;
		rep_json_doc_begin(&j, ctx->out, "plan");
		rep_json_str(&j, "workload", w.name);
		rep_json_str(&j, "file", w.file);
		rep_json_str(&j, "kind", rep_kind_name(&w));
		rep_json_str(&j, "pricing", cost_kind_names[pc.kind]);
		if (deadline_s)
			rep_json_num(&j, "deadline_s", deadline);
		if (budget_s)
			rep_json_num(&j, "budget_usd", budget);
		if (ua.on) {
			rep_json_str(&j, "ranked_by", risk == PLAN_RISK_P90 ? "p90" : "point");
			rep_json_int(&j, "samples", (long long)us.samples);
			rep_json_int(&j, "seed", (long long)us.seed);
			rep_json_int(&j, "sampled_plans", (long long)nsampled);
		}
		rep_json_arr_begin(&j, "meets");
		for (size_t i = 0; i < npts && (deadline_s || budget_s); i++) {
			int show = (deadline_s && budget_s) ? planner_meets(&pts[i], risk, deadline, budget)
							    : (long)i == best;
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
	} else if (csv || md) {
		if (md) {
			char title[TC_ESC_SIZE(WL_NAME_LEN)];
			fprintf(ctx->out, "## %s\n\n%zu plan%s that fit%s over %d GPU type%s, up to %d GPUs, "
				"%s prices%s%s.\n\n", rep_show(title, sizeof(title), w.name, fmt), npts,
				npts == 1 ? "" : "s", npts == 1 ? "s" : "", ngpus, ngpus == 1 ? "" : "s",
				max_gpus, cost_kind_names[pc.kind], ranked[0] ? "; ranked by " : "", ranked);
			if (miss[0])
				fprintf(ctx->out, "None meets the targets: %s.\n\n", miss);
			fprintf(ctx->out, "| section | GPU | count | layout | total time | cost | offer |%s\n"
				"| --- | --- | ---: | --- | ---: | ---: | --- |%s\n",
				ua.on ? " time P10 / P50 / P90 | cost P10 / P50 / P90 |" : "",
				ua.on ? " ---: | ---: |" : "");
		} else {
			fputs("section,gpu", ctx->out);
			for (int k = 0; k < REP_LAYOUT_FIELDS; k++)
				fprintf(ctx->out, ",%s", rep_layout_field_names[k]);
			fprintf(ctx->out, ",step_time_s,total_time_s,cost_usd,provider,instance%s,network\n",
				ua.on ? ",total_time_p10_s,total_time_p50_s,total_time_p90_s,cost_p10_usd,"
					"cost_p50_usd,cost_p90_usd,p_deadline,p_budget" : "");
		}
		for (size_t i = 0; i < npts && (deadline_s || budget_s); i++) {
			int show = (deadline_s && budget_s) ? planner_meets(&pts[i], risk, deadline, budget)
							    : (long)i == best;
			if (show)
				print_row(ctx, fmt, deadline_s && budget_s ? "meets" :
						    deadline_s ? "cheapest" : "fastest", &pts[i], gpus, ua.on);
		}
		for (size_t i = 0; i < npts; i++)
			if (front[i])
				print_row(ctx, fmt, "pareto", &pts[i], gpus, ua.on);
	} else {
		char title[TC_ESC_SIZE(WL_NAME_LEN)];
		fprintf(ctx->out, "%s: %zu plan%s that fit%s over %d GPU type%s, up to %d GPUs, %s prices\n\n",
			rep_show(title, sizeof(title), w.name, fmt), npts, npts == 1 ? "" : "s", npts == 1 ? "s" : "", ngpus,
			ngpus == 1 ? "" : "s", max_gpus, cost_kind_names[pc.kind]);
		if (cal.measurements)
			fprintf(ctx->out, "Efficiencies calibrated from %s (%zu measurements on %s).\n\n",
				cal.fitted_from, cal.measurements, cal.gpu);
		if (pc.in.kind == COST_SPOT) {
			rep_spot_assumptions(ctx->out, &pc.in.spot, "times and costs");
			if (pc.spot_unfinished)
				fprintf(ctx->out, "%d plan%s left out: %s restarts would lose work as fast as "
					"the run makes it.\n", pc.spot_unfinished, pc.spot_unfinished == 1 ? "" : "s",
					pc.spot_unfinished == 1 ? "its" : "their");
			fputc('\n', ctx->out);
		}
		if (ranked[0])
			fprintf(ctx->out, "Ranked by %s.\n\n", ranked);
		const char *at = risk == PLAN_RISK_P90 ? " at P90" : "";
		if (deadline_s && budget_s) {
			fprintf(ctx->out, "Plans that finish within %s for at most %s%s: %zu\n", dl, bu, at, nboth);
		} else if (deadline_s) {
			fprintf(ctx->out, "Cheapest plan that finishes within %s%s:\n", dl, at);
		} else if (budget_s) {
			fprintf(ctx->out, "Fastest plan that costs at most %s%s:\n", bu, at);
		}
		if (deadline_s && budget_s && nboth)
			both_limits(ctx, fmt, pts, npts, gpus, risk, deadline, budget, ua.on);
		for (size_t i = 0; i < npts && (deadline_s || budget_s) && !(deadline_s && budget_s); i++)
			if ((long)i == best)
				print_row(ctx, fmt, "", &pts[i], gpus, ua.on);
		if (miss[0])
			fprintf(ctx->out, "  none: %s\n", miss);
		if (deadline_s || budget_s)
			fputc('\n', ctx->out);
		if (risk == PLAN_RISK_P90)
			fprintf(ctx->out, "Pareto front of the candidates, P90 time against P90 cost:\n");
		else
			fprintf(ctx->out, "Pareto front, time against cost (no plan is both faster and cheaper; a faster "
				"plan is shown only if it saves more than %.0f %% of a cheaper one's time):\n",
				100 * PLAN_PARETO_TOL);
		for (size_t i = 0; i < npts; i++)
			if (front[i])
				print_row(ctx, fmt, "", &pts[i], gpus, ua.on);
	}
	/* Nothing meeting the targets is an answer ("closest"), not an error. */
	if (rc != TC_EXIT_INTERNAL)
		rc = TC_EXIT_OK;
	goto out;
oom:
	fprintf(ctx->err, "traincost plan: out of memory\n");
	rc = TC_EXIT_INTERNAL;
out:
	pthread_mutex_destroy(&pc.mu);
	free(want);
	free(front);
	free(pts);
	free(gpus);
	price_set_release(&prices);
	gpu_catalog_release(&cat);
	return rc;
}
