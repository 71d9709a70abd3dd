/*
 * family.c - the driver of every workload family's estimate, and the
 * helpers the families share (family.h).
 */
#include "family.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "roofline.h"

int est_drive(const struct est_family *f, const struct workload *w,
	      const struct gpu *g, struct est_workspace *ws,
	      struct estimate *out, struct plan_problem *why)
{
	union {
		max_align_t align;
		unsigned char bytes[EST_FAMILY_STATE_MAX];
	} st;
	struct estimate E;
	struct fam_run r;

	/* all but the warnings' text: est_warn() writes each slot it fills */
	memset(&E, 0, offsetof(struct estimate, warning));
	memset(&r, 0, sizeof(r));
	r.w = w;
	r.g = g;
	r.ws = ws;
	r.E = &E;
	assert(f->state_size <= sizeof(st));
	r.st = &st;
	if (f->plan(&r, why))
		return -1;
	E.plan = r.pl;
	f->build(&r);
	compose_step(&r.S, &r.P, &E);
	f->counts(&r);
	f->memory(&r);
	if (compose_finish(&E, g, w->train.precision, f->images, ws, why))
		return -1;
	if (f->advice)
		f->advice(&r);
	est_copy(out, &E);
	return 0;
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
