/*
 * estimate_record.c - an estimate's fields as one record (estimate_record.h).
 *
 * Each field is one column: its contract name, the JSON object it sits in
 * (a group path, rows.h) and the formats that show it.  The sections
 * come in JSON's order; CSV names the plan right after the workload,
 * which is the only place the two orders differ.  A field only some
 * estimates have is `absent` from JSON when they lack it; one that exists
 * but has no value is null.
 *
 * The table is the same record: after the fields come its lines, in the
 * table's order, each naming the field it shows and worded from it and
 * from any other field (estimate_words.c), and the few facts only the
 * table words (the group "sheet"); rep_record_print_sheet lays them out.
 */
#include "estimate_record.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#include "../model/types/network.h"
#include "../util/units.h"
#include "campaign_words.h"
#include "estimate_report.h"
#include "estimate_words.h"
#include "json.h"
#include "layout_text.h"
#include "numfmt.h"
#include "out_fields.h"
#include "record.h"
#include "rows.h"
#include "unc_json.h"

#define EST_MAX_FIELDS REP_ROWS_MAX_COLS
#define EST_NAME_LEN 48

struct est_record {
	struct rep_col cols[EST_MAX_FIELDS];
	struct rep_cell cells[EST_MAX_FIELDS];
	rep_word_fn words[EST_MAX_FIELDS]; /* how the table and Markdown word a field */
	const struct rep_sheet_look *looks[EST_MAX_FIELDS]; /* the table's lines (NULL: none) */
	char names[BRK_COUNT + MEM_COUNT][EST_NAME_LEN]; /* generated names */
	char why[REP_UNPRICED_LEN];                     /* why the run has no price */
	char seed[24];                                  /* the uncertainty's seed */
	int n, nnames;
};

/* Append field col with value v. */
static void put(struct est_record *r, struct rep_col col, struct rep_cell v)
{
	assert(r->n < EST_MAX_FIELDS);
	r->cols[r->n] = col;
	r->words[r->n] = NULL;
	r->looks[r->n] = NULL;
	r->cells[r->n++] = v;
}

/* Show the field put last to people, under `title` (NULL: the catalog's,
 * out_fields.h), worded by `word`. */
static void say(struct est_record *r, const char *title, rep_word_fn word)
{
	struct rep_col *c = &r->cols[r->n - 1];
	assert(c->view == REP_VIEW_DATA && (title || rep_field_find(c->name)));
	if (title)
		c->title = title;
	c->view = REP_VIEW_ALL;
	r->words[r->n - 1] = word;
}

/* A generated name: s and its unit's ending, kept in r.  Returns it. */
static const char *name_of(struct est_record *r, const char *s, const char *ending)
{
	assert(r->nnames < BRK_COUNT + MEM_COUNT);
	char *n = r->names[r->nnames++];
	snprintf(n, EST_NAME_LEN, "%s%s", s, ending);
	return n;
}

/* A column: contract name, JSON group (NULL: none), kind, the formats
 * that show it, how CSV writes a number. */
static struct rep_col col(const char *name, const char *group, enum rep_col_kind kind,
			  enum rep_view view, enum rep_csv csv)
{
	return (struct rep_col){ .name = name, .title = name, .kind = kind, .group = group,
				 .csv = csv, .view = view };
}

/* The usual columns: JSON's alone, or CSV's and JSON's (CSV numbers as
 * the catalog's measurements are written: 6 significant digits, every
 * digit of the whole part, no exponent; out_fields.h). */
static struct rep_col jnum(const char *name, const char *group)
{
	return col(name, group, REP_COL_SIG, REP_VIEW_JSON, 0);
}
static struct rep_col jtext(const char *name, const char *group)
{
	return col(name, group, REP_COL_TEXT, REP_VIEW_JSON, 0);
}
static struct rep_col data6(const char *name, const char *group)
{
	return col(name, group, REP_COL_SIG, REP_VIEW_DATA, REP_CSV_SIG6);
}
static struct rep_col dtext(const char *name, const char *group)
{
	return col(name, group, REP_COL_TEXT, REP_VIEW_DATA, 0);
}
/* A field of the catalog (out_fields.h) in JSON group `group` (NULL:
 * none), in the formats of `view`. */
static struct rep_col field(const char *name, const char *group, enum rep_view view)
{
	struct rep_col c = REP_FIELD_COL(name, view, 0);
	rep_field_apply(&c);
	c.group = group;
	return c;
}

static struct rep_cell val(double v)
{
	return (struct rep_cell){ .num = v };
}
static struct rep_cell txt(const char *s)
{
	return (struct rep_cell){ .text = s };
}
static const struct rep_cell null_cell = { .missing = 1 };  /* JSON null, CSV empty */
static const struct rep_cell gone = { .absent = 1 };        /* left out of JSON */

/* v when the estimate has the field, else left out. */
static struct rep_cell only(int has, struct rep_cell v)
{
	return has ? v : gone;
}


static void head_fields(struct est_record *r, const struct workload *w, const struct gpu *g,
			const struct estimate *e)
{
	put(r, dtext("workload", NULL), txt(w->name));
	put(r, jtext("file", NULL), txt(w->file));
	put(r, jtext("kind", NULL), txt(rep_kind_name(w)));
	put(r, jtext("model", NULL), txt(rep_model_name(w)));
	put(r, jtext("gpu_name", NULL), txt(g->name));
	put(r, jtext("precision", NULL), txt(tc_prec_names[w->train.precision]));
	put(r, jtext("framework", NULL), txt(e->plan.framework));
	put(r, col("micro_batch_chosen", NULL, REP_COL_BOOL, REP_VIEW_JSON, 0),
	    val(e->micro_batch_chosen));
	put(r, jnum("params", NULL), val(e->params));
	put(r, jnum("active_params", NULL), val(e->active_params));
	put(r, jnum("tokens_per_step", NULL), val(e->tokens_per_step));
	put(r, jnum("steps", NULL), val(e->steps));
}

