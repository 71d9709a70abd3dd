/*
 * val_groups.h - validation results summarised per group of cases (a case
 * file, a GPU type, a software stack), and the error of predicted speed
 * ratios between GPUs on the same benchmark.
 *
 * The buyer's question is a ratio (how much faster is GPU A than GPU B on
 * my job), so the error of the predicted A/B speed ratio on published pairs
 * is reported beside the absolute error.
 */
#ifndef TC_VAL_GROUPS_H
#define TC_VAL_GROUPS_H

#include <stddef.h>

#include "validate.h"

/* The key that puts a case in a group; "" keeps it out of every group. */
typedef const char *(*val_key_fn)(const struct val_case *c);

/* The cases of one key. */
struct val_group {
	const char *key;     /* borrowed from a case */
	struct val_stats st; /* st.worst indexes the results of this group */
	size_t worst_result; /* index into the full results of the worst case */
};

/*
 * Split the n results by key(case) in first-seen order and compute each
 * group's statistics into *out (owned by the caller, free()).  Returns the
 * number of groups, or -1 when out of memory.
 */
int val_group_by(const struct val_case *cases, const struct val_result *res, size_t n,
		 val_key_fn key, struct val_group **out);

/* One pair of cases of the same benchmark and stack on two GPU types. */
struct val_ratio {
	size_t a, b;        /* indices into the results */
	double err_frac;    /* predicted A/B speed ratio over measured, - 1 */
	double measured;    /* measured A/B speed per GPU (samples per second
			       over the run's GPUs); 0 when the two
			       measurements cannot be put in the same unit */
};

/*
 * The speed error of one result: predicted speed over measured speed (a
 * time metric counts inversely).  1 is exact.
 */
double val_speed_factor(const struct val_case *c, const struct val_result *r);

/*
 * Every pair of ok results whose cases share a non-empty pair(case) key and
 * differ in GPU type, in result order (a before b).  *out is owned by the
 * caller (free()); *count is set.  Returns 0, or -1 when out of memory.
 */
int val_ratios(const struct val_case *cases, const struct val_result *res, size_t n,
	       val_key_fn pair, struct val_ratio **out, size_t *count);

/* Mean, median and worst absolute error of n ratios (st->worst indexes
 * them).  Returns 0, or -1 when out of memory. */
int val_ratio_stats(const struct val_ratio *r, size_t n, struct val_stats *st);

#endif
