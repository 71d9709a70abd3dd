/*
 * calibrate.c - efficiency parameters fitted to measured steps (GSL), and
 * the overlay that carries them to other commands.
 */
#include "calibrate.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "../families/llm.h"

const char *const cal_held_names[] = {
	"fitted",
	"held: not requested",
	"held: the measurements do not depend on it",
	"held: not separable from the fitted parameters",
	"held: too few measurements",
	"scaled with the global factor",
	NULL,
};

int cal_param_find(const char *name)
{
	int p = eff_find(name);
	return p < CAL_PARAM_COUNT ? p : -1;
}

double cal_get(const struct roof_eff *e, enum eff_id p)
{
	assert(p < CAL_PARAM_COUNT);
	return eff_get(e, p);
}

void cal_set(struct roof_eff *e, enum eff_id p, double v)
{
	assert(p < CAL_PARAM_COUNT);
	*eff_ref(e, p) = v;
}

/* ---- reparameterisation --------------------------------------------- */

static double sigm(double y) { return 1 / (1 + exp(-y)); }

/* Unbounded variable of value x (a scale of 0 starts at its floor). */
static double to_y(enum eff_id p, double x)
{
	const struct eff_param *c = &eff_params[p];
	if (c->kind == EFF_SCALE)
		return log(x > c->fit_floor ? x : c->fit_floor);
	double u = (x - c->lo) / (c->hi - c->lo);
	if (u < 1e-6)
		u = 1e-6;
	if (u > 1 - 1e-6)
		u = 1 - 1e-6;
	return log(u / (1 - u));
}

static double to_x(enum eff_id p, double y)
{
	const struct eff_param *c = &eff_params[p];
	if (c->kind == EFF_SCALE)
		return exp(y);
	return c->lo + (c->hi - c->lo) * sigm(y);
}

/* dx/dy, for carrying standard errors from y to x. */
static double dxdy(enum eff_id p, double y)
{
	const struct eff_param *c = &eff_params[p];
	if (c->kind == EFF_SCALE)
		return exp(y);
	double s = sigm(y);
	return (c->hi - c->lo) * s * (1 - s);
}

/* Smallest scale that keeps every scaled rate fraction at most 1. */
static double scale_floor(const struct roof_eff *e)
{
	double m = 0;
	for (int p = 0; p < CAL_PARAM_COUNT; p++)
		if (eff_params[p].role == EFF_RATE && eff_get(e, p) > m)
			m = eff_get(e, p);
	return m;
}

/* ---- the fit -------------------------------------------------------- */

/* At most one parameter per two measurements beyond the first, so each
 * fitted value rests on more than one run. */
#define CAL_MAX_PARAMS(n) ((n) >= 5 ? ((n) - 1) / 2 : 1)

struct fit_data {
	const struct val_case *cases;
	const double *sw;         /* sqrt of normalised weights, owned by caller */
	size_t n;
	struct gpu g;             /* copy whose eff is rewritten */
	struct est_workspace ws;
	struct roof_eff start;
	int scale_mode;
	double s_min;
	int idx[CAL_PARAM_COUNT]; /* fitted parameters, in y order */
	size_t p;
};

/* Efficiencies for variables y. */
static void eff_from_y(const struct fit_data *D, const gsl_vector *y, struct roof_eff *e)
{
	if (D->scale_mode) {
		eff_scaled(&D->start, D->s_min + exp(gsl_vector_get(y, 0)), e);
		return;
	}
	*e = D->start;
	for (size_t j = 0; j < D->p; j++)
		cal_set(e, D->idx[j], to_x(D->idx[j], gsl_vector_get(y, j)));
}

/* Predict every case with efficiencies *e into pred[].  Returns 0 or -1. */
static int predict_all(struct fit_data *D, const struct roof_eff *e, double *pred)
{
	D->g.eff = *e;
	for (size_t i = 0; i < D->n; i++) {
		struct plan_problem why;
		if (val_predict(&D->cases[i], &D->g, &D->ws, &pred[i], &why) ||
		    !(pred[i] > 0) || !isfinite(pred[i]))
			return -1;
	}
	return 0;
}

