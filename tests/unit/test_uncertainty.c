/*
 * test_uncertainty.c - Monte Carlo ranges: ordered quantiles, the point
 * estimate at zero spread, determinism per seed, wider with wider inputs,
 * correlated parameters.
 */
#include "tc_test.h"
#include "tc_warn.h"

#include <stdlib.h>

#include <gsl/gsl_errno.h>

#include "tc_unc.h"
#include "tc_catalog.h"

#define SAMPLES 200

static void test_zero_spread_is_the_point_estimate(void **state)
{
	struct workload w;
	struct gpu g;
	struct unc_spec s;
	struct unc_result r;
	struct estimate e;
	struct est_workspace ws;
	struct plan_problem why;
	(void)state;
	tc_unc_case(&w, &g);
	unc_spec_default(&s);
	unc_spec_zero(&s);
	s.samples = 1;
	tc_unc_run(&w, &g, &s, &r);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	est_workspace_release(&ws);
	assert_true(r.step_s.p10 == e.step_time_s);
	assert_true(r.step_s.p50 == e.step_time_s);
	assert_true(r.step_s.p90 == e.step_time_s);
	assert_true(r.total_s.p50 == e.total_time_s);
	assert_true(r.point_step_s == e.step_time_s);
}

/*
 * A run that ends exactly at its deadline meets it: with no spread every
 * sample is the point estimate's total, so a deadline equal to it is met
 * with probability 1, and one a nanosecond shorter with probability 0.
 */
static void test_deadline_met_at_equality(void **state)
{
	struct workload w;
	struct gpu g;
	struct unc_spec s;
	struct unc_result r;
	double total;
	(void)state;
	tc_unc_case(&w, &g);
	unc_spec_default(&s);
	unc_spec_zero(&s);
	s.samples = 4;
	tc_unc_run(&w, &g, &s, &r);
	total = r.total_s.p50;
	s.deadline_s = total;
	tc_unc_run(&w, &g, &s, &r);
	assert_int_equal(r.has_deadline, 1);
	assert_close(r.p_deadline, 1, TOL_EXACT);
	s.deadline_s = total - 1e-9;
	tc_unc_run(&w, &g, &s, &r);
	assert_true(r.p_deadline == 0);
}

/*
 * A GPU whose kernel rates no published run measured gets the cross-GPU
 * validation error as its model term: sigma 0.21 (STEP_UNVALIDATED_REL_SD)
 * against the default 0.14, so the log of its P90/P10 ratio is wider (by
 * 1.36x with the parameter spreads added; 1.2x tested), and
 * its estimate says why.  So does one whose rates were measured on
 * another GPU of the same die (a GPU file's `measured_on`).
 */
static void test_unvalidated_gpu_is_wider(void **state)
{
	struct workload w;
	struct gpu g, u;
	struct unc_spec s;
	struct unc_result a, b;
	struct estimate e;
	struct est_workspace ws;
	struct plan_problem why;
	(void)state;
	tc_unc_case(&w, &g);
	u = g;
	u.eff.layer[eff_id_gemm_max_frac] = EFF_LAYER_DEFAULT;
	assert_int_equal(step_validated(&w, &g), 1);
	assert_int_equal(step_validated(&w, &u), 0);
	unc_spec_default(&s);
	s.samples = SAMPLES;
	tc_unc_run(&w, &g, &s, &a);
	tc_unc_run(&w, &u, &s, &b);
	assert_true(log(b.step_s.p90 / b.step_s.p10) > 1.2 * log(a.step_s.p90 / a.step_s.p10));
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	assert_int_equal(step_estimate(&w, &u, &ws, &e, &why), 0);
	est_workspace_release(&ws);
	assert_int_equal(e.warning_count, 1);
	assert_non_null(strstr(e.warning[0], "no published measurement"));

	u = g;
	snprintf(u.eff.measured_on, sizeof(u.eff.measured_on), "%s", "l40s");
	assert_int_equal(step_validated(&w, &u), 0);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	assert_int_equal(step_estimate(&w, &u, &ws, &e, &why), 0);
	est_workspace_release(&ws);
	assert_int_equal(e.warning_count, 1);
	assert_non_null(strstr(e.warning[0], "those measured on l40s stand in"));
}

/*
 * Collectives between the GPUs of a node of a GPU on whose nodes none was
 * measured (no collectives_measured in its file) widen the model term as
 * an unmeasured kernel rate does, and the estimate says why; a plan of one
 * GPU runs no collective, so the GPU's file does not matter for it.
 */