static void result_fields(struct est_record *r, const struct workload *w,
			  const struct estimate *e)
{
	int vision = w->kind == WL_VISION, recsys = w->kind == WL_RECSYS;
	int llm = !vision && !recsys;
	put(r, field("step_time_s", NULL, REP_VIEW_DATA), val(e->step_time_s));
	say(r, NULL, rep_est_duration);
	/* People read a language model's rate in tokens, the others' in
	 * what a sample is (rep_est_throughput's units) */
	put(r, field("tokens_per_s", NULL, REP_VIEW_DATA), val(e->tokens_per_s));
	if (llm)
		say(r, NULL, rep_est_amount);
	put(r, data6("tokens_per_s_per_gpu", NULL), val(e->tokens_per_s_per_gpu));
	if (llm)
		say(r, "tokens/s per GPU", rep_est_amount);
	put(r, jnum("samples_per_step", NULL), val(e->samples_per_step));
	put(r, data6("samples_per_s", NULL), val(e->samples_per_s));
	if (!llm)
		say(r, vision ? "images/s (all GPUs)" : "samples/s (all GPUs)", rep_est_amount);
	put(r, data6("samples_per_s_per_gpu", NULL), val(e->samples_per_s / e->plan.count));
	if (!llm)
		say(r, vision ? "images/s per GPU" : "samples/s per GPU", rep_est_amount);
	put(r, jnum("images_per_s", NULL), only(vision, val(e->images_per_s)));
	put(r, jnum("input_wait_s", NULL), only(vision, val(e->input_wait_s)));
	put(r, jnum("embedding_bytes_per_gpu", NULL), only(recsys, val(e->embedding_bytes_per_gpu)));
	put(r, jnum("host_bytes", NULL), only(recsys, val(e->host_bytes)));
	put(r, field("total_time_s", NULL, REP_VIEW_DATA), val(e->total_time_s));
	say(r, NULL, rep_est_duration);
	put(r, field("gpu_hours", NULL, REP_VIEW_DATA), val(e->gpu_hours));
	say(r, NULL, rep_est_amount);
	put(r, jnum("model_flop_per_step", NULL), val(e->model_flop_per_step));
	put(r, jnum("hw_flop_per_step", NULL), val(e->hw_flop_per_step));
	put(r, field("mfu_frac", NULL, REP_VIEW_DATA), val(e->mfu_frac));
	say(r, NULL, rep_est_percent);
	put(r, field("hfu_frac", NULL, REP_VIEW_DATA), val(e->hfu_frac));
	say(r, NULL, rep_est_percent);
	put(r, field("memory_per_gpu_bytes", NULL, REP_VIEW_DATA), val(e->memory_per_gpu_bytes));
	say(r, NULL, rep_est_memory);
	put(r, data6("memory_capacity_bytes", NULL), val(e->memory_capacity_bytes));
	/* What fits is compared with: the capacity less --memory-headroom. */
	put(r, jnum("memory_usable_bytes", NULL), val(e->memory_usable_bytes));
	put(r, field("fits", NULL, REP_VIEW_DATA), val(e->fits));
	put(r, jtext("fit_advice", NULL), only(!e->fits, txt(e->fit_advice)));
	put(r, field("limiting", NULL, REP_VIEW_DATA), txt(limiter_names[e->limiting]));
	say(r, NULL, rep_est_name);
}

/* Where the step's time goes and what the memory holds, by part. */
static void part_fields(struct est_record *r, const struct estimate *e)
{
	for (int i = 0; i < BRK_COUNT; i++)
		put(r, data6(name_of(r, brk_names[i], "_s"), "breakdown"), val(e->breakdown_s[i]));
	for (int i = 0; i < MEM_COUNT; i++)
		put(r, jnum(name_of(r, mem_part_names[i], "_bytes"), "memory"), val(e->mem_bytes[i]));
}

/*
 * The campaign around the steady state (model/families/campaign.h): *cp is the
 * cost's when the run was priced (spot preemptions included), else the
 * estimate's; NULL when spot preemptions leave no time to train.  A
 * figure that does not exist (no interruptions: no interval) is null.
 */
