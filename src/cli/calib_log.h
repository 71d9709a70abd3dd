/*
 * calib_log.h - `traincost calibrate --from-log LOG --workload RUN.yaml`:
 * the median step figure of a training log (src/io/steplog.h) made the
 * one measurement of a calibration, and what was read said in words.
 */
#ifndef TC_CALIB_LOG_H
#define TC_CALIB_LOG_H

#include "../io/meas_load.h"
#include "cli_ctx.h"

struct calib_log_args {
	const char *log;      /* the log file */
	const char *workload; /* the run it is of */
	const char *warmup;   /* --warmup N, or NULL */
	const char *kind;     /* --log-kind K, or NULL (recognised) */
};

/* What was read, for the JSON report. */
struct calib_log_summary {
	const char *kind;       /* slog_kind_names[], static */
	const char *metric;     /* "step_time_s", "tokens_per_s", ..., static */
	size_t step_lines, used, warmup_skipped, restarts, unusable;
	double median, p10, p90; /* in the metric's unit */
};

/*
 * Read a->log and a->workload into *m (one case, released by the caller)
 * and *sum, and, for people (`table`, `md`), describe the figure read on
 * ctx->out.  Returns TC_EXIT_OK, or an exit code after reporting the
 * problem.
 */
int calib_log_load(struct cli_ctx *ctx, const struct calib_log_args *a, int for_people,
		   struct meas_set *m, struct calib_log_summary *sum);

#endif
