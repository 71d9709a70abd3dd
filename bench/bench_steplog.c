/*
 * bench_steplog.c - reading training logs for `calibrate --from-log`: a
 * generated 100 MB Megatron-LM log (target: under 2 s on one core) and a
 * 1 GB one (under 10 s, memory bounded: the reader streams).  The logs are
 * written to temporary files and removed; nothing is committed.
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "../src/io/steplog.h"
#include "bench.h"

#define MB 1000000.0
#define TARGET_100MB_S 2.0
#define TARGET_1GB_S 10.0

/* Write about `bytes` of a Megatron-LM log to a new temporary file (its
 * name into path): nine lines of noise to each step line.  0 or -1. */
static int write_log(char *path, double bytes)
{
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	double written = 0;
	if (!f)
		return -1;
	for (long it = 1; written < bytes; it++) {
		for (int k = 0; k < 9; k++)
			written += fprintf(f, "[2024-05-01 10:00:%02d] rank %d: NCCL INFO Channel %02d/32 : 0[0] -> 1[1] "
					   "via P2P/IPC/read, comm 0x55d4c8a0 nRanks 8\n", k, k, k);
		written += fprintf(f, " iteration %8ld/ 9999999 | consumed samples: %12ld | elapsed time per iteration "
				   "(ms): %.1f | learning rate: 1.500E-04 | global batch size:  1536 | lm loss: "
				   "2.104560E+00 | loss scale: 4096.0 |\n", it, it * 1536, 14450.0 + (double)(it % 17));
	}
	return fclose(f) ? -1 : 0;
}

/* Seconds to read `path`, the median of BENCH_RUNS; -1 on error. */
static double time_read(const char *path, size_t *values)
{
	double t[BENCH_RUNS];
	for (int r = 0; r < BENCH_RUNS; r++) {
		struct slog s;
		struct tc_diag d;
		tc_diag_init(&d);
		double t0 = bench_now_s();
		if (slog_read_file(path, SLOG_AUTO, SLOG_DEFAULT_WARMUP, &s, &d)) {
			fprintf(stderr, "bench_steplog: %s\n", d.count ? d.entry[0].msg : "read failed");
			return -1;
		}
		t[r] = bench_now_s() - t0;
		*values = s.n;
		slog_release(&s);
	}
	return bench_median(t, BENCH_RUNS);
}

int main(int argc, char **argv)
{
	char small[] = "/tmp/tc-bench-log-XXXXXX", big[] = "/tmp/tc-bench-log-XXXXXX";
	size_t n100 = 0, n1000 = 0;
	struct rusage ru;
	int rc = 1;

	if (write_log(small, 100 * MB)) {
		perror("bench_steplog: cannot write the 100 MB log");
		return 1;
	}
	double t100 = time_read(small, &n100);
	remove(small);
	if (t100 < 0)
		return 1;
	if (write_log(big, 1000 * MB)) {
		perror("bench_steplog: cannot write the 1 GB log");
		remove(big);
		return 1;
	}
	double t1000 = time_read(big, &n1000);
	remove(big);
	if (t1000 < 0)
		return 1;
	getrusage(RUSAGE_SELF, &ru);
	double rss_mb = ru.ru_maxrss * 1024.0 / MB; /* ru_maxrss is in KiB on Linux */
	printf("read a 100 MB Megatron-LM log in %.2f s on one core (%.0f MB/s, %zu step values; target < %.0f s)\n",
	       t100, 100 / t100, n100, TARGET_100MB_S);
	printf("read a 1 GB log in %.2f s (%zu step values; target < %.0f s); peak memory %.0f MB\n", t1000, n1000,
	       TARGET_1GB_S, rss_mb);
	rc = bench_summary(argc, argv, "log 100 MB %.2f s (target < %.0f s: %s), 1 GB %.1f s, peak %.0f MB", t100,
			   TARGET_100MB_S, t100 < TARGET_100MB_S ? "met" : "MISSED", t1000, rss_mb) ? 1 : 0;
	return rc;
}
