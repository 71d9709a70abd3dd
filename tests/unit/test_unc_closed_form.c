/*
 * test_unc_closed_form.c - the Monte Carlo of src/model/analyses/uncertainty.c
 * against closed forms, so that a spread of the wrong size or shape fails,
 * not only a disorder of the quantiles:
 *  - the model-error term alone is log-normal: P90 / P50 = P50 / P10 =
 *    exp(1.2816 sigma) (1.2816: the standard normal's 90th percentile), and
 *    a deadline of T exp(sigma z) is met with probability Phi(z);
 *  - spot preemptions alone among the wall clock's interruptions: the mean
 *    wall clock is T + mu x (restart + checkpoint interval / 2), mu the
 *    expected preemptions, in the Poisson branch (few, each drawn) and in
 *    the branch of many (more than 1000: their sum drawn from its normal
 *    approximation);
 *  - the spot price drawn across zones: the split uniform's quantiles and
 *    mean (unc_zone_price), and the cost's, with every other spread 0.
 */
#include "tc_test.h"

#include "tc_unc.h"
#include "../../src/model/families/campaign.h"

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
 * Spot preemptions alone among the wall clock's interruptions (every other
 * spread 0, so the steady run is the point estimate T; no other
 * interruption, no checkpoint to write, restarts not spread): each loses X
 * = restart + interval x U, so the mean wall clock is T + mu (restart +
 * interval / 2) with mu = lambda x wall the preemptions, lambda =
 * preempt_per_h x instances / 3600; its variance, a compound Poisson's, mu
 * x E[X^2], E[X^2] = r^2 + r i + i^2 / 3.  lambda = mu / (T + mu a), a =
 * restart + interval / 2, makes mu the expected count.  The sample mean
 * of N runs must lie within 4 standard errors, sqrt(mu E[X^2] / N), of it
 * (a fixed seed; 4 standard errors: a correct draw fails one seed in
 * 15,000).  The steady total draws no preemption.  Returns mu.
 */
