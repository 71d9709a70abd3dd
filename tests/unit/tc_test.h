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

#include "../../src/io/gpu_load.h"

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

/* A name for tc_write_temp: mkstemp(3) replaces the six X's, which it
 * requires, with a unique suffix. */
#define TC_TEMP_FILE "/tmp/tc-test-XXXXXX"

/* Write `text` into a new temporary file; path (a TC_TEMP_FILE copy)
 * receives its name. */
static inline void tc_write_temp(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *f;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The GPU `id` of the frozen catalog; fails the test when it does not load. */
static inline void tc_test_gpu(const char *id, struct gpu *g)
{
	struct tc_diag d;
	tc_diag_init(&d);
	if (gpu_load_id(TC_TEST_DATA "/models/gpu", id, g, &d))
		fail_msg("GPU '%s' of %s/models/gpu does not load", id, TC_TEST_DATA);
}

/* The A100 SXM4 80GB of the vTrain measurements, the fitted defaults'
 * anchor. */
static inline void tc_test_a100(struct gpu *g)
{
	tc_test_gpu("a100-80gb-sxm", g);
}

/* A val_gpu_fn over the frozen catalog (ctx unused). */
static inline int tc_test_gpu_for(const char *id, struct gpu *out, void *ctx)
{
	struct tc_diag d;
	(void)ctx;
	tc_diag_init(&d);
	return gpu_load_id(TC_TEST_DATA "/models/gpu", id, out, &d) ? -1 : 0;
}

/* The data path of the frozen catalog (for loaders that find presets). */
static inline const struct tc_datapath *tc_test_datapath(void)
{
	static struct tc_datapath dp;
	static int ready;
	if (!ready) {
		struct tc_diag d;
		tc_diag_init(&d);
		tc_use_test_data();
		if (dp_init(&dp, NULL, 0, &d))
			fail_msg("the data path of %s does not initialise", TC_TEST_DATA);
		ready = 1;
	}
	return &dp;
}

#endif
