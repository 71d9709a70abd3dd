/*
 * test_val_groups.c - validation statistics per group and the error of
 * predicted A/B speed ratios.  Every expected number is worked out by hand
 * in the comments.
 */
#include "tc_test.h"

#include <stdlib.h>
#include <string.h>

#include "../../src/model/analyses/val_groups.h"

static void set_case(struct val_case *c, const char *id, const char *gpu, const char *pair,
		     enum val_metric m, double global_batch)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->id, sizeof(c->id), "%s", id);
	snprintf(c->gpu_id, sizeof(c->gpu_id), "%s", gpu);
	snprintf(c->pair, sizeof(c->pair), "%s", pair);
	c->metric = m;
	c->w.train.global_batch = global_batch;
}

static void set_result(struct val_result *r, size_t index, double measured, double predicted)
{
	memset(r, 0, sizeof(*r));
	r->index = index;
	r->ok = 1;
	r->measured = measured;
	r->predicted = predicted;
	r->err_frac = (predicted - measured) / measured;
}

static const char *key_pair(const struct val_case *c)
{
	return c->pair;
}

static const char *key_gpu(const struct val_case *c)
{
	return c->gpu_id;
}

/* A time metric counts inversely: measured 2 s, predicted 2.5 s is a
 * prediction 2/2.5 = 0.8 times as fast. */
static void test_speed_factor(void **state)
{
	struct val_case c;
	struct val_result r;
	(void)state;
	set_case(&c, "t", "a100-80gb-sxm", "", VAL_ITER_TIME, 8);
	set_result(&r, 0, 2.0, 2.5);
	assert_close(val_speed_factor(&c, &r), 0.8, TOL_EXACT);
	set_case(&c, "r", "a100-80gb-sxm", "", VAL_TOKENS_PER_S, 8);
	set_result(&r, 0, 100, 120);
	assert_close(val_speed_factor(&c, &r), 1.2, TOL_EXACT);
}

/*
 * Benchmark "bert": h100 measured 300 tokens/s, predicted 330 (1.1x fast);
 * l40s measured 100, predicted 88 (0.88x).  Measured A/B = 300/100 = 3;
 * predicted 330/88 = 3.75; error 3.75/3 - 1 = 0.25 (= 1.1/0.88 - 1).
 * Benchmark "gpt": a100 measured 2 s/step for 16 sequences, predicted
 * 2.5 s (0.8x); h100 measured 0.5 s for 16 sequences, predicted 0.4 s
 * (1.25x).  Measured A/B speed = (16/2)/(16/0.5) = 0.25; error
 * 0.8/1.25 - 1 = -0.36.  A third "gpt" run on the same a100 pairs only with
 * the h100; a case with no benchmark pairs with nobody.
 */
