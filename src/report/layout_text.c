/*
 * layout_text.c - the one-cell layout summary (layout_text.h).
 */
#include "layout_text.h"

#include <stdio.h>

static const char *const recompute_text[] = { "none", "selective", "full" };

const char *rep_layout_text(char *buf, size_t len, const struct workload *w,
			    const struct estimate *e)
{
	const struct plan *p = &e->plan;
	if (w->kind != WL_LLM)
		snprintf(buf, len, "dp%d, %.0f per GPU", p->dp, e->samples_per_step / p->dp);
	else
		snprintf(buf, len, "tp%d pp%d dp%d z%d mb%d %s", p->tp, p->pp, p->dp, p->zero,
			 p->micro_batch, recompute_text[w->train.recompute]);
	return buf;
}
