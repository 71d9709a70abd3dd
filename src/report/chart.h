/*
 * chart.h - charts drawn with the SVG writer: panels with axes, ticks and
 * unit-labelled axis titles; bars (grouped or stacked) with whiskers,
 * points, lines, reference lines and a legend.
 *
 * A panel maps data to pixels; callers give values already in the unit
 * their axis label names ("total time (days)").  Formats only: every
 * number comes computed from the model.
 */
#ifndef TC_CHART_H
#define TC_CHART_H

#include <stddef.h>

#include "svg.h"

enum chart_scale { CHART_LINEAR, CHART_LOG };

struct chart_axis {
	const char *label;      /* with its unit, borrowed */
	enum chart_scale scale;
	double min, max;        /* the range shown */
};

/*
 * Round [min, max] outwards to ticks a reader can use: multiples of 1, 2
 * or 5 times a power of ten (linear), whole decades (log).  An empty range
 * is widened; a log axis needs min > 0 (smaller values are raised to
 * max / 10).
 */
void chart_axis_nice(struct chart_axis *a);

/* A time axis in a unit that suits its largest value. */
struct chart_time_unit {
	double per_s;      /* divide seconds by this */
	const char *name;  /* "ms", "s", "min", "h", "days" */
};
struct chart_time_unit chart_time_unit(double max_s);

/* The chart's space, in px: the panel's box. */
struct chart_box {
	double x, y, w, h;
};

struct chart {
	struct svg *svg;              /* borrowed */
	struct chart_box plot;        /* the plot area inside the panel */
	struct chart_axis x, y;
	size_t ncat;                  /* categories along x (0: a value axis) */
	size_t nrows;                 /* categories down y (chart_hpanel), or 0 */
	double legend_x, legend_y;    /* where the next legend entry goes */
	double box_bottom;            /* the panel's lower edge */
};

#define CHART_LEGEND_W 150 /* px kept right of the plot for a legend */

/*
 * Draw a panel in `box`: its title, grid, axes with ticks and labels.
 * With ncat > 0 the x axis holds the categories cat[0..ncat) (x is then
 * ignored); legend: 1 to keep room for chart_legend() on the right.
 */
void chart_panel(struct chart *c, struct svg *s, struct chart_box box,
		 const char *title, const struct chart_axis *x,
		 const struct chart_axis *y, size_t ncat,
		 const char *const *cat, int legend);

/*
 * A panel of horizontal bars (chart_hbar): the categories cat[0..nrows)
 * down the y axis, the first at the top, their names left of it in a
 * margin as wide as the longest; values along x.
 */
void chart_hpanel(struct chart *c, struct svg *s, struct chart_box box,
		  const char *title, const struct chart_axis *x, size_t nrows,
		  const char *const *cat);

/* The bar of row i of a horizontal panel, from 0 (or the axis minimum)
 * to v; whiskers from lo to hi. */
void chart_hbar(struct chart *c, size_t i, double v, int series, const char *tip);
void chart_hwhisker(struct chart *c, size_t i, double lo, double hi, const char *tip);

/* Pixel position of a value on each axis; on a category axis the value
 * is the category's index (its middle). */
double chart_px(const struct chart *c, double v);
double chart_py(const struct chart *c, double v);

/* Pixel position of the middle of category i. */
double chart_cat_x(const struct chart *c, size_t i);

/* Bar k of nk side by side in category i, from 0 (or the axis minimum)
 * to v; with whiskers from lo to hi when lo <= hi. */
void chart_bar(struct chart *c, size_t i, size_t k, size_t nk, double v,
	       int series, const char *tip);
void chart_whisker(struct chart *c, size_t i, size_t k, size_t nk, double lo,
		   double hi, const char *tip);

/* A stacked segment of category i, from base to base + v. */
void chart_stack(struct chart *c, size_t i, double base, double v, int series,
		 const char *tip);

/* Series of points that never share a colour-and-shape pair: colours
 * repeat every SVG_NSERIES series, each time with another marker shape. */
#define CHART_NMARKERS (4 * SVG_NSERIES)

/* Points (tips[j] may be NULL, or tips itself) and a line through them;
 * the points of series k have k's colour and shape (CHART_NMARKERS), the
 * line k's colour. */
void chart_points(struct chart *c, size_t n, const double *x, const double *y,
		  int series, const char *const *tips);
void chart_line(struct chart *c, size_t n, const double *x, const double *y,
		int series);

/* A ring around (x, y): a chosen point. */
void chart_mark(struct chart *c, double x, double y, const char *tip);

/* A dashed horizontal line at y, labelled at its right end. */
void chart_ref_y(struct chart *c, double y, const char *label);
/* A dashed line along y = x (predicted equals measured). */
void chart_ref_diagonal(struct chart *c, const char *label);

/* One legend entry: a swatch of the series (or of "mark" for series < 0)
 * and its label. */
void chart_legend(struct chart *c, int series, const char *label);
/* One legend entry with the marker of chart_points' series. */
void chart_legend_marker(struct chart *c, int series, const char *label);
/* How many more legend entries fit above the panel's lower edge. */
int chart_legend_room(const struct chart *c);
/* The legend's title (what its entries are values of), above them; a
 * line for each name of a list "a, b". */
void chart_legend_title(struct chart *c, const char *title);

#endif
