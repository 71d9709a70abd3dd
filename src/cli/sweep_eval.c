/*
 * sweep_eval.c - the worker threads of `traincost sweep`: each takes the
 * next chunk of rows, evaluates every configuration (workload, GPU,
 * estimate, cheapest offer) and formats its row into a slot for the
 * writer (sweep_eval.h).
 */
#include "sweep_eval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../io/fw_load.h"
#include "../model/families/llm.h"
#include "../model/analyses/search.h"
#include "../report/estimate_report.h"
#include "../report/layout_text.h"
#include "../report/rowfmt.h"
#include "money.h"

/* The GPU entry of `id`, or NULL when not resolved up front. */
const struct gpu_entry *sweep_find_gpu(const struct run *R, const char *id)
{
	for (size_t i = 0; i < R->ngpus; i++)
		if (!strcmp(R->gpus[i].g.id, id))
			return &R->gpus[i];
	return NULL;
}

/* Per-thread scratch. */
struct worker {
	struct est_workspace ws;
	struct workload w;
	long w_base;          /* the cached base w holds, or -1 */
	struct workload auto_w; /* layout: auto: w with the layout chosen */
	struct estimate e;
	struct gpu g;         /* for GPUs outside the cache */
	/* Each GPU of the sweep resolved for the stack of the last row that ran
	 * on it (gpu_resolve), R->ngpus of them in the order of R->gpus, then
	 * one for a GPU outside the cache; owned. */
	struct gpu *resolved;
};

/* GPU g (entry ge of the sweep's, or NULL) resolved for the stack W->w
 * names: again only when the stack, or the GPU outside the cache, differs
 * from the last row's on that GPU (rows of a sweep mostly share the
 * stack).  NULL, with the reason in `reason`, when the profile is missing. */
static const struct gpu *row_resolved(const struct run *R, struct worker *W, const struct gpu *g,
				      const struct gpu_entry *ge, char *reason, size_t len)
{
	struct gpu *r = &W->resolved[ge ? (size_t)(ge - R->gpus) : R->ngpus];
	if (strcmp(r->id, g->id) || strcmp(r->stack.id, W->w.plan.framework)) {
		struct eff_stack stack;
		struct tc_diag d;
		tc_diag_init(&d);
		if (fw_stack(sweep_datapath(R->sw, R->dp), W->w.plan.framework, &stack, &d)) {
			snprintf(reason, len, "%s", d.count ? d.entry[0].msg : "framework not read");
			r->id[0] = '\0'; /* resolved for nothing */
			return NULL;
		}
		gpu_resolve(r, g, &stack, R->cal);
	}
	return r;
}

/* Cheapest offer over `tables` for provider filter `prov`, on instances of
 * at least a node of the plan (or the whole job when it is smaller). */
static int price_row(const struct price_table *t, size_t n, const char *prov,
		     const char *gpu, enum cost_kind kind, double gpus, double node,
		     double run_s, struct cost_range *out)
{
	double shape = gpus < node ? gpus : node;
	if (!prov || !prov[0])
		return cost_range_shaped(t, n, gpu, kind, gpus, shape, run_s, out);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].provider, prov))
			return cost_range_shaped(&t[i], 1, gpu, kind, gpus, shape, run_s, out);
	return -1;
}

/* "does not fit: needs 129.3 GB per GPU of 80.0 GB", without snprintf
 * (a third of the rows of a wide sweep take this path). */
static void no_fit_reason(char *p, const struct estimate *e)
{
	static const char a[] = "does not fit: needs ", b[] = " GB per GPU of ";
	size_t len = sizeof(a) - 1;

	memcpy(p, a, len);
	len += (size_t)rowfmt_fixed1(p + len, e->memory_per_gpu_bytes / 1e9);
	memcpy(p + len, b, sizeof(b) - 1);
	len += sizeof(b) - 1;
	/* The memory it may fill: the capacity less --memory-headroom. */
	len += (size_t)rowfmt_fixed1(p + len, e->memory_usable_bytes / 1e9);
	memcpy(p + len, " GB", 4);
}

/* What one configuration gave, beyond the estimate the worker holds. */
struct outcome {
	int ok;                       /* an estimate: W->e */
	int priced;                   /* an offer: cr.cheapest */
	struct cost_range cr;
	double cost_usd;              /* the cheapest offer billed on the run's basis */
	const struct workload *used;  /* the workload W->e ran (layout: auto: its choice) */
	char reason[512];             /* why a value is missing, or "" */
};

/* The GPU of workload W->w (from the sweep's own, or the catalog into
 * W->g) into *g and *ge (NULL when not one of the sweep's).  Returns 0, or
 * 1 with the reason in o. */
static int row_gpu(struct run *R, struct worker *W, const struct gpu **g,
		   const struct gpu_entry **ge, struct outcome *o)
{
	*ge = NULL;
	if (!W->w.plan.gpu[0]) {
		snprintf(o->reason, sizeof(o->reason),
			 "no GPU chosen (expected plan.gpu in the base or in vary)");
		return 1;
	}
	if ((*ge = sweep_find_gpu(R, W->w.plan.gpu))) {
		*g = &(*ge)->g;
		return 0;
	}
	if (gpu_catalog_lookup(R->cat, W->w.plan.gpu, &W->g, o->reason, sizeof(o->reason)))
		return 1;
	*g = &W->g;
	return 0;
}

