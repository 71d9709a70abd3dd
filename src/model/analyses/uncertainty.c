/*
 * uncertainty.c - Monte Carlo over efficiencies, network and interruptions
 * (gsl_rng, gsl_stats); see uncertainty.h for the distributions.
 */
#include "uncertainty.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "../families/campaign.h"
#include "../families/llm.h"

/* Seed offset of the stream of the parameters calibrate cannot fit (any
 * constant that makes it differ from the main stream). */
#define UNC_OWN_STREAM 0x9e3779b9UL
/* Seed offset of the spot price's stream (another constant): drawing the
 * price leaves the draws of time as they were. */
#define UNC_PRICE_STREAM 0x85ebca6bUL

/* Above this many restarts the sum of uniform lost shares is drawn from its
 * normal approximation instead of one draw per restart. */
#define UNC_RESTARTS_EXACT 1000
/* Smallest model spread taken from a calibration: a fit to a few
 * measurements says little about the model error elsewhere. */
#define UNC_MIN_MODEL_SD 0.02

/* Pivots below this count as zero: a parameter its predecessors fix. */
#define UNC_PIVOT_EPS 1e-10

int unc_corr_factor(const double c[CAL_PARAM_COUNT][CAL_PARAM_COUNT],
		    double L[CAL_PARAM_COUNT][CAL_PARAM_COUNT])
{
	const int n = CAL_PARAM_COUNT;

	memset(L, 0, sizeof(double) * n * n);
	for (int j = 0; j < n; j++) {
		double d = c[j][j];
		for (int k = 0; k < j; k++)
			d -= L[j][k] * L[j][k];
		if (d < -UNC_PIVOT_EPS)
			goto not_psd;
		if (d <= UNC_PIVOT_EPS) {
			/* Column j adds nothing new; the rows below must not need it. */
			for (int i = j + 1; i < n; i++) {
				double v = c[i][j];
				for (int k = 0; k < j; k++)
					v -= L[i][k] * L[j][k];
				if (fabs(v) > 1e-6)
					goto not_psd;
			}
			continue;
		}
		L[j][j] = sqrt(d);
		for (int i = j + 1; i < n; i++) {
			double v = c[i][j];
			for (int k = 0; k < j; k++)
				v -= L[i][k] * L[j][k];
			L[i][j] = v / L[j][j];
		}
	}
	return 0;
not_psd:
	cal_corr_identity(L);
	return -1;
}

void unc_spec_default(struct unc_spec *s)
{
	memset(s, 0, sizeof(*s));
	cal_corr_identity(s->mix);
	for (int p = 0; p < EFF_COUNT; p++)
		s->rel_sd[p] = eff_params[p].default_rel_sd;
	s->network_rel_sd = UNC_DEFAULT_NETWORK_REL_SD;
	s->model_rel_sd = UNC_DEFAULT_MODEL_REL_SD;
	s->seed = UNC_DEFAULT_SEED;
	s->samples = UNC_DEFAULT_SAMPLES;
	s->kind = COST_ON_DEMAND;
	s->restart_log_sd = UNC_RESTART_LOG_SD;
}

void unc_spec_zero(struct unc_spec *s)
{
	for (int p = 0; p < EFF_COUNT; p++)
		s->rel_sd[p] = 0;
	s->network_rel_sd = 0;
	s->model_rel_sd = 0;
	s->preempt_per_h = 0;
}

void unc_spec_from_calibration(struct unc_spec *s, const struct cal_overlay *o)
{
	for (int p = 0; p < CAL_PARAM_COUNT; p++) {
		double x = cal_get(&o->eff.after, p);
		int fitted = o->eff.scale_mode ? eff_params[p].role != EFF_SHAPE : (o->eff.fitted_mask & CAL_BIT(p)) != 0;
		if (fitted && x > 0 && o->se[p] > 0)
			s->rel_sd[p] = o->se[p] / x;
		else if (fitted && o->eff.scale_mode && o->eff.scale > 0)
			s->rel_sd[p] = 0; /* no residual dof: the model term carries it */
	}
	s->model_rel_sd = o->residual_sd > UNC_MIN_MODEL_SD ? o->residual_sd : UNC_MIN_MODEL_SD;
	(void)unc_corr_factor(o->corr, s->mix); /* not PSD: independent draws */
}

