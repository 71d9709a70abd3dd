/*
 * layout_text.c - the one-cell layout summary (layout_text.h).
 */
#include "layout_text.h"

#include <stdio.h>

#include "estimate_report.h"

const char *rep_layout_text(char *buf, size_t len, const struct workload *w,
			    const struct estimate *e, int words)
{
	const struct plan *p = &e->plan;
	if (w->kind != WL_LLM && words)
		snprintf(buf, len, "dp%d, %.0f %s/GPU", p->dp, e->samples_per_step / p->dp,
			 rep_sample_unit(rep_kind_name(w)));
	else if (w->kind != WL_LLM)
		snprintf(buf, len, "dp%d, %.0f per GPU", p->dp, e->samples_per_step / p->dp);
	else
		snprintf(buf, len, "tp%d pp%d dp%d z%d mb%d %s", p->tp, p->pp, p->dp, p->zero,
			 p->micro_batch, recompute_names[w->train.recompute]);
	return buf;
}

/* Sequence parallelism splits the tensor-parallel group's activations: with
 * tp 1 there is nothing to split, whatever the plan asked. */
static int sequence_parallel(const struct plan *p)
{
	return p->sequence_parallel && p->tp > 1;
}

void rep_layout_row(struct rep_cell *c, char *text, const struct workload *w,
		    const struct estimate *e)
{
	rep_layout_plan_row(c, rep_layout_text(text, REP_LAYOUT_TEXT_LEN, w, e, 1), &e->plan,
			    w->train.recompute);
}

void rep_layout_plan_row(struct rep_cell *c, const char *summary, const struct plan *p,
			 int recompute)
{
	const double v[] = { p->tp, p->pp, p->dp, p->ep, p->zero, p->micro_batch };
	int uneven = p->first_stage_layers > 0 || p->last_stage_layers > 0;
	c[0] = (struct rep_cell){ .num = p->count };
	c[1] = (struct rep_cell){ .text = summary };
	for (int k = 0; k < 6; k++)
		c[2 + k] = (struct rep_cell){ .num = v[k] };
	c[8] = (struct rep_cell){ .text = recompute_names[recompute] };
	c[9] = (struct rep_cell){ .num = p->interleave };
	c[10] = (struct rep_cell){ .num = p->first_stage_layers, .missing = !uneven };
	c[11] = (struct rep_cell){ .num = p->last_stage_layers, .missing = !uneven };
	c[12] = (struct rep_cell){ .num = sequence_parallel(p) };
}
