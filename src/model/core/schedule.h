/*
 * schedule.h - what a pipeline schedule costs: the idle time it leaves on
 * the critical stage (the bubble) and the micro-batches whose activations
 * the first stage holds at once.  The one place both facts live
 * (docs/model.md, "Pipeline").
 */
#ifndef TC_SCHEDULE_H
#define TC_SCHEDULE_H

#include "../types/workload.h"

/* The schedule a plan runs: the one named, or interleaved 1F1B when
 * interleave > 1 and 1F1B otherwise. */
enum pp_schedule sched_resolve(enum pp_schedule named, int interleave);

/*
 * The schedule for a layout the planner tries (pp stages, interleave
 * chunks) when the workload names `named`: none without a pipeline,
 * interleaved 1F1B with chunks, else the named one (1F1B in place of a
 * named interleaved schedule without chunks).
 */
enum pp_schedule sched_for_layout(enum pp_schedule named, int pp,
				  int interleave);

/* One stage's time per micro-batch and what a schedule may reorder. */
struct sched_stages {
	double p;       /* pipeline stages */
	double m;       /* micro-batches per step */
	double v;       /* model chunks per GPU (interleave) */
	double t_sum;   /* sum over stages of one micro-batch's forward and
			   backward time, seconds */
	double t_max;   /* the slowest stage's, seconds */
	double t_w;     /* of t_max, the weight-gradient GEMMs that a
			   zero-bubble schedule defers, seconds */
};

/*
 * Seconds the critical stage idles in one step under schedule s (resolved,
 * not SCHED_DEFAULT): the step's pipeline time is m * t_max + the result.
 */
double sched_bubble_s(enum pp_schedule s, const struct sched_stages *st);

/* Micro-batches whose activations stage i (0: the first) holds at its peak
 * under schedule s with p stages, m micro-batches and v chunks per GPU. */
double sched_inflight(enum pp_schedule s, double p, double m, double v,
		      int i);

#endif
