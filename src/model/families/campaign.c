/*
 * campaign.c - the wall clock of a run from its steady state (campaign.h).
 *
 * First order, as goodput.md proposes (docs/model.md, section 9):
 *   lambda = nodes x node rate + job rate (+ spot: preemptions x nodes)
 *   tau*   = sqrt(2 C / lambda)                  Young's interval
 *   loss   = lambda (R + tau / 2)                share of the wall clock
 *   ettr   = (1 - loss) / (1 + C / tau)
 *   wall   = steady / (ettr (1 - stragglers) (1 - evaluation)) + start-up
 */
#include "campaign.h"

#include <math.h>
#include <string.h>

#include "../types/estimate_types.h"
#include "memory.h"
#include "../types/precision.h"

#define S_PER_DAY 86400.0
#define S_PER_H 3600.0

const char *const camp_part_names[CAMP_PART_COUNT] = {
	"training", "stragglers", "evaluation", "checkpoints", "restarts", "rework", "startup",
};

static int given(const struct campaign_in *in, enum camp_param p)
{
	return (in->set >> p) & 1u;
}

void campaign_resolve(struct campaign_in *in)
{
	if (!given(in, CAMP_P_NODE_RATE))
		in->node_rate_per_day = CAMP_NODE_RATE_PER_DAY;
	if (!given(in, CAMP_P_JOB_RATE))
		in->job_rate_per_day = CAMP_JOB_RATE_PER_DAY;
	if (!given(in, CAMP_P_OPERATION))
		in->operation = CAMP_AUTOMATED;
	if (!given(in, CAMP_P_RESTART))
		in->restart_s = in->operation == CAMP_MANUAL ? CAMP_RESTART_MANUAL_S
							     : CAMP_RESTART_AUTOMATED_S;
	if (!given(in, CAMP_P_CHECKPOINT))
		in->checkpoint = CAMP_CKPT_ASYNC;
	if (!given(in, CAMP_P_INTERVAL))
		in->interval_s = 0;
	if (!given(in, CAMP_P_WRITE))
		in->write_bytes_per_s = CAMP_WRITE_BYTES_PER_S;
	if (!given(in, CAMP_P_ASYNC_BLOCK))
		in->async_block_s = CAMP_ASYNC_BLOCK_S;
	if (!given(in, CAMP_P_STRAGGLER))
		in->straggler_frac = CAMP_STRAGGLER_FRAC;
	if (!given(in, CAMP_P_EVAL))
		in->eval_frac = CAMP_EVAL_FRAC;
	if (!given(in, CAMP_P_STARTUP))
		in->startup_s = CAMP_STARTUP_S;
	if (!given(in, CAMP_P_SPARE))
		in->spare_frac = CAMP_SPARE_FRAC;
	if (!given(in, CAMP_P_PREEMPT))
		in->preempt_per_h = 0;
	if (!given(in, CAMP_P_NOTICE))
		in->notice_s = CAMP_SPOT_NOTICE_S;
}

/* Training stopped per checkpoint: the whole write when synchronous; when
 * asynchronous, one GPU's share copied to host memory, at least the
 * measured least block. */
static double block_s(const struct campaign_in *in, const struct campaign_job *j,
		      double write_s)
{
	if (in->checkpoint == CAMP_CKPT_SYNC)
		return write_s;
	double copy_s = j->host_bytes_per_s > 0 ?
			j->checkpoint_bytes / j->gpus / j->host_bytes_per_s : 0;
	return fmax(in->async_block_s, copy_s);
}

/*
 * Where the wall clock goes: of the running time A = wall - start-up,
 * lambda A (R + tau/2) is lost to restarts and rework, (1 - loss) A of the
 * rest C/(tau + C) to checkpoints; what is left, A x ettr, computes, of
 * which the evaluation share evaluates and the straggler share of the
 * remainder is slowness.  The parts add up to the wall clock.
 */
