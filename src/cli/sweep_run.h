/*
 * sweep_run.h - the state of one `traincost sweep` run, shared by the
 * command (cmd_sweep.c: set-up and the writer) and its worker threads
 * (sweep_eval.c), so it belongs to neither: types and constants only.
 * Internal to the sweep command.
 */
#ifndef TC_CLI_SWEEP_RUN_H
#define TC_CLI_SWEEP_RUN_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "../io/gpu_load.h"
#include "../io/price_load.h"
#include "../io/sweep_load.h"
#include "../model/analyses/calibrate.h"
#include "sweep_cells.h"

#define CHUNK_ROWS 512      /* rows per unit of work */
#define SLOTS_PER_JOB 4     /* chunks in flight per thread */
#define ROW_MAX_BYTES 8192  /* one row, all columns (values are capped) */

/* A GPU of the sweep with its offers, resolved once. */
struct gpu_entry {
	struct gpu g;
	struct price_table *tables; /* owned array; offers owned, rest borrowed */
	size_t ntables;
};

struct slot {
	char *buf;        /* owned */
	size_t len, cap;
	uint64_t chunk;
	int ready;
};

struct run {
	const struct sweep *sw;
	const struct tc_datapath *dp;
	const struct gpu_catalog *cat;
	const struct price_set *prices;
	double memory_headroom_frac; /* --memory-headroom: every row's fit test */
	int steady_state;         /* --steady-state: cost billed on the steady
				     state, not the expected wall clock */
	struct gpu_entry *gpus;   /* owned */
	size_t ngpus;
	struct rep_col cols[SWEEP_MAX_COLS]; /* the rows' columns (sweep_cells.h) */
	struct rep_stream st;     /* the format the rows are written in */
	char calibration[CAL_TEXT_LEN + GPU_ID_LEN + 32]; /* "" or the
							     overlay applied */
	const struct eff_calibration *cal; /* its layer, resolved into
					      each GPU; NULL: none */
	uint64_t shard_k, shard_n, nrows, nchunks;
	/* threads */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t next_chunk, written;
	struct slot *slots;       /* owned */
	int nslots;
	int failed;               /* out of memory or a non-finite result */
	char fail_msg[256];
	/* --plot: each row's metric, by its place in the shard (owned) */
	double *plot_y;
	double *plot_time;        /* total time, when plot_metric is the default (owned) */
	char *plot_have;          /* SWEEP_PLOT_HAVE_* bits of each row */
	int plot_metric;          /* index into plot_metrics, or SWEEP_PLOT_DEFAULT */
#define SWEEP_PLOT_COST 5         /* plot_metric of cost_usd */
#define SWEEP_PLOT_DEFAULT (-1)   /* cost where a row is priced, else total time */
#define SWEEP_PLOT_HAVE_Y 1       /* plot_y holds the row's metric */
#define SWEEP_PLOT_HAVE_TIME 2    /* plot_time holds the row's total time */
};

#endif
