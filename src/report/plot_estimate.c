/*
 * plot_estimate.c - the pictures of one run: where a step's time goes and
 * what fills memory (estimate), and every operator on the roofline
 * (explain).  See plot_estimate.h.
 */
#include "plot_estimate.h"

#include <math.h>
#include <stdio.h>

#include "../model/types/precision.h"
#include "../util/units.h"
#include "chart.h"

#define GB 1e9 /* bytes: decimal, as the tables print memory */

void plot_estimate(struct svg *s, int standalone, const struct workload *w,
		   const struct gpu *g, const struct estimate *e)
{
	char title[800], desc[512], a[32], b[32], c[32];
	snprintf(title, sizeof(title), "%s on %d x %s: step time and memory per GPU",
		 w->name[0] ? w->name : w->file, e->plan.count, g->id);
	snprintf(desc, sizeof(desc),
		 "Step time %s split by where it goes; memory per GPU %s of %s capacity, by part.",
		 tc_fmt_duration(e->step_time_s, a, sizeof(a)),
		 tc_fmt_bytes(e->memory_per_gpu_bytes, b, sizeof(b)),
		 tc_fmt_bytes(e->memory_capacity_bytes, c, sizeof(c)));
	svg_begin(s, 900, 420, title, desc, standalone);

	/* Left: one bar per part of the step that takes time. */
	const char *names[BRK_COUNT];
	double v[BRK_COUNT], top = 0;
	size_t n = 0;
	int idx[BRK_COUNT];
	for (int k = 0; k < BRK_COUNT; k++) {
		if (!(e->breakdown_s[k] > 0))
			continue;
		names[n] = brk_names[k];
		idx[n] = k;
		v[n++] = e->breakdown_s[k];
		top = fmax(top, e->breakdown_s[k]);
	}
	struct chart_time_unit u = chart_time_unit(top);
	char ylab[64];
	snprintf(ylab, sizeof(ylab), "time per step (%s)", u.name);
	struct chart_axis y = { ylab, CHART_LINEAR, 0, top / u.per_s };
	chart_axis_nice(&y);
	struct chart ch;
	chart_panel(&ch, s, (struct chart_box){ 0, 0, 540, 420 }, "Where a step's time goes",
		    NULL, &y, n ? n : 1, n ? names : (const char *const[]){ "none" }, 0);
	for (size_t i = 0; i < n; i++) {
		char tip[96];
		snprintf(tip, sizeof(tip), "%s: %s per step (%.1f %%)", names[i],
			 tc_fmt_duration(v[i], a, sizeof(a)), 100 * v[i] / e->step_time_s);
		chart_bar(&ch, i, 0, 1, v[i] / u.per_s, idx[i] % SVG_NSERIES, tip);
	}

	/* Right: the memory parts stacked against the capacity. */
	double total = 0;
	for (int k = 0; k < MEM_COUNT; k++)
		total += e->mem_bytes[k];
	struct chart_axis my = { "memory per GPU (GB)", CHART_LINEAR, 0,
				 fmax(total, e->memory_capacity_bytes) / GB };
	chart_axis_nice(&my);
	static const char *const one[] = { "per GPU" };
	chart_panel(&ch, s, (struct chart_box){ 540, 0, 360, 420 }, "Memory per GPU", NULL, &my,
		    1, one, 1);
	double base = 0;
	for (int k = 0; k < MEM_COUNT; k++) {
		char tip[96];
		snprintf(tip, sizeof(tip), "%s: %s", mem_part_names[k],
			 tc_fmt_bytes(e->mem_bytes[k], a, sizeof(a)));
		if (e->mem_bytes[k] > 0)
			chart_stack(&ch, 0, base / GB, e->mem_bytes[k] / GB, k, tip);
		base += e->mem_bytes[k];
		chart_legend(&ch, k, mem_part_names[k]);
	}
	char cap[64];
	snprintf(cap, sizeof(cap), "capacity %s", tc_fmt_bytes(e->memory_capacity_bytes, a, sizeof(a)));
	chart_ref_y(&ch, e->memory_capacity_bytes / GB, cap);
}

