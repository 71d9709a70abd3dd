/*
 * plot_sweep.c - a metric of a what-if sweep against one swept key, a line
 * per combination of the other keys.  See plot_sweep.h.
 */
#include "plot_sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"

#define LEGEND_MAX 14 /* legend entries; the other lines are counted */
#define LABEL_W 7.0   /* px: mean width of a character of a 12 px label */

/* Order of the points of one line: by x. */
static const double *sort_x;
static int by_x(const void *a, const void *b)
{
	double xa = sort_x[*(const size_t *)a], xb = sort_x[*(const size_t *)b];
	return (xa > xb) - (xa < xb);
}

void plot_sweep(struct svg *s, int standalone, const struct plot_sweep *p)
{
	char desc[256];
	snprintf(desc, sizeof(desc), "%zu configurations with a result, %s against %s, "
		 "one line per combination of the other swept keys (%zu).", p->n, p->y_label,
		 p->x_label, p->nseries);
	/* Legend entries name each key ("tp=8, pp=1"): the picture widens
	 * past the panel's legend room to hold the longest in full. */
	size_t longest = 0;
	for (size_t k = 0; k < p->nseries && k < LEGEND_MAX; k++)
		if (strlen(p->series_names[k]) > longest)
			longest = strlen(p->series_names[k]);
	double width = fmax(900, 900 - CHART_LEGEND_W + 18 + LABEL_W * (double)longest + 8);
	svg_begin(s, width, 480, p->title, desc, standalone);
	double xmin = HUGE_VAL, xmax = -HUGE_VAL, ymax = 0;
	for (size_t i = 0; i < p->n; i++) {
		xmin = fmin(xmin, p->x[i]);
		xmax = fmax(xmax, p->x[i]);
		ymax = fmax(ymax, p->y[i]);
	}
	struct chart_axis x = { p->x_label, p->log_x ? CHART_LOG : CHART_LINEAR,
				p->n ? xmin : 0, p->n ? xmax : 1 };
	struct chart_axis y = { p->y_label, CHART_LINEAR, 0, ymax };
	if (!p->x_names)
		chart_axis_nice(&x);
	chart_axis_nice(&y);
	struct chart ch;
	chart_panel(&ch, s, (struct chart_box){ 0, 0, 900, 480 }, p->title, &x, &y, p->x_names ? (p->nx ? p->nx : 1) : 0,
		    p->x_names, 1);

	size_t *idx = malloc((p->n ? p->n : 1) * sizeof(*idx));
	double *lx = malloc((p->n ? p->n : 1) * sizeof(*lx));
	double *ly = malloc((p->n ? p->n : 1) * sizeof(*ly));
	if (!idx || !lx || !ly) {
		s->x.oom = 1;
		goto out;
	}
	size_t drawn = 0; /* lines with a point: colours and legend go by these */
	if (p->legend_title)
		chart_legend_title(&ch, p->legend_title);
	for (size_t k = 0; k < p->nseries; k++) {
		size_t m = 0;
		for (size_t i = 0; i < p->n; i++)
			if (p->series[i] == k)
				idx[m++] = i;
		if (!m)
			continue;
		sort_x = p->x;
		qsort(idx, m, sizeof(*idx), by_x);
		for (size_t j = 0; j < m; j++) {
			lx[j] = p->x[idx[j]];
			ly[j] = p->y[idx[j]];
		}
		int colour = (int)(drawn % CHART_NMARKERS); /* and marker shape */
		chart_line(&ch, m, lx, ly, colour);
		for (size_t j = 0; j < m; j++) {
			char tip[300], xt[32];
			if (p->x_names)
				snprintf(xt, sizeof(xt), "%s", p->x_names[(size_t)lx[j]]);
			else
				snprintf(xt, sizeof(xt), "%.4g", lx[j]);
			snprintf(tip, sizeof(tip), "%s; %s: %.4g", p->series_names[k], xt, ly[j]);
			const char *tips[1] = { tip };
			chart_points(&ch, 1, &lx[j], &ly[j], colour, tips);
		}
		if (drawn < LEGEND_MAX)
			chart_legend_marker(&ch, colour, p->series_names[k]);
		drawn++;
	}
	if (drawn > LEGEND_MAX) {
		char more[64];
		snprintf(more, sizeof(more), "and %zu more lines", drawn - LEGEND_MAX);
		svg_text(s, ch.legend_x, ch.legend_y + 10, SVG_START, 0, "note", more);
	}
out:
	free(idx);
	free(lx);
	free(ly);
}