static void test_unmeasured_collectives_are_wider(void **state)
{
	struct workload w;
	struct gpu g, u;
	struct unc_spec s;
	struct unc_result a, b;
	struct estimate e;
	struct est_workspace ws;
	struct plan_problem why;
	struct plan one;
	(void)state;
	tc_unc_case(&w, &g);
	assert_true(g.collectives_measured[0] != 0);
	u = g;
	u.collectives_measured[0] = 0;
	assert_int_equal(est_workspace_init(&ws, 256), 0);
	assert_int_equal(step_estimate(&w, &u, &ws, &e, &why), 0);
	est_workspace_release(&ws);
	/* the case's plan puts 8 GPUs on a node: collectives inside it */
	assert_true(e.plan.count > 1 && e.plan.gpus_per_node > 1);
	assert_int_equal(step_collectives_measured(&e.plan, &g), 1);
	assert_int_equal(step_collectives_measured(&e.plan, &u), 0);
	assert_int_equal(e.warning_count, 1);
	assert_non_null(strstr(e.warning[0], "no collective measured inside a node of"));
	one = e.plan;
	one.count = 1;
	assert_int_equal(step_collectives_measured(&one, &u), 1);
	unc_spec_default(&s);
	s.samples = SAMPLES;
	tc_unc_run(&w, &g, &s, &a);
	tc_unc_run(&w, &u, &s, &b);
	/* sigma 0.30 against 0.18, as for an unmeasured kernel rate */
	assert_true(log(b.step_s.p90 / b.step_s.p10) > 1.2 * log(a.step_s.p90 / a.step_s.p10));
}

/*
 * A step that memory bandwidth limits, on a GPU whose file gives a GEMM rate
 * but no memory streaming rate, rests on the A100-fitted mem_frac: the
 * estimate says so (0.803 of the bandwidth: "80.3 %") and widens its model
 * term as an unmeasured kernel rate does.  No such word for an A100 (the
 * default's own measurements), a file with mem_frac, or a step that compute
 * limits.  ResNet-50 at 224 pixels in fp16 on an A100 is memory-bound
 * (`traincost estimate examples/resnet50-a100.yaml`: memory_bandwidth).
 */
static void test_unmeasured_memory_rate_is_wider(void **state)
{
	struct workload *w = tc_load_workload("examples/resnet50-a100.yaml");
	struct gpu g, u, m;
	struct unc_spec s;
	struct unc_result a, b;
	struct estimate e, eu;
	struct est_workspace ws;
	struct plan_problem why;
	(void)state;
	tc_test_a100(&g);
	assert_int_equal(eff_measured(&g.eff, eff_id_mem_frac), 0);
	u = g; /* the same file on another memory system than the A100's */
	snprintf(u.architecture, sizeof(u.architecture), "%s", "hopper");
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	assert_int_equal(step_estimate(w, &g, &ws, &e, &why), 0);
	assert_int_equal(step_estimate(w, &u, &ws, &eu, &why), 0);
	est_workspace_release(&ws);
	assert_int_equal(e.limiting, LIM_MEMORY_BW);
	assert_int_equal(step_unmeasured_rate(w, &e, &g), -1);
	assert_int_equal(step_unmeasured_rate(w, &eu, &u), eff_id_mem_frac);
	assert_int_equal(e.warning_count, 0);
	assert_true(tc_warned(&eu, "no published measurement of a100-80gb-sxm's memory "
			      "streaming rate, which limits this step: the default fitted on A100 "
			      "measurements (80.3 % of its bandwidth) stands in"));
	m = u;
	assert_int_equal(eff_set(&m.eff, eff_id_mem_frac, 0.803, EFF_LAYER_GPU), 1);
	assert_int_equal(step_unmeasured_rate(w, &eu, &m), -1);
	eu.limiting = LIM_COMPUTE;
	assert_int_equal(step_unmeasured_rate(w, &eu, &u), -1);
	unc_spec_default(&s);
	s.samples = SAMPLES;
	tc_unc_run(w, &g, &s, &a);
	tc_unc_run(w, &u, &s, &b);
	/* sigma 0.30 against 0.18, as for an unmeasured kernel rate */
	assert_true(log(b.step_s.p90 / b.step_s.p10) > 1.2 * log(a.step_s.p90 / a.step_s.p10));
	free(w);
}

/*
 * Likewise FlashAttention-2's share of the peak on the A100 (attn_frac 0.5,
 * "50.0 %") where fused attention takes more of the step than any other
 * part: the vTrain case at 65,536 tokens a sequence, where attention's
 * quadratic work outgrows the GEMMs'.  Not where the scores run as
 * explicit GEMMs (flash attention off), nor with attn_frac in the file.
 */
