/*
 * chart.c - panels, axes and marks on top of the SVG writer (see chart.h).
 */
#include "chart.h"

#include "numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Panel margins, px: room for the title, tick labels and axis titles. */
#define TITLE_H 28
#define LEFT_W 76
#define RIGHT_W 18
#define BOTTOM_VALUE_H 48
#define BOTTOM_CAT_H 78
#define TICK_LEN 5
#define MAX_TICKS 60
#define CHAR_W 6.5 /* px: mean width of a tick-label character */

/* 1, 2 or 5 times a power of ten, at least x (x > 0). */
static double nice_step(double x)
{
	double e = pow(10, floor(log10(x)));
	double f = x / e;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * e;
}

void chart_axis_nice(struct chart_axis *a)
{
	if (!isfinite(a->min) || !isfinite(a->max)) {
		a->min = a->scale == CHART_LOG ? 1 : 0;
		a->max = a->scale == CHART_LOG ? 10 : 1;
	}
	if (a->scale == CHART_LOG) {
		if (a->max <= 0)
			a->max = 1;
		if (a->min <= 0 || a->min > a->max)
			a->min = a->max / 10;
		a->min = pow(10, floor(log10(a->min)));
		a->max = pow(10, ceil(log10(a->max)));
		if (a->max <= a->min)
			a->max = a->min * 10;
		return;
	}
	if (!(a->max > a->min)) {
		double d = a->max != 0 ? fabs(a->max) * 0.1 : 1;
		int nonneg = a->min >= 0;
		a->min -= d;
		a->max += d;
		if (nonneg && a->min < 0)
			a->min = 0;
	}
	double step = nice_step((a->max - a->min) / 5);
	a->min = floor(a->min / step) * step;
	a->max = ceil(a->max / step) * step;
}

struct chart_time_unit chart_time_unit(double max_s)
{
	static const struct chart_time_unit u[] = {
		{ 1e-3, "ms" }, { 1, "s" }, { 60, "min" }, { 3600, "h" }, { 86400, "days" },
	};
	/* The largest unit that keeps the biggest value at 2 or more. */
	size_t k = 0;
	while (k + 1 < sizeof(u) / sizeof(u[0]) && max_s >= 2 * u[k + 1].per_s)
		k++;
	return u[k];
}

/* Where v sits along the axis, 0 at min and 1 at max. */
static double axis_frac(const struct chart_axis *a, double v)
{
	if (a->scale == CHART_LOG) {
		if (!(v > 0))
			v = a->min; /* nothing of ours is drawn at or below 0 on a log axis */
		return (log10(v) - log10(a->min)) / (log10(a->max) - log10(a->min));
	}
	return (v - a->min) / (a->max - a->min);
}

double chart_px(const struct chart *c, double v)
{
	if (c->ncat) /* v is a category's index */
		return c->plot.x + (v + 0.5) * c->plot.w / (double)c->ncat;
	return c->plot.x + axis_frac(&c->x, v) * c->plot.w;
}

double chart_py(const struct chart *c, double v)
{
	return c->plot.y + c->plot.h - axis_frac(&c->y, v) * c->plot.h;
}

double chart_cat_x(const struct chart *c, size_t i)
{
	return c->plot.x + ((double)i + 0.5) * c->plot.w / (double)(c->ncat ? c->ncat : 1);
}

