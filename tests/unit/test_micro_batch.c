/*
 * test_micro_batch.c - a plan without a micro-batch gets the fastest one
 * that fits, and says it was chosen.
 */
#include "tc_test.h"

#include <stdlib.h>

#include "tc_vtrain.h"
#include "../../src/model/families/estimate.h"

static void test_fastest_that_fits(void **state)
{
	struct workload w;
	struct gpu g;
	struct estimate chosen, e;
	struct est_workspace ws;
	struct plan_problem why;
	(void)state;
	tc_test_vtrain_case(1, &w, &g);
	assert_int_equal(est_workspace_init(&ws, 0), 0);
	w.plan.micro_batch = 0;
	assert_int_equal(step_estimate(&w, &g, &ws, &chosen, &why), 0);
	assert_int_equal(chosen.micro_batch_chosen, 1);
	assert_true(chosen.fits);
	double per_rank = w.train.global_batch / chosen.plan.dp;
	int tried = 0;
	for (int mb = 1; mb <= per_rank && mb <= EST_MAX_AUTO_MICRO_BATCH; mb *= 2) {
		if (fmod(per_rank, mb) != 0)
			continue;
		w.plan.micro_batch = mb;
		assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
		assert_int_equal(e.micro_batch_chosen, 0);
		if (e.fits)
			assert_true(chosen.step_time_s <= e.step_time_s);
		if (mb == chosen.plan.micro_batch)
			assert_true(e.step_time_s == chosen.step_time_s);
		tried++;
	}
	assert_true(tried >= 2);
	est_workspace_release(&ws);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fastest_that_fits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
