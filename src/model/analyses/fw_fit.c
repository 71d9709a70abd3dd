/*
 * fw_fit.c - fitting stack_frac per framework, and cross-validating it.
 */
#include "fw_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>

#include "../families/llm.h"

#define STACK_LO 0.05
#define STACK_HI 1.0

/* The runs of one framework under a trial stack_frac. */
struct fit_ctx {
	struct val_case *cases;
	const size_t *idx;      /* the framework's used cases */
	size_t n;
	const struct gpu *gpus; /* one per entry of idx */
	struct est_workspace *ws;
};

static double log_speed_error(const struct val_case *c, double predicted)
{
	double r = predicted / c->measured;
	return c->metric == VAL_ITER_TIME ? -log(r) : log(r);
}

static void set_stack(struct val_case *c, double s)
{
	c->stack.value[eff_id_stack_frac] = s;
	c->stack.set |= 1ULL << eff_id_stack_frac;
}

/* Sum of squared log speed errors at stack_frac s (a failed estimate
 * counts as a large error so the minimiser keeps away from it). */
static double sse(double s, void *p)
{
	struct fit_ctx *F = p;
	double sum = 0;
	for (size_t k = 0; k < F->n; k++) {
		struct val_case *c = &F->cases[F->idx[k]];
		struct plan_problem why;
		double pred;
		set_stack(c, s);
		if (val_predict(c, &F->gpus[k], F->ws, &pred, &why) || !(pred > 0)) {
			sum += 100;
			continue;
		}
		double e = log_speed_error(c, pred);
		sum += e * e;
	}
	return sum;
}

/* Minimise sse over [STACK_LO, STACK_HI]; a minimum at the upper end is
 * taken there (the stack is no slower than the defaults). */
static double minimise(struct fit_ctx *F, double *best_sse)
{
	gsl_function fn = { sse, F };
	double lo = STACK_LO, hi = STACK_HI, x = 0.7;
	double fl = sse(lo, F), fh = sse(hi, F), fx = sse(x, F);
	/* Brent needs a bracketed minimum: fall back to a scan otherwise. */
	if (!(fx < fl && fx < fh)) {
		double bx = fl < fh ? lo : hi, bf = fl < fh ? fl : fh;
		for (double t = 0.1; t < 1.0; t += 0.05) {
			double ft = sse(t, F);
			if (ft < bf) {
				bf = ft;
				bx = t;
			}
		}
		if (bx <= lo || bx >= hi) {
			*best_sse = bf;
			return bx;
		}
		x = bx;
		fx = bf;
		lo = fmax(STACK_LO, bx - 0.05);
		hi = fmin(STACK_HI, bx + 0.05);
		if (!(fx < sse(lo, F) && fx < sse(hi, F))) {
			*best_sse = fx;
			return x;
		}
	}
	gsl_min_fminimizer *m = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
	if (!m) {
		*best_sse = fx;
		return x;
	}
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	if (gsl_min_fminimizer_set(m, &fn, x, lo, hi) == GSL_SUCCESS) {
		for (int it = 0; it < 60; it++) {
			if (gsl_min_fminimizer_iterate(m) != GSL_SUCCESS)
				break;
			double a = gsl_min_fminimizer_x_lower(m), b = gsl_min_fminimizer_x_upper(m);
			if (gsl_min_test_interval(a, b, 1e-4, 0) == GSL_SUCCESS)
				break;
		}
		x = gsl_min_fminimizer_x_minimum(m);
	}
	gsl_set_error_handler(old);
	gsl_min_fminimizer_free(m);
	*best_sse = sse(x, F);
	return x;
}

