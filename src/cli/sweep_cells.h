/*
 * sweep_cells.h - the columns of `traincost sweep`'s rows, described once
 * for every format, and the cells of a row's results (sweep_cells.c).
 * Internal to the sweep command.
 */
#ifndef TC_CLI_SWEEP_CELLS_H
#define TC_CLI_SWEEP_CELLS_H

#include "../io/sweep_load.h"
#include "../model/money/cost.h"
#include "../model/families/estimate.h"
#include "../report/stream.h"

/* The result columns, after `config` and the varied keys (the memory a
 * value CSV and JSON carry, and next to it its words for people). */
enum sweep_result_col {
	SR_STEP, SR_TOTAL, SR_WALL, SR_GPU_HOURS, SR_MFU, SR_MEMORY, SR_MEMORY_WORDS, SR_FITS,
	SR_LIMITING, SR_PROVIDER, SR_INSTANCE, SR_REGION, SR_COST, SR_BASIS, SR_REASON, SR_COLS
};

/* The most columns of a row: config, the keys, the results, the layout
 * and the calibration. */
#define SWEEP_MAX_COLS (1 + SWEEP_MAX_KEYS + SR_COLS + 2)
_Static_assert(SWEEP_MAX_COLS <= REP_STREAM_MAX_COLS, "a sweep row fits a stream");

/* The columns of sweep sw's rows into cols (SWEEP_MAX_COLS of room):
 * config, one per varied key (named by its path, borrowed from sw), the
 * results, the layout with `layout: auto` and the calibration when one
 * is applied.  Returns their count. */
int sweep_cols(const struct sweep *sw, int calibration, struct rep_col *cols);

/* Room for the words of a row's results. */
struct sweep_words {
	char memory[32];
};

/* What one configuration gave: its estimate when it has one (e NULL:
 * none), the offer it is priced on (cheapest NULL: none), what that bills
 * on the basis named (rep_basis_name: the expected wall clock with the
 * spare nodes, or the steady state) and why a value is missing ("":
 * nothing to say). */
struct sweep_result {
	const struct estimate *e;
	const struct cost_choice *cheapest;
	double cost_usd;
	const char *basis;
	const char *reason;
};

/* The cells of result res into c[0..SR_COLS-1]; the words of the table
 * and Markdown, written into w, only where `words`. */
void sweep_result_cells(struct rep_cell *c, const struct sweep_result *res, int words,
			struct sweep_words *w);

#endif
