/*
 * estimate_types.c - the names of an estimate's enums, and the operator
 * workspace (estimate_types.h).
 */
#include "estimate_types.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const char *const op_stage_names[OPS_COUNT] = { "layer", "first", "last",
						 "step" };

int est_workspace_init(struct est_workspace *ws, size_t cap)
{
	ws->count = 0;
	ws->cap = 0;
	ws->ops = NULL;
	ws->names = NULL;
	if (cap == 0)
		cap = EST_MAX_OPS;
	ws->ops = calloc(cap, sizeof(*ws->ops));
	ws->names = calloc(cap, sizeof(*ws->names));
	if (!ws->ops || !ws->names) {
		est_workspace_release(ws);
		return -1;
	}
	ws->cap = cap;
	return 0;
}

void est_workspace_release(struct est_workspace *ws)
{
	if (!ws)
		return;
	free(ws->ops);
	free(ws->names);
	ws->ops = NULL;
	ws->names = NULL;
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

void est_copy(struct estimate *dst, const struct estimate *src)
{
	int used = src->warning_count < EST_MAX_WARN ? src->warning_count :
						       EST_MAX_WARN;

	memcpy(dst, src, offsetof(struct estimate, warning) +
			 (size_t)used * sizeof(src->warning[0]));
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
	/* The operators' times summed first: the sum is finite only when
	 * every time is (an infinite or NaN time stays in it), and one add a
	 * row costs less than a test of each; the row to blame is looked
	 * for only when it is not. */
	double op_sum = 0;
	for (size_t k = 0; k < ws->count; k++)
		op_sum += ws->ops[k].time_s;
	if (!isfinite(op_sum))
		for (size_t k = 0; k < ws->count; k++)
			if (!isfinite(ws->ops[k].time_s))
				return est_problem(why, WLF_NONE, "internal: non-finite "
						   "time of operator '%s'",
						   ws->ops[k].name);
	if (!(e->step_time_s > 0))
		return est_problem(why, WLF_NONE, "internal: zero step time (expected a "
				   "positive time)");
	return 0;
}
