/*
 * cmd_compare.c - `traincost compare FILE`: the same training run on each
 * GPU type, with its best layout, time and dollars side by side.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../io/gpu_load.h"
#include "../io/wl_load.h"
#include "../model/analyses/search.h"
#include "../report/compare_report.h"
#include "../report/plot_choice.h"
#include "../util/units.h"
#include "cmd_compare.h"
#include "cli_ctx.h"
#include "money.h"
#include "plan_args.h"
#include "opts.h"
#include "plot_out.h"
#include "unc_args.h"

#define COMPARE_MAX_GPUS 64

static const char *const formats[] = { "table", "csv", "json", "md", NULL };

/* The chart of --plot: the rows that have a plan, as the table judges
 * them (the expected wall clock and its cost, or with steady the steady
 * state), with the quantiles of the same. */
static int write_plot(struct cli_ctx *ctx, const char *path, const struct workload *w,
		      const struct rep_compare_row *rows, int n, int steady)
{
	struct plot_compare_row *pr = calloc(n ? (size_t)n : 1, sizeof(*pr));
	struct svg s;
	size_t k = 0;
	if (!pr) {
		fputs("traincost compare: out of memory\n", ctx->err);
		return TC_EXIT_INTERNAL;
	}
	for (int i = 0; i < n; i++) {
		const struct rep_compare_row *r = &rows[i];
		if (!r->ok)
			continue;
		int wall = !steady && r->unc.has_wall;
		pr[k] = (struct plot_compare_row){
			.gpu = r->g.id, .count = r->e.plan.count, .total_s = r->judged_s,
			.unfinished = !isfinite(r->judged_s), .has_unc = r->unc_ok,
			.total_q = wall ? r->unc.wall_s : r->unc.total_s,
			.cost_q = wall ? r->unc.wall_usd : r->unc.cost_usd,
		};
		if (r->cost.priced)
			pr[k].cost_usd = r->judged_usd;
		pr[k].priced = r->cost.priced && isfinite(r->judged_usd) &&
			       (!r->unc_ok || r->unc.has_cost);
		k++;
	}
	plot_compare(&s, 1, w->name[0] ? w->name : w->file,
		     steady ? "steady state" : "expected wall clock", pr, k);
	free(pr);
	return plot_out_write(ctx, "compare", &s, path);
}

/* Split "a,b,c" into ids; returns the count or -1 with a usage error. */
static int split_ids(struct cli_ctx *ctx, char *list, char **ids, int max)
{
	int n = 0;
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		if (!*tok)
			continue;
		if (n == max) {
			cli_usage_error(ctx, "compare", "--gpus lists more than %d GPUs", max);
			return -1;
		}
		ids[n++] = tok;
	}
	if (n == 0) {
		cli_usage_error(ctx, "compare", "--gpus is empty (expected ids such as a100-80gb-sxm,l40s)");
		return -1;
	}
	return n;
}

/*
 * GPU counts tried in turn when a deadline is given: 1, 2, 4 up to a node,
 * then whole nodes in the steps 1, 2, 3, 4, 6, 8, 12, 16, ... (powers of two
 * and one and a half times them, so batch sizes that are powers of two
 * still divide among the replicas).
 */
static int next_count(int count, int per_node)
{
	if (count < per_node)
		return count * 2 > per_node ? per_node : count * 2;
	int nodes = count / per_node, pow2 = 1;
	while (pow2 * 2 <= nodes)
		pow2 *= 2;
	/* nodes is pow2 or 1.5 x pow2; the next step is the other one. */
	int next = nodes == pow2 ? (pow2 >= 2 ? pow2 + pow2 / 2 : 2) : pow2 * 2;
	return next * per_node;
}

/* The best plan of one GPU type at `count` GPUs: 0, or -1 with r->why. */
static int try_count(const struct workload *w, struct rep_compare_row *r, int count,
		     struct est_workspace *ws)
{
	struct search_knobs k;
	struct plan_problem why = { WLF_NONE, "" };
	search_knobs_all(&k);
	if (search_best_at(w, &r->g, count, &k, ws, &r->w, &r->e, &why)) {
		snprintf(r->why, sizeof(r->why), "%s", why.msg);
		return -1;
	}
	return 0;
}

/* Row r's judged time and cost (its plan priced) and whether it meets
 * the deadline on them. */
