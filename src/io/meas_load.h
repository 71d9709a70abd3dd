/*
 * meas_load.h - measurements files for `traincost calibrate`
 * (docs/calibration.md has the format).
 *
 *   kind: measurements
 *   source: "our cluster, January"      # optional
 *   gpu: a100-80gb-sxm                  # optional: GPU of runs that name none
 *   runs:
 *     - name: 7b on 8 GPUs              # optional
 *       workload: llama2-7b-a100.yaml   # path (relative to this file) or an
 *                                       # inline workload mapping
 *       plan: { count: 8, micro_batch: 2 }  # optional overrides
 *       step_time: 5.1s                 # or tokens_per_s, samples_per_s, mfu
 *       weight: 1                       # optional, > 0
 *   cases: ../validation/vtrain-a100.csv  # optional validation case file
 *   select: even                        # all (default), even or odd rows
 *   fit: [mem_frac, launch_s]           # optional: these parameters, or scale
 *   start: { gemm_half_flop: 2e8 }      # optional starting values
 *
 * Each run becomes a struct val_case (metric and measured value in SI) with
 * a weight.  Errors are "file:line:col: what is wrong (expected ...)".
 */
#ifndef TC_MEAS_LOAD_H
#define TC_MEAS_LOAD_H

#include "../model/analyses/calibrate.h"
#include "../model/types/val_case.h"
#include "../util/diag.h"
#include "datapath.h"

struct meas_set {
	struct val_set cases;      /* owned; case.file/line: the run's position */
	double *weight;            /* owned, cases.count entries */
	size_t weight_cap;
	char source[CAL_TEXT_LEN];
	char file[CAL_TEXT_LEN];   /* the measurements file as given */
	/* Calibration settings the file asks for. */
	int scale_only;            /* fit: scale */
	unsigned fit_mask;         /* fit: [names]; 0 = choose */
	unsigned start_mask;       /* parameters with a starting value */
	struct roof_eff start;     /* their values (others unset) */
};

void meas_set_init(struct meas_set *m);
void meas_set_release(struct meas_set *m);

/* Append a copy of case c with weight w.  Returns 0 or -1 (memory). */
int meas_set_add(struct meas_set *m, const struct val_case *c, double w);

/*
 * Load measurements file `path`; workload presets come from `dp`.
 * Returns 0 with *m filled (release it), or -1 with every problem in d
 * (*m released).
 */
int meas_load_file(const char *path, const struct tc_datapath *dp,
		   struct meas_set *m, struct tc_diag *d);

#endif
