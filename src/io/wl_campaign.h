/*
 * wl_campaign.h - the `campaign:` mapping of a workload, or of any file
 * that describes a campaign (the validation set of campaigns), read into
 * struct campaign_in (docs/workload-format.md, "Campaign").
 */
#ifndef TC_WL_CAMPAIGN_H
#define TC_WL_CAMPAIGN_H

#include "../model/types/campaign_in.h"
#include "../util/diag.h"
#include "yaml_node.h"

/* Read mapping `map` into *out, its `set` bits naming the keys given:
 * 0, or -1 with every problem reported at its position (*out untouched). */
int wl_campaign_parse(const struct yn_node *map, const char *file, struct campaign_in *out,
		      struct tc_diag *d);

#endif
