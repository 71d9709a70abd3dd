/*
 * val_load.h - reading validation cases (tests/validation, .csv files).
 *
 * Format (tests/validation/README.md): '#' lines are comments; "#! key =
 * value" lines set a default for every following row; the first other line
 * names the columns; each later line is one case.  Keys are the same in
 * directives and columns.  Errors are "file:line:col: message (expected
 * ...)" in the diagnostics.
 */
#ifndef TC_VAL_LOAD_H
#define TC_VAL_LOAD_H

#include "../model/types/val_case.h"
#include "../util/diag.h"
#include "datapath.h"

#define VAL_MAX_LINE 4096 /* bytes per line, newline included */

/* Append the cases of one file to *set.  A `network` column names a vision
 * or recommender architecture of models/arch, found on dp (NULL: none is
 * known).  Returns 0, or -1 with every problem found in d (cases of bad
 * rows are not added). */
int val_load_file(const char *path, const struct tc_datapath *dp, struct val_set *set,
		  struct tc_diag *d);

/* Load every *.csv file of `dir` in name order.  Returns 0 or -1. */
int val_load_dir(const char *dir, const struct tc_datapath *dp, struct val_set *set,
		 struct tc_diag *d);

#endif
