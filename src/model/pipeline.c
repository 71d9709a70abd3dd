/*
 * pipeline.c - the one entry point of an estimate: the table of workload
 * families, the run-length limit, the checks every family's result passes,
 * and the helpers the families share.
 */
#include "estimate.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llm.h"
#include "llm_encdec.h"
#include "memory.h"
#include "recsys.h"
#include "roofline.h"
#include "vision.h"
#include "../util/units.h"

/*
 * A workload family: how its step is estimated (the step_estimate()
 * contract without the run-length limit).  A new family is a row here
 * and a value of enum wl_kind.
 */
struct est_family {
	int (*estimate)(const struct workload *w, const struct gpu *g,
			struct est_workspace *ws, struct estimate *out,
			struct plan_problem *why);
};

static const struct est_family families[WL_KIND_COUNT] = {
	[WL_LLM] = { llm_form_estimate },
	[WL_VISION] = { vision_estimate },
	[WL_RECSYS] = { recsys_estimate },
};

const char *const brk_names[BRK_COUNT] = {
	"gemm", "attention", "memory_bound", "optimizer", "tp_comm",
	"pp_comm", "dp_comm", "ep_comm", "bubble", "launch",
};

const char *const mem_part_names[MEM_COUNT] = {
	"weights", "gradients", "optimizer", "activations", "buffers",
	"reserved",
};

const char *const limiter_names[LIM_COUNT] = {
	"compute", "memory_bandwidth", "communication", "pipeline_bubble",
	"launch_overhead", "data_loader",
};

int est_workspace_init(struct est_workspace *ws, size_t cap)
{
	ws->count = 0;
	ws->cap = 0;
	ws->ops = NULL;
	if (cap == 0)
		cap = LLM_MAX_OPS;
	ws->ops = calloc(cap, sizeof(*ws->ops));
	if (!ws->ops)
		return -1;
	ws->cap = cap;
	return 0;
}

void est_workspace_release(struct est_workspace *ws)
{
	if (!ws)
		return;
	free(ws->ops);
	ws->ops = NULL;
	ws->count = ws->cap = 0;
}

int est_problem(struct plan_problem *why, enum wl_field f, const char *fmt, ...)
{
	va_list ap;
	if (why) {
		why->field = f;
		va_start(ap, fmt);
		vsnprintf(why->msg, sizeof(why->msg), fmt, ap);
		va_end(ap);
	}
	return -1;
}

void est_warn(struct estimate *e, const char *fmt, ...)
{
	va_list ap;
	if (e->warning_count >= EST_MAX_WARN)
		return;
	va_start(ap, fmt);
	vsnprintf(e->warning[e->warning_count++], sizeof(e->warning[0]), fmt, ap);
	va_end(ap);
}

void est_data_parallel_plan(const struct plan *given, const struct gpu *g,
			    struct plan *pl)
{
	*pl = *given;
	if (pl->gpus_per_node <= 0)
		pl->gpus_per_node = gpu_node_size(g);
	if (pl->count <= 0)
		pl->count = 1;
	pl->tp = pl->pp = pl->ep = pl->interleave = 1;
	pl->first_stage_layers = pl->last_stage_layers = 0;
	pl->dp = pl->count;
	pl->zero = 0;
	pl->sequence_parallel = 0;
}

int est_check_dense_precision(const struct gpu *g, enum tc_prec p,
			      struct plan_problem *why)
{
	if ((int)p < 0 || p >= PREC_COUNT || p == PREC_INT8 || p == PREC_FP8 ||
	    p == PREC_FP4 ||
	    !(roof_peak(g, p) > 0))
		return est_problem(why, WLF_PRECISION, "%s has no %s training rate "
				   "(expected fp32, tf32, bf16 or fp16 the GPU "
				   "supports)", g->id,
				   (int)p >= 0 && p < PREC_COUNT ?
				   tc_prec_names[p] : "?");
	return 0;
}

