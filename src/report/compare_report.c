/*
 * compare_report.c - `traincost compare`'s tables, each described once,
 * as columns, and written as a table, Markdown, CSV or JSON from that
 * description (compare_report.h).
 */
#include "compare_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/units.h"
#include "estimate_report.h"
#include "json.h"
#include "layout_text.h"
#include "offer_words.h"
#include "out_fields.h"
#include "rows.h"
#include "unc_json.h"

/*
 * The columns of compare, each described once for every format, in the
 * order of JSON's fields: one row per GPU type.  The table names the
 * layout and the offer in words and gives the reason last, as "note";
 * CSV gives the kind of price on every row and the reason last.  A GPU
 * type without a plan has only gpu, ok and reason in JSON and missing
 * cells elsewhere.  With --uncertainty the columns from U_GPU on follow:
 * a table of their own after the first in the table and Markdown, more
 * columns of the same rows in CSV; JSON gives the quantiles as an object
 * of each row (rep_unc_json) and of these columns only the error.
 */
enum { C_GPU, C_OK, C_REASON, C_LAYOUT, C_FREE = C_LAYOUT + REP_LAYOUT_NCOLS, C_STEP, C_TOTAL,
       C_WALL, C_GPU_HOURS, C_MFU, C_MEMORY, C_FITS, C_BASIS, C_MEETS, C_PRICED, C_PRICING, C_OFFER, C_PROVIDER,
       C_INSTANCE, C_REGION, C_COST, C_COST_MAX, C_BASIS_TIME, C_COST_NETWORK, C_ENERGY, C_NOTE,
       MAIN_COLS,
       U_GPU = MAIN_COLS, U_TIME_P10, U_TIME_P50, U_TIME_P90, U_COST_P10, U_COST_P50, U_COST_P90,
       U_P_DEADLINE, U_ERROR, U_NOTE, ALL_COLS };
#define UNC_COLS (ALL_COLS - U_GPU)
_Static_assert(ALL_COLS <= REP_TABLE_MAX_COLS, "compare's CSV is one table");
/* A field of a row with a plan, from the catalog (out_fields.h): left
 * out of JSON for a row without one. */
#define PLAN_FIELD(name, view) REP_FIELD_COL(name, view, 1)
/* A quantile of the uncertainty: a table's column of its own, shown as
 * the field it samples is (the field's kind and CSV format). */
#define QUANTILE_COL(name, title, kind, decimals, csv) \
	{ name, title, kind, 0, decimals, NULL, NULL, NULL, csv, REP_VIEW_FLAT, 1 }
