/*
 * camp_val_load.h - the validation set of training campaigns
 * (tests/validation/campaigns/campaigns.yaml): runs whose wall clock was
 * observed, with the steady state, scale and operating mode their sources
 * state (tests/validation/README.md, "Campaigns").
 */
#ifndef TC_CAMP_VAL_LOAD_H
#define TC_CAMP_VAL_LOAD_H

#include <stddef.h>

#include "../model/types/campaign_in.h"
#include "../model/types/gpu.h"
#include "../util/diag.h"

#define CAMP_VAL_TEXT_LEN 256
#define CAMP_VAL_MAX_RUNS 64

struct camp_val_run {
	char id[64];
	char gpu[GPU_ID_LEN];
	int gpus, gpus_per_node;
	double params;
	double steady_s;             /* the source's steady state */
	double wall_s;               /* the wall clock observed */
	struct campaign_in campaign; /* as the source states the run's operation */
	char source[CAMP_VAL_TEXT_LEN];
	char note[CAMP_VAL_TEXT_LEN];
	int line, col;               /* the run in its file */
};

struct camp_val_set {
	char source[CAMP_VAL_TEXT_LEN];
	char as_of[11];
	size_t count;
	struct camp_val_run run[CAMP_VAL_MAX_RUNS];
};

/* Read the set from `path` into *out: 0, or -1 with every problem reported
 * at its position (file:line:col). */
int camp_val_load(const char *path, struct camp_val_set *out, struct tc_diag *d);

#endif
