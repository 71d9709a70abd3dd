/*
 * compare_report.h - what `traincost compare` found, in every format
 * (compare_report.c).
 */
#ifndef TC_COMPARE_REPORT_H
#define TC_COMPARE_REPORT_H

#include <stdio.h>

#include "../model/analyses/calibrate.h"
#include "../model/families/estimate.h"
#include "../model/money/run_cost.h"
#include "../model/analyses/uncertainty.h"

/* One GPU type's outcome. */
struct rep_compare_row {
	struct gpu g;
	int ok;                 /* a plan fits */
	char why[256];          /* when not */
	struct workload w;      /* the chosen plan */
	struct estimate e;
	struct run_cost cost;
	int meets;              /* meets the deadline, when one is given */
	/* What the row is judged and ranked on (the command's): the
	 * expected wall clock and its bill, or the steady state with
	 * --steady-state; judged_usd only when priced. */
	double judged_s, judged_usd;
	int unc_ok;             /* --uncertainty: unc holds its samples */
	struct unc_result unc;
	char unc_why[256];      /* --uncertainty: why not, when not */
};

/* What compare reports: the GPU types' outcomes, sorted, and what they
 * were asked for. */
struct rep_compare_results {
	const struct workload *w;
	enum cost_kind kind;           /* how the offers are bought */
	double preempt_per_h;          /* spot preemptions a node-hour (kind COST_SPOT) */
	int steady_state;              /* --steady-state: judged at steady state */
	const struct price_unjoin *unjoin; /* cluster products that cannot join, or NULL */
	const struct cal_overlay *cal; /* the calibration, if any */
	const struct rep_compare_row *rows;
	int n;
	int count;                     /* GPUs per type, without a deadline */
	double deadline_s;             /* 0: none */
	const struct unc_spec *unc;    /* NULL: no --uncertainty */
};

/* The results res written in fmt: JSON as the command's document, CSV a
 * row per GPU type, the table and Markdown a sentence on what was
 * compared, the table, the uncertainty's table with --uncertainty, the
 * trade-off in words and the spot assumptions.  Returns 0, or -1 on a
 * failed allocation or a non-finite number (never printed). */
int rep_compare_report(FILE *out, const char *fmt, const struct rep_compare_results *res);

struct rep_col;
/* compare's columns, those of the catalog's fields as it describes them
 * (out_fields.h), into cols (room for REP_ROWS_MAX_COLS).  Returns their
 * count. */
int rep_compare_cols(struct rep_col *cols);

#endif
