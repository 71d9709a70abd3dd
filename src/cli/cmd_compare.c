/*
 * cmd_compare.c - `traincost compare FILE`: the same training run on each
 * GPU type, with its best layout, time and dollars side by side.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../io/gpu_load.h"
#include "../io/wl_load.h"
#include "../model/search.h"
#include "../report/estimate_report.h"
#include "../report/json.h"
#include "../report/layout_text.h"
#include "../report/unc_json.h"
#include "../report/numfmt.h"
#include "../report/plot.h"
#include "../report/table.h"
#include "../util/units.h"
#include "cli.h"
#include "money.h"
#include "plan_args.h"
#include "opts.h"
#include "plot_out.h"
#include "unc_args.h"

#define COMPARE_MAX_GPUS 64

static const char *const formats[] = { "table", "csv", "json", "md", NULL };

/* One GPU type's outcome. */
struct row {
	struct gpu g;
	int ok;                 /* a plan fits */
	char why[256];          /* when not */
	struct workload w;      /* the chosen plan */
	struct estimate e;
	struct run_cost cost;
	int meets;              /* meets the deadline, when one is given */
	int unc_ok;             /* --uncertainty: unc holds its samples */
	struct unc_result unc;
	char unc_why[256];      /* --uncertainty: why not, when not */
};

