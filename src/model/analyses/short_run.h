/*
 * short_run.h - the figure of a short benchmark run: a rate averaged over
 * a few steps, the run's one-off start-up inside the average or not
 * (docs/model.md, "Figures of short runs").  The step model predicts the
 * steady step; this turns it into what such a run reports.
 */
#ifndef TC_SHORT_RUN_H
#define TC_SHORT_RUN_H

#include "../types/val_case.h"

/*
 * One-off start-up inside a short PyTorch benchmark's timed run, seconds:
 * fitted (least squares on the log error) on the four Lambda BERT-large
 * SQuAD runs whose figure is 100 steps over the whole training time; the
 * runs imply 16.6 to 37.2 s (docs/model.md, "Figures of short runs").
 */
#define SHORT_RUN_STARTUP_S 23.6

/*
 * The rate such a figure reports over the steady rate, in (0, 1]: a run of
 * f->steps steps of step_s seconds each and, when f->warmup, a one-off
 * start-up of startup_s seconds more in the first.  Averaged over time,
 * N t / (N t + W); as the mean of the per-step rates,
 * (N - 1 + t / (t + W)) / N.  1 for a steady-state figure (no start-up
 * inside, or no step count).  step_s > 0, startup_s >= 0.
 */
double short_run_rate_frac(const struct val_figure *f, double step_s,
			   double startup_s);

#endif