int est_check_finite(const struct estimate *e, const struct est_workspace *ws,
		     struct plan_problem *why)
{
	const double chk[] = { e->step_time_s, e->tokens_per_s, e->samples_per_s,
			       e->total_time_s, e->gpu_hours, e->mfu_frac, e->hfu_frac,
			       e->memory_per_gpu_bytes, e->model_flop_per_step, e->params };
	for (size_t k = 0; k < sizeof(chk) / sizeof(chk[0]); k++)
		if (!isfinite(chk[k]) || chk[k] < 0)
			return est_problem(why, WLF_NONE, "internal: non-finite or negative "
					   "result (%zu) for this plan (expected finite values)", k);
	for (int k = 0; k < BRK_COUNT; k++)
		if (!isfinite(e->breakdown_s[k]))
			return est_problem(why, WLF_NONE, "internal: non-finite time in '%s'",
					   brk_names[k]);
	for (size_t k = 0; k < ws->count; k++)
		if (!isfinite(ws->ops[k].time_s))
			return est_problem(why, WLF_NONE, "internal: non-finite time of "
					   "operator '%s'", ws->ops[k].name);
	if (!(e->step_time_s > 0))
		return est_problem(why, WLF_NONE, "internal: zero step time (expected a "
				   "positive time)");
	return 0;
}

int est_gcd(int a, int b)
{
	while (b) {
		int r = a % b;
		a = b;
		b = r;
	}
	return a;
}

/*
 * Refuse a run longer than EST_MAX_RUN_S: the numbers would be meaningless
 * (hardware, prices and the model itself change long before).  Blames the
 * field that sets the amount of work.  Returns 0, or -1 with *why filled.
 */
static int check_run_length(const struct workload *w, const struct estimate *e,
			    struct plan_problem *why)
{
	enum wl_field f;
	const char *what;
	double years;

	if (!(e->total_time_s > EST_MAX_RUN_S))
		return 0;
	if (w->kind == WL_VISION) {
		f = WLF_EPOCHS;
		what = "epochs";
	} else if (w->kind == WL_RECSYS) {
		f = w->rtrain.samples > 0 ? WLF_SAMPLES : WLF_EPOCHS;
		what = w->rtrain.samples > 0 ? "samples" : "epochs";
	} else {
		f = w->train.steps > 0 ? WLF_STEPS : WLF_TOKENS;
		what = w->train.steps > 0 ? "steps" : "tokens";
	}
	years = e->total_time_s / EST_S_PER_YEAR;
	if (!e->fits) {
		/* Both limits: say that memory fails too, or the user adds
		 * GPUs for the time and meets the memory next. */
		char need[32], cap[32];
		tc_fmt_bytes(e->memory_per_gpu_bytes, need, sizeof(need));
		tc_fmt_bytes(e->memory_capacity_bytes, cap, sizeof(cap));
		return est_problem(why, f, "the run takes %.3g years and needs "
			       "%s per GPU of %s (expected at most %.0f years "
			       "and a plan that fits; more GPUs or fewer %s, "
			       "a smaller model)", years, need, cap,
			       EST_MAX_RUN_S / EST_S_PER_YEAR, what);
	}
	return est_problem(why, f, years < 1e7 ? "the run takes %.1f years "
		       "(expected at most %.0f years; more GPUs or fewer %s)" :
		       "the run takes %.3g years (expected at most %.0f "
		       "years; more GPUs or fewer %s)", years,
		       EST_MAX_RUN_S / EST_S_PER_YEAR, what);
}

/* A calibration measured the user's own stack: a framework profile's
 * values, fitted on other people's runs, no longer apply. */
static int calibrated(const struct roof_eff *e)
{
	for (int p = 0; p < EFF_COUNT; p++)
		if (e->layer[p] == EFF_LAYER_CALIBRATION)
			return 1;
	return 0;
}

int step_validated(const struct workload *w, const struct gpu *g)
{
	if (calibrated(&g->eff))
		return 1;
	const struct plan_framework *fw = &w->plan.framework;
	if (w->kind == WL_LLM && w->train.precision == PREC_FP4)
		return 0; /* no FP4 GEMM rate measured on any GPU */
	return g->eff.layer[eff_id_gemm_max_frac] >= EFF_LAYER_GPU &&
	       !g->eff.measured_on[0] && (!fw->id[0] || fw->fitted_runs > 0);
}

