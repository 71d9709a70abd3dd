/*
 * test_campaign.c - the campaign model's arithmetic by hand: Young's
 * interval, a small job, a 16,384-GPU job (Llama 3's scale), a spot job,
 * the warnings of a fragile plan and the inputs it refuses.
 */
#include "tc_test.h"
#include "tc_warn.h"

#include "../../src/model/families/campaign.h"
#include "../../src/model/families/estimate.h"
#include "../../src/model/analyses/uncertainty.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#define S_PER_DAY 86400.0

/* Given inputs: set each bit named. */
static void give(struct campaign_in *in, enum camp_param p)
{
	in->set |= 1u << p;
}

/* lambda = 1/h (24 job interruptions a day, no node term), C = 50 s (a
 * synchronous 50 GB checkpoint at 1 GB/s):
 *   tau* = sqrt(2 x 50 x 3600) = sqrt(360000) = 600 s
 *   loss = (600 + 600 / 2) / 3600 = 0.25;  C / tau = 50 / 600 = 1/12
 *   ettr = 0.75 / (13/12) = 9/13; no stragglers, evaluation or start-up
 *   steady 9 h -> wall 13 h = 46,800 s; 13 interruptions; goodput 9/13 */
static void young_interval(void **state)
{
	(void)state;
	struct campaign_in in = { 0 };
	struct campaign c;
	struct plan_problem why;
	in.node_rate_per_day = 0;
	in.job_rate_per_day = 24;
	in.restart_s = 600;
	in.checkpoint = CAMP_CKPT_SYNC;
	in.write_bytes_per_s = 1e9;
	in.straggler_frac = in.eval_frac = in.startup_s = 0;
	give(&in, CAMP_P_NODE_RATE);
	give(&in, CAMP_P_JOB_RATE);
	give(&in, CAMP_P_RESTART);
	give(&in, CAMP_P_CHECKPOINT);
	give(&in, CAMP_P_WRITE);
	give(&in, CAMP_P_STRAGGLER);
	give(&in, CAMP_P_EVAL);
	give(&in, CAMP_P_STARTUP);
	struct campaign_job j = { .steady_s = 9 * 3600.0, .gpus = 8, .gpus_per_node = 8,
				  .checkpoint_bytes = 50e9, .host_bytes_per_s = 32e9 };
	assert_int_equal(campaign_compute(&in, &j, &c, &why), 0);
	assert_close(c.interrupt_per_s, 1 / 3600.0, TOL_EXACT);
	assert_close(c.checkpoint_block_s, 50, TOL_EXACT);
	assert_close(c.young_interval_s, 600, TOL_EXACT);
	assert_close(c.interval_s, 600, TOL_EXACT);
	assert_close(c.lost_per_interrupt_s, 900, TOL_EXACT);
	assert_close(c.loss_frac, 0.25, TOL_EXACT);
	assert_close(c.wall_s, 46800, TOL_EXACT);
	assert_close(c.goodput_frac, 9 / 13.0, TOL_EXACT);
	assert_close(c.interruptions, 13, TOL_EXACT);
	/* Where the 13 h go: 13 restarts of 600 s = 7800 s, 13 x 300 s of
	 * rework = 3900 s, checkpoints 46800 x 0.75 x (1/13) = 2700 s, and
	 * the 9 h = 32,400 s of training. */
	assert_close(c.part_s[CAMP_PART_RESTARTS], 7800, TOL_EXACT);
	assert_close(c.part_s[CAMP_PART_REWORK], 3900, TOL_EXACT);
	assert_close(c.part_s[CAMP_PART_CHECKPOINTS], 2700, TOL_EXACT);
	assert_close(c.part_s[CAMP_PART_TRAINING], 32400, TOL_EXACT);
	assert_close(c.part_s[CAMP_PART_STRAGGLERS] + c.part_s[CAMP_PART_EVALUATION] +
		     c.part_s[CAMP_PART_STARTUP], 0, TOL_EXACT);

	/* A given interval replaces Young's, which is still recommended:
	 * tau = 1 h: loss = (600 + 1800) / 3600 = 2/3, C / tau = 1/72,
	 * ettr = (1/3) / (73/72) = 24/73; wall = 9 h x 73/24 = 27.375 h. */
	in.interval_s = 3600;
	give(&in, CAMP_P_INTERVAL);
	assert_int_equal(campaign_compute(&in, &j, &c, &why), 0);
	assert_close(c.young_interval_s, 600, TOL_EXACT);
	assert_close(c.wall_s, 27.375 * 3600, TOL_EXACT);
}