/* The estimate of workload W->w on g into W->e, with the layout the
 * sweep asks for.  Returns 0, or 1 with the reason in o. */
static int row_estimate(const struct sweep *sw, struct worker *W, const struct gpu *g,
			struct outcome *o)
{
	struct plan_problem why = { WLF_NONE, "" };
	int rc;
	o->used = &W->w;
	if (sw->layout_auto) {
		/* The same search as compare at this count (search.h). */
		struct search_knobs kn;
		search_knobs_all(&kn);
		rc = search_best_at(&W->w, g, W->w.plan.count, &kn, &W->ws, &W->auto_w, &W->e, &why);
		o->used = &W->auto_w;
	} else {
		rc = step_estimate_brief(&W->w, g, &W->ws, &W->e, &why);
	}
	if (rc)
		snprintf(o->reason, sizeof(o->reason), "%s", why.msg);
	return rc != 0;
}

/* The cheapest offer for estimate e of a run on g, or why there is none,
 * into o. */
static void row_price(const struct run *R, const struct gpu *g, const struct gpu_entry *ge,
		      const struct sweep_pricing *pr, const struct estimate *e, struct outcome *o)
{
	memset(&o->cr, 0, sizeof(o->cr)); /* read for the reason even when no table matched */
	if (!e->fits) {
		no_fit_reason(o->reason, e);
		return;
	}
	/* billed for the expected wall clock, spare nodes paid on top, unless
	 * --steady-state (money_judged_usd, for the workload's own campaign) */
	double run_s = R->steady_state ? e->total_time_s : e->campaign.wall_s;
	if (ge)
		o->priced = price_row(ge->tables, ge->ntables, pr->provider, g->id, pr->kind,
				      e->plan.count, e->plan.gpus_per_node, run_s, &o->cr) == 0;
	else
		o->priced = price_row(R->prices->tables, R->prices->count, pr->provider, g->id,
				      pr->kind, e->plan.count, e->plan.gpus_per_node, run_s,
				      &o->cr) == 0;
	o->cost_usd = o->priced ? o->cr.cheapest.run.cost_usd *
				  (R->steady_state ? 1 : 1 + e->campaign.in.spare_frac) : 0;
	if (!o->priced) {
		char why_text[REP_UNPRICED_LEN];
		snprintf(o->reason, sizeof(o->reason), "%s%s%s",
			 rep_unpriced(why_text, &o->cr, pr->kind, g->id, e->plan.count),
			 pr->provider[0] ? " from " : "", pr->provider);
	}
}

/* Stop the run on an internal error in configuration `row`. */
static int row_failed(struct run *R, uint64_t row)
{
	pthread_mutex_lock(&R->mu);
	snprintf(R->fail_msg, sizeof(R->fail_msg),
		 "internal error: non-finite result in configuration %llu", (unsigned long long)row);
	pthread_mutex_unlock(&R->mu);
	return -1;
}

/* Evaluate configuration `row` (its index di) into o and W->e.  Returns
 * 0, or -1 on an internal error (message in R->fail_msg under the lock). */
static int eval_config(struct run *R, struct worker *W, uint64_t row, const size_t *di,
		       struct outcome *o)
{
	const struct gpu *g = NULL;
	const struct gpu_entry *ge = NULL;
	struct sweep_pricing pr;
	const struct estimate *e = &W->e;

	memset(o, 0, sizeof(*o));
	int rc = sweep_row_workload(R->sw, di, R->dp, &W->w, &W->w_base, &pr, o->reason,
				    sizeof(o->reason));
	if (rc < 0)
		return -1;
	W->w.plan.memory_headroom_frac = R->memory_headroom_frac;
	if (rc || row_gpu(R, W, &g, &ge, o))
		return 0;
	if (!(g = row_resolved(R, W, g, ge, o->reason, sizeof(o->reason))))
		return 0;
	if (row_estimate(R->sw, W, g, o))
		return 0;
	const double v[] = { e->step_time_s, e->total_time_s, e->gpu_hours, e->mfu_frac,
			     e->memory_per_gpu_bytes };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!isfinite(v[i]))
			return row_failed(R, row);
	o->ok = 1;
	row_price(R, g, ge, &pr, e, o);
	return 0;
}

/* --plot: the chosen metric of row `row`, in the unit of its column
 * (times in seconds: the chart picks their unit); only runs that fit
 * have one. */
