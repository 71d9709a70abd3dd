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

const char *const rep_layout_field_names[REP_LAYOUT_FIELDS] = {
	"count", "tp", "pp", "dp", "ep", "zero", "micro_batch", "recompute",
	"interleave", "sequence_parallel",
};

/* Sequence parallelism splits the tensor-parallel group's activations: with
 * tp 1 there is nothing to split, whatever the plan asked. */
static int sequence_parallel(const struct plan *p)
{
	return p->sequence_parallel && p->tp > 1;
}

/* The layout's cells and the columns a format shows, for the writers that
 * take the layout alone (estimate's JSON object and CSV fields). */
static const struct rep_col layout_cols[] = { REP_LAYOUT_COLS };

void rep_layout_json(struct rep_json *j, const struct plan *p, int recompute)
{
	struct rep_cell c[REP_LAYOUT_NCOLS];

	rep_layout_plan_row(c, "", p, recompute);
	for (int k = 0; k < REP_LAYOUT_NCOLS; k++)
		if (rep_view_shows(layout_cols[k].view, "json") && !c[k].missing)
			rep_cell_json(j, &layout_cols[k], &c[k]);
}

void rep_layout_cells(char c[][REP_LAYOUT_CELL], const struct plan *p, int recompute)
{
	struct rep_cell v[REP_LAYOUT_NCOLS];
	int n = 0;

	rep_layout_plan_row(v, "", p, recompute);
	for (int k = 0; k < REP_LAYOUT_NCOLS && n < REP_LAYOUT_FIELDS; k++) {
		char buf[REP_LAYOUT_CELL];
		const char *t;

		if (!rep_view_shows(layout_cols[k].view, "csv"))
			continue;
		t = rep_cell_text(&layout_cols[k], &v[k], "csv", buf, sizeof(buf));
		snprintf(c[n++], REP_LAYOUT_CELL, "%s", t ? t : "");
	}
}

void rep_layout_row(struct rep_cell *c, char *text, const struct workload *w,
		    const struct estimate *e)
{
	rep_layout_plan_row(c, rep_layout_text(text, REP_LAYOUT_TEXT_LEN, w, e), &e->plan,
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
	c[8] = (struct rep_cell){ .text = recompute_text[recompute] };
	c[9] = (struct rep_cell){ .num = p->interleave };
	c[10] = (struct rep_cell){ .num = p->first_stage_layers, .missing = !uneven };
	c[11] = (struct rep_cell){ .num = p->last_stage_layers, .missing = !uneven };
	c[12] = (struct rep_cell){ .num = sequence_parallel(p) };
}