#define TIME_Q(name, title) QUANTILE_COL(name, title, REP_COL_DURATION, 0, REP_CSV_SIG6)
#define USD_Q(name, title) QUANTILE_COL(name, title, REP_COL_USD, 2, REP_CSV_DECIMALS)
#define BOOL_COL(name, view) { name, name, REP_COL_BOOL, 0, 0, NULL, NULL, NULL, 0, view, 1 }
static const struct rep_col compare_spec[ALL_COLS] = {
	[C_GPU] = REP_FIELD_COL("gpu", REP_VIEW_ALL, 0),
	[C_OK] = { "ok", "ok", REP_COL_BOOL, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_JSON, 0 },
	[C_REASON] = REP_TEXT_COL("reason", "note", REP_VIEW_JSON, 0),
	[C_LAYOUT] = REP_LAYOUT_COLS,
	/* The layout's memory margin (memory_usable_bytes - memory_per_gpu_bytes
	 * in CSV and JSON terms), in words for people. */
	[C_FREE] = REP_TEXT_COL("memory_free", "free", REP_VIEW_TEXT, 0),
	[C_STEP] = PLAN_FIELD("step_time_s", REP_VIEW_ALL),
	[C_TOTAL] = PLAN_FIELD("total_time_s", REP_VIEW_ALL),
	/* the expected wall clock (docs/model.md, section 9); null where spot
	 * preemptions leave no time to train */
	[C_WALL] = PLAN_FIELD("wall_time_s", REP_VIEW_ALL),
	[C_GPU_HOURS] = PLAN_FIELD("gpu_hours", REP_VIEW_ALL),
	[C_MFU] = PLAN_FIELD("mfu_frac", REP_VIEW_DATA),
	[C_MEMORY] = PLAN_FIELD("memory_per_gpu_bytes", REP_VIEW_DATA),
	[C_FITS] = PLAN_FIELD("fits", REP_VIEW_DATA),
	/* what the deadline and the cost are judged on (rep_basis_name) */
	[C_BASIS] = REP_TEXT_COL("basis", "basis", REP_VIEW_DATA, 1),
	[C_MEETS] = BOOL_COL("meets_deadline", REP_VIEW_JSON),
	[C_PRICED] = BOOL_COL("priced", REP_VIEW_JSON),
	[C_PRICING] = PLAN_FIELD("pricing", REP_VIEW_CSV),
	[C_OFFER] = REP_TEXT_COL("offer", "cheapest offer", REP_VIEW_TEXT, 1),
	[C_PROVIDER] = PLAN_FIELD("provider", REP_VIEW_DATA),
	[C_INSTANCE] = PLAN_FIELD("instance", REP_VIEW_DATA),
	[C_REGION] = PLAN_FIELD("region", REP_VIEW_DATA),
	[C_COST] = PLAN_FIELD("cost_usd", REP_VIEW_ALL),
	[C_COST_MAX] = PLAN_FIELD("cost_max_usd", REP_VIEW_ALL),
	[C_BASIS_TIME] = PLAN_FIELD("basis_time_s", REP_VIEW_JSON),
	/* null where no network plays a part; left out where no offer does */
	[C_COST_NETWORK] = REP_TEXT_COL("cost_network", "network", REP_VIEW_JSON, 0),
	[C_ENERGY] = PLAN_FIELD("energy_kwh", REP_VIEW_ALL),
	[C_NOTE] = REP_TEXT_COL("reason", "note", REP_VIEW_FLAT, 0),
	[U_GPU] = REP_FIELD_COL("gpu", REP_VIEW_TEXT, 0),
	[U_TIME_P10] = TIME_Q("basis_time_p10_s", "time P10"),
	[U_TIME_P50] = TIME_Q("basis_time_p50_s", "time P50"),
	[U_TIME_P90] = TIME_Q("basis_time_p90_s", "time P90"),
	[U_COST_P10] = USD_Q("cost_p10_usd", "cost P10"),
	[U_COST_P50] = USD_Q("cost_p50_usd", "cost P50"),
	[U_COST_P90] = USD_Q("cost_p90_usd", "cost P90"),
	[U_P_DEADLINE] = { "p_deadline", "P(deadline)", REP_COL_NUM, 100, 0, " %", NULL, NULL,
			   REP_CSV_SIG4, REP_VIEW_FLAT, 0 },
	[U_ERROR] = REP_TEXT_COL("uncertainty_error", "uncertainty error", REP_VIEW_DATA, 1),
	[U_NOTE] = REP_TEXT_COL("note", "note", REP_VIEW_TEXT, 0),
};
#undef BOOL_COL
#undef USD_Q
#undef TIME_Q
#undef QUANTILE_COL
#undef PLAN_FIELD

int rep_compare_cols(struct rep_col *cols)
{
	return rep_fields_copy(cols, compare_spec, ALL_COLS);
}

/* The texts a row's cells point to. */
struct row_text {
	char note[256];
	char layout[REP_LAYOUT_TEXT_LEN];
	char free[48];
	char offer[256];
	char unc_note[64];
};

/* Why row r has no price, or misses its target, in words ("" when
 * nothing is to be said), into buf. */
static const char *row_note(const struct rep_compare_row *r, double deadline_s, char *buf,
			    size_t size)
{
	buf[0] = '\0';
	if (!r->ok)
		snprintf(buf, size, "%s", r->why);
	else if (!r->e.fits)
		snprintf(buf, size, "does not fit");
	else if (deadline_s > 0 && !r->meets)
		snprintf(buf, size, "misses the deadline");
	else if (!r->cost.priced && r->cost.aside_priced) {
		const struct cost_choice *ch = &r->cost.aside.cheapest;
		snprintf(buf, size, "only an unverified price hosts it: %s %s (--include-unverified)",
			 ch->table->provider, ch->offer->instance);
	} else if (!r->cost.priced && r->cost.range.largest.offer) {
		double most = cost_offer_capacity(r->cost.range.largest.offer);
		snprintf(buf, size, "one order holds at most %.4g GPU%s", most, most == 1 ? "" : "s");
	} else if (r->cost.campaign_hopeless && !isfinite(r->judged_s)) {
		snprintf(buf, size, "spot cannot finish: preemptions lose work as fast as it is made");
	} else if (r->cost.priced) {
		/* Paid-for GPUs the plan leaves idle, and what the offer's
		 * order is not known to give. */
		const struct cost_choice *ch = &r->cost.range.cheapest;
		const char *caveat = rep_offer_caveat(ch);
		size_t n = 0;
		if (ch->run.idle_gpus > 0)
			n = (size_t)snprintf(buf, size, "%.4g idle GPU%s paid for (%.4g-GPU instances)",
					     ch->run.idle_gpus, ch->run.idle_gpus == 1 ? "" : "s",
					     ch->offer->gpus);
		if (caveat && n < size)
			snprintf(buf + n, size - n, "%s%.0f instances: %s", n ? "; " : "",
				 ch->run.instances, caveat);
	}
	return buf;
}

