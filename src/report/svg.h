/*
 * svg.h - a small SVG document writer: shapes, text and groups into a
 * memory buffer, for the charts (chart.h) and the HTML report.
 *
 * Text stays text (searchable, read by screen readers); the document has
 * role="img" with a <title> and a <desc>; every string given is
 * XML-escaped.  Errors (out of memory, a non-finite coordinate) are
 * remembered and reported once by svg_end(), so drawing code needs no
 * checks of its own.  Colours and fonts live in one style sheet,
 * svg_style, as classes: "s0".."s7" for data series, "axis", "grid",
 * "tick", "label", "title", "whisker", "mark", "ref".
 */
#ifndef TC_SVG_H
#define TC_SVG_H

#include <stddef.h>

#include "xmlbuf.h"

#define SVG_MAX_DEPTH 16 /* nested groups */
#define SVG_NSERIES 8    /* colour classes s0..s7 */

/* The CSS of the colour and text classes, also inlined by the HTML report. */
extern const char svg_style[];

struct svg {
	struct xmlbuf x;  /* owned: the document so far */
	int depth;        /* groups open */
	int nonfinite;    /* a non-finite coordinate was given (written as 0) */
	int standalone;   /* a file of its own: XML declaration and style */
};

enum svg_anchor { SVG_START, SVG_MIDDLE, SVG_END };

/*
 * Start a document of width x height pixels with an accessible title and
 * description (desc may be NULL).  standalone: 1 for an .svg file (with
 * its XML declaration and style sheet), 0 for inlining into a page that
 * carries svg_style itself.
 */
void svg_begin(struct svg *s, double width, double height, const char *title,
	       const char *desc, int standalone);

/* <g class="cls"> (cls may be NULL) ... </g>. */
void svg_group_begin(struct svg *s, const char *cls);
void svg_group_end(struct svg *s);

/* Shapes.  cls is a class of svg_style; tip, when not NULL, becomes the
 * shape's <title> (shown on hover, read by screen readers). */
void svg_rect(struct svg *s, double x, double y, double w, double h,
	      const char *cls, const char *tip);
void svg_line(struct svg *s, double x1, double y1, double x2, double y2,
	      const char *cls);
void svg_circle(struct svg *s, double cx, double cy, double r, const char *cls,
		const char *tip);
void svg_polyline(struct svg *s, size_t n, const double *x, const double *y,
		  const char *cls);
/* A closed shape through the n points. */
void svg_polygon(struct svg *s, size_t n, const double *x, const double *y,
		 const char *cls, const char *tip);

/* Text at (x, y) (its baseline), anchored at its start, middle or end,
 * turned by `rotate` degrees about (x, y). */
void svg_text(struct svg *s, double x, double y, enum svg_anchor anchor,
	      double rotate, const char *cls, const char *text);

/*
 * Close the open groups and the document.  Returns 0, or -1 if anything
 * failed on the way (s->x.oom or s->nonfinite says what).  The text stays
 * in s->x.buf, owned by s.
 */
int svg_end(struct svg *s);

/* Free the buffer; safe on a zeroed struct. */
void svg_release(struct svg *s);

#endif
