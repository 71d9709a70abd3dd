/*
 * uncertainty.h - Monte Carlo ranges of step time, run time and cost.
 *
 * Each sample draws the efficiency parameters (struct roof_eff), the
 * inter-node network bandwidth and a model-error factor, runs the step
 * model, and, with `wall`, draws the interruptions of the wall clock (spot
 * preemptions among them).  The
 * spreads come from a calibration (standard errors and the residual error
 * of its fit) or from the documented defaults (docs/calibration.md).
 * Summaries use gsl_stats; quantiles are read from the sorted samples.
 * Same seed, same numbers.  Parameters calibrate cannot fit draw from a
 * stream of their own, so that adding one to the registry leaves the draws
 * of the others as they were.
 *
 * Distributions (independent, except calibrated parameters, which keep the
 * correlation of their fit):
 *  - a fraction x (eff_params kind EFF_FRAC): logistic-normal, the logit
 *    moved by N(0, sd / (1 - x)) so the relative spread near x is sd;
 *  - a scale (EFF_SCALE): log-normal with sigma = sd;
 *  - network bandwidth: log-normal with sigma = network_rel_sd;
 *  - model error: the step time times exp(N(0, model_rel_sd));
 *  - the spot price (spot, on an offer whose source sampled zones: spot_low
 *    and spot_high): split uniform, half the draws uniform on [low, median]
 *    and half on [median, high] (unc_zone_price), median = spot_median when
 *    the source gives it, else (low + high) / 2 (plain uniform); from a
 *    stream of its own, so the time draws stay as they are;
 *  - the wall clock (with `wall`): the campaign's interruptions (model/families/campaign.h)
 *    Poisson around its expected count, each a restart drawn log-normal around
 *    its restart time (sigma UNC_RESTART_LOG_SD) and a uniform share of the
 *    checkpoint interval redone (unc_draw_wall_s); on spot the preemptions
 *    are among those interruptions.  The total time is the steady state:
 *    it draws no interruption, spot or not.
 * A spread of 0 leaves the value exactly as it is.
 */
#ifndef TC_UNCERTAINTY_H
#define TC_UNCERTAINTY_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

#include "calibrate.h"
#include "../money/cost.h"
#include "../families/estimate.h"

#define UNC_DEFAULT_SAMPLES 1000
#define UNC_DEFAULT_SEED 1
#define UNC_MAX_SAMPLES 1000000

/* Documented defaults (docs/calibration.md). */
#define UNC_DEFAULT_NETWORK_REL_SD 0.15 /* inter-node bandwidth achieved */
/* Root mean square log error of the published LLM runs of
 * tests/validation/published-llm.csv with their framework profiles when it
 * was set: 0.143 over the 42 then counted (0.161 over all 61 today; vTrain
 * alone: 0.10).  Not raised: the band already holds more runs than an
 * honest P10-P90 band, as `traincost validate --loo` reports
 * (docs/model.md, section 7). */
#define UNC_DEFAULT_MODEL_REL_SD 0.14

/* Spread of a restart's time, a log-normal sigma: Meta RSC's restart
 * overhead u0 of 5-20 min (reference/goodput.yaml#47) read as its P10-P90,
 * ln(20 / 5) / (2 x 1.2816) = 0.54. */
#define UNC_RESTART_LOG_SD 0.54

struct unc_spec {
	double rel_sd[EFF_COUNT];       /* relative spread of each parameter */
	/* Lower-triangular L with L L^T the parameters' correlation: the
	 * standard normals of a draw are mixed by it (identity: independent). */
	double mix[CAL_PARAM_COUNT][CAL_PARAM_COUNT];
	double network_rel_sd;
	double model_rel_sd;
	unsigned long seed;
	size_t samples;                 /* N >= 1 */
	/* Optional cost: offer == NULL means no cost. */
	const struct price_offer *offer;     /* borrowed */
	const struct cost_billing *billing;  /* borrowed */
	enum cost_kind kind;
	/* Spot preemptions per instance-hour, counted among the wall clock's
	 * interruptions when the caller gives no campaign (kind COST_SPOT). */
	double preempt_per_h;
	double deadline_s;              /* 0: none */
	double budget_usd;              /* 0: none */
	/* Draw the wall clock too (unc_result.wall_s): under *campaign, or
	 * when it is NULL under the point estimate's. */
	int wall;
	const struct campaign *campaign; /* borrowed */
	double restart_log_sd;          /* UNC_RESTART_LOG_SD by default */
};

/*
 * Defaults: eff_params[].default_rel_sd (0: not varied), the network and model spreads
 * above, UNC_DEFAULT_SAMPLES, UNC_DEFAULT_SEED, no cost.
 */
