/*
 * plan_report.c - the answer of `traincost plan`: a plan's columns
 * described once and written as a table, Markdown, CSV or JSON from that
 * description (plan_report.h).
 */
#include "plan_report.h"

#include <stdlib.h>
#include <string.h>

#include "../model/core/mem_reserve.h"
#include "../util/units.h"
#include "../util/utf8.h"
#include "estimate_report.h"
#include "json.h"
#include "layout_text.h"
#include "numfmt.h"
#include "offer_words.h"
#include "out_fields.h"
#include "rows.h"
#include "table.h"
#include "unc_json.h"


/*
 * One plan per row.  CSV and JSON carry the layout field by field, times
 * and cost in their units and the offer by its provider and instance; the
 * table and Markdown word the layout in one cell, the times and the
 * money as people read them, and the offer with the network it was timed
 * over.  The samples of --uncertainty are columns of their own in CSV
 * and an object in JSON (unc_json.h); the table shows their quantiles
 * three to a cell.
 */
enum {
	PC_SECTION, PC_GPU, PC_LAYOUT, PC_FREE = PC_LAYOUT + REP_LAYOUT_NCOLS, PC_STEP, PC_TOTAL,
	PC_COST, PC_BASIS,
	PC_PROVIDER, PC_INSTANCE, PC_OFFER,
	PC_TOTAL_P10, PC_TOTAL_P50, PC_TOTAL_P90, PC_COST_P10, PC_COST_P50, PC_COST_P90,
	PC_TIME_RANGE, PC_COST_RANGE, PC_P_DEADLINE, PC_P_BUDGET, PC_NETWORK, PC_COLS
};
/* A quantile of the uncertainty, written as the field it samples is
 * (the catalog's CSV format: out_fields.h). */
#define TIME_COL(name, view) \
	{ name, "", REP_COL_NUM, 0, 0, NULL, NULL, NULL, REP_CSV_SIG6, view, 0 }
#define USD_COL(name, view) \
	{ name, "", REP_COL_NUM, 0, 2, NULL, NULL, NULL, REP_CSV_DECIMALS, view, 0 }
#define FIGURE_COL(name, title) \
	{ name, title, REP_COL_FIGURE, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_TEXT, 0 }
#define CHANCE_COL(name, title) \
	{ name, title, REP_COL_NUM, 100, 0, " %", NULL, NULL, REP_CSV_SIG4, REP_VIEW_FLAT, 0 }
static const struct rep_col plan_spec[PC_COLS] = {
	[PC_SECTION] = REP_TEXT_COL("section", "", REP_VIEW_CSV, 0),
	[PC_GPU] = REP_FIELD_COL("gpu", REP_VIEW_ALL, 0),
	[PC_LAYOUT] = REP_LAYOUT_COLS,
	/* The layout's memory margin: what fits is compared with, less what
	 * it needs (the table's words; CSV and JSON have neither). */
	[PC_FREE] = REP_TEXT_COL("memory_free", "free", REP_VIEW_TEXT, 0),
	[PC_STEP] = REP_FIELD_COL("step_time_s", REP_VIEW_DATA, 0),
	/* the time on the plan's basis, the expected wall clock unless
	 * --steady-state: the table titles it by that basis */
	[PC_TOTAL] = REP_FIELD_COL("basis_time_s", REP_VIEW_ALL, 0),
	[PC_COST] = REP_FIELD_COL("cost_usd", REP_VIEW_ALL, 0),
	/* what total_time_s and cost_usd are (rep_basis_name) */
	[PC_BASIS] = REP_TEXT_COL("basis", "", REP_VIEW_DATA, 0),
	[PC_PROVIDER] = REP_FIELD_COL("provider", REP_VIEW_DATA, 0),
	[PC_INSTANCE] = REP_FIELD_COL("instance", REP_VIEW_DATA, 0),
	[PC_OFFER] = REP_TEXT_COL("offer", "offer", REP_VIEW_TEXT, 0),
	[PC_TOTAL_P10] = TIME_COL("basis_time_p10_s", REP_VIEW_CSV),
	[PC_TOTAL_P50] = TIME_COL("basis_time_p50_s", REP_VIEW_CSV),
	[PC_TOTAL_P90] = TIME_COL("basis_time_p90_s", REP_VIEW_CSV),
	[PC_COST_P10] = USD_COL("cost_p10_usd", REP_VIEW_CSV),
	[PC_COST_P50] = USD_COL("cost_p50_usd", REP_VIEW_CSV),
	[PC_COST_P90] = USD_COL("cost_p90_usd", REP_VIEW_CSV),
	[PC_TIME_RANGE] = FIGURE_COL("basis_time_s", "time P10 / P50 / P90"),
	[PC_COST_RANGE] = FIGURE_COL("cost_usd", "cost P10 / P50 / P90"),
	[PC_P_DEADLINE] = CHANCE_COL("p_deadline", "P(deadline)"),
	[PC_P_BUDGET] = CHANCE_COL("p_budget", "P(budget)"),
	[PC_NETWORK] = REP_TEXT_COL("network", "", REP_VIEW_DATA, 0),
};
#undef CHANCE_COL
#undef FIGURE_COL
#undef USD_COL
#undef TIME_COL

