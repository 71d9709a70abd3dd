/*
 * tc_catalog.h - the search path and GPU catalog a vision or recommender
 * suite loads once for its tests, and the workload loader they share
 * (include after tc_test.h).
 */
#ifndef TC_TEST_CATALOG_H
#define TC_TEST_CATALOG_H

#include <stdlib.h>
#include <string.h>

#include "../../src/io/datapath.h"
#include "../../src/io/gpu_load.h"
#include "../../src/io/val_load.h"
#include "../../src/io/wl_load.h"
#include "../../src/model/analyses/validate.h"
#include "tc_arch.h"

static struct gpu_catalog cat;
static struct tc_datapath dp;

/* The catalog of the one data root `root`. */
static inline int tc_catalog_load(const char *root)
{
	struct tc_diag d;
	memset(&dp, 0, sizeof(dp));
	strcpy(dp.dir[0], root);
	dp.count = 1;
	tc_diag_init(&d);
	return gpu_catalog_load(&dp, &cat, &d);
}

/* cmocka group setups: the test suite's frozen copy of the data, or the
 * shipped data (the suites that check the shipped validation sets). */
static inline int tc_catalog_setup_frozen(void **state)
{
	(void)state;
	return tc_catalog_load(TC_TEST_DATA);
}

static inline int tc_catalog_setup_shipped(void **state)
{
	(void)state;
	return tc_catalog_load(".");
}

static inline int tc_catalog_teardown(void **state)
{
	(void)state;
	gpu_catalog_release(&cat);
	return 0;
}

/* Load `path` (must succeed) into a heap workload, the caller's to free. */
static inline struct workload *tc_load_workload(const char *path)
{
	struct workload *w = calloc(1, sizeof(*w));
	struct tc_diag d;
	assert_non_null(w);
	tc_diag_init(&d);
	if (wl_load_file(path, &dp, w, &d)) {
		tc_show_diag(&d);
		fail_msg("cannot load %s", path);
	}
	return w;
}

static inline int tc_catalog_gpu(const char *id, struct gpu *out, void *ctx)
{
	char why[512];
	return gpu_catalog_lookup(ctx, id, out, why, sizeof(why));
}

/* Run the validation set `file` (at least min_cases cases, all of family
 * `family`) against the suite's catalog: none may fail and the MAPE must
 * stay below mape_max. */
static inline void tc_validate_set(const char *file, const char *family,
				   size_t min_cases, double mape_max)
{
	struct val_set s;
	struct tc_diag d;
	struct val_result *r;
	struct val_stats st;
	size_t n;
	val_set_init(&s);
	tc_diag_init(&d);
	if (val_load_file(file, tc_test_datapath(), &s, &d)) {
		tc_show_diag(&d);
		fail_msg("cannot load %s", file);
	}
	assert_true(s.count >= min_cases);
	r = calloc(s.count, sizeof(*r));
	assert_non_null(r);
	assert_int_equal(val_run(s.cases, s.count, family, 1, 0, tc_catalog_gpu,
				 &cat, r, &n), 0);
	assert_int_equal(n, s.count);
	assert_int_equal(val_stats_compute(r, n, &st), 0);
	print_message("%s: %zu cases, MAPE %.2f%%, worst %.1f%%\n", family, st.n,
		      100 * st.mape, 100 * st.worst_ape);
	assert_int_equal(st.failed, 0);
	assert_true(st.mape < mape_max);
	free(r);
	val_set_release(&s);
}

#endif
