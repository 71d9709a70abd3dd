/*
 * test_fw_fit.c - the per-framework stack_frac fit recovers a known value,
 * and cross-validation holds groups out.
 */
#include "tc_test.h"

#include <stdlib.h>

#include "../../src/io/val_load.h"
#include "../../src/model/analyses/fw_fit.h"
#include "../../src/model/families/llm.h"

#define CASES "tests/unit/data/val/fw-fit.csv"

/* Load the cases and make each one's measurement the model's prediction
 * with stack_frac = s[framework]: x 0.8, y 0.6. */
static void load_synthetic(struct val_set *set)
{
	struct tc_diag d;
	struct est_workspace ws;
	struct gpu g;
	val_set_init(set);
	tc_diag_init(&d);
	assert_int_equal(val_load_file(CASES, tc_test_datapath(), set, &d), 0);
	assert_int_equal(set->count, 4);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	tc_test_a100(&g);
	for (size_t i = 0; i < set->count; i++) {
		struct val_case *c = &set->cases[i];
		struct plan_problem why;
		double s = c->framework[0] == 'x' ? 0.8 : 0.6;
		c->stack.value[eff_id_stack_frac] = s;
		c->stack.set = 1ULL << eff_id_stack_frac;
		assert_int_equal(val_predict(c, &g, &ws, &c->measured, &why), 0);
		c->stack.set = 0;
	}
	est_workspace_release(&ws);
}

/* One call at a time: the group key of a case for the cross-validation. */
static const char *source_of(const struct val_case *c)
{
	static char buf[VAL_SOURCE_LEN];
	return fw_source_group(c, buf, sizeof(buf));
}

static void test_recovers_stack(void **state)
{
	struct val_set set;
	struct fw_fit fits[FW_FIT_MAX];
	unsigned char use[4] = { 1, 1, 1, 1 };
	(void)state;
	load_synthetic(&set);
	int nf = fw_fit_stack(set.cases, set.count, use, tc_test_gpu_for, NULL, fits, FW_FIT_MAX);
	assert_int_equal(nf, 2);
	assert_string_equal(fits[0].id, "x");
	assert_int_equal(fits[0].n, 3);
	assert_close(fits[0].stack_frac, 0.8, 1e-3);
	assert_true(fits[0].rms_log < 1e-3);
	assert_string_equal(fits[1].id, "y");
	assert_close(fits[1].stack_frac, 0.6, 1e-3);
	/* The fitted value is written into every case of the framework. */
	assert_close(set.cases[2].stack.value[eff_id_stack_frac], 0.8, 1e-3);
	val_set_release(&set);
}

/* A run that is its own group is predicted from the others: x's runs on
 * papers A and B predict each other exactly (one stack_frac fits all), so
 * leaving a paper out costs nothing; y, alone, falls back to the rate
 * pooled over x's runs (0.8) against its true 0.6, so its held-out step
 * time is predicted about 0.6/0.8 = 0.75 as long (more compute-bound runs
 * come closer to exactly that). */
static void test_leave_one_source_out(void **state)
{
	struct val_set set;
	struct val_result res[4];
	char buf[VAL_SOURCE_LEN];
	size_t n = 0;
	(void)state;
	load_synthetic(&set);
	assert_string_equal(fw_source_group(&set.cases[0], buf, sizeof(buf)), "Paper A");
	assert_int_equal(fw_cross_validate(set.cases, set.count, source_of, tc_test_gpu_for, NULL,
					   res, &n), 0);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++) {
		assert_true(res[i].ok);
		if (set.cases[res[i].index].framework[0] == 'x')
			assert_true(fabs(res[i].err_frac) < 1e-3);
		else
			assert_true(res[i].err_frac < -0.1 && res[i].err_frac > -0.3);
	}
	val_set_release(&set);
}

/*
 * Shrinkage by hand.  fw_shrink(0.6, 2, 0.9, 2): equal weights, the
 * geometric mean sqrt(0.6 * 0.9) = 0.734847.  Two stacks of one family,
 * pool 0.8: A on 4 runs at 0.9 (rms 0.1), B on 1 run at 0.5 (rms 0).
 * s2 = (4 x 0.01 + 1 x 0) / 5 = 0.008; log(0.9/0.8) = 0.117783,
 * log(0.5/0.8) = -0.470004; their mean square 0.117388; noise share
 * s2 x mean(1/4, 1) = 0.008 x 0.625 = 0.005; t2 = 0.112388; k = s2 / t2 =
 * 0.071182 runs.  B shrinks to exp((log 0.5 + k log 0.8) / (1 + k)) =
 * 0.515863, A to 0.898148.  With one stack, or stacks no further apart
 * than their noise, the pool weighs FW_PRIOR_MAX_RUNS.
 */
static void test_shrinkage(void **state)
{
	struct fw_fit f[3] = {
		{ .id = "a", .n = 4, .stack_frac = 0.9, .rms_log = 0.1 },
		{ .id = "b", .n = 1, .stack_frac = 0.5, .rms_log = 0 },
		{ .id = "c", .n = 3, .stack_frac = 0.7, .rms_log = 0.2 },
	};
	const char *fam[3] = { "llm", "llm", "vision" };
	(void)state;
	assert_close(fw_shrink(0.6, 2, 0.9, 2), 0.734847, 1e-5);
	double k = fw_prior_runs(f, 3, fam, "llm", 0.8);
	assert_close(k, 0.071182, 1e-4);
	assert_close(fw_shrink(0.5, 1, 0.8, k), 0.515863, 1e-5);
	assert_close(fw_shrink(0.9, 4, 0.8, k), 0.898148, 1e-5);
	assert_close(fw_prior_runs(f, 3, fam, "vision", 0.7), FW_PRIOR_MAX_RUNS, TOL_EXACT);
	/* log(0.85/0.8)^2 / 2 = 0.00184, below the noise share 0.005 */
	f[0].stack_frac = 0.85;
	f[1].stack_frac = 0.8;
	assert_close(fw_prior_runs(f, 3, fam, "llm", 0.8), FW_PRIOR_MAX_RUNS, TOL_EXACT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recovers_stack),
		cmocka_unit_test(test_leave_one_source_out),
		cmocka_unit_test(test_shrinkage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