/* Whether the GPU's file sets any kernel rate (a memory rate without a GEMM
 * rate, say). */
static int any_rate_measured(const struct roof_eff *eff)
{
	for (int i = 0; i < EFF_COUNT; i++)
		if (eff_params[i].role == EFF_RATE && eff->layer[i] >= EFF_LAYER_GPU)
			return 1;
	return 0;
}

/* Say which part of an estimate no measured run backs. */
static void unvalidated_warnings(const struct workload *w, const struct gpu *g,
				 struct estimate *e)
{
	const struct plan_framework *fw = &w->plan.framework;
	int gemm_default = g->eff.layer[eff_id_gemm_max_frac] < EFF_LAYER_GPU;
	if (gemm_default && g->eff.measured_on[0])
		est_warn(e, "no published measurement of %s's GEMM rate: the A100-fitted default "
			 "applies, the rates its file has were measured on %s, and the uncertainty "
			 "is widened to the cross-GPU validation error (%.0f %%)", g->id,
			 g->eff.measured_on, 100 * STEP_UNVALIDATED_REL_SD);
	else if (gemm_default && any_rate_measured(&g->eff))
		est_warn(e, "no published measurement of %s's GEMM rate: the A100-fitted default "
			 "applies, and the uncertainty is widened to the cross-GPU validation error "
			 "(%.0f %%)", g->id, 100 * STEP_UNVALIDATED_REL_SD);
	else if (gemm_default)
		est_warn(e, "no published measurement of %s's kernel rates: the A100-fitted "
			 "defaults apply, and the uncertainty is widened to the cross-GPU "
			 "validation error (%.0f %%)", g->id, 100 * STEP_UNVALIDATED_REL_SD);
	else if (g->eff.measured_on[0])
		est_warn(e, "no published measurement of %s's kernel rates: those measured on "
			 "%s stand in, and the uncertainty is widened to the cross-GPU "
			 "validation error (%.0f %%)", g->id, g->eff.measured_on,
			 100 * STEP_UNVALIDATED_REL_SD);
	if (w->kind == WL_LLM && w->train.precision == PREC_FP4 && !calibrated(&g->eff))
		est_warn(e, "no published measurement of FP4 GEMM rates: they are taken to reach "
			 "the share of their peak that FP8 GEMMs reach, and the uncertainty is widened "
			 "to the cross-GPU validation error (%.0f %%)", 100 * STEP_UNVALIDATED_REL_SD);
	if (fw->id[0] && fw->fitted_runs <= 0 && fw->pooled_from[0])
		est_warn(e, "framework %s has no measured run: the compute rate pooled over every "
			 "measured stack (%s, stack_frac %.3f) applies, and the uncertainty is widened "
			 "to the cross-framework validation error (%.0f %%)", fw->id, fw->pooled_from,
			 fw->value[eff_id_stack_frac], 100 * STEP_UNVALIDATED_REL_SD);
	else if (fw->id[0] && fw->fitted_runs <= 0)
		est_warn(e, "framework %s has no measured run: the defaults apply, and the "
			 "uncertainty is widened to the cross-framework validation error (%.0f %%)",
			 fw->id, 100 * STEP_UNVALIDATED_REL_SD);
}

/* The estimate without the run-length limit and without the LLM fit
 * advice. */
static int estimate_given(const struct workload *w, const struct gpu *g,
			  struct est_workspace *ws, struct estimate *out,
			  struct plan_problem *why);

/*
 * An LLM plan without a micro-batch: every power of two that divides the
 * sequences each data-parallel rank takes per step is tried, and the
 * fastest that fits in memory is taken (the smallest when none fits, so
 * the memory advice speaks of the least demanding plan).
 */
