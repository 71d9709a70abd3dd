/*
 * validate_campaigns_report.c - `traincost validate --campaigns` in every
 * format (validate_campaigns_report.h): one row a campaign, the fields it
 * shares with validate's other sets from the catalog (out_fields.h).
 */
#include "validate_campaigns_report.h"

#include <math.h>
#include <string.h>

#include "json.h"
#include "out_fields.h"
#include "rows.h"

enum { V_ID, V_GPUS, V_OPERATION, V_STEADY, V_PREDICTED, V_OBSERVED, V_ERROR, V_GOODPUT,
       V_OBSERVED_RATIO, V_INTERRUPTIONS, V_INTERVAL, V_SOURCE, V_NOTE, V_NCOLS };
static const struct rep_col spec[V_NCOLS] = {
	[V_ID] = REP_FIELD_COL("case", REP_VIEW_ALL, 0),
	[V_GPUS] = { "gpus", "GPUs", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_ALL, 0 },
	[V_OPERATION] = REP_FIELD_COL("operation", REP_VIEW_ALL, 0),
	[V_STEADY] = { "steady_s", "steady", REP_COL_DURATION, 0, 0, NULL, NULL, NULL, REP_CSV_SIG6,
		       REP_VIEW_ALL, 0 },
	[V_PREDICTED] = { "predicted_wall_s", "predicted", REP_COL_DURATION, 0, 0, NULL, NULL, NULL,
			  REP_CSV_SIG6, REP_VIEW_ALL, 0 },
	[V_OBSERVED] = { "observed_wall_s", "observed", REP_COL_DURATION, 0, 0, NULL, NULL, NULL,
			 REP_CSV_SIG6, REP_VIEW_ALL, 0 },
	[V_ERROR] = REP_FIELD_COL("error_frac", REP_VIEW_ALL, 0),
	[V_GOODPUT] = REP_FIELD_COL("goodput_frac", REP_VIEW_ALL, 0),
	[V_OBSERVED_RATIO] = { "observed_goodput_frac", "observed", REP_COL_NUM, 100, 1, " %", NULL,
			       NULL, REP_CSV_SIG6, REP_VIEW_ALL, 0 },
	[V_INTERRUPTIONS] = REP_FIELD_COL("interruptions", REP_VIEW_ALL, 0),
	[V_INTERVAL] = REP_FIELD_COL("interval_s", REP_VIEW_ALL, 0),
	[V_SOURCE] = REP_FIELD_COL("source", REP_VIEW_DATA, 0),
	[V_NOTE] = REP_TEXT_COL("note", "note", REP_VIEW_DATA, 0),
};

/* The runs r[0..n) into *rows under cols (spec as the catalog describes
 * it, V_NCOLS of them, which must outlive the rows), and their mean and
 * worst absolute error. */
static void set_rows(const struct rep_campaign_run *r, size_t n, struct rep_col *cols,
		     struct rep_rows *rows, double *mean, double *worst)
{
	rep_rows_init(rows, cols, rep_fields_copy(cols, spec, V_NCOLS));
	*mean = *worst = 0;
	for (size_t i = 0; i < n; i++) {
		const struct campaign *c = r[i].c;
		struct rep_cell v[V_NCOLS] = {
			[V_ID] = { .text = r[i].id }, [V_GPUS] = { .num = r[i].gpus },
			[V_OPERATION] = { .text = camp_operation_names[c->in.operation] },
			[V_STEADY] = { .num = r[i].steady_s }, [V_PREDICTED] = { .num = c->wall_s },
			[V_OBSERVED] = { .num = r[i].wall_s }, [V_ERROR] = { .num = r[i].error_frac },
			[V_GOODPUT] = { .num = c->goodput_frac },
			[V_OBSERVED_RATIO] = { .num = r[i].steady_s / r[i].wall_s },
			[V_INTERRUPTIONS] = { .num = c->interruptions },
			[V_INTERVAL] = { .num = c->interval_s },
			[V_SOURCE] = { .text = r[i].source }, [V_NOTE] = { .text = r[i].note },
		};
		rep_rows_add(rows, v);
		*mean += fabs(r[i].error_frac) / (double)n;
		*worst = fmax(*worst, fabs(r[i].error_frac));
	}
}

int rep_validate_campaigns(FILE *out, const char *fmt, const char *source, const char *as_of,
			   const struct rep_campaign_run *r, size_t n)
{
	struct rep_col cols[V_NCOLS];
	struct rep_rows rows;
	double mean, worst;
	int rc;
	set_rows(r, n, cols, &rows, &mean, &worst);
	if (!strcmp(fmt, "json")) {
		struct rep_json j;
		rep_json_doc_begin(&j, out, "validate");
		rep_json_str(&j, "set", "campaigns");
		rep_json_str(&j, "source", source);
		rep_json_str(&j, "as_of", as_of);
		rc = rep_rows_json(&rows, &j, "cases");
		rep_json_num(&j, "mean_abs_error_frac", mean);
		rep_json_num(&j, "worst_abs_error_frac", worst);
		rep_json_obj_end(&j);
		rc |= rep_json_finish(&j);
	} else {
		int flat = !strcmp(fmt, "csv");
		if (!flat)
			fprintf(out, "Wall clock of training campaigns: the campaign model "
				"(docs/model.md, section 9) on each run's stated steady state and "
				"operation, against its observed wall clock (%s)\n\n", source);
		rc = rep_rows_print(&rows, out, fmt);
		if (!flat)
			fprintf(out, "\nwall-clock error over %zu campaigns: mean %.1f %%, "
				"worst %.1f %%\n", n, 100 * mean, 100 * worst);
	}
	rep_rows_release(&rows);
	return rc ? -1 : 0;
}

void rep_validate_campaigns_line(FILE *out, const struct rep_campaign_run *r, size_t n)
{
	struct rep_col cols[V_NCOLS];
	struct rep_rows rows;
	double mean, worst;
	set_rows(r, n, cols, &rows, &mean, &worst);
	rep_rows_release(&rows);
	fprintf(out, "\nwall clock of %zu training campaigns: mean error %.1f %%, worst %.1f %% "
		"(traincost validate --campaigns)\n", n, 100 * mean, 100 * worst);
}