static void test_unmeasured_attention_rate(void **state)
{
	struct workload w;
	struct gpu g, u, m;
	struct estimate e;
	struct est_workspace ws;
	struct plan_problem why;
	(void)state;
	tc_unc_case(&w, &g);
	w.train.seq_len = 65536;
	w.train.flash_attention = 1;
	u = g;
	snprintf(u.architecture, sizeof(u.architecture), "%s", "hopper");
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	assert_int_equal(step_estimate(&w, &u, &ws, &e, &why), 0);
	assert_true(e.breakdown_s[BRK_ATTN] > e.breakdown_s[BRK_GEMM]);
	assert_int_equal(step_unmeasured_rate(&w, &e, &u), eff_id_attn_frac);
	assert_int_equal(step_unmeasured_rate(&w, &e, &g), -1);
	assert_true(tc_warned(&e, "no published measurement of a100-80gb-sxm's "
			      "fused-attention rate, which takes most of this step: "
			      "FlashAttention-2's share on the A100 (50.0 % of its dense peak) "
			      "stands in"));
	m = u;
	assert_int_equal(eff_set(&m.eff, eff_id_attn_frac, 0.5, EFF_LAYER_GPU), 1);
	assert_int_equal(step_unmeasured_rate(&w, &e, &m), -1);
	w.train.flash_attention = 0;
	assert_int_equal(step_estimate(&w, &u, &ws, &e, &why), 0);
	est_workspace_release(&ws);
	assert_true(step_unmeasured_rate(&w, &e, &u) != eff_id_attn_frac);
}

/*
 * A framework is backed by measured runs when its values were fitted on
 * some, even where the fit kept the defaults (a stack_frac at its bound of
 * 1, or the stack the defaults were fitted on); one fitted on none is not,
 * and its estimate says so.
 */
static void test_framework_backed_by_fitted_runs(void **state)
{
	struct workload w;
	struct gpu base, g;
	struct estimate e;
	struct est_workspace ws;
	struct plan_problem why;
	(void)state;
	tc_unc_case(&w, &base);
	struct eff_stack stack = { .fitted_runs = 7 };
	snprintf(stack.id, sizeof(stack.id), "%s", "stack");
	snprintf(w.plan.framework, sizeof(w.plan.framework), "%s", "stack");
	gpu_resolve(&g, &base, &stack, NULL);
	assert_int_equal(step_validated(&w, &g), 1);
	stack.fitted_runs = 0;
	gpu_resolve(&g, &base, &stack, NULL);
	assert_int_equal(step_validated(&w, &g), 0);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	assert_int_equal(step_estimate(&w, &g, &ws, &e, &why), 0);
	est_workspace_release(&ws);
	assert_int_equal(e.warning_count, 1);
	assert_non_null(strstr(e.warning[0], "framework stack has no measured run"));
}

static void test_quantiles_ordered_and_deterministic(void **state)
{
	struct workload w;
	struct gpu g;
	struct unc_spec s;
	struct unc_result a, b, c;
	(void)state;
	tc_unc_case(&w, &g);
	unc_spec_default(&s);
	s.samples = SAMPLES;
	s.seed = 42;
	tc_unc_run(&w, &g, &s, &a);
	tc_unc_run(&w, &g, &s, &b);
	assert_true(a.step_s.p10 < a.step_s.p50 && a.step_s.p50 < a.step_s.p90);
	assert_true(a.total_s.p10 < a.total_s.p50 && a.total_s.p50 < a.total_s.p90);
	assert_true(memcmp(&a, &b, sizeof(a)) == 0);
	assert_int_equal(a.seed, 42);
	s.seed = 43;
	tc_unc_run(&w, &g, &s, &c);
	assert_true(c.step_s.p50 != a.step_s.p50);
	/* The point estimate lies inside the 10-90 range. */
	assert_true(a.step_s.p10 < a.point_step_s && a.point_step_s < a.step_s.p90);
}

static void test_wider_inputs_wider_interval(void **state)
{
	struct workload w;
	struct gpu g;
	struct unc_spec s;
	struct unc_result narrow, wide;
	(void)state;
	tc_unc_case(&w, &g);
	unc_spec_default(&s);
	s.samples = SAMPLES;
	tc_unc_run(&w, &g, &s, &narrow);
	for (int p = 0; p < CAL_PARAM_COUNT; p++)
		s.rel_sd[p] *= 2;
	s.model_rel_sd *= 2;
	tc_unc_run(&w, &g, &s, &wide);
	assert_true(wide.step_s.p90 - wide.step_s.p10 > narrow.step_s.p90 - narrow.step_s.p10);
	assert_true(wide.step_s.sd > narrow.step_s.sd);
}