struct fit_cb {
	struct fit_data *D;
	double *pred; /* n, owned by cal_fit */
};

static int resid_f(const gsl_vector *y, void *params, gsl_vector *f)
{
	struct fit_cb *cb = params;
	struct fit_data *D = cb->D;
	struct roof_eff e;
	eff_from_y(D, y, &e);
	if (predict_all(D, &e, cb->pred))
		return GSL_EDOM;
	for (size_t i = 0; i < D->n; i++)
		gsl_vector_set(f, i, D->sw[i] * (cb->pred[i] / D->cases[i].measured - 1));
	return GSL_SUCCESS;
}

/*
 * Choose the parameters to fit: drop those the predictions do not depend on
 * (RMS elasticity below CAL_SENS_MIN), then keep the columns of a
 * column-pivoted QR of the elasticity matrix while |R_kk| stays above
 * CAL_PIVOT_MIN of |R_00|, at most max_p of them.  Returns 0 or -1.
 */
static int select_params(struct fit_data *D, const double *base_pred, unsigned cand,
			 size_t max_p, enum cal_held *held, double *scratch)
{
	int col[CAL_PARAM_COUNT];
	size_t m = 0, n = D->n;
	gsl_matrix *A = NULL;
	gsl_vector *tau = NULL, *norm = NULL;
	gsl_permutation *perm = NULL;
	int rc = -1, signum;

	for (int p = 0; p < CAL_PARAM_COUNT; p++) {
		if (!(cand & CAL_BIT(p)))
			continue;
		double x0 = cal_get(&D->start, p);
		const struct eff_param *c = &eff_params[p];
		if (c->kind == EFF_SCALE && x0 < c->fit_floor)
			x0 = c->fit_floor;
		double x1 = x0 * 1.01;
		if (c->kind == EFF_FRAC && x1 > c->hi)
			x1 = x0 * 0.99;
		struct roof_eff e = D->start, e0 = D->start;
		cal_set(&e0, p, x0);
		cal_set(&e, p, x1);
		double *p0 = scratch, *p1 = scratch + n;
		if (predict_all(D, &e0, p0) || predict_all(D, &e, p1))
			goto out;
		double ss = 0;
		for (size_t i = 0; i < n; i++) {
			double el = D->sw[i] * log(p1[i] / p0[i]) / log(x1 / x0);
			p1[i] = el; /* keep the column */
			ss += el * el;
		}
		(void)base_pred;
		if (sqrt(ss / n) < CAL_SENS_MIN) {
			held[p] = CAL_HELD_NO_EFFECT;
			continue;
		}
		if (!A) {
			A = gsl_matrix_alloc(n, CAL_PARAM_COUNT);
			if (!A)
				goto out;
		}
		for (size_t i = 0; i < n; i++)
			gsl_matrix_set(A, i, m, p1[i]);
		col[m++] = p;
	}
	D->p = 0;
	if (m == 0) {
		rc = 0;
		goto out;
	}
	{
		gsl_matrix_view V = gsl_matrix_submatrix(A, 0, 0, n, m);
		size_t k = n < m ? n : m;
		tau = gsl_vector_alloc(k);
		norm = gsl_vector_alloc(m);
		perm = gsl_permutation_alloc(m);
		if (!tau || !norm || !perm)
			goto out;
		if (gsl_linalg_QRPT_decomp(&V.matrix, tau, perm, &signum, norm))
			goto out;
		double r00 = fabs(gsl_matrix_get(&V.matrix, 0, 0));
		for (size_t j = 0; j < m; j++) {
			int p = col[gsl_permutation_get(perm, j)];
			double rjj = j < k ? fabs(gsl_matrix_get(&V.matrix, j, j)) : 0;
			if (!(r00 > 0) || rjj < CAL_PIVOT_MIN * r00)
				held[p] = CAL_HELD_COLLINEAR;
			else if (D->p >= max_p)
				held[p] = CAL_HELD_TOO_FEW;
			else
				D->idx[D->p++] = p;
		}
	}
	rc = 0;
out:
	gsl_matrix_free(A);
	gsl_vector_free(tau);
	gsl_vector_free(norm);
	gsl_permutation_free(perm);
	return rc;
}

