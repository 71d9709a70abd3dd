/*
 * step.c - one LLM training step: plan checks, the operator list, the
 * pipeline schedule, exposed communication, memory, MFU: the language-model
 * family's row (family.h).
 */
#include "step.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/comm.h"
#include "../core/family.h"
#include "llm.h"
#include "memory.h"
#include "../core/roofline.h"
#include "../core/schedule.h"
#include "../../util/units.h"

/* A degree or count of the plan left at 0: one. */
static int one_if_unset(int v)
{
	return v > 0 ? v : 1;
}

/* Fill defaults of a plan: 0 means "the usual". */
static void resolve(const struct workload *w, const struct gpu *g,
		    struct plan *pl)
{
	*pl = w->plan;
	pl->tp = one_if_unset(pl->tp);
	pl->pp = one_if_unset(pl->pp);
	pl->ep = one_if_unset(pl->ep);
	pl->cp = one_if_unset(pl->cp);
	pl->interleave = one_if_unset(pl->interleave);
	pl->micro_batch = one_if_unset(pl->micro_batch);
	if (pl->gpus_per_node <= 0)
		pl->gpus_per_node = gpu_node_size(g);
	if (pl->count <= 0)
		pl->count = pl->tp * pl->pp * pl->cp * (pl->dp > 0 ? pl->dp : 1);
	if (pl->dp <= 0)
		pl->dp = pl->count / (pl->tp * pl->pp * pl->cp);
	if (pl->tp == 1)
		pl->sequence_parallel = 0;
}

/* Check the named schedule against pp and interleave.  0 or -1 with *why. */
static int check_schedule(const struct plan *pl, struct plan_problem *why)
{
	const char *name;

	if ((int)pl->schedule < 0 || pl->schedule >= SCHED_COUNT)
		return est_problem(why, WLF_SCHEDULE, "schedule is not known "
			       "(expected 1f1b, interleaved or zero-bubble)");
	if (pl->schedule == SCHED_DEFAULT)
		return 0;
	name = sched_names[pl->schedule];
	if (pl->pp == 1 && pl->schedule != SCHED_1F1B)
		return est_problem(why, WLF_SCHEDULE, "schedule %s needs "
			       "pipeline parallelism (expected pp > 1)", name);
	if (pl->schedule == SCHED_INTERLEAVED && pl->interleave < 2)
		return est_problem(why, WLF_SCHEDULE, "schedule interleaved "
			       "needs interleave 2 or more (expected the "
			       "model chunks per GPU in plan.interleave)");
	if (pl->schedule != SCHED_INTERLEAVED && pl->interleave > 1)
		return est_problem(why, WLF_SCHEDULE, "schedule %s runs one "
			       "model chunk per GPU, not interleave %d "
			       "(expected interleave 1 or schedule "
			       "interleaved)", name, pl->interleave);
	return 0;
}

/* Check the model and its training against the GPU.  0 or -1 with *why. */
static int check_model(const struct workload *w, const struct gpu *g,
		       struct plan_problem *why)
{
	const struct llm_arch *A = &w->llm;
	const struct training *tr = &w->train;

