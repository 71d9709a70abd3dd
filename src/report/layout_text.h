/*
 * layout_text.h - a chosen parallel layout as the reports show it: the
 * one-cell summary that compare and sweep print ("tp1 pp1 dp64 z1 mb2
 * none"; vision and recommender plans: "dp8, 256 images/GPU"), and the columns
 * of the fields every command's JSON and CSV give it
 * (docs/output-format.md).
 */
#ifndef TC_LAYOUT_TEXT_H
#define TC_LAYOUT_TEXT_H

#include <stddef.h>

#include "../model/families/estimate.h"
#include "rows.h"

/* Write the layout estimate *e ran for workload *w into buf; returns buf.
 * words: for a table people read, which names what a vision or recommender
 * GPU takes per step ("256 images/GPU"); 0 keeps the "256 per GPU" that
 * sweep's CSV and JSON have always written (their values are a contract). */
const char *rep_layout_text(char *buf, size_t len, const struct workload *w,
			    const struct estimate *e, int words);

/*
 * The layout as columns of rows (rows.h), in the contract's order:
 * count, the one-cell summary (the table's alone), tp to interleave,
 * first_stage_layers and last_stage_layers (JSON's alone, given where the
 * stages are uneven) and sequence_parallel.  The table shows the count
 * and the summary, CSV and JSON the fields; a row without a plan leaves
 * them all out of its JSON object.  The CSV header and the JSON fields
 * of the layout come from these columns alone (estimate puts them in the
 * group "plan").
 */
#define REP_LAYOUT_INT(name, view) \
	{ name, name, REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, view, 1 }
#define REP_LAYOUT_COLS \
	REP_LAYOUT_INT("count", REP_VIEW_ALL), \
	REP_TEXT_COL("layout", "layout", REP_VIEW_TEXT, 1), \
	REP_LAYOUT_INT("tp", REP_VIEW_DATA), \
	REP_LAYOUT_INT("pp", REP_VIEW_DATA), \
	REP_LAYOUT_INT("dp", REP_VIEW_DATA), \
	REP_LAYOUT_INT("ep", REP_VIEW_DATA), \
	REP_LAYOUT_INT("zero", REP_VIEW_DATA), \
	REP_LAYOUT_INT("micro_batch", REP_VIEW_DATA), \
	REP_TEXT_COL("recompute", "recompute", REP_VIEW_DATA, 1), \
	REP_LAYOUT_INT("interleave", REP_VIEW_DATA), \
	REP_LAYOUT_INT("first_stage_layers", REP_VIEW_JSON), \
	REP_LAYOUT_INT("last_stage_layers", REP_VIEW_JSON), \
	{ "sequence_parallel", "sequence_parallel", REP_COL_BOOL, 0, 0, NULL, NULL, NULL, 0, \
	  REP_VIEW_DATA, 1 }
#define REP_LAYOUT_NCOLS 13
/* Room for the summary, with its NUL. */
#define REP_LAYOUT_TEXT_LEN 96

/* The cells of REP_LAYOUT_COLS for the layout estimate *e ran for
 * workload *w, into c[0..REP_LAYOUT_NCOLS-1]; the summary is written in
 * text, of REP_LAYOUT_TEXT_LEN bytes. */
void rep_layout_row(struct rep_cell *c, char *text, const struct workload *w,
		    const struct estimate *e);
/* The same cells for layout *p with activation recompute `recompute`
 * (enum recompute) and the summary given (borrowed): for rows that word
 * the layout their own way (plan's "tp 2 pp 1 dp 32 zero 3 mb 1 rec none
 * v 8 sp"). */
void rep_layout_plan_row(struct rep_cell *c, const char *summary, const struct plan *p,
			 int recompute);

#endif
