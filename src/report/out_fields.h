/*
 * out_fields.h - the catalog of output fields that more than one command
 * writes: each described once (contract name, title in tables, how the
 * table shows it, how CSV writes it, what it means), so that a field reads
 * the same in estimate, compare, plan, sweep and validate, in every
 * format.
 *
 * A command's column of a catalog field names it and says where it shows
 * (REP_FIELD_COL); rep_fields_apply fills in the rest from the catalog.
 * The descriptions are those of docs/schema/ (tests/schema/run-schema.sh
 * checks them against this file, which it reads: keep one entry a line,
 * each argument a plain literal).
 *
 * CSV numbers: a measurement to 6 significant digits with every digit of
 * its whole part and no exponent (REP_CSV_SIG6, rowfmt_g6: 7171810 s, not
 * 7.17181e+06), money to the cent (REP_CSV_DECIMALS with 2 decimals).
 */
#ifndef TC_REP_OUT_FIELDS_H
#define TC_REP_OUT_FIELDS_H

#include "rows.h"

/* X(contract name, title, kind, scale, decimals, suffix, CSV, description) */
#define REP_FIELDS(X) \
	X(gpu, "GPU", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "GPU id of the catalog (models/gpu/ID.yaml)") \
	X(step_time_s, "step time", REP_COL_DURATION, 0, 0, NULL, REP_CSV_SIG6, "time of one training step") \
	X(tokens_per_s, "tokens/s (all GPUs)", REP_COL_AMOUNT, 0, 0, NULL, REP_CSV_SIG6, "tokens per second, all GPUs") \
	X(total_time_s, "total time, steady", REP_COL_DURATION, 0, 0, NULL, REP_CSV_SIG6, "time of the whole run at the steady rate, without interruptions (spot preemptions among them)") \
	X(basis_time_s, "time on the basis", REP_COL_DURATION, 0, 0, NULL, REP_CSV_SIG6, "time of the run on its basis (the basis field), what deadlines are judged on and cost_usd is billed for: the expected wall clock (the campaign model, spot preemptions among its interruptions), or with --steady-state the steady run; over the chosen offer's own network when it takes several instances") \
	X(wall_time_s, "wall clock", REP_COL_DURATION, 0, 0, NULL, REP_CSV_SIG6, "expected wall clock of the run (docs/model.md, section 9): the steady state with interruptions, restarts, checkpoints, stragglers, evaluation and start-up, spot preemptions among the interruptions where they are counted; null where they leave no time to train") \
	X(gpu_hours, "GPU-hours", REP_COL_AMOUNT, 0, 0, NULL, REP_CSV_SIG6, "GPU-hours of the run (GPUs x total time)") \
	X(mfu_frac, "MFU", REP_COL_NUM, 100, 1, " %", REP_CSV_SIG6, "model FLOP utilisation: model FLOP per second over the dense peak of all GPUs") \
	X(hfu_frac, "HFU", REP_COL_NUM, 100, 1, " %", REP_CSV_SIG6, "hardware FLOP utilisation: FLOP executed (with recomputation) per second over the dense peak") \
	X(memory_per_gpu_bytes, "memory per GPU", REP_COL_NUM, 0, 0, NULL, REP_CSV_SIG6, "memory one GPU needs") \
	X(fits, "fits", REP_COL_BOOL, 0, 0, NULL, REP_CSV_SIG6, "the memory needed fits in the GPU") \
	X(limiting, "limiting resource", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "the resource that bounds the step: compute, memory_bandwidth, communication, pipeline_bubble, launch_overhead or data_loader") \
	X(pricing, "pricing", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "the kind of price used: on-demand, spot, reserved-1y or reserved-3y") \
	X(provider, "provider", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "provider of the chosen offer (the cheapest that can host the run)") \
	X(instance, "instance", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "instance type of the chosen offer") \
	X(region, "region", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "region of the chosen offer") \
	X(cost_usd, "cost", REP_COL_USD, 0, 2, NULL, REP_CSV_DECIMALS, "cost of the run on the chosen offer, billed on its basis: the expected wall clock with the spare nodes, or the steady run with --steady-state (no interruption, spot or not)") \
	X(cost_max_usd, "up to", REP_COL_USD, 0, 2, NULL, REP_CSV_DECIMALS, "cost of the run on the dearest offer that can host it, on the same basis as cost_usd") \
	X(steady_cost_usd, "cost, steady", REP_COL_USD, 0, 2, NULL, REP_CSV_DECIMALS, "cost of the steady run on the offer: no interruption, spot or not (the wall clock's is wall_cost_usd)") \
	X(steady_cost_max_usd, "up to, steady", REP_COL_USD, 0, 2, NULL, REP_CSV_DECIMALS, "cost of the steady run on the dearest offer that can host it") \
	X(wall_cost_usd, "expected wall-clock cost", REP_COL_USD, 0, 2, NULL, REP_CSV_DECIMALS, "expected cost on the wall clock, on the cheapest offer, spare nodes included (null: not priced)") \
	X(goodput_frac, "goodput", REP_COL_NUM, 100, 1, " %", REP_CSV_SIG6, "steady-state time over expected wall-clock time, as the campaign model predicts them") \
	X(interruptions, "interruptions", REP_COL_AMOUNT, 0, 0, NULL, REP_CSV_SIG6, "expected interruptions over the wall clock") \
	X(interval_s, "checkpoints", REP_COL_DURATION, 0, 0, NULL, REP_CSV_SIG6, "checkpoint interval used: the one given, else the recommended one, Young's (null: no checkpoints)") \
	X(operation, "restarts", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "how restarts are run: automated or manual") \
	X(energy_kwh, "energy", REP_COL_AMOUNT, 0, 0, " kWh", REP_CSV_SIG6, "energy of the run at the wall (GPU power x PUE)") \
	X(framework, "framework", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "framework profile (models/framework/ID.yaml; generic: none named; generic-FAMILY in validate --fit: the pooled stack of a family)") \
	X(family, "family", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "workload family: llm, vision or recsys") \
	X(file, "case file", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "the input file, as given") \
	X(cases, "cases", REP_COL_COUNT, 0, 0, NULL, REP_CSV_SIG6, "number of cases") \
	X(pairs, "pairs", REP_COL_COUNT, 0, 0, NULL, REP_CSV_SIG6, "pairs of runs compared") \
	X(mape_frac, "MAPE", REP_COL_NUM, 100, 2, " %", REP_CSV_SIG6, "mean absolute percentage error, as a fraction") \
	X(median_ape_frac, "median", REP_COL_NUM, 100, 2, " %", REP_CSV_SIG6, "median absolute percentage error, as a fraction") \
	X(worst_ape_frac, "worst", REP_COL_NUM, 100, 1, " %", REP_CSV_SIG6, "largest absolute percentage error, as a fraction") \
	X(bias_frac, "bias", REP_COL_DELTA, 100, 1, " %", REP_CSV_SIG6, "mean signed error, as a fraction (> 0: over-predicts)") \
	X(failed, "failed", REP_COL_COUNT, 0, 0, NULL, REP_CSV_SIG6, "cases the model could not predict") \
	X(sanity_only_cases, "sanity only", REP_COL_COUNT, 0, 0, NULL, REP_CSV_SIG6, "cases kept as sanity checks, not counted in the error") \
	X(band_runs, "runs with a band", REP_COL_COUNT, 0, 0, NULL, REP_CSV_SIG6, "runs with an uncertainty band") \
	X(band_inside, "inside the band", REP_COL_COUNT, 0, 0, NULL, REP_CSV_SIG6, "of those, runs whose measurement lies inside the P10-P90 band") \
	X(case, "case", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "case id, as its case file names it") \
	X(source, "source", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "where the figures come from: the public sources, as the case file cites them") \
	X(sanity_only, "sanity only", REP_COL_BOOL, 0, 0, NULL, REP_CSV_SIG6, "the case is kept as a sanity check, not counted in the error") \
	X(metric, "metric", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "what was measured; its name says the unit") \
	X(measured, "measured", REP_COL_NUM, 0, 0, NULL, REP_CSV_EXP6, "the measured value, in the unit the metric names") \
	X(predicted, "predicted", REP_COL_NUM, 0, 0, NULL, REP_CSV_EXP6, "the predicted value, in the unit the metric names") \
	X(error_frac, "error", REP_COL_DELTA, 100, 1, " %", REP_CSV_EXP6, "relative error of the prediction: predicted over measured, minus 1 (> 0: over-predicts)") \
	X(held_out_source_error_frac, "error, source held out", REP_COL_DELTA, 100, 1, " %", REP_CSV_EXP6, "relative error of the prediction with the framework profiles refitted without the runs of the case's source (validate --loo; absent otherwise, and for a case that names no framework)") \
	X(held_out_gpu_error_frac, "error, GPU type held out", REP_COL_DELTA, 100, 1, " %", REP_CSV_EXP6, "relative error of the prediction with the framework profiles refitted without the runs on the case's GPU type (validate --loo; absent otherwise, and for a case that names no framework)") \
	X(error, "error", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "why the prediction failed") \
	X(pair, "benchmark", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "the benchmark of the pair") \
	X(case_a, "case A", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "first case of the pair") \
	X(case_b, "case B", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "second case of the pair") \
	X(gpu_a, "GPU A", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "GPU id of case_a") \
	X(gpu_b, "GPU B", REP_COL_TEXT, 0, 0, NULL, REP_CSV_SIG6, "GPU id of case_b") \
	X(measured_speed_ratio, "measured A/B per GPU", REP_COL_NUM, 0, 2, "x", REP_CSV_SIG6, "measured per-GPU speed of case_a over case_b (ratio)") \
	X(predicted_speed_ratio, "predicted", REP_COL_NUM, 0, 2, "x", REP_CSV_SIG6, "predicted per-GPU speed of case_a over case_b (ratio)")

