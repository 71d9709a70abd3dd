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
#include "../model/analyses/planner.h"
#include "../report/plot_plan.h"
#include "../util/units.h"
#include "../report/plan_report.h"
#include "cmd_plan.h"
#include "cli_ctx.h"
#include "money.h"
#include "plan_args.h"
#include "opts.h"
#include "plot_out.h"
#include "unc_args.h"

#define PLAN_MAX_GPUS 65536
#define PLAN_MAX_TYPES 64

static const char *const formats[] = { "table", "csv", "json", "md", NULL };
static const char *const risks[] = { "p50", "p90", NULL };

struct price_ctx {
	const struct price_set *prices;
	enum cost_kind kind;
	struct run_cost_in in; /* kind and the spot assumptions */
	int network_fixed; /* --network: every offer timed over the plan's */
	int steady_state;  /* --steady-state: judged and billed without the campaign */
	/* Written by the planner's threads, under mu. */
	pthread_mutex_t mu;
	int unhosted; /* plans left unpriced: no offer could join their instances */
	int spot_unfinished; /* spot plans left out: restarts lose work as fast as it is made */
	struct cost_choice largest; /* of those, the offer whose order holds the most GPUs */
};

/* plan_price_fn over the loaded price tables: the cheapest offer of at
 * least a node's GPUs (the shape the plan's communication assumes); a run
 * of several instances only on the offers of the network its layout was
 * searched over (the planner searches each), unless --network fixed one
 * for every offer. */
static int price_cb(void *vctx, const struct gpu *g, const struct workload *w,
		    const struct estimate *e, struct plan_priced *out)
{
	struct price_ctx *c = vctx;
	struct run_cost cost;
	struct run_cost_own_net own = { w->plan.network, e->total_time_s };
	struct cost_timer timer = { run_cost_own_net_time, &own };
	if (run_cost_compute_timed(c->prices->tables, c->prices->count, g->id, e->plan.count,
				   e->plan.gpus_per_node, g->tdp_w, e->total_time_s,
				   c->network_fixed ? NULL : &timer, &c->in, &cost))
		return -1;
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
	/* On the expected wall clock (spot preemptions among its
	 * interruptions) unless --steady-state; a run they leave no time to
	 * train never finishes. */
	if (!c->steady_state && run_cost_campaign(&cost, e->plan.count, &e->campaign))
		return -1;
	if (!c->steady_state && cost.campaign_hopeless) {
		pthread_mutex_lock(&c->mu);
		c->spot_unfinished++;
		pthread_mutex_unlock(&c->mu);
		return -1;
	}
	/* At steady state a run, spot or not, has no interruptions. */
	out->cost_usd = money_judged_usd(c->steady_state, &cost);
	out->total_time_s = c->steady_state ? cost.range.cheapest.run_s : cost.wall_s;
	out->net_time_s = cost.priced_base_s;
	out->provider = cost.range.cheapest.table->provider;
	out->instance = cost.range.cheapest.offer->instance;
	out->network = cost.range.cheapest.network;
	out->caveat = rep_offer_caveat(&cost.range.cheapest);
	out->idle_gpus = cost.range.cheapest.run.idle_gpus;
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
 * meeting both targets, or the one best plan) ringed; at steady state with
 * --steady-state (steady), else on the expected wall clock. */
static int write_plot(struct cli_ctx *ctx, const char *path, const struct workload *w, int steady,
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
	plot_plan(&s, 1, w->name[0] ? w->name : w->file,
		  steady ? "steady state" : "expected wall clock", pts, npts, front, chosen, gpus,
		  ngpus, risk, deadline, budget);
	free(chosen);
	return plot_out_write(ctx, "plan", &s, path);
}

/*
 * The GPU types to plan over into gpus (PLAN_MAX_TYPES of room), *n of
 * them: those --gpus lists (`list`), or every whole GPU of the catalog
 * with an offer of `kind`.  A kind of price the tables lack for one of
 * them is named, not mistaken for plans that do not fit.  Returns 0 or an
 * exit code (printed).
 */