static void test_ratios(void **state)
{
	struct val_case c[6];
	struct val_result r[6];
	struct val_ratio *ra = NULL;
	struct val_stats st;
	size_t n = 0;
	(void)state;
	set_case(&c[0], "b1", "h100-sxm", "bert", VAL_TOKENS_PER_S, 0);
	set_case(&c[1], "g1", "a100-80gb-sxm", "gpt", VAL_ITER_TIME, 16);
	set_case(&c[2], "b2", "l40s", "bert", VAL_TOKENS_PER_S, 0);
	set_case(&c[3], "g2", "h100-sxm", "gpt", VAL_ITER_TIME, 16);
	set_case(&c[4], "g3", "a100-80gb-sxm", "gpt", VAL_ITER_TIME, 16);
	set_case(&c[5], "x", "l4", "", VAL_TOKENS_PER_S, 0);
	set_result(&r[0], 0, 300, 330);
	set_result(&r[1], 1, 2.0, 2.5);
	set_result(&r[2], 2, 100, 88);
	set_result(&r[3], 3, 0.5, 0.4);
	set_result(&r[4], 4, 2.0, 2.5);
	set_result(&r[5], 5, 10, 10);
	assert_int_equal(val_ratios(c, r, 6, key_pair, &ra, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(ra[0].a, 0);
	assert_int_equal(ra[0].b, 2);
	assert_close(ra[0].err_frac, 0.25, TOL_EXACT);
	assert_close(ra[0].measured, 3.0, TOL_EXACT);
	assert_int_equal(ra[1].a, 1);
	assert_int_equal(ra[1].b, 3);
	assert_close(ra[1].err_frac, -0.36, TOL_EXACT);
	assert_close(ra[1].measured, 0.25, TOL_EXACT);
	assert_int_equal(ra[2].a, 3);
	assert_int_equal(ra[2].b, 4);
	/* 1.25/0.8 - 1 = 0.5625 */
	assert_close(ra[2].err_frac, 0.5625, TOL_EXACT);
	/* |0.25|, |-0.36|, |0.5625|: mean 1.1725/3, median 0.36, worst the third */
	assert_int_equal(val_ratio_stats(ra, n, &st), 0);
	assert_int_equal(st.n, 3);
	assert_close(st.mape, 1.1725 / 3, TOL_EXACT);
	assert_close(st.median_ape, 0.36, TOL_EXACT);
	assert_int_equal(st.worst, 2);
	free(ra);
}

/* Two measurements that share no unit give no measured ratio, but still an
 * error: tokens/s against a step time. */
static void test_ratio_mixed_metrics(void **state)
{
	struct val_case c[2];
	struct val_result r[2];
	struct val_ratio *ra = NULL;
	size_t n = 0;
	(void)state;
	set_case(&c[0], "a", "h100-sxm", "m", VAL_TOKENS_PER_S, 0);
	set_case(&c[1], "b", "a100-80gb-sxm", "m", VAL_ITER_TIME, 4);
	set_result(&r[0], 0, 100, 120); /* 1.2x */
	set_result(&r[1], 1, 2.0, 2.5); /* 0.8x */
	assert_int_equal(val_ratios(c, r, 2, key_pair, &ra, &n), 0);
	assert_int_equal(n, 1);
	assert_true(ra[0].measured == 0);
	assert_close(ra[0].err_frac, 0.5, TOL_EXACT); /* 1.2/0.8 - 1 */
	free(ra);
}

/* Runs of one benchmark on different GPU counts compare per GPU: 8 x h100
 * at 300 samples/s against 1 x l40s at 100 is (300/8)/(100/1) = 0.375 per
 * GPU; the error does not depend on the counts: 1.1/0.88 - 1 = 0.25. */
static void test_ratio_per_gpu(void **state)
{
	struct val_case c[2];
	struct val_result r[2];
	struct val_ratio *ra = NULL;
	size_t n = 0;
	(void)state;
	set_case(&c[0], "a", "h100-sxm", "m", VAL_SAMPLES_PER_S, 0);
	set_case(&c[1], "b", "l40s", "m", VAL_SAMPLES_PER_S, 0);
	c[0].w.plan.count = 8;
	c[1].w.plan.count = 1;
	set_result(&r[0], 0, 300, 330);
	set_result(&r[1], 1, 100, 88);
	assert_int_equal(val_ratios(c, r, 2, key_pair, &ra, &n), 0);
	assert_int_equal(n, 1);
	assert_close(ra[0].measured, 0.375, TOL_EXACT);
	assert_close(ra[0].err_frac, 0.25, TOL_EXACT);
	free(ra);
}

/* Groups in first-seen order; the worst case is indexed in the full
 * results.  a100: errors +10 % and -30 %: MAPE 20 %, bias -10 %, worst
 * result 2; h100: one error of +5 %. */
static void test_group_by(void **state)
{
	struct val_case c[3];
	struct val_result r[3];
	struct val_group *g = NULL;
	(void)state;
	set_case(&c[0], "a", "a100-80gb-sxm", "", VAL_TOKENS_PER_S, 0);
	set_case(&c[1], "b", "h100-sxm", "", VAL_TOKENS_PER_S, 0);
	set_case(&c[2], "c", "a100-80gb-sxm", "", VAL_TOKENS_PER_S, 0);
	set_result(&r[0], 0, 100, 110);
	set_result(&r[1], 1, 100, 105);
	set_result(&r[2], 2, 100, 70);
	int ng = val_group_by(c, r, 3, key_gpu, &g);
	assert_int_equal(ng, 2);
	assert_string_equal(g[0].key, "a100-80gb-sxm");
	assert_int_equal(g[0].st.n, 2);
	assert_close(g[0].st.mape, 0.2, TOL_EXACT);
	assert_close(g[0].st.bias, -0.1, TOL_EXACT);
	assert_int_equal(g[0].worst_result, 2);
	assert_string_equal(g[1].key, "h100-sxm");
	assert_close(g[1].st.mape, 0.05, TOL_EXACT);
	free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_speed_factor),
		cmocka_unit_test(test_ratios),
		cmocka_unit_test(test_ratio_mixed_metrics),
		cmocka_unit_test(test_ratio_per_gpu),
		cmocka_unit_test(test_group_by),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