void unc_spec_default(struct unc_spec *s);

/*
 * Spreads from a calibration: fitted parameters get their standard error
 * (relative to the fitted value) and the correlation of the fit, held ones
 * keep their prior spread independently, and the model error becomes the
 * fit's residual RMS (not below 0.02).  In scale mode the rate parameters
 * share the scale's relative error and move together.
 */
void unc_spec_from_calibration(struct unc_spec *s, const struct cal_overlay *o);

/*
 * L with L L^T = c for a correlation matrix c (symmetric, unit diagonal,
 * positive semi-definite): Cholesky that tolerates the zero pivots of
 * perfectly correlated parameters (their rows repeat an earlier one).
 * Returns 0, or -1 when c is not positive semi-definite (then L is the
 * identity).
 */
int unc_corr_factor(const double c[CAL_PARAM_COUNT][CAL_PARAM_COUNT],
		    double L[CAL_PARAM_COUNT][CAL_PARAM_COUNT]);

/* Every spread 0: each sample equals the point estimate. */
void unc_spec_zero(struct unc_spec *s);

/* Samples and the operator workspace, owned by the caller. */
struct unc_workspace {
	double *step_s, *total_s, *cost_usd; /* owned, cap each */
	double *wall_s, *wall_usd;           /* owned, cap each */
	size_t cap;
	struct est_workspace est;
};

/* Allocate room for n samples.  Returns 0 or -1. */
int unc_workspace_init(struct unc_workspace *ws, size_t n);
void unc_workspace_release(struct unc_workspace *ws);

struct unc_quantiles {
	double p10, p50, p90, mean, sd;
};

/* Sort v[0..n-1] (n >= 1) and write its P10, median, P90 (GSL's
 * interpolated quantiles), mean and standard deviation into *q. */
void unc_summarise(double *v, size_t n, struct unc_quantiles *q);

/*
 * The price at cumulative probability u (0..1) of the split uniform of the
 * spot price across zones: low + 2u (median - low) for u <= 1/2, median +
 * (2u - 1)(high - median) above.  Its median is `median`, its mean (low + 2
 * median + high) / 4.  Why this shape: the source gives three order
 * statistics of its zones (lowest, median, highest) and nothing in between;
 * the split uniform honours all three and assumes nothing more (the
 * largest-entropy density with that support and median).  Needs low <=
 * median <= high.
 */
double unc_zone_price(double u, double low, double median, double high);

struct unc_result {
	size_t samples;
	unsigned long seed;
	struct unc_quantiles step_s, total_s, cost_usd; /* cost: when has_cost */
	int has_cost;
	double p_deadline;  /* P(total time <= deadline), when deadline_s > 0 */
	double p_budget;    /* P(cost <= budget), when budget_usd > 0 */
	int has_deadline, has_budget; /* p_deadline / p_budget were computed */
	double point_step_s;/* the point estimate, for reference */
	/* The spot price drawn across zones (per instance-hour): its low,
	 * median (spot_median, or the midpoint when price_median_sourced is 0)
	 * and high; price_drawn 0 when the price stayed the point price. */
	int price_drawn, price_median_sourced;
	double price_low_usd_per_h, price_median_usd_per_h, price_high_usd_per_h;
	/* With spec.wall: the wall clock and its cost (spare nodes included),
	 * and the chances of meeting the deadline and budget on it. */
	int has_wall;
	struct unc_quantiles wall_s, wall_usd;
	double p_deadline_wall, p_budget_wall;
};

/*
 * One draw of the wall clock of a run whose steady state takes steady_s
 * under campaign *c: K ~ Poisson(lambda x W) interruptions, W the expected
 * running wall clock, each costing a restart drawn log-normal with mean
 * c's restart time and sigma restart_log_sd (0: exactly it) plus a uniform
 * share of the checkpoint interval; the rest (checkpoints, stragglers,
 * evaluation, start-up) as the campaign expects.  Its mean is
 * campaign_wall_s(c, steady_s).
 */
double unc_draw_wall_s(gsl_rng *r, const struct campaign *c, double steady_s,
		       double restart_log_sd);

/*
 * Run s->samples samples of workload w on GPU g, resolved for w's stack
 * (gpu_resolve(); g->eff is the centre, the values the stack profile set
 * are not varied).
 * Returns 0 and fills *out; -1 with *why set when the plan is invalid
 * (checked once, on the point estimate) or the offer cannot price the run
 * (why->msg says so), or ws is smaller than s->samples.
 */
int unc_run(const struct workload *w, const struct gpu *g, const struct unc_spec *s,
	    struct unc_workspace *ws, struct unc_result *out, struct plan_problem *why);

#endif