/* A tick label: as many decimals as the step needs. */
static void fmt_tick(char *buf, size_t len, double v, double step)
{
	if (fabs(v) < step * 1e-9)
		v = 0; /* no "-0" or "1e-17" from the accumulated step */
	static const struct { double k; const char *sym; } si[] = {
		{ 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" },
	};
	for (size_t i = 0; i < sizeof(si) / sizeof(si[0]); i++)
		if (fabs(v) >= si[i].k && fabs(v) < 1e15) {
			/* 2.5M rather than 2,500,000: fits beside the axis */
			snprintf(buf, len, "%g%s", v / si[i].k, si[i].sym);
			return;
		}
	if (fabs(v) >= 1e4 && step >= 1) {
		rep_fmt_count(v, buf, (int)len); /* 15,000: digits a reader can count */
		return;
	}
	if (v != 0 && (fabs(v) >= 1e15 || fabs(v) < 1e-3)) {
		snprintf(buf, len, "%.3g", v);
		return;
	}
	int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	snprintf(buf, len, "%.*f", dec, v);
}

/* Tick values of an axis; returns their number (at most MAX_TICKS). */
static size_t ticks(const struct chart_axis *a, double *v, double *step)
{
	size_t n = 0;
	if (a->scale == CHART_LOG) {
		int lo = (int)lround(log10(a->min)), hi = (int)lround(log10(a->max));
		int every = (hi - lo + 7) / 8; /* at most about 8 labelled decades */
		if (every < 1)
			every = 1;
		for (int k = lo; k <= hi && n < MAX_TICKS; k += every) {
			v[n] = pow(10, k);
			step[n++] = pow(10, k);
		}
		return n;
	}
	double st = nice_step((a->max - a->min) / 5);
	for (int k = 0; n < MAX_TICKS; k++) {
		double t = a->min + k * st;
		if (t > a->max + st * 1e-6)
			break;
		v[n] = t;
		step[n++] = st;
	}
	return n;
}

static void y_axis(struct chart *c)
{
	struct svg *s = c->svg;
	double v[MAX_TICKS], st[MAX_TICKS];
	size_t n = ticks(&c->y, v, st);
	char buf[32];
	for (size_t i = 0; i < n; i++) {
		double y = chart_py(c, v[i]);
		svg_line(s, c->plot.x, y, c->plot.x + c->plot.w, y, "grid");
		svg_line(s, c->plot.x - TICK_LEN, y, c->plot.x, y, "axis");
		fmt_tick(buf, sizeof(buf), v[i], st[i]);
		svg_text(s, c->plot.x - TICK_LEN - 3, y + 4, SVG_END, 0, "tick", buf);
	}
	svg_text(s, c->plot.x - LEFT_W + 16, c->plot.y + c->plot.h / 2, SVG_MIDDLE, -90,
		 "label", c->y.label);
}

static void x_value_axis(struct chart *c)
{
	struct svg *s = c->svg;
	double v[MAX_TICKS], st[MAX_TICKS];
	size_t n = ticks(&c->x, v, st);
	char buf[32];
	double base = c->plot.y + c->plot.h;
	for (size_t i = 0; i < n; i++) {
		double x = chart_px(c, v[i]);
		svg_line(s, x, c->plot.y, x, base, "grid");
		svg_line(s, x, base, x, base + TICK_LEN, "axis");
		fmt_tick(buf, sizeof(buf), v[i], st[i]);
		svg_text(s, x, base + TICK_LEN + 13, SVG_MIDDLE, 0, "tick", buf);
	}
	svg_text(s, c->plot.x + c->plot.w / 2, base + BOTTOM_VALUE_H - 8, SVG_MIDDLE, 0,
		 "label", c->x.label);
}

/* Length of the longest category name, in characters (bytes: close
 * enough for the ids and names we draw). */
static size_t longest_name(const char *const *cat, size_t n)
{
	size_t longest = 0;
	for (size_t i = 0; i < n; i++)
		if (strlen(cat[i]) > longest)
			longest = strlen(cat[i]);
	return longest;
}

/* Slanted names when they would run into their neighbours. */
static int slanted(const struct chart *c, const char *const *cat)
{
	return (double)longest_name(cat, c->ncat) * CHAR_W > c->plot.w / (double)c->ncat;
}

static void x_cat_axis(struct chart *c, const char *const *cat)
{
	struct svg *s = c->svg;
	double base = c->plot.y + c->plot.h;
	int slant = slanted(c, cat);
	for (size_t i = 0; i < c->ncat; i++) {
		double x = chart_cat_x(c, i);
		svg_line(s, x, base, x, base + TICK_LEN, "axis");
		if (slant)
			svg_text(s, x + 4, base + TICK_LEN + 12, SVG_END, -35, "tick", cat[i]);
		else
			svg_text(s, x, base + TICK_LEN + 13, SVG_MIDDLE, 0, "tick", cat[i]);
	}
	if (c->x.label)
		svg_text(s, c->plot.x + c->plot.w / 2, c->box_bottom - 6, SVG_MIDDLE, 0,
			 "label", c->x.label);
}

/* A panel whose plot area is placed: the legend's place, the panel's
 * group and its title. */
static void panel_open(struct chart *c, struct chart_box box, const char *title)
{
	c->box_bottom = box.y + box.h;
	c->legend_x = c->plot.x + c->plot.w + 14;
	c->legend_y = c->plot.y + 4;
	svg_group_begin(c->svg, "panel");
	svg_text(c->svg, box.x + 8, box.y + 18, SVG_START, 0, "title", title);
}

/* The axis lines along the plot area's left and lower edges; the group
 * closed. */
static void panel_close(struct chart *c)
{
	double bx = c->plot.x, by = c->plot.y + c->plot.h;
	svg_line(c->svg, bx, c->plot.y, bx, by, "axis");
	svg_line(c->svg, bx, by, bx + c->plot.w, by, "axis");
	svg_group_end(c->svg);
}

/* Top edge and height of the bar of row i of a horizontal panel. */
static void row_slot(const struct chart *c, size_t i, double *top, double *h)
{
	double rh = c->plot.h / (double)(c->nrows ? c->nrows : 1);
	*h = rh * 0.7;
	*top = c->plot.y + (double)i * rh + (rh - *h) / 2;
}

void chart_panel(struct chart *c, struct svg *s, struct chart_box box,
		 const char *title, const struct chart_axis *x,
		 const struct chart_axis *y, size_t ncat,
		 const char *const *cat, int legend)
{
	memset(c, 0, sizeof(*c));
	c->svg = s;
	c->ncat = ncat;
	c->y = *y;
	if (x)
		c->x = *x;
	c->plot.x = box.x + LEFT_W;
	c->plot.y = box.y + TITLE_H;
	c->plot.w = box.w - LEFT_W - RIGHT_W - (legend ? CHART_LEGEND_W : 0);
	double bottom = ncat ? BOTTOM_CAT_H : BOTTOM_VALUE_H;
	if (ncat && c->plot.w > 0 && slanted(c, cat)) {
		/* sin 35 degrees of the longest name, and room for the axis title */
		double need = (double)longest_name(cat, ncat) * CHAR_W * 0.574 + 40;
		if (need > bottom)
			bottom = fmin(need, box.h / 2);
	}
	c->plot.h = box.h - TITLE_H - bottom;
	if (c->plot.w < 10)
		c->plot.w = 10;
	if (c->plot.h < 10)
		c->plot.h = 10;
	panel_open(c, box, title);
	y_axis(c);
	if (ncat)
		x_cat_axis(c, cat);
	else
		x_value_axis(c);
	panel_close(c);
}

void chart_hpanel(struct chart *c, struct svg *s, struct chart_box box,
		  const char *title, const struct chart_axis *x, size_t nrows,
		  const char *const *cat)
{
	memset(c, 0, sizeof(*c));
	c->svg = s;
	c->x = *x;
	c->nrows = nrows;
	double names = (double)longest_name(cat, nrows) * CHAR_W + TICK_LEN + 10;
	double left = fmin(fmax(names, 40), box.w / 2);
	c->plot.x = box.x + left;
	c->plot.y = box.y + TITLE_H;
	c->plot.w = fmax(box.w - left - RIGHT_W - 16, 10); /* the last tick label */
	c->plot.h = fmax(box.h - TITLE_H - BOTTOM_VALUE_H, 10);
	panel_open(c, box, title);
	x_value_axis(c);
	for (size_t i = 0; i < nrows; i++) {
		double top, h;
		row_slot(c, i, &top, &h);
		double y = top + h / 2;
		svg_line(s, c->plot.x - TICK_LEN, y, c->plot.x, y, "axis");
		svg_text(s, c->plot.x - TICK_LEN - 3, y + 4, SVG_END, 0, "tick", cat[i]);
	}
	panel_close(c);
}

/* Left edge and width of bar k of nk in category i. */
static void bar_slot(const struct chart *c, size_t i, size_t k, size_t nk,
		     double *left, double *w)
{
	double bw = c->plot.w / (double)(c->ncat ? c->ncat : 1);
	double gw = bw * 0.7;
	*w = gw / (double)(nk ? nk : 1);
	*left = c->plot.x + (double)i * bw + (bw - gw) / 2 + (double)k * *w;
}

static const char *series_cls(int series, char *buf, size_t len, const char *shape)
{
	snprintf(buf, len, "%s s%d", shape, ((series % SVG_NSERIES) + SVG_NSERIES) % SVG_NSERIES);
	return buf;
}

void chart_bar(struct chart *c, size_t i, size_t k, size_t nk, double v,
	       int series, const char *tip)
{
	double left, w;
	char cls[16];
	bar_slot(c, i, k, nk, &left, &w);
	double y0 = chart_py(c, c->y.scale == CHART_LOG || c->y.min > 0 ? c->y.min : 0);
	double y1 = chart_py(c, v);
	svg_rect(c->svg, left, fmin(y0, y1), w * 0.92, fabs(y0 - y1),
		 series_cls(series, cls, sizeof(cls), "bar"), tip);
}

void chart_whisker(struct chart *c, size_t i, size_t k, size_t nk, double lo,
		   double hi, const char *tip)
{
	double left, w;
	bar_slot(c, i, k, nk, &left, &w);
	double x = left + w * 0.46, cap = w * 0.18;
	double ylo = chart_py(c, lo), yhi = chart_py(c, hi);
	svg_group_begin(c->svg, "whiskers");
	svg_line(c->svg, x, ylo, x, yhi, "whisker");
	svg_line(c->svg, x - cap, ylo, x + cap, ylo, "whisker");
	svg_line(c->svg, x - cap, yhi, x + cap, yhi, "whisker");
	if (tip) /* a transparent hit area carries the tooltip */
		svg_rect(c->svg, x - cap, fmin(ylo, yhi), 2 * cap, fabs(ylo - yhi), "hit", tip);
	svg_group_end(c->svg);
}

void chart_hbar(struct chart *c, size_t i, double v, int series, const char *tip)
{
	double top, h;
	char cls[16];
	row_slot(c, i, &top, &h);
	double x0 = chart_px(c, c->x.scale == CHART_LOG || c->x.min > 0 ? c->x.min : 0);
	double x1 = chart_px(c, v);
	svg_rect(c->svg, fmin(x0, x1), top, fabs(x1 - x0), h,
		 series_cls(series, cls, sizeof(cls), "bar"), tip);
}

void chart_hwhisker(struct chart *c, size_t i, double lo, double hi, const char *tip)
{
	double top, h;
	row_slot(c, i, &top, &h);
	double y = top + h / 2, cap = h * 0.3;
	double xlo = chart_px(c, lo), xhi = chart_px(c, hi);
	svg_group_begin(c->svg, "whiskers");
	svg_line(c->svg, xlo, y, xhi, y, "whisker");
	svg_line(c->svg, xlo, y - cap, xlo, y + cap, "whisker");
	svg_line(c->svg, xhi, y - cap, xhi, y + cap, "whisker");
	if (tip) /* a transparent hit area carries the tooltip */
		svg_rect(c->svg, fmin(xlo, xhi), y - cap, fabs(xhi - xlo), 2 * cap, "hit", tip);
	svg_group_end(c->svg);
}

void chart_stack(struct chart *c, size_t i, double base, double v, int series,
		 const char *tip)
{
	double left, w;
	char cls[16];
	bar_slot(c, i, 0, 1, &left, &w);
	double y0 = chart_py(c, base), y1 = chart_py(c, base + v);
	svg_rect(c->svg, left, fmin(y0, y1), w, fabs(y0 - y1),
		 series_cls(series, cls, sizeof(cls), "bar"), tip);
}

/*
 * The marker of `series` at (px, py) in pixels: its colour is series modulo
 * SVG_NSERIES, its shape (circle, square, triangle, diamond) the next digit,
 * so CHART_NMARKERS series never share a colour-and-shape pair.
 */
static void marker(struct svg *s, double px, double py, int series, const char *tip)
{
	static const double tri_x[] = { 0, 5, -5 }, tri_y[] = { -5.5, 3.5, 3.5 };
	static const double dia_x[] = { 0, 5.5, 0, -5.5 }, dia_y[] = { -5.5, 0, 5.5, 0 };
	char cls[16];
	double x[4], y[4];
	int shape = (series < 0 ? 0 : series / SVG_NSERIES) % (CHART_NMARKERS / SVG_NSERIES);
	series_cls(series, cls, sizeof(cls), "pt");
	switch (shape) {
	case 0:
		svg_circle(s, px, py, 4, cls, tip);
		break;
	case 1:
		svg_rect(s, px - 4, py - 4, 8, 8, cls, tip);
		break;
	case 2:
		for (int k = 0; k < 3; k++) {
			x[k] = px + tri_x[k];
			y[k] = py + tri_y[k];
		}
		svg_polygon(s, 3, x, y, cls, tip);
		break;
	default:
		for (int k = 0; k < 4; k++) {
			x[k] = px + dia_x[k];
			y[k] = py + dia_y[k];
		}
		svg_polygon(s, 4, x, y, cls, tip);
	}
}

void chart_points(struct chart *c, size_t n, const double *x, const double *y,
		  int series, const char *const *tips)
{
	for (size_t j = 0; j < n; j++)
		marker(c->svg, chart_px(c, x[j]), chart_py(c, y[j]), series, tips ? tips[j] : NULL);
}

void chart_line(struct chart *c, size_t n, const double *x, const double *y,
		int series)
{
	double px[256], py[256];
	char cls[16];
	series_cls(series, cls, sizeof(cls), "line");
	/* In pieces of 256 points, each starting where the last one ended. */
	for (size_t start = 0; start + 1 < n; start += 255) {
		size_t m = n - start < 256 ? n - start : 256;
		for (size_t j = 0; j < m; j++) {
			px[j] = chart_px(c, x[start + j]);
			py[j] = chart_py(c, y[start + j]);
		}
		svg_polyline(c->svg, m, px, py, cls);
	}
}

void chart_mark(struct chart *c, double x, double y, const char *tip)
{
	svg_circle(c->svg, chart_px(c, x), chart_py(c, y), 8, "mark", tip);
}

void chart_ref_y(struct chart *c, double y, const char *label)
{
	double py = chart_py(c, y);
	svg_line(c->svg, c->plot.x, py, c->plot.x + c->plot.w, py, "ref");
	/* Below the line when above it would touch the panel's title. */
	double ty = py - c->plot.y < 16 ? py + 13 : py - 4;
	svg_text(c->svg, c->plot.x + c->plot.w - 4, ty, SVG_END, 0, "note", label);
}

void chart_ref_diagonal(struct chart *c, const char *label)
{
	double lo = fmax(c->x.min, c->y.min), hi = fmin(c->x.max, c->y.max);
	if (!(hi > lo))
		return; /* the axes share no range: no diagonal to draw */
	svg_line(c->svg, chart_px(c, lo), chart_py(c, lo), chart_px(c, hi), chart_py(c, hi), "ref");
	svg_text(c->svg, chart_px(c, hi) - 4, chart_py(c, hi) + 14, SVG_END, 0, "note", label);
}

void chart_legend(struct chart *c, int series, const char *label)
{
	char cls[16];
	double x = c->legend_x, y = c->legend_y;
	if (series < 0)
		svg_circle(c->svg, x + 6, y + 6, 6, "mark", NULL);
	else
		svg_rect(c->svg, x, y, 12, 12, series_cls(series, cls, sizeof(cls), "bar"), NULL);
	svg_text(c->svg, x + 18, y + 10, SVG_START, 0, "label", label);
	c->legend_y += 18;
}

void chart_legend_marker(struct chart *c, int series, const char *label)
{
	marker(c->svg, c->legend_x + 6, c->legend_y + 6, series, NULL);
	svg_text(c->svg, c->legend_x + 18, c->legend_y + 10, SVG_START, 0, "label", label);
	c->legend_y += 18;
}

int chart_legend_room(const struct chart *c)
{
	double room = (c->box_bottom - 8 - c->legend_y) / 18;
	return room > 0 ? (int)room : 0;
}

void chart_legend_title(struct chart *c, const char *title)
{
	/* A line a name of "a, b, c": the legend is CHART_LEGEND_W wide. */
	char part[128];
	for (const char *p = title; *p;) {
		size_t len = strcspn(p, ",");
		snprintf(part, sizeof(part), "%.*s%s", (int)len, p, p[len] ? "," : "");
		svg_text(c->svg, c->legend_x, c->legend_y + 10, SVG_START, 0, "legend-title", part);
		c->legend_y += 16;
		p += len;
		while (*p == ',' || *p == ' ')
			p++;
	}
	c->legend_y += 2;
}
