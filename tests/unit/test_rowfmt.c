/*
 * test_rowfmt.c - number text of sweep rows: hand-checked cases, and
 * agreement with printf (or with the value, for rowfmt_g6) over many
 * pseudo-random values.
 */
#include "tc_test.h"

#include <stdlib.h>

#include "../../src/report/rowfmt.h"

/* xorshift64*: reproducible values without a seed file. */
static uint64_t next_u64(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static double unit_draw(uint64_t *s)
{
	return (next_u64(s) >> 11) * (1.0 / 9007199254740992.0);
}

struct g6_case {
	double v;
	const char *want;
};

static void test_g6_cases(void **state)
{
	/* Each rounded by hand to 6 significant digits (integers > 6 digits
	 * kept whole); outside 1e-4..1e15 printf's %.6g. */
	static const struct g6_case cases[] = {
		{ 0, "0" },
		{ 1, "1" },
		{ 100, "100" },
		{ 0.5, "0.5" },
		{ -2.5, "-2.5" },
		{ 99.97444, "99.9744" },       /* 99.974|44 -> 99.9744 */
		{ 99.97445001, "99.9745" },    /* 99.974|45001 rounds up */
		{ 129.3114, "129.311" },
		{ 0.7746142, "0.774614" },
		{ 47671596.3, "47671596" },    /* whole: 8 integer digits */
		{ 999999.5, "1000000" },       /* half rounds away from zero */
		{ 1e-4, "0.0001" },
		{ 0.000123456, "0.000123456" },
		{ 123456.4, "123456" },
		{ 12345.64, "12345.6" },
		{ 999.9996, "1000" },          /* rounds into the next decade */
		{ 5e-5, "5e-05" },
		{ 1e15, "1e+15" },
		{ -3.25e-7, "-3.25e-07" },
	};
	char b[ROWFMT_MAX];
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = rowfmt_g6(b, cases[i].v);
		assert_string_equal(b, cases[i].want);
		assert_int_equal(n, (int)strlen(cases[i].want));
	}
}

/* Count significant digits of a plain decimal text. */
static int sig_digits(const char *s)
{
	int n = 0, lead = 1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			continue;
		if (lead && *s == '0')
			continue;
		lead = 0;
		n++;
	}
	return n;
}

/* Random values over the plain range: the text reads back within half a
 * unit of the 6th significant digit (relative 5e-6), has at most 6
 * significant digits unless the value is whole and longer, and never ends
 * in a zero of the fraction. */
static void test_g6_random(void **state)
{
	uint64_t s = 0x9e3779b97f4a7c15ULL;
	char b[ROWFMT_MAX];
	(void)state;
	for (int i = 0; i < 200000; i++) {
		double v = pow(10, -4 + 19 * unit_draw(&s));
		if (i & 1)
			v = -v;
		int n = rowfmt_g6(b, v);
		assert_int_equal(n, (int)strlen(b));
		double back = strtod(b, NULL);
		double a = fabs(v);
		if (a < 1e5) {
			assert_true(fabs(back - v) <= 5.0000001e-6 * a);
			assert_true(sig_digits(b) <= 6);
		} else {
			assert_true(fabs(back - v) <= 0.5);
			assert_null(strchr(b, '.'));
		}
		if (strchr(b, '.'))
			assert_true(b[n - 1] != '0' && b[n - 1] != '.');
	}
}

/* rowfmt_fixed1 is printf's %.1f, ties included. */
static void test_fixed1(void **state)
{
	/* Exact binary ties (x.x5 with a dyadic fraction) and near-ties. */
	static const double hand[] = {
		0, -0.0, 0.05, 0.25, 0.75, 1.25, 2.45, 2.55, -0.25, -0.04,
		0.95, 9.95, 99.95, 129.3114, 80, 79.99999, 1e14, 1e15, 1e20,
		-1e20, 123456789.25,
	};
	uint64_t s = 12345;
	char got[ROWFMT_MAX], want[64];
	(void)state;
	for (size_t i = 0; i < sizeof(hand) / sizeof(hand[0]); i++) {
		snprintf(want, sizeof(want), "%.1f", hand[i]);
		assert_int_equal(rowfmt_fixed1(got, hand[i]), (int)strlen(want));
		assert_string_equal(got, want);
	}
	for (int i = 0; i < 300000; i++) {
		double v;
		switch (i % 3) {
		case 0: /* memory in GB: 0 to 2000 */
			v = 2000 * unit_draw(&s);
			break;
		case 1: /* a quarter or three quarters: exact ties */
			v = (double)(next_u64(&s) % 100000) / 4;
			break;
		default: /* any magnitude, either sign */
			v = pow(10, -3 + 18 * unit_draw(&s)) *
			    (next_u64(&s) & 1 ? -1 : 1);
			break;
		}
		snprintf(want, sizeof(want), "%.1f", v);
		rowfmt_fixed1(got, v);
		assert_string_equal(got, want);
	}
}

static void test_u64(void **state)
{
	static const uint64_t hand[] = { 0, 1, 9, 10, 1048575,
					 18446744073709551615ULL };
	uint64_t s = 777;
	char got[ROWFMT_MAX], want[32];
	(void)state;
	for (size_t i = 0; i < sizeof(hand) / sizeof(hand[0]); i++) {
		snprintf(want, sizeof(want), "%llu", (unsigned long long)hand[i]);
		assert_int_equal(rowfmt_u64(got, hand[i]), (int)strlen(want));
		assert_string_equal(got, want);
	}
	for (int i = 0; i < 100000; i++) {
		uint64_t v = next_u64(&s) >> (next_u64(&s) % 64);
		snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
		rowfmt_u64(got, v);
		assert_string_equal(got, want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_g6_cases),
		cmocka_unit_test(test_g6_random),
		cmocka_unit_test(test_fixed1),
		cmocka_unit_test(test_u64),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
