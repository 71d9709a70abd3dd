/*
 * sweep_eval.c - the worker threads of `traincost sweep`: each takes the
 * next chunk of rows, evaluates every configuration (workload, GPU,
 * estimate, cheapest offer) and formats its row into a slot for the
 * writer (sweep_run.h).
 */
#include "sweep_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/llm.h"
#include "../model/search.h"
#include "../report/estimate_report.h"
#include "../report/layout_text.h"
#include "../report/rowfmt.h"

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
};

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
	len += (size_t)rowfmt_fixed1(p + len, e->memory_capacity_bytes / 1e9);
	memcpy(p + len, " GB", 4);
}

/* Append one configuration's row to rb.  Returns 0, or -1 on an internal
 * error (message in R->fail_msg under the lock). */
static int eval_row(struct run *R, struct worker *W, uint64_t row, int first,
		    struct rowbuf *rb)
{
	const struct sweep *sw = R->sw;
	size_t di[SWEEP_MAX_KEYS];
	char reason[512] = "";
	struct sweep_pricing pr;
	char cfg[ROWFMT_MAX];
	int cfg_len;

	sweep_row_index(sw, row, di);
	rb->col = 0;
	if (rb->fmt == FMT_JSON)
		cells_put(rb, first ? "{" : ",\n{", first ? 1 : 3);
	cfg_len = rowfmt_u64(cfg, row);
	if (rb->fmt == FMT_JSON) {
		cells_put(rb, "\"config\":", 9);
		cells_put(rb, cfg, (size_t)cfg_len);
		cells_put(rb, ",\"inputs\":{", 11);
		rb->col = 0;
	} else {
		cells_plain(rb, "config", cfg, (size_t)cfg_len);
	}
	for (int k = 0; k < sw->nkeys; k++)
		cells_text(rb, sw->key[k].path, sweep_value_text(sw, k, di));
	if (rb->fmt == FMT_JSON) {
		cells_putc(rb, '}');
		rb->col = 1;
	}

	int rc = sweep_row_workload(sw, di, R->dp, &W->w, &W->w_base, &pr, reason,
				    sizeof(reason));
	if (rc < 0)
		return -1;
	const struct gpu *g = NULL;
	const struct gpu_entry *ge = NULL;
	if (!rc) {
		if (!W->w.plan.gpu[0]) {
			snprintf(reason, sizeof(reason),
				 "no GPU chosen (expected plan.gpu in the base or in vary)");
			rc = 1;
		} else if ((ge = sweep_find_gpu(R, W->w.plan.gpu))) {
			g = &ge->g;
		} else if (gpu_catalog_lookup(R->cat, W->w.plan.gpu, &W->g, reason, sizeof(reason))) {
			rc = 1;
		} else {
			g = &W->g;
		}
	}
	struct plan_problem why = { WLF_NONE, "" };
	const struct workload *used = &W->w;
	if (!rc && sw->layout_auto) {
		/* The same search as compare at this count (search.h). */
		struct search_knobs kn;
		search_knobs_all(&kn);
		if (search_best_at(&W->w, g, W->w.plan.count, &kn, &W->ws, &W->auto_w, &W->e, &why)) {
			snprintf(reason, sizeof(reason), "%s", why.msg);
			rc = 1;
		}
		used = &W->auto_w;
	} else if (!rc && step_estimate_brief(&W->w, g, &W->ws, &W->e, &why)) {
		snprintf(reason, sizeof(reason), "%s", why.msg);
		rc = 1;
	}
	const struct estimate *e = &W->e;
	int ok = !rc;
	if (ok) {
		const double v[] = { e->step_time_s, e->total_time_s, e->gpu_hours,
				     e->mfu_frac, e->memory_per_gpu_bytes };
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
			if (!isfinite(v[i])) {
				pthread_mutex_lock(&R->mu);
				snprintf(R->fail_msg, sizeof(R->fail_msg),
					 "internal error: non-finite result in configuration %llu",
					 (unsigned long long)row);
				pthread_mutex_unlock(&R->mu);
				return -1;
			}
	}
	struct cost_range cr;
	int priced = 0;
	memset(&cr, 0, sizeof(cr)); /* read for the reason even when no table matched */
	if (ok && e->fits) {
		if (ge)
			priced = price_row(ge->tables, ge->ntables, pr.provider, g->id, pr.kind,
					   e->plan.count, e->plan.gpus_per_node, e->total_time_s,
					   &cr) == 0;
		else
			priced = price_row(R->prices->tables, R->prices->count, pr.provider, g->id,
					   pr.kind, e->plan.count, e->plan.gpus_per_node,
					   e->total_time_s, &cr) == 0;
		if (!priced) {
			char why_text[REP_UNPRICED_LEN];
			snprintf(reason, sizeof(reason), "%s%s%s",
				 rep_unpriced(why_text, &cr, pr.kind, g->id, e->plan.count),
				 pr.provider[0] ? " from " : "", pr.provider);
		}
	} else if (ok) {
		no_fit_reason(reason, e);
	}
	cells_num(rb, "step_time_s", e->step_time_s, ok);
	cells_num(rb, "total_time_s", e->total_time_s, ok);
	cells_num(rb, "gpu_hours", e->gpu_hours, ok);
	cells_num(rb, "mfu_frac", e->mfu_frac, ok);
	cells_num(rb, "memory_per_gpu_bytes", e->memory_per_gpu_bytes, ok);
	cells_bool(rb, "fits", e->fits, ok);
	cells_text(rb, "limiting", ok ? limiter_names[e->limiting] : "");
	cells_text(rb, "provider", priced ? cr.cheapest.table->provider : "");
	cells_text(rb, "instance", priced ? cr.cheapest.offer->instance : "");
	cells_text(rb, "region", priced ? cr.cheapest.offer->region : "");
	cells_num(rb, "cost_usd", priced ? cr.cheapest.run.cost_usd : 0, priced);
	cells_text(rb, "reason", reason);
	if (R->plot_y) {
		/* In the units of plot_metric_labels; only runs that fit. */
		const double v[] = { e->total_time_s / 86400, e->step_time_s, e->gpu_hours,
				     100 * e->mfu_frac, e->memory_per_gpu_bytes / 1e9,
				     priced ? cr.cheapest.run.cost_usd : 0 };
		uint64_t i = (row - R->shard_k) / R->shard_n;
		R->plot_have[i] = ok && e->fits && (R->plot_metric != 5 || priced);
		R->plot_y[i] = R->plot_have[i] ? v[R->plot_metric] : 0;
	}
	if (sw->layout_auto) {
		char lay[96];
		cells_text(rb, "layout", ok ? rep_layout_text(lay, sizeof(lay), used, e) : "");
	}
	if (R->calibration[0])
		cells_text(rb, "calibration", R->calibration);
	if (rb->fmt == FMT_JSON)
		cells_putc(rb, '}');
	else if (rb->fmt == FMT_MD)
		cells_put(rb, " |\n", 3);
	else
		cells_putc(rb, '\n');
	return 0;
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
		struct rowbuf rb = { s->buf + s->len, 0, ROW_MAX_BYTES, 0, R->fmt };
		if (eval_row(R, W, R->shard_k + i * R->shard_n, i == 0, &rb))
			return -1;
		s->len += rb.len;
	}
	return 0;
}

void *sweep_worker_main(void *arg)
{
	struct run *R = arg;
	struct worker *W = calloc(1, sizeof(*W));
	if (W)
		W->w_base = -1;
	if (!W || est_workspace_init(&W->ws, LLM_MAX_OPS)) {
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
	free(W);
	return NULL;
}
