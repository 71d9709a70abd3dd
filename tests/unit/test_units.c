/*
 * test_units.c - strict quantity parsing and human formatting.
 */
#include "tc_test.h"

#include "../../src/util/units.h"

struct good_case {
	const char *text;
	enum tc_unit unit;
	double want; /* computed from the definition of the unit */
};

static const struct good_case good[] = {
	/* counts */
	{"7", TC_UNIT_COUNT, 7.0},
	{"2e12", TC_UNIT_COUNT, 2e12},
	{"2E3", TC_UNIT_COUNT, 2000.0},
	{"1.5T", TC_UNIT_COUNT, 1.5e12},
	{"300B", TC_UNIT_COUNT, 300e9},
	{"64k", TC_UNIT_COUNT, 64e3},
	{"64K", TC_UNIT_COUNT, 64e3},
	{"7M", TC_UNIT_COUNT, 7e6},
	{"175 B", TC_UNIT_COUNT, 175e9},
	{"2P", TC_UNIT_COUNT, 2e15},
	{"-3", TC_UNIT_COUNT, -3.0},
	{"+0.5", TC_UNIT_COUNT, 0.5},
	{".5", TC_UNIT_COUNT, 0.5},
	{"5.", TC_UNIT_COUNT, 5.0},
	{"1e-400", TC_UNIT_COUNT, 0.0}, /* underflow to zero is finite */
	/* bytes */
	{"80GB", TC_UNIT_BYTES, 80e9},
	{"80 GiB", TC_UNIT_BYTES, 80.0 * 1073741824.0},
	{"80GiB", TC_UNIT_BYTES, 85899345920.0},
	{"40MB", TC_UNIT_BYTES, 40e6},
	{"512KiB", TC_UNIT_BYTES, 512.0 * 1024.0},
	{"1TB", TC_UNIT_BYTES, 1e12},
	{"2TiB", TC_UNIT_BYTES, 2.0 * 1099511627776.0},
	{"50MiB", TC_UNIT_BYTES, 50.0 * 1048576.0},
	{"1PiB", TC_UNIT_BYTES, 1125899906842624.0},
	{"512kB", TC_UNIT_BYTES, 512e3},
	{"4096B", TC_UNIT_BYTES, 4096.0},
	{"1.5PB", TC_UNIT_BYTES, 1.5e15},
	/* byte rates */
	{"25GB/s", TC_UNIT_BYTE_RATE, 25e9},
	{"2039GB/s", TC_UNIT_BYTE_RATE, 2.039e12},
	{"2039 GB/s", TC_UNIT_BYTE_RATE, 2.039e12},
	{"3.35TB/s", TC_UNIT_BYTE_RATE, 3.35e12},
	{"200Gb/s", TC_UNIT_BYTE_RATE, 2.5e10},
	{"400 Gb/s", TC_UNIT_BYTE_RATE, 5e10},
	{"100Mb/s", TC_UNIT_BYTE_RATE, 12.5e6},
	{"8b/s", TC_UNIT_BYTE_RATE, 1.0},
	{"1.6Tb/s", TC_UNIT_BYTE_RATE, 2e11},
	{"64GiB/s", TC_UNIT_BYTE_RATE, 64.0 * 1073741824.0},
	{"900 MB/s", TC_UNIT_BYTE_RATE, 9e8},
	/* durations */
	{"14d", TC_UNIT_SECONDS, 1209600.0},
	{"3h", TC_UNIT_SECONDS, 10800.0},
	{"90min", TC_UNIT_SECONDS, 5400.0},
	{"30s", TC_UNIT_SECONDS, 30.0},
	{"2w", TC_UNIT_SECONDS, 1209600.0},
	{"1.5y", TC_UNIT_SECONDS, 1.5 * 365.0 * 86400.0},
	{"850ms", TC_UNIT_SECONDS, 0.85},
	{"1 h", TC_UNIT_SECONDS, 3600.0},
	/* FLOP rates */
	{"312TFLOP/s", TC_UNIT_FLOP_RATE, 312e12},
	{"19.5 TFLOPS", TC_UNIT_FLOP_RATE, 19.5e12},
	{"312 TFLOPS", TC_UNIT_FLOP_RATE, 312e12},
	{"1.98PFLOP/s", TC_UNIT_FLOP_RATE, 1.98e15},
	{"500GFLOP/s", TC_UNIT_FLOP_RATE, 5e11},
	{"1EFLOPS", TC_UNIT_FLOP_RATE, 1e18},
	{"100FLOP/s", TC_UNIT_FLOP_RATE, 100.0},
	/* money */
	{"$1.60", TC_UNIT_USD, 1.6},
	{"1.60", TC_UNIT_USD, 1.6},
	{"1600 USD", TC_UNIT_USD, 1600.0},
	{"1600USD", TC_UNIT_USD, 1600.0},
	{"$0", TC_UNIT_USD, 0.0},
	{"3M", TC_UNIT_USD, 3e6},
	{"2.5k", TC_UNIT_USD, 2500.0},
	{"$2.5K", TC_UNIT_USD, 2500.0},
	{"1.2B", TC_UNIT_USD, 1.2e9},
	{"$3,000,000", TC_UNIT_USD, 3e6},
	{"3,000,000", TC_UNIT_USD, 3e6},
	{"$12,345.67", TC_UNIT_USD, 12345.67},
	{"999", TC_UNIT_USD, 999.0},
	{"$1.60/h", TC_UNIT_USD_PER_H, 1.6},
	{"$1.60/hr", TC_UNIT_USD_PER_H, 1.6},
	{"1.60", TC_UNIT_USD_PER_H, 1.6},
	{"$32.77/hr", TC_UNIT_USD_PER_H, 32.77},
	{"$32.77", TC_UNIT_USD_PER_H, 32.77},
	{"2.5 USD/h", TC_UNIT_USD_PER_H, 2.5},
	{"2.5/h", TC_UNIT_USD_PER_H, 2.5},
	/* power and frequency */
	{"350W", TC_UNIT_WATTS, 350.0},
	{"0.35kW", TC_UNIT_WATTS, 350.0},
	{"700 W", TC_UNIT_WATTS, 700.0},
	{"1.2MW", TC_UNIT_WATTS, 1.2e6},
	{"1410MHz", TC_UNIT_HZ, 1.41e9},
	{"1.98GHz", TC_UNIT_HZ, 1.98e9},
	{"100kHz", TC_UNIT_HZ, 1e5},
	{"50Hz", TC_UNIT_HZ, 50.0},
};

