/*
 * plot_sweep.h - the chart of `sweep`, drawn from the same rows it
 * writes: one metric against one swept key.
 * It starts the SVG document (standalone: a file of its own, or inlined in
 * the HTML report) and draws it whole; the caller ends it with svg_end()
 * (svg.h), which reports a non-finite value or a lack of memory.
 */
#ifndef TC_PLOT_SWEEP_H
#define TC_PLOT_SWEEP_H

#include <stddef.h>

#include "svg.h"

/* sweep: one metric against one swept key, one line per combination of
 * the other keys.  Point i is at (x[i], y[i]) on line series[i]; with
 * x_names the x axis holds those nx categories and x[i] is an index into
 * them. */
struct plot_sweep {
	const char *title;
	const char *x_label, *y_label;     /* with their units */
	const double *x, *y;
	const size_t *series;
	size_t n;
	const char *const *x_names;        /* NULL: a value axis */
	size_t nx;
	const char *const *series_names;   /* nseries of them */
	const char *legend_title;          /* the keys the names are values of, or NULL */
	size_t nseries;
	int log_x;
};
void plot_sweep(struct svg *s, int standalone, const struct plot_sweep *p);

#endif
