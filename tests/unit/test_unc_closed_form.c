/*
 * test_unc_closed_form.c - the Monte Carlo of src/model/uncertainty.c
 * against closed forms, so that a spread of the wrong size or shape fails,
 * not only a disorder of the quantiles:
 *  - the model-error term alone is log-normal: P90 / P50 = P50 / P10 =
 *    exp(1.2816 sigma) (1.2816: the standard normal's 90th percentile), and
 *    a deadline of T exp(sigma z) is met with probability Phi(z);
 *  - spot preemptions alone: the mean time lost is mu x (restart_s +
 *    checkpoint_interval_s / 2), mu = preempt_per_h x instances x run hours,
 *    in the Poisson branch (few restarts, each drawn) and in the branch of
 *    many (more than 1000: their sum drawn from its normal approximation).
 */
#include "tc_test.h"

#include "tc_unc.h"

/*
 * sigma 0.3: P90 / P50 = exp(1.2816 x 0.3) = 1.4689.  20,000 samples put
 * the sample quantiles within about 0.5 % of the true ones (binomial error
 * of a quantile, sqrt(0.09 / 20000) / phi(1.2816) x 0.3 = 0.4 % in log), so
 * 2 % holds on any seed; a normal draw instead (P90 / P50 = 1 + 1.2816 x 0.3
 * = 1.3845, 6 % lower) or a spread off by a fifth (1.36 or 1.59) fails.
 */
static void test_model_error_is_lognormal(void **state)
{
	struct workload w;
	struct gpu g;
	struct unc_spec s;
	struct unc_result r;
	double want = exp(1.2816 * 0.3);
	(void)state;
	tc_unc_case(&w, &g);
	unc_spec_default(&s);
	unc_spec_zero(&s);
	s.model_rel_sd = 0.3;
	s.samples = 20000;
	tc_unc_run(&w, &g, &s, &r);
	assert_close(r.step_s.p90 / r.step_s.p50, want, 0.02);
	assert_close(r.step_s.p50 / r.step_s.p10, want, 0.02);
	assert_close(r.step_s.p50, r.point_step_s, 0.02);
	/* the mean of a log-normal: exp(sigma^2 / 2) = 1.0460 times the median */
	assert_close(r.step_s.mean / r.point_step_s, exp(0.045), 0.02);
}

/*
 * The chance of meeting a deadline, from the closed form rather than the
 * sample's own quantile: with the model term alone, a deadline of T x
 * exp(sigma z) is met with probability Phi(z): 0.9 at z = 1.2816, 0.5 at
 * 0, 0.1 at -1.2816 (20,000 samples: binomial error sqrt(0.09 / 20000) =
 * 0.0021, so 0.01 is nearly 5 of them).
 */
static void test_p_deadline_closed_form(void **state)
{
	struct workload w;
	struct gpu g;
	struct unc_spec s;
	struct unc_result r;
	static const double z[] = { 1.2816, 0, -1.2816 }, p[] = { 0.9, 0.5, 0.1 };
	(void)state;
	tc_unc_case(&w, &g);
	unc_spec_default(&s);
	unc_spec_zero(&s);
	s.samples = 1;
	tc_unc_run(&w, &g, &s, &r);
	double T = r.total_s.p50;
	s.model_rel_sd = 0.3;
	s.samples = 20000;
	for (int i = 0; i < 3; i++) {
		s.deadline_s = T * exp(0.3 * z[i]);
		tc_unc_run(&w, &g, &s, &r);
		assert_true(r.has_deadline);
		if (fabs(r.p_deadline - p[i]) > 0.01)
			fail_msg("deadline T x exp(0.3 x %g): P %.4f, closed form %.2f", z[i],
				 r.p_deadline, p[i]);
	}
}

/*
 * Spot alone (every other spread 0, so the run without preemptions is the
 * point estimate T): mean lost time mu x (restart + interval / 2); its
 * variance, a compound Poisson's, mu x E[X^2] with X = restart + interval
 * x U, E[X^2] = r^2 + r i + i^2 / 3.  The sample mean of N runs must lie
 * within 4 standard errors, sqrt(mu E[X^2] / N), of it (a fixed seed; 4
 * standard errors: a correct draw fails one seed in 15,000).  Returns mu.
 */
static double check_spot_mean(double mu_wanted, double restart, double interval)
{
	struct workload w;
	struct gpu g;
	struct unc_spec s;
	struct unc_result base, spot;
	struct price_offer o;
	struct cost_billing bill = { COST_PER_SECOND, 0 };
	double T, mu, lost, ex2, se;
	tc_unc_case(&w, &g);
	tc_unc_offer(&o);
	unc_spec_default(&s);
	unc_spec_zero(&s);
	s.samples = 1;
	s.offer = &o;
	s.billing = &bill;
	tc_unc_run(&w, &g, &s, &base);
	T = base.total_s.p50;
	s.kind = COST_SPOT;
	s.spot.instances = 1;
	s.spot.preempt_per_h = mu_wanted * 3600 / T;
	s.spot.restart_s = restart;
	s.spot.checkpoint_interval_s = interval;
	s.samples = 4000;
	tc_unc_run(&w, &g, &s, &spot);
	mu = s.spot.preempt_per_h * T / 3600;
	lost = mu * (restart + interval / 2);
	ex2 = restart * restart + restart * interval + interval * interval / 3;
	se = sqrt(mu * ex2 / (double)s.samples);
	if (fabs(spot.total_s.mean - (T + lost)) > 4 * se)
		fail_msg("mean run %.6g s, closed form %.6g s (T %.6g + lost %.6g), "
			 "4 standard errors %.3g s", spot.total_s.mean, T + lost, T, lost,
			 4 * se);
	return mu;
}

/* Poisson branch: mu 0.7 restarts a run, 120 s restart, 10-minute
 * checkpoints: 0.7 x 420 = 294 s lost on average. */
static void test_spot_mean_poisson(void **state)
{
	(void)state;
	assert_close(check_spot_mean(0.7, 120, 600), 0.7, TOL_TIGHT);
}

/* Many restarts: mu 5000 (above the 1000 drawn one by one), 30 s restart,
 * 60 s checkpoints: 5000 x 60 = 300,000 s lost on average. */
static void test_spot_mean_many(void **state)
{
	(void)state;
	assert_close(check_spot_mean(5000, 30, 60), 5000, TOL_TIGHT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_error_is_lognormal),
		cmocka_unit_test(test_p_deadline_closed_form),
		cmocka_unit_test(test_spot_mean_poisson),
		cmocka_unit_test(test_spot_mean_many),
	};
	tc_use_test_data();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