static void campaign_fields(struct est_record *r, const struct campaign *cp)
{
	static const char g[] = "campaign";
	static const struct campaign none;
	const struct campaign *c = cp ? cp : &none;
	int any = c->interrupt_per_s > 0;
#define HAS(x) (cp ? (x) : null_cell)
	put(r, field("wall_time_s", g, REP_VIEW_DATA), HAS(val(c->wall_s)));
	say(r, NULL, rep_est_wall);
	put(r, field("goodput_frac", g, REP_VIEW_DATA), HAS(val(c->goodput_frac)));
	put(r, field("interruptions", g, REP_VIEW_DATA), HAS(val(c->interruptions)));
	say(r, "expected interruptions", rep_est_amount);
	put(r, data6("recommended_interval_s", g), cp && any ? val(c->young_interval_s) : null_cell);
	say(r, "checkpoints", rep_est_checkpoints);
	put(r, field("interval_s", g, REP_VIEW_JSON),
	    cp && c->interval_s > 0 ? val(c->interval_s) : null_cell);
	put(r, col("interval_given", g, REP_COL_BOOL, REP_VIEW_JSON, 0),
	    val((c->in.set >> CAMP_P_INTERVAL) & 1u));
	put(r, field("operation", g, REP_VIEW_JSON), txt(camp_operation_names[c->in.operation]));
	put(r, jnum("node_interruptions_per_day", g), val(c->in.node_rate_per_day));
	put(r, jnum("job_interruptions_per_day", g), val(c->in.job_rate_per_day));
	put(r, jnum("spot_preemptions_per_h", g), val(c->in.preempt_per_h));
	put(r, jnum("mtbi_s", g), cp && any ? val(c->mtbi_s) : null_cell);
	put(r, jnum("restart_s", g), val(c->in.restart_s));
	put(r, jtext("checkpoint", g), txt(camp_checkpoint_names[c->in.checkpoint]));
	put(r, jnum("checkpoint_bytes", g), val(c->checkpoint_bytes));
	put(r, jnum("checkpoint_write_s", g), val(c->checkpoint_write_s));
	put(r, jnum("checkpoint_block_s", g), val(c->checkpoint_block_s));
	put(r, jnum("lost_per_interruption_s", g), HAS(val(c->lost_per_interrupt_s)));
	put(r, jnum("loss_frac", g), HAS(val(c->loss_frac)));
	put(r, jnum("checkpoint_frac", g), HAS(val(c->checkpoint_frac)));
	put(r, jnum("straggler_frac", g), val(c->in.straggler_frac));
	put(r, jnum("eval_frac", g), val(c->in.eval_frac));
	put(r, jnum("startup_s", g), val(c->in.startup_s));
	put(r, jnum("spare_frac", g), val(c->in.spare_frac));
#undef HAS
}

/* The plan: the GPU, the layout (REP_LAYOUT_COLS) and the cluster. */
static void plan_fields(struct est_record *r, const struct workload *w, const struct plan *p)
{
	static const struct rep_col layout[REP_LAYOUT_NCOLS] = { REP_LAYOUT_COLS };
	struct rep_cell c[REP_LAYOUT_NCOLS];
	put(r, field("gpu", "plan", REP_VIEW_DATA), txt(p->gpu));
	rep_layout_plan_row(c, "", p, w->train.recompute);
	for (int k = 0; k < REP_LAYOUT_NCOLS; k++) {
		struct rep_col lc = layout[k];
		lc.group = "plan";
		if (lc.view == REP_VIEW_TEXT)
			continue; /* the one-cell summary: the heading words the plan */
		if (lc.view == REP_VIEW_ALL)
			lc.view = REP_VIEW_DATA;
		put(r, lc, c[k]);
	}
	put(r, col("gpus_per_node", "plan", REP_COL_COUNT, REP_VIEW_JSON, 0), val(p->gpus_per_node));
	put(r, col("cuda_graphs", "plan", REP_COL_BOOL, REP_VIEW_JSON, 0), val(p->cuda_graphs));
	put(r, col("compile", "plan", REP_COL_BOOL, REP_VIEW_JSON, 0), val(p->compile));
	put(r, jnum("network_bytes_per_s", "plan"), val(net_gpu_bytes_per_s(p)));
}

/*
 * One priced offer, `key` of "cost" (null when there is none): ch is NULL
 * when the run was not priced.  CSV gives the cheapest one's name, place
 * and cost (csv != 0).
 */
static void choice_fields(struct est_record *r, const char *key, const char *group,
			  const struct cost_choice *ch, const struct plan *p, int has_cost, int csv)
{
	enum rep_view v = csv ? REP_VIEW_DATA : REP_VIEW_JSON;
	const char *net = ch ? rep_choice_network(ch, p) : NULL;
#define ON(x) (ch ? (x) : gone)
	put(r, jtext(key, "cost"), has_cost && !ch ? null_cell : gone);
	put(r, field("provider", group, v), ON(txt(ch->table->provider)));
	put(r, field("instance", group, v), ON(txt(ch->offer->instance)));
	put(r, field("region", group, v), ON(txt(ch->offer->region)));
	put(r, jnum("gpus_per_instance", group), ON(val(ch->offer->gpus)));
	put(r, jnum("instances", group), ON(val(ch->run.instances)));
	put(r, jnum("idle_gpus", group), ON(val(ch->run.idle_gpus)));
	put(r, jnum("billed_s", group), ON(val(ch->run.billed_s)));
	put(r, jnum("price_usd_per_instance_h", group), ON(val(ch->run.price_usd_per_h)));
	put(r, jnum("price_usd_per_gpu_h", group), ON(val(ch->run.price_usd_per_gpu_h)));
	put(r, field("steady_cost_usd", group, v), ON(val(ch->run.cost_usd)));
	if (csv)
		say(r, NULL, rep_est_cost);
	put(r, jtext("as_of", group), ON(txt(ch->offer->as_of)));
	put(r, col("verified", group, REP_COL_BOOL, REP_VIEW_JSON, 0), ON(val(ch->offer->verified)));
	put(r, jnum("run_s", group), ON(val(ch->run_s)));
	put(r, jtext("network", group), ON(net ? txt(net) : null_cell));
#undef ON
}

/* The spot preemptions among the wall clock's interruptions and what they
 * cost (spot: counted; c is never NULL). */