int unc_workspace_init(struct unc_workspace *ws, size_t n)
{
	memset(ws, 0, sizeof(*ws));
	if (n == 0 || n > UNC_MAX_SAMPLES)
		return -1;
	ws->step_s = malloc(n * sizeof(double));
	ws->total_s = malloc(n * sizeof(double));
	ws->cost_usd = malloc(n * sizeof(double));
	ws->wall_s = malloc(n * sizeof(double));
	ws->wall_usd = malloc(n * sizeof(double));
	if (!ws->step_s || !ws->total_s || !ws->cost_usd || !ws->wall_s || !ws->wall_usd ||
	    est_workspace_init(&ws->est, EST_MAX_OPS)) {
		unc_workspace_release(ws);
		return -1;
	}
	ws->cap = n;
	return 0;
}

void unc_workspace_release(struct unc_workspace *ws)
{
	if (!ws)
		return;
	free(ws->step_s);
	free(ws->total_s);
	free(ws->cost_usd);
	free(ws->wall_s);
	free(ws->wall_usd);
	est_workspace_release(&ws->est);
	memset(ws, 0, sizeof(*ws));
}

/* Parameter p around x with relative spread sd for the standard normal z
 * (see the header). */
static double draw_param(enum eff_id p, double x, double sd, double z)
{
	const struct eff_param *c = &eff_params[p];
	if (!(sd > 0) || !(x > 0))
		return x;
	if (c->kind == EFF_SCALE)
		return x * exp(sd * z);
	double lo = c->lo, hi = c->hi;
	if (x <= lo || x >= hi)
		return x;
	double u = (x - lo) / (hi - lo);
	double y = log(u / (1 - u)) + z * sd * x / ((hi - lo) * u * (1 - u));
	return lo + (hi - lo) / (1 + exp(-y));
}

void unc_summarise(double *v, size_t n, struct unc_quantiles *q)
{
	gsl_sort(v, 1, n);
	q->p10 = gsl_stats_quantile_from_sorted_data(v, 1, n, 0.10);
	q->p50 = gsl_stats_quantile_from_sorted_data(v, 1, n, 0.50);
	q->p90 = gsl_stats_quantile_from_sorted_data(v, 1, n, 0.90);
	q->mean = gsl_stats_mean(v, 1, n);
	q->sd = n > 1 ? gsl_stats_sd_m(v, 1, n, q->mean) : 0;
}

/* Share of sorted v[0..n-1] at or below limit. */
static double share_below(const double *v, size_t n, double limit)
{
	size_t k = 0;
	while (k < n && v[k] <= limit)
		k++;
	return (double)k / (double)n;
}

double unc_zone_price(double u, double low, double median, double high)
{
	assert(low <= median && median <= high);
	if (u <= 0.5)
		return low + 2 * u * (median - low);
	return median + (2 * u - 1) * (high - median);
}

/* Whether the spec's spot price is drawn across zones, and the split
 * uniform it is drawn from, into *res. */
static void zone_spread(const struct unc_spec *s, struct unc_result *res)
{
	const struct price_offer *o = s->offer;
	if (!o || s->kind != COST_SPOT || !(o->spot_low_usd_per_h > 0) ||
	    !(o->spot_high_usd_per_h > o->spot_low_usd_per_h))
		return;
	res->price_drawn = 1;
	res->price_low_usd_per_h = o->spot_low_usd_per_h;
	res->price_high_usd_per_h = o->spot_high_usd_per_h;
	res->price_median_sourced = o->spot_median_usd_per_h > 0;
	res->price_median_usd_per_h = res->price_median_sourced ? o->spot_median_usd_per_h :
		(o->spot_low_usd_per_h + o->spot_high_usd_per_h) / 2;
}

/* The cost of a run of run_s seconds of `gpus` GPUs on offer *o (the
 * spec's, its price perhaps drawn) into *usd: 0, or -1 with why->msg when
 * the offer cannot price it. */
static int price_sample(const struct unc_spec *s, const struct price_offer *o, double gpus,
			double run_s, double *usd, struct plan_problem *why)
{
	static const struct cost_billing per_second = { COST_PER_SECOND, 0 };
	struct cost_run cr;
	const char *whyc = NULL;
	if (cost_cloud(o, s->billing ? s->billing : &per_second, s->kind, gpus, run_s, &cr,
		       &whyc)) {
		snprintf(why->msg, sizeof(why->msg), "%s", whyc ? whyc : "the offer cannot price this run");
		return -1;
	}
	*usd = cr.cost_usd;
	return 0;
}

