/*
 * validate_fit_report.h - the two fitting modes of `traincost validate` in
 * every format: `--cross-validate K` (calibration on K-1 folds, scored on
 * the one held out) and `--fit-frameworks` (stack_frac of every
 * framework) (validate_fit_report.c).
 */
#ifndef TC_VALIDATE_FIT_REPORT_H
#define TC_VALIDATE_FIT_REPORT_H

#include <stdio.h>

#include "../model/analyses/crossval.h"
#include "../model/analyses/fw_fit.h"

/* The k folds f of the cross-validation on GPU `gpu` written in fmt
 * (table, csv, json, md), with the held-out error over every tested case
 * (each fold's MAPE weighted by the cases it tested).  Returns 0, or -1 on
 * a failed allocation or a non-finite number (never printed). */
int rep_validate_folds(FILE *out, const char *fmt, const char *gpu, const struct val_cv_fold *f,
		       int k);

/* The fits of the named frameworks (named[0..nnamed)) and of the pooled
 * unnamed stack of each family (pooled[0..npooled)) written in fmt.
 * Returns as rep_validate_folds. */
int rep_validate_fits(FILE *out, const char *fmt, const struct fw_fit *named, int nnamed,
		      const struct fw_fit *pooled, int npooled);

#endif