	if (w->kind != WL_LLM)
		return est_problem(why, WLF_MODEL, "workload kind is not llm "
			       "(expected an llm workload for this model)");
	if (A->layers < 1 || A->hidden < 1 || A->heads < 1 || A->vocab < 1)
		return est_problem(why, WLF_MODEL, "model needs layers, hidden, "
			       "heads and vocab (expected positive integers)");
	if (A->head_dim <= 0 && A->hidden % A->heads)
		return est_problem(why, WLF_MODEL, "%d attention heads do not "
			       "divide hidden size %d (expected head_dim or a "
			       "divisor of %d)", A->heads, A->hidden,
			       A->hidden);
	if (A->kv_heads > 0 && A->heads % A->kv_heads)
		return est_problem(why, WLF_MODEL, "%d kv heads do not divide %d "
			       "attention heads (expected a divisor of %d)",
			       A->kv_heads, A->heads, A->heads);
	if (A->experts > 1 && (A->top_k < 1 || A->top_k > A->experts))
		return est_problem(why, WLF_MODEL, "top_k %d is out of range "
			       "(expected 1 to %d experts)", A->top_k,
			       A->experts);
	if (!(tr->seq_len >= 1) || !isfinite(tr->seq_len))
		return est_problem(why, WLF_SEQ_LEN, "seq_len %g is not positive "
			       "(expected tokens per sequence, >= 1)",
			       tr->seq_len);
	if (!(tr->global_batch >= 1) || !isfinite(tr->global_batch))
		return est_problem(why, WLF_GLOBAL_BATCH, "global_batch %g is not "
			       "positive (expected sequences per step, >= 1)",
			       tr->global_batch);
	if ((int)tr->precision < 0 || tr->precision >= PREC_COUNT ||
	    tr->precision == PREC_INT8)
		return est_problem(why, WLF_PRECISION, "precision is not supported "
			       "for training (expected fp32, tf32, bf16, fp16, "
			       "fp8 or fp4)");
	if (!(roof_peak(g, tr->precision) > 0))
		return est_problem(why, WLF_PRECISION, "%s has no %s rate (expected "
			       "a precision the GPU supports)", g->id,
			       tc_prec_names[tr->precision]);
	if (!(g->mem_bytes_per_s > 0) || !(g->memory_bytes > 0))
		return est_problem(why, WLF_GPU, "%s lacks memory size or bandwidth "
			       "(expected both in its catalog file)", g->id);
	if (!(tr->tokens >= 0) || !(tr->steps >= 0) || !isfinite(tr->tokens) ||
	    !isfinite(tr->steps))
		return est_problem(why, WLF_TOKENS, "tokens and steps must be "
			       "non-negative (expected a count)");
	if (tr->finetune != FT_FULL && tr->lora_rank < 1)
		return est_problem(why, WLF_LORA_RANK, "lora_rank is missing "
			       "(expected a rank >= 1 for %s)",
			       tr->finetune == FT_QLORA ? "qlora" : "lora");
	return 0;
}

/*
 * Uneven pipeline stages, as Megatron-Core splits them: the first and last
 * stage hold the layers given, the stages between share the rest evenly;
 * one of the two alone leaves the rest to the other p - 1 stages.  Fills
 * both counts in the resolved plan; 0, or -1 with *why.
 */
static int resolve_stage_layers(int L, struct plan *pl,
				struct plan_problem *why)
{
	int f = pl->first_stage_layers, l = pl->last_stage_layers;
	int p = pl->pp, v = pl->interleave, others, rest, mid;
	enum wl_field fld = f ? WLF_FIRST_STAGE_LAYERS : WLF_LAST_STAGE_LAYERS;
	const char *key = f ? "first_stage_layers" : "last_stage_layers";

	if (p < 2)
		return est_problem(why, fld, "%s needs pipeline parallelism "
				   "(expected pp > 1)", key);
	others = p - (f > 0) - (l > 0);
	rest = L - f - l;
	if (others == 0 ? rest != 0 : rest < others || rest % others)
		return est_problem(why, fld, "%s leaves %d of %d layers to %d "
				   "other stages (expected %s)", key, rest, L,
				   others, others ? "a multiple of the other "
				   "stages, at least one layer each" :
				   "first_stage_layers + last_stage_layers = "
				   "layers with pp 2");
	mid = others ? rest / others : 0;
	if (!f)
		f = mid;
	if (!l)
		l = mid;
	if (f < v || l < v || (mid && mid < v))
		return est_problem(why, fld, "interleave %d needs at least %d "
				   "layers on every stage (expected fewer model "
				   "chunks or more layers per stage)", v, v);
	pl->first_stage_layers = f;
	pl->last_stage_layers = l;
	return 0;
}

/* Check the parallel layout against the model.  0 or -1 with *why. */
static int check_layout(const struct workload *w, struct plan *pl,
			struct plan_problem *why)
{
	const struct llm_arch *A = &w->llm;
	const struct training *tr = &w->train;
	int kv = A->kv_heads > 0 ? A->kv_heads : A->heads;
	int experts = A->experts > 1 ? A->experts : 1;
	double mb;

