/*
 * estimate.c - the one entry point of an estimate: which family's row
 * (family.h) a workload takes, and what wraps every family: the micro-batch
 * choice, the stack's efficiencies, the warnings of what no measured run
 * backs, the run-length limit, the campaign and the fit advice.
 */
#include "estimate.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "campaign.h"
#include "../core/family.h"
#include "../core/roofline.h"
#include "../../util/intmath.h"
#include "../../util/units.h"
#include "llm_encdec.h"
#include "recsys.h"
#include "step.h"
#include "vision.h"

/* The family row of a workload.  A new family is a row here, a value of
 * enum wl_kind and its own .c file. */
static const struct est_family *family_of(const struct workload *w)
{
	assert((int)w->kind >= 0 && w->kind < WL_KIND_COUNT);
	switch (w->kind) {
	case WL_VISION:
		return &vision_family;
	case WL_RECSYS:
		return &recsys_family;
	case WL_LLM:
	default:
		return w->llm.form == FORM_ENCODER_DECODER ? &encdec_family :
							     &llm_family;
	}
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
	f = family_of(w)->work_field(w, &what);
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

int step_validated(const struct workload *w, const struct gpu *g)
{
	if (eff_calibrated(&g->eff))
		return 1;
	const struct eff_stack *fw = &g->stack;
	if (w->kind == WL_LLM && w->train.precision == PREC_FP4)
		return 0; /* no FP4 GEMM rate measured on any GPU */
	return eff_measured(&g->eff, eff_id_gemm_max_frac) &&
	       !g->eff.measured_on[0] && (!fw->id[0] || fw->fitted_runs > 0);
}

int step_collectives_measured(const struct plan *pl, const struct gpu *g)
{
	int n = pl->count > 0 ? pl->count : 1;
	int gpn = pl->gpus_per_node > 0 ? pl->gpus_per_node : gpu_node_size(g);
	return (n < gpn ? n : gpn) <= 1 || g->collectives_measured[0];
}

/*
 * The defaults of the streaming and attention rates were measured on the
 * A100 (mem_frac: vTrain's A100 SXM; attn_frac: FlashAttention-2 on the
 * A100, Dao 2023).  The A100 PCIe and 40 GB parts have the same GA100 die
 * and HBM memory system, so for any Ampere part with HBM the defaults are
 * measured rates, not stand-ins: such a part is a GA100.
 */
static int ga100(const struct gpu *g)
{
	return !strcmp(g->architecture, "ampere") && !strncmp(g->memory_type, "HBM", 3);
}

/* Whether fused attention takes more of e's step than any other part (a
 * language model without flash attention times its scores as GEMMs and
 * memory passes; a vision model's attention is always timed fused). */
static int fused_attention_leads(const struct workload *w, const struct estimate *e)
{
	if (w->kind == WL_LLM && !w->train.flash_attention)
		return 0;
	for (int k = 0; k < BRK_COUNT; k++)
		if (k != BRK_ATTN && e->breakdown_s[k] >= e->breakdown_s[BRK_ATTN])
			return 0;
	return 1;
}

int step_unmeasured_rate(const struct workload *w, const struct estimate *e,
			 const struct gpu *g)
{
	enum eff_id p;
	if (e->limiting == LIM_MEMORY_BW)
		p = eff_id_mem_frac;
	else if (fused_attention_leads(w, e))
		p = eff_id_attn_frac;
	else
		return -1;
	return eff_calibrated(&g->eff) || eff_measured(&g->eff, p) || ga100(g) ?
	       -1 : (int)p;
}

/* What the unmeasured rate of step_unmeasured_rate() times, the default
 * that stands in, and the unit of its share. */
static void rate_words(enum eff_id p, const char **what, const char **def, const char **of)
{
	int mem = p == eff_id_mem_frac;
	*what = mem ? "memory streaming rate, which limits this step" :
		      "fused-attention rate, which takes most of this step";
	*def = mem ? "the default fitted on A100 measurements" :
		     "FlashAttention-2's share on the A100";
	*of = mem ? "its bandwidth" : "its dense peak";
}

/* Whether the GPU's file sets any kernel rate (a memory rate without a GEMM
 * rate, say). */
static int any_rate_measured(const struct roof_eff *eff)
{
	for (int i = 0; i < EFF_COUNT; i++)
		if (eff_params[i].role == EFF_RATE && eff_measured(eff, i))
			return 1;
	return 0;
}

/* Say which part of estimate e no measured run backs: the GPU's rates, the
 * one its step rests on most, FP4, the stack. */
static void unvalidated_warnings(const struct workload *w, const struct gpu *g,
				 struct estimate *e)
{
	const struct eff_stack *fw = &g->stack;
	int gemm_default = !eff_measured(&g->eff, eff_id_gemm_max_frac);
	int rate = step_unmeasured_rate(w, e, g);

	if (step_validated(w, g) && rate < 0)
		return;
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
	if (w->kind == WL_LLM && w->train.precision == PREC_FP4 && !eff_calibrated(&g->eff))
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
	/* a GPU with no measured rate at all, or rates of another GPU standing
	 * in, has said so for every rate above */
	if (rate >= 0 && !gemm_default && !g->eff.measured_on[0]) {
		const char *what, *def, *of;
		rate_words((enum eff_id)rate, &what, &def, &of);
		est_warn(e, "no published measurement of %s's %s: %s (%.1f %% of %s) "
			 "stands in, and the uncertainty is widened to the cross-GPU "
			 "validation error (%.0f %%)", g->id, what, def,
			 100 * eff_get(&g->eff, (enum eff_id)rate), of,
			 100 * STEP_UNVALIDATED_REL_SD);
	}
}

/* The estimate without the run-length limit and without the LLM fit
 * advice. */
static int estimate_given(const struct workload *w, const struct gpu *g,
			  struct est_workspace *ws, struct estimate *out,
			  struct plan_problem *why);

/*
 * An LLM plan without a micro-batch: every micro-batch up to
 * EST_MAX_AUTO_MICRO_BATCH that divides the sequences each data-parallel
 * rank takes per step is tried, and the fastest that fits in memory is
 * taken (the smallest when none fits, so the memory advice speaks of the
 * least demanding plan).  Every divisor, not only powers of two: a rank
 * that takes 44 sequences a step runs them as one micro-batch of 44 if it
 * fits, not as 11 of 4; where the share is a power of two the two rules
 * try the same sizes.
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
	int have = 0, best_fits = 0, mbs[EST_MAX_AUTO_MICRO_BATCH];
	int nmb = tc_whole_divisors(per_rank, EST_MAX_AUTO_MICRO_BATCH, mbs,
				    EST_MAX_AUTO_MICRO_BATCH);

	for (int i = 0; i < nmb; i++) {
		c.plan.micro_batch = mbs[i];
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
	/* g is the GPU resolved for w's stack (gpu_resolve()): one passed as
	 * loaded, or resolved for another stack, has the wrong efficiencies */
	assert(!strcmp(w->plan.framework, g->stack.id));
	if (family_of(w)->auto_micro_batch && w->plan.micro_batch <= 0)
		return choose_micro_batch(w, g, ws, out, why);
	return estimate_given(w, g, ws, out, why);
}

/* The estimate of a plan whose micro-batch is known. */
static int estimate_given(const struct workload *w, const struct gpu *g,
			  struct est_workspace *ws, struct estimate *out,
			  struct plan_problem *why)
{
	int rc = est_drive(family_of(w), w, g, ws, out, why);
	if (rc == 0)
		unvalidated_warnings(w, g, out);
	if (rc == 0 && !step_collectives_measured(&out->plan, g))
		est_warn(out, "no collective measured inside a node of %s: the %s figures of "
			 "other GPUs stand in (docs/model.md section 3), and the uncertainty is "
			 "widened to the cross-GPU validation error (%.0f %%)", g->id,
			 topo_names[gpu_topology(g)], 100 * STEP_UNVALIDATED_REL_SD);
	return rc;
}

/* What change of a plan would fit, where the family searches for it:
 * several more memory estimates, so only the estimates a user may read pay
 * for it. */
static void add_fit_advice(const struct workload *w, const struct gpu *g,
			   struct estimate *e)
{
	const struct est_family *f = family_of(w);
	if (f->fit_search && !e->fits)
		f->fit_search(w, g, e);
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