static int choose_micro_batch(const struct workload *w, const struct gpu *g,
			      struct est_workspace *ws, struct estimate *out,
			      struct plan_problem *why)
{
	struct workload c = *w;
	struct estimate e;
	const struct plan *pl = &w->plan;
	int tp = pl->tp > 0 ? pl->tp : 1, pp = pl->pp > 0 ? pl->pp : 1;
	int cp = pl->cp > 0 ? pl->cp : 1;
	int dp = pl->dp > 0 ? pl->dp : (pl->count > 0 ? pl->count / (tp * pp * cp) : 1);
	double per_rank = dp > 0 ? w->train.global_batch / dp : 0;
	int have = 0, best_fits = 0;

	for (int mb = 1; mb <= per_rank && mb <= EST_MAX_AUTO_MICRO_BATCH; mb *= 2) {
		if (fmod(per_rank, mb) != 0)
			continue;
		c.plan.micro_batch = mb;
		if (estimate_given(&c, g, ws, &e, why))
			return have ? 0 : -1;
		if (!have || (e.fits && (!best_fits || e.step_time_s < out->step_time_s))) {
			*out = e;
			best_fits = e.fits;
			have = 1;
		}
	}
	if (!have) {
		/* the plan's own check names what is wrong with it */
		c.plan.micro_batch = 1;
		return estimate_given(&c, g, ws, out, why);
	}
	out->micro_batch_chosen = 1;
	return 0;
}

static int estimate_core(const struct workload *w, const struct gpu *g,
			 struct est_workspace *ws, struct estimate *out,
			 struct plan_problem *why)
{
	assert(w && g && ws && out);
	if (w->kind == WL_LLM && w->plan.micro_batch <= 0)
		return choose_micro_batch(w, g, ws, out, why);
	return estimate_given(w, g, ws, out, why);
}

/* The estimate of a plan whose micro-batch is known. */
static int estimate_given(const struct workload *w, const struct gpu *g,
			  struct est_workspace *ws, struct estimate *out,
			  struct plan_problem *why)
{
	assert((int)w->kind >= 0 && w->kind < WL_KIND_COUNT);
	const struct plan_framework *fw = &w->plan.framework;
	int rc;
	if (fw->set && !calibrated(&g->eff)) {
		/* The stack's layer goes on a copy: the caller's GPU is shared
		 * by estimates of other stacks. */
		struct gpu gf = *g;
		for (int p = 0; p < EFF_COUNT; p++)
			if (fw->set & (1ULL << p))
				eff_set(&gf.eff, p, fw->value[p], EFF_LAYER_FRAMEWORK);
		rc = families[w->kind].estimate(w, &gf, ws, out, why);
	} else {
		rc = families[w->kind].estimate(w, g, ws, out, why);
	}
	if (rc == 0 && !step_validated(w, g))
		unvalidated_warnings(w, g, out);
	return rc;
}

/* What change of an LLM plan would fit: several more memory estimates, so
 * only the estimates a user may read pay for it. */
static void add_fit_advice(const struct workload *w, const struct gpu *g,
			   struct estimate *e)
{
	if (w->kind == WL_LLM && w->llm.form == FORM_DECODER && !e->fits)
		mem_fit_advice(w, g, &e->plan, e->memory_per_gpu_bytes,
			       e->fit_advice, sizeof(e->fit_advice));
}

int step_estimate_unbounded(const struct workload *w, const struct gpu *g,
			    struct est_workspace *ws, struct estimate *out,
			    struct plan_problem *why)
{
	if (estimate_core(w, g, ws, out, why) || campaign_estimate(w, g, out, why))
		return -1;
	add_fit_advice(w, g, out);
	return 0;
}

int step_estimate_brief(const struct workload *w, const struct gpu *g,
			struct est_workspace *ws, struct estimate *out,
			struct plan_problem *why)
{
	return estimate_core(w, g, ws, out, why) || check_run_length(w, out, why) ||
	       campaign_estimate(w, g, out, why) ? -1 : 0;
}

int step_estimate(const struct workload *w, const struct gpu *g,
		  struct est_workspace *ws, struct estimate *out,
		  struct plan_problem *why)
{
	if (step_estimate_brief(w, g, ws, out, why))
		return -1;
	add_fit_advice(w, g, out);
	return 0;
}