static int choose_gpus(struct cli_ctx *ctx, const char *list, const struct gpu_catalog *cat,
		       const struct price_set *prices, enum cost_kind kind, struct gpu *gpus, int *n)
{
	struct cost_range r;
	*n = 0;
	if (list) {
		char copy[1024];
		snprintf(copy, sizeof(copy), "%s", list);
		for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
			char msg[512];
			if (*n == PLAN_MAX_TYPES)
				return cli_usage_error(ctx, "plan", "--gpus lists more than %d GPUs",
						       PLAN_MAX_TYPES);
			if (gpu_catalog_lookup(cat, tok, &gpus[*n], msg, sizeof(msg)))
				return cli_usage_error(ctx, "plan", "--gpus: %s", msg);
			(*n)++;
		}
	} else {
		for (size_t i = 0; i < cat->count && *n < PLAN_MAX_TYPES; i++)
			if (!cat->gpus[i].mig_of[0] &&
			    !cost_range(prices->tables, prices->count, cat->gpus[i].id, kind, 0, 0, &r))
				gpus[(*n)++] = cat->gpus[i];
	}
	const char *lacking = *n ? NULL : "any GPU";
	for (int i = 0; !lacking && i < *n; i++)
		if (cost_range(prices->tables, prices->count, gpus[i].id, kind, 0, 0, &r))
			lacking = gpus[i].id;
	if (!lacking)
		return 0;
	char key[32]; /* the price file's key: on_demand */
	snprintf(key, sizeof(key), "%s", cost_kind_names[kind]);
	for (char *c = key; *c; c++)
		*c = *c == '-' ? '_' : *c;
	fprintf(ctx->err, "traincost plan: no %s prices for %s in the price tables (expected another "
		"--pricing or --gpus, or a price file with %s offers; docs/pricing.md)\n",
		cost_kind_names[kind], lacking, key);
	return TC_EXIT_INPUT;
}

/*
 * What the offers of each GPU type of gpus[0..n-1] say before the search:
 * the networks its offers join instances by, into nets[i] and nnets[i]
 * (its plans of several nodes are searched over each, unless --network
 * fixed one), on spot a warning where a spot price undercuts owning
 * the GPU, and, for types the user named (named: --gpus), one where an
 * offer set aside for its unverified price holds more of the GPU in an
 * order than those in use (a search of every type would warn of types
 * the answer never needed).
 */
static void gpu_offers(struct cli_ctx *ctx, const struct price_set *prices, enum cost_kind kind,
		       const struct gpu *gpus, int n, int named,
		       const char *nets[][PLANNER_MAX_NETS], int *nnets)
{
	for (int i = 0; i < n; i++) {
		nnets[i] = run_cost_networks(prices->tables, prices->count, gpus[i].id, kind,
					     nets[i], PLANNER_MAX_NETS);
		if (kind == COST_SPOT)
			money_warn_spot(ctx, "plan", prices, prices->tables, prices->count, &gpus[i]);
		if (named)
			money_warn_aside(ctx, "plan", prices->tables, prices->count, kind, &gpus[i]);
	}
}

/* Why no plan came out of the search: none fits, or none that fits can
 * be bought (with the largest order on sale).  Returns the exit code. */
static int no_plan(struct cli_ctx *ctx, const struct price_ctx *pc,
		   const struct plan_problem *closest, int max_gpus, int ngpus)
{
	const char *kind = cost_kind_names[pc->kind];
	if (!pc->unhosted) {
		fprintf(ctx->err, "traincost plan: no plan fits on up to %d GPUs of the %d types with %s "
			"prices%s%s\n", max_gpus, ngpus, kind, closest->msg[0] ? ": " : "", closest->msg);
		return TC_EXIT_INPUT;
	}
	const struct price_offer *big = pc->largest.offer;
	fprintf(ctx->err, "traincost plan: no offer can host the %d plan%s that fit on up to %d GPUs of "
		"the %d types with %s prices: the largest order on sale holds %.4g GPU%s (%s %s) "
		"(expected an offer whose network and max_instances join the instances a plan needs; "
		"`traincost prices` lists them, and --assume-fabric states a contract's)\n",
		pc->unhosted, pc->unhosted == 1 ? "" : "s", max_gpus, ngpus, kind,
		cost_offer_capacity(big), cost_offer_capacity(big) == 1 ? "" : "s",
		pc->largest.table->provider, big->instance);
	return TC_EXIT_INPUT;
}

/*
 * The Monte Carlo of the candidates (spec *us, its targets set here): the
 * Pareto front, and the answer (best), or, ranked by P90, every plan whose
 * point estimate meets the targets.  Returns 0, or -1 when out of memory.
 */
static int sample_candidates(const struct planner_in *in, struct plan_point *pts, size_t npts,
			     const int *front, enum plan_risk risk, long best, double deadline,
			     double budget, struct unc_spec *us)
{
	char *want = calloc(npts ? npts : 1, 1);
	if (!want)
		return -1;
	for (size_t i = 0; i < npts; i++) {
		int meets = (deadline > 0 || budget > 0) &&
			    planner_meets(&pts[i], PLAN_RISK_P50, deadline, budget);
		int shown = deadline > 0 && budget > 0 ? meets : (long)i == best;
		want[i] = front[i] || (risk == PLAN_RISK_P90 ? meets : shown);
	}
	us->deadline_s = deadline;
	us->budget_usd = budget;
	int rc = planner_sample(in, pts, npts, want, us);
	free(want);
	return rc;
}