static void test_good(void **state)
{
	const char *why = NULL;
	double v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		v = -12345.0;
		if (tc_parse_quantity(good[i].text, good[i].unit, &v, &why) != 0)
			fail_msg("'%s' refused (%s)", good[i].text, why);
		assert_close(v, good[i].want, TOL_EXACT);
	}
}

struct bad_case {
	const char *text;
	enum tc_unit unit;
	const char *why; /* expected phrase; NULL = tc_unit_expect(unit) */
};

#define RANGE "a number of at most about 1.8e308"

static const struct bad_case bad[] = {
	/* not numbers */
	{"", TC_UNIT_COUNT, NULL},
	{" ", TC_UNIT_COUNT, NULL},
	{"abc", TC_UNIT_COUNT, NULL},
	{"nan", TC_UNIT_COUNT, NULL},
	{"NaN", TC_UNIT_COUNT, NULL},
	{"inf", TC_UNIT_COUNT, NULL},
	{"-inf", TC_UNIT_COUNT, NULL},
	{"infinity", TC_UNIT_COUNT, NULL},
	{"0x10", TC_UNIT_COUNT, NULL},
	{"0x1p3", TC_UNIT_COUNT, NULL},
	{".", TC_UNIT_COUNT, NULL},
	{"-", TC_UNIT_COUNT, NULL},
	{"e5", TC_UNIT_COUNT, NULL},
	{"1e", TC_UNIT_COUNT, NULL},
	{"1e+", TC_UNIT_COUNT, NULL},
	{"1..2", TC_UNIT_COUNT, NULL},
	{"1,000", TC_UNIT_COUNT, NULL},
	{"1_000", TC_UNIT_COUNT, NULL},
	/* blanks and junk */
	{" 7", TC_UNIT_COUNT, NULL},
	{"7 ", TC_UNIT_COUNT, NULL},
	{"7x", TC_UNIT_COUNT, NULL},
	{"7kk", TC_UNIT_COUNT, NULL},
	{"7\t", TC_UNIT_COUNT, NULL},
	{"80GB ", TC_UNIT_BYTES, NULL},
	{"--1", TC_UNIT_COUNT, NULL},
	/* overflow and non-finite results */
	{"1e309", TC_UNIT_COUNT, RANGE},
	{"-1e400", TC_UNIT_COUNT, RANGE},
	{"1e308P", TC_UNIT_COUNT, RANGE},
	{"1e300TB", TC_UNIT_BYTES, RANGE},
	/* counts have no units, rates are not counts */
	{"80GB", TC_UNIT_COUNT, NULL},
	{"312TFLOP/s", TC_UNIT_COUNT, NULL},
	{"1Ki", TC_UNIT_COUNT, NULL},
	/* sizes need a unit, in bytes, with the right case */
	{"80", TC_UNIT_BYTES, NULL},
	{"80gb", TC_UNIT_BYTES, NULL},
	{"80Gb", TC_UNIT_BYTES, "a size in bytes such as 80GB; lower-case 'b' means bits"},
	{"80KB", TC_UNIT_BYTES, NULL},
	{"80G", TC_UNIT_BYTES, NULL},
	{"80GB/s", TC_UNIT_BYTES, NULL},
	{"80gib", TC_UNIT_BYTES, NULL},
	/* rates need "/s" */
	{"25GB", TC_UNIT_BYTE_RATE, NULL},
	{"25", TC_UNIT_BYTE_RATE, NULL},
	{"25 GB /s", TC_UNIT_BYTE_RATE, NULL},
	{"200gb/s", TC_UNIT_BYTE_RATE, NULL},
	{"200Gbps", TC_UNIT_BYTE_RATE, NULL},
	/* durations */
	{"14", TC_UNIT_SECONDS, NULL},
	{"5m", TC_UNIT_SECONDS, "a duration such as 90min ('m' is ambiguous: write 'min')"},
	{"5mins", TC_UNIT_SECONDS, NULL},
	{"2D", TC_UNIT_SECONDS, NULL},
	{"3 hours", TC_UNIT_SECONDS, NULL},
	/* FLOP rates: "312T" is a count, not a rate */
	{"312T", TC_UNIT_FLOP_RATE, NULL},
	{"312", TC_UNIT_FLOP_RATE, NULL},
	{"312 TFLOP", TC_UNIT_FLOP_RATE, NULL},
	{"312tflops", TC_UNIT_FLOP_RATE, NULL},
	/* money */
	{"$", TC_UNIT_USD, NULL},
	{"3m", TC_UNIT_USD, NULL},          /* m is no prefix of money */
	{"$3,00,000", TC_UNIT_USD, "an amount such as $3,000,000 (commas between groups of three digits)"},   /* groups of three only */
	{"$3000,000", TC_UNIT_USD, "an amount such as $3,000,000 (commas between groups of three digits)"},
	{"$,300", TC_UNIT_USD, "an amount such as $3,000,000 (commas between groups of three digits)"},
	{"$3,000,", TC_UNIT_USD, "an amount such as $3,000,000 (commas between groups of three digits)"},
	{"3,0000", TC_UNIT_USD, "an amount such as $3,000,000 (commas between groups of three digits)"},
	{"1.5,000", TC_UNIT_USD, NULL},
	{"$1,60/h", TC_UNIT_USD_PER_H, NULL}, /* no commas in prices per hour */
	{"$1.60 USD", TC_UNIT_USD, NULL},
	{"1.60 EUR", TC_UNIT_USD, NULL},
	{"$1.60/h", TC_UNIT_USD, NULL},
	{"1.60$", TC_UNIT_USD, NULL},
	{"$1.60/day", TC_UNIT_USD_PER_H, NULL},
	{"$1.60USD/h", TC_UNIT_USD_PER_H, NULL},
	{"$$1", TC_UNIT_USD_PER_H, NULL},
	/* power, frequency */
	{"350", TC_UNIT_WATTS, NULL},
	{"350w", TC_UNIT_WATTS, NULL},
	{"1410", TC_UNIT_HZ, NULL},
	{"1410mhz", TC_UNIT_HZ, NULL},
};

