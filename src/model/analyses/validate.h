/*
 * validate.h - predicted against measured training runs, and the error
 * statistics `traincost validate` reports.
 *
 * A case is a workload with its plan, the GPU it ran on (by catalog id), a
 * measured quantity and the source it was published in.  Cases are read by
 * src/io/val_load.c or built in code; the GPU comes from a caller-supplied
 * lookup so this module stays free of I/O.
 */
#ifndef TC_VALIDATE_H
#define TC_VALIDATE_H

#include <stddef.h>

#include "../../util/diag.h"
#include "../families/estimate.h"
#include "../types/gpu.h"
#include "../types/val_case.h"
#include "../types/workload.h"

/* One case's outcome. */
struct val_result {
	size_t index;       /* of the case in the array passed to val_run */
	int ok;             /* 0: the estimate failed, msg says why */
	double predicted;   /* in the metric's unit */
	double measured;
	double err_frac;    /* (predicted - measured) / measured */
	int fits;           /* the plan fits in memory, as the model counts it
			       (a run that ran did: 0 is the model's miss) */
	double mem_bytes, capacity_bytes; /* per GPU: needed, and the GPU's */
	char msg[256];
};

struct val_stats {
	size_t n;           /* cases with a prediction */
	size_t failed;      /* cases whose estimate failed */
	double mape;        /* mean |err|, fraction */
	double median_ape;  /* median |err| */
	double worst_ape;   /* largest |err| */
	size_t worst;       /* index into the results of the worst case */
	double bias;        /* mean signed err: > 0 over-predicts */
};

/* Look up GPU `id` into *out; returns 0 or -1 if unknown. */
typedef int (*val_gpu_fn)(const char *id, struct gpu *out, void *ctx);

/*
 * The metric of a finished estimate: step time, Megatron TFLOP/s,
 * MFU or tokens/s, in the metric's unit.
 */
double val_metric_value(enum val_metric m, const struct workload *w,
			const struct estimate *e);

/*
 * Predict case c on GPU g as loaded (the case's stack profile is resolved
 * into it here).  Returns 0 and writes *predicted, or -1 with the
 * reason in *why (an invalid plan).
 */
int val_predict(const struct val_case *c, const struct gpu *g,
		struct est_workspace *ws, double *predicted,
		struct plan_problem *why);

/*
 * Run the cases whose family equals `family` (NULL: all) and, when
 * `stride` > 1, only those with index % stride == phase (a split for
 * fitting and holding out).  res must hold n entries; *nres is set to the
 * number written.  GPUs come from gpu_for(id, ..., ctx).  Returns 0, or -1
 * if the workspace cannot be allocated.
 */
int val_run(const struct val_case *cases, size_t n, const char *family,
	    size_t stride, size_t phase, val_gpu_fn gpu_for, void *ctx,
	    struct val_result *res, size_t *nres);

/* Error statistics of results that are ok.  Returns 0, or -1 when out of
 * memory (the median needs a sorted copy). */
int val_stats_compute(const struct val_result *res, size_t n,
		      struct val_stats *st);

#endif
