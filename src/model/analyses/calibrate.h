/*
 * calibrate.h - fit the achievable-rate parameters (struct roof_eff) to
 * measured training steps, and the calibration overlay other commands apply.
 *
 * Method (docs/calibration.md): bounded non-linear least squares with GSL's
 * gsl_multifit_nlinear (trust region, Levenberg-Marquardt steps,
 * finite-difference Jacobian).  Residual i is sqrt(w_i) * (predicted_i -
 * measured_i) / measured_i.  Bounds by reparameterisation: a fraction x in
 * [lo, hi] is lo + (hi - lo) * sigmoid(y), a scale is exp(y).  The fit
 * starts from the GPU's efficiencies (the catalog defaults unless a start
 * is given).  Only what the data determine is fitted: one measurement fits
 * one global time scale; otherwise the parameters the measurements do not
 * depend on, or cannot tell apart (column-pivoted QR of the sensitivity
 * matrix), are held fixed and named.  Standard errors come from the
 * covariance (J^T J)^-1 s^2 at the solution, carried to the parameters by
 * the derivative of the reparameterisation.
 *
 * Pure computation: GPUs come from a val_gpu_fn, no file is read.
 */
#ifndef TC_CALIBRATE_H
#define TC_CALIBRATE_H

#include <stddef.h>

#include "../../util/diag.h"
#include "../types/gpu.h"
#include "validate.h"

/* Index of calibratable parameter `name`, or -1. */
int cal_param_find(const char *name);

/* Read and write parameter p of *e. */
double cal_get(const struct roof_eff *e, enum eff_id p);
void cal_set(struct roof_eff *e, enum eff_id p, double v);

/* Every calibratable parameter (CAL_BIT, eff_param.h). */
#define CAL_ALL ((1u << CAL_PARAM_COUNT) - 1)

/* What to fit.  A zeroed struct means "choose from the data". */
struct cal_options {
	int scale_only;       /* 1: fit one global time scale only */
	unsigned fit_mask;    /* > 0: exactly these parameters (no selection) */
	unsigned fixed_mask;  /* never fit these (selection only) */
	const struct roof_eff *start; /* starting point; NULL: the GPU's */
	int max_iter;         /* 0: 200 */
};

/* Below this reciprocal condition number of J the fit is ill-conditioned. */
#define CAL_RCOND_WARN 1e-5
/* Parameters whose sensitivity (RMS of d log t / d log x over the
 * measurements) is below this are "not determined by the data". */
#define CAL_SENS_MIN 0.01
/* Column-pivoted QR: a parameter whose |R_kk| is below this fraction of
 * the largest cannot be told apart from those before it. */
#define CAL_PIVOT_MIN 0.03

/* Why a parameter was not fitted. */
enum cal_held {
	CAL_FITTED,
	CAL_HELD_ASKED,      /* not in the requested list, or fixed by request */
	CAL_HELD_NO_EFFECT,  /* the measurements do not depend on it */
	CAL_HELD_COLLINEAR,  /* not separable from the fitted ones */
	CAL_HELD_TOO_FEW,    /* more parameters than the measurements allow */
	CAL_HELD_SCALED,     /* scale mode: moved with the global scale */
};
extern const char *const cal_held_names[]; /* "fitted", "held: ..." */

/* How far above the GPU's own figure a fitted rate may go before the fit
 * says so: 5 %, the spread of best-shape GEMM rates between the GPUs of
 * one node (achievable.md section 4, S1: "5 %+"), so a fast part is not
 * taken for a doubtful fit. */
#define CAL_CEILING_MARGIN 0.05

struct cal_result {
	struct roof_eff before;       /* starting point */
	struct roof_eff after;        /* fitted (held parameters unchanged,
					 or moved with the scale) */
	double se[CAL_PARAM_COUNT];   /* standard error of each fitted value;
					 0 when held or not available */
	/* Correlation of the fitted estimates (on the fit's log / logit
	 * scale): 1 on the diagonal, 0 for held parameters; in scale mode
	 * 1 among the rates, which move with the one scale. */
	double corr[CAL_PARAM_COUNT][CAL_PARAM_COUNT];
	enum cal_held held[CAL_PARAM_COUNT];
	unsigned fitted_mask;
	int scale_mode;               /* 1: one global time scale was fitted */
	double scale, scale_se;       /* time multiplier and its error */
	size_t n;                     /* measurements used */
	size_t p;                     /* parameters fitted */
	int se_available;             /* 0 when n <= p (no residual dof) */
	double rcond;                 /* reciprocal condition number of J */
	int ill_conditioned;          /* rcond < CAL_RCOND_WARN or a
					 parameter at its bound */
	int at_bound;                 /* a fitted value ended at a bound */
	size_t iterations;
	struct val_stats err_before, err_after; /* unweighted */
	double rms_before, rms_after; /* weighted RMS relative error */
	char warning[256];            /* "" or why the fit is doubtful */
};

/*
 * Fit the efficiencies of GPU *g (its eff is the catalog value; opt->start
 * overrides the starting point) to the n cases (all measured on that GPU:
 * callers filter by c->gpu_id), with weights w (NULL: all 1).  Returns 0
 * and fills *out; -1 with a message in d when no case can be estimated, a
 * case's plan is invalid, or GSL fails (the message names its status).
 */
int cal_fit(const struct val_case *cases, const double *w, size_t n,
	    const struct gpu *g, const struct cal_options *opt,
	    struct cal_result *out, struct tc_diag *d);

/* ---- The overlay: what `--calibration FILE` applies ------------------- */

/* A calibration file's content: the efficiency layer (eff_param.h) and
 * the fit's statistics for the uncertainty draws and reports. */
struct cal_overlay {
	struct eff_calibration eff;   /* what gpu_resolve() applies */
	double se[CAL_PARAM_COUNT];   /* standard errors, 0 = none */
	double corr[CAL_PARAM_COUNT][CAL_PARAM_COUNT]; /* as cal_result's;
					 the identity when the file has none */
	double residual_sd;           /* RMS relative error after the fit:
					 model error the parameters miss */
	double error_before, error_after; /* MAPE on the measurements */
};

/* The identity correlation: estimates independent. */
void cal_corr_identity(double c[CAL_PARAM_COUNT][CAL_PARAM_COUNT]);

/* Fill *o from a fit (fitted_from is the measurements file name). */
void cal_overlay_from_result(struct cal_overlay *o, const struct cal_result *r,
			     const char *gpu, const char *fitted_from);

/* The efficiency layer of *o for gpu_resolve(): NULL when *o is zeroed
 * (no calibration given). */
const struct eff_calibration *cal_layer(const struct cal_overlay *o);

#endif
