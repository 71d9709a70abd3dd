/*
 * tc_warn.h - whether an estimate warned (the suites that check what an
 * estimate says; include after tc_test.h).
 */
#ifndef TC_TEST_WARN_H
#define TC_TEST_WARN_H

#include "../../src/model/types/estimate_types.h"

/* Whether one of the estimate's warnings contains `words`. */
static inline int tc_warned(const struct estimate *e, const char *words)
{
	for (int i = 0; i < e->warning_count; i++)
		if (strstr(e->warning[i], words))
			return 1;
	return 0;
}

#endif