static void test_bad(void **state)
{
	const char *why;
	double v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = -12345.0;
		why = NULL;
		if (tc_parse_quantity(bad[i].text, bad[i].unit, &v, &why) == 0)
			fail_msg("'%s' accepted as %g", bad[i].text, v);
		assert_true(v == -12345.0); /* out-param untouched */
		assert_non_null(why);
		assert_string_equal(why, bad[i].why ? bad[i].why
						    : tc_unit_expect(bad[i].unit));
	}
}

static void test_expect_and_names(void **state)
{
	(void)state;
	assert_string_equal(tc_unit_expect(TC_UNIT_BYTES), "a size such as 80GB or 80GiB");
	assert_string_equal(tc_unit_expect(TC_UNIT_BYTE_RATE), "a rate such as 2039GB/s or 200Gb/s");
	assert_string_equal(tc_unit_expect(TC_UNIT_SECONDS), "a duration such as 30s, 90min, 3h or 14d");
	assert_string_equal(tc_unit_expect(TC_UNIT_FLOP_RATE), "a rate such as 312TFLOP/s");
	assert_string_equal(tc_unit_expect(TC_UNIT_USD), "an amount such as $1.60, 1600 USD, 2.5k, 3M or $3,000,000");
	assert_string_equal(tc_unit_expect(TC_UNIT_USD_PER_H), "a price such as $1.60/h");
	assert_string_equal(tc_unit_expect(TC_UNIT_COUNT), "a number such as 7, 2e12, 64k or 300B");
	assert_string_equal(tc_unit_expect(TC_UNIT_WATTS), "a power such as 350W or 0.35kW");
	assert_string_equal(tc_unit_expect(TC_UNIT_HZ), "a frequency such as 1410MHz");
	assert_string_equal(tc_unit_name(TC_UNIT_BYTES), "a size");
	assert_string_equal(tc_unit_name(TC_UNIT_SECONDS), "a duration");
	assert_string_equal(tc_unit_symbol(TC_UNIT_BYTE_RATE), "B/s");
	assert_string_equal(tc_unit_symbol(TC_UNIT_COUNT), "");
}

