/*
 * val_groups.c - validation statistics per group of cases, and the error of
 * predicted speed ratios between GPU types.
 */
#include "val_groups.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int val_group_by(const struct val_case *cases, const struct val_result *res, size_t n,
		 val_key_fn key, struct val_group **out)
{
	struct val_group *g = calloc(n ? n : 1, sizeof(*g));
	struct val_result *sub = malloc((n ? n : 1) * sizeof(*sub));
	size_t *where = malloc((n ? n : 1) * sizeof(*where));
	int ng = 0;

	if (!g || !sub || !where)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		const char *k = key(&cases[res[i].index]);
		int j;
		if (!k[0])
			continue;
		for (j = 0; j < ng; j++)
			if (!strcmp(g[j].key, k))
				break;
		if (j < ng)
			continue;
		size_t m = 0;
		for (size_t r = i; r < n; r++)
			if (!strcmp(key(&cases[res[r].index]), k)) {
				where[m] = r;
				sub[m++] = res[r];
			}
		g[ng].key = k;
		if (val_stats_compute(sub, m, &g[ng].st))
			goto fail;
		g[ng].worst_result = where[g[ng].st.worst];
		ng++;
	}
	free(sub);
	free(where);
	*out = g;
	return ng;
fail:
	free(g);
	free(sub);
	free(where);
	return -1;
}

double val_speed_factor(const struct val_case *c, const struct val_result *r)
{
	double f = 1 + r->err_frac;
	return c->metric == VAL_ITER_TIME ? 1 / f : f;
}

/* The measured speed per GPU of a case in units that two cases of one
 * benchmark share: the rate itself, or sequences per second from a step
 * time, over the GPUs of the run (runs of one benchmark often differ in
 * GPU count). */
static double measured_rate(const struct val_case *c, double measured)
{
	double gpus = c->w.plan.count > 0 ? c->w.plan.count : 1;
	switch (c->metric) {
	case VAL_TOKENS_PER_S:
	case VAL_SAMPLES_PER_S:
	case VAL_IMAGES_PER_S:
		return measured / gpus;
	case VAL_ITER_TIME:
		return c->w.train.global_batch > 0 && measured > 0 ?
		       c->w.train.global_batch / measured / gpus : 0;
	default:
		return 0;
	}
}

static double measured_ratio(const struct val_case *a, const struct val_result *ra,
			     const struct val_case *b, const struct val_result *rb)
{
	if (a->metric != b->metric)
		return 0;
	double sa = measured_rate(a, ra->measured), sb = measured_rate(b, rb->measured);
	return sa > 0 && sb > 0 ? sa / sb : 0;
}

int val_ratios(const struct val_case *cases, const struct val_result *res, size_t n,
	       val_key_fn pair, struct val_ratio **out, size_t *count)
{
	size_t cap = 16, k = 0;
	struct val_ratio *r = malloc(cap * sizeof(*r));

	if (!r)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct val_case *a = &cases[res[i].index];
		const char *key = pair(a);
		if (!res[i].ok || !key[0])
			continue;
		for (size_t j = i + 1; j < n; j++) {
			const struct val_case *b = &cases[res[j].index];
			if (!res[j].ok || strcmp(pair(b), key) || !strcmp(a->gpu_id, b->gpu_id))
				continue;
			if (k == cap) {
				struct val_ratio *p = realloc(r, 2 * cap * sizeof(*r));
				if (!p) {
					free(r);
					return -1;
				}
				r = p;
				cap *= 2;
			}
			r[k].a = i;
			r[k].b = j;
			r[k].err_frac = val_speed_factor(a, &res[i]) / val_speed_factor(b, &res[j]) - 1;
			r[k].measured = measured_ratio(a, &res[i], b, &res[j]);
			k++;
		}
	}
	*out = r;
	*count = k;
	return 0;
}

int val_ratio_stats(const struct val_ratio *r, size_t n, struct val_stats *st)
{
	struct val_result *as = malloc((n ? n : 1) * sizeof(*as));

	if (!as)
		return -1;
	for (size_t i = 0; i < n; i++) {
		memset(&as[i], 0, sizeof(as[i]));
		as[i].index = i;
		as[i].ok = 1;
		as[i].err_frac = r[i].err_frac;
	}
	int rc = val_stats_compute(as, n, st);
	free(as);
	return rc;
}
