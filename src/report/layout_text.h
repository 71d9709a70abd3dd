/*
 * layout_text.h - the one-cell summary of a chosen parallel layout that
 * compare and sweep print ("tp1 pp1 dp64 z1 mb2 none"; vision and
 * recommender plans: "dp8, 256 per GPU").
 */
#ifndef TC_LAYOUT_TEXT_H
#define TC_LAYOUT_TEXT_H

#include <stddef.h>

#include "../model/estimate.h"

/* Write the layout estimate *e ran for workload *w into buf; returns buf. */
const char *rep_layout_text(char *buf, size_t len, const struct workload *w,
			    const struct estimate *e);

#endif
