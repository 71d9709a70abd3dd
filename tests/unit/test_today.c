/*
 * test_today.c - the date a run takes as today (src/cli/today.c): which
 * variable wins, and what is refused.
 */
#include "tc_test.h"

#include "../../src/cli/today.h"
#include "../../src/io/price_load.h"

/* Set or clear (NULL) both variables. */
static void set_env(const char *date, const char *epoch)
{
	if (date)
		setenv(TODAY_ENV, date, 1);
	else
		unsetenv(TODAY_ENV);
	if (epoch)
		setenv(TODAY_EPOCH_ENV, epoch, 1);
	else
		unsetenv(TODAY_EPOCH_ENV);
}

/* Expect today to be `want`. */
static void expect_day(const char *date, const char *epoch, const char *want)
{
	char buf[16] = "";
	struct tc_diag d;

	tc_diag_init(&d);
	set_env(date, epoch);
	assert_int_equal(cli_today(buf, sizeof(buf), &d), 0);
	assert_int_equal(d.count, 0);
	assert_string_equal(buf, want);
}

/* Expect a usage error whose message is `msg`. */
static void expect_bad(const char *date, const char *epoch, const char *msg)
{
	char buf[16] = "untouched";
	struct tc_diag d;

	tc_diag_init(&d);
	set_env(date, epoch);
	assert_int_equal(cli_today(buf, sizeof(buf), &d), -1);
	assert_int_equal(d.severity, TC_EXIT_USAGE);
	assert_string_equal(d.entry[0].msg, msg);
	assert_string_equal(buf, "untouched");
}

static void test_pinned(void **state)
{
	(void)state;
	expect_day("2026-11-28", NULL, "2026-11-28");
	expect_day("2024-02-29", NULL, "2024-02-29"); /* a leap day */
	/* 0 s is 1970-01-01; 1780272000 s = 20605 days x 86400 s, the day
	 * 2026-06-01; one second less is still 2026-05-31. */
	expect_day(NULL, "0", "1970-01-01");
	expect_day(NULL, "1780272000", "2026-06-01");
	expect_day(NULL, "1780271999", "2026-05-31");
	expect_day(NULL, "253402300799", "9999-12-31");
	/* TRAINCOST_TODAY wins; an empty one counts as unset. */
	expect_day("2026-11-28", "1780272000", "2026-11-28");
	expect_day("", "1780272000", "2026-06-01");
}

static void test_refused(void **state)
{
	(void)state;
	expect_bad("2026-02-29", NULL,
		   "TRAINCOST_TODAY '2026-02-29' is not a date (expected YYYY-MM-DD, e.g. 2026-11-29)");
	expect_bad("2026-1-01", NULL,
		   "TRAINCOST_TODAY '2026-1-01' is not a date (expected YYYY-MM-DD, e.g. 2026-11-29)");
	expect_bad("today", "0",
		   "TRAINCOST_TODAY 'today' is not a date (expected YYYY-MM-DD, e.g. 2026-11-29)");
	static const char *const epochs[] = { "-1", "+5", " 5", "5 ", "1.5", "1e9", "0x10",
					      "253402300800", "99999999999999999999", NULL };
	for (int i = 0; epochs[i]; i++) {
		char msg[256];
		snprintf(msg, sizeof(msg),
			 "SOURCE_DATE_EPOCH '%s' is not valid (expected whole seconds since 1970-01-01 UTC, at most 253402300799)",
			 epochs[i]);
		expect_bad(NULL, epochs[i], msg);
	}
}

/* Unpinned, the clock gives some real date. */
static void test_clock(void **state)
{
	char buf[16];
	struct tc_diag d;
	long days;

	(void)state;
	tc_diag_init(&d);
	set_env(NULL, "");
	assert_int_equal(cli_today(buf, sizeof(buf), &d), 0);
	assert_int_equal(price_days_between(buf, buf, &days), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pinned),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