static void judge(struct rep_compare_row *r, const struct money *m, double deadline_s)
{
	r->judged_s = money_judged_s(m->steady_state, &r->e, &r->cost);
	r->judged_usd = r->cost.priced ? money_judged_usd(m->steady_state, &r->cost) : 0;
	r->meets = deadline_s > 0 && r->judged_s <= deadline_s;
}

/*
 * A plan priced on instances it leaves GPUs of idle is tried again on
 * every GPU paid for (the instances rounded up): the cheaper of the two is
 * kept (the idle GPUs are paid for anyway, and more GPUs are never slower
 * here).  Ties keep the plan as it was.
 */
static void whole_instances(const struct workload *w, struct rep_compare_row *r, int max_count,
			    double deadline_s, const struct money *m, struct est_workspace *ws)
{
	if (!r->ok || !r->cost.priced || !(r->cost.range.cheapest.run.idle_gpus > 0))
		return;
	double paid = r->cost.range.cheapest.run.gpus_paid;
	if (paid > max_count || paid > 1e6)
		return;
	struct rep_compare_row *c = malloc(sizeof(*c));
	if (!c)
		return;
	*c = *r;
	if (try_count(w, c, (int)paid, ws) == 0 && money_cost(m, &c->g, &c->w, &c->e, &c->cost) == 0) {
		judge(c, m, deadline_s);
		if (c->cost.priced && c->meets >= r->meets && c->judged_usd < r->judged_usd)
			*r = *c;
	}
	free(c);
}

/*
 * The plan of one GPU type over w's network (r->g set): at `count` GPUs,
 * or with a deadline the fewest GPUs from `first` on that finish in time
 * (the fastest plan when none does), then its price.
 */
static void evaluate_on(const struct workload *w, struct rep_compare_row *r, int count,
			int first, double deadline_s, int max_count, const struct money *m,
			struct est_workspace *ws)
{
	r->ok = 0;
	if (deadline_s <= 0) {
		r->ok = try_count(w, r, count, ws) == 0;
	} else {
		int per_node = r->g.gpus_per_node > 0 ? r->g.gpus_per_node : 1;
		int best_seen = 0;
		struct rep_compare_row keep;
		for (int c = first; c <= max_count; c = next_count(c, per_node)) {
			if (try_count(w, r, c, ws))
				continue;
			/* Remember the fastest plan in case no count meets the
			 * deadline (judged before pricing on the workload's own
			 * campaign; judge() says after it whether it meets). */
			double t = money_judged_s(m->steady_state, &r->e, NULL);
			if (!best_seen || t < money_judged_s(m->steady_state, &keep.e, NULL)) {
				keep = *r;
				best_seen = 1;
			}
			if (t <= deadline_s) {
				r->ok = r->meets = 1;
				break;
			}
		}
		if (!r->ok && best_seen) {
			*r = keep;
			r->ok = 1;
			r->meets = 0;
		}
		if (!r->ok && !r->why[0])
			snprintf(r->why, sizeof(r->why), "no plan fits up to %d GPUs", max_count);
	}
	if (r->ok && money_cost(m, &r->g, &r->w, &r->e, &r->cost))
		r->cost.priced = 0;
	if (r->ok)
		judge(r, m, deadline_s);
	if (deadline_s > 0) /* a search, not the count asked for */
		whole_instances(w, r, max_count, deadline_s, m, ws);
}

/* 1 when candidate a is a better answer than b: it has a plan, meets the
 * deadline, has a price, then costs less (unpriced ties keep b). */
static int better(const struct rep_compare_row *a, const struct rep_compare_row *b)
{
	if (a->ok != b->ok)
		return a->ok;
	if (a->meets != b->meets)
		return a->meets;
	if (a->cost.priced != b->cost.priced)
		return a->cost.priced;
	return a->cost.priced && a->judged_usd < b->judged_usd;
}

#define COMPARE_MAX_NETS 8

/*
 * The plan of one GPU type, searched and timed over the network of the
 * offers it is priced on: over w's own network (every offer of one
 * instance, and those joining instances over it), then, for plans of more
 * than one node, over each other network the GPU's offers join instances
 * by (only the offers on it).  The cheapest candidate that meets the
 * deadline wins.  With --network (m->network_fixed) w's network alone.
 */
