/*
 * compose.h - the one composer of a training step, for every workload
 * family: from the time of its operators to the step, the run, the rates
 * and the memory verdict.
 *
 * A family's builder puts its operators into an op_sink (opsink.h), per
 * execution of each stage, and states what the composer cannot know: how
 * many micro-batches and pipeline stages there are, whether the gradient
 * reduction may hide behind the backward, what an input pipeline takes.
 */
#ifndef TC_COMPOSE_H
#define TC_COMPOSE_H

#include "../types/estimate_types.h"
#include "../types/gpu.h"
#include "opsink.h"
#include "schedule.h"

struct step_parts {
	double m;                  /* micro-batches per step */
	int p, v;                  /* pipeline stages and model chunks per GPU
				      (1 and 1 where the family has none) */
	double lps;                /* layers per pipeline stage (1 where the
				      layer stage is the whole network); of
				      a middle stage when they differ */
	double lps_first, lps_last; /* of the first and last stage where
				      they differ from lps (0: lps) */
	enum pp_schedule schedule; /* resolved; read only when p > 1 */
	int dp_overlap;            /* the gradient reduction (OPS_STEP,
				      BRK_DP_COMM) runs under the backward */
	int tp_overlap;            /* a layer's tensor-parallel collectives
				      (BRK_TP_COMM) run under its GEMMs */
	double dp_tail_s;          /* of it, what can never hide: the last
				      bucket, reduced after the backward */
	double overlap_slow_frac;  /* clock the compute loses while it runs
				      under overlapped communication (the
				      GPU's eff.overlap_slow_frac) */
	double loader_s;           /* the input pipeline's time for one step's
				      samples, seconds (0: not modelled) */
	double loader_images_per_s; /* its rate per node (for the warning) */
	int loader_on_gpu;         /* it runs on the GPUs, so it adds */
};

/*
 * The time that `hidden_s` seconds of communication run under compute add
 * to that compute when it loses a share `slow_frac` of its clock meanwhile:
 * hidden_s * slow_frac / (1 - slow_frac).
 */
double overlap_cost_s(double hidden_s, double slow_frac);

/*
 * Compose the step from the sums of its stages: the pipeline and its
 * schedule's bubble, the exposed part of the gradient reduction, the input
 * pipeline.  Fills E->breakdown_s, step_time_s, input_wait_s, bubble_frac
 * and limiting, and warns of an input pipeline that holds the step up.
 */
void compose_step(const struct op_sums *S, const struct step_parts *P,
		  struct estimate *E);

/*
 * The rest of an estimate, the same for every family: rates, utilisation,
 * run length, the memory total and whether it fits, the warnings every
 * family shares, and the check that nothing is non-finite.  E holds the
 * composed step, plan, samples_per_step, tokens_per_step (0: not counted),
 * steps, model and hardware FLOPs and mem_bytes.  `images`: the samples are
 * images.  Returns 0, or -1 with *why filled.
 */
int compose_finish(struct estimate *E, const struct gpu *g, enum tc_prec prec,
		   int images, const struct est_workspace *ws,
		   struct plan_problem *why);

#endif