static void spot_fields(struct est_record *r, const struct run_cost *c, int spot)
{
	static const char g[] = "cost.spot";
	const struct run_cost_spot *sp = &c->spot;
	int priced = spot && c->priced && !c->campaign_hopeless;
	/* what the preemptions cost: none when they leave no time to train */
	struct rep_cell none = c->campaign_hopeless ? null_cell : gone;
	put(r, jnum("preempt_per_h", g), only(spot, val(sp->preempt_per_h)));
	put(r, jnum("instances", g), only(spot, val(sp->instances)));
	int lost = spot && !c->campaign_hopeless;
	put(r, jnum("checkpoint_interval_s", g), lost ? val(c->campaign.interval_s) : only(spot, none));
	put(r, jnum("restart_s", g), only(spot, val(c->campaign.in.restart_s)));
	put(r, jnum("notice_s", g), only(spot, val(sp->notice_s)));
	put(r, col("notice_known", g, REP_COL_BOOL, REP_VIEW_JSON, 0),
	    only(spot, val(sp->notice_known || sp->notice_given)));
	put(r, jnum("expected_restarts", g), lost ? val(sp->expected) : only(spot, none));
	put(r, jnum("overhead_s", g), lost ? val(sp->lost_s) : only(spot, none));
	put(r, jnum("lost_s_per_restart", g), lost ? val(sp->lost_s_each) : only(spot, none));
	put(r, jnum("restart_cost_usd", g), !spot ? gone : priced ? val(sp->each_usd) : null_cell);
	put(r, jnum("overhead_cost_usd", g), !spot ? gone : priced ? val(sp->lost_usd) : null_cell);
}

/*
 * The cost and the energy: c is the run's cost, a zeroed one when there is
 * none (has_cost 0), which leaves both objects out of JSON.  A run that
 * does not fit has no figures: null, not zero.
 */
static void cost_fields(struct est_record *r, const struct gpu *g, const struct plan *p,
			const struct run_cost *c, int has_cost)
{
	int unfit = has_cost && c->unfit, fit = has_cost && !c->unfit;
	int offer = has_cost && c->priced && !c->unfit;
	char *why = r->why;
	if (unfit)
		snprintf(why, REP_UNPRICED_LEN, "%s", "does not fit in GPU memory");
	else if (has_cost && !c->priced) {
		rep_unpriced(why, &c->range, c->kind, g->id, p->count);
		/* an offer set aside for its unverified price could (its line) */
		if (c->aside_priced)
			snprintf(why + strlen(why), REP_UNPRICED_LEN - strlen(why),
				 " (verified prices only)");
	}
	put(r, field("pricing", "cost", REP_VIEW_DATA), only(has_cost, txt(cost_kind_names[c->kind])));
	put(r, col("priced", "cost", REP_COL_BOOL, REP_VIEW_JSON, 0), only(has_cost, val(c->priced)));
	put(r, jtext("not_priced", "cost"), only(has_cost && !offer, txt(why)));
	choice_fields(r, "cheapest", "cost.cheapest", offer ? &c->range.cheapest : NULL, p,
		      has_cost, 1);
	choice_fields(r, "dearest", "cost.dearest", offer ? &c->range.dearest : NULL, p, has_cost, 0);
	/* What the offers with an unverified price, set aside, would give. */
	int aside = fit && c->aside_priced;
	choice_fields(r, "unverified", "cost.unverified", aside ? &c->aside.cheapest : NULL, p,
		      has_cost, 0);
	put(r, col("unverified_offers", "cost", REP_COL_COUNT, REP_VIEW_JSON, 0),
	    only(fit, val(aside ? c->aside.offers + c->aside.offers_idle : 0)));
	put(r, field("steady_cost_max_usd", NULL, REP_VIEW_CSV),
	    offer ? val(c->range.dearest.run.cost_usd) : null_cell);
	put(r, col("providers", "cost", REP_COL_COUNT, REP_VIEW_JSON, 0),
	    only(offer, val(c->range.providers)));
	put(r, col("offers", "cost", REP_COL_COUNT, REP_VIEW_JSON, 0), only(offer, val(c->range.offers)));
	/* Offers that leave paid GPUs idle are counted apart from the range. */
	put(r, col("offers_idle", "cost", REP_COL_COUNT, REP_VIEW_JSON, 0),
	    only(offer, val(c->range.offers_idle)));
	put(r, jnum("idle_max_usd", "cost"),
	    only(offer && c->range.providers_idle, val(c->range.dearest_idle.run.cost_usd)));
	put(r, jnum("billed_run_s", "cost"), only(fit, val(c->run_s)));
	int wall = offer && !c->campaign_hopeless;
	put(r, field("wall_cost_usd", "cost", REP_VIEW_DATA), wall ? val(c->wall_usd) : null_cell);
	say(r, NULL, rep_est_wall_cost);
	put(r, jnum("wall_run_s", "cost"), only(fit, wall ? val(c->wall_s) : null_cell));
	put(r, jnum("spare_cost_usd", "cost"), only(fit, wall ? val(c->spare_usd) : null_cell));
	spot_fields(r, c, fit && c->spot_counted);
	/* Null, never left out, where no on-premises figure applies (the schema
	 * makes it a field of every cost object). */
	put(r, jnum("onprem_usd", "cost"),
	    only(has_cost, fit && c->onprem ? val(c->onprem_usd) : null_cell));
	put(r, jnum("onprem_usd_per_gpu_h", "cost"),
	    only(fit && c->onprem, val(c->onprem_rate.total_usd_per_gpu_h)));
	put(r, field("energy_kwh", "energy", REP_VIEW_DATA),
	    unfit ? null_cell : only(fit, val(c->energy_kwh)));
	say(r, NULL, rep_est_energy);
	put(r, data6("co2_kg", "energy"), unfit ? null_cell : only(fit, val(c->co2_kg)));
	put(r, jnum("power_frac", "energy"), only(fit, val(c->in.power_frac)));
	put(r, jnum("pue", "energy"), only(fit, val(c->in.pue)));
	put(r, jnum("grid_g_per_kwh", "energy"), only(fit, val(c->in.grid_g_per_kwh)));
	/* CSV: the time and the network the cheapest offer was priced over. */
	const char *net = offer ? rep_choice_network(&c->range.cheapest, p) : NULL;
	put(r, col("offer_run_s", NULL, REP_COL_SIG, REP_VIEW_CSV, REP_CSV_SIG6),
	    offer ? val(c->range.cheapest.run_s) : null_cell);
	put(r, col("offer_network", NULL, REP_COL_TEXT, REP_VIEW_CSV, 0),
	    offer ? txt(net ? net : "") : null_cell);
}

