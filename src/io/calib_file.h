/*
 * calib_file.h - the calibration overlay file: written by `traincost
 * calibrate`, read by `--calibration FILE` (docs/calibration.md).
 *
 *   kind: calibration
 *   format_version: 1
 *   gpu: a100-80gb-sxm            # the GPU the measurements ran on
 *   fitted_from: measurements.yaml
 *   measurements: 4
 *   mode: parameters              # or scale
 *   scale: 1                      # scale mode: the time multiplier
 *   fitted: [gemm_max_frac, mem_frac]
 *   error_before: 0.12            # MAPE on the measurements, fraction
 *   error_after: 0.03
 *   residual_sd: 0.035            # RMS relative error after the fit
 *   efficiency: { gemm_max_frac: 0.8, ... }   # fitted values (all nine)
 *   before: { ... }               # the values the fit started from
 *   std_error: { mem_frac: 0.01 } # standard errors of the fitted ones
 *
 * Numbers are written with 6 significant digits, so the file is the same
 * on every run with the same inputs.
 */
#ifndef TC_CALIB_FILE_H
#define TC_CALIB_FILE_H

#include <stdio.h>

#include "../model/analyses/calibrate.h"
#include "../util/diag.h"

#define CALIB_FORMAT_VERSION 1

/*
 * Write *o to `path` with the output writer (util/outfile.h: temporary
 * file, fsync, rename; regular files only), or to `stream` when path is
 * "-".  Returns 0, or -1 with a
 * message in d (TC_EXIT_USAGE for a destination that is not a regular
 * file, TC_EXIT_IO for a failed write).
 */
int calib_write_file(const char *path, FILE *stream, const struct cal_overlay *o,
		     struct tc_diag *d);

/* The same text on an open stream (for stdout).  Returns 0 or -1. */
int calib_write(FILE *f, const struct cal_overlay *o);

/*
 * Read an overlay.  Returns 0 with *o filled, or -1 with every problem in d
 * (file:line:col: message).
 */
int calib_read_file(const char *path, struct cal_overlay *o, struct tc_diag *d);

#endif
