/*
 * tc_ops.h - an estimate's operators by name (the suites that check the
 * operators of a step; include after tc_test.h).
 */
#ifndef TC_TEST_OPS_H
#define TC_TEST_OPS_H

#include "../../src/model/types/estimate_types.h"

/* The operator `name` of the step in the workspace `wsp`, or NULL. */
static inline const struct op *tc_find_op(const struct est_workspace *wsp,
					  const char *name)
{
	for (size_t i = 0; i < wsp->count; i++)
		if (!strcmp(wsp->ops[i].name, name))
			return &wsp->ops[i];
	return NULL;
}

/* The same; the test fails where the step has no such operator. */
static inline const struct op *tc_must_op(const struct est_workspace *wsp,
					  const char *name)
{
	const struct op *o = tc_find_op(wsp, name);
	if (!o)
		fail_msg("the step has no operator %s", name);
	return o;
}

#endif
