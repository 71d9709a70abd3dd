/*
 * svg.c - SVG document writer (see svg.h).
 */
#include "svg.h"

#include <math.h>
#include <string.h>

/* Colour-blind-safe series colours (Okabe and Ito's palette, 2008), then
 * the chart furniture.  Sizes in px. */
const char svg_style[] =
	"svg{font-family:DejaVu Sans,Liberation Sans,Arial,sans-serif;font-size:12px}\n"
	".bg{fill:#ffffff}\n"
	".s0{fill:#0072b2;stroke:#0072b2}\n"
	".s1{fill:#e69f00;stroke:#e69f00}\n"
	".s2{fill:#009e73;stroke:#009e73}\n"
	".s3{fill:#cc79a7;stroke:#cc79a7}\n"
	".s4{fill:#56b4e9;stroke:#56b4e9}\n"
	".s5{fill:#d55e00;stroke:#d55e00}\n"
	".s6{fill:#f0e442;stroke:#f0e442}\n"
	".s7{fill:#555555;stroke:#555555}\n"
	"polyline.line{fill:none;stroke-width:2}\n"
	"rect.bar{stroke:none}\n"
	".pt{fill-opacity:0.8;stroke:#ffffff;stroke-width:0.5}\n"
	".axis{stroke:#333333;stroke-width:1;fill:none}\n"
	".grid{stroke:#dddddd;stroke-width:1;fill:none}\n"
	".ref{stroke:#333333;stroke-width:1;stroke-dasharray:4 3;fill:none}\n"
	".whisker{stroke:#000000;stroke-width:1.5;fill:none}\n"
	".hit{fill:#000000;fill-opacity:0}\n"
	".mark{fill:none;stroke:#000000;stroke-width:2}\n"
	".tick{fill:#333333;font-size:11px}\n"
	".label{fill:#000000;font-size:12px}\n"
	".legend-title{fill:#000000;font-size:12px;font-weight:bold}\n"
	".title{fill:#000000;font-size:15px;font-weight:bold}\n"
	".note{fill:#555555;font-size:11px}\n";

/* A coordinate: two decimals are a hundredth of a pixel. */
static void num(struct svg *s, const char *attr, double v)
{
	if (!isfinite(v)) {
		s->nonfinite = 1;
		v = 0;
	}
	xmlbuf_printf(&s->x, " %s=\"%.2f\"", attr, v);
}

static void cls_attr(struct svg *s, const char *cls)
{
	if (!cls)
		return;
	xmlbuf_raw(&s->x, " class=\"");
	xmlbuf_text(&s->x, cls);
	xmlbuf_raw(&s->x, "\"");
}

/* End an element: with its tooltip as a <title> child, or self-closed. */
static void close_elem(struct svg *s, const char *name, const char *tip)
{
	if (!tip) {
		xmlbuf_raw(&s->x, "/>\n");
		return;
	}
	xmlbuf_raw(&s->x, "><title>");
	xmlbuf_text(&s->x, tip);
	xmlbuf_printf(&s->x, "</title></%s>\n", name);
}