/* The cells of row r's offer and price, from C_PRICED to C_ENERGY: the
 * cheapest offer and the dearest one's cost, or no offer. */
static void cost_cells(struct rep_cell *c, struct row_text *t, const struct rep_compare_row *r)
{
	const struct cost_choice *ch = &r->cost.range.cheapest;
	const char *kind = cost_kind_names[r->cost.kind];
	c[C_PRICED] = (struct rep_cell){ .num = r->cost.priced };
	c[C_PRICING] = (struct rep_cell){ .text = kind };
	c[C_ENERGY] = (struct rep_cell){ .num = r->cost.energy_kwh };
	if (!r->cost.priced) {
		snprintf(t->offer, sizeof(t->offer), "no %s offer", kind);
		c[C_OFFER] = (struct rep_cell){ .text = t->offer };
		return;
	}
	const char *net = rep_choice_network(ch, &r->w.plan);
	/* The network the run was timed and priced over, when one plays a part. */
	snprintf(t->offer, sizeof(t->offer), "%s %s%s%s", ch->table->provider, ch->offer->instance,
		 ch->network ? " over " : "", ch->network ? ch->network : "");
	c[C_OFFER] = (struct rep_cell){ .text = t->offer };
	c[C_PROVIDER] = (struct rep_cell){ .text = ch->table->provider };
	c[C_INSTANCE] = (struct rep_cell){ .text = ch->offer->instance };
	c[C_REGION] = (struct rep_cell){ .text = ch->offer->region };
	/* billed as judged: on the wall clock (spare nodes included) unless
	 * --steady-state; the dearest offer scaled by the same ratio to its
	 * steady bill (the same stretch and spare share; its billing rounding
	 * is the steady one's) */
	int judged = isfinite(r->judged_usd);
	double dearest = r->cost.range.dearest.run.cost_usd;
	if (judged && ch->run.cost_usd > 0)
		dearest *= r->judged_usd / ch->run.cost_usd;
	c[C_COST] = (struct rep_cell){ .num = r->judged_usd, .missing = !judged };
	c[C_COST_MAX] = (struct rep_cell){ .num = dearest, .missing = !judged };
	c[C_BASIS_TIME] = (struct rep_cell){ .num = r->judged_s, .missing = !isfinite(r->judged_s) };
	c[C_COST_NETWORK] = (struct rep_cell){ .text = net, .missing = !net };
}

/* The P10, P50 and P90 of q as three cells from c on, missing when
 * `none`. */
static void quantile_cells(struct rep_cell *c, const struct unc_quantiles *q, int none)
{
	c[0] = (struct rep_cell){ .num = q->p10, .missing = none };
	c[1] = (struct rep_cell){ .num = q->p50, .missing = none };
	c[2] = (struct rep_cell){ .num = q->p90, .missing = none };
}

/* The cells of row r's uncertainty, from U_TIME_P10 on: its quantiles,
 * or why it has none. */
static void unc_cells(struct rep_cell *c, struct row_text *t, const struct rep_compare_row *r,
		      double deadline_s, int steady)
{
	const struct unc_result *u = &r->unc;
	c[U_ERROR] = (struct rep_cell){ .text = r->unc_why, .missing = r->unc_ok };
	c[U_NOTE] = (struct rep_cell){ .text = r->unc_why };
	if (!r->unc_ok)
		return;
	/* judged as the main table: the wall clock drawn unless --steady-state */
	int wall = !steady && u->has_wall;
	quantile_cells(c + U_TIME_P10, wall ? &u->wall_s : &u->total_s, 0);
	quantile_cells(c + U_COST_P10, wall ? &u->wall_usd : &u->cost_usd, !u->has_cost);
	c[U_P_DEADLINE] = (struct rep_cell){ .num = wall ? u->p_deadline_wall : u->p_deadline,
					     .missing = !(deadline_s > 0 && u->has_deadline) };
	t->unc_note[0] = '\0';
	if (!u->has_cost)
		snprintf(t->unc_note, sizeof(t->unc_note), "no %s offer", cost_kind_names[r->cost.kind]);
	c[U_NOTE] = (struct rep_cell){ .text = t->unc_note };
}

