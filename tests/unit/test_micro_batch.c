/*
 * test_micro_batch.c - a plan without a micro-batch gets the fastest one
 * that fits among the divisors of each rank's share up to 64, and says it
 * was chosen.
 */
#include "tc_test.h"

#include <stdlib.h>

#include "tc_vtrain.h"
#include "../../src/model/families/estimate.h"

/*
 * Estimate the plan of w without a micro-batch, then every divisor of the
 * rank's share up to EST_MAX_AUTO_MICRO_BATCH by hand: none that fits is
 * faster than the one chosen, and the chosen one is among them.  Returns
 * the fastest divisor that fits and is not a power of two (0 if none), so
 * that a caller can show a rule of powers of two alone would miss it.
 */
static int check_fastest(struct workload *w, const struct gpu *g,
			 struct est_workspace *ws, struct estimate *chosen)
{
	struct estimate e;
	struct plan_problem why;
	double best_odd = 0;
	int odd = 0, tried = 0, found = 0;

	w->plan.micro_batch = 0;
	assert_int_equal(step_estimate(w, g, ws, chosen, &why), 0);
	assert_int_equal(chosen->micro_batch_chosen, 1);
	assert_true(chosen->fits);
	double per_rank = w->train.global_batch / chosen->plan.dp;
	for (int mb = 1; mb <= per_rank && mb <= EST_MAX_AUTO_MICRO_BATCH; mb++) {
		if (fmod(per_rank, mb) != 0)
			continue;
		w->plan.micro_batch = mb;
		assert_int_equal(step_estimate(w, g, ws, &e, &why), 0);
		assert_int_equal(e.micro_batch_chosen, 0);
		if (e.fits)
			assert_true(chosen->step_time_s <= e.step_time_s);
		if (mb == chosen->plan.micro_batch) {
			assert_true(e.step_time_s == chosen->step_time_s);
			found = 1;
		}
		if (e.fits && (mb & (mb - 1)) && (!odd || e.step_time_s < best_odd)) {
			odd = mb;
			best_odd = e.step_time_s;
		}
		tried++;
	}
	assert_true(found);
	assert_true(tried >= 2);
	return odd;
}

static void test_fastest_that_fits(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate chosen;
	struct est_workspace ws;
	(void)state;
	tc_test_vtrain_case(1, &w, &g);
	assert_int_equal(est_workspace_init(&ws, 0), 0);
	check_fastest(&w, &g, &ws, &chosen);
	est_workspace_release(&ws);
}

/* A rank's share that is not a power of two: 12 sequences a step on each
 * of the dp ranks.  Its divisors up to 64 are 1, 2, 3, 4, 6 and 12; the
 * fastest that fits is one of 3, 6 and 12, as a step of fewer, larger
 * micro-batches is faster here, so a rule that tried powers of two alone
 * (1, 2, 4) could not have chosen it. */
static void test_divisor_not_power_of_two(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate chosen;
	struct est_workspace ws;
	(void)state;
	tc_test_vtrain_case(1, &w, &g);
	assert_int_equal(est_workspace_init(&ws, 0), 0);
	w.plan.micro_batch = 0;
	struct plan_problem why;
	assert_int_equal(step_estimate(&w, &g, &ws, &chosen, &why), 0);
	w.train.global_batch = 12.0 * chosen.plan.dp;
	int odd = check_fastest(&w, &g, &ws, &chosen);
	assert_true(odd == 3 || odd == 6 || odd == 12);
	assert_int_equal(chosen.plan.micro_batch, odd);
	est_workspace_release(&ws);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fastest_that_fits),
		cmocka_unit_test(test_divisor_not_power_of_two),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
