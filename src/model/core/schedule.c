/*
 * schedule.c - pipeline bubbles and in-flight micro-batches per schedule
 * (schedule.h; the derivations are in docs/model.md, "Pipeline").
 */
#include "schedule.h"

#include <assert.h>
#include <math.h>

enum pp_schedule sched_resolve(enum pp_schedule named, int interleave)
{
	if (named != SCHED_DEFAULT)
		return named;
	return interleave > 1 ? SCHED_INTERLEAVED : SCHED_1F1B;
}

enum pp_schedule sched_for_layout(enum pp_schedule named, int pp,
				  int interleave)
{
	if (pp <= 1)
		return SCHED_DEFAULT;
	if (interleave > 1)
		return SCHED_INTERLEAVED;
	return named == SCHED_INTERLEAVED ? SCHED_1F1B : named;
}

double sched_bubble_s(enum pp_schedule s, const struct sched_stages *st)
{
	double fill = st->t_sum - st->t_max, lag;

	assert(s != SCHED_DEFAULT && st->p >= 1 && st->m >= 1 && st->v >= 1);
	switch (s) {
	case SCHED_ZERO_BUBBLE:
		/* ZB-H1 (Qi et al. ICLR'24 sec. 3.1): backward split into
		 * B (input gradient) and W (weight gradient).  Only B is on
		 * the path from stage to stage, which takes t_w off each of
		 * the p - 1 hops; deferred W's fill the drain, one per
		 * micro-batch behind the first, up to p - 1.  For m >= p:
		 * (p-1) (t_F + t_B - t_W), the paper's bubble, with the
		 * memory of 1F1B. */
		lag = fill - (st->p - 1) * st->t_w -
		      fmin(st->m - 1, st->p - 1) * st->t_w;
		return fmax(0, lag);
	case SCHED_INTERLEAVED:
		/* Narayanan et al. SC'21 sec. 2.2.2: the fill shrinks by v
		 * while m >= p.  With fewer micro-batches each one still
		 * passes every stage in turn, t_sum + (m - 1) t_max / v;
		 * the larger of the two is the critical path (they agree at
		 * m = p). */
		return fmax(fill / st->v, st->t_sum +
			    (st->m - 1) * st->t_max / st->v -
			    st->m * st->t_max);
	case SCHED_1F1B:
	default:
		/* Ibid. sec. 2.2.1: every stage waits out the others' share
		 * of one micro-batch, (p-1)/m of the ideal time for equal
		 * stages. */
		return fill;
	}
}

double sched_inflight(enum pp_schedule s, double p, double m, double v,
		      int i)
{
	/* 1F1B and ZB-H1: stage i holds min(p - i, m) micro-batches (Qi et
	 * al. sec. 3.1 for ZB-H1's equal peak).  Interleaved: each stage
	 * warms up (v - 1) p chunks plus two per stage after it (Narayanan
	 * et al. SC'21 sec. 2.2.2; Megatron-Core's warm-up count), so the
	 * first holds p + (p - 1) / v micro-batches and each later stage
	 * 2 / v fewer, scaled by m / p when m < p. */
	double n;

	if (s == SCHED_INTERLEAVED && v > 1 && p > 1) {
		n = p < m ? p : m;
		return n * (1 + (p - 1 - 2.0 * i) / (p * v));
	}
	return p - i < m ? p - i : m;
}