/* Row r's cells of every column (ALL_COLS of them), their texts in t. */
static void row_cells(struct rep_cell *c, struct row_text *t, const struct rep_compare_row *r,
		      double deadline_s, int steady)
{
	for (int k = 0; k < ALL_COLS; k++)
		c[k] = (struct rep_cell){ .missing = 1 };
	row_note(r, deadline_s, t->note, sizeof(t->note));
	c[C_GPU] = (struct rep_cell){ .text = r->g.id };
	c[C_OK] = (struct rep_cell){ .num = r->ok };
	c[C_REASON] = (struct rep_cell){ .text = t->note, .missing = !t->note[0] };
	c[C_NOTE] = (struct rep_cell){ .text = t->note };
	c[C_COST_NETWORK].absent = 1; /* until an offer prices the run */
	c[U_GPU] = (struct rep_cell){ .text = r->g.id };
	if (!r->ok)
		return;
	rep_layout_row(c + C_LAYOUT, t->layout, &r->w, &r->e);
	c[C_FREE] = (struct rep_cell){ .text = tc_fmt_bytes(r->e.memory_usable_bytes -
							     r->e.memory_per_gpu_bytes,
							     t->free, sizeof(t->free)) };
	c[C_STEP] = (struct rep_cell){ .num = r->e.step_time_s };
	c[C_TOTAL] = (struct rep_cell){ .num = r->e.total_time_s };
	const struct campaign *camp = r->cost.unfit ? &r->e.campaign : &r->cost.campaign;
	int hopeless = !r->cost.unfit && r->cost.campaign_hopeless;
	double wall = r->cost.unfit ? camp->wall_s : r->cost.wall_s;
	c[C_WALL] = (struct rep_cell){ .num = wall, .missing = hopeless };
	c[C_BASIS] = (struct rep_cell){ .text = rep_basis_name(steady) };
	c[C_GPU_HOURS] = (struct rep_cell){ .num = r->e.gpu_hours };
	c[C_MFU] = (struct rep_cell){ .num = r->e.mfu_frac };
	c[C_MEMORY] = (struct rep_cell){ .num = r->e.memory_per_gpu_bytes };
	c[C_FITS] = (struct rep_cell){ .num = r->e.fits };
	c[C_MEETS] = (struct rep_cell){ .num = r->meets, .missing = !(deadline_s > 0) };
	cost_cells(c, t, r);
	unc_cells(c, t, r, deadline_s, steady);
}

/* The GPU types of res (only those with a plan when `planned`) as rows
 * of cols: ncols columns, the cells of each row's columns from `first`
 * on. */
static void compare_rows(struct rep_rows *out, const struct rep_col *cols, int first, int ncols,
			 const struct rep_compare_results *res, int planned)
{
	rep_rows_init(out, cols, ncols);
	for (int i = 0; i < res->n; i++) {
		struct rep_cell c[ALL_COLS];
		struct row_text t;
		if (planned && !res->rows[i].ok)
			continue;
		row_cells(c, &t, &res->rows[i], res->deadline_s, res->steady_state);
		rep_rows_add(out, c + first);
	}
}

/* The uncertainty table of table and md output: P10, P50 and P90 of total
 * time and cost, and with a deadline the chance of meeting it. */
