/*
 * compose.c - a training step from the time of its operators.
 *
 * T = m * t_max + bubble + exposed gradient reduction + the step's own
 * work (optimizer), where t_max is the slowest pipeline stage's time for
 * one micro-batch (docs/model.md, section 3, "Pipeline").
 */
#include "compose.h"

#include <assert.h>
#include <math.h>

#include "comm.h"
#include "mem_reserve.h"
#include "roofline.h"

static double sum_brk(const double t[BRK_COUNT])
{
	double s = 0;
	int k;
	for (k = 0; k < BRK_COUNT; k++)
		s += t[k];
	return s;
}

enum crit_stage { CRIT_FIRST, CRIT_MID, CRIT_LAST };

/* The slowest stage's time per micro-batch and the schedule's bubble;
 * *crit: which stage is the slowest, *crit_lps: its layers. */
static double pipeline_bubble(const struct op_sums *S,
			      const struct step_parts *P, double *tmax,
			      enum crit_stage *crit, double *crit_lps)
{
	double tL = sum_brk(S->t[OPS_LAYER]), tF = sum_brk(S->t[OPS_FIRST]);
	double tLa = sum_brk(S->t[OPS_LAST]), tfirst, tlast, tmid;
	double lf = P->lps_first > 0 ? P->lps_first : P->lps;
	double ll = P->lps_last > 0 ? P->lps_last : P->lps;
	struct sched_stages st;

	*crit = CRIT_FIRST;
	*crit_lps = P->lps;
	if (P->p == 1) {
		*tmax = P->lps * tL + tF + tLa;
		return 0;
	}
	tfirst = lf * tL + tF + S->p2p_s;
	tlast = ll * tL + tLa + S->p2p_s;
	tmid = P->p > 2 ? P->lps * tL + S->p2p_s : 0;
	*tmax = tfirst;
	*crit_lps = lf;
	if (tlast > *tmax) {
		*tmax = tlast;
		*crit = CRIT_LAST;
		*crit_lps = ll;
	}
	if (tmid > *tmax) {
		*tmax = tmid;
		*crit = CRIT_MID;
		*crit_lps = P->lps;
	}
	st.p = P->p;
	st.m = P->m;
	st.v = P->v;
	st.t_sum = (lf + ll + (P->p - 2) * P->lps) * tL + P->p * S->p2p_s +
		   tF + tLa;
	st.t_max = *tmax;
	st.t_w = *crit_lps * S->wgrad_s[OPS_LAYER] +
		 (*crit == CRIT_FIRST ? S->wgrad_s[OPS_FIRST] :
		  *crit == CRIT_LAST ? S->wgrad_s[OPS_LAST] : 0);
	return sched_bubble_s(P->schedule, &st);
}

double overlap_cost_s(double hidden_s, double slow_frac)
{
	if (!(hidden_s > 0) || !(slow_frac > 0))
		return 0;
	return hidden_s * slow_frac / (1 - slow_frac);
}

/* Transformer Engine's userbuffers exchange each tensor-parallel
 * collective in chunks while the GEMM that consumes or produces them runs
 * (NeMo's tp_comm_overlap): only what outlasts the layer's GEMMs stays on
 * the critical path, and the GEMMs slow down while they share the GPU. */
static void hide_tp_comm(struct op_sums *S, double slow_frac)
{
	double hidden = fmin(S->t[OPS_LAYER][BRK_TP_COMM],
			     S->t[OPS_LAYER][BRK_GEMM]);
	double cost = overlap_cost_s(hidden, slow_frac);

	S->t[OPS_LAYER][BRK_TP_COMM] += cost - hidden;
	S->lim[OPS_LAYER][LIM_COMMUNICATION] =
		fmax(0, S->lim[OPS_LAYER][LIM_COMMUNICATION] - hidden + cost);
}

void compose_step(const struct op_sums *given, const struct step_parts *P,
		  struct estimate *E)
{
	struct op_sums overlapped;
	const struct op_sums *S = given;
	static const double none[(int)LIM_COUNT > (int)BRK_COUNT ?
				 (int)LIM_COUNT : (int)BRK_COUNT];
	double lim[LIM_COUNT], m = P->m, tmax, bubble, dpc, exposed, busy;
	double lps;
	const double *crit_t, *crit_lim;
	enum crit_stage crit;
	int k;

	if (P->tp_overlap) {
		overlapped = *given;
		hide_tp_comm(&overlapped, P->overlap_slow_frac);
		S = &overlapped;
	}
	bubble = pipeline_bubble(S, P, &tmax, &crit, &lps);
	crit_t = crit == CRIT_FIRST ? S->t[OPS_FIRST] :
		 crit == CRIT_LAST ? S->t[OPS_LAST] : none;
	crit_lim = crit == CRIT_FIRST ? S->lim[OPS_FIRST] :
		   crit == CRIT_LAST ? S->lim[OPS_LAST] : none;
	for (k = 0; k < BRK_COUNT; k++) {
		E->breakdown_s[k] = m * (lps * S->t[OPS_LAYER][k] + crit_t[k]);
		if (P->p == 1)
			E->breakdown_s[k] += m * S->t[OPS_LAST][k];
	}
	E->breakdown_s[BRK_PP_COMM] += m * S->p2p_s;
	E->breakdown_s[BRK_BUBBLE] = bubble;
	for (k = 0; k < LIM_COUNT; k++) {
		lim[k] = m * (lps * S->lim[OPS_LAYER][k] + crit_lim[k]);
		if (P->p == 1)
			lim[k] += m * S->lim[OPS_LAST][k];
	}
	lim[LIM_COMMUNICATION] += m * S->p2p_s;
	lim[LIM_BUBBLE] = bubble;