int rep_plan_cols(struct rep_col *cols)
{
	return rep_fields_copy(cols, plan_spec, PC_COLS);
}

/* The columns of plan_cols one output shows, in their order. */
struct plan_cols {
	struct rep_col col[PC_COLS];
	int which[PC_COLS]; /* the plan_spec index of col[k] */
	int n;
};

/*
 * The columns of r's output in fmt: the samples' only with
 * --uncertainty, and the chance of meeting a target in the table only
 * where the target was given (CSV's header is fixed for the options).
 */
static void pick_cols(struct plan_cols *pc, const struct plan_report *r, const char *fmt)
{
	int csv = !strcmp(fmt, "csv");
	struct rep_col all[PC_COLS];
	rep_plan_cols(all);
	pc->n = 0;
	for (int c = 0; c < PC_COLS; c++) {
		int sampled = c >= PC_TOTAL_P10 && c <= PC_P_BUDGET;
		if (sampled && !r->unc)
			continue;
		if ((c == PC_P_DEADLINE && !csv && !(r->deadline_s > 0)) ||
		    (c == PC_P_BUDGET && !csv && !(r->budget_usd > 0)))
			continue;
		pc->col[pc->n] = all[c];
		if (c == PC_TOTAL)
			pc->col[pc->n].title = r->steady_state ? "total time, steady" : "wall clock";
		pc->which[pc->n++] = c;
	}
}

/* Room for the worded cells of one plan. */
struct plan_texts {
	char layout[128], offer[320], time_range[112], cost_range[112], free[48];
};

/* The layout in words: "tp 8 pp 4 dp 16 zero 1 mb 1 rec selective v 2 sp";
 * for vision and recommenders, which are data parallel only, the samples
 * per GPU and step, and a vision run's micro-batch when it accumulates
 * gradients ("dp 8, 256 images/GPU, mb 128").  Returns buf. */
static const char *layout_words(char *buf, size_t len, const struct workload *w,
				const struct plan_point *p)
{
	const struct plan *l = &p->plan;
	if (w->kind != WL_LLM) {
		double per_gpu = w->train.global_batch / l->dp;
		int n = snprintf(buf, len, "dp %d, %.0f %s/GPU", l->dp, per_gpu,
				 rep_sample_unit(rep_kind_name(w)));
		if (w->kind == WL_VISION && l->micro_batch > 0 && l->micro_batch < per_gpu && n > 0 &&
		    (size_t)n < len)
			snprintf(buf + n, len - (size_t)n, ", mb %d", l->micro_batch);
		return buf;
	}
	size_t n = (size_t)snprintf(buf, len, "tp %d pp %d dp %d zero %d mb %d rec %s", l->tp, l->pp,
				    l->dp, l->zero, l->micro_batch, recompute_names[p->recompute]);
	if (l->interleave > 1 && n < len)
		n += (size_t)snprintf(buf + n, len - n, " v %d", l->interleave);
	/* Sequence parallelism splits the tensor-parallel group: none with tp 1. */
	if (l->sequence_parallel && l->tp > 1 && n < len)
		snprintf(buf + n, len - n, " sp");
	return buf;
}