/*
 * One node of 8 GPUs, 10 days steady, every default:
 *   lambda = (1 x 3.8e-3 + 0.87) / 86400 = 1.0113426e-5 /s
 *   C: async; one GPU's share 9.8e10 / 8 = 1.225e10 B at 32 GB/s = 0.38 s,
 *      under the 5 s floor -> C = 5 s
 *   tau* = sqrt(2 x 5 / 1.0113426e-5) = 994.376 s
 *   loss = 1.0113426e-5 x (600 + 497.188) = 0.0110963
 *   ettr = 0.9889037 / (1 + 5 / 994.376) = 0.983956
 *   wall = 864000 / (0.983956 x 0.985 x 0.993) + 30 = 897,774 s (10.39 d)
 *   goodput = 864000 / 897774 = 0.96238; interruptions = 9.080
 */
static void small_job(void **state)
{
	(void)state;
	struct campaign_in in = { 0 };
	struct campaign c;
	struct plan_problem why;
	struct campaign_job j = { .steady_s = 10 * S_PER_DAY, .gpus = 8, .gpus_per_node = 8,
				  .checkpoint_bytes = 9.8e10, .host_bytes_per_s = 32e9 };
	assert_int_equal(campaign_compute(&in, &j, &c, &why), 0);
	assert_close(c.nodes, 1, TOL_EXACT);
	assert_close(c.interrupt_per_s, 1.0113426e-5, 1e-7);
	assert_close(c.checkpoint_block_s, 5, TOL_EXACT);
	assert_close(c.young_interval_s, 994.376, 1e-6);
	assert_close(c.loss_frac, 0.0110963, 1e-5);
	assert_close(c.wall_s, 897774, 1e-6);
	assert_close(c.goodput_frac, 0.96238, 1e-5);
	assert_close(c.interruptions, 9.080, 1e-3);
	assert_close(c.spare_gpus, 0.64, TOL_EXACT); /* 8 % of 8 GPUs */
	/* An asynchronous checkpoint is never taken before the last one is
	 * written: at 0.05 GB/s the write takes 9.8e10 / 5e7 = 1960 s, which
	 * becomes the interval; at 0.1 GB/s it takes 980 s, under Young's
	 * 994 s, which stays. */
	in.write_bytes_per_s = 0.05e9;
	give(&in, CAMP_P_WRITE);
	struct campaign slow;
	assert_int_equal(campaign_compute(&in, &j, &slow, &why), 0);
	assert_close(slow.checkpoint_block_s, 5, TOL_EXACT);
	assert_close(slow.young_interval_s, 1960, TOL_EXACT);
	in.write_bytes_per_s = 0.1e9;
	assert_int_equal(campaign_compute(&in, &j, &slow, &why), 0);
	assert_close(slow.young_interval_s, 994.376, 1e-6);
	/* The parts add up to the wall clock, training to the steady state. */
	double sum = 0;
	for (int k = 0; k < CAMP_PART_COUNT; k++)
		sum += c.part_s[k];
	assert_close(sum, c.wall_s, TOL_TIGHT);
	assert_close(c.part_s[CAMP_PART_TRAINING], j.steady_s, TOL_TIGHT);
}

/*
 * 16,384 GPUs (2048 nodes), 50 days steady, every default: Llama 3's
 * scale, whose 466 interruptions in 54 days are 8.63 a day:
 *   lambda = 2048 x 3.8e-3 + 0.87 = 8.6524 a day
 *   C = 5 s (405e9 x 14 B / 16384 at 64 GB/s = 5 ms, under the floor)
 *   tau* = sqrt(2 x 5 x 86400 / 8.6524) = 316.00 s (goodput.md: 5.3 min)
 *   loss = 8.6524 / 86400 x (600 + 158.0) = 0.075909
 *   ettr = 0.924091 / (1 + 5 / 316.0) = 0.90970 (goodput.md: ~0.91; Llama 3
 *          reported "higher than 90 %")
 *   wall = 50 d / (0.90970 x 0.985 x 0.993) + 30 s = 56.194 d
 *   interruptions = 8.6524 x 56.194 = 486.2
 */