	/* Once per step: the gradient reduction, hidden behind the last
	 * micro-batch's backward where the framework overlaps them (what
	 * hides slows that backward), and the optimizer. */
	dpc = S->t[OPS_STEP][BRK_DP_COMM];
	exposed = dpc;
	if (P->dp_overlap) {
		busy = lps * S->bwd_s;
		exposed = fmax(P->dp_tail_s, dpc - busy);
		exposed += overlap_cost_s(dpc - exposed, P->overlap_slow_frac);
	}
	for (k = 0; k < BRK_COUNT; k++)
		E->breakdown_s[k] += k == BRK_DP_COMM ? exposed :
							S->t[OPS_STEP][k];
	for (k = 0; k < LIM_COUNT; k++)
		lim[k] += k == LIM_COMMUNICATION ?
			  S->lim[OPS_STEP][k] - dpc + exposed :
			  S->lim[OPS_STEP][k];
	E->step_time_s = sum_brk(E->breakdown_s);
	assert(fabs(E->step_time_s - (m * tmax + bubble + exposed +
				      sum_brk(S->t[OPS_STEP]) - dpc)) <=
	       1e-9 * E->step_time_s + 1e-15);

	/* The input pipeline: on the GPUs it adds; on the hosts it limits
	 * only when slower than the step. */
	E->input_wait_s = 0;
	if (P->loader_s > 0) {
		if (P->loader_on_gpu)
			E->input_wait_s = P->loader_s;
		else if (P->loader_s > E->step_time_s)
			E->input_wait_s = P->loader_s - E->step_time_s;
		if (E->input_wait_s > 0)
			lim[LIM_DATA_LOADER] = P->loader_s;
		E->step_time_s += E->input_wait_s;
	}
	E->limiting = LIM_COMPUTE;
	for (k = 1; k < LIM_COUNT; k++)
		if (lim[k] > lim[E->limiting])
			E->limiting = (enum limiter)k;
	if (E->input_wait_s > 0 && !P->loader_on_gpu)
		E->limiting = LIM_DATA_LOADER;
	E->bubble_frac = bubble / E->step_time_s;
	if (E->input_wait_s > 0)
		est_warn(E, "the data loader (%.0f images/s per node) %s: %.1f "
			 "ms per step", P->loader_images_per_s,
			 P->loader_on_gpu ? "runs on the GPUs" :
					    "cannot keep up",
			 1e3 * E->input_wait_s);
}

int compose_finish(struct estimate *E, const struct gpu *g, enum tc_prec prec,
		   int images, const struct est_workspace *ws,
		   struct plan_problem *why)
{
	const struct plan *pl = &E->plan;
	double peak = roof_peak(g, prec), gpus = pl->count;
	int k;

	E->samples_per_s = E->samples_per_step / E->step_time_s;
	if (images)
		E->images_per_s = E->samples_per_s;
	if (E->tokens_per_step > 0) {
		E->tokens_per_s = E->tokens_per_step / E->step_time_s;
		E->tokens_per_s_per_gpu = E->tokens_per_s / gpus;
	}
	E->total_time_s = E->steps * E->step_time_s;
	E->gpu_hours = E->total_time_s * gpus / 3600.0;
	E->mfu_frac = E->model_flop_per_step / (E->step_time_s * gpus * peak);
	E->hfu_frac = E->hw_flop_per_step / (E->step_time_s * gpus * peak);

	E->memory_per_gpu_bytes = 0;
	for (k = 0; k < MEM_COUNT; k++)
		E->memory_per_gpu_bytes += E->mem_bytes[k];
	E->memory_capacity_bytes = g->memory_bytes;
	E->memory_usable_bytes = mem_usable_bytes(g, &E->plan);
	E->fits = E->memory_per_gpu_bytes <= E->memory_usable_bytes;

	if (pl->count > pl->gpus_per_node && !(pl->network_bytes_per_s > 0))
		est_warn(E, "no network bandwidth given for %.0f nodes: assuming "
			 "%.0f GB/s per GPU", ceil(gpus / pl->gpus_per_node),
			 COMM_DEFAULT_NETWORK_BYTES_PER_S / 1e9);
	if (E->mfu_frac > 1 || E->hfu_frac > 1)
		est_warn(E, "utilisation above 100%% of peak: efficiency "
			 "parameters of %s are implausible", g->id);
	else if (E->hfu_frac > EST_HFU_WARN_FRAC)
		est_warn(E, "%.0f %% of the dense peak in hardware FLOPs (HFU): more than any "
			 "published measured run sustains (docs/model.md section 7); check the "
			 "efficiency parameters or calibration of %s", 100 * E->hfu_frac, g->id);
	/* Nothing non-finite leaves an estimate. */
	return est_check_finite(E, ws, why);
}