/* Errors of predictions pred[] against the cases, unweighted statistics
 * and weighted RMS.  Returns 0 or -1. */
static int errors(const struct fit_data *D, const double *pred, struct val_result *res,
		  struct val_stats *st, double *rms)
{
	double ss = 0;
	for (size_t i = 0; i < D->n; i++) {
		memset(&res[i], 0, sizeof(res[i]));
		res[i].index = i;
		res[i].ok = 1;
		res[i].predicted = pred[i];
		res[i].measured = D->cases[i].measured;
		res[i].err_frac = pred[i] / D->cases[i].measured - 1;
		ss += D->sw[i] * D->sw[i] * res[i].err_frac * res[i].err_frac;
	}
	*rms = D->n ? sqrt(ss / D->n) : 0;
	return val_stats_compute(res, D->n, st);
}

/* sqrt of the weights normalised to mean 1, so s^2 keeps its meaning. */
static int set_weights(const double *w, size_t n, double *sw, struct tc_diag *d)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		double wi = w ? w[i] : 1;
		if (!(wi > 0) || !isfinite(wi))
			return tc_diag_msg(d, TC_EXIT_INPUT,
					   "measurement %zu has weight %g (expected a positive number)",
					   i + 1, wi);
		sum += wi;
	}
	for (size_t i = 0; i < n; i++)
		sw[i] = sqrt((w ? w[i] : 1) * n / sum);
	return 0;
}

/* Predictions at the starting point; names the first case that cannot be
 * predicted. */
static int predict_start(struct fit_data *D, double *pred, struct tc_diag *d)
{
	for (size_t i = 0; i < D->n; i++) {
		struct plan_problem why;
		if (!(D->cases[i].measured > 0))
			return tc_diag_msg(d, TC_EXIT_INPUT, "%s: measured value is not positive",
					   D->cases[i].id);
		D->g.eff = D->start;
		if (val_predict(&D->cases[i], &D->g, &D->ws, &pred[i], &why))
			return tc_diag_msg(d, TC_EXIT_INPUT, "%s: %s", D->cases[i].id, why.msg);
	}
	return 0;
}

/* Which parameters are fitted (D->idx, D->p, or the one scale), and why
 * each other one is held (r->held). */
static int choose_params(struct fit_data *D, const struct cal_options *opt,
			 const double *pred, double *scratch, struct cal_result *r,
			 struct tc_diag *d)
{
	for (int p = 0; p < CAL_PARAM_COUNT; p++)
		r->held[p] = CAL_HELD_ASKED;
	if (opt->scale_only || (!opt->fit_mask && D->n <= 2)) {
		D->scale_mode = 1;
		D->s_min = scale_floor(&D->start);
		D->p = 1;
		for (int p = 0; p < CAL_PARAM_COUNT; p++)
			r->held[p] = (eff_params[p].role != EFF_SHAPE) ? CAL_HELD_SCALED : CAL_HELD_ASKED;
		return 0;
	}
	if (opt->fit_mask) {
		for (int p = 0; p < CAL_PARAM_COUNT; p++)
			if (opt->fit_mask & CAL_BIT(p))
				D->idx[D->p++] = p;
	} else {
		unsigned cand = CAL_ALL & ~opt->fixed_mask;
		if (select_params(D, pred, cand, CAL_MAX_PARAMS(D->n), r->held, scratch))
			return tc_diag_msg(d, TC_EXIT_INTERNAL,
					   "out of memory while choosing parameters");
		if (D->p == 0)
			return tc_diag_msg(d, TC_EXIT_INPUT,
					   "the measurements do not depend on any parameter that is not fixed");
	}
	for (size_t j = 0; j < D->p; j++)
		r->held[D->idx[j]] = CAL_FITTED;
	if (D->p > D->n)
		return tc_diag_msg(d, TC_EXIT_INPUT,
				   "%zu parameters cannot be fitted to %zu measurement%s (expected at most %zu)",
				   D->p, D->n, D->n == 1 ? "" : "s", D->n);
	return 0;
}