static void frontier_job(void **state)
{
	(void)state;
	struct campaign_in in = { 0 };
	struct campaign c;
	struct plan_problem why;
	struct campaign_job j = { .steady_s = 50 * S_PER_DAY, .gpus = 16384, .gpus_per_node = 8,
				  .checkpoint_bytes = 405e9 * 14, .host_bytes_per_s = 64e9 };
	assert_int_equal(campaign_compute(&in, &j, &c, &why), 0);
	assert_close(c.interrupt_per_s * S_PER_DAY, 8.6524, TOL_TIGHT);
	assert_close(c.young_interval_s, 316.001, 1e-5);
	assert_close(c.loss_frac, 0.0759088, 1e-5);
	assert_close(c.wall_s / S_PER_DAY, 56.1940, 1e-5);
	assert_close(c.interruptions, 486.21, 1e-4);
	/* The effective training time Llama 3 reports leaves out stragglers
	 * and evaluation: the stretch without them is 1 / ettr. */
	assert_close(1 / (c.stretch * 0.985 * 0.993), 0.909697, 1e-5);
	assert_close(c.goodput_frac, 0.889774, 1e-5); /* 50 / 56.194 */
}

/*
 * 64 GPUs on 8 spot instances, 5 days steady, 0.05 preemptions per
 * instance-hour, synchronous 98 GB checkpoints at 1 GB/s:
 *   lambda = (8 x 3.8e-3 + 0.87) / 24 + 8 x 0.05 = 0.0375167 + 0.4
 *          = 0.4375167 /h
 *   C = 98 s; tau* = sqrt(2 x 98 x 3600 / 0.4375167) = 1269.94 s
 *   loss = 0.4375167 / 3600 x (600 + 634.97) = 0.150089
 *   ettr = 0.849911 / (1 + 98 / 1269.94) = 0.789023
 *   wall = 432000 / (0.789023 x 0.985 x 0.993) + 30 = 155.4996 h
 *   interruptions = 0.4375167 x 155.4996 = 68.03
 */
static void spot_job(void **state)
{
	(void)state;
	struct campaign_in in = { 0 };
	struct campaign c;
	struct plan_problem why;
	in.preempt_per_h = 0.05;
	in.checkpoint = CAMP_CKPT_SYNC;
	in.write_bytes_per_s = 1e9;
	give(&in, CAMP_P_PREEMPT);
	give(&in, CAMP_P_CHECKPOINT);
	give(&in, CAMP_P_WRITE);
	struct campaign_job j = { .steady_s = 5 * S_PER_DAY, .gpus = 64, .gpus_per_node = 8,
				  .checkpoint_bytes = 9.8e10, .host_bytes_per_s = 32e9 };
	assert_int_equal(campaign_compute(&in, &j, &c, &why), 0);
	assert_close(c.interrupt_per_s * 3600, 0.4375167, 1e-6);
	assert_close(c.checkpoint_block_s, 98, TOL_EXACT);
	assert_close(c.young_interval_s, 1269.94, 1e-5);
	assert_close(c.loss_frac, 0.150089, 1e-5);
	assert_close(c.wall_s / 3600, 155.4996, 1e-6);
	assert_close(c.interruptions, 68.034, 1e-4);
	assert_close(c.in.notice_s, CAMP_SPOT_NOTICE_S, TOL_EXACT); /* none given */

	/* The same preemptions from a provider (--pricing spot) on the job's
	 * own campaign: the same wall clock, with the provider's notice. */
	struct campaign base, spot;
	in.set &= ~(1u << CAMP_P_PREEMPT);
	in.preempt_per_h = 0;
	assert_int_equal(campaign_compute(&in, &j, &base, &why), 0);
	assert_true(base.wall_s < c.wall_s);
	assert_int_equal(campaign_with_preemptions(&base, 0.05, 120, &spot, &why), 0);
	assert_close(spot.wall_s, c.wall_s, TOL_EXACT);
	assert_close(spot.in.notice_s, 120, TOL_EXACT);
	/* the workload's own rate and notice are kept */
	in.preempt_per_h = 0.1;
	in.notice_s = 45;
	give(&in, CAMP_P_PREEMPT);
	give(&in, CAMP_P_NOTICE);
	assert_int_equal(campaign_compute(&in, &j, &base, &why), 0);
	assert_int_equal(campaign_with_preemptions(&base, 0.05, 120, &spot, &why), 0);
	assert_close(spot.in.preempt_per_h, 0.1, TOL_EXACT);
	assert_close(spot.in.notice_s, 45, TOL_EXACT);
	assert_close(spot.wall_s, base.wall_s, TOL_EXACT);
}