double unc_draw_wall_s(gsl_rng *r, const struct campaign *c, double steady_s,
		       double restart_log_sd)
{
	/* Without interruptions: steady x stretch; the running wall clock
	 * expected with them is that over (1 - loss). */
	double plain = steady_s * c->stretch * (1 - c->loss_frac);
	double mu = c->interrupt_per_s * plain / (1 - c->loss_frac);
	double R = c->in.restart_s, tau = c->interval_s, lost = 0;
	if (mu > 0) {
		unsigned int k = gsl_ran_poisson(r, mu);
		double sd = restart_log_sd > 0 ? restart_log_sd : 0;
		double m = log(R > 0 ? R : 1) - sd * sd / 2; /* mean R */
		if (k > UNC_RESTARTS_EXACT) {
			double var = R * R * (exp(sd * sd) - 1) + tau * tau / 12;
			lost = k * (R + tau / 2) + sqrt(k * var) * gsl_ran_gaussian(r, 1.0);
		} else {
			for (unsigned int i = 0; i < k; i++)
				lost += (sd > 0 && R > 0 ? exp(m + sd * gsl_ran_gaussian(r, 1.0)) : R) +
					tau * gsl_rng_uniform(r);
		}
	}
	return plain + (lost > 0 ? lost : 0) + c->in.startup_s;
}

/* The quantiles and chances of the samples of ws into *res (its samples
 * set). */
static void summarise_samples(const struct unc_spec *s, struct unc_workspace *ws,
			      struct unc_result *res)
{
	size_t n = res->samples;
	unc_summarise(ws->step_s, n, &res->step_s);
	unc_summarise(ws->total_s, n, &res->total_s);
	if (s->deadline_s > 0) {
		res->p_deadline = share_below(ws->total_s, n, s->deadline_s);
		res->has_deadline = 1;
	}
	if (s->offer) {
		unc_summarise(ws->cost_usd, n, &res->cost_usd);
		if (s->budget_usd > 0) {
			res->p_budget = share_below(ws->cost_usd, n, s->budget_usd);
			res->has_budget = 1;
		}
	}
	if (s->wall) {
		unc_summarise(ws->wall_s, n, &res->wall_s);
		res->p_deadline_wall = share_below(ws->wall_s, n, s->deadline_s);
		if (s->offer) {
			unc_summarise(ws->wall_usd, n, &res->wall_usd);
			res->p_budget_wall = share_below(ws->wall_usd, n, s->budget_usd);
		}
	}
}

/* Whether g's stack profile set parameter p: a stack's value is taken as
 * the stack's, not varied by the draws. */
static int stack_set(const struct gpu *g, enum eff_id p)
{
	return g->eff.layer[p] == EFF_LAYER_FRAMEWORK;
}

int unc_run(const struct workload *w, const struct gpu *g, const struct unc_spec *s,
	    struct unc_workspace *ws, struct unc_result *out, struct plan_problem *why)
{
	struct workload ws_w;
	struct gpu gs;
	struct estimate e;
	struct unc_result res;
	gsl_rng *r = NULL, *r_own = NULL, *r_price = NULL;
	struct price_offer priced; /* the spec's offer, its spot price drawn per sample */
	size_t n = s->samples;
	int rc = -1;

