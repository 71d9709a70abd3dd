/*
 * wl_campaign.h - the `campaign:` mapping of a workload, or of any file
 * that describes a campaign (the validation set of campaigns), read into
 * struct campaign_in (docs/workload-format.md, "Campaign").
 */
#ifndef TC_WL_CAMPAIGN_H
#define TC_WL_CAMPAIGN_H

#include "../model/types/campaign_in.h"
#include "../model/types/workload.h"
#include "../util/diag.h"
#include "yaml_node.h"

/* Read mapping `map` into *out, its `set` bits naming the keys given:
 * 0, or -1 with every problem reported at its position (*out untouched). */
int wl_campaign_parse(const struct yn_node *map, const char *file, struct campaign_in *out,
		      struct tc_diag *d);

/* The optional `campaign:` section of the workload at root into
 * w->campaign (its `set` bits name the keys given): 0, or -1 with the
 * problems reported. */
int wl_read_campaign(const struct yn_node *root, const char *file, struct workload *w,
		     struct tc_diag *d);

#endif