/* An estimate built by hand for campaign_estimate: 7e9 parameters on 64
 * GPUs of 8, bf16 with AdamW, 5 days steady. */
static void hand_estimate(struct workload *w, struct gpu *g, struct estimate *e)
{
	memset(w, 0, sizeof(*w));
	memset(g, 0, sizeof(*g));
	memset(e, 0, sizeof(*e));
	w->kind = WL_LLM;
	w->train.precision = PREC_BF16;
	w->train.optimizer = OPT_ADAMW;
	g->pcie_bytes_per_s = 64e9;
	e->params = 7e9;
	e->plan.count = 64;
	e->plan.gpus_per_node = 8;
	e->total_time_s = 5 * S_PER_DAY;
}

/* campaign_estimate() of the workload as it now stands, with the warnings
 * of the last one cleared. */
static void estimate_afresh(struct workload *w, struct gpu *g, struct estimate *e)
{
	struct plan_problem why;
	e->warning_count = 0;
	assert_int_equal(campaign_estimate(w, g, e, &why), 0);
}

/* The checkpoint is the memory model's 2 + 12 = 14 B per parameter (BLOOM's
 * 14, goodput.yaml#31): 9.8e10 B.  Synchronous at 1 GB/s it blocks 98 s
 * (over a minute: a warning); with 0.05 preemptions per instance-hour the
 * loss is 15 % of the time between interruptions (spot_job: a warning),
 * and its 98 s write fits a 120 s notice the workload gives (none).  At
 * 0.5 GB/s the write takes 196 s: it does not. */