/* Show the field `name` of `group` (put before) as a line of the table,
 * under `title`, worded by `word`, laid out as *look. */
static void line(struct est_record *r, const char *group, const char *name, const char *title,
		 rep_word_fn word, const struct rep_sheet_look *look)
{
	put(r, col(name, group, REP_COL_TEXT, REP_VIEW_TABLE, 0), null_cell);
	r->cols[r->n - 1].title = title;
	r->words[r->n - 1] = word;
	r->looks[r->n - 1] = look;
}

/* The layouts of the table's lines. */
static const struct rep_sheet_look heading = { 1, 0, 0 };
static const struct rep_sheet_look header = { 0, 10, 0 };
static const struct rep_sheet_look result = { 0, 19, 0 };
static const struct rep_sheet_look part = { 0, 18, 10 };
static const struct rep_sheet_look share = { 0, 18, 19 };
static const struct rep_sheet_look cost = { 0, 13, 0 };
static const struct rep_sheet_look quantiles = { 0, 24, 35 };
static const struct rep_sheet_look note = { 0, 0, 0 };
static const struct rep_sheet_look price = { 0, 24, 0 };
static const struct rep_sheet_look bullet = { 0, 1, 0 };

/* A heading of the table without a field: a title, or a blank line. */
static void section(struct est_record *r, const char *title)
{
	put(r, col("section", NULL, REP_COL_TEXT, REP_VIEW_TABLE, 0), txt(""));
	r->cols[r->n - 1].title = title;
	r->looks[r->n - 1] = &heading;
}

/* A fact the table's wordings draw on that no other view shows: the
 * field `name` of the group "sheet". */
static void fact(struct est_record *r, const char *name, struct rep_cell v)
{
	put(r, col(name, "sheet", v.text ? REP_COL_TEXT : REP_COL_SIG, REP_VIEW_TABLE, 0), v);
}

/* The facts of the table's header: how the hardware was chosen, the
 * layout's options and what the run trains on. */
static void header_facts(struct est_record *r, const struct workload *w, const struct gpu *g,
			 const struct estimate *e)
{
	const struct plan *p = &e->plan;
	const struct training *t = &w->train;
	int llm = w->kind == WL_LLM, vision = w->kind == WL_VISION;
	double in_h, in_w;
	fact(r, "gpu_flag", val(!w->mark[WLF_GPU].line));
	fact(r, "count_flag", val(!w->mark[WLF_COUNT].line));
	fact(r, "gpu_id", txt(g->id));
	fact(r, "experts", val(llm ? w->llm.experts : 0));
	fact(r, "cp", val(p->cp));
	/* A language model's plan alone has micro-batches (the others' is 0). */
	double batches = llm ? (double)llround(t->global_batch / ((double)p->dp * p->micro_batch))
			     : 0;
	fact(r, "micro_batches", val(batches));
	fact(r, "shard_group", val(p->shard_group));
	fact(r, "zero_bubble", val(llm && p->schedule == SCHED_ZERO_BUBBLE));
	fact(r, "tp_comm_overlap", val(llm && p->tp_comm_overlap && p->tp > 1));
	fact(r, "encoder_decoder", val(llm && w->llm.form == FORM_ENCODER_DECODER));
	fact(r, "input_len", val(t->input_len));
	fact(r, "target_len", val(t->target_len));
	fact(r, "seq_len", val(t->seq_len));
	fact(r, "global_batch", val(t->global_batch));
	fact(r, "optimizer", txt(opt_name(t->optimizer)));
	fact(r, "recompute_share", val(train_recompute_share(t)));
	fact(r, "finetune", t->finetune != FT_FULL ? txt(finetune_names[t->finetune]) : null_cell);
	fact(r, "lora_rank", val(t->lora_rank));
	fact(r, "lora_targets", txt(lora_targets_text(t->lora_targets)));
	fact(r, "lora_base_fp8", val(t->lora_base_fp8));
	fact(r, "mlp_act_input_fp8", val(t->mlp_act_input_fp8));
	fact(r, "lm_head_tokens", val(t->lm_head_tokens));
	/* another family has no vision part (workload.h): its facts are 0 */
	static const struct vision_training no_vtrain;
	const struct vision_training *vt = vision ? &w->vtrain : &no_vtrain;
	vtrain_input(vt, &in_h, &in_w);
	fact(r, "crop", val(vt->crop > 0));
	fact(r, "input_h", val(in_h));
	fact(r, "input_w", val(in_w));
	fact(r, "image_size", vision ? val(vt->image_size) : null_cell);
	fact(r, "image_width", val(vt->image_width > 0 ? vt->image_width : vt->image_size));
	const struct eff_stack *fw = &g->stack; /* resolved for the plan's */
	fact(r, "stack_frac", fw->set & (1ULL << eff_id_stack_frac) ?
	     val(fw->value[eff_id_stack_frac]) : null_cell);
	fact(r, "fitted_runs", val(fw->fitted_runs));
}

/* The table's title and header lines: the workload, model, GPUs,
 * layout, training and framework. */
static void header_lines(struct est_record *r)
{
	line(r, NULL, "workload", "", rep_est_title, &heading);
	line(r, NULL, "file", "workload", rep_est_shown, &header);
	line(r, NULL, "model", "model", rep_est_model, &header);
	line(r, NULL, "gpu_name", "GPUs", rep_est_gpus, &header);
	line(r, "plan", "tp", "layout", rep_est_layout, &header);
	line(r, NULL, "tokens_per_step", "training", rep_est_training, &header);
	line(r, NULL, "framework", "framework", rep_est_framework, &header);
}

