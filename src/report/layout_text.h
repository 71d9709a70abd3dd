/*
 * layout_text.h - a chosen parallel layout as the reports show it: the
 * one-cell summary that compare and sweep print ("tp1 pp1 dp64 z1 mb2
 * none"; vision and recommender plans: "dp8, 256 per GPU"), and the fields
 * every command's JSON and CSV give it (docs/output-format.md).
 */
#ifndef TC_LAYOUT_TEXT_H
#define TC_LAYOUT_TEXT_H

#include <stddef.h>

#include "../model/estimate.h"
#include "json.h"

/* Write the layout estimate *e ran for workload *w into buf; returns buf. */
const char *rep_layout_text(char *buf, size_t len, const struct workload *w,
			    const struct estimate *e);

/* The layout's fields of the output contract, in order: count, tp, pp, dp,
 * ep, zero, micro_batch, recompute, interleave, sequence_parallel. */
#define REP_LAYOUT_FIELDS 10
#define REP_LAYOUT_CELL 16
extern const char *const rep_layout_field_names[REP_LAYOUT_FIELDS];

/* Write plan *p's layout fields into the open JSON object of j; recompute
 * is the workload's enum recompute. */
void rep_layout_json(struct rep_json *j, const struct plan *p, int recompute);

/* The same fields as CSV cells, into c[0..REP_LAYOUT_FIELDS-1]. */
void rep_layout_cells(char c[][REP_LAYOUT_CELL], const struct plan *p, int recompute);

#endif