/* The chart of --plot: the rows that have a plan, as the table shows them. */
static int write_plot(struct cli_ctx *ctx, const char *path, const struct workload *w,
		      const struct row *rows, int n)
{
	struct plot_compare_row *pr = calloc(n ? (size_t)n : 1, sizeof(*pr));
	struct svg s;
	size_t k = 0;
	if (!pr) {
		fputs("traincost compare: out of memory\n", ctx->err);
		return TC_EXIT_INTERNAL;
	}
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		if (!r->ok)
			continue;
		pr[k] = (struct plot_compare_row){
			.gpu = r->g.id, .count = r->e.plan.count, .total_s = r->e.total_time_s,
			.priced = r->cost.priced, .has_unc = r->unc_ok,
			.total_q = r->unc.total_s, .cost_q = r->unc.cost_usd,
		};
		if (r->cost.priced)
			pr[k].cost_usd = r->cost.range.cheapest.run.cost_usd;
		pr[k].priced = r->cost.priced && (!r->unc_ok || r->unc.has_cost);
		k++;
	}
	plot_compare(&s, 1, w->name[0] ? w->name : w->file, pr, k);
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
static int try_count(const struct workload *w, struct row *r, int count,
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

static void evaluate(const struct workload *w, struct row *r, int count, double deadline_s,
		     int max_count, const struct money *m, struct est_workspace *ws)
{
	r->ok = 0;
	if (deadline_s <= 0) {
		r->ok = try_count(w, r, count, ws) == 0;
	} else {
		int per_node = r->g.gpus_per_node > 0 ? r->g.gpus_per_node : 1;
		int best_seen = 0;
		struct row keep;
		for (int c = 1; c <= max_count; c = next_count(c, per_node)) {
			if (try_count(w, r, c, ws))
				continue;
			/* Remember the fastest plan in case no count meets the deadline. */
			if (!best_seen || r->e.total_time_s < keep.e.total_time_s) {
				keep = *r;
				best_seen = 1;
			}
			if (r->e.total_time_s <= deadline_s) {
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
}

/*
 * Monte Carlo of each row's chosen plan, priced on its cheapest offer; every
 * row draws from the same seed, so the GPU types meet the same luck.  A row
 * whose samples cannot be drawn keeps the reason in unc_why.
 */
static void sample_rows(struct row *rows, int n, const struct unc_spec *base,
			struct unc_workspace *uws)
{
	struct workload *pw = malloc(sizeof(*pw)); /* the row's run as priced */
	for (int i = 0; i < n; i++) {
		struct row *r = &rows[i];
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
	const struct row *x = a, *y = b;
	if (x->ok != y->ok)
		return y->ok - x->ok;
	if (x->meets != y->meets)
		return y->meets - x->meets;
	if (x->ok && x->cost.priced != y->cost.priced)
		return y->cost.priced - x->cost.priced;
	double cx = x->cost.priced ? x->cost.range.cheapest.run.cost_usd : x->e.total_time_s;
	double cy = y->cost.priced ? y->cost.range.cheapest.run.cost_usd : y->e.total_time_s;
	return (cx > cy) - (cx < cy);
}

/* The CSV columns --uncertainty adds after "note". */
#define UNC_CSV_COLS 8
static const char *const unc_csv_head[UNC_CSV_COLS] = { "total_time_p10_s",
	"total_time_p50_s", "total_time_p90_s", "cost_p10_usd", "cost_p50_usd",
	"cost_p90_usd", "p_deadline", "uncertainty_error" };

/* Row r's uncertainty columns of the CSV into c[0..UNC_CSV_COLS-2]. */
static void unc_csv_cells(const struct row *r, double deadline_s, char c[][256])
{
	const struct unc_result *u = &r->unc;
	if (!r->unc_ok)
		return; /* the caller points uncertainty_error at r->unc_why */
	snprintf(c[0], 256, "%.6g", u->total_s.p10);
	snprintf(c[1], 256, "%.6g", u->total_s.p50);
	snprintf(c[2], 256, "%.6g", u->total_s.p90);
	if (u->has_cost) {
		snprintf(c[3], 256, "%.2f", u->cost_usd.p10);
		snprintf(c[4], 256, "%.2f", u->cost_usd.p50);
		snprintf(c[5], 256, "%.2f", u->cost_usd.p90);
	}
	if (deadline_s > 0 && u->has_deadline)
		snprintf(c[6], 256, "%.4g", u->p_deadline);
}

/* Why row r has no price, or misses its target, in words ("" when
 * nothing is to be said), into buf. */
static const char *row_note(const struct row *r, double deadline_s, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!r->ok)
		snprintf(buf, size, "%s", r->why);
	else if (!r->e.fits)
		snprintf(buf, size, "does not fit");
	else if (deadline_s > 0 && !r->meets)
		snprintf(buf, size, "misses the deadline");
	else if (!r->cost.priced && r->cost.range.largest.offer) {
		double most = cost_offer_capacity(r->cost.range.largest.offer);
		snprintf(buf, size, "one order holds at most %.4g GPU%s", most, most == 1 ? "" : "s");
	} else if (r->cost.spot_applied && cost_spot_loss_per_h(&r->cost.in.spot) >= 1) {
		snprintf(buf, size, "spot cannot finish: restarts lose work as fast as it is made");
	} else if (r->cost.priced) {
		/* The cost is the offer's run, over its own network. */
		const struct cost_choice *ch = &r->cost.range.cheapest;
		char dur[48], total[48];
		tc_fmt_duration(r->cost.priced_base_s, dur, sizeof(dur));
		tc_fmt_duration(r->e.total_time_s, total, sizeof(total));
		if (ch->network && strcmp(ch->network, r->w.plan.network))
			snprintf(buf, size, "cost timed over %s, the offer's network%s%s",
				 ch->network, strcmp(dur, total) ? ": " : "",
				 strcmp(dur, total) ? dur : "");
	}
	return buf;
}

static int print_table(struct cli_ctx *ctx, const char *fmt, struct row *rows, int n,
		       double deadline_s)
{
	static const char *const head[] = { "GPU", "count", "layout", "step", "total time",
		"GPU-hours", "cheapest offer", "cost", "cost range", "energy", "note" };
	static const enum rep_align al[] = { REP_LEFT, REP_RIGHT, REP_LEFT, REP_RIGHT,
		REP_RIGHT, REP_RIGHT, REP_LEFT, REP_RIGHT, REP_RIGHT, REP_RIGHT, REP_LEFT };
	struct rep_table t;
	rep_table_init(&t, 11, head, al);
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		char c[11][256];
		const char *cells[11];
		for (int k = 0; k < 11; k++) {
			c[k][0] = '\0';
			cells[k] = c[k];
		}
		snprintf(c[0], sizeof(c[0]), "%s", r->g.id);
		row_note(r, deadline_s, c[10], sizeof(c[10]));
		if (!r->ok) {
			rep_table_row(&t, cells);
			continue;
		}
		snprintf(c[1], sizeof(c[1]), "%d", r->e.plan.count);
		rep_layout_text(c[2], sizeof(c[2]), &r->w, &r->e);
		tc_fmt_duration(r->e.step_time_s, c[3], sizeof(c[3]));
		tc_fmt_duration(r->e.total_time_s, c[4], sizeof(c[4]));
		rep_fmt_count(r->e.gpu_hours, c[5], sizeof(c[5]));
		rep_fmt_count(r->cost.energy_kwh, c[9], sizeof(c[9]) - 4);
		strcat(c[9], " kWh");
		if (r->cost.priced) {
			const struct cost_choice *ch = &r->cost.range.cheapest;
			char usd[48];
			snprintf(c[6], sizeof(c[6]), "%s %s", ch->table->provider, ch->offer->instance);
			rep_fmt_usd(ch->run.cost_usd, c[7], sizeof(c[7]));
			snprintf(c[8], sizeof(c[8]), "up to %s",
				 rep_fmt_usd(r->cost.range.dearest.run.cost_usd, usd, sizeof(usd)));
		} else {
			snprintf(c[6], sizeof(c[6]), "no %s offer", cost_kind_names[r->cost.kind]);
		}
		rep_table_row(&t, cells);
	}
	int rc = rep_table_print(&t, ctx->out, fmt);
	rep_table_release(&t);
	return rc;
}

/* The CSV: the JSON's fields of each row, one column each (--uncertainty
 * adds its columns at the end): the GPU, its layout, then these. */
#define CSV_COLS (1 + REP_LAYOUT_FIELDS + 13)
static int print_csv(struct cli_ctx *ctx, struct row *rows, int n, double deadline_s, int with_unc)
{
	static const char *const result_head[] = { "step_time_s", "total_time_s", "gpu_hours",
		"mfu_frac", "memory_per_gpu_bytes", "fits", "pricing", "provider", "instance",
		"region", "cost_usd", "cost_max_usd", "energy_kwh" };
	const char *hd[CSV_COLS + 1 + UNC_CSV_COLS];
	enum rep_align al[CSV_COLS + 1 + UNC_CSV_COLS] = { REP_LEFT };
	int ncols = CSV_COLS + 1 + (with_unc ? UNC_CSV_COLS : 0);
	hd[0] = "gpu";
	memcpy(hd + 1, rep_layout_field_names, sizeof(rep_layout_field_names));
	memcpy(hd + 1 + REP_LAYOUT_FIELDS, result_head, sizeof(result_head));
	hd[CSV_COLS] = "reason";
	memcpy(hd + CSV_COLS + 1, unc_csv_head, sizeof(unc_csv_head));
	struct rep_table t;
	rep_table_init(&t, ncols, hd, al);
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		char c[CSV_COLS + 1 + UNC_CSV_COLS][256];
		const char *cells[CSV_COLS + 1 + UNC_CSV_COLS];
		for (int k = 0; k < ncols; k++) {
			c[k][0] = '\0';
			cells[k] = c[k];
		}
		snprintf(c[0], sizeof(c[0]), "%s", r->g.id);
		row_note(r, deadline_s, c[CSV_COLS], sizeof(c[CSV_COLS]));
		if (with_unc) {
			unc_csv_cells(r, deadline_s, c + CSV_COLS + 1);
			if (r->ok && !r->unc_ok)
				cells[ncols - 1] = r->unc_why;
		}
		if (r->ok) {
			char lay[REP_LAYOUT_FIELDS][REP_LAYOUT_CELL];
			char (*res)[256] = c + 1 + REP_LAYOUT_FIELDS;
			rep_layout_cells(lay, &r->e.plan, r->w.train.recompute);
			for (int k = 0; k < REP_LAYOUT_FIELDS; k++)
				snprintf(c[1 + k], sizeof(c[0]), "%s", lay[k]);
			snprintf(res[0], sizeof(res[0]), "%.6g", r->e.step_time_s);
			snprintf(res[1], sizeof(res[1]), "%.6g", r->e.total_time_s);
			snprintf(res[2], sizeof(res[2]), "%.6g", r->e.gpu_hours);
			snprintf(res[3], sizeof(res[3]), "%.4f", r->e.mfu_frac);
			snprintf(res[4], sizeof(res[4]), "%.6g", r->e.memory_per_gpu_bytes);
			snprintf(res[5], sizeof(res[5]), "%s", r->e.fits ? "true" : "false");
			snprintf(res[6], sizeof(res[6]), "%s", cost_kind_names[r->cost.kind]);
			if (r->cost.priced) {
				const struct cost_choice *ch = &r->cost.range.cheapest;
				snprintf(res[7], sizeof(res[7]), "%s", ch->table->provider);
				snprintf(res[8], sizeof(res[8]), "%s", ch->offer->instance);
				snprintf(res[9], sizeof(res[9]), "%s", ch->offer->region);
				snprintf(res[10], sizeof(res[10]), "%.2f", ch->run.cost_usd);
				snprintf(res[11], sizeof(res[11]), "%.2f", r->cost.range.dearest.run.cost_usd);
			}
			snprintf(res[12], sizeof(res[12]), "%.6g", r->cost.energy_kwh);
		}
		rep_table_row(&t, cells);
	}
	int rc = rep_table_print(&t, ctx->out, "csv");
	rep_table_release(&t);
	return rc;
}

/* The uncertainty table of table and md output: P10, P50 and P90 of total
 * time and cost, and with a deadline the chance of meeting it. */
static int print_unc_table(struct cli_ctx *ctx, const char *fmt, const struct row *rows, int n,
			   const struct unc_spec *s, double deadline_s)
{
	static const char *const head[] = { "GPU", "time P10", "time P50", "time P90",
		"cost P10", "cost P50", "cost P90", "note", "P(deadline)", "note" };
	static const enum rep_align al[] = { REP_LEFT, REP_RIGHT, REP_RIGHT, REP_RIGHT,
		REP_RIGHT, REP_RIGHT, REP_RIGHT, REP_LEFT, REP_RIGHT, REP_LEFT };
	/* Columns 0-6, then "note" (7) alone, or "P(deadline)" and "note" (8, 9). */
	int dl = deadline_s > 0, ncols = dl ? 9 : 8;
	const char *hd[9];
	enum rep_align a[9];
	for (int k = 0; k < ncols; k++) {
		int from = k < 7 ? k : dl ? k + 1 : 7;
		hd[k] = head[from];
		a[k] = al[from];
	}
	struct rep_table t;
	rep_table_init(&t, ncols, hd, a);
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		const struct unc_result *u = &r->unc;
		char c[9][96];
		const char *cells[9];
		if (!r->ok)
			continue;
		for (int k = 0; k < 9; k++) {
			c[k][0] = '\0';
			cells[k] = c[k];
		}
		snprintf(c[0], sizeof(c[0]), "%s", r->g.id);
		if (!r->unc_ok) {
			snprintf(c[ncols - 1], sizeof(c[0]), "%.80s", r->unc_why);
			rep_table_row(&t, cells);
			continue;
		}
		tc_fmt_duration(u->total_s.p10, c[1], sizeof(c[1]));
		tc_fmt_duration(u->total_s.p50, c[2], sizeof(c[2]));
		tc_fmt_duration(u->total_s.p90, c[3], sizeof(c[3]));
		if (u->has_cost) {
			rep_fmt_usd(u->cost_usd.p10, c[4], sizeof(c[4]));
			rep_fmt_usd(u->cost_usd.p50, c[5], sizeof(c[5]));
			rep_fmt_usd(u->cost_usd.p90, c[6], sizeof(c[6]));
		} else {
			snprintf(c[ncols - 1], sizeof(c[0]), "no %s offer", cost_kind_names[r->cost.kind]);
		}
		if (dl && u->has_deadline)
			snprintf(c[7], sizeof(c[7]), "%.0f %%", 100 * u->p_deadline);
		rep_table_row(&t, cells);
	}
	fprintf(ctx->out, "\nUncertainty (%zu samples, seed %lu): total time and cost on the cheapest offer\n\n",
		s->samples, s->seed);
	int rc = rep_table_print(&t, ctx->out, fmt);
	rep_table_release(&t);
	return rc;
}

/* "l40s: 31% cheaper, 1.83x slower than a100-80gb-sxm", in words. */
static void trade_off(struct cli_ctx *ctx, const struct row *rows, int n)
{
	const struct row *cheap = NULL, *fast = NULL;
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		if (!r->ok || !r->cost.priced)
			continue;
		if (!cheap || r->cost.range.cheapest.run.cost_usd < cheap->cost.range.cheapest.run.cost_usd)
			cheap = r;
		if (!fast || r->e.total_time_s < fast->e.total_time_s)
			fast = r;
	}
	if (!cheap)
		return;
	if (cheap == fast) {
		fprintf(ctx->out, "\n%s is both the cheapest and the fastest.\n", cheap->g.id);
		return;
	}
	double saving = 1 - cheap->cost.range.cheapest.run.cost_usd /
			    fast->cost.range.cheapest.run.cost_usd;
	double slower = cheap->e.total_time_s / fast->e.total_time_s;
	fprintf(ctx->out, "\n%s: %.0f%% cheaper, %.3gx slower than %s.\n", cheap->g.id,
		100 * saving, slower, fast->g.id);
}