static void plot_value(struct run *R, uint64_t row, const struct estimate *e,
		       const struct outcome *o)
{
	const double v[] = { e->total_time_s, e->step_time_s, e->gpu_hours,
			     100 * e->mfu_frac, e->memory_per_gpu_bytes / 1e9,
			     o->priced ? o->cost_usd : 0 };
	uint64_t i = (row - R->shard_k) / R->shard_n;
	int metric = R->plot_metric == SWEEP_PLOT_DEFAULT ? SWEEP_PLOT_COST : R->plot_metric;
	int fits = o->ok && e->fits;
	R->plot_have[i] = fits && (metric != SWEEP_PLOT_COST || o->priced) ? SWEEP_PLOT_HAVE_Y : 0;
	R->plot_y[i] = R->plot_have[i] ? v[metric] : 0;
	if (R->plot_time && fits) {
		R->plot_have[i] |= SWEEP_PLOT_HAVE_TIME;
		R->plot_time[i] = e->total_time_s;
	}
}

/* Append one configuration's row to b.  Returns 0, or -1 on an internal
 * error (message in R->fail_msg under the lock). */
static int eval_row(struct run *R, struct worker *W, uint64_t row, int first,
		    struct rep_buf *b)
{
	const struct sweep *sw = R->sw;
	size_t di[SWEEP_MAX_KEYS];
	struct rep_cell c[SWEEP_MAX_COLS];
	struct sweep_words words;
	struct outcome o;
	char lay[96];
	int n = 0;

	sweep_row_index(sw, row, di);
	if (eval_config(R, W, row, di, &o))
		return -1;
	if (R->plot_y)
		plot_value(R, row, &W->e, &o);
	c[n++] = (struct rep_cell){ .num = (double)row };
	for (int k = 0; k < sw->nkeys; k++)
		c[n++] = (struct rep_cell){ .text = sweep_value_text(sw, k, di) };
	const struct sweep_result res = { o.ok ? &W->e : NULL, o.priced ? &o.cr.cheapest : NULL,
					  o.cost_usd, rep_basis_name(R->steady_state), o.reason };
	sweep_result_cells(c + n, &res, rep_stream_words(&R->st), &words);
	n += SR_COLS;
	if (sw->layout_auto)
		c[n++] = (struct rep_cell){ .text = o.ok ? rep_layout_text(lay, sizeof(lay), o.used,
									    &W->e, rep_stream_words(&R->st))
							  : NULL,
					    .missing = !o.ok };
	if (R->calibration[0])
		c[n++] = (struct rep_cell){ .text = R->calibration };
	if (R->st.fmt == REP_STREAM_JSON && !first)
		rep_buf_put(b, ",\n", 2);
	return rep_stream_row(&R->st, c, b) ? row_failed(R, row) : 0;
}

/* Evaluate chunk c into slot s.  Returns 0 or -1. */
static int eval_chunk(struct run *R, struct worker *W, uint64_t c, struct slot *s)
{
	uint64_t first = c * CHUNK_ROWS;
	uint64_t last = first + CHUNK_ROWS;
	if (last > R->nrows)
		last = R->nrows;
	s->len = 0;
	for (uint64_t i = first; i < last; i++) {
		if (s->cap - s->len < ROW_MAX_BYTES) {
			size_t nc = s->cap ? 2 * s->cap : (size_t)CHUNK_ROWS * 256;
			char *nb = realloc(s->buf, nc);
			if (!nb)
				return -1;
			s->buf = nb;
			s->cap = nc;
		}
		struct rep_buf b = { s->buf + s->len, 0, ROW_MAX_BYTES };
		if (eval_row(R, W, R->shard_k + i * R->shard_n, i == 0, &b))
			return -1;
		s->len += b.len;
	}
	return 0;
}

void *sweep_worker_main(void *arg)
{
	struct run *R = arg;
	struct worker *W = calloc(1, sizeof(*W));
	if (W) {
		W->w_base = -1;
		W->resolved = calloc(R->ngpus + 1, sizeof(*W->resolved));
	}
	if (!W || !W->resolved || est_workspace_init(&W->ws, EST_MAX_OPS)) {
		if (W)
			free(W->resolved);
		free(W);
		pthread_mutex_lock(&R->mu);
		R->failed = 1;
		pthread_cond_broadcast(&R->cv);
		pthread_mutex_unlock(&R->mu);
		return NULL;
	}
	for (;;) {
		pthread_mutex_lock(&R->mu);
		/* Wait until the next chunk's slot has been written out. */
		while (!R->failed && R->next_chunk < R->nchunks &&
		       R->next_chunk >= R->written + (uint64_t)R->nslots)
			pthread_cond_wait(&R->cv, &R->mu);
		uint64_t c = R->next_chunk;
		if (R->failed || c >= R->nchunks) {
			pthread_mutex_unlock(&R->mu);
			break;
		}
		R->next_chunk++;
		struct slot *s = &R->slots[c % (uint64_t)R->nslots];
		pthread_mutex_unlock(&R->mu);
		int rc = eval_chunk(R, W, c, s);
		pthread_mutex_lock(&R->mu);
		if (rc)
			R->failed = 1;
		s->chunk = c;
		s->ready = 1;
		pthread_cond_broadcast(&R->cv);
		pthread_mutex_unlock(&R->mu);
		if (rc)
			break;
	}
	est_workspace_release(&W->ws);
	free(W->resolved);
	free(W);
	return NULL;
}
