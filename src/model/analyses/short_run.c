/*
 * short_run.c - the figure of a short benchmark run (short_run.h).
 */
#include "short_run.h"

#include <assert.h>

double short_run_rate_frac(const struct val_figure *f, double step_s,
			   double startup_s)
{
	double n = f->steps;

	assert(step_s > 0 && startup_s >= 0);
	if (!f->warmup || f->steps < 1)
		return 1;
	if (f->mean == VAL_MEAN_RATE)
		/* every step a rate of its own; the first is the slow one */
		return (n - 1 + step_s / (step_s + startup_s)) / n;
	return n * step_s / (n * step_s + startup_s);
}