	assert(w && g && s && ws && out && why);
	memset(why, 0, sizeof(*why));
	memset(&res, 0, sizeof(res));
	if (n == 0 || n > ws->cap) {
		snprintf(why->msg, sizeof(why->msg), "%zu samples do not fit the workspace of %zu", n, ws->cap);
		return -1;
	}
	if (step_estimate(w, g, &ws->est, &e, why))
		return -1;
	res.point_step_s = e.step_time_s;
	/* the campaign of the point estimate (or the caller's): its inputs do
	 * not depend on the step's efficiencies */
	struct campaign camp = s->campaign ? *s->campaign : e.campaign;
	struct plan_problem camp_why;
	/* On spot without the caller's campaign (a plan's samples) the
	 * preemptions are interruptions of the wall clock too, as priced. */
	if (!s->campaign && s->offer && s->kind == COST_SPOT && s->wall &&
	    campaign_with_preemptions(&e.campaign, s->preempt_per_h, e.campaign.in.notice_s, &camp,
				      &camp_why))
		camp = e.campaign;
	res.has_wall = s->wall;
	res.samples = n;
	res.seed = s->seed;
	res.has_cost = s->offer != NULL;
	if (s->offer)
		priced = *s->offer;
	zone_spread(s, &res);
	r = gsl_rng_alloc(gsl_rng_mt19937);
	r_own = gsl_rng_alloc(gsl_rng_mt19937);
	r_price = gsl_rng_alloc(gsl_rng_mt19937);
	if (!r || !r_own || !r_price) {
		snprintf(why->msg, sizeof(why->msg), "out of memory");
		goto out;
	}
	gsl_rng_set(r, s->seed);
	gsl_rng_set(r_own, s->seed ^ UNC_OWN_STREAM);
	gsl_rng_set(r_price, s->seed ^ UNC_PRICE_STREAM);
	ws_w = *w;
	ws_w.plan.micro_batch = e.plan.micro_batch; /* chosen once, if the plan gave none */
	gs = *g;
	/* No measured run behind the GPU or the stack, no measured rate for
	 * what the step rests on most, or no collective measured on the
	 * GPU's nodes: the model term is as wide as the validation error
	 * where such runs were held out (a spec without a model term,
	 * unc_spec_zero, stays without one). */
	double model_sd = s->model_rel_sd > 0 && (!step_validated(w, g) ||
			  step_unmeasured_rate(w, &e, g) >= 0 ||
			  !step_collectives_measured(&e.plan, g)) ?
			  fmax(s->model_rel_sd, STEP_UNVALIDATED_REL_SD) : s->model_rel_sd;
	for (size_t i = 0; i < n; i++) {
		double u[CAL_PARAM_COUNT];
		for (int p = 0; p < CAL_PARAM_COUNT; p++)
			u[p] = gsl_ran_gaussian(r, 1.0);
		for (int p = 0; p < CAL_PARAM_COUNT; p++) {
			double z = 0;
			for (int k = 0; k <= p; k++)
				z += s->mix[p][k] * u[k];
			if (!stack_set(g, p))
				cal_set(&gs.eff, p, draw_param(p, cal_get(&g->eff, p), s->rel_sd[p], z));
		}
		for (int p = CAL_PARAM_COUNT; p < EFF_COUNT; p++) {
			if (!(s->rel_sd[p] > 0))
				continue;
			double z = gsl_ran_gaussian(r_own, 1.0); /* drawn either way: the
								    stream stays aligned */
			if (!stack_set(g, p))
				*eff_ref(&gs.eff, p) = draw_param(p, eff_get(&g->eff, p), s->rel_sd[p], z);
		}
		double zn = gsl_ran_gaussian(r, 1.0), zm = gsl_ran_gaussian(r, 1.0);
		ws_w.plan.network_bytes_per_s = s->network_rel_sd > 0 ?
			w->plan.network_bytes_per_s * exp(s->network_rel_sd * zn) : w->plan.network_bytes_per_s;
		/* efficiencies never make a valid plan invalid; a draw may
		 * cross the run-length limit the point estimate kept */
		if (step_estimate_unbounded(&ws_w, &gs, &ws->est, &e, why))
			goto out;
		double f = model_sd > 0 ? exp(model_sd * zm) : 1;
		double step = e.step_time_s * f, total = e.total_time_s * f;
		ws->step_s[i] = step;
		ws->total_s[i] = total;
		ws->cost_usd[i] = ws->wall_usd[i] = 0;
		ws->wall_s[i] = s->wall ? unc_draw_wall_s(r, &camp, e.total_time_s * f,
							  s->restart_log_sd) : 0;
		if (res.price_drawn)
			priced.price_usd_per_h[COST_SPOT] = unc_zone_price(
				gsl_rng_uniform(r_price), res.price_low_usd_per_h,
				res.price_median_usd_per_h, res.price_high_usd_per_h);
		if (s->offer && (price_sample(s, &priced, e.plan.count, total, &ws->cost_usd[i], why) ||
				 (s->wall && price_sample(s, &priced, e.plan.count, ws->wall_s[i],
							  &ws->wall_usd[i], why))))
			goto out;
		ws->wall_usd[i] *= 1 + camp.in.spare_frac;
	}
	summarise_samples(s, ws, &res);
	*out = res;
	rc = 0;
out:
	gsl_rng_free(r);
	gsl_rng_free(r_own);
	gsl_rng_free(r_price);
	return rc;
}