	if (pl->zero < 0 || pl->zero > 3)
		return est_problem(why, WLF_ZERO, "zero %d is out of range (expected "
			       "0, 1, 2 or 3)", pl->zero);
	if (A->heads % pl->tp)
		return est_problem(why, WLF_TP, "tp %d does not divide %d attention "
			       "heads (expected a divisor of %d)", pl->tp,
			       A->heads, A->heads);
	if (kv % pl->tp)
		return est_problem(why, WLF_TP, "tp %d does not divide %d kv heads "
			       "(expected a divisor of %d)", pl->tp, kv, kv);
	if (A->layers % pl->pp && !pl->first_stage_layers &&
	    !pl->last_stage_layers)
		return est_problem(why, WLF_PP, "pp %d does not divide %d layers "
			       "(expected a divisor of %d%s)", pl->pp, A->layers,
			       A->layers, pl->pp < A->layers ? ", or "
			       "first_stage_layers and last_stage_layers" : "");
	if (pl->interleave > 1 && pl->pp == 1)
		return est_problem(why, WLF_INTERLEAVE, "interleave %d needs pipeline "
			       "parallelism (expected pp > 1)", pl->interleave);
	if (check_schedule(pl, why))
		return -1;
	if (pl->first_stage_layers || pl->last_stage_layers) {
		if (resolve_stage_layers(A->layers, pl, why))
			return -1;
	} else if (A->layers % (pl->pp * pl->interleave))
		return est_problem(why, WLF_INTERLEAVE, "%d layers are not divisible "
			       "by pp %d x interleave %d (expected a multiple of "
			       "%d)", A->layers, pl->pp, pl->interleave,
			       pl->pp * pl->interleave);
	if (pl->cp > 1 && fmod(tr->seq_len, pl->cp) != 0)
		return est_problem(why, WLF_CP, "cp %d does not divide seq_len %g "
			       "(expected a divisor of the sequence length)",
			       pl->cp, tr->seq_len);
	if (pl->cp > 1 && pl->count % (pl->tp * pl->pp * pl->cp))
		return est_problem(why, WLF_CP, "count %d is not divisible by tp "
			       "%d x pp %d x cp %d (expected a multiple of %d)",
			       pl->count, pl->tp, pl->pp, pl->cp,
			       pl->tp * pl->pp * pl->cp);
	if (pl->cp > 1 &&
	    (pl->dp < 1 ||
	     (long)pl->dp * pl->tp * pl->pp * pl->cp != pl->count))
		return est_problem(why, WLF_DP, "dp %d x tp %d x pp %d x cp %d is "
			       "not count %d (expected dp = %d)", pl->dp,
			       pl->tp, pl->pp, pl->cp, pl->count,
			       pl->count / (pl->tp * pl->pp * pl->cp));
	if (pl->count % (pl->tp * pl->pp))
		return est_problem(why, WLF_COUNT, "count %d is not divisible by tp "
			       "%d x pp %d (expected a multiple of %d)",
			       pl->count, pl->tp, pl->pp, pl->tp * pl->pp);
	if (pl->cp <= 1 &&
	    (pl->dp < 1 || (long)pl->dp * pl->tp * pl->pp != pl->count))
		return est_problem(why, WLF_DP, "dp %d x tp %d x pp %d is not count "
			       "%d (expected dp = %d)", pl->dp, pl->tp, pl->pp,
			       pl->count, pl->count / (pl->tp * pl->pp));
	if (pl->shard_group < 0 ||
	    (pl->shard_group > 0 && pl->dp % pl->shard_group))
		return est_problem(why, WLF_SHARD_GROUP, "shard_group %d does not "
			       "divide dp %d (expected a divisor of %d)",
			       pl->shard_group, pl->dp, pl->dp);
	if (pl->shard_group > 0 && pl->zero < 1)
		return est_problem(why, WLF_SHARD_GROUP, "shard_group %d needs "
			       "sharded states (expected zero 1, 2 or 3)",
			       pl->shard_group);
	if (tr->packing && !(tr->mean_seq_len >= 1 &&
			     tr->mean_seq_len <= tr->seq_len))
		return est_problem(why, WLF_MEAN_SEQ_LEN, "mean_seq_len %g is not "
			       "within 1 to seq_len %g (expected the mean real "
			       "length of the packed samples)",
			       tr->mean_seq_len, tr->seq_len);
	if (tr->capacity_factor > 1 && A->experts <= 1)
		return est_problem(why, WLF_CAPACITY_FACTOR, "capacity_factor "
			       "%g needs a mixture of experts (expected "
			       "experts greater than 1, or no capacity_factor)",
			       tr->capacity_factor);
	if (A->experts > 1 &&
	    tr->capacity_factor > (double)A->experts / A->top_k)
		return est_problem(why, WLF_CAPACITY_FACTOR, "capacity_factor %g "
			       "is above experts / top_k = %g (expected at most "
			       "the factor at which one expert takes every "
			       "token)", tr->capacity_factor,
			       (double)A->experts / A->top_k);
	mb = (double)pl->dp * pl->micro_batch;
	if (fmod(tr->global_batch, mb) != 0)
		return est_problem(why, WLF_GLOBAL_BATCH, "global_batch %g is not a "
			       "multiple of dp %d x micro_batch %d (expected a "
			       "multiple of %g)", tr->global_batch, pl->dp,
			       pl->micro_batch, mb);
	if (experts % pl->ep)
		return est_problem(why, WLF_EP, "ep %d does not divide %d experts "
			       "(expected a divisor of %d)", pl->ep, experts,
			       experts);
	if (pl->dp % pl->ep)
		return est_problem(why, WLF_EP, "ep %d does not divide dp %d "
			       "(expected experts spread over data-parallel "
			       "ranks)", pl->ep, pl->dp);
	if (pl->network_bytes_per_s < 0 || (unsigned)pl->network_fabric >= FABRIC_COUNT)
		return est_problem(why, WLF_NETWORK, "network bandwidth and latency "
			       "must not be negative (expected e.g. 50GB/s)");
	return 0;
}