/* Is L L^T equal to c? */
static void assert_factors(const double c[CAL_PARAM_COUNT][CAL_PARAM_COUNT],
			   const double L[CAL_PARAM_COUNT][CAL_PARAM_COUNT])
{
	for (int i = 0; i < CAL_PARAM_COUNT; i++)
		for (int j = 0; j < CAL_PARAM_COUNT; j++) {
			double v = 0;
			for (int k = 0; k < CAL_PARAM_COUNT; k++)
				v += L[i][k] * L[j][k];
			assert_true(fabs(v - c[i][j]) < 1e-12);
			if (j > i)
				assert_true(L[i][j] == 0);
		}
}

/*
 * The factor of a correlation matrix, by hand: c01 = 0.5 gives
 * L10 = 0.5, L11 = sqrt(1 - 0.25) = 0.8660...; parameters 0, 2 and 3
 * perfectly correlated (one scale) give zero pivots, rows 2 and 3 repeating
 * row 0; an impossible matrix (c01 = 1, c02 = 1, c12 = -1: x1 = x0 and
 * x2 = x0 but x2 = -x1) is refused and leaves the identity.
 */
static void test_corr_factor(void **state)
{
	double c[CAL_PARAM_COUNT][CAL_PARAM_COUNT], L[CAL_PARAM_COUNT][CAL_PARAM_COUNT];
	(void)state;
	cal_corr_identity(c);
	c[0][1] = c[1][0] = 0.5;
	assert_int_equal(unc_corr_factor(c, L), 0);
	assert_close(L[1][0], 0.5, TOL_EXACT);
	assert_close(L[1][1], sqrt(0.75), TOL_EXACT);
	assert_factors(c, L);

	cal_corr_identity(c); /* three rates moving with one scale */
	c[0][2] = c[2][0] = c[0][3] = c[3][0] = c[2][3] = c[3][2] = 1;
	assert_int_equal(unc_corr_factor(c, L), 0);
	assert_true(L[2][2] == 0 && L[3][3] == 0);
	assert_close(L[2][0], 1, TOL_EXACT);
	assert_close(L[3][0], 1, TOL_EXACT);
	assert_factors(c, L);

	cal_corr_identity(c);
	c[0][1] = c[1][0] = 1;
	c[0][2] = c[2][0] = 1;
	c[1][2] = c[2][1] = -1;
	assert_int_equal(unc_corr_factor(c, L), -1);
	cal_corr_identity(c);
	assert_factors(c, L);
}

/*
 * Two parameters the fit cannot tell apart give a correlation of 1 up to
 * rounding, 1 + 1e-12 here: the pivot left, 1 - (1 + 1e-12)^2 = -2e-12,
 * is below zero by less than UNC_PIVOT_EPS and counts as zero, not as a
 * matrix that is not positive semi-definite.
 */
static void test_corr_factor_rounding(void **state)
{
	double c[CAL_PARAM_COUNT][CAL_PARAM_COUNT], L[CAL_PARAM_COUNT][CAL_PARAM_COUNT];
	(void)state;
	cal_corr_identity(c);
	c[0][1] = c[1][0] = 1 + 1e-12;
	assert_int_equal(unc_corr_factor(c, L), 0);
	assert_close(L[1][0], 1, TOL_TIGHT);
	assert_true(L[1][1] == 0);
}

/*
 * A calibration's spreads: a fitted parameter's relative spread is its
 * standard error over its value, 0.04 / 0.8 = 0.05; the model term is the
 * fit's residual, but never below UNC_MIN_MODEL_SD (0.02): a residual of
 * 0.01 gives 0.02, one of 0.05 gives 0.05.
 */
static void test_spec_from_calibration(void **state)
{
	struct cal_overlay o;
	struct unc_spec s;
	(void)state;
	memset(&o, 0, sizeof(o));
	cal_corr_identity(o.corr);
	cal_set(&o.eff.after, 0, 0.8);
	o.eff.fitted_mask = CAL_BIT(0);
	o.se[0] = 0.04;
	o.residual_sd = 0.01;
	unc_spec_default(&s);
	unc_spec_from_calibration(&s, &o);
	assert_close(s.rel_sd[0], 0.05, TOL_EXACT);
	assert_close(s.model_rel_sd, 0.02, TOL_EXACT);
	o.residual_sd = 0.05;
	unc_spec_from_calibration(&s, &o);
	assert_close(s.model_rel_sd, 0.05, TOL_EXACT);
}

