/*
 * tc_unc.h - the run and the offer the Monte Carlo suites share
 * (test_uncertainty.c, test_unc_closed_form.c; include after tc_test.h).
 */
#ifndef TC_TEST_UNC_H
#define TC_TEST_UNC_H

#include "tc_vtrain.h"
#include "../../src/model/analyses/uncertainty.h"

/* A vTrain case (8 GPUs, TP 2, PP 2) run for 1000 steps. */
static inline void tc_unc_case(struct workload *w, struct gpu *g)
{
	tc_test_vtrain_case(1, w, g);
	w->train.steps = 1000;
	w->train.tokens = 0;
}

/* unc_run into *r with a workspace of its own; fail the test if it cannot. */
static inline void tc_unc_run(const struct workload *w, const struct gpu *g,
			      const struct unc_spec *s, struct unc_result *r)
{
	struct unc_workspace ws;
	struct plan_problem why;
	assert_int_equal(unc_workspace_init(&ws, s->samples), 0);
	if (unc_run(w, g, s, &ws, r, &why))
		fail_msg("unc_run: %s", why.msg);
	unc_workspace_release(&ws);
}

/* An 8 x A100 80GB offer: $40.97 an hour on demand, $15 spot. */
static inline void tc_unc_offer(struct price_offer *o)
{
	memset(o, 0, sizeof(*o));
	strcpy(o->instance, "p4de.24xlarge");
	strcpy(o->gpu, "a100-80gb-sxm");
	o->gpus = 8;
	o->price_usd_per_h[COST_ON_DEMAND] = 40.97;
	o->price_usd_per_h[COST_SPOT] = 15.0;
}

#endif