/* What the layout cells' short words mean, with their units. */
static void plan_legend(FILE *f, const struct workload *w)
{
	if (w->kind == WL_LLM)
		fputs("Layout: tp, pp and dp are the tensor-, pipeline- and data-parallel "
		      "degrees (GPUs), zero the ZeRO stage, mb the micro-batch (sequences), "
		      "rec the activation recompute, v the model chunks on each pipeline "
		      "GPU, sp sequence parallelism.\n\n", f);
	else if (w->kind == WL_VISION)
		fputs("Layout: dp is the data-parallel degree (GPUs), mb the micro-batch "
		      "(images) where gradients accumulate.\n\n", f);
}

/* The P10 / P50 / P90 of *q as durations or dollars.  Returns buf. */
static const char *range_words(char *buf, size_t len, const struct unc_quantiles *q, int usd)
{
	char a[32], b[32], c[32];
	char *(*fmt)(double, char *, int) = usd ? rep_fmt_usd : tc_fmt_duration;
	snprintf(buf, len, "%s / %s / %s", fmt(q->p10, a, sizeof(a)), fmt(q->p50, b, sizeof(b)),
		 fmt(q->p90, c, sizeof(c)));
	return buf;
}

/* The cells of point p under every column of plan_cols, its texts
 * written into t; section names the list it belongs to in CSV. */
static void point_cells(struct rep_cell *c, struct plan_texts *t, const struct plan_point *p,
			const struct plan_report *r, const char *section)
{
	const struct unc_result *u = &p->unc;
	int s = p->sampled, cost = s && u->has_cost;
	memset(c, 0, PC_COLS * sizeof(*c));
	c[PC_SECTION].text = section;
	c[PC_GPU].text = r->gpus[p->gpu].id;
	rep_layout_plan_row(c + PC_LAYOUT, layout_words(t->layout, sizeof(t->layout), r->w, p),
			    &p->plan, p->recompute);
	const struct gpu *g = &r->gpus[p->gpu];
	c[PC_FREE].text = tc_fmt_bytes(mem_usable_bytes(g, &r->w->plan) - p->memory_per_gpu_bytes,
				       t->free, sizeof(t->free));
	c[PC_STEP].num = p->step_time_s;
	c[PC_TOTAL].num = p->total_time_s;
	c[PC_COST].num = p->cost_usd;
	c[PC_BASIS].text = rep_basis_name(r->steady_state);
	c[PC_PROVIDER].text = p->provider;
	c[PC_INSTANCE].text = p->instance;
	/* A time taken over the offer's own network says so. */
	char idle[48] = "";
	if (p->idle_gpus > 0)
		snprintf(idle, sizeof(idle), ", %.4g idle GPU%s paid for", p->idle_gpus,
			 p->idle_gpus == 1 ? "" : "s");
	snprintf(t->offer, sizeof(t->offer), "%s %s%s%s%s%s%s", p->provider, p->instance,
		 p->network ? " over " : "", p->network ? p->network : "",
		 p->caveat ? ", " : "", p->caveat ? p->caveat : "", idle);
	c[PC_OFFER].text = t->offer;
	/* the samples of what the plan is judged on (planner_ranked) */
	const struct unc_quantiles *qt = u->has_wall ? &u->wall_s : &u->total_s;
	const struct unc_quantiles *qc = u->has_wall ? &u->wall_usd : &u->cost_usd;
	const double q[] = { qt->p10, qt->p50, qt->p90, qc->p10, qc->p50, qc->p90 };
	for (int k = 0; k < 6; k++)
		c[PC_TOTAL_P10 + k] = (struct rep_cell){ .num = q[k], .missing = k < 3 ? !s : !cost };
	c[PC_TIME_RANGE] = (struct rep_cell){ .missing = !s };
	if (s)
		c[PC_TIME_RANGE].text = range_words(t->time_range, sizeof(t->time_range), qt, 0);
	c[PC_COST_RANGE] = (struct rep_cell){ .missing = !cost };
	if (cost)
		c[PC_COST_RANGE].text = range_words(t->cost_range, sizeof(t->cost_range), qc, 1);
	c[PC_P_DEADLINE] = (struct rep_cell){ .num = u->has_wall ? u->p_deadline_wall : u->p_deadline,
					      .missing = !s || !u->has_deadline };
	c[PC_P_BUDGET] = (struct rep_cell){ .num = u->has_wall ? u->p_budget_wall : u->p_budget,
					    .missing = !s || !u->has_budget };
	c[PC_NETWORK] = (struct rep_cell){ .text = p->network, .missing = !p->network };
}

