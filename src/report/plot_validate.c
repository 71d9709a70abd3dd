/*
 * plot_validate.c - predicted against measured for the validation cases:
 * one log-log panel per metric, coloured by GPU.  See plot_validate.h.
 */
#include "plot_validate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart.h"

#define MAX_GPUS 64 /* distinct GPUs coloured; more share "other" */

/* Each metric in the unit its axes show. */
static const struct {
	double per_unit; /* SI value of one shown unit */
	const char *unit;
	const char *title;
} metric_axis[VAL_METRIC_COUNT] = {
	[VAL_ITER_TIME] = { 1e-3, "ms", "Step time" },
	[VAL_MEGATRON_TFLOPS] = { 1e12, "TFLOP/s per GPU", "Throughput per GPU" },
	[VAL_MFU] = { 1e-2, "%", "MFU" },
	[VAL_TOKENS_PER_S] = { 1, "tokens/s", "Tokens per second" },
	[VAL_SAMPLES_PER_S] = { 1, "samples/s", "Samples per second" },
	[VAL_IMAGES_PER_S] = { 1, "images/s", "Images per second" },
};

/* The colour index of a GPU id: its place among the ids seen first. */
static int gpu_index(const char **ids, int *nids, const char *id)
{
	for (int k = 0; k < *nids; k++)
		if (!strcmp(ids[k], id))
			return k;
	if (*nids == MAX_GPUS)
		return MAX_GPUS - 1;
	ids[*nids] = id;
	return (*nids)++;
}

void plot_validate(struct svg *s, int standalone, const struct val_case *cases,
		   const struct val_result *res, size_t n)
{
	size_t per_metric[VAL_METRIC_COUNT] = { 0 };
	int npanels = 0;
	size_t nok = 0;
	for (size_t i = 0; i < n; i++) {
		if (!res[i].ok || !(res[i].predicted > 0) || !(res[i].measured > 0))
			continue;
		nok++;
		enum val_metric m = cases[res[i].index].metric;
		npanels += per_metric[m]++ == 0;
	}
	char desc[256];
	snprintf(desc, sizeof(desc),
		 "%zu validation cases, predicted against measured on logarithmic axes, one panel "
		 "per metric, coloured by GPU; on the dashed line the prediction is exact.", nok);
	const double PANEL = 420;
	int cols = npanels < 3 ? (npanels ? npanels : 1) : 3;
	int rows = (npanels + cols - 1) / cols;
	double width = cols * PANEL + CHART_LEGEND_W, height = (rows ? rows : 1) * PANEL;
	svg_begin(s, width, height, "Predicted against measured", desc, standalone);

	const char *ids[MAX_GPUS];
	int nids = 0;
	int panel = 0;
	struct chart ch = { 0 };
	for (int m = 0; m < VAL_METRIC_COUNT; m++) {
		if (!per_metric[m])
			continue;
		double lo = HUGE_VAL, hi = 0, k = metric_axis[m].per_unit;
		for (size_t i = 0; i < n; i++) {
			if (!res[i].ok || cases[res[i].index].metric != (enum val_metric)m ||
			    !(res[i].predicted > 0) || !(res[i].measured > 0))
				continue;
			lo = fmin(lo, fmin(res[i].predicted, res[i].measured) / k);
			hi = fmax(hi, fmax(res[i].predicted, res[i].measured) / k);
		}
		char xl[64], yl[64];
		snprintf(xl, sizeof(xl), "measured (%s)", metric_axis[m].unit);
		snprintf(yl, sizeof(yl), "predicted (%s)", metric_axis[m].unit);
		/* The same range on both axes, so the diagonal is at 45 degrees. */
		struct chart_axis x = { xl, CHART_LOG, lo, hi }, y = { yl, CHART_LOG, lo, hi };
		chart_axis_nice(&x);
		chart_axis_nice(&y);
		struct chart_box box = { (panel % cols) * PANEL, (panel / cols) * PANEL, PANEL, PANEL };
		int last = panel == npanels - 1;
		if (last)
			box.w += CHART_LEGEND_W; /* the legend goes right of the last panel */
		chart_panel(&ch, s, box, metric_axis[m].title, &x, &y, 0, NULL, last);
		chart_ref_diagonal(&ch, "predicted = measured");
		for (size_t i = 0; i < n; i++) {
			const struct val_case *c = &cases[res[i].index];
			if (!res[i].ok || c->metric != (enum val_metric)m ||
			    !(res[i].predicted > 0) || !(res[i].measured > 0))
				continue;
			double xv = res[i].measured / k, yv = res[i].predicted / k;
			char tip[200];
			snprintf(tip, sizeof(tip), "%s on %s: measured %.4g %s, predicted %.4g %s (%+.1f %%)",
				 c->id, c->gpu_id, xv, metric_axis[m].unit, yv, metric_axis[m].unit,
				 100 * res[i].err_frac);
			const char *tips[1] = { tip };
			chart_points(&ch, 1, &xv, &yv, gpu_index(ids, &nids, c->gpu_id) % SVG_NSERIES,
				     tips);
		}
		panel++;
	}
	if (!npanels) {
		svg_text(s, width / 2, height / 2, SVG_MIDDLE, 0, "label", "no case with a prediction");
		return;
	}
	for (int k = 0; k < nids && k < 16; k++)
		chart_legend(&ch, k % SVG_NSERIES, ids[k]);
	if (nids > SVG_NSERIES)
		chart_legend(&ch, 7, "(colours repeat)");
}