void svg_begin(struct svg *s, double width, double height, const char *title,
	       const char *desc, int standalone)
{
	memset(s, 0, sizeof(*s));
	s->standalone = standalone;
	if (standalone)
		xmlbuf_raw(&s->x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	xmlbuf_raw(&s->x, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"");
	num(s, "width", width);
	num(s, "height", height);
	xmlbuf_printf(&s->x, " viewBox=\"0 0 %.2f %.2f\"", isfinite(width) ? width : 0,
		      isfinite(height) ? height : 0);
	/* The first <title> child names the image for screen readers. */
	xmlbuf_raw(&s->x, " role=\"img\">\n<title>");
	xmlbuf_text(&s->x, title);
	xmlbuf_raw(&s->x, "</title>\n<desc>");
	xmlbuf_text(&s->x, desc ? desc : title);
	xmlbuf_raw(&s->x, "</desc>\n");
	if (standalone) {
		xmlbuf_raw(&s->x, "<style>\n");
		xmlbuf_raw(&s->x, svg_style);
		xmlbuf_raw(&s->x, "</style>\n");
	}
	svg_rect(s, 0, 0, width, height, "bg", NULL);
}

void svg_group_begin(struct svg *s, const char *cls)
{
	if (s->depth == SVG_MAX_DEPTH) {
		s->x.oom = 1; /* a drawing bug: deeper than any chart needs */
		return;
	}
	s->depth++;
	xmlbuf_raw(&s->x, "<g");
	cls_attr(s, cls);
	xmlbuf_raw(&s->x, ">\n");
}

void svg_group_end(struct svg *s)
{
	if (s->depth == 0)
		return;
	s->depth--;
	xmlbuf_raw(&s->x, "</g>\n");
}

void svg_rect(struct svg *s, double x, double y, double w, double h,
	      const char *cls, const char *tip)
{
	xmlbuf_raw(&s->x, "<rect");
	num(s, "x", x);
	num(s, "y", y);
	num(s, "width", w > 0 ? w : 0);
	num(s, "height", h > 0 ? h : 0);
	cls_attr(s, cls);
	close_elem(s, "rect", tip);
}

void svg_line(struct svg *s, double x1, double y1, double x2, double y2,
	      const char *cls)
{
	xmlbuf_raw(&s->x, "<line");
	num(s, "x1", x1);
	num(s, "y1", y1);
	num(s, "x2", x2);
	num(s, "y2", y2);
	cls_attr(s, cls);
	close_elem(s, "line", NULL);
}

void svg_circle(struct svg *s, double cx, double cy, double r, const char *cls,
		const char *tip)
{
	xmlbuf_raw(&s->x, "<circle");
	num(s, "cx", cx);
	num(s, "cy", cy);
	num(s, "r", r);
	cls_attr(s, cls);
	close_elem(s, "circle", tip);
}

/* A <polyline> or <polygon> (`elem`) through the n points. */
static void points_elem(struct svg *s, const char *elem, size_t n, const double *x,
			const double *y, const char *cls, const char *tip)
{
	xmlbuf_printf(&s->x, "<%s points=\"", elem);
	for (size_t i = 0; i < n; i++) {
		double px = x[i], py = y[i];
		if (!isfinite(px) || !isfinite(py)) {
			s->nonfinite = 1;
			px = py = 0;
		}
		xmlbuf_printf(&s->x, "%s%.2f,%.2f", i ? " " : "", px, py);
	}
	xmlbuf_raw(&s->x, "\"");
	cls_attr(s, cls);
	close_elem(s, elem, tip);
}

void svg_polyline(struct svg *s, size_t n, const double *x, const double *y,
		  const char *cls)
{
	points_elem(s, "polyline", n, x, y, cls, NULL);
}

void svg_polygon(struct svg *s, size_t n, const double *x, const double *y,
		 const char *cls, const char *tip)
{
	points_elem(s, "polygon", n, x, y, cls, tip);
}

void svg_text(struct svg *s, double x, double y, enum svg_anchor anchor,
	      double rotate, const char *cls, const char *text)
{
	static const char *const anchors[] = { "start", "middle", "end" };
	xmlbuf_raw(&s->x, "<text");
	num(s, "x", x);
	num(s, "y", y);
	xmlbuf_printf(&s->x, " text-anchor=\"%s\"", anchors[anchor]);
	if (rotate != 0)
		xmlbuf_printf(&s->x, " transform=\"rotate(%.1f %.2f %.2f)\"", rotate,
			      isfinite(x) ? x : 0, isfinite(y) ? y : 0);
	cls_attr(s, cls);
	xmlbuf_raw(&s->x, ">");
	xmlbuf_text(&s->x, text);
	xmlbuf_raw(&s->x, "</text>\n");
}

int svg_end(struct svg *s)
{
	while (s->depth)
		svg_group_end(s);
	xmlbuf_raw(&s->x, "</svg>\n");
	return s->x.oom || s->nonfinite ? -1 : 0;
}

void svg_release(struct svg *s)
{
	xmlbuf_release(&s->x);
	s->depth = 0;
}
