/*
 * crossval.h - K-fold cross-validation of calibration over validation
 * cases: validation (validate.h) and calibration (calibrate.h) meet here,
 * so that neither needs the other's header.
 */
#ifndef TC_CROSSVAL_H
#define TC_CROSSVAL_H

#include <stddef.h>

#include "../../util/diag.h"
#include "calibrate.h"
#include "validate.h"

/* One fold of a cross-validation (val_cross_validate). */
struct val_cv_fold {
	size_t n_fit, n_test;
	struct val_stats before;  /* held-out error with the GPU's efficiencies */
	struct val_stats after;   /* held-out error after fitting the others */
	struct roof_eff eff;      /* the fitted efficiencies */
	unsigned fitted_mask;     /* parameters fitted (CAL_BIT bits) */
	int scale_mode;
};

/*
 * K-fold cross-validation of calibration: the n cases measured on GPU g
 * (c->gpu_id == g->id; others are skipped) are split by their position
 * among them, i % k; fold f is held out while calibrate fits the rest
 * (cal_fit with *opt, NULL: choose from the data), then both the starting
 * and the fitted efficiencies are scored on fold f.  folds must hold k
 * entries.  With k = 2 the folds are the even and odd cases.  Returns 0,
 * or -1 with a message in d (k < 2, fewer cases than folds, a failed fit).
 */
int val_cross_validate(const struct val_case *cases, size_t n, const struct gpu *g, size_t k,
		       const struct cal_options *opt, struct val_cv_fold *folds, struct tc_diag *d);

#endif