static void fragile_plans_warn(void **state)
{
	(void)state;
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	hand_estimate(&w, &g, &e);
	assert_int_equal(campaign_estimate(&w, &g, &e, &why), 0);
	assert_close(e.campaign.checkpoint_bytes, 9.8e10, TOL_EXACT);
	/* every default: async 5 s, loss 1 - 2 %: nothing to say */
	assert_int_equal(e.warning_count, 0);
	/* an adapter fine-tune is taken at its 16-bit weights, 7e9 x 2 =
	 * 1.4e10 B, not the full training state */
	w.train.finetune = FT_LORA;
	assert_int_equal(campaign_estimate(&w, &g, &e, &why), 0);
	assert_close(e.campaign.checkpoint_bytes, 1.4e10, TOL_EXACT);
	w.train.finetune = FT_FULL;

	w.campaign.checkpoint = CAMP_CKPT_SYNC;
	w.campaign.write_bytes_per_s = 1e9;
	w.campaign.preempt_per_h = 0.05;
	w.campaign.notice_s = 120;
	give(&w.campaign, CAMP_P_CHECKPOINT);
	give(&w.campaign, CAMP_P_WRITE);
	give(&w.campaign, CAMP_P_PREEMPT);
	give(&w.campaign, CAMP_P_NOTICE);
	assert_int_equal(campaign_estimate(&w, &g, &e, &why), 0);
	assert_close(e.campaign.checkpoint_block_s, 98, TOL_EXACT);
	assert_true(tc_warned(&e, "synchronous checkpoint stops training for 1.63 min"));
	assert_true(tc_warned(&e, "each interruption loses"));
	assert_false(tc_warned(&e, "spot notice"));

	w.campaign.write_bytes_per_s = 0.5e9;
	estimate_afresh(&w, &g, &e);
	assert_true(tc_warned(&e, "takes 196 s to write, longer than the 120 s spot notice "
				   "(the workload states it;"));
	/* Either side of each limit: at 0.784 GB/s the write takes 125 s,
	 * past the 120 s notice; at 1.568 GB/s 62.5 s, past the minute a
	 * synchronous checkpoint may stop training; at 1.96 GB/s 50 s,
	 * within it. */
	w.campaign.write_bytes_per_s = 0.784e9;
	estimate_afresh(&w, &g, &e);
	assert_true(tc_warned(&e, "takes 125 s to write, longer than the 120 s spot notice"));
	w.campaign.write_bytes_per_s = 1.568e9;
	estimate_afresh(&w, &g, &e);
	assert_true(tc_warned(&e, "synchronous checkpoint stops training for 1.04 min"));
	w.campaign.write_bytes_per_s = 1.96e9;
	estimate_afresh(&w, &g, &e);
	assert_false(tc_warned(&e, "synchronous checkpoint stops training"));
	w.campaign.write_bytes_per_s = 0.5e9;
	/* the same 196 s write with no preemptions: no notice to miss */
	w.campaign.preempt_per_h = 0;
	estimate_afresh(&w, &g, &e);
	assert_false(tc_warned(&e, "spot notice"));

	/* Fragile means losing over 10 % of the time between interruptions.
	 * One an hour (24 jobs a day, no node term), checkpoints every 36 s:
	 * a 360 s restart loses (360 + 36 / 2) / 3600 = 10.5 %, a warning; a
	 * 324 s one (324 + 18) / 3600 = 9.5 %, none. */
	hand_estimate(&w, &g, &e);
	w.campaign.node_rate_per_day = 0;
	w.campaign.job_rate_per_day = 24;
	w.campaign.interval_s = 36;
	w.campaign.restart_s = 360;
	give(&w.campaign, CAMP_P_NODE_RATE);
	give(&w.campaign, CAMP_P_JOB_RATE);
	give(&w.campaign, CAMP_P_INTERVAL);
	give(&w.campaign, CAMP_P_RESTART);
	assert_int_equal(campaign_estimate(&w, &g, &e, &why), 0);
	assert_close(e.campaign.loss_frac, 0.105, TOL_EXACT);
	assert_true(tc_warned(&e, "each interruption loses"));
	w.campaign.restart_s = 324;
	estimate_afresh(&w, &g, &e);
	assert_close(e.campaign.loss_frac, 0.095, TOL_EXACT);
	assert_false(tc_warned(&e, "each interruption loses"));
}

/* An asynchronous checkpoint stops training while each GPU copies its
 * share to host memory over one direction of its PCIe link.  70e9
 * parameters on 8 GPUs at 14 B: 9.8e11 / 8 = 1.225e11 B a GPU; PCIe
 * Gen3 x16, 32 GB/s both ways, 16e9 B/s one way: 7.65625 s, past the
 * 5 s least block. */
static void async_block_is_host_copy(void **state)
{
	(void)state;
	struct workload w;
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	hand_estimate(&w, &g, &e);
	e.params = 70e9;
	e.plan.count = 8;
	g.pcie_bytes_per_s = 32e9;
	assert_int_equal(campaign_estimate(&w, &g, &e, &why), 0);
	assert_close(e.campaign.checkpoint_bytes, 9.8e11, TOL_EXACT);
	assert_close(e.campaign.checkpoint_block_s, 7.65625, TOL_EXACT);
}

/* The preemptions of --pricing spot come as another campaign: its fragile
 * loss is warned of once, and its checkpoint against the notice.  The
 * hand estimate's own campaign (defaults) is not fragile; with 0.05
 * preemptions per instance-hour on 8 instances it loses 15 % (spot_job). */