static void evaluate(const struct workload *w, struct rep_compare_row *r, int count,
		     double deadline_s, int max_count, const struct money *m,
		     struct est_workspace *ws)
{
	const char *nets[COMPARE_MAX_NETS];
	int per_node = r->g.gpus_per_node > 0 ? r->g.gpus_per_node : 1;
	int nn = m->network_fixed ? 0 : run_cost_networks(m->tables, m->ntables, r->g.id,
							    m->in.kind, nets, COMPARE_MAX_NETS);
	evaluate_on(w, r, count, 1, deadline_s, max_count, m, ws);
	if (!nn || (deadline_s <= 0 && count <= per_node))
		return;
	struct workload *wn = malloc(sizeof(*wn));
	struct rep_compare_row *c = malloc(sizeof(*c));
	int first = 1;
	while (first <= per_node)
		first = next_count(first, per_node);
	for (int k = 0; wn && c && k < nn; k++) {
		const struct net_def *n = net_find(nets[k]);
		if (!n || !strcmp(nets[k], w->plan.network))
			continue;
		*wn = *w;
		wl_set_network(&wn->plan, n);
		memset(c, 0, sizeof(*c));
		c->g = r->g;
		evaluate_on(wn, c, count, first, deadline_s, max_count, m, ws);
		if (better(c, r))
			*r = *c;
	}
	free(wn);
	free(c);
}

/*
 * Monte Carlo of each row's chosen plan, priced on its cheapest offer; every
 * row draws from the same seed, so the GPU types meet the same luck.  A row
 * whose samples cannot be drawn keeps the reason in unc_why.
 */
static void sample_rows(struct rep_compare_row *rows, int n, const struct unc_spec *base,
			struct unc_workspace *uws)
{
	struct workload *pw = malloc(sizeof(*pw)); /* the row's run as priced */
	for (int i = 0; i < n; i++) {
		struct rep_compare_row *r = &rows[i];
		struct unc_spec s = *base;
		struct plan_problem why = { WLF_NONE, "" };
		if (!r->ok)
			continue;
		unc_spec_price(&s, &r->cost);
		if (pw)
			money_priced_workload(&r->cost, &r->w, pw);
		else
			snprintf(why.msg, sizeof(why.msg), "out of memory");
		r->unc_ok = pw && unc_run(pw, &r->g, &s, uws, &r->unc, &why) == 0;
		if (!r->unc_ok)
			snprintf(r->unc_why, sizeof(r->unc_why), "%s", why.msg);
	}
	free(pw);
}

/* Cost order, unpriced after priced, failures last; then time. */
static int cmp_rows(const void *a, const void *b)
{
	const struct rep_compare_row *x = a, *y = b;
	if (x->ok != y->ok)
		return y->ok - x->ok;
	if (x->meets != y->meets)
		return y->meets - x->meets;
	if (x->ok && x->cost.priced != y->cost.priced)
		return y->cost.priced - x->cost.priced;
	double cx = x->cost.priced ? x->judged_usd : x->judged_s;
	double cy = y->cost.priced ? y->judged_usd : y->judged_s;
	return (cx > cy) - (cx < cy);
}

/* The command line of compare, checked: the options as given, and the
 * values parsed from them. */
struct compare_args {
	const char *gpus, *count_s, *deadline, *max_s, *format, *calibration, *plot,
		*network, *framework, *headroom;
	struct money_args ma;
	struct unc_args ua;
	char *file; /* the workload file: argv's */
	int count, max_count;
	int steady;  /* --steady-state: judge and bill at steady state */
	double deadline_s, headroom_frac;
};

/* Parse and check compare's command line into *a, the money options into
 * *m.  Returns 0, an exit code after printing the problem, or
 * CLI_HELP_SHOWN after --help. */