static void split_wall(struct campaign *c, double ettr)
{
	double run = c->wall_s - c->in.startup_s, busy = run * ettr;
	double *p = c->part_s;
	p[CAMP_PART_RESTARTS] = c->interrupt_per_s * run * c->in.restart_s;
	p[CAMP_PART_REWORK] = c->interrupt_per_s * run * c->interval_s / 2;
	p[CAMP_PART_CHECKPOINTS] = run * (1 - c->loss_frac) * c->checkpoint_frac;
	p[CAMP_PART_EVALUATION] = busy * c->in.eval_frac;
	p[CAMP_PART_STRAGGLERS] = busy * (1 - c->in.eval_frac) * c->in.straggler_frac;
	p[CAMP_PART_TRAINING] = busy * (1 - c->in.eval_frac) * (1 - c->in.straggler_frac);
	p[CAMP_PART_STARTUP] = c->in.startup_s;
}

int campaign_compute(const struct campaign_in *given_in, const struct campaign_job *j,
		     struct campaign *out, struct plan_problem *why)
{
	struct campaign c;
	memset(&c, 0, sizeof(c));
	c.in = *given_in;
	c.job = *j;
	campaign_resolve(&c.in);
	const struct campaign_in *in = &c.in;

	if (given(in, CAMP_P_RESTART) && in->restart_s > j->steady_s)
		return est_problem(why, WLF_CAMPAIGN_RESTART, "restart %.0f s is longer than the "
				   "run's %.0f s of training (expected a restart shorter than the "
				   "run)", in->restart_s, j->steady_s);
	c.nodes = ceil(j->gpus / fmax(1, j->gpus_per_node));
	c.interrupt_per_s = (c.nodes * in->node_rate_per_day + in->job_rate_per_day) / S_PER_DAY +
			    c.nodes * in->preempt_per_h / S_PER_H;
	c.mtbi_s = c.interrupt_per_s > 0 ? 1 / c.interrupt_per_s : 0;
	c.checkpoint_bytes = j->checkpoint_bytes;
	c.checkpoint_write_s = j->checkpoint_bytes / in->write_bytes_per_s;
	c.checkpoint_block_s = block_s(in, j, c.checkpoint_write_s);
	/* An asynchronous checkpoint cannot start before the last one is
	 * written: Young's interval, but never shorter than the write. */
	if (c.interrupt_per_s > 0)
		c.young_interval_s = sqrt(2 * c.checkpoint_block_s / c.interrupt_per_s);
	if (c.interrupt_per_s > 0 && in->checkpoint == CAMP_CKPT_ASYNC)
		c.young_interval_s = fmax(c.young_interval_s, c.checkpoint_write_s);
	c.interval_s = given(in, CAMP_P_INTERVAL) ? in->interval_s : c.young_interval_s;
	c.lost_per_interrupt_s = in->restart_s + c.interval_s / 2;
	c.loss_frac = c.interrupt_per_s * c.lost_per_interrupt_s;
	if (!(c.loss_frac < 1))
		return est_problem(why, given(in, CAMP_P_INTERVAL) ? WLF_CAMPAIGN_INTERVAL : WLF_COUNT,
				   "the job is interrupted every %.3g min and loses %.3g min each "
				   "time: it never finishes (expected restart plus half a checkpoint "
				   "interval shorter than the time between interruptions)",
				   c.mtbi_s / 60, c.lost_per_interrupt_s / 60);
	double ckpt = c.interval_s > 0 ? c.checkpoint_block_s / c.interval_s : 0;
	double ettr = (1 - c.loss_frac) / (1 + ckpt);
	c.checkpoint_frac = ckpt / (1 + ckpt);
	c.stretch = 1 / (ettr * (1 - in->straggler_frac) * (1 - in->eval_frac));
	c.wall_s = campaign_wall_s(&c, j->steady_s);
	c.goodput_frac = c.wall_s > 0 ? j->steady_s / c.wall_s : 1;
	c.interruptions = c.interrupt_per_s * c.wall_s;
	c.lost_s = c.wall_s - j->steady_s;
	c.spare_gpus = j->gpus * in->spare_frac;
	split_wall(&c, ettr);
	*out = c;
	return 0;
}

int campaign_with_preemptions(const struct campaign *c, double preempt_per_h, double notice_s,
			      struct campaign *out, struct plan_problem *why)
{
	struct campaign_in in = c->in;
	if (!given(&in, CAMP_P_PREEMPT))
		in.preempt_per_h = preempt_per_h;
	if (!given(&in, CAMP_P_NOTICE))
		in.notice_s = notice_s;
	in.set |= 1u << CAMP_P_PREEMPT | 1u << CAMP_P_NOTICE;
	return campaign_compute(&in, &c->job, out, why);
}