static void spot_campaign_warns(void **state)
{
	(void)state;
	struct workload w;
	struct gpu g;
	struct estimate e, spot;
	struct plan_problem why;
	hand_estimate(&w, &g, &e);
	assert_int_equal(campaign_estimate(&w, &g, &e, &why), 0);
	assert_int_equal(e.warning_count, 0);
	hand_estimate(&w, &g, &spot);
	w.campaign.checkpoint = CAMP_CKPT_SYNC;
	w.campaign.write_bytes_per_s = 0.5e9; /* 196 s to write */
	w.campaign.preempt_per_h = 0.05;
	give(&w.campaign, CAMP_P_CHECKPOINT);
	give(&w.campaign, CAMP_P_WRITE);
	give(&w.campaign, CAMP_P_PREEMPT);
	assert_int_equal(campaign_estimate(&w, &g, &spot, &why), 0);
	/* the workload's rate without its notice: the estimate leaves the
	 * notice to pricing, which knows the provider */
	assert_false(tc_warned(&spot, "spot notice"));
	campaign_spot_warning(&e, &spot.campaign, "assumed");
	assert_int_equal(e.warning_count, 2);
	assert_true(tc_warned(&e, "each interruption loses"));
	/* no notice given: the shortest a provider documents, 30 s */
	assert_true(tc_warned(&e, "longer than the 30 s spot notice (assumed;"));
	/* an estimate that said it already hears it once */
	e.warning_count = 0;
	e.campaign.loss_frac = 0.2;
	campaign_spot_warning(&e, &spot.campaign, "assumed");
	assert_int_equal(e.warning_count, 1);
	assert_false(tc_warned(&e, "each interruption loses"));
}

/* A restart given longer than the run, and interruptions that leave no
 * time: refused, naming the field to blame. */
static void hopeless_inputs_refused(void **state)
{
	(void)state;
	struct campaign_in in = { 0 };
	struct campaign c;
	struct plan_problem why = { WLF_NONE, "" };
	struct campaign_job j = { .steady_s = 3600, .gpus = 8, .gpus_per_node = 8,
				  .checkpoint_bytes = 1e9, .host_bytes_per_s = 32e9 };
	in.restart_s = 7200;
	give(&in, CAMP_P_RESTART);
	assert_int_equal(campaign_compute(&in, &j, &c, &why), -1);
	assert_int_equal(why.field, WLF_CAMPAIGN_RESTART);
	assert_string_equal(why.msg, "restart 7200 s is longer than the run's 3600 s of training "
			    "(expected a restart shorter than the run)");
	/* a restart as long as the run is not longer than it */
	in.restart_s = 3600;
	assert_int_equal(campaign_compute(&in, &j, &c, &why), 0);
	/* the default restart (10 min) is never refused, even for a short run */
	in.set = 0;
	j.steady_s = 60;
	assert_int_equal(campaign_compute(&in, &j, &c, &why), 0);
	/* one interruption a minute with a 10 min restart: never finishes */
	in.job_rate_per_day = 1440;
	give(&in, CAMP_P_JOB_RATE);
	j.steady_s = 3600;
	assert_int_equal(campaign_compute(&in, &j, &c, &why), -1);
	assert_int_equal(why.field, WLF_COUNT);
	assert_non_null(strstr(why.msg, "it never finishes"));
}

/* Relations: more nodes never shorten the wall clock of the same steady
 * time; a faster restart never lengthens it; Young's interval is the
 * optimum (a given interval either side does no better). */
static void relations(void **state)
{
	(void)state;
	struct campaign_in in = { 0 };
	struct campaign a, b;
	struct plan_problem why;
	struct campaign_job j = { .steady_s = 30 * S_PER_DAY, .gpus = 1024, .gpus_per_node = 8,
				  .checkpoint_bytes = 70e9 * 14, .host_bytes_per_s = 32e9 };
	assert_int_equal(campaign_compute(&in, &j, &a, &why), 0);
	j.gpus = 4096;
	assert_int_equal(campaign_compute(&in, &j, &b, &why), 0);
	assert_true(b.wall_s > a.wall_s);
	in.restart_s = 60;
	give(&in, CAMP_P_RESTART);
	assert_int_equal(campaign_compute(&in, &j, &a, &why), 0);
	assert_true(a.wall_s < b.wall_s);
	double best = a.wall_s;
	for (double f = 0.5; f <= 2.0; f *= 2) {
		if (f == 1)
			continue;
		in.interval_s = a.young_interval_s * f;
		give(&in, CAMP_P_INTERVAL);
		assert_int_equal(campaign_compute(&in, &j, &b, &why), 0);
		assert_true(b.wall_s > best);
	}
}

