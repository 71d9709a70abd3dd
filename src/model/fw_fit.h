/*
 * fw_fit.h - the per-framework parameter fitted on published runs
 * (stack_frac), and its cross-validation: leave one source out, leave one
 * GPU type out.
 *
 * Only stack_frac is fitted per framework; the per-GPU values are physics
 * with sources (models/gpu/), so a held-out GPU type is predicted from its
 * datasheet and measured kernel rates alone.
 */
#ifndef TC_FW_FIT_H
#define TC_FW_FIT_H

#include <stddef.h>

#include "validate.h"

#define FW_FIT_MAX 64

/* One framework's fit. */
struct fw_fit {
	char id[FW_ID_LEN];
	size_t n;            /* runs it was fitted on */
	double stack_frac;   /* fitted value (1 when nothing to fit) */
	double rms_log;      /* root mean square of log(predicted/measured speed) */
};

/*
 * Fit stack_frac of every framework named by a used case (use[i] != 0, not
 * sanity-only): the value in (0.05, 1] that minimises the sum of squared
 * log speed errors of its runs (GSL Brent minimiser).  Cases must have their
 * profile layers resolved; the fitted value replaces the layer's
 * stack_frac in every case of that framework (used or not).  Returns the
 * number of frameworks written to out (at most max), or -1 when out of
 * memory.
 */
int fw_fit_stack(struct val_case *cases, size_t n, const unsigned char *use,
		 val_gpu_fn gpu_for, void *ctx, struct fw_fit *out, size_t max);

/* The group a case belongs to when groups are held out in turn. */
typedef const char *(*fw_group_fn)(const struct val_case *c);

/*
 * Leave-one-group-out: for each group among the counted cases that name a
 * framework, stack_frac is fitted on the other groups' runs (a framework
 * without runs there gets the rate pooled over the other runs of its
 * family, as an unprofiled stack would) and the group's runs are
 * predicted.  res receives one result per such case (index into cases);
 * *nres is set.  Returns 0, or -1 when out of memory.
 */
int fw_cross_validate(const struct val_case *cases, size_t n, fw_group_fn group,
		      val_gpu_fn gpu_for, void *ctx, struct val_result *res, size_t *nres);

/* A case's source: its citation up to " @ " (the repository or paper before
 * the commit), else its first two words. */
const char *fw_source_group(const struct val_case *c, char *buf, size_t len);

#endif
