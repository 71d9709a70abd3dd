/*
 * search.c - the fastest plan that fits memory at a given GPU count
 * (search.h).
 *
 * The space: tp (divisors of the attention and kv heads, at most a node),
 * pp (divisors of the layers), dp = count / (tp x pp) (it must divide the
 * global batch), micro-batch (divisors of global_batch / dp), interleave
 * (divisors of layers / pp up to SEARCH_MAX_INTERLEAVE, pp > 1 only),
 * sequence parallel (tp > 1 only), ZeRO 0..3, recompute none, selective,
 * full.  Candidates are visited in that order and the first of equal step
 * times wins, so the answer is deterministic.
 *
 * Exact pruning, each relying on a property of the model that
 * tests/unit/test_search.c checks against brute force:
 *  - memory is checked with llm_memory_bytes() (no operators built) before the
 *    step is timed; plans that do not fit are never timed;
 *  - recompute only adds work: none <= selective <= full in time, so per
 *    layout the first recompute level that fits is the only one timed;
 *  - ZeRO 2 takes the time of ZeRO 1 with less memory, so it is timed only
 *    at recompute levels where ZeRO 1 did not fit;
 *  - memory grows with the micro-batch: once no ZeRO stage and recompute
 *    fits a micro-batch, larger ones are skipped.
 */
#include "search.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../util/intmath.h"
#include "../families/llm.h"
#include "../families/llm_encdec.h"
#include "../families/memory.h"
#include "../core/schedule.h"


void search_knobs_all(struct search_knobs *k)
{
	k->tp = k->pp = k->zero = k->micro_batch = k->recompute = 1;
	k->interleave = k->sequence_parallel = 1;
}

/* Per-call state of one search. */
struct sstate {
	const struct workload *w;
	const struct gpu *g;
	struct est_workspace *ws;
	struct workload cand;     /* the plan being tried */
	struct estimate e;        /* scratch */
	int found;
	double best_time_s;       /* the fastest fitting plan so far */
	struct plan best_plan;
	enum recompute best_rec;
	/* The plan needing the least memory, for the "why" message. */
	double min_mem;
	struct plan min_plan;
	enum recompute min_rec;
	int mem_seen;
	struct plan_problem last;  /* the last invalid plan's reason */
	int invalid;
	long timed;                /* step estimates made */
};

/* s->cand needs `bytes` per GPU: keep it when no plan so far needed less
 * (for the message when nothing fits). */
static void note_memory(struct sstate *s, double bytes)
{
	if (!s->mem_seen || bytes < s->min_mem) {
		s->min_mem = bytes;
		s->min_plan = s->cand.plan;
		s->min_rec = s->cand.train.recompute;
		s->mem_seen = 1;
	}
}

/* Memory per GPU of s->cand (an LLM plan, resolved).  Records the smallest. */
static double cand_memory(struct sstate *s)
{
	double part[MEM_COUNT];
	double m = llm_memory_bytes(&s->cand, &s->cand.plan, part);
	note_memory(s, m);
	return m;
}

/* Time s->cand; keep it when it fits and is strictly faster.  Returns 1
 * when the plan is valid and fits, 0 otherwise. */
static int try_cand(struct sstate *s)
{
	struct plan_problem why;
	s->timed++;
	if (step_estimate_brief(&s->cand, s->g, s->ws, &s->e, &why)) {
		s->last = why;
		s->invalid = 1;
		return 0;
	}
	if (!s->e.fits) {
		note_memory(s, s->e.memory_per_gpu_bytes);
		return 0;
	}
	if (!s->found || s->e.step_time_s < s->best_time_s) {
		/* Keep the layout only; the winner is estimated again at the end
		 * (copying whole workloads here would cost more than that). */
		s->best_time_s = s->e.step_time_s;
		s->best_plan = s->cand.plan;
		s->best_rec = s->cand.train.recompute;
		s->found = 1;
	}
	return 1;
}

/*
 * For the current layout (everything but zero and recompute set in cand),
 * try the ZeRO stages and recompute levels allowed.  Returns 1 if any fits.
 */
static int try_zero_rec(struct sstate *s, const int *zeros, int nz,
			const int *recs, int nr)
{
	const double cap = mem_usable_bytes(s->g, &s->cand.plan);
	int any = 0;
	int z1_first = -1; /* first recompute index at which ZeRO 1 fit */
	for (int zi = 0; zi < nz; zi++) {
		int z = zeros[zi];
		int limit = nr;
		if (z == 2 && z1_first >= 0)
			limit = z1_first; /* same time as ZeRO 1, less memory */
		s->cand.plan.zero = z;
		for (int ri = 0; ri < limit; ri++) {
			s->cand.train.recompute = (enum recompute)recs[ri];
			if (cand_memory(s) > cap)
				continue;
			if (try_cand(s)) {
				any = 1;
				if (z == 1)
					z1_first = ri;
				break; /* more recompute is never faster */
			}
		}
	}
	return any;
}

