/*
 * campaign_in.h - the inputs of the campaign model (campaign.h) and their
 * defaults, which a workload carries (workload.h, its `campaign:` section).
 *
 * The defaults are sourced figures of the project's reference data
 * reference/goodput.yaml, cited as
 * goodput.yaml#N, the N-th entry of that file (1-based), with its topic and
 * system; docs/model.md, section 9, lists them.
 */
#ifndef TC_CAMPAIGN_IN_H
#define TC_CAMPAIGN_IN_H

/* Unexpected interruptions per node-day: Llama 3 405B on 16,384 H100,
 * 419 unexpected in 54 days over 2048 nodes = 3.79e-3 (goodput.yaml#7,
 * failure_rate, "Llama 3 405B, 16,384 H100 (derived)"). */
#define CAMP_NODE_RATE_PER_DAY 3.8e-3
/* Interruptions per day whatever the job's size: Llama 3's 47 planned
 * (automated maintenance) in 54 days = 0.87 (goodput.yaml#2, failure_rate,
 * "Llama 3 405B, 16,384 H100"; #9: "at least one training interruption
 * daily"). */
#define CAMP_JOB_RATE_PER_DAY 0.87
/* From an interruption to training again under automation, seconds:
 * Meta RSC's u0 of 5-20 min (goodput.yaml#47, restart, "Meta RSC"), with
 * MegaScale's detection and diagnosis under 10 min (#48); 10 min taken. */
#define CAMP_RESTART_AUTOMATED_S 600.0
/* The same under manual operation, seconds: a judgement, not a measured
 * mean (docs/model.md, section 9, "The manual restart time").  3 h is the
 * one measured wait of a hand-operated restart in the chronicles: BLOOM's
 * hung job "has been stuck for at least 3 hours" before anyone noticed
 * (goodput.yaml#53, restart, "BLOOM-176B", chronicles 2022-04-30).  The
 * other entries bound it from above, each counting more than the restart:
 * BLOOM's three hangs lost ~18, ~11 and 6 h with their rollbacks (#23);
 * OPT's cloud replacements "can take hours" (#51); OPT lost 56.5 - 33 =
 * 23.5 days to ~90 restarts (#18, #67, #68), 23.5 x 24 / 90 = 6.3 h a
 * restart with the rework and the rollbacks after loss spikes.  With OPT's
 * node rate (#19) and half of Young's interval redone, 3 h gives OPT's wall
 * clock within 5 % (validate --campaigns: 53.8 d for 56.5 d), which checks
 * the judgement but did not fit it. */
#define CAMP_RESTART_MANUAL_S (3 * 3600.0)
/* Storage write bandwidth of a synchronous checkpoint, bytes/s: BLOOM's
 * 2.3 TB in 40 s on GPFS = 57 GB/s (goodput.yaml#32, checkpoint,
 * "BLOOM-176B on Jean Zay GPFS"), the low end of the range (Meta: 2 TB/s,
 * #36). */
#define CAMP_WRITE_BYTES_PER_S 57e9
/* Training blocked per asynchronous checkpoint, seconds: PyTorch DCP
 * async_save of a 7B model, 6.3 s (goodput.yaml#39, checkpoint,
 * "IBM/PyTorch DCP async_save, 7B model"); MegaScale "several seconds"
 * (#38); goodput.md's default of 5 s taken.  The copy of one GPU's share to
 * host memory over its host bus sets it when that takes longer. */
#define CAMP_ASYNC_BLOCK_S 5.0
/* Throughput lost to slow hosts, thermal swings and similar: Llama 3's
 * diurnal 1-2 % (goodput.yaml#85, other_overhead, "Llama 3 405B"); 1.5 %. */
#define CAMP_STRAGGLER_FRAC 0.015
/* In-job evaluation: BLOOM's 12 min per 1000 iterations, 0.7 % of
 * training (goodput.yaml#82, other_overhead, "BLOOM-176B"). */
#define CAMP_EVAL_FRAC 0.007
/* One-off start-up, seconds: initialisation under 30 s on more than
 * 10,000 GPUs once optimised (goodput.yaml#50, restart, "MegaScale"). */
#define CAMP_STARTUP_S 30.0
/* Spare nodes paid for as hot swaps: BLOOM kept 4 nodes in reserve for 48
 * used = 8.3 % (goodput.yaml#75, campaign, "BLOOM-176B allocation"); OPT
 * 14 % (#52).  8 % taken. */
#define CAMP_SPARE_FRAC 0.08
/* The spot notice, seconds, where neither the workload (spot_notice) nor
 * the provider's price table gives one: the shortest notice a provider
 * documents, Google Cloud's and Azure's 30 s (pricing/gcp.yaml and
 * pricing/azure.yaml, spot_notice), the conservative choice for the
 * warning of a checkpoint that does not fit in it (AWS gives 2 min,
 * goodput.yaml#58).  The answer says when it is assumed. */
#define CAMP_SPOT_NOTICE_S 30.0

/* Where the model says the plan is fragile (goodput.md, section (c)). */
#define CAMP_FRAGILE_LOSS_FRAC 0.10 /* loss per interruption / MTBI */
#define CAMP_SLOW_SYNC_S 60.0       /* a synchronous checkpoint's block */

enum camp_operation { CAMP_AUTOMATED, CAMP_MANUAL, CAMP_OPERATION_COUNT };
enum camp_checkpoint { CAMP_CKPT_ASYNC, CAMP_CKPT_SYNC, CAMP_CKPT_COUNT };
extern const char *const camp_operation_names[CAMP_OPERATION_COUNT + 1];
extern const char *const camp_checkpoint_names[CAMP_CKPT_COUNT + 1];

/* The inputs, one bit each in campaign_in.set when given. */
enum camp_param {
	CAMP_P_NODE_RATE, CAMP_P_JOB_RATE, CAMP_P_OPERATION, CAMP_P_RESTART,
	CAMP_P_CHECKPOINT, CAMP_P_INTERVAL, CAMP_P_WRITE, CAMP_P_ASYNC_BLOCK,
	CAMP_P_STRAGGLER, CAMP_P_EVAL, CAMP_P_STARTUP, CAMP_P_SPARE,
	CAMP_P_PREEMPT, CAMP_P_NOTICE,
	CAMP_P_COUNT
};

struct campaign_in {
	unsigned set;               /* bit (1 << enum camp_param): given; the
				       others take the defaults above */
	double node_rate_per_day;   /* unexpected interruptions per node-day */
	double job_rate_per_day;    /* interruptions per day, any size */
	int operation;              /* enum camp_operation */
	double restart_s;           /* interruption to training again */
	int checkpoint;             /* enum camp_checkpoint */
	double interval_s;          /* between checkpoints; unset: Young's */
	double write_bytes_per_s;   /* storage, synchronous checkpoints */
	double async_block_s;       /* least block of an asynchronous one */
	double straggler_frac;      /* throughput lost to slow hosts */
	double eval_frac;           /* time spent evaluating in the job */
	double startup_s;           /* once: initialisation, batch ramp */
	double spare_frac;          /* spare nodes paid, share of the nodes */
	double preempt_per_h;       /* spot: preemptions per instance-hour
				       (0: not spot) */
	double notice_s;            /* spot: warning before a preemption */
};

#endif