int fw_fit_stack(struct val_case *cases, size_t n, const unsigned char *use,
		 val_gpu_fn gpu_for, void *ctx, struct fw_fit *out, size_t max)
{
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	struct gpu *gpus = malloc((n ? n : 1) * sizeof(*gpus));
	struct est_workspace ws;
	size_t nf = 0;
	int rc = -1;

	if (!idx || !gpus || est_workspace_init(&ws, EST_MAX_OPS)) {
		free(idx);
		free(gpus);
		return -1;
	}
	for (size_t i = 0; i < n && nf < max; i++) {
		const char *id = cases[i].framework;
		if (!id[0] || !use[i] || cases[i].sanity_only)
			continue;
		size_t j;
		for (j = 0; j < nf; j++)
			if (!strcmp(out[j].id, id))
				break;
		if (j < nf)
			continue;
		struct fit_ctx F = { cases, idx, 0, gpus, &ws };
		for (size_t k = i; k < n; k++)
			if (use[k] && !cases[k].sanity_only && !strcmp(cases[k].framework, id) &&
			    gpu_for(cases[k].gpu_id, &gpus[F.n], ctx) == 0)
				idx[F.n++] = k;
		struct fw_fit *f = &out[nf++];
		snprintf(f->id, sizeof(f->id), "%s", id);
		f->n = F.n;
		double best = 0;
		f->stack_frac = F.n ? minimise(&F, &best) : 1.0;
		f->raw_stack_frac = f->stack_frac;
		f->prior_runs = 0;
		f->rms_log = F.n ? sqrt(best / (double)F.n) : 0;
		for (size_t k = 0; k < n; k++)
			if (!strcmp(cases[k].framework, id))
				set_stack(&cases[k], f->stack_frac);
	}
	rc = (int)nf;
	est_workspace_release(&ws);
	free(idx);
	free(gpus);
	return rc;
}

const char *fw_source_group(const struct val_case *c, char *buf, size_t len)
{
	const char *at = strstr(c->source, " @ ");
	size_t k;
	if (at) {
		k = (size_t)(at - c->source);
	} else {
		const char *sp = strchr(c->source, ' ');
		sp = sp ? strchr(sp + 1, ' ') : NULL;
		k = sp ? (size_t)(sp - c->source) : strlen(c->source);
	}
	snprintf(buf, len, "%.*s", (int)k, c->source);
	return buf;
}

/* The family of framework `id` among the used cases, or NULL. */
static const char *family_of(const struct val_case *cases, size_t n, const unsigned char *use,
			     const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (use[i] && !strcmp(cases[i].framework, id))
			return cases[i].family;
	return NULL;
}

/*
 * The pooled fit of each family: one stack_frac for every used run that
 * names a framework, each keeping its profile's other keys.  pf receives
 * one entry per family, id "pool-FAMILY".  Returns their number, or -1.
 */
static int fit_pools(const struct val_case *cases, size_t n, const unsigned char *use,
		     val_gpu_fn gpu_for, void *ctx, struct fw_fit *pf)
{
	struct val_case *pool = malloc((n ? n : 1) * sizeof(*pool));
	if (!pool)
		return -1;
	memcpy(pool, cases, n * sizeof(*pool));
	for (size_t i = 0; i < n; i++)
		if (pool[i].framework[0]) {
			snprintf(pool[i].framework, sizeof(pool[i].framework), "pool-%s",
				 pool[i].family);
			pool[i].stack.set &= ~(1ULL << eff_id_stack_frac);
		}
	int np = fw_fit_stack(pool, n, use, gpu_for, ctx, pf, FW_FIT_MAX);
	free(pool);
	return np;
}

/* The pooled fit of `family` in pf, or NULL. */
static const struct fw_fit *pool_for(const struct fw_fit *pf, int np, const char *family)
{
	for (int j = 0; j < np; j++)
		if (!strncmp(pf[j].id, "pool-", 5) && !strcmp(pf[j].id + 5, family) && pf[j].n > 0)
			return &pf[j];
	return NULL;
}

double fw_shrink(double own, double n, double pool, double k)
{
	return exp((n * log(own) + k * log(pool)) / (n + k));
}

double fw_prior_runs(const struct fw_fit *fits, size_t nf, const char *const *fam,
		     const char *family, double pooled)
{
	double wn = 0, ws2 = 0, d2 = 0, inv = 0;
	int J = 0;
	for (size_t j = 0; j < nf; j++) {
		if (!fam[j] || strcmp(fam[j], family) || fits[j].n == 0)
			continue;
		double d = log(fits[j].stack_frac / pooled);
		wn += (double)fits[j].n;
		ws2 += (double)fits[j].n * fits[j].rms_log * fits[j].rms_log;
		d2 += d * d;
		inv += 1.0 / (double)fits[j].n;
		J++;
	}
	if (J < 2 || !(wn > 0))
		return FW_PRIOR_MAX_RUNS;
	double s2 = ws2 / wn, t2 = d2 / J - s2 * inv / J;
	if (!(t2 > 0))
		return FW_PRIOR_MAX_RUNS;
	return fmin(FW_PRIOR_MAX_RUNS, s2 / t2);
}