static int print_json(struct cli_ctx *ctx, const struct workload *w, const char *pricing,
		      const struct row *rows, int n, double deadline_s, const struct unc_spec *unc)
{
	struct rep_json j;
	char note[256];
	rep_json_doc_begin(&j, ctx->out, "compare");
	rep_json_str(&j, "workload", w->name);
	rep_json_str(&j, "file", w->file);
	rep_json_str(&j, "kind", rep_kind_name(w));
	rep_json_str(&j, "pricing", pricing);
	if (deadline_s > 0)
		rep_json_num(&j, "deadline_s", deadline_s);
	if (unc) {
		rep_json_int(&j, "samples", (long long)unc->samples);
		rep_json_int(&j, "seed", (long long)unc->seed);
	}
	rep_json_arr_begin(&j, "gpus");
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		rep_json_obj_begin(&j, NULL);
		rep_json_str(&j, "gpu", r->g.id);
		rep_json_bool(&j, "ok", r->ok);
		row_note(r, deadline_s, note, sizeof(note));
		if (note[0])
			rep_json_str(&j, "reason", note);
		else
			rep_json_null(&j, "reason");
		if (!r->ok) {
			rep_json_obj_end(&j);
			continue;
		}
		rep_layout_json(&j, &r->e.plan, r->w.train.recompute);
		rep_json_num(&j, "step_time_s", r->e.step_time_s);
		rep_json_num(&j, "total_time_s", r->e.total_time_s);
		rep_json_num(&j, "gpu_hours", r->e.gpu_hours);
		rep_json_num(&j, "mfu_frac", r->e.mfu_frac);
		rep_json_num(&j, "memory_per_gpu_bytes", r->e.memory_per_gpu_bytes);
		rep_json_bool(&j, "fits", r->e.fits);
		if (deadline_s > 0)
			rep_json_bool(&j, "meets_deadline", r->meets);
		rep_json_bool(&j, "priced", r->cost.priced);
		if (r->cost.priced) {
			const struct cost_choice *ch = &r->cost.range.cheapest;
			rep_json_str(&j, "provider", ch->table->provider);
			rep_json_str(&j, "instance", ch->offer->instance);
			rep_json_str(&j, "region", ch->offer->region);
			rep_json_num(&j, "cost_usd", ch->run.cost_usd);
			rep_json_num(&j, "cost_max_usd", r->cost.range.dearest.run.cost_usd);
			rep_json_num(&j, "cost_run_s", ch->run_s);
			const char *net = rep_choice_network(ch, &r->w.plan);
			if (net)
				rep_json_str(&j, "cost_network", net);
			else
				rep_json_null(&j, "cost_network");
		}
		rep_json_num(&j, "energy_kwh", r->cost.energy_kwh);
		if (unc && r->unc_ok)
			rep_unc_json(&j, "uncertainty", &r->unc);
		else if (unc)
			rep_json_str(&j, "uncertainty_error", r->unc_why);
		rep_json_arr_begin(&j, "warnings");
		for (int k = 0; k < r->e.warning_count; k++)
			rep_json_str(&j, NULL, r->e.warning[k]);
		rep_json_arr_end(&j);
		rep_json_obj_end(&j);
	}
	rep_json_arr_end(&j);
	rep_json_obj_end(&j);
	return rep_json_finish(&j);
}