/* Non-LLM workloads: tp = pp = 1, micro-batch and ZeRO only, timed. */
/* Keep, as the search's problem, that the global batch gb does not split
 * over n data-parallel ranks (`of_dp`: n is the dp of a layout, else the
 * GPU count). */
static void batch_problem(struct sstate *s, double gb, int n, int of_dp)
{
	snprintf(s->last.msg, sizeof(s->last.msg),
		 "global_batch %g is not a multiple of %s%d%s (expected a "
		 "multiple of the data-parallel size)", gb, of_dp ? "dp " : "",
		 n, of_dp ? "" : " GPUs");
	s->last.field = WLF_GLOBAL_BATCH;
	s->invalid = 1;
}

static void search_other(struct sstate *s, int count,
			 const struct search_knobs *k)
{
	int mbs[256], nmb, zeros[4], nz = 0;
	struct plan *p = &s->cand.plan;
	p->tp = p->pp = 1;
	p->interleave = 1;
	p->sequence_parallel = 0;
	p->dp = count;
	double gb = s->w->train.global_batch;
	if (k->micro_batch) {
		if (fmod(gb, count) != 0) {
			batch_problem(s, gb, count, 0);
			return;
		}
		nmb = tc_divisors((long)(gb / count), 1000000, mbs, 256);
	} else {
		mbs[0] = s->w->plan.micro_batch > 0 ? s->w->plan.micro_batch : 1;
		nmb = 1;
	}
	if (k->zero)
		for (int z = 0; z <= 3; z++)
			zeros[nz++] = z;
	else
		zeros[nz++] = s->w->plan.zero;
	for (int i = 0; i < nmb; i++)
		for (int zi = 0; zi < nz; zi++) {
			p->micro_batch = mbs[i];
			p->zero = zeros[zi];
			try_cand(s);
		}
}

/* The values each LLM axis takes: every valid one where the knob is
 * searched, the workload's own otherwise. */
struct llm_axes {
	int tp[64], pp[256], zero[4], rec[3];
	int ntp, npp, nz, nr;
};

static void llm_axes_init(const struct workload *w, int count, int node,
			  const struct search_knobs *knobs, struct llm_axes *x)
{
	const struct llm_arch *A = &w->llm;
	long kv = A->kv_heads > 0 ? A->kv_heads : A->heads;

	memset(x, 0, sizeof(*x));
	if (knobs->tp)
		x->ntp = tc_divisors(tc_gcd(A->heads, kv), node < count ? node : count,
					 x->tp, 64);
	else
		x->tp[x->ntp++] = w->plan.tp > 0 ? w->plan.tp : 1;
	if (knobs->pp)
		x->npp = tc_divisors(A->layers, count, x->pp, 256);
	else
		x->pp[x->npp++] = w->plan.pp > 0 ? w->plan.pp : 1;
	if (knobs->zero)
		for (int z = 0; z <= 3; z++)
			x->zero[x->nz++] = z;
	else
		x->zero[x->nz++] = w->plan.zero;
	if (knobs->recompute)
		for (int r = RECOMP_NONE; r <= RECOMP_FULL; r++)
			x->rec[x->nr++] = r;
	else
		x->rec[x->nr++] = w->train.recompute;
}

/* Every interleave, sequence-parallel and micro-batch choice of one
 * tp x pp x dp layout (s->cand.plan holds tp, pp and dp). */
static void search_layout(struct sstate *s, const struct search_knobs *knobs,
			  const struct llm_axes *x)
{
	const struct workload *w = s->w;
	struct plan *p = &s->cand.plan;
	int mbs[512], vs[SEARCH_MAX_INTERLEAVE], sps[2];
	int nmb, nv, nsp = 0;

	if (knobs->micro_batch)
		nmb = tc_divisors((long)(w->train.global_batch / p->dp), 1000000, mbs, 512);
	else {
		mbs[0] = w->plan.micro_batch > 0 ? w->plan.micro_batch : 1;
		nmb = 1;
	}
	if (knobs->interleave && p->pp > 1)
		nv = tc_divisors(w->llm.layers / p->pp, SEARCH_MAX_INTERLEAVE,
				     vs, SEARCH_MAX_INTERLEAVE);
	else {
		vs[0] = p->pp > 1 && w->plan.interleave > 0 ? w->plan.interleave : 1;
		nv = 1;
	}
	if (p->tp == 1)
		sps[nsp++] = 0;
	else if (knobs->sequence_parallel) {
		sps[nsp++] = 0;
		sps[nsp++] = 1;
	} else
		sps[nsp++] = w->plan.sequence_parallel;
	for (int vi = 0; vi < nv; vi++) {
		p->interleave = vs[vi];
		p->schedule = sched_for_layout(w->plan.schedule, p->pp, vs[vi]);
		for (int si = 0; si < nsp; si++) {
			p->sequence_parallel = sps[si];
			for (int mi = 0; mi < nmb; mi++) {
				p->micro_batch = mbs[mi];
				if (!try_zero_rec(s, x->zero, x->nz, x->rec, x->nr) &&
				    knobs->micro_batch)
					break; /* larger ones need more memory */
			}
		}
	}
}

