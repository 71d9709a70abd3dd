/*
 * estimate_record.h - the fields of one estimate, described once and
 * written as a table, CSV, JSON or Markdown through rows.h and record.h
 * (docs/output-format.md, `traincost estimate`); the table and Markdown
 * word the fields for people (estimate_words.h).
 */
#ifndef TC_ESTIMATE_RECORD_H
#define TC_ESTIMATE_RECORD_H

#include <stdio.h>

#include "../model/families/estimate.h"
#include "../model/money/run_cost.h"
#include "../model/analyses/uncertainty.h"

/* Write the estimate, its cost and its uncertainty (either NULL: none) in
 * `fmt` (table, json, csv, md).  Returns 0, or -1 if a non-finite number
 * reached the report (an internal error). */
int rep_estimate(FILE *f, const char *fmt, const struct workload *w,
		 const struct gpu *g, const struct estimate *e,
		 const struct run_cost *c, const struct unc_result *u);

/* Write the estimate and its cost (NULL: none) as CSV: a fixed header with
 * units in the names, then one row.  Returns 0, or -1 on a failed
 * allocation or a non-finite number. */
int rep_estimate_csv(FILE *f, const struct workload *w, const struct gpu *g,
		     const struct estimate *e, const struct run_cost *c);

/* Write the estimate and its cost (NULL: none) as Markdown: a heading,
 * the record's fields as people read them, then where the step's time
 * goes.  Returns 0, or -1 as above. */
int rep_estimate_md(FILE *f, const struct workload *w, const struct gpu *g,
		    const struct estimate *e, const struct run_cost *c);

/* Write the estimate, its cost and its uncertainty (either NULL: none) as
 * the table people read: the record's fields worded as lines in sections
 * (rep_record_print_sheet), then the warnings.  Returns 0, or -1 as
 * above. */
int rep_estimate_table(FILE *f, const struct workload *w, const struct gpu *g,
		       const struct estimate *e, const struct run_cost *c,
		       const struct unc_result *u);

/* Write the estimate, its cost and its uncertainty (either NULL: none) as
 * the JSON document of `estimate`.  Returns 0, or -1 as above. */
int rep_estimate_json(FILE *f, const struct workload *w, const struct gpu *g,
		      const struct estimate *e, const struct run_cost *c,
		      const struct unc_result *u);

#endif
