/*
 * test_intmath.c - the one greatest common divisor and the one divisor
 * list (util/intmath.h), with values worked by hand.
 */
#include "tc_test.h"

#include "../../src/util/intmath.h"

static void test_gcd(void **state)
{
	(void)state;
	assert_int_equal(tc_gcd(12, 18), 6);  /* 12 = 2^2*3, 18 = 2*3^2 */
	assert_int_equal(tc_gcd(18, 12), 6);  /* symmetric */
	assert_int_equal(tc_gcd(64, 8), 8);   /* 8 divides 64 */
	assert_int_equal(tc_gcd(7, 5), 1);    /* coprime */
	assert_int_equal(tc_gcd(7, 0), 7);    /* gcd(a, 0) = a */
	assert_int_equal(tc_gcd(0, 7), 7);
	assert_int_equal(tc_gcd(0, 0), 0);
	/* 96 heads, 8 KV heads (GQA): tensor parallelism divides both */
	assert_int_equal(tc_gcd(96, 8), 8);
	/* beyond int: 6e12 = 2^13 * 3 * 5^12, 4e12 = 2^14 * 5^12 */
	assert_true(tc_gcd(6000000000000L, 4000000000000L) == 2000000000000L);
}

/* 12: 1 2 3 4 6 12; up to 5: 1 2 3 4; 36: 1 2 3 4 6 9 12 18 36 */
static void test_divisors(void **state)
{
	int d[16];
	(void)state;
	assert_int_equal(tc_divisors(12, 100, d, 16), 6);
	assert_int_equal(d[0], 1);
	assert_int_equal(d[3], 4);
	assert_int_equal(d[5], 12);
	assert_int_equal(tc_divisors(12, 5, d, 16), 4);
	assert_int_equal(d[3], 4);
	assert_int_equal(tc_divisors(36, 100, d, 16), 9);
	assert_int_equal(d[4], 6);
	assert_int_equal(tc_divisors(0, 100, d, 16), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gcd),
		cmocka_unit_test(test_divisors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