/* Append the plans idx[0..n-1] of r to rows, under the columns pc. */
static void add_points(struct rep_rows *rows, const struct plan_cols *pc,
		       const struct plan_report *r, const size_t *idx, size_t n,
		       const char *section)
{
	for (size_t i = 0; i < n; i++) {
		struct rep_cell all[PC_COLS], cells[PC_COLS];
		struct plan_texts t;
		point_cells(all, &t, &r->pts[idx[i]], r, section);
		for (int k = 0; k < pc->n; k++)
			cells[k] = all[pc->which[k]];
		rep_rows_add(rows, cells);
	}
}

/* The plans on the Pareto front, as indices into r->pts (in idx, room for
 * all).  Returns their count. */
static size_t front_points(const struct plan_report *r, size_t *idx)
{
	size_t n = 0;
	for (size_t i = 0; i < r->npts; i++)
		if (r->front[i])
			idx[n++] = i;
	return n;
}

/* The cheapest and the fastest of the plans meeting both targets, into
 * idx (one when they are the same plan).  Returns their count. */
static size_t cheapest_and_fastest(const struct plan_report *r, size_t *idx)
{
	long pick[2] = { -1, -1 }; /* cheapest, fastest */
	double key[2] = { 0, 0 };
	size_t n = 0;
	for (size_t i = 0; i < r->npts; i++) {
		double t, c;
		if (!planner_meets(&r->pts[i], r->risk, r->deadline_s, r->budget_usd) ||
		    planner_ranked(&r->pts[i], r->risk, &t, &c))
			continue;
		if (pick[0] < 0 || c < key[0])
			pick[0] = (long)i, key[0] = c;
		if (pick[1] < 0 || t < key[1])
			pick[1] = (long)i, key[1] = t;
	}
	for (int k = 0; k < 2; k++)
		if (pick[k] >= 0 && (k == 0 || pick[1] != pick[0]))
			idx[n++] = (size_t)pick[k];
	return n;
}

/*
 * The plans the answer names, as indices into r->pts (in idx, room for
 * all): with one target the best; with both every plan meeting them, or,
 * for a person (digest), the cheapest and the fastest of them.  Returns
 * their count.
 */
static size_t chosen_points(const struct plan_report *r, int digest, size_t *idx)
{
	size_t n = 0;
	if (r->deadline_s > 0 && r->budget_usd > 0) {
		if (digest)
			return cheapest_and_fastest(r, idx);
		for (size_t i = 0; i < r->npts; i++)
			if (planner_meets(&r->pts[i], r->risk, r->deadline_s, r->budget_usd))
				idx[n++] = i;
	} else if ((r->deadline_s > 0 || r->budget_usd > 0) && r->best >= 0) {
		idx[n++] = (size_t)r->best;
	}
	return n;
}