/* The starting point in the unconstrained coordinates y. */
static void start_point(const struct fit_data *D, gsl_vector *y)
{
	if (D->scale_mode) {
		double gap = 1 - D->s_min;
		gsl_vector_set(y, 0, log(gap > 1e-6 ? gap : 1e-6));
		return;
	}
	for (size_t j = 0; j < D->p; j++)
		gsl_vector_set(y, j, to_y(D->idx[j], cal_get(&D->start, D->idx[j])));
}

/* Standard errors of a one-scale fit: every scaled parameter moves with
 * the scale, so they are fully correlated. */
static void scale_errors(const struct fit_data *D, double yy, double s2,
			 const gsl_matrix *covar, struct cal_result *r)
{
	r->scale_mode = 1;
	r->scale = D->s_min + exp(yy);
	r->scale_se = exp(yy) * sqrt(s2 * gsl_matrix_get(covar, 0, 0));
	r->at_bound = exp(yy) < 1e-6 * r->scale;
	for (int p = 0; p < CAL_PARAM_COUNT; p++)
		for (int q = 0; q < CAL_PARAM_COUNT; q++)
			if (p != q && eff_params[p].role != EFF_SHAPE &&
			    eff_params[q].role != EFF_SHAPE)
				r->corr[p][q] = 1;
	for (int p = 0; p < CAL_PARAM_COUNT; p++)
		if (eff_params[p].role != EFF_SHAPE)
			r->se[p] = fabs(cal_get(&r->after, p)) * r->scale_se / r->scale;
}

/* Standard errors and correlations of the fitted parameters, mapped back
 * from y; a parameter far from its start in y has run to its bound. */
static void param_errors(const struct fit_data *D, const gsl_vector *y, double s2,
			 const gsl_matrix *covar, struct cal_result *r)
{
	for (size_t j = 0; j < D->p; j++)
		for (size_t k = 0; k < D->p; k++) {
			double vj = gsl_matrix_get(covar, j, j);
			double vk = gsl_matrix_get(covar, k, k);
			double c = j == k ? 1 : vj > 0 && vk > 0 ?
				   gsl_matrix_get(covar, j, k) / sqrt(vj * vk) : 0;
			r->corr[D->idx[j]][D->idx[k]] = isfinite(c) ? fmax(-1, fmin(1, c)) : 0;
		}
	for (size_t j = 0; j < D->p; j++) {
		int p = D->idx[j];
		int frac = eff_params[p].kind == EFF_FRAC;
		double yj = gsl_vector_get(y, j);
		r->se[p] = fabs(dxdy(p, yj)) * sqrt(s2 * gsl_matrix_get(covar, j, j));
		r->fitted_mask |= CAL_BIT(p);
		if (fabs(yj - (frac ? 0 : to_y(p, cal_get(&D->start, p)))) > (frac ? 9.0 : log(1e4)))
			r->at_bound = 1;
	}
}

/* The warning a poorly determined fit carries (unless one is set). */
static void conditioning_warning(struct cal_result *r)
{
	r->ill_conditioned = r->rcond < CAL_RCOND_WARN || r->at_bound;
	if (!r->ill_conditioned || r->warning[0])
		return;
	snprintf(r->warning, sizeof(r->warning),
		 r->at_bound ? "a parameter ran to its bound: the measurements do not determine it well"
			     : "the fit is ill-conditioned (reciprocal condition number %.1e): "
			       "parameters trade off against each other and their errors are large",
		 r->rcond);
}

