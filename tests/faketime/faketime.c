/*
 * faketime.c - move the wall clock of a test run to another date.
 *
 * A shared object for LD_PRELOAD (built by `make test-dates`): time() and
 * clock_gettime(CLOCK_REALTIME, ...) answer as if it were midnight UTC of
 * $TC_FAKE_DATE (YYYY-MM-DD) plus the seconds elapsed since the process
 * started, so that the suite can be run as if on any day.  Every other
 * clock passes through.  Without TC_FAKE_DATE, or with a bad one, the
 * process stops at once with a message: a shim that silently did nothing
 * would make the dated runs prove nothing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);

static clock_gettime_fn real_clock_gettime;
static time_t offset_s; /* fake minus real, set once */

/* Days since 1970-01-01 of a Gregorian date (H. Hinnant's days_from_civil). */
static long days_from_civil(long y, long m, long d)
{
	y -= m <= 2;
	long era = (y >= 0 ? y : y - 399) / 400;
	long yoe = y - era * 400;
	long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

__attribute__((constructor)) static void fake_init(void)
{
	const char *date = getenv("TC_FAKE_DATE");
	int y, m, d, used = 0;
	struct timespec now;

	real_clock_gettime = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
	if (!date || sscanf(date, "%4d-%2d-%2d%n", &y, &m, &d, &used) != 3 ||
	    used != 10 || date[10] || m < 1 || m > 12 || d < 1 || d > 31) {
		fprintf(stderr, "faketime: TC_FAKE_DATE '%s' is not a date (expected YYYY-MM-DD)\n",
			date ? date : "");
		exit(70);
	}
	if (!real_clock_gettime || real_clock_gettime(CLOCK_REALTIME, &now)) {
		fputs("faketime: cannot reach the real clock_gettime\n", stderr);
		exit(70);
	}
	offset_s = (time_t)days_from_civil(y, m, d) * 86400 - now.tv_sec;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	int rc = real_clock_gettime(id, ts);

	if (rc == 0 && id == CLOCK_REALTIME)
		ts->tv_sec += offset_s;
	return rc;
}

time_t time(time_t *out)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts))
		return (time_t)-1;
	if (out)
		*out = ts.tv_sec;
	return ts.tv_sec;
}