/* The list the answer's plans belong to in CSV. */
static const char *chosen_section(const struct plan_report *r)
{
	if (r->deadline_s > 0 && r->budget_usd > 0)
		return "meets";
	return r->deadline_s > 0 ? "cheapest" : "fastest";
}

/* The targets as people read them, into dl and bu (32 bytes each; "" when
 * not given). */
static void target_words(const struct plan_report *r, char *dl, char *bu)
{
	dl[0] = bu[0] = '\0';
	if (r->deadline_s > 0)
		tc_fmt_duration(r->deadline_s, dl, 32);
	if (r->budget_usd > 0)
		rep_fmt_usd(r->budget_usd, bu, 32);
}

/* The plans closest to the targets by ranked time and cost: the fastest,
 * the cheapest, the cheapest in time and the fastest within budget. */
struct closest {
	long fastest, cheapest, cheap_in_time, fast_in_budget;
	double ft, cc, cit, fib;
};

static void find_closest(const struct plan_report *r, struct closest *k)
{
	memset(k, 0, sizeof(*k));
	k->fastest = k->cheapest = k->cheap_in_time = k->fast_in_budget = -1;
	for (size_t i = 0; i < r->npts; i++) {
		double t, c;
		if (planner_ranked(&r->pts[i], r->risk, &t, &c))
			continue;
		if (k->fastest < 0 || t < k->ft)
			k->fastest = (long)i, k->ft = t;
		if (k->cheapest < 0 || c < k->cc)
			k->cheapest = (long)i, k->cc = c;
		if (r->deadline_s > 0 && t <= r->deadline_s && (k->cheap_in_time < 0 || c < k->cit))
			k->cheap_in_time = (long)i, k->cit = c;
		if (r->budget_usd > 0 && c <= r->budget_usd && (k->fast_in_budget < 0 || t < k->fib))
			k->fast_in_budget = (long)i, k->fib = t;
	}
}

/*
 * When nothing meets the targets: the closest, and by how much, into
 * miss (len bytes; "" when a plan meets them or none was given).  With
 * both targets, each is met alone: the cheapest plan within the deadline
 * (how far over the budget) and the fastest within the budget (how far
 * over the deadline), or, where no plan meets that target either, the
 * plan closest to it.
 */
static void closest_words(const struct plan_report *r, char *miss, size_t len)
{
	const struct plan_point *p = r->pts;
	const struct gpu *g = r->gpus;
	double dls = r->deadline_s, bus = r->budget_usd;
	const char *at = r->risk == PLAN_RISK_P90 ? " at P90" : "";
	char dl[32], bu[32], t[32], usd[32];
	struct closest k;
	size_t used = 0;

	miss[0] = '\0';
	if (!(dls > 0 || bus > 0) || r->nboth)
		return;
	target_words(r, dl, bu);
	find_closest(r, &k);
	if (dls > 0 && bus > 0 && k.cheap_in_time >= 0) {
		used += (size_t)snprintf(miss, len, "within the %s deadline the cheapest plan (%d x %s) "
					 "costs %s%s, %.0f%% over the %s budget", dl,
					 p[k.cheap_in_time].plan.count, g[p[k.cheap_in_time].gpu].id,
					 rep_fmt_usd(k.cit, usd, sizeof(usd)), at,
					 100 * (k.cit / bus - 1), bu);
	} else if (dls > 0 && k.fastest >= 0) {
		used += (size_t)snprintf(miss, len, "the fastest plan (%d x %s) takes %s%s, %.0f%% over "
					 "the %s deadline", p[k.fastest].plan.count,
					 g[p[k.fastest].gpu].id, tc_fmt_duration(k.ft, t, sizeof(t)), at,
					 100 * (k.ft / dls - 1), dl);
	}
	if (dls > 0 && bus > 0 && k.fast_in_budget >= 0 && used < len)
		snprintf(miss + used, len - used, "%swithin the %s budget the fastest plan (%d x %s) "
			 "takes %s%s, %.0f%% over the %s deadline", used ? "; " : "", bu,
			 p[k.fast_in_budget].plan.count, g[p[k.fast_in_budget].gpu].id,
			 tc_fmt_duration(k.fib, t, sizeof(t)), at, 100 * (k.fib / dls - 1), dl);
	else if (bus > 0 && k.cheapest >= 0 && used < len)
		snprintf(miss + used, len - used, "%sthe cheapest plan (%d x %s) costs %s%s, %.0f%% over "
			 "the %s budget", used ? "; " : "", p[k.cheapest].plan.count,
			 g[p[k.cheapest].gpu].id, rep_fmt_usd(k.cc, usd, sizeof(usd)), at,
			 100 * (k.cc / bus - 1), bu);
	if (!miss[0])
		snprintf(miss, len, "no plan could be sampled");
}

