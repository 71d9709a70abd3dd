/*
 * family.h - a workload family as a row of hooks, the one driver that
 * calls them in one order, and the helpers every family shares.
 *
 * The driver (est_drive) runs: plan, build, compose the step (compose.h),
 * counts, memory, the common finish, advice.  A family states only what is
 * its own: how a plan is checked and resolved, which operators a step runs,
 * what is counted as work and FLOPs, what memory holds.  The entry point
 * (estimate.c) chooses the row and adds what wraps every family: the
 * micro-batch choice, the stack's efficiencies, the run-length limit, the
 * campaign and the costly fit advice.
 */
#ifndef TC_FAMILY_H
#define TC_FAMILY_H

#include "compose.h"
#include "../types/estimate_types.h"
#include "../types/gpu.h"
#include "opsink.h"
#include "../types/workload.h"

/* One estimate as the driver hands it to a family's hooks. */
struct fam_run {
	const struct workload *w;
	const struct gpu *g;        /* with the stack's efficiencies */
	struct est_workspace *ws;   /* the operators, for `explain` */
	struct estimate *E;         /* zeroed before plan, filled by the hooks
				       and the finish */
	struct plan pl;             /* resolved by plan, copied to E->plan */
	struct op_sums S;           /* the builder's sums */
	struct step_parts P;        /* zeroed before build */
	void *st;                   /* the family's own state (its .c file
				       defines the type) */
};

struct est_family {
	/* Resolve and check the plan into r->pl; warn of plan choices into
	 * r->E.  0, or -1 with *why. */
	int (*plan)(struct fam_run *r, struct plan_problem *why);
	/* Put one step's operators into a sink over r->ws and r->S; fill
	 * r->P (all but what compose_step computes). */
	void (*build)(struct fam_run *r);
	/* Parameters, micro-batches, samples (and tokens) per step, steps,
	 * model and hardware FLOPs into r->E. */
	void (*counts)(struct fam_run *r);
	/* r->E->mem_bytes: every part, the reserve (mem_reserve.h) too. */
	void (*memory)(struct fam_run *r);
	/* Cheap advice once the verdict is known (NULL: none). */
	void (*advice)(struct fam_run *r);
	/* The field that sets the amount of work, and its name, for the
	 * run-length limit. */
	enum wl_field (*work_field)(const struct workload *w, const char **what);
	/* What plan change would fit, at the cost of more memory estimates:
	 * only for estimates a user reads (NULL: none). */
	void (*fit_search)(const struct workload *w, const struct gpu *g,
			   struct estimate *E);
	/* A plan without a micro-batch gets the fastest divisor of each
	 * rank's share, up to 64, that fits (estimate.c). */
	int auto_micro_batch;
	/* The samples are images (images_per_s is filled). */
	int images;
	/* Bytes of the family's own state (r->st), at most
	 * EST_FAMILY_STATE_MAX. */
	size_t state_size;
};

/* The room est_drive() keeps on its stack for a family's state: each call
 * its own, since the advice hooks run further estimates while a family's
 * state is in use.  Each family asserts that its state fits. */
#define EST_FAMILY_STATE_MAX (20 * 1024) /* the encoder-decoder's two workload views, 18.6 KB */

/*
 * Run family f's hooks in order, its state on this call's stack.  The
 * step_estimate() contract without its wrappers: returns 0 with *out
 * filled, or -1 with *why.
 */
int est_drive(const struct est_family *f, const struct workload *w,
	      const struct gpu *g, struct est_workspace *ws,
	      struct estimate *out, struct plan_problem *why);

/* The plan of a family without model parallelism (vision, recommenders):
 * every GPU a data-parallel rank, nodes of the GPU's size unless given. */
void est_data_parallel_plan(const struct plan *given, const struct gpu *g,
			    struct plan *pl);

/* 0, or -1 with *why when g has no rate for dense training in precision p
 * (fp32, tf32, bf16 or fp16; the families without fp8 recipes). */
int est_check_dense_precision(const struct gpu *g, enum tc_prec p,
			      struct plan_problem *why);

#endif
