/*
 * sweep_cells.c - the columns of `traincost sweep`'s rows and the cells of
 * a row's results (sweep_cells.h).  CSV and JSON carry the values in the
 * contract's units, to six significant digits; the table and Markdown
 * show the times, GPU-hours, memory and money as people read them.
 */
#include "sweep_cells.h"

#include <string.h>

#include "../report/out_fields.h"
#include "../util/units.h"

/* A field of the catalog (out_fields.h), in every format. */
#define FIELD_COL(name) REP_FIELD_COL(name, REP_VIEW_ALL, 0)
static const struct rep_col result_cols[SR_COLS] = {
	[SR_STEP] = FIELD_COL("step_time_s"),
	[SR_TOTAL] = FIELD_COL("total_time_s"),
	[SR_WALL] = FIELD_COL("wall_time_s"),
	[SR_GPU_HOURS] = FIELD_COL("gpu_hours"),
	[SR_MFU] = FIELD_COL("mfu_frac"),
	[SR_MEMORY] = REP_FIELD_COL("memory_per_gpu_bytes", REP_VIEW_DATA, 0),
	/* the same field in words for people (tc_fmt_bytes), under its title */
	[SR_MEMORY_WORDS] = { "memory_per_gpu_bytes", NULL, REP_COL_FIGURE, 0, 0, NULL,
			      NULL, NULL, 0, REP_VIEW_TEXT, 0 },
	[SR_FITS] = FIELD_COL("fits"),
	[SR_LIMITING] = FIELD_COL("limiting"),
	[SR_PROVIDER] = FIELD_COL("provider"),
	[SR_INSTANCE] = FIELD_COL("instance"),
	[SR_REGION] = FIELD_COL("region"),
	[SR_COST] = FIELD_COL("cost_usd"),
	/* what the cost is billed on (rep_basis_name) */
	[SR_BASIS] = REP_TEXT_COL("basis", "basis", REP_VIEW_DATA, 0),
	/* Most rows have nothing to say: no "-" at the end of their line. */
	[SR_REASON] = { "reason", "reason", REP_COL_TEXT, 0, 0, NULL, "", NULL, 0, REP_VIEW_ALL, 0 },
};
#undef FIELD_COL

static const struct rep_col config_col =
	{ "config", "config", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_ALL, 0 };
static const struct rep_col layout_col = REP_TEXT_COL("layout", "layout", REP_VIEW_ALL, 0);
static const struct rep_col calibration_col =
	REP_TEXT_COL("calibration", "calibration", REP_VIEW_ALL, 0);

int sweep_cols(const struct sweep *sw, int calibration, struct rep_col *cols)
{
	int n = 0;
	cols[n++] = config_col;
	/* JSON gathers the varied values in "inputs", each under its path. */
	for (int k = 0; k < sw->nkeys; k++)
		cols[n++] = (struct rep_col)REP_TEXT_COL(sw->key[k].path, sw->key[k].path,
							  REP_VIEW_ALL, 0);
	for (int k = 0; k < sw->nkeys; k++)
		cols[1 + k].group = "inputs";
	memcpy(cols + n, result_cols, sizeof(result_cols));
	rep_fields_apply(cols + n, SR_COLS);
	/* the words keep their kind: only the title is the field's */
	cols[n + SR_MEMORY_WORDS].kind = REP_COL_FIGURE;
	n += SR_COLS;
	if (sw->layout_auto)
		cols[n++] = layout_col;
	if (calibration)
		cols[n++] = calibration_col;
	return n;
}

void sweep_result_cells(struct rep_cell *c, const struct sweep_result *res, int words,
			struct sweep_words *w)
{
	const struct estimate *e = res->e;
	const struct cost_choice *ch = res->cheapest;

	memset(c, 0, SR_COLS * sizeof(*c));
	for (int k = SR_STEP; k <= SR_LIMITING; k++)
		c[k].missing = !e;
	for (int k = SR_PROVIDER; k <= SR_BASIS; k++)
		c[k].missing = !ch;
	c[SR_REASON] = (struct rep_cell){ .text = res->reason, .missing = !res->reason[0] };
	if (e) {
		c[SR_STEP].num = e->step_time_s;
		c[SR_TOTAL].num = e->total_time_s;
		c[SR_WALL].num = e->campaign.wall_s;
		c[SR_GPU_HOURS].num = e->gpu_hours;
		c[SR_MFU].num = e->mfu_frac;
		c[SR_MEMORY].num = e->memory_per_gpu_bytes;
		c[SR_FITS].num = e->fits;
		c[SR_LIMITING].text = limiter_names[e->limiting];
		/* The words cost a printf: only for the formats that show them. */
		if (words)
			c[SR_MEMORY_WORDS].text = tc_fmt_bytes(e->memory_per_gpu_bytes, w->memory,
							       sizeof(w->memory));
	}
	if (ch) {
		c[SR_PROVIDER].text = ch->table->provider;
		c[SR_INSTANCE].text = ch->offer->instance;
		c[SR_REGION].text = ch->offer->region;
		c[SR_COST].num = res->cost_usd;
		c[SR_BASIS].text = res->basis;
	}
}