static int print_unc_table(FILE *out, const char *fmt,
			   const struct rep_compare_results *res)
{
	struct rep_col cols[UNC_COLS];
	struct rep_rows r;
	struct rep_col all[ALL_COLS];
	rep_compare_cols(all);
	memcpy(cols, all + U_GPU, sizeof(cols));
	/* Without a deadline the column would be empty: CSV alone keeps it. */
	if (!(res->deadline_s > 0))
		cols[U_P_DEADLINE - U_GPU].view = REP_VIEW_CSV;
	compare_rows(&r, cols, U_GPU, UNC_COLS, res, 1);
	fprintf(out, "\nUncertainty (%zu samples, seed %lu): %s and cost on the cheapest "
		"offer\n\n", res->unc->samples, res->unc->seed,
		!res->steady_state ? "wall clock with its interruptions drawn" :
				     "total time at the steady rate");
	int rc = rep_rows_print(&r, out, fmt);
	rep_rows_release(&r);
	/* the costs of a spot offer whose source sampled zones draw its price */
	for (int i = 0; !rc && i < res->n; i++) {
		const struct rep_compare_row *row = &res->rows[i];
		const struct unc_result *u = &row->unc;
		if (!row->unc_ok || !u->price_drawn)
			continue;
		fprintf(out, "%s: the costs draw the spot price of %s %s across its zones, "
			"$%.2f to $%.2f per instance-hour (%s $%.2f; docs/pricing.md)\n", row->g.id,
			row->cost.range.cheapest.table->provider, row->cost.range.cheapest.offer->instance,
			u->price_low_usd_per_h, u->price_high_usd_per_h,
			u->price_median_sourced ? "split at the median" : "uniform, no median sourced; midpoint",
			u->price_median_usd_per_h);
	}
	return rc;
}

/* "l40s: 31 % cheaper, 1.83x slower than a100-80gb-sxm", in words.  The
 * saving has two significant digits, so that 0.35 % does not read as "0 %";
 * one under 0.01 % is no saving worth a digit (%.2g would write "1e-05"). */
static void trade_off(FILE *out, const struct rep_compare_row *rows, int n)
{
	const struct rep_compare_row *cheap = NULL, *fast = NULL;
	for (int i = 0; i < n; i++) {
		const struct rep_compare_row *r = &rows[i];
		if (!r->ok || !r->cost.priced)
			continue;
		if (!isfinite(r->judged_usd))
			continue;
		if (!cheap || r->judged_usd < cheap->judged_usd)
			cheap = r;
		if (!fast || r->judged_s < fast->judged_s)
			fast = r;
	}
	if (!cheap)
		return;
	if (cheap == fast) {
		fprintf(out, "\n%s is both the cheapest and the fastest.\n", cheap->g.id);
		return;
	}
	double saving = 100 * (1 - cheap->judged_usd / fast->judged_usd);
	double slower = cheap->judged_s / fast->judged_s;
	if (saving < 0.01)
		fprintf(out, "\n%s: the same cost as %s to within 0.01 %%, %.3gx slower.\n",
			cheap->g.id, fast->g.id, slower);
	else if (saving < 10)
		fprintf(out, "\n%s: %.2g %% cheaper, %.3gx slower than %s.\n", cheap->g.id, saving,
			slower, fast->g.id);
	else /* %.2g would write 99.7 as "1e+02" */
		fprintf(out, "\n%s: %.0f %% cheaper, %.3gx slower than %s.\n", cheap->g.id, saving,
			slower, fast->g.id);
}

/* The document: the workload and the assumptions, then a row per GPU
 * type with, where it has a plan, its uncertainty and warnings. */
static int print_json(FILE *out, const struct rep_compare_results *res,
		      const struct rep_rows *r)
{
	struct rep_json j;
	rep_json_doc_begin(&j, out, "compare");
	rep_json_str(&j, "workload", res->w->name);
	rep_json_str(&j, "file", res->w->file);
	rep_json_str(&j, "kind", rep_kind_name(res->w));
	rep_json_str(&j, "pricing", cost_kind_names[res->kind]);
	rep_json_str(&j, "basis", rep_basis_name(res->steady_state));
	if (res->deadline_s > 0)
		rep_json_num(&j, "deadline_s", res->deadline_s);
	if (res->unc) {
		rep_json_int(&j, "samples", (long long)res->unc->samples);
		rep_json_int(&j, "seed", (long long)res->unc->seed);
	}
	rep_json_arr_begin(&j, "gpus");
	/* The rows are res's, in its order, unless an allocation failed. */
	for (size_t i = 0; i < r->rows && !r->failed; i++) {
		const struct rep_compare_row *row = &res->rows[i];
		rep_json_obj_begin(&j, NULL);
		rep_rows_json_fields(r, i, &j);
		if (row->ok && res->unc && row->unc_ok)
			rep_unc_json(&j, "uncertainty", &row->unc);
		if (row->ok) {
			rep_json_arr_begin(&j, "warnings");
			for (int k = 0; k < row->e.warning_count; k++)
				rep_json_str(&j, NULL, row->e.warning[k]);
			rep_json_arr_end(&j);
		}
		rep_json_obj_end(&j);
	}
	rep_json_arr_end(&j);
	rep_json_obj_end(&j);
	return (rep_json_finish(&j) || r->failed) ? -1 : 0;
}