/* Room for closest_words(). */
#define MISS_LEN 512

/* The plans idx[0..n-1] of r as the array `key` of j, each with its
 * samples.  Returns 0, or -1 when an allocation failed. */
static int json_points(struct rep_json *j, const char *key, const struct plan_cols *pc,
		       const struct plan_report *r, const size_t *idx, size_t n)
{
	struct rep_rows rows;
	rep_rows_init(&rows, pc->col, pc->n);
	add_points(&rows, pc, r, idx, n, "");
	rep_json_arr_begin(j, key);
	for (size_t i = 0; i < rows.rows; i++) {
		const struct plan_point *p = &r->pts[idx[i]];
		rep_json_obj_begin(j, NULL);
		rep_rows_json_fields(&rows, i, j);
		if (p->sampled)
			rep_unc_json(j, "uncertainty", &p->unc);
		rep_json_obj_end(j);
	}
	rep_json_arr_end(j);
	int rc = rows.failed ? -1 : 0;
	rep_rows_release(&rows);
	return rc;
}

/* The document: the search, the plans meeting the targets, how close
 * the others come, the Pareto front. */
static int print_json(FILE *out, const struct plan_report *r, const struct plan_cols *pc,
		      size_t *idx)
{
	struct rep_json j;
	char miss[MISS_LEN];
	int rc;

	rep_json_doc_begin(&j, out, "plan");
	rep_json_str(&j, "workload", r->w->name);
	rep_json_str(&j, "file", r->w->file);
	rep_json_str(&j, "kind", rep_kind_name(r->w));
	rep_json_str(&j, "pricing", cost_kind_names[r->kind]);
	rep_json_str(&j, "basis", rep_basis_name(r->steady_state));
	if (r->deadline_s > 0)
		rep_json_num(&j, "deadline_s", r->deadline_s);
	if (r->budget_usd > 0)
		rep_json_num(&j, "budget_usd", r->budget_usd);
	if (r->unc) {
		rep_json_str(&j, "ranked_by", r->risk == PLAN_RISK_P90 ? "p90" : "point");
		rep_json_int(&j, "samples", (long long)r->unc->samples);
		rep_json_int(&j, "seed", (long long)r->unc->seed);
		rep_json_int(&j, "sampled_plans", (long long)r->nsampled);
	}
	rc = json_points(&j, "meets", pc, r, idx, chosen_points(r, 0, idx));
	closest_words(r, miss, sizeof(miss));
	if (miss[0])
		rep_json_str(&j, "closest", miss);
	rc |= json_points(&j, "pareto", pc, r, idx, front_points(r, idx));
	rep_json_obj_end(&j);
	return rep_json_finish(&j) ? -1 : rc;
}