int fw_fit_shrunk(struct val_case *cases, size_t n, const unsigned char *use,
		  val_gpu_fn gpu_for, void *ctx, struct fw_fit *out, size_t max)
{
	struct fw_fit pf[FW_FIT_MAX];
	const char *fam[FW_FIT_MAX];
	int np = fit_pools(cases, n, use, gpu_for, ctx, pf);
	int nf = np < 0 ? -1 : fw_fit_stack(cases, n, use, gpu_for, ctx, out, max);
	if (nf < 0)
		return -1;
	for (int j = 0; j < nf; j++)
		fam[j] = family_of(cases, n, use, out[j].id);
	for (int j = 0; j < nf; j++) {
		const struct fw_fit *g = fam[j] ? pool_for(pf, np, fam[j]) : NULL;
		if (!g)
			continue;
		double k = fw_prior_runs(out, (size_t)nf, fam, fam[j], g->stack_frac);
		out[j].prior_runs = k;
		out[j].raw_stack_frac = out[j].stack_frac;
		out[j].stack_frac = fw_shrink(out[j].stack_frac, (double)out[j].n, g->stack_frac, k);
	}
	/* Every case gets its stack's shrunk value; a stack with no used run
	 * gets its family's pool, as an unprofiled stack would. */
	for (size_t i = 0; i < n; i++) {
		struct val_case *c = &cases[i];
		const struct fw_fit *g = c->framework[0] ? pool_for(pf, np, c->family) : NULL;
		int j;
		if (!c->framework[0])
			continue;
		for (j = 0; j < nf; j++)
			if (!strcmp(out[j].id, c->framework) && out[j].n > 0)
				break;
		if (j < nf)
			set_stack(c, out[j].stack_frac);
		else if (g)
			set_stack(c, g->stack_frac);
	}
	return nf;
}

int fw_cross_validate(const struct val_case *cases, size_t n, fw_group_fn group,
		      val_gpu_fn gpu_for, void *ctx, struct val_result *res, size_t *nres)
{
	struct val_case *work = malloc((n ? n : 1) * sizeof(*work));
	unsigned char *use = malloc(n ? n : 1);
	unsigned char *done = calloc(n ? n : 1, 1);
	size_t *held = malloc((n ? n : 1) * sizeof(*held));
	struct fw_fit fits[FW_FIT_MAX];
	size_t k = 0;
	int rc = -1;

	if (!work || !use || !done || !held)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (done[i] || !cases[i].framework[0] || cases[i].sanity_only)
			continue;
		const char *g = group(&cases[i]);
		char gname[VAL_SOURCE_LEN];
		snprintf(gname, sizeof(gname), "%s", g);
		/* Fold: every counted case of this group is held out. */
		memcpy(work, cases, n * sizeof(*work));
		for (size_t j = 0; j < n; j++) {
			work[j].stack.set &= ~(1ULL << eff_id_stack_frac);
			use[j] = strcmp(group(&cases[j]), gname) != 0;
		}
		if (fw_fit_shrunk(work, n, use, gpu_for, ctx, fits, FW_FIT_MAX) < 0)
			goto out;
		/* Predict the held-out runs alone (the vTrain-sized sets name no
		 * framework and are not refitted). */
		size_t m = 0;
		for (size_t j = 0; j < n; j++)
			if (!use[j] && !done[j] && cases[j].framework[0] && !cases[j].sanity_only) {
				done[j] = 1;
				held[m] = j;
				work[m] = work[j];
				m++;
			}
		size_t got = 0;
		if (val_run(work, m, NULL, 1, 0, gpu_for, ctx, &res[k], &got))
			goto out;
		for (size_t r = 0; r < got; r++)
			res[k + r].index = held[res[k + r].index];
		k += got;
	}
	*nres = k;
	rc = 0;
out:
	free(work);
	free(use);
	free(done);
	free(held);
	return rc;
}