/* The data formats: CSV and JSON from the same rows, the uncertainty's
 * columns only with --uncertainty. */
static int print_data(FILE *out, const char *fmt, const struct rep_compare_results *res)
{
	struct rep_col cols[ALL_COLS];
	struct rep_rows r;
	int rc;
	rep_compare_cols(cols);
	compare_rows(&r, cols, 0, res->unc ? ALL_COLS : MAIN_COLS, res, 0);
	if (!strcmp(fmt, "json"))
		rc = print_json(out, res, &r);
	else
		rc = rep_rows_print(&r, out, fmt);
	rep_rows_release(&r);
	return rc;
}

/* The formats for people: a sentence on what is compared, the table, the
 * uncertainty's table, the trade-off and the spot assumptions. */
/* The cluster products the price tables leave out for lack of a sourced
 * price or fabric, of the GPUs whose plan spans several nodes (where a
 * cluster would have mattered): one line each. */
static void unjoinable_note(FILE *out, const struct rep_compare_results *res)
{
	const char **ids = res->n > 0 ? malloc((size_t)res->n * sizeof(*ids)) : NULL;
	int n = 0;
	for (int i = 0; ids && i < res->n; i++) {
		const struct rep_compare_row *r = &res->rows[i];
		if (r->ok && r->e.plan.count > r->e.plan.gpus_per_node)
			ids[n++] = r->g.id;
	}
	if (n) /* out of memory: the note is left out, the table stands */
		rep_print_unjoinable(out, res->unjoin, ids, n, NULL);
	free(ids);
}

static int print_text(FILE *out, const char *fmt, const struct rep_compare_results *res)
{
	const struct cal_overlay *cal = res->cal;
	char dur[48], how[160], title[REP_TITLE_LEN];
	struct rep_rows r;
	if (res->deadline_s > 0)
		snprintf(how, sizeof(how), "the fewest GPUs that finish within %s (or the "
			 "whole instances they are priced on, when cheaper)",
			 tc_fmt_duration(res->deadline_s, dur, sizeof(dur)));
	else
		snprintf(how, sizeof(how), "at %d GPUs", res->count);
	fprintf(out, "%s: each GPU type with its fastest plan that fits, %s, %s prices\n"
		"%s\n\n", rep_title(title, res->w, fmt), how, cost_kind_names[res->kind],
		res->steady_state ? "Deadline and cost on the steady state (--steady-state): "
				       "no interruptions, restarts or checkpoints."
				     : "Deadline and cost on the expected wall clock: interruptions, "
				       "restarts, checkpoints and spare nodes included.");
	if (cal->eff.measurements)
		fprintf(out, "Efficiencies calibrated from %s (%zu measurements on %s).\n\n",
			cal->eff.fitted_from, cal->eff.measurements, cal->eff.gpu);
	if (res->w->plan.memory_headroom_frac > 0)
		fprintf(out, "Every plan fits with %.3g %% of each GPU's memory kept free "
			"(--memory-headroom); \"free\" is what is left.\n\n",
			100 * res->w->plan.memory_headroom_frac);
	struct rep_col cols[ALL_COLS];
	rep_compare_cols(cols);
	compare_rows(&r, cols, 0, MAIN_COLS, res, 0);
	int rc = rep_rows_print(&r, out, fmt);
	rep_rows_release(&r);
	if (!rc && res->unc)
		rc = print_unc_table(out, fmt, res);
	if (!rc)
		trade_off(out, res->rows, res->n);
	if (!rc)
		unjoinable_note(out, res);
	if (!rc && res->kind == COST_SPOT) {
		fputc('\n', out);
		rep_spot_assumptions(out, res->preempt_per_h, res->steady_state);
	}
	return rc;
}

int rep_compare_report(FILE *out, const char *fmt, const struct rep_compare_results *res)
{
	if (!strcmp(fmt, "json") || !strcmp(fmt, "csv"))
		return print_data(out, fmt, res);
	return print_text(out, fmt, res);
}
