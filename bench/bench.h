/*
 * bench.h - what the benchmarks share: a monotonic clock, the machine's
 * core count, the median of repeated runs, and the fragment each benchmark
 * adds to the one-line summary of `make bench`.
 */
#ifndef TC_BENCH_H
#define TC_BENCH_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Timed runs per figure: the median of this many is reported. */
#define BENCH_RUNS 3

static inline double bench_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline long bench_cores(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

static inline int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median of v[0..n-1]; sorts v. */
static inline double bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(v[0]), bench_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Append this benchmark's part of the summary line to the file named by
 * argv[1], when there is one (the Makefile passes it).  Returns 0, or -1
 * when the file cannot be written.
 */
static inline __attribute__((format(printf, 3, 4))) int
bench_summary(int argc, char **argv, const char *fmt, ...)
{
	FILE *f;
	va_list ap;
	int bad;

	if (argc < 2)
		return 0;
	f = fopen(argv[1], "a");
	if (!f) {
		perror(argv[1]);
		return -1;
	}
	va_start(ap, fmt);
	bad = vfprintf(f, fmt, ap) < 0;
	va_end(ap);
	bad |= fputc('\n', f) == EOF;
	bad |= fclose(f) != 0;
	return bad ? -1 : 0;
}

#endif