/* Check the plan against the workload and GPU, and resolve uneven pipeline
 * stages into both stage counts.  0 or -1 with *why. */
static int check(const struct workload *w, const struct gpu *g,
		 struct plan *pl, struct plan_problem *why)
{
	return check_model(w, g, why) || check_layout(w, pl, why) ? -1 : 0;
}


int llm_plan(const struct workload *w, const struct gpu *g, struct plan *pl,
	     struct estimate *E, struct plan_problem *why)
{
	resolve(w, g, pl);
	if (check(w, g, pl, why))
		return -1;
	pl->schedule = sched_resolve(pl->schedule, pl->interleave);
	if (pl->tp > pl->gpus_per_node)
		est_warn(E, "tp %d spans nodes of %d GPUs: tensor-parallel "
		     "traffic crosses the network", pl->tp, pl->gpus_per_node);
	if (pl->zero == 3 && pl->pp > 1)
		est_warn(E, "zero 3 with pp %d: frameworks rarely combine them",
		     pl->pp);
	if (w->plan.sequence_parallel && w->plan.tp <= 1)
		est_warn(E, "sequence_parallel has no effect with tp 1");
	if (w->plan.tp_comm_overlap && w->plan.tp <= 1)
		est_warn(E, "tp_comm_overlap has no effect with tp 1");
	return 0;
}

enum wl_field llm_work_field(const struct workload *w, const char **what)
{
	*what = w->train.steps > 0 ? "steps" : "tokens";
	return w->train.steps > 0 ? WLF_STEPS : WLF_TOKENS;
}

/* The LLM family's own state: the model's shape under the plan. */
struct llm_run {
	struct llm_shape sh;
};

static int plan_hook(struct fam_run *r, struct plan_problem *why)
{
	return llm_plan(r->w, r->g, &r->pl, r->E, why);
}