static int parse_args(struct cli_ctx *ctx, int argc, char **argv, struct compare_args *a,
		      struct money *m)
{
	memset(a, 0, sizeof(*a));
	a->format = "table";
	const struct cli_opt mine[] = {
		CLI_VALUE("gpus", &a->gpus, "LIST", "catalog ids, comma-separated"),
		CLI_VALUE("count", &a->count_s, "N", "GPUs per type (default: the file's plan)"),
		CLI_VALUE("deadline", &a->deadline, "D",
			  "find the fewest GPUs that finish within D (e.g. 14d), or the whole "
			  "instances they are priced on if cheaper"),
		CLI_VALUE("max-gpus", &a->max_s, "N",
			  "largest count tried with --deadline (default " CLI_STR(CLI_DEFAULT_MAX_GPUS) ")"),
		CLI_CHOICE("network", &a->network, net_names, "NAME", NETWORK_SEARCH_HELP),
		CLI_VALUE("memory-headroom", &a->headroom, "F", MEMORY_HEADROOM_HELP),
		CLI_VALUE("calibration", &a->calibration, "FILE", CALIBRATION_HELP),
		CLI_VALUE("framework", &a->framework, "ID",
			  "software-stack profile for every GPU type (see `traincost frameworks`; "
			  "default: the file's)"),
		CLI_CHOICE("format", &a->format, formats, "F", "output format"),
		CLI_VALUE("plot", &a->plot, "FILE",
			  "also draw total time and cost per GPU type (P10-P90 whiskers with "
			  "--uncertainty) as an SVG chart into FILE"),
	};
	struct cli_opts opts = { 0 };
	char *pos[CLI_MAX_POS];
	int npos, rc;
	CLI_OPTS_ADD(&opts, mine);
	money_opts(&a->ma, &opts);
	money_basis_opts(&a->steady, &opts);
	unc_args_opts(&a->ua, &opts);
	cli_opts_help(&opts, "uncertainty",
		      "Monte Carlo of N samples (default " CLI_STR(UNC_DEFAULT_SAMPLES) ") per GPU "
		      "type: P10, P50, P90 of total time and cost, and the chance of meeting --deadline");
	if ((rc = cli_parse(ctx, "compare", argc, argv, opts.row, pos, &npos)))
		return rc;
	if ((rc = plot_out_check(ctx, "compare", a->plot)))
		return rc;
	if (npos != 1)
		return cli_usage_error(ctx, "compare", "%s", npos ? "too many files (expected one workload file)"
								  : "no workload file given (expected FILE)");
	a->file = pos[0];
	if (a->count_s && a->deadline)
		return cli_usage_error(ctx, "compare", "--count and --deadline exclude each other (expected one of them)");
	a->max_count = CLI_DEFAULT_MAX_GPUS;
	const char *why;
	if (a->count_s && cli_int_arg(ctx, "compare", "count", a->count_s, 1, 1000000, &a->count))
		return TC_EXIT_USAGE;
	if (a->max_s && cli_int_arg(ctx, "compare", "max-gpus", a->max_s, 1, 1000000, &a->max_count))
		return TC_EXIT_USAGE;
	if (a->deadline && (tc_parse_quantity(a->deadline, TC_UNIT_SECONDS, &a->deadline_s, &why) ||
			    a->deadline_s <= 0))
		return cli_usage_error(ctx, "compare", "--deadline '%s' is not valid (expected a duration such as 14d)",
				       a->deadline);
	if (cli_headroom_arg(ctx, "compare", a->headroom, &a->headroom_frac))
		return TC_EXIT_USAGE;
	if ((rc = money_parse(ctx, "compare", &a->ma, m)))
		return rc;
	m->steady_state = a->steady;
	return 0;
}

/*
 * The GPU types to compare into rows[] (room for the catalog and
 * COMPARE_MAX_GPUS), *n of them: those --gpus lists, or the whole catalog.
 * Returns 0, or an exit code after printing the problem.
 */
static int choose_rows(struct cli_ctx *ctx, const char *gpus, const struct gpu_catalog *cat,
		       struct rep_compare_row *rows, int *n)
{
	*n = 0;
	if (!gpus) {
		for (size_t i = 0; i < cat->count; i++)
			rows[(*n)++].g = cat->gpus[i];
		return 0;
	}
	char *ids[COMPARE_MAX_GPUS];
	char *idbuf = strdup(gpus);
	int k = idbuf ? split_ids(ctx, idbuf, ids, COMPARE_MAX_GPUS) : -1;
	int rc = 0;
	if (k < 0)
		rc = idbuf ? TC_EXIT_USAGE : TC_EXIT_INTERNAL;
	for (int i = 0; i < k; i++) {
		char msg[1024];
		if (gpu_catalog_lookup(cat, ids[i], &rows[*n].g, msg, sizeof(msg))) {
			fprintf(ctx->err, "traincost compare: --gpus: %s\n", msg);
			rc = TC_EXIT_INPUT;
			break;
		}
		(*n)++;
	}
	free(idbuf);
	return rc;
}

/*
 * The search: each row's plan and price (at a->count GPUs, or the fewest
 * that meet the deadline), without --gpus only the GPUs the workload fits
 * on, the spot warnings, the samples when `us` is given, then cost order.
 * *n is the rows kept.
 */
