/*
 * crossval.c - K-fold cross-validation of calibration.
 */
#include "crossval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../families/llm.h"

/* Score cases c[0..n-1] on g with efficiencies *e into *st.  0 or -1. */
static int cv_score(const struct val_case *c, size_t n, const struct gpu *g, const struct roof_eff *e,
		    struct est_workspace *ws, struct val_result *res, struct val_stats *st)
{
	struct gpu ge = *g;
	ge.eff = *e;
	for (size_t i = 0; i < n; i++) {
		struct plan_problem why;
		memset(&res[i], 0, sizeof(res[i]));
		res[i].index = i;
		res[i].measured = c[i].measured;
		if (val_predict(&c[i], &ge, ws, &res[i].predicted, &why)) {
			snprintf(res[i].msg, sizeof(res[i].msg), "%s", why.msg);
			continue;
		}
		res[i].ok = c[i].measured > 0;
		if (res[i].ok)
			res[i].err_frac = (res[i].predicted - c[i].measured) / c[i].measured;
	}
	return val_stats_compute(res, n, st);
}

int val_cross_validate(const struct val_case *cases, size_t n, const struct gpu *g, size_t k,
		       const struct cal_options *opt, struct val_cv_fold *folds, struct tc_diag *d)
{
	struct val_case *fit = NULL, *test = NULL;
	struct val_result *res = NULL;
	struct est_workspace ws = { 0 };
	size_t m = 0;
	int rc = -1;

	for (size_t i = 0; i < n; i++)
		m += !strcmp(cases[i].gpu_id, g->id);
	if (k < 2 || m < k)
		return tc_diag_msg(d, TC_EXIT_INPUT, "%zu cases on %s cannot be split into %zu folds "
				   "(expected at least 2 folds and one case per fold)", m, g->id, k);
	fit = malloc(m * sizeof(*fit));
	test = malloc(m * sizeof(*test));
	res = malloc(m * sizeof(*res));
	if (!fit || !test || !res || est_workspace_init(&ws, EST_MAX_OPS)) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
		goto out;
	}
	for (size_t f = 0; f < k; f++) {
		struct val_cv_fold *fo = &folds[f];
		struct cal_result r;
		size_t j = 0, nf = 0, nt = 0;
		memset(fo, 0, sizeof(*fo));
		for (size_t i = 0; i < n; i++) {
			if (strcmp(cases[i].gpu_id, g->id))
				continue;
			if (j++ % k == f)
				test[nt++] = cases[i];
			else
				fit[nf++] = cases[i];
		}
		if (cal_fit(fit, NULL, nf, g, opt, &r, d))
			goto out;
		fo->n_fit = nf;
		fo->n_test = nt;
		fo->eff = r.after;
		fo->fitted_mask = r.fitted_mask;
		fo->scale_mode = r.scale_mode;
		if (cv_score(test, nt, g, &r.before, &ws, res, &fo->before) ||
		    cv_score(test, nt, g, &r.after, &ws, res, &fo->after)) {
			tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
			goto out;
		}
	}
	rc = 0;
out:
	est_workspace_release(&ws);
	free(fit);
	free(test);
	free(res);
	return rc;
}