static void build_hook(struct fam_run *r)
{
	struct llm_shape *sh = &((struct llm_run *)r->st)->sh;
	const struct plan *pl = &r->pl;
	struct step_parts *P = &r->P;

	llm_shape_init(r->w, pl, sh);
	llm_build_ops(r->w, r->g, pl, sh, r->ws, &r->S);
	P->m = sh->m;
	P->p = sh->p;
	P->v = sh->v;
	P->lps = sh->lps;
	P->lps_first = sh->lps_first;
	P->lps_last = sh->lps_last;
	P->schedule = pl->schedule;
	/* ZeRO-3 gathers per layer; its exposed part is a layer operator */
	P->dp_overlap = pl->grad_overlap && pl->zero < 3;
	P->tp_overlap = pl->tp_comm_overlap && pl->tp > 1;
	P->overlap_slow_frac = r->g->eff.overlap_slow_frac;
}

static void counts_hook(struct fam_run *r)
{
	const struct llm_shape *sh = &((struct llm_run *)r->st)->sh;
	const struct workload *w = r->w;
	struct estimate *E = r->E;
	double mm, attn, tokens_mb, head;

	E->params = sh->params;
	E->active_params = sh->active_params;
	E->micro_batches = (int)sh->m;
	/* Packed or unpadded samples: only their real tokens count. */
	E->tokens_per_step = w->train.global_batch * sh->skv;
	if (w->train.steps > 0)
		E->steps = w->train.steps;
	else if (w->train.tokens > 0)
		E->steps = ceil(w->train.tokens / E->tokens_per_step);
	E->samples_per_step = w->train.global_batch;

	/* Model FLOPs (PaLM convention, full attention term, no recompute):
	 * per token 6 * matmul params + 12 * L * a * d * s; frozen weights
	 * (LoRA) skip the weight gradient: 4 instead of 6.  A masked LM's
	 * head projects head_frac of the tokens: its share of the head. */
	head = sh->no_lm_head ? 0 : sh->V * sh->h * sh->head_frac;
	mm = sh->L * (sh->attn_matmul_params + sh->top_k * sh->mlp_matmul_params +
		      (sh->experts > 1 ? sh->h * sh->experts : 0)) +
	     head;
	attn = 12.0 * sh->L * sh->a * sh->d * sh->skv;
	tokens_mb = E->tokens_per_step;
	E->model_flop_per_step = tokens_mb *
		((sh->lora_r > 0 ? 4.0 : 6.0) * mm + attn +
		 6.0 * sh->L * sh->adapter_params_layer);
	E->hw_flop_per_step = E->model_flop_per_step;
	if (w->train.recompute == RECOMP_FULL)
		E->hw_flop_per_step += train_recompute_share(&w->train) *
				       tokens_mb * (2.0 * (mm - head) +
						    attn / 3.0);
	else if (w->train.recompute == RECOMP_SELECTIVE)
		E->hw_flop_per_step += tokens_mb * attn / 3.0;
	else if (w->train.recompute == RECOMP_SELECTIVE_OP)
		/* wk, wo and w3 (ungated: FC2) again: llm.c layer_op_replay */
		E->hw_flop_per_step += tokens_mb * 2.0 * sh->L *
			(sh->g * sh->d * sh->h + sh->a * sh->d * sh->h +
			 sh->top_k * sh->f * sh->h);
}

static void memory_hook(struct fam_run *r)
{
	const struct llm_shape *sh = &((struct llm_run *)r->st)->sh;
	mem_estimate(r->w, &r->pl, sh, r->E->mem_bytes);
}

/* What change of the plan would fit: mem_fit_advice(). */
static void fit_search(const struct workload *w, const struct gpu *g,
		       struct estimate *E)
{
	mem_fit_advice(w, g, &E->plan, E->memory_per_gpu_bytes, E->fit_advice,
		       sizeof(E->fit_advice));
}

_Static_assert(sizeof(struct llm_run) <= EST_FAMILY_STATE_MAX,
	       "the family's state fits est_drive()'s room");

const struct est_family llm_family = {
	.plan = plan_hook,
	.build = build_hook,
	.counts = counts_hook,
	.memory = memory_hook,
	.work_field = llm_work_field,
	.fit_search = fit_search,
	.auto_micro_batch = 1,
	.state_size = sizeof(struct llm_run),
};
