/*
 * plan_report.h - what `traincost plan` found, in every format
 * (plan_report.c).
 */
#ifndef TC_PLAN_REPORT_H
#define TC_PLAN_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "../model/analyses/calibrate.h"
#include "../model/analyses/planner.h"

/* The answer of a plan search, computed once for every format. */
struct plan_report {
	const struct workload *w;
	const struct gpu *gpus;        /* the GPU types searched, ngpus of them */
	int ngpus, max_gpus;
	const struct plan_point *pts;  /* every plan that fits, in ranked order */
	size_t npts;
	const int *front;              /* front[i]: pts[i] is on the Pareto front */
	enum cost_kind kind;           /* how the offers are bought */
	const struct run_cost_in *spot; /* the spot assumptions; NULL off spot */
	int spot_unfinished;           /* spot plans left out: they never finish */
	const struct cal_overlay *cal; /* the calibration (no measurements: none) */
	enum plan_risk risk;
	double deadline_s, budget_usd; /* the targets; 0: not given */
	long best;                     /* planner_select's answer; -1: none */
	size_t nboth;                  /* plans meeting both targets */
	const struct unc_spec *unc;    /* the sampling; NULL without --uncertainty */
	size_t nsampled;               /* plans sampled */
	int steady_state;              /* --steady-state: times and costs at steady
					  state, else on the expected wall clock */
};

/*
 * Write r in fmt from one description of a plan's columns: JSON as the
 * command's document (the plans that meet the targets and the Pareto
 * front, each plan with its samples), CSV both lists as one table under a
 * `section` column, the table and Markdown the answer and the front as a
 * table each, with what they need said in words.  Returns 0, or -1 on a
 * failed allocation or a non-finite number (never printed).
 */
int rep_plan_report(FILE *out, const char *fmt, const struct plan_report *r);

struct rep_col;
/* plan's columns, those of the catalog's fields as it describes them
 * (out_fields.h), into cols (room for REP_ROWS_MAX_COLS).  Returns their
 * count. */
int rep_plan_cols(struct rep_col *cols);

#endif
