/*
 * out_fields.h - the catalog of output fields that more than one command
 * writes: each described once (contract name, title in tables, how the
 * table shows it, how CSV writes it, what it means), so that a field reads
 * the same in estimate, compare, plan and sweep, in every format.
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
	X(wall_cost_usd, "expected wall-clock cost", REP_COL_USD, 0, 2, NULL, REP_CSV_DECIMALS, "expected cost on the wall clock, on the cheapest offer, spare nodes included (null: not priced)") \
	X(energy_kwh, "energy", REP_COL_AMOUNT, 0, 0, " kWh", REP_CSV_SIG6, "energy of the run at the wall (GPU power x PUE)")

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

/* The catalog's entry for `name`, or NULL when it has none. */
const struct rep_field *rep_field_find(const char *name);
/* The catalog's entries, *n of them. */
const struct rep_field *rep_fields(int *n);
/* Column col (REP_FIELD_COL) as the catalog describes its field; a column
 * with a title of its own is left as it is. */
void rep_field_apply(struct rep_col *col);
/* rep_field_apply on cols[0..n). */
void rep_fields_apply(struct rep_col *cols, int n);
/* Copy src[0..n) to dst and apply the catalog to the copy: a command's
 * columns, described by a table of REP_FIELD_COLs and its own.  Returns n. */
int rep_fields_copy(struct rep_col *dst, const struct rep_col *src, int n);

#endif