static double check_spot_mean(double mu_wanted, double restart, double interval)
{
	struct workload w;
	struct gpu g;
	struct unc_spec s;
	struct unc_result base, spot;
	struct price_offer o;
	struct cost_billing bill = { COST_PER_SECOND, 0 };
	struct campaign_in in = { 0 };
	struct campaign camp;
	struct plan_problem why;
	double T, mu, a = restart + interval / 2, ex2, se;
	tc_unc_case(&w, &g);
	tc_unc_offer(&o);
	unc_spec_default(&s);
	unc_spec_zero(&s);
	s.samples = 1;
	s.offer = &o;
	s.billing = &bill;
	tc_unc_run(&w, &g, &s, &base);
	T = base.total_s.p50;
	const enum camp_param given[] = { CAMP_P_NODE_RATE, CAMP_P_JOB_RATE, CAMP_P_RESTART,
					  CAMP_P_CHECKPOINT, CAMP_P_INTERVAL, CAMP_P_STRAGGLER,
					  CAMP_P_EVAL, CAMP_P_STARTUP, CAMP_P_SPARE, CAMP_P_PREEMPT };
	for (size_t k = 0; k < sizeof(given) / sizeof(given[0]); k++)
		in.set |= 1u << given[k];
	in.restart_s = restart;
	in.checkpoint = CAMP_CKPT_SYNC;
	in.interval_s = interval;
	in.preempt_per_h = mu_wanted / (T + mu_wanted * a) * 3600; /* one instance */
	struct campaign_job j = { .steady_s = T, .gpus = 8, .gpus_per_node = 8 };
	assert_int_equal(campaign_compute(&in, &j, &camp, &why), 0);
	assert_close(camp.wall_s, T + mu_wanted * a, TOL_TIGHT);
	s.kind = COST_SPOT;
	s.wall = 1;
	s.campaign = &camp;
	s.restart_log_sd = 0;
	s.samples = 4000;
	tc_unc_run(&w, &g, &s, &spot);
	mu = camp.interrupt_per_s * camp.wall_s;
	ex2 = restart * restart + restart * interval + interval * interval / 3;
	se = sqrt(mu * ex2 / (double)s.samples);
	if (fabs(spot.wall_s.mean - (T + mu * a)) > 4 * se)
		fail_msg("mean wall clock %.6g s, closed form %.6g s (T %.6g + lost %.6g), "
			 "4 standard errors %.3g s", spot.wall_s.mean, T + mu * a, T, mu * a,
			 4 * se);
	assert_close(spot.total_s.mean, T, TOL_TIGHT); /* steady: no preemption */
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

/*
 * Without interruptions the wall clock is the steady time stretched, plus
 * the start-up once: 1000 s x 1 + 600 s = 1600 s.
 */
static void test_wall_adds_startup(void **state)
{
	struct campaign c;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	(void)state;
	assert_non_null(r);
	memset(&c, 0, sizeof(c));
	c.stretch = 1;
	c.in.startup_s = 600;
	assert_close(unc_draw_wall_s(r, &c, 1000, 0), 1600, TOL_EXACT);
	gsl_rng_free(r);
}

/*
 * Few restarts are drawn one by one: each costs its restart time (100 s,
 * no spread) and a uniform share of the 100 s checkpoint interval, so a
 * draw loses nothing or at least 100 s, never between.  One restart
 * expected a run (1000 s at 1e-3 a second), 2,000 draws: the normal
 * approximation of many restarts would put about 1.5 % of them (one
 * restart, z below -sqrt(3)) under 100 s.
 */
static void test_few_restarts_each_cost_the_restart(void **state)
{
	struct campaign c;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	(void)state;
	assert_non_null(r);
	gsl_rng_set(r, UNC_DEFAULT_SEED);
	memset(&c, 0, sizeof(c));
	c.stretch = 1;
	c.interrupt_per_s = 1e-3;
	c.in.restart_s = 100;
	c.interval_s = 100;
	for (int i = 0; i < 2000; i++) {
		double lost = unc_draw_wall_s(r, &c, 1000, 0) - 1000;
		if (lost != 0 && lost < 100)
			fail_msg("draw %d lost %.6g s, under one restart", i, lost);
	}
	gsl_rng_free(r);
}

/*
 * The wall clock's cost pays the spare nodes too: with no spread and no
 * interruption the wall clock is the run's T, so its cost is the run's
 * times 1 + 0.25 spare.
 */
static void test_wall_cost_pays_spares(void **state)
{
	struct workload w;
	struct gpu g;
	struct unc_spec s;
	struct unc_result base, r;
	struct price_offer o;
	struct cost_billing bill = { COST_PER_SECOND, 0 };
	struct campaign_in in = { 0 };
	struct campaign camp;
	struct plan_problem why;
	double T;
	(void)state;
	tc_unc_case(&w, &g);
	tc_unc_offer(&o);
	unc_spec_default(&s);
	unc_spec_zero(&s);
	s.samples = 1;
	s.offer = &o;
	s.billing = &bill;
	tc_unc_run(&w, &g, &s, &base);
	T = base.total_s.p50;
	/* every interruption and overhead given as none */
	const enum camp_param given[] = { CAMP_P_NODE_RATE, CAMP_P_JOB_RATE, CAMP_P_RESTART,
					  CAMP_P_CHECKPOINT, CAMP_P_INTERVAL, CAMP_P_STRAGGLER,
					  CAMP_P_EVAL, CAMP_P_STARTUP, CAMP_P_SPARE };
	for (size_t k = 0; k < sizeof(given) / sizeof(given[0]); k++)
		in.set |= 1u << given[k];
	in.spare_frac = 0.25;
	struct campaign_job j = { .steady_s = T, .gpus = 8, .gpus_per_node = 8 };
	assert_int_equal(campaign_compute(&in, &j, &camp, &why), 0);
	s.wall = 1;
	s.campaign = &camp;
	tc_unc_run(&w, &g, &s, &r);
	assert_close(r.wall_s.p50, T, TOL_TIGHT);
	assert_true(r.cost_usd.p50 > 0);
	assert_close(r.wall_usd.p50, r.cost_usd.p50 * 1.25, TOL_TIGHT);
}

/*
 * The split uniform by hand, low 8, median 9, high 20 ($ per instance-hour):
 * u 0.1 -> 8 + 2 x 0.1 x (9 - 8) = 8.2; u 0.5 -> 9; u 0.9 -> 9 + (2 x 0.9
 * - 1) x (20 - 9) = 17.8; the ends 8 and 20.  Without a median the midpoint
 * 14 makes it uniform: u 0.25 -> 8 + 0.5 x 6 = 11.
 */
static void test_zone_price_by_hand(void **state)
{
	(void)state;
	assert_close(unc_zone_price(0, 8, 9, 20), 8, TOL_EXACT);
	assert_close(unc_zone_price(0.1, 8, 9, 20), 8.2, TOL_EXACT);
	assert_close(unc_zone_price(0.5, 8, 9, 20), 9, TOL_EXACT);
	assert_close(unc_zone_price(0.9, 8, 9, 20), 17.8, TOL_EXACT);
	assert_close(unc_zone_price(1, 8, 9, 20), 20, TOL_EXACT);
	assert_close(unc_zone_price(0.25, 8, 14, 20), 11, TOL_EXACT);
}

/* The spot run of tc_unc_case on tc_unc_offer with spot zones low, median
 * (0: not given) and high, every spread and preemption 0, into *r; the
 * spot price point to price the run at is `point`. */
static void run_zones(double low, double median, double high, double point, size_t n,
		      struct unc_result *r)
{
	struct workload w;
	struct gpu g;
	struct unc_spec s;
	struct price_offer o;
	struct cost_billing bill = { COST_PER_SECOND, 0 };
	tc_unc_case(&w, &g);
	tc_unc_offer(&o);
	o.price_usd_per_h[COST_SPOT] = point;
	o.spot_low_usd_per_h = low;
	o.spot_median_usd_per_h = median;
	o.spot_high_usd_per_h = high;
	unc_spec_default(&s);
	unc_spec_zero(&s);
	s.offer = &o;
	s.billing = &bill;
	s.kind = COST_SPOT;
	s.samples = n;
	tc_unc_run(&w, &g, &s, r);
}

/*
 * With every spread 0 the run's time is fixed, so each sample's cost is
 * that time's cost per dollar of hourly price (the run on one 8-GPU
 * instance: unit = cost at $9 / 9) times the drawn price.  Low 8, median 9,
 * high 20: P10 8.2, P50 9, P90 17.8 (test_zone_price_by_hand) and mean (8 +
 * 2 x 9 + 20) / 4 = 11.5.  20,000 samples: a quantile's standard error is
 * sqrt(0.1 x 0.9 / 20000) / density, density 0.5 / (9 - 8) below the median
 * and 0.5 / (20 - 9) above: 0.004 at P10, 0.05 at P90 (0.3 %); the mean's,
 * sd / sqrt(20000) with sd = 3.6, 0.025 (0.2 %): 1 % holds on any seed.  A
 * triangular draw with mode 9 (median 20 - sqrt(0.5 x 12 x 11) = 11.9) or
 * a uniform one from 8 to 20 (median 14) fails.  The time figures are
 * those of the run without zones, exactly: the price has its own stream.
 */
static void test_cost_draws_zone_price(void **state)
{
	struct unc_result fixed, drawn;
	(void)state;
	run_zones(0, 0, 0, 9, 1, &fixed);
	assert_false(fixed.price_drawn);
	double unit = fixed.cost_usd.p50 / 9;
	run_zones(8, 9, 20, 9, 20000, &drawn);
	assert_true(drawn.price_drawn);
	assert_true(drawn.price_median_sourced);
	assert_close(drawn.cost_usd.p10 / unit, 8.2, 0.01);
	assert_close(drawn.cost_usd.p50 / unit, 9, 0.01);
	assert_close(drawn.cost_usd.p90 / unit, 17.8, 0.01);
	assert_close(drawn.cost_usd.mean / unit, 11.5, 0.01);
	assert_close(drawn.total_s.p50, fixed.total_s.p50, TOL_EXACT);
	/* no median given: uniform from 8 to 20, P50 14, the point price 8 its
	 * lowest zone's (the shipped AWS rows) */
	run_zones(8, 0, 20, 8, 20000, &drawn);
	assert_false(drawn.price_median_sourced);
	assert_close(drawn.price_median_usd_per_h, 14, TOL_EXACT);
	assert_close(drawn.cost_usd.p50 / unit, 14, 0.01);
	assert_close(drawn.cost_usd.p10 / unit, 8 + 0.1 * 12, 0.01);
}

/* Drawing the price leaves every time draw as it was: the default spreads,
 * the same seed, with and without zones, give the same step and total
 * quantiles to the last bit. */
static void test_price_stream_apart(void **state)
{
	struct workload w;
	struct gpu g;
	struct unc_spec s;
	struct price_offer o;
	struct cost_billing bill = { COST_PER_SECOND, 0 };
	struct unc_result plain, zoned;
	(void)state;
	tc_unc_case(&w, &g);
	tc_unc_offer(&o);
	unc_spec_default(&s);
	s.offer = &o;
	s.billing = &bill;
	s.kind = COST_SPOT;
	s.samples = 300;
	tc_unc_run(&w, &g, &s, &plain);
	o.spot_low_usd_per_h = 12;
	o.spot_high_usd_per_h = 30;
	tc_unc_run(&w, &g, &s, &zoned);
	assert_false(plain.price_drawn);
	assert_true(zoned.price_drawn);
	assert_true(plain.step_s.p10 == zoned.step_s.p10 && plain.step_s.p90 == zoned.step_s.p90);
	assert_true(plain.total_s.p50 == zoned.total_s.p50 && plain.total_s.sd == zoned.total_s.sd);
	/* the zones (12 to 30) lie around the point price 15: more spread */
	assert_true(zoned.cost_usd.p90 - zoned.cost_usd.p10 > plain.cost_usd.p90 - plain.cost_usd.p10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_error_is_lognormal),
		cmocka_unit_test(test_p_deadline_closed_form),
		cmocka_unit_test(test_spot_mean_poisson),
		cmocka_unit_test(test_spot_mean_many),
		cmocka_unit_test(test_wall_adds_startup),
		cmocka_unit_test(test_few_restarts_each_cost_the_restart),
		cmocka_unit_test(test_wall_cost_pays_spares),
		cmocka_unit_test(test_zone_price_by_hand),
		cmocka_unit_test(test_cost_draws_zone_price),
		cmocka_unit_test(test_price_stream_apart),
	};
	tc_use_test_data();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