/*
 * gemm_max_frac and mem_frac both shorten the step when they rise: drawn
 * with a negative correlation their effects cancel and the step time
 * spreads less than drawn independently, with a positive one more.
 */
static void test_correlation_changes_the_spread(void **state)
{
	struct workload w;
	struct gpu g;
	struct unc_spec s;
	struct unc_result neg, ind, pos;
	double c[CAL_PARAM_COUNT][CAL_PARAM_COUNT];
	(void)state;
	tc_unc_case(&w, &g);
	unc_spec_default(&s);
	unc_spec_zero(&s);
	s.samples = SAMPLES;
	s.rel_sd[eff_id_gemm_max_frac] = 0.1;
	s.rel_sd[eff_id_mem_frac] = 0.1;
	cal_corr_identity(c);
	tc_unc_run(&w, &g, &s, &ind);
	c[eff_id_gemm_max_frac][eff_id_mem_frac] = c[eff_id_mem_frac][eff_id_gemm_max_frac] = -0.9;
	assert_int_equal(unc_corr_factor(c, s.mix), 0);
	tc_unc_run(&w, &g, &s, &neg);
	c[eff_id_gemm_max_frac][eff_id_mem_frac] = c[eff_id_mem_frac][eff_id_gemm_max_frac] = 0.9;
	assert_int_equal(unc_corr_factor(c, s.mix), 0);
	tc_unc_run(&w, &g, &s, &pos);
	assert_true(neg.step_s.sd < ind.step_s.sd);
	assert_true(ind.step_s.sd < pos.step_s.sd);
}

static void test_cost_deadline_and_preemptions(void **state)
{
	struct workload w;
	struct gpu g;
	struct unc_spec s;
	struct unc_result od, spot;
	struct price_offer o;
	struct cost_billing bill = { COST_PER_SECOND, 60 };
	(void)state;
	tc_unc_case(&w, &g);
	tc_unc_offer(&o);
	unc_spec_default(&s);
	s.samples = SAMPLES;
	s.offer = &o;
	s.billing = &bill;
	tc_unc_run(&w, &g, &s, &od);
	assert_true(od.has_cost);
	assert_true(od.cost_usd.p10 <= od.cost_usd.p50 && od.cost_usd.p50 <= od.cost_usd.p90);
	s.deadline_s = od.total_s.p50;
	s.budget_usd = od.cost_usd.p90;
	tc_unc_run(&w, &g, &s, &od);
	/* The share of the same 200 draws at or below their own P50 and P90:
	 * 0.5 and 0.9 up to the quantiles' interpolation between samples
	 * (5 %: a few samples of 200); test_unc_closed_form.c checks the
	 * chance against its closed form. */
	assert_close(od.p_deadline, 0.5, 0.05);
	assert_close(od.p_budget, 0.9, 0.05);
	/* Spot: preemptions only lengthen the wall clock (the steady total
	 * draws none: test_unc_closed_form.c). */
	s.wall = 1;
	tc_unc_run(&w, &g, &s, &od);
	s.kind = COST_SPOT;
	s.preempt_per_h = 2;
	tc_unc_run(&w, &g, &s, &spot);
	assert_true(spot.wall_s.p50 > od.wall_s.p50);
	assert_true(spot.p_deadline_wall <= od.p_deadline_wall);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_spread_is_the_point_estimate),
		cmocka_unit_test(test_unvalidated_gpu_is_wider),
		cmocka_unit_test(test_unmeasured_collectives_are_wider),
		cmocka_unit_test(test_unmeasured_memory_rate_is_wider),
		cmocka_unit_test(test_unmeasured_attention_rate),
		cmocka_unit_test(test_framework_backed_by_fitted_runs),
		cmocka_unit_test(test_quantiles_ordered_and_deterministic),
		cmocka_unit_test(test_wider_inputs_wider_interval),
		cmocka_unit_test(test_deadline_met_at_equality),
		cmocka_unit_test(test_corr_factor),
		cmocka_unit_test(test_corr_factor_rounding),
		cmocka_unit_test(test_spec_from_calibration),
		cmocka_unit_test(test_correlation_changes_the_spread),
		cmocka_unit_test(test_cost_deadline_and_preemptions),
	};
	gsl_set_error_handler_off();
	return cmocka_run_group_tests(tests, tc_catalog_setup_frozen, tc_catalog_teardown);
}
