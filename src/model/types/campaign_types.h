/*
 * campaign_types.h - what a campaign's result holds (campaign.h computes
 * it): the job it was computed for and where its wall clock goes.  Types
 * only, so that an estimate can hold one without depending on the campaign
 * model.
 */
#ifndef TC_CAMPAIGN_TYPES_H
#define TC_CAMPAIGN_TYPES_H

#include "campaign_in.h"

/* The job the campaign runs: its steady state and its shape. */
struct campaign_job {
	double steady_s;            /* step time x steps */
	double gpus, gpus_per_node;
	double checkpoint_bytes;    /* the whole training state */
	double host_bytes_per_s;    /* one GPU's copy to host memory */
};

/* Where the wall clock goes (they add up to campaign.wall_s). */
enum camp_part {
	CAMP_PART_TRAINING,    /* the steady state's useful steps */
	CAMP_PART_STRAGGLERS,  /* the same steps slowed by slow hosts */
	CAMP_PART_EVALUATION,  /* in-job evaluation */
	CAMP_PART_CHECKPOINTS, /* training stopped for checkpoints */
	CAMP_PART_RESTARTS,    /* interruption to training again */
	CAMP_PART_REWORK,      /* steps redone since the last checkpoint */
	CAMP_PART_STARTUP,     /* once, at the start */
	CAMP_PART_COUNT
};

struct campaign {
	struct campaign_in in;      /* the inputs used, defaults filled */
	struct campaign_job job;    /* the job it was computed for */
	double nodes;               /* ceil(gpus / gpus_per_node) */
	double interrupt_per_s;     /* lambda: nodes x node rate + job rate
				       (+ spot preemptions) */
	double mtbi_s;              /* 1 / lambda; 0 when lambda is 0 */
	double checkpoint_bytes;
	double checkpoint_write_s;  /* the whole state to storage */
	double checkpoint_block_s;  /* training stopped per checkpoint, C */
	double young_interval_s;    /* sqrt(2 C / lambda), recommended (async:
				       at least the write); 0 when nothing
				       interrupts the job */
	double interval_s;          /* the one used (0: no checkpoints) */
	double lost_per_interrupt_s; /* restart + half an interval */
	double loss_frac;           /* lambda x lost per interruption */
	double checkpoint_frac;     /* of the time left, spent blocked */
	double stretch;             /* wall seconds per steady second */
	double wall_s;              /* steady x stretch + start-up */
	double goodput_frac;        /* steady / wall */
	double interruptions;       /* lambda x wall */
	double lost_s;              /* wall - steady */
	double spare_gpus;          /* paid, not computing */
	double part_s[CAMP_PART_COUNT];
};

#endif
