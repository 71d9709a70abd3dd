/*
 * tc_vtrain.h - a measured vTrain run as a ready workload, for suites that
 * need a realistic LLM step (include after tc_test.h).
 */
#ifndef TC_VTRAIN_H
#define TC_VTRAIN_H

#include "../../src/io/val_load.h"

/* Case `index` of the vTrain A100 measurements (index 1: 8 GPUs, tp 2,
 * pp 2) and its GPU. */
static inline void tc_test_vtrain_case(size_t index, struct workload *w, struct gpu *g)
{
	struct val_set s;
	struct tc_diag d;
	val_set_init(&s);
	tc_diag_init(&d);
	assert_int_equal(val_load_file("tests/validation/vtrain-a100.csv", tc_test_datapath(), &s, &d), 0);
	assert_true(index < s.count);
	*w = s.cases[index].w;
	val_set_release(&s);
	tc_test_a100(g);
}

#endif