/* The command line of plan, checked: the options as given, and the values
 * parsed from them. */
struct plan_cli_args {
	const char *deadline_s, *budget_s, *gpus_s, *max_s, *pricing, *fmt, *calibration,
		*risk_s, *plot, *network, *framework, *headroom;
	int include_unverified;
	int steady; /* --steady-state: judge and bill at steady state */
	struct unc_args ua;
	struct money_args ma; /* the spot assumptions */
	char *file; /* the workload file: argv's */
	double deadline, budget, headroom_frac;
	int max_gpus;
	enum plan_risk risk;
};

/*
 * Parse and check plan's command line into *a, the spot assumptions into
 * *spot and, with --uncertainty or --risk p90, the spec without a
 * calibration into *us.  Returns 0, or an exit code after printing the
 * problem, or CLI_HELP_SHOWN after --help.
 */
static int parse_args(struct cli_ctx *ctx, int argc, char **argv, struct plan_cli_args *a,
		      struct money *spot, struct unc_spec *us)
{
	memset(a, 0, sizeof(*a));
	a->pricing = "on-demand";
	a->fmt = "table";
	a->risk_s = "p50";
	const struct cli_opt mine[] = {
		CLI_VALUE("deadline", &a->deadline_s, "D", "a duration such as 14d or 36h"),
		CLI_VALUE("budget", &a->budget_s, "USD", "dollars such as 50000, $50,000, 2.5k or 3M"),
		CLI_VALUE("gpus", &a->gpus_s, "LIST",
			  "GPU types to consider, comma-separated (default: every GPU with an offer)"),
		CLI_VALUE("max-gpus", &a->max_s, "N",
			  "largest GPU count (default " CLI_STR(CLI_DEFAULT_MAX_GPUS) ")"),
		CLI_CHOICE("network", &a->network, net_names, "NAME", NETWORK_SEARCH_HELP),
		CLI_CHOICE("risk", &a->risk_s, risks, "R",
			   "p50: rank by the point estimate; p90: rank by P90 cost and time, sampling "
			   "the Pareto front and the plans whose point estimate meets the targets "
			   "(implies --uncertainty)"),
		CLI_VALUE("memory-headroom", &a->headroom, "F", MEMORY_HEADROOM_HELP),
		CLI_VALUE("calibration", &a->calibration, "FILE", CALIBRATION_HELP),
		CLI_CHOICE("format", &a->fmt, formats, "F", "output format"),
		CLI_VALUE("plot", &a->plot, "FILE",
			  "also draw every plan's time against cost, the Pareto front and the "
			  "chosen plans as an SVG chart into FILE"),
	};
	const struct cli_opt prices[] = {
		CLI_CHOICE("pricing", &a->pricing, cost_kind_names, "P", "the kind of price"),
		CLI_FLAG("include-unverified", &a->include_unverified,
			 "also price offers marked verified: false"),
		CLI_VALUE("assume-fabric", &a->ma.assume_fabric, "P=NET",
			  "join provider P's instances over network NET (what a contract gives; "
			  "the answer says so)"),
	};
	const struct cli_opt stack[] = {
		CLI_VALUE("framework", &a->framework, "ID",
			  "software-stack profile of every plan (see `traincost frameworks`; "
			  "default: the file's)"),
	};
	struct cli_opts opts = { 0 };
	char *pos[CLI_MAX_POS];
	int npos, rc;
	CLI_OPTS_ADD(&opts, mine);
	CLI_OPTS_ADD(&opts, stack);
	CLI_OPTS_ADD_GROUP(&opts, MONEY_OPTS_GROUP, prices);
	money_spot_opts(&a->ma, &opts); /* plan loads its own prices */
	money_basis_opts(&a->steady, &opts);
	unc_args_opts(&a->ua, &opts);
	cli_opts_help(&opts, "uncertainty",
		      "P10, P50, P90 of time and cost (N samples, default " CLI_STR(UNC_DEFAULT_SAMPLES)
		      ") for the plans shown and the Pareto front");
	rc = cli_parse(ctx, "plan", argc, argv, opts.row, pos, &npos);
	if (rc)
		return rc;
	if ((rc = plot_out_check(ctx, "plan", a->plot)))
		return rc;
	if (npos != 1)
		return cli_usage_error(ctx, "plan", "%s", npos ? "too many files (expected one workload file)"
							      : "no workload file given (expected FILE)");
	a->file = pos[0];
	const char *why = NULL;
	if (a->deadline_s && (tc_parse_quantity(a->deadline_s, TC_UNIT_SECONDS, &a->deadline, &why) ||
			      !(a->deadline > 0)))
		return cli_usage_error(ctx, "plan", "--deadline '%s' is not valid (expected a duration such as 14d or 36h)",
				       a->deadline_s);
	if (a->budget_s && money_budget_arg(ctx, "plan", a->budget_s, &a->budget))
		return TC_EXIT_USAGE;
	if (cli_headroom_arg(ctx, "plan", a->headroom, &a->headroom_frac))
		return TC_EXIT_USAGE;
	a->max_gpus = CLI_DEFAULT_MAX_GPUS;
	if (a->max_s && cli_int_arg(ctx, "plan", "max-gpus", a->max_s, 1, PLAN_MAX_GPUS, &a->max_gpus))
		return TC_EXIT_USAGE;
	a->ma.pricing = a->pricing;
	if ((rc = money_parse(ctx, "plan", &a->ma, spot)))
		return rc;
	/* --risk p90 ranks by samples: it implies --uncertainty. */
	a->risk = strcmp(a->risk_s, "p90") ? PLAN_RISK_P50 : PLAN_RISK_P90;
	if (a->risk == PLAN_RISK_P90)
		a->ua.on = 1;
	struct cal_overlay nocal;
	memset(&nocal, 0, sizeof(nocal));
	/* Checked before the search; the spreads are set once the calibration is read. */
	if (a->ua.on && (rc = unc_args_spec(ctx, "plan", &a->ua, &nocal, us)))
		return rc;
	return 0;
}