/* Every tp x pp split of `count` whose data-parallel size divides the
 * global batch. */
static void search_llm(struct sstate *s, int count, const struct search_knobs *knobs)
{
	struct plan *p = &s->cand.plan;
	struct llm_axes x;
	double gb = s->w->train.global_batch;

	llm_axes_init(s->w, count, p->gpus_per_node, knobs, &x);
	for (int ti = 0; ti < x.ntp; ti++) {
		for (int pi = 0; pi < x.npp; pi++) {
			int tp = x.tp[ti], pp = x.pp[pi];
			if (count % ((long)tp * pp))
				continue;
			int dp = count / (tp * pp);
			if (fmod(gb, dp) != 0) {
				if (!s->invalid)
					batch_problem(s, gb, dp, 1);
				continue;
			}
			p->tp = tp;
			p->pp = pp;
			p->dp = dp;
			/* Stage layer counts hold for the pp they were
			 * given with; other pp split the layers evenly. */
			p->first_stage_layers = pp == s->w->plan.pp ?
				s->w->plan.first_stage_layers : 0;
			p->last_stage_layers = pp == s->w->plan.pp ?
				s->w->plan.last_stage_layers : 0;
			search_layout(s, knobs, &x);
		}
	}
}

/* Why no plan was found: the closest one's memory, the last invalid
 * plan's reason, or no layout at all.  A closest plan that fits memory was
 * refused for another reason (fp8 on a GPU without it): that reason. */
static void explain_none(const struct sstate *s, int count, const struct gpu *g,
			 struct plan_problem *why)
{
	if (s->mem_seen && (s->min_mem > g->memory_bytes || !s->invalid)) {
		const struct plan *m = &s->min_plan;
		why->field = WLF_COUNT;
		snprintf(why->msg, sizeof(why->msg),
			 "no plan on %d x %s fits memory: the closest (tp %d, "
			 "pp %d, dp %d, zero %d, micro-batch %d, recompute %s) "
			 "needs %.1f GB of %.1f GB, %.1f GB too much",
			 count, g->id, m->tp, m->pp, m->dp, m->zero,
			 m->micro_batch, recompute_names[s->min_rec], s->min_mem / 1e9,
			 mem_usable_bytes(g, m) / 1e9, (s->min_mem - mem_usable_bytes(g, m)) / 1e9);
	} else if (s->invalid) {
		*why = s->last;
	} else {
		why->field = WLF_COUNT;
		snprintf(why->msg, sizeof(why->msg),
			 "no valid parallel layout on %d GPUs (expected a "
			 "count that tp x pp x dp can make)", count);
	}
}

int search_best_at(const struct workload *w, const struct gpu *g, int count,
		   const struct search_knobs *knobs, struct est_workspace *ws,
		   struct workload *best_w, struct estimate *best,
		   struct plan_problem *why)
{
	struct sstate s;

	assert(w && g && knobs && ws && best_w && best && count >= 1);
	memset(&s, 0, sizeof(s));
	s.w = w;
	s.g = g;
	s.ws = ws;
	s.cand = *w;
	s.last.field = WLF_NONE;
	struct plan *p = &s.cand.plan;
	p->count = count;
	p->dp = 0;
	if (p->gpus_per_node <= 0)
		p->gpus_per_node = gpu_node_size(g);
	if (p->ep <= 0)
		p->ep = 1;
	if (w->kind == WL_LLM)
		search_llm(&s, count, knobs);
	else
		search_other(&s, count, knobs);

	if (s.found) {
		struct plan_problem again;
		s.cand.plan = s.best_plan;
		s.cand.train.recompute = s.best_rec;
		if (step_estimate_brief(&s.cand, g, ws, best, &again) == 0) {
			*best_w = s.cand;
			return 0;
		}
		if (why) /* cannot happen: the same plan was valid a moment ago */
			*why = again;
		return -1;
	}
	if (why)
		explain_none(&s, count, g, why);
	return -1;
}
