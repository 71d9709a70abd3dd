/*
 * steplog.h - step times and throughput read from the logs of a training
 * run, for `traincost calibrate --from-log` (docs/import.md): Megatron-LM
 * ("elapsed time per iteration (ms)"), NeMo ("train_step_timing in s"),
 * torchtitan ("tps", "mfu"), the Hugging Face Trainer
 * ("train_samples_per_second", console or trainer_state.json),
 * llm-foundry ("throughput/tokens_per_sec") and DeepSpeed ("samples/sec",
 * "CurrSamplesPerSec").
 *
 * The log is streamed through a fixed buffer: memory is bounded by
 * SLOG_MAX_VALUES whatever the file's size.  A line whose figure is not a
 * finite positive number is counted and named, not used; an iteration
 * number that goes back starts a new segment (a restart), and the first
 * `warmup` values of every segment are skipped.
 */
#ifndef TC_STEPLOG_H
#define TC_STEPLOG_H

#include <stddef.h>

#include "../util/diag.h"

#define SLOG_MAX_VALUES 1000000  /* step lines kept; more is an error */
#define SLOG_MAX_LINE 65536      /* longer lines are read past, unused */
#define SLOG_DEFAULT_WARMUP 3    /* values skipped at the start of a segment */

enum slog_kind {
	SLOG_AUTO, SLOG_MEGATRON, SLOG_NEMO, SLOG_TORCHTITAN, SLOG_HF, SLOG_FOUNDRY,
	SLOG_DEEPSPEED, SLOG_KIND_COUNT
};

/* "auto", "megatron", "nemo", "torchtitan", "hf-trainer", "llm-foundry",
 * "deepspeed", NULL. */
extern const char *const slog_kind_names[];
/* What each kind is, for reports: "Megatron-LM", ... */
extern const char *const slog_kind_words[];

enum slog_metric {
	SLOG_STEP_TIME_S,      /* seconds per optimizer step */
	SLOG_TOKENS_PER_S,     /* tokens per second, all GPUs */
	SLOG_TOKENS_PER_S_GPU, /* tokens per second per GPU (torchtitan) */
	SLOG_SAMPLES_PER_S,    /* samples per second, all GPUs */
	SLOG_MFU,              /* fraction of peak */
};

struct slog {
	enum slog_kind kind;
	enum slog_metric metric;
	double *value;         /* owned: the values used, in log order */
	size_t n, cap;
	size_t found;          /* step lines with a usable value */
	size_t warmup_skipped; /* of them, skipped as warm-up */
	size_t segments;       /* 1 + restarts */
	int restart_line;      /* first restart's line, 0 = none */
	size_t bad;            /* step lines whose figure is unusable */
	int bad_line;          /* the first of them, 0 = none */
	int cut_last;          /* the last line had no newline: not used */
	size_t lines;          /* lines read */
	int first_line, last_line; /* of the values used */
};

void slog_init(struct slog *s);
void slog_release(struct slog *s);

/*
 * Read log `path` of kind `kind` (SLOG_AUTO: recognised from its first
 * step line), skipping `warmup` values at the start of each segment.
 * Returns 0 with *s filled (at least one value), or -1 with the error in
 * d: unreadable (TC_EXIT_IO), binary data, no step lines, only warm-up,
 * more than SLOG_MAX_VALUES step lines (TC_EXIT_INPUT, at a line).
 */
int slog_read_file(const char *path, enum slog_kind kind, int warmup, struct slog *s,
		   struct tc_diag *d);

#endif