/* One table: the answer's plans and the front under one header, each
 * row saying which it belongs to. */
static int print_csv(FILE *out, const struct plan_report *r, const struct plan_cols *pc,
		     size_t *idx)
{
	struct rep_rows rows;
	rep_rows_init(&rows, pc->col, pc->n);
	add_points(&rows, pc, r, idx, chosen_points(r, 0, idx), chosen_section(r));
	add_points(&rows, pc, r, idx, front_points(r, idx), "pareto");
	int rc = rep_rows_print(&rows, out, "csv");
	rep_rows_release(&rows);
	return rc;
}

/* The plans idx[0..n-1] as a table in fmt ("table" or "md"). */
static int print_points(FILE *out, const char *fmt, const struct plan_report *r,
			const struct plan_cols *pc, const size_t *idx, size_t n)
{
	struct rep_rows rows;
	rep_rows_init(&rows, pc->col, pc->n);
	add_points(&rows, pc, r, idx, n, "");
	int rc = rep_rows_print(&rows, out, fmt);
	rep_rows_release(&rows);
	return rc;
}

/* What was searched and how it was priced and ranked, as paragraphs. */
static void print_search(FILE *out, const char *fmt, const struct plan_report *r)
{
	FILE *f = out;
	char title[REP_TITLE_LEN], esc[TC_ESC_SIZE(CAL_TEXT_LEN)];
	int md = !strcmp(fmt, "md");
	size_t n = r->npts;

	fprintf(f, md ? "## %s\n\n" : "%s: ", rep_title(title, r->w, fmt));
	fprintf(f, "%zu plan%s that fit%s over %d GPU type%s, up to %d GPUs, %s prices%s\n\n", n,
		n == 1 ? "" : "s", n == 1 ? "s" : "", r->ngpus, r->ngpus == 1 ? "" : "s",
		r->max_gpus, cost_kind_names[r->kind], md ? "." : "");
	fputs(r->steady_state ? "Times and costs at steady state (--steady-state): no "
				"interruptions, restarts or checkpoints.\n\n"
			      : "Times and costs on the expected wall clock: interruptions, "
				"restarts, checkpoints and spare nodes included.\n\n", f);
	plan_legend(f, r->w);
	if (r->w->plan.memory_headroom_frac > 0)
		fprintf(f, "Every plan fits with %.3g %% of each GPU's memory kept free (--memory-headroom); "
			"\"free\" is what is left.\n\n", 100 * r->w->plan.memory_headroom_frac);
	if (r->cal->eff.measurements)
		fprintf(f, "Efficiencies calibrated from %s (%zu measurements on %s).\n\n",
			rep_show(esc, sizeof(esc), r->cal->eff.fitted_from, fmt), r->cal->eff.measurements,
			r->cal->eff.gpu);
	if (r->spot) {
		rep_spot_assumptions(f, r->spot->preempt_per_h, r->steady_state);
		if (r->spot_unfinished)
			fprintf(f, "%d plan%s left out: %s interruptions would lose work as fast as the "
				"run makes it.\n", r->spot_unfinished, r->spot_unfinished == 1 ? "" : "s",
				r->spot_unfinished == 1 ? "its" : "their");
		fputc('\n', f);
	}
	if (r->unc && r->risk == PLAN_RISK_P90)
		fprintf(f, "Ranked by P90 time and cost of %zu samples (seed %lu) of the %zu candidate "
			"plan%s.\n\n", r->unc->samples, r->unc->seed, r->nsampled,
			r->nsampled == 1 ? "" : "s");
	else if (r->unc)
		fprintf(f, "Ranked by the point estimate; P10/P50/P90 from %zu samples (seed %lu).\n\n",
			r->unc->samples, r->unc->seed);
}

/* What the plans idx[0..n-1] (the cheapest, then the fastest, meeting
 * both targets) leave of the budget and the time. */
