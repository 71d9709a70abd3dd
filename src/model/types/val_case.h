/*
 * val_case.h - a measured training run (a workload with its plan, the GPU
 * it ran on, what was measured and where it was published) and a growable
 * list of them: what the loaders fill (src/io/val_load.c, meas_load.c) and
 * validation, calibration and fitting read (validate.h, calibrate.h).
 * Types only, with the list's three functions, so that io fills them
 * without the computation.
 */
#ifndef TC_VAL_CASE_H
#define TC_VAL_CASE_H

#include <stddef.h>

#include "gpu.h"
#include "workload.h"

/* What was measured, and in which unit it is stored (SI). */
enum val_metric {
	VAL_ITER_TIME,      /* seconds per optimizer step */
	VAL_MEGATRON_TFLOPS,/* FLOP/s per GPU by Narayanan et al.'s formula
			       96*B*s*L*h^2*(1 + s/6h + V/16Lh) (counts the
			       recompute forward) */
	VAL_MFU,            /* model FLOP utilisation, fraction */
	VAL_TOKENS_PER_S,   /* tokens per second, all GPUs */
	VAL_SAMPLES_PER_S,  /* samples (images, recommender samples) per
			       second, all GPUs */
	VAL_IMAGES_PER_S,   /* images per second, all GPUs (vision) */
	VAL_METRIC_COUNT
};
/* "iter_time_s", "megatron_flop_per_s_per_gpu", "mfu", "tokens_per_s",
 * "samples_per_s", "images_per_s" */
extern const char *const val_metric_names[VAL_METRIC_COUNT];

/* How a published figure averages the steps of its run (docs/model.md,
 * "Figures of short runs"). */
enum val_mean {
	VAL_MEAN_TIME,  /* the work of the steps over their whole time */
	VAL_MEAN_RATE,  /* the mean of the per-step rates */
	VAL_MEAN_COUNT
};
/* "time", "rate" */
extern const char *const val_mean_names[VAL_MEAN_COUNT + 1]; /* NULL-terminated */

/* Where a run's parallel layout comes from. */
enum val_layout {
	VAL_LAYOUT_STATED,  /* the row's tp, pp and micro-batch, as published */
	VAL_LAYOUT_FASTEST, /* not published: the fastest layout that fits at the
			       run's GPU count (search_best_at(), over tp, pp
			       and micro-batch), as `traincost plan` chooses */
	VAL_LAYOUT_COUNT
};
/* "stated", "fastest" */
extern const char *const val_layout_names[VAL_LAYOUT_COUNT + 1]; /* NULL-terminated */

struct val_figure {
	int steps;           /* steps the figure averages; 0: a steady rate */
	int warmup;          /* 1: the run's one-off start-up is inside it */
	enum val_mean mean;
};

#define VAL_ID_LEN 64
#define VAL_SOURCE_LEN 256

struct val_case {
	char id[VAL_ID_LEN];         /* "vtrain-a100:17", "megatron21-1.7b" */
	char family[16];             /* "llm", "vision", "recsys" */
	char source[VAL_SOURCE_LEN]; /* citation of the measurement */
	char gpu_id[GPU_ID_LEN];     /* catalog id of the GPU */
	char pair[VAL_ID_LEN];       /* benchmark and stack shared with runs on
					other GPU types, "" if none */
	char framework[32];          /* software stack as published, "" unknown */
	int default_stack;           /* 1: the source names no stack, and the run
					gets what a workload naming none gets
					(generic for language models), not the
					registry's values */
	struct eff_stack stack;      /* that stack's profile, which validation
					resolves the case's GPU for (its id;
					none where the run is the user's own
					stack: measurements, logs); the
					workload names it by id alone */
	int sanity_only;             /* 1: shown, but kept out of the error
					statistics (the figure is doubtful) */
	struct workload w;           /* model, training and plan */
	enum val_metric metric;
	double measured;             /* in the metric's SI unit */
	struct val_figure figure;    /* how `measured` averages its run */
	enum val_layout layout;      /* whether w's tp, pp and micro-batch are
					the run's or a search's */
	char file[GPU_TEXT_LEN];     /* where it was read, "" if built */
	int line;
};

/* A growable list of cases. */
struct val_set {
	struct val_case *cases; /* owned */
	size_t count, cap;
};

void val_set_init(struct val_set *s);
/* Append a copy of *c.  Returns 0, or -1 when out of memory. */
int val_set_add(struct val_set *s, const struct val_case *c);
void val_set_release(struct val_set *s);

#endif