double campaign_wall_s(const struct campaign *c, double steady_s)
{
	return steady_s * c->stretch + c->in.startup_s;
}

double campaign_state_bytes(double params, enum tc_prec p, enum optimizer o)
{
	double elem = fmax(2, tc_prec_bytes(p));
	return params * (mem_weight_bytes_per_param(elem) +
			 mem_optimizer_bytes_per_param(o, elem < 4));
}

/* Bytes of the whole training state: full training keeps weights and
 * optimizer state per parameter (the memory model's bytes: 14 for bf16
 * with AdamW, BLOOM's figure, goodput.yaml#31); an adapter fine-tune is
 * taken at its 16-bit weights, an upper bound of its adapters. */
static double checkpoint_bytes(const struct workload *w, const struct estimate *e)
{
	if (w->kind == WL_LLM && w->train.finetune != FT_FULL)
		return e->params * 2;
	return campaign_state_bytes(e->params, w->train.precision, w->train.optimizer);
}

/* The warnings of a plan the campaign model calls fragile (the spot one
 * when the workload states its preemptions). */
static void loss_warning(struct estimate *e, const struct campaign *c)
{
	if (c->loss_frac > CAMP_FRAGILE_LOSS_FRAC)
		est_warn(e, "each interruption loses %.3g min (restart and half a checkpoint "
			 "interval), %.0f %% of the %.3g h between interruptions (expected under "
			 "%.0f %%): faster restarts or fewer GPUs", c->lost_per_interrupt_s / 60,
			 100 * c->loss_frac, c->mtbi_s / 3600, 100 * CAMP_FRAGILE_LOSS_FRAC);
}

/* The checkpoint against the spot notice, naming whose notice it is. */
static void notice_warning(struct estimate *e, const struct campaign *c, const char *whose)
{
	if (c->in.preempt_per_h > 0 && c->checkpoint_write_s > c->in.notice_s)
		est_warn(e, "a checkpoint takes %.3g s to write, longer than the %.0f s spot notice "
			 "(%s; expected a checkpoint that fits in the notice): each preemption "
			 "loses the work since the last one", c->checkpoint_write_s, c->in.notice_s,
			 whose);
}

/* The notice is judged here only when the workload states it: a rate
 * without one takes the notice of the provider it is priced on, which
 * only pricing knows (campaign_spot_warning). */
static void fragile_warnings(struct estimate *e)
{
	const struct campaign *c = &e->campaign;
	loss_warning(e, c);
	if (c->in.checkpoint == CAMP_CKPT_SYNC && c->checkpoint_block_s > CAMP_SLOW_SYNC_S)
		est_warn(e, "a synchronous checkpoint stops training for %.3g min (expected under "
			 "%.0f s): asynchronous checkpoints or faster storage",
			 c->checkpoint_block_s / 60, CAMP_SLOW_SYNC_S);
	if (given(&c->in, CAMP_P_NOTICE))
		notice_warning(e, c, "the workload states it");
}

void campaign_spot_warning(struct estimate *e, const struct campaign *c, const char *whose)
{
	/* the loss: unless the estimate's own campaign said it already */
	if (c != &e->campaign && !(e->campaign.loss_frac > CAMP_FRAGILE_LOSS_FRAC))
		loss_warning(e, c);
	notice_warning(e, c, whose);
}

int campaign_estimate(const struct workload *w, const struct gpu *g, struct estimate *e,
		      struct plan_problem *why)
{
	struct campaign_job j = {
		.steady_s = e->total_time_s,
		.gpus = e->plan.count,
		.gpus_per_node = e->plan.gpus_per_node,
		.checkpoint_bytes = checkpoint_bytes(w, e),
		.host_bytes_per_s = g->pcie_bytes_per_s / 2, /* one direction */
	};
	if (campaign_compute(&w->campaign, &j, &e->campaign, why))
		return -1;
	fragile_warnings(e);
	return 0;
}