static void search_rows(struct cli_ctx *ctx, const struct workload *w, const struct compare_args *a,
			int count, const struct money *m, struct rep_compare_row *rows, int *n,
			struct est_workspace *ws, const struct unc_spec *us, struct unc_workspace *uws)
{
	for (int i = 0; i < *n; i++)
		evaluate(w, &rows[i], count, a->deadline_s, a->max_count, m, ws);
	/* Without --gpus, show only the GPUs the workload fits on. */
	if (!a->gpus) {
		int kept = 0;
		for (int i = 0; i < *n; i++)
			if (rows[i].ok)
				rows[kept++] = rows[i];
		*n = kept;
	}
	for (int i = 0; m->in.kind == COST_SPOT && i < *n; i++)
		if (rows[i].ok)
			money_warn_spot(ctx, "compare", &m->set, m->tables, m->ntables, &rows[i].g);
	if (us)
		sample_rows(rows, *n, us, uws);
	qsort(rows, (size_t)*n, sizeof(*rows), cmp_rows);
}

int cmd_compare(int argc, char **argv, struct cli_ctx *ctx)
{
	struct compare_args a;
	struct money m;
	int rc;
	if ((rc = parse_args(ctx, argc, argv, &a, &m)))
		return rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;

	struct tc_diag d;
	struct workload w;
	struct gpu_catalog cat = { 0 };
	struct est_workspace ws = { 0 };
	struct rep_compare_row *rows = NULL;
	struct unc_spec us;
	struct unc_workspace uws = { 0 };
	int n = 0;
	tc_diag_init(&d);
	struct cal_overlay cal;
	if (wl_load_file(a.file, &ctx->data, &w, &d)) {
		rc = cli_report(ctx, &d);
		goto out;
	}
	if (a.network)
		wl_set_network(&w.plan, net_find(a.network)); /* a choice of net_names */
	if (a.framework && (rc = cli_framework_arg(ctx, a.framework, &w.plan)))
		goto out;
	w.plan.memory_headroom_frac = a.headroom_frac;
	if ((rc = cli_load_catalog(ctx, a.calibration, &cat, &cal)))
		goto out;
	if (a.ua.on && (rc = unc_args_spec(ctx, "compare", &a.ua, &cal, &us)))
		goto out;
	us.deadline_s = a.deadline_s;
	us.wall = !a.steady; /* the quantiles and the chance judged as the table is */
	if (a.ua.on && (rc = unc_args_workspace(ctx, "compare", &us, &uws)))
		goto out;
	if ((rc = money_load(ctx, "compare", &a.ma, &m)))
		goto out;
	m.network_fixed = a.network != NULL;
	m.network_own = 1;
	rows = calloc(cat.count + COMPARE_MAX_GPUS, sizeof(*rows));
	if (!rows || est_workspace_init(&ws, EST_MAX_OPS)) {
		fputs("traincost compare: out of memory\n", ctx->err);
		rc = TC_EXIT_INTERNAL;
		goto out;
	}
	if ((rc = choose_rows(ctx, a.gpus, &cat, rows, &n)))
		goto out;
	struct eff_stack stack;
	if ((rc = cli_stack(ctx, &w, &stack)))
		goto out;
	for (int i = 0; i < n; i++) /* each GPU type with the one stack */
		gpu_resolve(&rows[i].g, &rows[i].g, &stack, cal_layer(&cal));
	int count = a.count;
	if (!count && !a.deadline_s)
		count = w.plan.count;
	search_rows(ctx, &w, &a, count, &m, rows, &n, &ws, a.ua.on ? &us : NULL, &uws);
	if (a.plot && (rc = write_plot(ctx, a.plot, &w, rows, n, m.steady_state)))
		goto out;
	const struct rep_compare_results res = {
		.w = &w, .kind = m.in.kind, .preempt_per_h = m.in.preempt_per_h, .steady_state = m.steady_state,
		.unjoin = m.set.unjoin, .cal = &cal, .rows = rows, .n = n, .count = count,
		.deadline_s = a.deadline_s, .unc = a.ua.on ? &us : NULL,
	};
	if ((rc = rep_compare_report(ctx->out, a.format, &res))) {
		fputs("traincost compare: internal error: a non-finite value in the report\n", ctx->err);
		rc = TC_EXIT_INTERNAL;
	}
out:
	free(rows);
	unc_workspace_release(&uws);
	est_workspace_release(&ws);
	money_release(&m);
	gpu_catalog_release(&cat);
	return rc;
}
