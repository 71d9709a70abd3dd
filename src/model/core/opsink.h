/*
 * opsink.h - where the builders of every workload family put their
 * operators, and the sums of time the step composer reads.
 *
 * A builder states each operator once, with the time one execution takes;
 * the sink lists it for `traincost explain` and adds its time to the sums
 * of its stage.  The sums never lose an operator: past the workspace's
 * last slot, operators are listed together as one "other" row.
 */
#ifndef TC_OPSINK_H
#define TC_OPSINK_H

#include "../types/estimate_types.h"

/* Seconds of one execution of each stage (a layer, the first or last
 * stage's extra work, the step's own work), one GPU. */
struct op_sums {
	double t[OPS_COUNT][BRK_COUNT];   /* launch overhead under BRK_LAUNCH */
	double lim[OPS_COUNT][LIM_COUNT]; /* the same seconds by limiter */
	double bwd_s;                     /* of t[OPS_LAYER], the backward
					     (with recompute) */
	double wgrad_s[OPS_COUNT];        /* of t, the weight-gradient GEMMs */
	double hw_flop[OPS_COUNT];        /* FLOP incl. recompute */
	double model_flop[OPS_COUNT];     /* FLOP excl. recompute */
	double p2p_s;                     /* pipeline transfers of a stage */
	double net_bytes;                 /* bytes sent between nodes in a
					     step, all operators */
};

/* What one execution of an operator costs. */
struct op_cost {
	double flop, bytes;
	double time_s, launch_s; /* launch_s: the launch part of time_s */
	enum tc_prec prec;
	enum op_bound bound;
};

struct op_sink {
	struct est_workspace *ws;
	struct op_sums *sums;
	int merge;           /* fold an operator into an identical earlier one
				(same name, FLOPs and bytes): a CNN repeats
				its blocks */
	enum op_stage stage; /* where the operators added now run */
	double count;        /* executions per step of one unit of the stage */
	double mult;         /* executions per unit of the operators added
				now (a block repeated in a network), 1 */
	const char *prefix;  /* when set, names "layer.x" are listed as
				"<prefix>.x": another family's blocks built
				by the LLM builder, an encoder-decoder's
				stacks */
	const char *prefix_also; /* with prefix: other names that begin with
				    it are listed as "<prefix>.<name>" ("":
				    every name); NULL: none */
	int literal_names;   /* the names given now are string literals, which
				rows point at; else (a name composed in a
				buffer) each is copied into the workspace */
	int bwd;             /* adding backward operators */
	int recompute;       /* adding recomputed forward operators */
	int wgrad;           /* adding weight-gradient GEMMs */
};

/* Empty ws and *sums and point the sink at them (stage OPS_LAYER, count
 * and mult 1, no prefix, names copied). */
void sink_start(struct op_sink *s, struct est_workspace *ws,
		struct op_sums *sums, int merge);

/* As sink_start(), but the rows ws lists already stay: a second sink over
 * the same workspace, summing into sums of its own (emptied). */
void sink_continue(struct op_sink *s, struct est_workspace *ws,
		   struct op_sums *sums, int merge);

/* List an operator `count` times per step without adding it to the sums
 * (a caller that accounts for it otherwise, e.g. pipeline transfers). */
struct op *sink_list(struct op_sink *s, const char *name, enum brk cat,
		     const struct op_cost *c, double count);

/* The limiter an operator's roof time counts against. */
static inline enum limiter op_limiter(enum op_bound bound,
				      enum brk category, double flop)
{
	switch (bound) {
	case BOUND_COMPUTE: return LIM_COMPUTE;
	case BOUND_MEMORY: return LIM_MEMORY_BW;
	case BOUND_NETWORK: return LIM_COMMUNICATION;
	case BOUND_LATENCY:
	default:
		/* launch-bound: its small roof is whichever side it has */
		return flop > 0 && category != BRK_MEMBOUND ? LIM_COMPUTE :
							 LIM_MEMORY_BW;
	}
}

/* Fill row o of an operator named `name` (not copied), executed `count`
 * times per step in `stage`.  Field by field: workspaces are reused, and a
 * memset of the op compiled to `rep stos`, once the costliest line of an
 * estimate. */
static inline void sink_fill(struct op *o, const char *name,
			     enum brk category, const struct op_cost *c,
			     double count, enum op_stage stage)
{
	o->category = category;
	o->flop = c->flop;
	o->bytes = c->bytes;
	o->count = count;
	o->prec = c->prec;
	o->time_s = c->time_s;
	o->bound = c->bound;
	o->launch_s = c->launch_s;
	o->stage = stage;
	o->coll = (struct op_coll){ 0 }; /* sink_coll() marks a collective */
	o->name = name;
}

/*
 * Add an operator executed `mult` (times s->mult) times per unit of the
 * current stage:
 * list it and add mult times its time to the sums; `flop` of it count as
 * hardware FLOPs (and as model FLOPs unless recomputed).  Returns its row
 * (the "other" row once the workspace is full; NULL only for a workspace
 * without a slot).  Inline: every operator of an estimate passes here, and
 * its cost is summed and listed from the registers its caller timed it
 * in; a name to copy or rename, a merge and a full workspace take
 * sink_list().  Always inline: GCC's size limit kept it a call in the
 * kit's functions, the path of most operators.
 */
static inline __attribute__((always_inline)) struct op *
sink_put(struct op_sink *s, const char *name, enum brk category,
	 const struct op_cost *c, double mult, double flop)
{
	struct op_sums *S = s->sums;
	struct est_workspace *ws = s->ws;
	enum op_stage st = s->stage;
	double roof = c->time_s - c->launch_s;

	mult *= s->mult;
	S->t[st][category] += roof * mult;
	S->t[st][BRK_LAUNCH] += c->launch_s * mult;
	S->lim[st][op_limiter(c->bound, category, c->flop)] += roof * mult;
	S->lim[st][LIM_LAUNCH] += c->launch_s * mult;
	if (s->bwd && st == OPS_LAYER)
		S->bwd_s += c->time_s * mult;
	if (s->wgrad)
		S->wgrad_s[st] += c->time_s * mult;
	S->hw_flop[st] += flop * mult;
	if (!s->recompute)
		S->model_flop[st] += flop * mult;
	if (s->literal_names && !s->prefix && !s->merge &&
	    ws->count + 1 < ws->cap) {
		struct op *o = &ws->ops[ws->count++];
		sink_fill(o, name, category, c, s->count * mult, st);
		return o;
	}
	return sink_list(s, name, category, c, s->count * mult);
}

/* The row that sums what did not fit in the workspace. */
#define SINK_OVERFLOW_NAME "other"

/* Mark row o, just put into s, as timing collective `kind` over `grp` (what
 * `explain` shows of it); nothing for NULL or the overflow row, the last
 * slot, which holds no other row.  Inline: every collective passes here. */
static inline void sink_coll(const struct op_sink *s, struct op *o,
			     enum comm_coll kind, struct comm_group grp)
{
	if (o && o != &s->ws->ops[s->ws->cap - 1])
		o->coll = (struct op_coll){ kind, grp };
}

#endif