/* The table's lines of the results, the memory and the step's parts,
 * each over the field it words. */
static void result_lines(struct est_record *r)
{
	int n = r->n;
	section(r, "");
	line(r, NULL, "step_time_s", "step time", rep_est_duration, &result);
	line(r, NULL, "tokens_per_s", "throughput", rep_est_throughput, &result);
	line(r, NULL, "input_wait_s", "input pipeline", rep_est_input_wait, &result);
	line(r, NULL, "total_time_s", "run", rep_est_run, &result);
	line(r, "campaign", "wall_time_s", "wall clock", rep_est_wall, &result);
	line(r, "campaign", "recommended_interval_s", "checkpoints", rep_est_checkpoints, &result);
	line(r, NULL, "gpu_hours", "GPU-hours", rep_est_gpu_hours, &result);
	line(r, NULL, "mfu_frac", "MFU / HFU", rep_est_mfu_hfu, &result);
	line(r, NULL, "limiting", "limiting resource", rep_est_name, &result);
	line(r, NULL, "efficiency_source", "efficiencies", rep_est_shown, &result);
	line(r, NULL, "memory_per_gpu_bytes", "Memory per GPU:", rep_est_memory, &heading);
	for (int k = 0, i = 0; k < n; k++)
		if (r->cols[k].group && !strcmp(r->cols[k].group, "memory"))
			line(r, "memory", r->cols[k].name, mem_part_names[i++], rep_est_bytes,
			     &part);
	line(r, NULL, "embedding_bytes_per_gpu", "", rep_est_embedding, &note);
	line(r, NULL, "host_bytes", "host memory", rep_est_host, &note);
	line(r, NULL, "fit_advice", "", rep_est_advice, &note);
	section(r, "Time per step:");
	for (int k = 0, i = 0; k < n; k++)
		if (r->cols[k].group && !strcmp(r->cols[k].group, "breakdown"))
			line(r, "breakdown", r->cols[k].name, brk_names[i++], rep_est_share,
			     &share);
}

/* The facts of the table's cost that no other view shows: c is the run's
 * cost, a zeroed one when there is none; p the plan it was priced for. */
static void cost_facts(struct est_record *r, const struct gpu *g, const struct plan *p,
		       const struct run_cost *c)
{
	const struct cost_choice *ch = &c->range.cheapest;
	const struct cost_onprem_result *rate = &c->onprem_rate;
	fact(r, "unfit", val(c->unfit));
	fact(r, "skipped_small", val(c->range.skipped_small));
	fact(r, "skipped_fabric", val(c->range.skipped_fabric));
	fact(r, "offer_own_network", val(ch->network != NULL));
	fact(r, "offer_network", txt(ch->offer ? ch->offer->network : ""));
	fact(r, "plan_network", txt(p->network));
	fact(r, "spot_hopeless", val(c->spot_counted && c->campaign_hopeless));
	fact(r, "notice_provider", txt(c->spot.notice_known && ch->table ? ch->table->provider : ""));
	fact(r, "notice_given", val(c->spot.notice_given));
	fact(r, "capital_usd_per_gpu_h", val(rate->capital_usd_per_gpu_h));
	fact(r, "power_usd_per_gpu_h", val(rate->power_usd_per_gpu_h));
	fact(r, "colo_usd_per_gpu_h", val(rate->colo_usd_per_gpu_h));
	fact(r, "tdp_w", val(g->tdp_w));
}

/* The table's lines of the cost: the offers, the spot preemptions, the cost
 * on premises and the energy, each over the field it words. */
static void cost_lines(struct est_record *r)
{
	line(r, "cost", "pricing", "", rep_est_cost_heading, &heading);
	line(r, "cost.cheapest", "steady_cost_usd", "cheapest", rep_est_offer, &cost);
	line(r, "cost.dearest", "steady_cost_usd", "range", rep_est_range, &cost);
	line(r, "cost", "wall_cost_usd", "wall clock", rep_est_wall_cost, &cost);
	line(r, "cost.cheapest", "network", "network", rep_est_network, &cost);
	line(r, "cost", "not_priced", "cloud", rep_est_unpriced, &cost);
	line(r, "sheet", "skipped_small", "", rep_est_skipped_small, &cost);
	line(r, "sheet", "skipped_fabric", "", rep_est_skipped_fabric, &cost);
	line(r, "cost", "unverified_offers", "", rep_est_unverified, &cost);
	line(r, "cost.spot", "preempt_per_h", "spot", rep_est_spot, &cost);
	line(r, "cost.spot", "restart_cost_usd", "restart", rep_est_restart, &cost);
	line(r, "cost", "onprem_usd", "on-premises", rep_est_onprem, &cost);
	line(r, "energy", "energy_kwh", "energy", rep_est_energy, &cost);
}

/* The percentiles of quantity q as the facts p10, p50 and p90 of group
 * `group`; missing when the estimate has none (has 0). */
static void quantile_facts(struct est_record *r, const char *group, const struct unc_quantiles *q,
			   int has)
{
	put(r, col("p10", group, REP_COL_SIG, REP_VIEW_TABLE, 0), has ? val(q->p10) : null_cell);
	put(r, col("p50", group, REP_COL_SIG, REP_VIEW_TABLE, 0), has ? val(q->p50) : null_cell);
	put(r, col("p90", group, REP_COL_SIG, REP_VIEW_TABLE, 0), has ? val(q->p90) : null_cell);
}