/* What the search found: every plan, its Pareto front, and the answer. */
struct plan_found {
	struct plan_point *pts; /* owned */
	size_t npts;
	int *front; /* owned: npts flags */
	long best;
	size_t nboth, nsampled;
};

/*
 * The search of `in`: every plan into *f, sorted by time (by P90 time with
 * --risk p90), its Pareto front, the answer (cheapest by the deadline,
 * fastest within the budget, or every plan meeting both), and with `us`
 * the samples of the candidates.  Returns 0, or an exit code after
 * printing the problem (no plan, out of memory); free f's arrays either way.
 */
static int search_plans(struct cli_ctx *ctx, const struct planner_in *in,
			const struct plan_cli_args *a, const struct price_ctx *pc,
			struct unc_spec *us, struct plan_found *f)
{
	struct plan_problem closest = { WLF_NONE, "" };
	memset(f, 0, sizeof(*f));
	if (planner_run(in, &f->pts, &f->npts, &closest))
		goto oom;
	if (!f->npts)
		return no_plan(ctx, pc, &closest, a->max_gpus, in->ngpus);
	qsort(f->pts, f->npts, sizeof(*f->pts), by_time);
	f->front = calloc(f->npts, sizeof(*f->front));
	if (!f->front)
		goto oom;
	planner_pareto(f->pts, f->npts, f->front);

	/* The answer: cheapest by the deadline, fastest within the budget, or
	 * every plan meeting both. */
	f->best = planner_select(f->pts, f->npts, PLAN_RISK_P50, a->deadline, a->budget, &f->nboth);
	if (us) {
		us->kind = pc->kind; /* the offers of in.offer are bought this way */
		us->preempt_per_h = pc->in.preempt_per_h;
		us->wall = !pc->steady_state; /* ranked and judged as the point estimate */
		if (sample_candidates(in, f->pts, f->npts, f->front, a->risk, f->best, a->deadline,
				      a->budget, us))
			goto oom;
		for (size_t i = 0; i < f->npts; i++)
			f->nsampled += f->pts[i].sampled;
	}
	if (a->risk == PLAN_RISK_P90) {
		qsort(f->pts, f->npts, sizeof(*f->pts), by_p90_time);
		planner_pareto_ranked(f->pts, f->npts, a->risk, f->front);
		f->best = planner_select(f->pts, f->npts, a->risk, a->deadline, a->budget, &f->nboth);
	}
	return 0;
oom:
	fprintf(ctx->err, "traincost plan: out of memory\n");
	return TC_EXIT_INTERNAL;
}

