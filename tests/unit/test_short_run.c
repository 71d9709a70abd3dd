/*
 * test_short_run.c - the figure of a short benchmark run: a rate averaged
 * over a few steps with the run's start-up inside (short_run.h), values by
 * hand and relations.
 */
#include "tc_test.h"

#include "../../src/model/analyses/short_run.h"

/* Averaged over time: N t / (N t + W). */
static void test_time_mean(void **state)
{
	struct val_figure f = { .steps = 100, .warmup = 1, .mean = VAL_MEAN_TIME };
	(void)state;
	/* 100 x 0.5 s = 50 s of steps, 20 s of start-up: 50 / 70 */
	assert_close(short_run_rate_frac(&f, 0.5, 20), 50.0 / 70.0, TOL_EXACT);
	/* the Lambda BERT log: 100 steps of 0.488 s and 32.2 s more = 81.0 s,
	 * 48.8 / 81.0 of the steady rate */
	assert_close(short_run_rate_frac(&f, 0.488, 32.2), 48.8 / 81.0, TOL_EXACT);
	/* no start-up: the steady rate */
	assert_close(short_run_rate_frac(&f, 0.5, 0), 1, TOL_EXACT);
}

/* The mean of the per-step rates: (N - 1 + t / (t + W)) / N. */
static void test_rate_mean(void **state)
{
	struct val_figure f = { .steps = 50, .warmup = 1, .mean = VAL_MEAN_RATE };
	(void)state;
	/* 49 steps at the steady rate, one at 1 / (1 + 19) of it:
	 * (49 + 0.05) / 50 = 0.981 */
	assert_close(short_run_rate_frac(&f, 1, 19), 0.981, TOL_EXACT);
	/* however long the start-up, one step of 50 costs at most 1/50 */
	assert_true(short_run_rate_frac(&f, 1, 1e9) >= 49.0 / 50.0);
	/* the same run averaged over time loses 19 / 69 of its rate */
	f.mean = VAL_MEAN_TIME;
	assert_close(short_run_rate_frac(&f, 1, 19), 50.0 / 69.0, TOL_EXACT);
}

/* A steady-state figure, or one with the start-up outside, is the rate. */
static void test_steady(void **state)
{
	struct val_figure none = { 0 };
	struct val_figure outside = { .steps = 10, .warmup = 0, .mean = VAL_MEAN_TIME };
	(void)state;
	assert_close(short_run_rate_frac(&none, 0.3, 20), 1, TOL_EXACT);
	assert_close(short_run_rate_frac(&outside, 0.3, 20), 1, TOL_EXACT);
}

/*
 * Relations: a longer start-up lowers the figure, more steps dilute it,
 * and a mean of rates never lies below a mean over time.
 */
static void test_relations(void **state)
{
	struct val_figure f = { .steps = 20, .warmup = 1, .mean = VAL_MEAN_TIME };
	struct val_figure r = { .steps = 20, .warmup = 1, .mean = VAL_MEAN_RATE };
	struct val_figure longer = { .steps = 200, .warmup = 1, .mean = VAL_MEAN_TIME };
	double w;
	(void)state;
	for (w = 0.5; w < 100; w *= 2) {
		assert_true(short_run_rate_frac(&f, 0.4, 2 * w) <
			    short_run_rate_frac(&f, 0.4, w));
		assert_true(short_run_rate_frac(&longer, 0.4, w) >
			    short_run_rate_frac(&f, 0.4, w));
		assert_true(short_run_rate_frac(&r, 0.4, w) >=
			    short_run_rate_frac(&f, 0.4, w));
		assert_true(short_run_rate_frac(&f, 0.4, w) > 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_mean),
		cmocka_unit_test(test_rate_mean),
		cmocka_unit_test(test_steady),
		cmocka_unit_test(test_relations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
