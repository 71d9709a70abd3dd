/*
 * campaign_in.c - the names of campaign_in.h's enums as written in files,
 * next to the enums they name.
 */
#include "campaign_in.h"

#include <stddef.h>

const char *const camp_operation_names[CAMP_OPERATION_COUNT + 1] = { "automated", "manual",
								     NULL };
const char *const camp_checkpoint_names[CAMP_CKPT_COUNT + 1] = { "async", "sync", NULL };