/* The table's lines of the uncertainty *u, over facts of the group
 * "uncertainty" that no other view shows (JSON writes *u on its own). */
static void uncertainty_lines(struct est_record *r, const struct unc_result *u)
{
	static const char g[] = "uncertainty";
	snprintf(r->seed, sizeof(r->seed), "%lu", u->seed);
	put(r, col("samples", g, REP_COL_SIG, REP_VIEW_TABLE, 0), val((double)u->samples));
	put(r, col("seed", g, REP_COL_TEXT, REP_VIEW_TABLE, 0), txt(r->seed));
	put(r, col("p_deadline", g, REP_COL_SIG, REP_VIEW_TABLE, 0),
	    u->has_deadline ? val(u->p_deadline) : null_cell);
	put(r, col("p_budget", g, REP_COL_SIG, REP_VIEW_TABLE, 0),
	    u->has_budget ? val(u->p_budget) : null_cell);
	quantile_facts(r, "uncertainty.step_s", &u->step_s, 1);
	quantile_facts(r, "uncertainty.total_s", &u->total_s, 1);
	quantile_facts(r, "uncertainty.cost_usd", &u->cost_usd, u->has_cost);
	quantile_facts(r, "uncertainty.wall_s", &u->wall_s, u->has_wall);
	quantile_facts(r, "uncertainty.wall_usd", &u->wall_usd, u->has_wall && u->has_cost);
	put(r, col("price_low", g, REP_COL_SIG, REP_VIEW_TABLE, 0),
	    u->price_drawn ? val(u->price_low_usd_per_h) : null_cell);
	put(r, col("price_median", g, REP_COL_SIG, REP_VIEW_TABLE, 0),
	    u->price_drawn ? val(u->price_median_usd_per_h) : null_cell);
	put(r, col("price_high", g, REP_COL_SIG, REP_VIEW_TABLE, 0),
	    u->price_drawn ? val(u->price_high_usd_per_h) : null_cell);
	put(r, col("price_median_sourced", g, REP_COL_SIG, REP_VIEW_TABLE, 0),
	    val(u->price_median_sourced));
	put(r, col("p_deadline_wall", g, REP_COL_SIG, REP_VIEW_TABLE, 0),
	    u->has_deadline && u->has_wall ? val(u->p_deadline_wall) : null_cell);
	put(r, col("p_budget_wall", g, REP_COL_SIG, REP_VIEW_TABLE, 0),
	    u->has_budget && u->has_wall ? val(u->p_budget_wall) : null_cell);
	line(r, g, "samples", "", rep_est_unc_heading, &heading);
	line(r, "uncertainty.step_s", "p50", "step time", rep_est_unc_time, &quantiles);
	line(r, "uncertainty.total_s", "p50", "total time", rep_est_unc_total, &quantiles);
	line(r, "uncertainty.wall_s", "p50", "wall clock", rep_est_unc_time, &quantiles);
	line(r, "uncertainty.cost_usd", "p50", "cost (cheapest offer)", rep_est_unc_cost,
	     &quantiles);
	line(r, "uncertainty.wall_usd", "p50", "cost on the wall clock", rep_est_unc_cost,
	     &quantiles);
	line(r, g, "price_low", "spot price drawn", rep_est_unc_price, &price);
	line(r, g, "p_deadline", "probability of meeting the deadline at steady state",
	     rep_est_unc_chance, &note);
	line(r, g, "p_deadline_wall", "probability of meeting the deadline on the wall clock",
	     rep_est_unc_chance, &note);
	line(r, g, "p_budget", "probability of staying within the budget at steady state",
	     rep_est_unc_chance, &note);
	line(r, g, "p_budget_wall", "probability of staying within the budget on the wall clock",
	     rep_est_unc_chance, &note);
}

/* The table's warnings, a line each, under a heading when there are any. */
static void warning_lines(struct est_record *r, const struct estimate *e)
{
	if (e->warning_count)
		section(r, "Warnings:");
	for (int i = 0; i < e->warning_count; i++) {
		put(r, col("warning", "sheet", REP_COL_TEXT, REP_VIEW_TABLE, 0),
		    txt(e->warning[i]));
		r->cols[r->n - 1].title = "-";
		r->looks[r->n - 1] = &bullet;
	}
}

/* The fields of estimate *e into r, in JSON's order, or with the plan
 * right after the workload (plan_first: CSV's order). */
static void fields(struct est_record *r, int plan_first, const struct workload *w,
		   const struct gpu *g, const struct estimate *e, const struct run_cost *c)
{
	static const struct run_cost no_cost;
	memset(r, 0, sizeof(*r));
	head_fields(r, w, g, e);
	if (plan_first)
		plan_fields(r, w, &e->plan);
	result_fields(r, w, e);
	part_fields(r, e);
	campaign_fields(r, !c || c->unfit ? &e->campaign :
			   c->campaign_hopeless ? NULL : &c->campaign);
	if (!plan_first)
		plan_fields(r, w, &e->plan);
	put(r, jtext("efficiency_source", NULL), txt(g->eff.source));
	cost_fields(r, g, &w->plan, c ? c : &no_cost, c != NULL);
}

/* The lines of the table after the fields of r, and the facts only they
 * draw on: the table's order, whatever JSON's. */
static void table_lines(struct est_record *r, const struct workload *w, const struct gpu *g,
			const struct estimate *e, const struct run_cost *c,
			const struct unc_result *u)
{
	static const struct run_cost no_cost;
	header_facts(r, w, g, e);
	cost_facts(r, g, &w->plan, c ? c : &no_cost);
	header_lines(r);
	result_lines(r);
	if (u)
		uncertainty_lines(r, u);
	cost_lines(r);
	warning_lines(r, e);
}

