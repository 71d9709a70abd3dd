/*
 * plot_estimate.h - the pictures of one run, drawn from the same numbers
 * its tables print: where a step's time goes and what fills memory
 * (estimate), and every operator on the roofline (explain).
 * It starts the SVG document (standalone: a file of its own, or inlined in
 * the HTML report) and draws it whole; the caller ends it with svg_end()
 * (svg.h), which reports a non-finite value or a lack of memory.
 */
#ifndef TC_PLOT_ESTIMATE_H
#define TC_PLOT_ESTIMATE_H

#include "../model/types/estimate_types.h"
#include "../model/types/gpu.h"
#include "../model/types/workload.h"
#include "svg.h"

/* estimate: where a step's time goes, and memory per GPU by part against
 * its capacity. */
void plot_estimate(struct svg *s, int standalone, const struct workload *w,
		   const struct gpu *g, const struct estimate *e);

/* explain: every operator placed on the GPU's roofline (log-log), by
 * category; operators without arithmetic (communication) left out and
 * counted in the description. */
void plot_explain(struct svg *s, int standalone, const struct workload *w,
		  const struct gpu *g, const struct estimate *e,
		  const struct est_workspace *ws);

#endif
