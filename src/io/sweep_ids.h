/*
 * sweep_ids.h - the catalog ids a sweep varies, checked before any row is
 * evaluated.
 */
#ifndef TC_SWEEP_IDS_H
#define TC_SWEEP_IDS_H

#include "../util/diag.h"
#include "datapath.h"
#include "sweep_types.h"

/*
 * Every varied plan.gpu, plan.framework and model.preset value looked up in
 * the catalogs on dp: an unknown id is reported at the value, since no row
 * with it can be valid.  Returns 0 when all are known, else -1 (messages in
 * d).
 */
int sweep_check_ids(const struct sweep *sw, const struct tc_datapath *dp, struct tc_diag *d);

#endif