void plot_explain(struct svg *s, int standalone, const struct workload *w,
		  const struct gpu *g, const struct estimate *e,
		  const struct est_workspace *ws)
{
	const double TFLOP = 1e12; /* FLOP/s per TFLOP/s */
	char title[800], desc[256];
	size_t nplaced = 0, nleft = 0;
	double imin = HUGE_VAL, imax = 0, rmax = 0, most = 0;
	enum tc_prec prec = PREC_BF16; /* the precision of most of the arithmetic */
	for (size_t i = 0; i < ws->count; i++) {
		const struct op *o = &ws->ops[i];
		if (!(o->flop > 0 && o->bytes > 0 && o->time_s > 0)) {
			nleft++;
			continue;
		}
		nplaced++;
		if (o->flop * o->count > most) {
			most = o->flop * o->count;
			prec = o->prec;
		}
		imin = fmin(imin, o->flop / o->bytes);
		imax = fmax(imax, o->flop / o->bytes);
		rmax = fmax(rmax, fmax(o->flop / o->time_s, g->peak_flop_per_s[o->prec]));
	}
	snprintf(title, sizeof(title), "%s on %s: operators on the roofline",
		 w->name[0] ? w->name : w->file, g->id);
	snprintf(desc, sizeof(desc),
		 "%zu operators placed by arithmetic intensity and achieved rate, under the GPU's "
		 "roofline (dense peak and memory bandwidth); %zu with no floating-point work counted "
		 "(communication, data movement) left out.", nplaced, nleft);
	svg_begin(s, 900, 480, title, desc, standalone);

	/* The roof: from well left of the lightest operator to well right of
	 * the ridge and of the heaviest one. */
	double peak = g->peak_flop_per_s[prec];
	double ridge = peak / g->mem_bytes_per_s;
	struct chart_axis x = { "arithmetic intensity (FLOP/byte)", CHART_LOG,
				nplaced ? fmin(imin, ridge) / 2 : ridge / 100,
				nplaced ? fmax(imax, ridge) * 2 : ridge * 100 };
	struct chart_axis y = { "achieved rate (TFLOP/s)", CHART_LOG, 0,
				fmax(rmax, peak) / TFLOP * 1.5 };
	chart_axis_nice(&x);
	y.min = x.min * g->mem_bytes_per_s / TFLOP; /* where the roof enters */
	chart_axis_nice(&y);
	struct chart ch;
	chart_panel(&ch, s, (struct chart_box){ 0, 0, 900, 480 }, title, &x, &y, 0, NULL, 1);

	/* The roof of the run's precision: bandwidth slope, then flat. */
	double rx[3] = { x.min, ridge, x.max };
	double ry[3] = { x.min * g->mem_bytes_per_s / TFLOP, peak / TFLOP, peak / TFLOP };
	chart_line(&ch, 3, rx, ry, 7);
	char lab[96];
	snprintf(lab, sizeof(lab), "%s dense peak %.0f TFLOP/s", tc_prec_names[prec],
		 peak / TFLOP);
	chart_ref_y(&ch, peak / TFLOP, lab);

	int used[BRK_COUNT] = { 0 };
	for (size_t i = 0; i < ws->count; i++) {
		const struct op *o = &ws->ops[i];
		if (!(o->flop > 0 && o->bytes > 0 && o->time_s > 0))
			continue;
		double xi = o->flop / o->bytes, yi = o->flop / o->time_s / TFLOP;
		char tip[160], t[32];
		snprintf(tip, sizeof(tip), "%s (%s): %.3g FLOP/byte, %.3g TFLOP/s, %s x %.0f per step",
			 o->name, brk_names[o->category], xi, yi,
			 tc_fmt_duration(o->time_s, t, sizeof(t)), o->count);
		const char *tips[1] = { tip };
		chart_points(&ch, 1, &xi, &yi, o->category % SVG_NSERIES, tips);
		used[o->category] = 1;
	}
	for (int k = 0; k < BRK_COUNT; k++)
		if (used[k])
			chart_legend(&ch, k % SVG_NSERIES, brk_names[k]);
	chart_legend(&ch, 7, "roofline");
	(void)e;
}
