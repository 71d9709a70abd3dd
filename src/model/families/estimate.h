/*
 * estimate.h - from a workload and a GPU to step time, run time, MFU and
 * memory per GPU, with the per-operator detail behind them: the entry point
 * of every estimate (estimate.c).
 *
 * Pure computation: no I/O, no allocation inside step_estimate() (the caller
 * owns the workspace), callable from tests with structs built in code.
 */
#ifndef TC_ESTIMATE_H
#define TC_ESTIMATE_H

#include "../types/estimate_types.h"
#include "../types/gpu.h"
#include "../types/workload.h"

/*
 * Estimate one training run (LLM, vision or recommender).  Returns 0 and
 * fills *out (and ws->ops with the operators) on success; returns -1 and
 * fills *why when the plan is invalid for this workload and GPU, or when
 * the run would take longer than EST_MAX_RUN_S (why->field is then the
 * field that sets the amount of work: tokens, steps, epochs or samples);
 * *out is then unspecified.  Never produces a non-finite number.
 */
int step_estimate(const struct workload *w, const struct gpu *g,
		  struct est_workspace *ws, struct estimate *out,
		  struct plan_problem *why);

/*
 * step_estimate() that leaves out->fit_advice empty for an LLM plan that
 * does not fit: finding the advice takes a dozen more memory estimates,
 * which searches and sweeps (millions of plans, advice never printed)
 * should not pay for.
 */
int step_estimate_brief(const struct workload *w, const struct gpu *g,
			struct est_workspace *ws, struct estimate *out,
			struct plan_problem *why);

/*
 * step_estimate() without the EST_MAX_RUN_S limit, for callers that use
 * the figures of one step and never report the run: validation and
 * calibration (whose fits try extreme efficiencies on the way) and the
 * uncertainty draws around a point estimate that step_estimate() accepted.
 */
int step_estimate_unbounded(const struct workload *w, const struct gpu *g,
			    struct est_workspace *ws, struct estimate *out,
			    struct plan_problem *why);

/*
 * Relative spread of an estimate no measured run backs (a GPU without
 * published kernel rates, a framework without a fitted run): the error of
 * the 113 published runs that name a framework with their GPU type or
 * their source held out, 16.7 and 16.6 % MAPE (`traincost validate
 * --loo`), as a log-normal sigma (mean |log error| = 0.8 sigma: 0.21).  On
 * the 47 of them whose GPU file lacks a GEMM or memory rate measured on
 * that GPU, the held-out error is 18.9 % (sigma 0.22; 0.17 on the other
 * 66).  It was 0.30 when that error was 23.4 %, over fewer runs and an
 * earlier model; tests/accuracy/gates.py holds it to the leave-one-out
 * figure (docs/model.md, section 8).
 */
#define STEP_UNVALIDATED_REL_SD 0.21

/* The largest micro-batch tried when a plan gives none (sequences). */
#define EST_MAX_AUTO_MICRO_BATCH 64

/* 1 when measured runs back the GPU's rates and the workload's framework
 * (or a calibration replaced both), else 0. */
int step_validated(const struct workload *w, const struct gpu *g);

/*
 * The kernel rate estimate e's step rests on most when no measurement gives
 * it on g: mem_frac where memory bandwidth limits the step (e->limiting),
 * attn_frac where w's fused attention is the largest part of its time;
 * neither set by g's file nor replaced by a calibration, and g not an
 * A100, on whose measurements both defaults rest.  -1 when there is none.
 */
int step_unmeasured_rate(const struct workload *w, const struct estimate *e,
			 const struct gpu *g);

/* 0 when the resolved plan pl runs collectives between the GPUs of one
 * node of g and no collective was measured inside such a node (the GPU
 * file's collectives_measured), else 1. */
int step_collectives_measured(const struct plan *pl, const struct gpu *g);

#endif