/* Least squares from y (updated in place) with GSL's trust-region solver;
 * fills r->after and the errors. */
static int solve(struct fit_data *D, const struct cal_options *opt, double *pred,
		 gsl_vector *y, struct cal_result *r, struct tc_diag *d)
{
	gsl_multifit_nlinear_fdf fdf;
	gsl_multifit_nlinear_parameters par = gsl_multifit_nlinear_default_parameters();
	struct fit_cb cb = { D, pred };
	int info = 0, st, rc = -1;
	double rcond = 0, chi2 = 0;

	memset(&fdf, 0, sizeof(fdf));
	fdf.f = resid_f;
	fdf.n = D->n;
	fdf.p = D->p;
	fdf.params = &cb;
	gsl_multifit_nlinear_workspace *ws =
		gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &par, D->n, D->p);
	gsl_matrix *covar = gsl_matrix_alloc(D->p, D->p);
	if (!ws || !covar) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
		goto out;
	}
	st = gsl_multifit_nlinear_init(y, &fdf, ws);
	if (st == GSL_SUCCESS)
		st = gsl_multifit_nlinear_driver(opt->max_iter > 0 ? (size_t)opt->max_iter : 200,
						 1e-8, 1e-8, 1e-8, NULL, NULL, &info, ws);
	r->iterations = gsl_multifit_nlinear_niter(ws);
	if (st == GSL_EMAXITER || st == GSL_ENOPROG) {
		snprintf(r->warning, sizeof(r->warning),
			 "the fit stopped before converging (%s after %zu iterations)",
			 gsl_strerror(st), r->iterations);
	} else if (st != GSL_SUCCESS) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "the fit failed: %s", gsl_strerror(st));
		goto out;
	}
	gsl_vector_memcpy(y, ws->x);
	if (gsl_multifit_nlinear_rcond(&rcond, ws) != GSL_SUCCESS || !isfinite(rcond))
		rcond = 0;
	r->rcond = rcond;
	st = gsl_multifit_nlinear_covar(ws->J, 0.0, covar);
	if (st != GSL_SUCCESS) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "covariance failed: %s", gsl_strerror(st));
		goto out;
	}
	gsl_blas_ddot(ws->f, ws->f, &chi2);
	r->p = D->p;
	r->se_available = D->n > D->p;
	double s2 = r->se_available ? chi2 / (double)(D->n - D->p) : 0;
	eff_from_y(D, y, &r->after);
	if (D->scale_mode)
		scale_errors(D, gsl_vector_get(y, 0), s2, covar, r);
	else
		param_errors(D, y, s2, covar, r);
	if (!isfinite(r->scale_se))
		r->scale_se = 0;
	for (int p = 0; p < CAL_PARAM_COUNT; p++)
		if (!isfinite(r->se[p]))
			r->se[p] = 0;
	conditioning_warning(r);
	rc = 0;
out:
	gsl_multifit_nlinear_free(ws);
	gsl_matrix_free(covar);
	return rc;
}

/*
 * A fitted rate above what the GPU's own figures say its kernels reach
 * (its file's value, or the registry's measured default) is no faster GPU
 * but work the measurements hold and the workload does not describe, or a
 * stack that runs less than the model counts: said, unless a warning is
 * set.
 */
static void ceiling_warning(struct cal_result *r, const struct gpu *g)
{
	for (int p = 0; p < CAL_PARAM_COUNT && !r->warning[0]; p++) {
		const struct eff_param *e = &eff_params[p];
		double was = eff_get(&g->eff, (enum eff_id)p), now = eff_get(&r->after, (enum eff_id)p);
		if (!(r->fitted_mask & CAL_BIT(p)) || e->kind != EFF_FRAC || e->role != EFF_RATE ||
		    !(now > was * (1 + CAL_CEILING_MARGIN)))
			continue;
		snprintf(r->warning, sizeof(r->warning),
			 "%s fitted at %.3f, above the %.3f measured for %s: no published kernel "
			 "reaches it; the measured steps may hold less work than the workload "
			 "describes", e->name, now, was, g->id);
	}
}

