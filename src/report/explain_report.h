/*
 * explain_report.h - `traincost explain`: one row per operator of a step,
 * the collectives and the parts of the campaign, in every format.  Formats
 * only; every number comes computed from the model.
 */
#ifndef TC_EXPLAIN_REPORT_H
#define TC_EXPLAIN_REPORT_H

#include <stdio.h>

#include "../model/types/estimate_types.h"
#include "../model/types/gpu.h"
#include "../model/types/workload.h"

/* One row per operator of estimate e of w on g (the operators in ws),
 * then the collectives and the campaign's parts, as `fmt` (table, json,
 * csv, md).  Returns 0, or -1 on a failed allocation or a non-finite
 * number (never printed). */
int rep_explain(FILE *f, const char *fmt, const struct workload *w,
		const struct gpu *g, const struct estimate *e,
		const struct est_workspace *ws);

#endif
