/*
 * tc_test.h - what every cmocka suite includes first.
 */
#ifndef TC_TEST_H
#define TC_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmocka 1.1's assert_float_equal goes through float: compare doubles here. */
#define assert_close(a, b, rel_tol)                                          \
	do {                                                                 \
		double tc_a_ = (a), tc_b_ = (b);                             \
		double tc_s_ = fabs(tc_b_) > 1e-300 ? fabs(tc_b_) : 1.0;     \
		if (!(fabs(tc_a_ - tc_b_) <= (rel_tol) * tc_s_))             \
			fail_msg("%s = %.12g, expected %.12g (rel tol %g)",  \
				 #a, tc_a_, tc_b_, (double)(rel_tol));       \
	} while (0)

/* Named tolerances (GSL style). */
#define TOL_EXACT 1e-12 /* arithmetic that should be exact up to rounding */
#define TOL_TIGHT 1e-9

/*
 * The suites never read the shipped models/ and pricing/, whose figures are
 * refreshed: they read a frozen copy (the runners' tests/test-env.sh names
 * the same folder and date), on a fixed day.
 */
#define TC_TEST_DATA "tests/data"
#define TC_TEST_TODAY "2026-12-01"

/* Make every dp_init() of this process see only TC_TEST_DATA. */
static inline void tc_use_test_data(void)
{
	setenv("TRAINCOST_PATH", TC_TEST_DATA, 1);
	setenv("TRAINCOST_PATH_ONLY", "1", 1);
}

#endif