struct rep_field {
	const char *name;        /* JSON key and CSV column */
	const char *title;       /* table and Markdown header */
	enum rep_col_kind kind;  /* how the table shows it (rows.h) */
	double scale;
	int decimals;
	const char *suffix;
	enum rep_csv csv;        /* how CSV writes a number */
	const char *description; /* what it means, as docs/schema/ says */
};

/* A command's column of the catalog field `name`: where it shows (enum
 * rep_view) and whether JSON leaves a missing value out; rep_fields_apply
 * fills in the rest.  The NULL title marks it. */
#define REP_FIELD_COL(name, view, absent) \
	{ name, NULL, REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, view, absent }
/* The catalog field `name` in words a command writes per row (a figure
 * with its unit, REP_COL_FIGURE) under the catalog's title; `zero` is the
 * table's text for a missing value (NULL: "-"). */
#define REP_FIELD_WORDS(name, view, zero) \
	{ name, NULL, REP_COL_FIGURE, 0, 0, NULL, zero, NULL, 0, view, 0 }

/* The catalog's entry for `name`, or NULL when it has none. */
const struct rep_field *rep_field_find(const char *name);
/* The catalog's entries, *n of them. */
const struct rep_field *rep_fields(int *n);
/* Column col (REP_FIELD_COL) as the catalog describes its field; a column
 * with a title of its own is left as it is, and a column in words
 * (REP_FIELD_WORDS) takes only the title. */
void rep_field_apply(struct rep_col *col);
/* rep_field_apply on cols[0..n). */
void rep_fields_apply(struct rep_col *cols, int n);
/* Copy src[0..n) to dst and apply the catalog to the copy: a command's
 * columns, described by a table of REP_FIELD_COLs and its own.  Returns n. */
int rep_fields_copy(struct rep_col *dst, const struct rep_col *src, int n);

#endif
