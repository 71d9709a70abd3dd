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
	double stack_frac;   /* fitted value (1 when nothing to fit); after
				fw_fit_shrunk, pulled toward the family's pool */
	double raw_stack_frac; /* the stack's own fit, before the pull */
	double prior_runs;   /* the pool's weight, in runs (0: not pulled) */
	double rms_log;      /* root mean square of log(predicted/measured speed),
				at the stack's own fit */
};

/* The most a family's pool may weigh, in runs: where the stacks' fits
 * spread no more than their own noise explains, the pool all but decides. */
#define FW_PRIOR_MAX_RUNS 100.0

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

/*
 * fw_fit_stack, then each stack's fit pulled toward its family's pooled
 * fit (one stack_frac for every run of the family that names a framework,
 * each keeping its profile's other keys) in proportion to its evidence:
 * log f = (n log f_own + k log f_pool) / (n + k), n the stack's runs, k the
 * prior strength estimated from the spread of the stacks' fits about the
 * pool against their residual noise (empirical Bayes; at most
 * FW_PRIOR_MAX_RUNS).  A stack with few runs keeps little of its own fit,
 * one whose runs agree and differ from the pool keeps most.  Every case
 * gets its stack's value; one whose stack has no used run gets the pool.
 * Returns as fw_fit_stack.
 */
int fw_fit_shrunk(struct val_case *cases, size_t n, const unsigned char *use,
		  val_gpu_fn gpu_for, void *ctx, struct fw_fit *out, size_t max);

/* A stack's own fit `own` on n runs pulled toward its family's pool with
 * the weight of k runs: exp((n log own + k log pool) / (n + k)). */
double fw_shrink(double own, double n, double pool, double k);

/*
 * The prior strength, in runs, with which the pooled rate `pooled` of
 * `family` pulls its stacks' fits (empirical Bayes, method of moments)
 * over the fits whose family fam[j] is `family`: the residual variance of
 * a run about its stack's fit, s2 = sum n_j rms_j^2 / sum n_j, over the
 * spread of the stacks' fits about the pool beyond what their own noise
 * explains, t2 = mean (log f_j - log pooled)^2 - s2 mean(1 / n_j).
 * FW_PRIOR_MAX_RUNS with fewer than two stacks or no spread left.
 */
double fw_prior_runs(const struct fw_fit *fits, size_t nf, const char *const *fam,
		     const char *family, double pooled);

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