int cmd_compare(int argc, char **argv, struct cli_ctx *ctx)
{
	const char *gpus = NULL, *count_s = NULL, *deadline = NULL, *max_s = NULL,
		   *format = "table", *calibration = NULL, *plot = NULL,
		   *network = NULL;
	struct money_args ma = { 0 };
	struct unc_args ua = { 0 };
	struct cli_opt opts[8 + MONEY_NOPTS + UNC_ARGS_NOPTS + 1] = {
		{ "gpus", &gpus, NULL, NULL },
		{ "count", &count_s, NULL, NULL },
		{ "deadline", &deadline, NULL, NULL },
		{ "max-gpus", &max_s, NULL, NULL },
		{ "format", &format, NULL, formats },
		{ "calibration", &calibration, NULL, NULL },
		{ "network", &network, NULL, net_names },
		{ "plot", &plot, NULL, NULL },
	};
	char *pos[CLI_MAX_POS];
	int npos, rc;
	money_opts(&ma, opts + 8);
	unc_args_opts(&ua, opts + 8 + MONEY_NOPTS);
	if ((rc = cli_parse(ctx, "compare", argc, argv, opts, pos, &npos)))
		return rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;
	if ((rc = plot_out_check(ctx, "compare", plot)))
		return rc;
	if (npos != 1)
		return cli_usage_error(ctx, "compare", "%s", npos ? "too many files (expected one workload file)"
								  : "no workload file given (expected FILE)");
	if (count_s && deadline)
		return cli_usage_error(ctx, "compare", "--count and --deadline exclude each other (expected one of them)");
	int count = 0, max_count = CLI_DEFAULT_MAX_GPUS;
	double deadline_s = 0;
	const char *why;
	if (count_s && cli_int_arg(ctx, "compare", "count", count_s, 1, 1000000, &count))
		return TC_EXIT_USAGE;
	if (max_s && cli_int_arg(ctx, "compare", "max-gpus", max_s, 1, 1000000, &max_count))
		return TC_EXIT_USAGE;
	if (deadline && (tc_parse_quantity(deadline, TC_UNIT_SECONDS, &deadline_s, &why) ||
			 deadline_s <= 0))
		return cli_usage_error(ctx, "compare", "--deadline '%s' is not valid (expected a duration such as 14d)",
				       deadline);
	struct money m;
	if ((rc = money_parse(ctx, "compare", &ma, &m)))
		return rc;

	struct tc_diag d;
	struct workload w;
	struct gpu_catalog cat = { 0 };
	struct est_workspace ws = { 0 };
	struct row *rows = NULL;
	struct unc_spec us;
	struct unc_workspace uws = { 0 };
	char *idbuf = NULL;
	int n = 0;
	tc_diag_init(&d);
	struct cal_overlay cal;
	if (wl_load_file(pos[0], &ctx->data, &w, &d)) {
		rc = cli_report(ctx, &d);
		goto out;
	}
	if (network)
		wl_set_network(&w.plan, net_find(network)); /* a choice of net_names */
	if ((rc = cli_load_catalog(ctx, calibration, &cat, &cal)))
		goto out;
	if (ua.on && (rc = unc_args_spec(ctx, "compare", &ua, &cal, &us)))
		goto out;
	us.deadline_s = deadline_s;
	if (ua.on && (rc = unc_args_workspace(ctx, "compare", &us, &uws)))
		goto out;
	if ((rc = money_load(ctx, "compare", &ma, &m)))
		goto out;
	m.network_fixed = network != NULL;
	rows = calloc(cat.count + COMPARE_MAX_GPUS, sizeof(*rows));
	if (!rows || est_workspace_init(&ws, 256)) {
		fputs("traincost compare: out of memory\n", ctx->err);
		rc = TC_EXIT_INTERNAL;
		goto out;
	}
	if (gpus) {
		char *ids[COMPARE_MAX_GPUS];
		idbuf = strdup(gpus);
		int k = idbuf ? split_ids(ctx, idbuf, ids, COMPARE_MAX_GPUS) : -1;
		if (k < 0) {
			rc = idbuf ? TC_EXIT_USAGE : TC_EXIT_INTERNAL;
			goto out;
		}
		for (int i = 0; i < k; i++) {
			char msg[1024];
			if (gpu_catalog_lookup(&cat, ids[i], &rows[n].g, msg, sizeof(msg))) {
				fprintf(ctx->err, "traincost compare: --gpus: %s\n", msg);
				rc = TC_EXIT_INPUT;
				goto out;
			}
			n++;
		}
	} else {
		for (size_t i = 0; i < cat.count; i++)
			rows[n++].g = cat.gpus[i];
	}
	if (!count && !deadline_s)
		count = w.plan.count;
	for (int i = 0; i < n; i++)
		evaluate(&w, &rows[i], count, deadline_s, max_count, &m, &ws);
	/* Without --gpus, show only the GPUs the workload fits on. */
	if (!gpus) {
		int kept = 0;
		for (int i = 0; i < n; i++)
			if (rows[i].ok)
				rows[kept++] = rows[i];
		n = kept;
	}
	if (ua.on)
		sample_rows(rows, n, &us, &uws);
	qsort(rows, (size_t)n, sizeof(*rows), cmp_rows);
	if (plot && (rc = write_plot(ctx, plot, &w, rows, n)))
		goto out;
	if (!strcmp(format, "json")) {
		rc = print_json(ctx, &w, cost_kind_names[m.in.kind], rows, n, deadline_s,
				ua.on ? &us : NULL);
	} else if (!strcmp(format, "csv")) {
		rc = print_csv(ctx, rows, n, deadline_s, ua.on);
	} else {
		{
			char dur[48], how[96], title[REP_TITLE_LEN];
			if (deadline_s > 0)
				snprintf(how, sizeof(how), "the fewest GPUs that finish within %s",
					 tc_fmt_duration(deadline_s, dur, sizeof(dur)));
			else
				snprintf(how, sizeof(how), "at %d GPUs", count);
			fprintf(ctx->out, "%s: each GPU type with its fastest plan that fits, %s, %s prices\n\n",
				rep_title(title, &w, format), how, cost_kind_names[m.in.kind]);
			if (cal.measurements)
				fprintf(ctx->out, "Efficiencies calibrated from %s (%zu measurements on %s).\n\n",
					cal.fitted_from, cal.measurements, cal.gpu);
		}
		rc = print_table(ctx, format, rows, n, deadline_s);
		if (!rc && ua.on)
			rc = print_unc_table(ctx, format, rows, n, &us, deadline_s);
		if (!rc)
			trade_off(ctx, rows, n);
		if (!rc && strcmp(format, "csv") && m.in.kind == COST_SPOT) {
			fputc('\n', ctx->out);
			rep_spot_assumptions(ctx->out, &m.in.spot, "costs");
		}
	}
	if (rc) {
		fputs("traincost compare: internal error: a non-finite value in the report\n", ctx->err);
		rc = TC_EXIT_INTERNAL;
	}
out:
	free(idbuf);
	free(rows);
	unc_workspace_release(&uws);
	est_workspace_release(&ws);
	money_release(&m);
	gpu_catalog_release(&cat);
	return rc;
}