/* Record r as rows of one row, into rows (which borrows r's columns). */
static void as_rows(struct rep_rows *rows, struct est_record *r)
{
	rep_rows_init(rows, r->cols, r->n);
	rep_rows_words(rows, r->words);
	rep_rows_add(rows, r->cells);
}

/* The record of estimate *e as rows, its fields in JSON's order or CSV's
 * (plan_first). */
static void build(struct rep_rows *rows, struct est_record *r, int plan_first,
		  const struct workload *w, const struct gpu *g, const struct estimate *e,
		  const struct run_cost *c)
{
	fields(r, plan_first, w, g, e, c);
	as_rows(rows, r);
}

int rep_estimate_csv(FILE *f, const struct workload *w, const struct gpu *g,
		     const struct estimate *e, const struct run_cost *c)
{
	struct est_record r;
	struct rep_rows rows;
	build(&rows, &r, 1, w, g, e, c);
	int rc = rep_record_print(&rows, f, "csv");
	rep_rows_release(&rows);
	return rc;
}

/* Where the step's time goes, a line per category that takes any: its
 * name (a word of the model's own, as it is), seconds and share of the
 * step in percent. */
static int md_breakdown(FILE *f, const struct estimate *e)
{
	static const struct rep_col cols[] = {
		REP_TEXT_COL("part", "time per step", REP_VIEW_ALL, 0),
		{ "time_s", "seconds", REP_COL_SIG, 0, 4, NULL, NULL, NULL, 0, 0, 0 },
		{ "share", "share", REP_COL_NUM, 0, 1, " %", NULL, NULL, 0, 0, 0 },
	};
	static const rep_word_fn words[] = { rep_est_name, NULL, NULL };
	struct rep_rows rows;
	rep_rows_init(&rows, cols, 3);
	rep_rows_words(&rows, words);
	for (int i = 0; i < BRK_COUNT; i++) {
		struct rep_cell v[3] = { txt(brk_names[i]), val(e->breakdown_s[i]),
					 val(100 * e->breakdown_s[i] / e->step_time_s) };
		if (e->breakdown_s[i] > 0)
			rep_rows_add(&rows, v);
	}
	int rc = rep_rows_print(&rows, f, "md");
	rep_rows_release(&rows);
	return rc;
}

int rep_estimate_md(FILE *f, const struct workload *w, const struct gpu *g,
		    const struct estimate *e, const struct run_cost *c)
{
	static const struct rep_record_look look = { "quantity", "value", REP_RIGHT };
	const struct plan *p = &e->plan;
	char t[REP_TITLE_LEN];
	struct est_record r;
	struct rep_rows rows;
	fprintf(f, "## %s\n\n", rep_title(t, w, "md"));
	fprintf(f, "%d x %s, ", p->count, rep_show(t, sizeof(t), g->name, "md"));
	if (w->kind == WL_LLM)
		fprintf(f, "tp %d, pp %d, dp %d, ZeRO %d, micro-batch %d sequence%s", p->tp,
			p->pp, p->dp, p->zero, p->micro_batch, p->micro_batch == 1 ? "" : "s");
	else /* data parallel only: the samples each GPU takes per step */
		fprintf(f, "data parallel %d, %.0f %s per GPU per step", p->dp,
			e->samples_per_step / p->dp, rep_sample_unit(rep_kind_name(w)));
	/* The software stack, as the table's header names it. */
	if (p->framework[0])
		fprintf(f, ", framework %s", rep_show(t, sizeof(t), p->framework, "md"));
	fputs("\n\n", f);
	build(&rows, &r, 0, w, g, e, c);
	int rc = rep_record_print_as(&rows, f, "md", &look);
	rep_rows_release(&rows);
	fputc('\n', f);
	return rc | md_breakdown(f, e) ? -1 : 0;
}

int rep_estimate_json(FILE *f, const struct workload *w, const struct gpu *g,
		      const struct estimate *e, const struct run_cost *c,
		      const struct unc_result *u)
{
	struct est_record r;
	struct rep_rows rows;
	struct rep_json j;
	build(&rows, &r, 0, w, g, e, c);
	rep_json_doc_begin(&j, f, "estimate");
	int rc = rep_record_json(&rows, &j, NULL);
	if (u)
		rep_unc_json(&j, "uncertainty", u);
	rep_json_arr_begin(&j, "warnings");
	for (int i = 0; i < e->warning_count; i++)
		rep_json_str(&j, NULL, e->warning[i]);
	rep_json_arr_end(&j);
	rep_json_obj_end(&j);
	rc |= rep_json_finish(&j);
	rep_rows_release(&rows);
	return rc ? -1 : 0;
}

int rep_estimate_table(FILE *f, const struct workload *w, const struct gpu *g,
		       const struct estimate *e, const struct run_cost *c,
		       const struct unc_result *u)
{
	struct est_record r;
	struct rep_rows rows;
	fields(&r, 0, w, g, e, c);
	table_lines(&r, w, g, e, c, u);
	as_rows(&rows, &r);
	int rc = rep_record_print_sheet(&rows, f, r.looks);
	rep_rows_release(&rows);
	return rc;
}

int rep_estimate(FILE *f, const char *fmt, const struct workload *w,
		 const struct gpu *g, const struct estimate *e, const struct run_cost *c,
		 const struct unc_result *u)
{
	if (!strcmp(fmt, "json"))
		return rep_estimate_json(f, w, g, e, c, u);
	if (!strcmp(fmt, "csv"))
		return rep_estimate_csv(f, w, g, e, c);
	if (!strcmp(fmt, "md"))
		return rep_estimate_md(f, w, g, e, c);
	return rep_estimate_table(f, w, g, e, c, u);
}