int cal_fit(const struct val_case *cases, const double *w, size_t n,
	    const struct gpu *g, const struct cal_options *opt,
	    struct cal_result *out, struct tc_diag *d)
{
	struct fit_data D;
	struct cal_result r;
	double *sw = NULL, *pred = NULL, *scratch = NULL;
	struct val_result *res = NULL;
	gsl_vector *y = NULL;
	static const struct cal_options no_opt;
	int rc = -1;

	assert(cases && g && out && d);
	if (!opt)
		opt = &no_opt;
	memset(&D, 0, sizeof(D));
	memset(&r, 0, sizeof(r));
	cal_corr_identity(r.corr);
	if (n == 0)
		return tc_diag_msg(d, TC_EXIT_INPUT, "no measurements to calibrate on");
	D.cases = cases;
	D.n = n;
	D.g = *g;
	D.start = opt->start ? *opt->start : g->eff;
	r.before = D.start;
	r.n = n;
	sw = malloc(n * sizeof(*sw));
	pred = malloc(n * sizeof(*pred));
	scratch = malloc(2 * n * sizeof(*scratch));
	res = malloc(n * sizeof(*res));
	if (!sw || !pred || !scratch || !res || est_workspace_init(&D.ws, EST_MAX_OPS)) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
		goto out;
	}
	D.sw = sw;
	if (set_weights(w, n, sw, d) || predict_start(&D, pred, d))
		goto out;
	if (errors(&D, pred, res, &r.err_before, &r.rms_before)) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
		goto out;
	}
	if (choose_params(&D, opt, pred, scratch, &r, d))
		goto out;
	y = gsl_vector_alloc(D.p);
	if (!y) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
		goto out;
	}
	start_point(&D, y);
	if (solve(&D, opt, pred, y, &r, d))
		goto out;
	ceiling_warning(&r, g);
	if (predict_all(&D, &r.after, pred) || errors(&D, pred, res, &r.err_after, &r.rms_after)) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "the fitted parameters cannot be evaluated");
		goto out;
	}
	*out = r;
	rc = 0;
out:
	gsl_vector_free(y);
	est_workspace_release(&D.ws);
	free(sw);
	free(pred);
	free(scratch);
	free(res);
	return rc;
}

/* ---- overlay -------------------------------------------------------- */

void cal_corr_identity(double c[CAL_PARAM_COUNT][CAL_PARAM_COUNT])
{
	for (int p = 0; p < CAL_PARAM_COUNT; p++)
		for (int q = 0; q < CAL_PARAM_COUNT; q++)
			c[p][q] = p == q;
}

void cal_overlay_from_result(struct cal_overlay *o, const struct cal_result *r,
			     const char *gpu, const char *fitted_from)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->eff.gpu, sizeof(o->eff.gpu), "%s", gpu ? gpu : "");
	snprintf(o->eff.fitted_from, sizeof(o->eff.fitted_from), "%s", fitted_from ? fitted_from : "");
	o->eff.measurements = r->n;
	o->eff.scale_mode = r->scale_mode;
	o->eff.scale = r->scale_mode ? r->scale : 1;
	o->eff.fitted_mask = r->scale_mode ? 0 : r->fitted_mask;
	o->eff.before = r->before;
	o->eff.after = r->after;
	memcpy(o->se, r->se, sizeof(o->se));
	memcpy(o->corr, r->corr, sizeof(o->corr));
	o->residual_sd = r->rms_after;
	o->error_before = r->err_before.mape;
	o->error_after = r->err_after.mape;
}

const struct eff_calibration *cal_layer(const struct cal_overlay *o)
{
	return o && o->eff.measurements ? &o->eff : NULL;
}
