/*
 * today.c - the date a run takes as today (today.h).
 */
#include "today.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../io/price_load.h"

/* 9999-12-31T23:59:59Z: the last second whose date has four year digits. */
#define LAST_EPOCH_S 253402300799LL

/* The UTC date of `t` into buf.  Returns 0 or -1. */
static int utc_date(time_t t, char *buf, size_t size)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm))
		return -1;
	return strftime(buf, size, "%Y-%m-%d", &tm) == 10 ? 0 : -1;
}

/* $TRAINCOST_TODAY: a real date YYYY-MM-DD.  Returns 0 or -1. */
static int from_date(const char *v, char *buf, size_t size, struct tc_diag *d)
{
	long days;

	if (price_days_between(v, v, &days))
		return tc_diag_msg(d, TC_EXIT_USAGE,
				   "%s '%s' is not a date (expected YYYY-MM-DD, e.g. 2026-11-29)",
				   TODAY_ENV, v);
	snprintf(buf, size, "%s", v);
	return 0;
}

/*
 * $SOURCE_DATE_EPOCH: whole seconds since 1970-01-01 UTC, ASCII digits only
 * (reproducible-builds.org asks for an error, not a fallback, when it is
 * malformed).  Returns 0 or -1.
 */
static int from_epoch(const char *v, char *buf, size_t size, struct tc_diag *d)
{
	char *end;
	long long s;

	errno = 0;
	s = strtoll(v, &end, 10);
	if (v[0] < '0' || v[0] > '9' || *end || errno || s > LAST_EPOCH_S ||
	    (long long)(time_t)s != s || utc_date((time_t)s, buf, size))
		return tc_diag_msg(d, TC_EXIT_USAGE,
				   "%s '%s' is not valid (expected whole seconds since 1970-01-01 UTC, at most %lld)",
				   TODAY_EPOCH_ENV, v, LAST_EPOCH_S);
	return 0;
}

int cli_today(char *buf, size_t size, struct tc_diag *d)
{
	const char *date = getenv(TODAY_ENV);
	const char *epoch = getenv(TODAY_EPOCH_ENV);

	assert(buf && size >= PRICE_DATE_LEN && d);
	if (date && *date)
		return from_date(date, buf, size, d);
	if (epoch && *epoch)
		return from_epoch(epoch, buf, size, d);
	/* The one place the program asks the clock for the date. */
	time_t now = time(NULL);
	if (now == (time_t)-1 || utc_date(now, buf, size))
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "cannot read today's date from the clock");
	return 0;
}