/* The smallest k with P(K <= k) >= p for K ~ Poisson(mu): the closed
 * form, the pmf summed from e^-mu (mu well below 700). */
static double poisson_quantile(double mu, double p)
{
	double pmf = exp(-mu), cdf = pmf;
	int k = 0;
	while (cdf < p) {
		k++;
		pmf *= mu / k;
		cdf += pmf;
	}
	return k;
}

#define DRAWS 20000

/*
 * The wall clock drawn: 1 interruption an hour, 600 s restarts exactly
 * (no spread), checkpoints free (C = 0: no interval, no rework), nothing
 * else; 300,000 s steady.  loss = 600 / 3600 = 1/6, so the expected
 * running wall clock is 300,000 / (5/6) = 360,000 s and the interruptions
 * K ~ Poisson(100); the wall clock is 300,000 + 600 K.  Its P10, P50 and
 * P90 over 20,000 draws match the closed form's within 2 %, and its mean
 * the campaign's 360,000 s.  With restarts spread (sigma 0.54) the mean
 * stays, the spread grows.
 */
static void poisson_wall_draws(void **state)
{
	(void)state;
	struct campaign_in in = { 0 };
	struct campaign c;
	struct plan_problem why;
	in.node_rate_per_day = 0;
	in.job_rate_per_day = 24;
	in.restart_s = 600;
	in.checkpoint = CAMP_CKPT_SYNC;
	in.straggler_frac = in.eval_frac = in.startup_s = 0;
	const enum camp_param given[] = { CAMP_P_NODE_RATE, CAMP_P_JOB_RATE, CAMP_P_RESTART,
					  CAMP_P_CHECKPOINT, CAMP_P_STRAGGLER, CAMP_P_EVAL,
					  CAMP_P_STARTUP };
	for (size_t k = 0; k < sizeof(given) / sizeof(given[0]); k++)
		give(&in, given[k]);
	struct campaign_job j = { .steady_s = 300000, .gpus = 8, .gpus_per_node = 8,
				  .checkpoint_bytes = 0, .host_bytes_per_s = 32e9 };
	assert_int_equal(campaign_compute(&in, &j, &c, &why), 0);
	assert_close(c.interval_s, 0, TOL_EXACT);
	assert_close(c.wall_s, 360000, TOL_EXACT);

	static double lost[DRAWS];
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	assert_non_null(r);
	gsl_rng_set(r, 7);
	for (int i = 0; i < DRAWS; i++)
		lost[i] = (unc_draw_wall_s(r, &c, j.steady_s, 0) - j.steady_s) / 600;
	gsl_sort(lost, 1, DRAWS);
	const double p[3] = { 0.10, 0.50, 0.90 };
	for (int k = 0; k < 3; k++)
		assert_close(gsl_stats_quantile_from_sorted_data(lost, 1, DRAWS, p[k]),
			     poisson_quantile(100, p[k]), 0.02);
	assert_close(gsl_stats_mean(lost, 1, DRAWS), 100, 0.01);
	double sd_fixed = gsl_stats_sd(lost, 1, DRAWS);
	assert_close(sd_fixed, 10, 0.05); /* sqrt(100) */

	for (int i = 0; i < DRAWS; i++)
		lost[i] = (unc_draw_wall_s(r, &c, j.steady_s, UNC_RESTART_LOG_SD) - j.steady_s) /
			  600;
	assert_close(gsl_stats_mean(lost, 1, DRAWS), 100, 0.01);
	/* Var = mu E[R^2] / 600^2 = 100 exp(0.54^2): sd 13.4 */
	assert_close(gsl_stats_sd(lost, 1, DRAWS), 10 * exp(0.54 * 0.54 / 2), 0.05);
	gsl_rng_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(young_interval),
		cmocka_unit_test(small_job),
		cmocka_unit_test(frontier_job),
		cmocka_unit_test(spot_job),
		cmocka_unit_test(fragile_plans_warn),
		cmocka_unit_test(async_block_is_host_copy),
		cmocka_unit_test(spot_campaign_warns),
		cmocka_unit_test(hopeless_inputs_refused),
		cmocka_unit_test(relations),
		cmocka_unit_test(poisson_wall_draws),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