int cmd_plan(int argc, char **argv, struct cli_ctx *ctx)
{
	struct plan_cli_args a;
	struct money spot; /* only its assumptions: plan loads its own prices */
	struct unc_spec us;
	int rc;
	if ((rc = parse_args(ctx, argc, argv, &a, &spot, &us)))
		return rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;

	struct tc_diag d;
	struct workload w;
	struct gpu_catalog cat = { 0 };
	struct price_set prices = { 0 };
	struct gpu *gpus = NULL;
	struct plan_found f = { 0 };
	struct price_ctx pc = { .prices = &prices, .kind = spot.in.kind, .in = spot.in };
	tc_diag_init(&d);
	if (wl_load_file(a.file, &ctx->data, &w, &d))
		return cli_report(ctx, &d);
	pthread_mutex_init(&pc.mu, NULL); /* destroyed at out */
	pc.network_fixed = a.network != NULL;
	pc.steady_state = a.steady;
	if (a.network)
		wl_set_network(&w.plan, net_find(a.network)); /* a choice of net_names */
	if (a.framework && (rc = cli_framework_arg(ctx, a.framework, &w.plan)))
		goto out;
	w.plan.memory_headroom_frac = a.headroom_frac;
	struct cal_overlay cal;
	if ((rc = cli_load_catalog(ctx, a.calibration, &cat, &cal)))
		return rc;
	if (a.ua.on && cal.eff.measurements && (rc = unc_args_spec(ctx, "plan", &a.ua, &cal, &us)))
		goto out;
	if ((rc = money_load_prices(ctx, NULL, PRICE_STALE_DAYS, a.include_unverified, &prices)) ||
	    (rc = money_assume_apply(ctx, "plan", a.ma.assume_fabric, &prices)))
		goto out;
	gpus = calloc(PLAN_MAX_TYPES, sizeof(*gpus));
	if (!gpus) {
		fprintf(ctx->err, "traincost plan: out of memory\n");
		rc = TC_EXIT_INTERNAL;
		goto out;
	}
	int ngpus = 0;
	if ((rc = choose_gpus(ctx, a.gpus_s, &cat, &prices, pc.kind, gpus, &ngpus)))
		goto out;
	struct eff_stack stack;
	if ((rc = cli_stack(ctx, &w, &stack)))
		goto out;
	for (int i = 0; i < ngpus; i++) /* each GPU type with the one stack */
		gpu_resolve(&gpus[i], &gpus[i], &stack, cal_layer(&cal));
	const char *nets[PLAN_MAX_TYPES][PLANNER_MAX_NETS];
	int nnets[PLAN_MAX_TYPES];
	gpu_offers(ctx, &prices, pc.kind, gpus, ngpus, a.gpus_s != NULL, nets, nnets);
	struct planner_in in = { .w = &w, .gpus = gpus, .ngpus = ngpus, .max_gpus = a.max_gpus,
				 .price = price_cb, .price_ctx = &pc, .offer = offer_cb,
				 .nets = a.network ? NULL : (const char *const (*)[PLANNER_MAX_NETS])nets,
				 .nnets = nnets };
	search_knobs_all(&in.knobs);
	if ((rc = search_plans(ctx, &in, &a, &pc, a.ua.on ? &us : NULL, &f)))
		goto out;
	if (a.plot && (rc = write_plot(ctx, a.plot, &w, a.steady, f.pts, f.npts, f.front, gpus, ngpus, a.risk,
				       f.best, a.deadline, a.budget)))
		goto out;
	struct plan_report report = {
		.w = &w, .gpus = gpus, .ngpus = ngpus, .max_gpus = a.max_gpus, .pts = f.pts,
		.npts = f.npts, .front = f.front, .kind = pc.kind,
		.spot = pc.in.kind == COST_SPOT ? &pc.in : NULL,
		.spot_unfinished = pc.spot_unfinished, .cal = &cal, .risk = a.risk,
		.deadline_s = a.deadline, .budget_usd = a.budget, .best = f.best, .nboth = f.nboth,
		.steady_state = pc.steady_state,
		.unc = a.ua.on ? &us : NULL, .nsampled = f.nsampled,
	};
	if (rep_plan_report(ctx->out, a.fmt, &report)) {
		fputs("traincost plan: internal error: out of memory or a non-finite value\n", ctx->err);
		rc = TC_EXIT_INTERNAL;
	}
	/* Nothing meeting the targets is an answer ("closest"), not an error. */
	if (rc != TC_EXIT_INTERNAL)
		rc = TC_EXIT_OK;
out:
	pthread_mutex_destroy(&pc.mu);
	free(f.front);
	free(f.pts);
	free(gpus);
	price_set_release(&prices);
	gpu_catalog_release(&cat);
	return rc;
}