static void print_headroom(FILE *f, const struct plan_report *r, const size_t *idx, size_t n)
{
	static const char *const who[] = { "The cheapest", "The fastest" };
	for (size_t k = 0; k < n; k++) {
		double t, c;
		char usd[32], dur[32];
		if (planner_ranked(&r->pts[idx[k]], r->risk, &t, &c))
			continue;
		fprintf(f, "%s leaves %s of the budget unspent (the budget is %.3g x its cost) and %s "
			"to spare before the deadline (%.0f %% of it used).\n",
			n == 2 ? who[k] : r->nboth == 1 ? "It" : "The cheapest, also the fastest,",
			rep_fmt_usd(r->budget_usd - c, usd, sizeof(usd)), c > 0 ? r->budget_usd / c : 0,
			tc_fmt_duration(r->deadline_s - t, dur, sizeof(dur)), 100 * t / r->deadline_s);
	}
}

/* The answer: what the targets ask, the plans that meet them and what
 * they leave, or how close the others come. */
static int print_answer(FILE *out, const char *fmt, const struct plan_report *r,
			const struct plan_cols *pc, size_t *idx)
{
	FILE *f = out;
	const char *at = r->risk == PLAN_RISK_P90 ? " at P90" : "";
	int both = r->deadline_s > 0 && r->budget_usd > 0, rc = 0;
	char dl[32], bu[32], miss[MISS_LEN], esc[TC_ESC_SIZE(MISS_LEN)];

	if (!(r->deadline_s > 0 || r->budget_usd > 0))
		return 0;
	target_words(r, dl, bu);
	if (both)
		fprintf(f, "Plans that finish within %s for at most %s%s: %zu%s\n", dl, bu, at, r->nboth,
			r->nboth > 1 ? "; the cheapest and the fastest of them:" : "");
	else if (r->deadline_s > 0)
		fprintf(f, "Cheapest plan that finishes within %s%s:\n", dl, at);
	else
		fprintf(f, "Fastest plan that costs at most %s%s:\n", bu, at);
	size_t n = chosen_points(r, 1, idx);
	if (n) {
		fputc('\n', f);
		rc = print_points(out, fmt, r, pc, idx, n);
	}
	if (n && both) {
		fputc('\n', f);
		print_headroom(f, r, idx, n);
	}
	closest_words(r, miss, sizeof(miss));
	if (miss[0])
		fprintf(f, "  none: %s\n", rep_show(esc, sizeof(esc), miss, fmt));
	fputc('\n', f);
	return rc;
}

/* The table view, or Markdown: the search, the answer, the front. */
static int print_text(FILE *out, const char *fmt, const struct plan_report *r,
		      const struct plan_cols *pc, size_t *idx)
{
	print_search(out, fmt, r);
	int rc = print_answer(out, fmt, r, pc, idx);
	if (r->risk == PLAN_RISK_P90)
		fprintf(out, "Pareto front of the candidates, P90 time against P90 cost:\n\n");
	else
		fprintf(out, "Pareto front, time against cost (no plan is both faster and cheaper; a "
			"faster plan is shown only if it saves more than %.0f %% of a cheaper one's "
			"time):\n\n", 100 * PLAN_PARETO_TOL);
	return rc | print_points(out, fmt, r, pc, idx, front_points(r, idx));
}

int rep_plan_report(FILE *out, const char *fmt, const struct plan_report *r)
{
	struct plan_cols pc;
	size_t *idx = malloc((r->npts ? r->npts : 1) * sizeof(*idx));
	int rc;

	if (!idx)
		return -1;
	pick_cols(&pc, r, fmt);
	if (!strcmp(fmt, "json"))
		rc = print_json(out, r, &pc, idx);
	else if (!strcmp(fmt, "csv"))
		rc = print_csv(out, r, &pc, idx);
	else
		rc = print_text(out, fmt, r, &pc, idx);
	free(idx);
	return rc;
}
