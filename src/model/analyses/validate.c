/*
 * validate.c - running validation cases and their error statistics.
 */
#include "validate.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../families/llm.h"
#include "search.h"
#include "short_run.h"

double val_metric_value(enum val_metric m, const struct workload *w,
			const struct estimate *e)
{
	double B, s, L, h, V;

	switch (m) {
	case VAL_ITER_TIME:
		return e->step_time_s;
	case VAL_MEGATRON_TFLOPS:
		/* Narayanan et al. SC'21 sec. 5.1, with recompute; the
		 * loader takes it for language models only */
		assert(w->kind == WL_LLM);
		B = w->train.global_batch;
		s = w->train.seq_len;
		L = w->llm.layers;
		h = w->llm.hidden;
		V = w->llm.vocab;
		return 96 * B * s * L * h * h *
		       (1 + s / (6 * h) + V / (16 * L * h)) /
		       (e->step_time_s * e->plan.count);
	case VAL_MFU:
		return e->mfu_frac;
	case VAL_TOKENS_PER_S:
		return e->tokens_per_s;
	case VAL_SAMPLES_PER_S:
		return e->samples_per_s;
	case VAL_IMAGES_PER_S:
		return e->images_per_s;
	case VAL_METRIC_COUNT:
		break;
	}
	return 0;
}

/*
 * The estimate of case c on the resolved GPU rg into *e, and in *w the
 * workload it is of: the case's own, or, where its layout is not published,
 * the fastest that fits at its GPU count with tp, pp and micro-batch free
 * (what `traincost plan` would choose for a user who knows no more).
 */
static int estimate_case(const struct val_case *c, const struct gpu *rg,
			 struct est_workspace *ws, struct workload *w,
			 struct estimate *e, struct plan_problem *why)
{
	static const struct search_knobs layout = { .tp = 1, .pp = 1, .micro_batch = 1 };

	if (c->layout == VAL_LAYOUT_FASTEST)
		return search_best_at(&c->w, rg, c->w.plan.count, &layout, ws, w, e, why);
	*w = c->w;
	/* one step is compared, not the run: no run-length limit */
	return step_estimate_unbounded(&c->w, rg, ws, e, why);
}

/*
 * Case c on GPU g (as loaded: the case's stack is resolved here, as each
 * case is its own pair of GPU and stack) into *e and its metric into *predicted: the steady step,
 * or, for a figure averaged over a short run with its start-up inside,
 * what that run reports (a rate lower by short_run_rate_frac, a step time
 * longer by its inverse).
 */
static int predict(const struct val_case *c, const struct gpu *g, struct est_workspace *ws,
		   struct estimate *e, double *predicted, struct plan_problem *why)
{
	double frac;
	struct gpu rg;
	struct workload w;

	gpu_resolve(&rg, g, &c->stack, NULL);
	if (estimate_case(c, &rg, ws, &w, e, why))
		return -1;
	*predicted = val_metric_value(c->metric, &w, e);
	if (!(e->step_time_s > 0))
		return 0;
	frac = short_run_rate_frac(&c->figure, e->step_time_s, SHORT_RUN_STARTUP_S);
	if (c->metric == VAL_ITER_TIME)
		*predicted /= frac;
	else
		*predicted *= frac;
	return 0;
}

int val_predict(const struct val_case *c, const struct gpu *g,
		struct est_workspace *ws, double *predicted,
		struct plan_problem *why)
{
	struct estimate e;
	return predict(c, g, ws, &e, predicted, why);
}

int val_run(const struct val_case *cases, size_t n, const char *family,
	    size_t stride, size_t phase, val_gpu_fn gpu_for, void *ctx,
	    struct val_result *res, size_t *nres)
{
	struct est_workspace ws;
	struct gpu g;
	char gid[GPU_ID_LEN] = "";
	int have = 0;
	size_t i, k = 0;

	if (est_workspace_init(&ws, EST_MAX_OPS))
		return -1;
	for (i = 0; i < n; i++) {
		const struct val_case *c = &cases[i];
		struct val_result *r = &res[k];
		struct plan_problem why;

		if (family && family[0] && strcmp(family, c->family))
			continue;
		if (stride > 1 && i % stride != phase)
			continue;
		memset(r, 0, sizeof(*r));
		r->index = i;
		r->measured = c->measured;
		k++;
		if (!have || strcmp(gid, c->gpu_id)) {
			have = gpu_for(c->gpu_id, &g, ctx) == 0;
			snprintf(gid, sizeof(gid), "%s", c->gpu_id);
		}
		if (!have) {
			snprintf(r->msg, sizeof(r->msg), "unknown GPU '%s'",
				 c->gpu_id);
			continue;
		}
		struct estimate e;
		if (predict(c, &g, &ws, &e, &r->predicted, &why)) {
			snprintf(r->msg, sizeof(r->msg), "%s", why.msg);
			continue;
		}
		r->fits = e.fits;
		r->mem_bytes = e.memory_per_gpu_bytes;
		r->capacity_bytes = e.memory_capacity_bytes;
		r->ok = c->measured > 0;
		if (!r->ok) {
			snprintf(r->msg, sizeof(r->msg),
				 "measured value is not positive");
			continue;
		}
		r->err_frac = (r->predicted - c->measured) / c->measured;
	}
	est_workspace_release(&ws);
	*nres = k;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int val_stats_compute(const struct val_result *res, size_t n,
		      struct val_stats *st)
{
	double *ape;
	size_t i, k = 0;

	memset(st, 0, sizeof(*st));
	ape = malloc((n ? n : 1) * sizeof(*ape));
	if (!ape)
		return -1;
	for (i = 0; i < n; i++) {
		double a;
		if (!res[i].ok) {
			st->failed++;
			continue;
		}
		a = fabs(res[i].err_frac);
		ape[k++] = a;
		st->mape += a;
		st->bias += res[i].err_frac;
		if (a > st->worst_ape || k == 1) {
			st->worst_ape = a;
			st->worst = i;
		}
	}
	st->n = k;
	if (k) {
		st->mape /= k;
		st->bias /= k;
		qsort(ape, k, sizeof(*ape), cmp_double);
		st->median_ape = k % 2 ? ape[k / 2] :
			0.5 * (ape[k / 2 - 1] + ape[k / 2]);
	}
	free(ape);
	return 0;
}