/* Relations: a larger prefix never gives a smaller value. */
static void test_prefix_order(void **state)
{
	static const char *const sizes[] = {"1B", "1kB", "1KiB", "1MB", "1MiB", "1GB",
					    "1GiB", "1TB", "1TiB", "1PB", "1PiB"};
	const char *why;
	double prev = 0.0, v = 0.0;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		assert_int_equal(tc_parse_quantity(sizes[i], TC_UNIT_BYTES, &v, &why), 0);
		assert_true(v > prev);
		prev = v;
	}
	/* bits are an eighth of bytes */
	assert_int_equal(tc_parse_quantity("100Gb/s", TC_UNIT_BYTE_RATE, &v, &why), 0);
	prev = v;
	assert_int_equal(tc_parse_quantity("100GB/s", TC_UNIT_BYTE_RATE, &v, &why), 0);
	assert_close(v, 8.0 * prev, TOL_EXACT);
}

struct fmt_case {
	double value;
	const char *want;
};

static void test_fmt_bytes(void **state)
{
	static const struct fmt_case c[] = {
		/* Three significant figures: 1536 B = 1.536 kB -> 1.54; 999.9 GB
		 * rounds to 1000 GB at 0 decimals, so it moves up: 1.00 TB. */
		{0.0, "0 B"},          {512.0, "512 B"},       {999.0, "999 B"},
		{1000.0, "1.00 kB"},   {1536.0, "1.54 kB"},    {79.2e9, "79.2 GB"},
		{80e9, "80.0 GB"},     {235e6, "235 MB"},      {999.4e9, "999 GB"},
		{999.9e9, "1.00 TB"},  {999.96e9, "1.00 TB"},
		{1.5e15, "1.50 PB"},   {2.5e18, "2.50 EB"},    {-3e9, "-3.00 GB"},
		{(double)NAN, "n/a"},  {HUGE_VAL, "n/a"},
	};
	char buf[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		assert_string_equal(tc_fmt_bytes(c[i].value, buf, (int)sizeof(buf)), c[i].want);
	/* a short buffer is cut, never overrun */
	assert_string_equal(tc_fmt_bytes(79.2e9, buf, 4), "79.");
}

static void test_fmt_duration(void **state)
{
	static const struct fmt_case c[] = {
		/* Three significant figures: 4.51 ms stays 4.51 ms (not "5 ms");
		 * 999.6 ms rounds to 1000 ms, so it moves up: 1.00 s; 59.97 s
		 * rounds to 60.0 s, so 0.9995 min -> 1.00 min; 400 d / 365 d =
		 * 1.0959 y -> 1.10 y. */
		{0.0, "0 s"},              {0.85, "850 ms"},        {0.0005, "500 us"},
		{0.00451, "4.51 ms"},      {0.0231, "23.1 ms"},     {0.9996, "1.00 s"},
		{12.34, "12.3 s"},         {59.9, "59.9 s"},
		{59.97, "1.00 min"},       {2700.0, "45.0 min"},    {3600.0, "1.00 h"},
		{19800.0, "5.50 h"},       {3.2 * 86400.0, "3.20 d"}, {1209600.0, "14.0 d"},
		{400.0 * 86400.0, "1.10 y"}, {-30.0, "-30.0 s"},   {(double)NAN, "n/a"},
	};
	char buf[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		assert_string_equal(tc_fmt_duration(c[i].value, buf, (int)sizeof(buf)), c[i].want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_expect_and_names),
		cmocka_unit_test(test_prefix_order),
		cmocka_unit_test(test_fmt_bytes),
		cmocka_unit_test(test_fmt_duration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
