/*
 * unc_json.h - an uncertainty result as JSON, the same for every command.
 */
#ifndef TC_UNC_JSON_H
#define TC_UNC_JSON_H

#include "../model/analyses/uncertainty.h"
#include "json.h"

/*
 * Write *u as the object `key`: samples, seed, the P10/P50/P90, mean and sd
 * of step time, total time and (when priced) cost, and p_deadline /
 * p_budget when computed.
 */
void rep_unc_json(struct rep_json *j, const char *key, const struct unc_result *u);

#endif
