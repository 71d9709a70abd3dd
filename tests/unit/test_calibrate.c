/*
 * test_calibrate.c - the fit recovers known parameters, holds what the data
 * cannot determine, and the measurements and overlay files.
 */
#include "tc_test.h"

#include <stdlib.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "../../src/cli/cmd_calibrate.h"
#include "../../src/cli/cli_ctx.h"
#include "../../src/io/calib_file.h"
#include "../../src/io/meas_load.h"
#include "../../src/io/val_load.h"
#include "../../src/model/analyses/calibrate.h"
#include "../../src/model/analyses/crossval.h"
#include "../../src/model/families/llm.h"

#define NOISE_REL_SD 0.01   /* synthetic measurement noise */
#define RECOVER_SE 3.0      /* recovered within this many standard errors */
#define SUBSET_STRIDE 80    /* vTrain rows used by the fast tests */

static struct val_set vtrain; /* loaded once by the group setup */

static int load_vtrain(void **state)
{
	struct tc_diag d;
	(void)state;
	val_set_init(&vtrain);
	tc_diag_init(&d);
	return val_load_file(TC_TEST_DATA "/validation/vtrain-a100.csv", tc_test_datapath(), &vtrain, &d);
}

static int free_vtrain(void **state)
{
	(void)state;
	val_set_release(&vtrain);
	return 0;
}

/* Every stride-th vTrain row from `phase` into *out (count in *n). */
static void load_subset(size_t phase, size_t stride, struct val_case **out, size_t *n)
{
	assert_true(vtrain.count > 0);
	*out = malloc(vtrain.count * sizeof(**out));
	assert_non_null(*out);
	*n = 0;
	for (size_t i = phase; i < vtrain.count; i += stride)
		(*out)[(*n)++] = vtrain.cases[i];
}

/* Replace each measurement by the model's prediction with *truth, times
 * (1 + noise * N(0,1)). */
static void synthesise(struct val_case *c, size_t n, const struct roof_eff *truth, double noise)
{
	struct gpu g;
	struct est_workspace ws;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	assert_non_null(r);
	gsl_rng_set(r, 7);
	tc_test_a100(&g);
	g.eff = *truth;
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	for (size_t i = 0; i < n; i++) {
		struct plan_problem why;
		double p;
		assert_int_equal(val_predict(&c[i], &g, &ws, &p, &why), 0);
		c[i].measured = p * (1 + noise * gsl_ran_gaussian(r, 1.0));
	}
	est_workspace_release(&ws);
	gsl_rng_free(r);
}

static void test_recovers_known_parameters(void **state)
{
	struct val_case *c;
	size_t n;
	struct roof_eff truth;
	struct gpu g;
	struct cal_options o = { 0 };
	struct cal_result r;
	struct tc_diag d;
	static const enum eff_id fit[] = { eff_id_gemm_half_flop, eff_id_mem_frac, eff_id_launch_s };
	(void)state;

	load_subset(0, SUBSET_STRIDE, &c, &n);
	eff_default(&truth);
	truth.gemm_half_flop = 5e9;
	truth.mem_frac = 0.7;
	truth.launch_s = 35e-6;
	synthesise(c, n, &truth, NOISE_REL_SD);
	tc_test_a100(&g); /* starts from the catalog defaults */
	for (size_t k = 0; k < 3; k++)
		o.fit_mask |= CAL_BIT(fit[k]);
	tc_diag_init(&d);
	assert_int_equal(cal_fit(c, NULL, n, &g, &o, &r, &d), 0);
	assert_true(r.se_available);
	for (size_t k = 0; k < 3; k++) {
		double got = cal_get(&r.after, fit[k]), want = cal_get(&truth, fit[k]);
		print_message("%-16s true %.4g fitted %.4g +- %.2g\n", eff_params[fit[k]].name, want, got,
			      r.se[fit[k]]);
		assert_true(r.se[fit[k]] > 0);
		assert_true(fabs(got - want) <= RECOVER_SE * r.se[fit[k]]);
	}
	assert_true(r.err_after.mape < r.err_before.mape);
	assert_true(r.rms_after < 2 * NOISE_REL_SD);
	/* Held parameters keep their starting values exactly. */
	assert_true(cal_get(&r.after, eff_id_gemm_max_frac) == g.eff.gemm_max_frac);
	free(c);
}

/* One measurement: one global time scale, recovered exactly without noise. */
static void test_one_measurement_fits_a_scale(void **state)
{
	struct val_case *c;
	size_t n;
	struct gpu g;
	struct cal_result r;
	struct tc_diag d;
	struct roof_eff truth;
	(void)state;
	load_subset(5, 10000, &c, &n);
	assert_int_equal(n, 1);
	eff_default(&truth);
	synthesise(c, 1, &truth, 0);
	c[0].measured *= 1.25;
	tc_test_a100(&g);
	tc_diag_init(&d);
	assert_int_equal(cal_fit(c, NULL, 1, &g, NULL, &r, &d), 0);
	assert_true(r.scale_mode);
	assert_close(r.scale, 1.25, 1e-5);
	assert_false(r.se_available);
	assert_true(r.err_after.mape < 1e-5);
	assert_int_equal(r.held[eff_id_mem_frac], CAL_HELD_SCALED);
	assert_int_equal(r.held[eff_id_gemm_half_flop], CAL_HELD_ASKED);
	assert_close(r.after.mem_frac, g.eff.mem_frac / 1.25, 1e-5);
	free(c);
}

/* Chosen from the data: attention has no fused kernel in vTrain. */
static void test_selection_holds_what_data_cannot_see(void **state)
{
	struct val_case *c;
	size_t n;
	struct gpu g;
	struct cal_result r;
	struct tc_diag d;
	(void)state;
	load_subset(1, SUBSET_STRIDE, &c, &n);
	tc_test_a100(&g);
	tc_diag_init(&d);
	assert_int_equal(cal_fit(c, NULL, n, &g, NULL, &r, &d), 0);
	assert_false(r.scale_mode);
	assert_int_equal(r.held[eff_id_attn_frac], CAL_HELD_NO_EFFECT);
	assert_true(r.p >= 1 && r.p <= (n - 1) / 2);
	assert_true(r.err_after.mape <= r.err_before.mape + 1e-12);
	free(c);
}

/* Calibrating on some rows lowers the error on other rows, from a start
 * that was not fitted to either. */
static void test_generalises_to_held_out_rows(void **state)
{
	struct val_case *fit, *test;
	size_t nf, nt;
	struct gpu g;
	struct cal_options o = { 0 };
	struct cal_result r, rt;
	struct roof_eff start;
	struct tc_diag d;
	(void)state;
	load_subset(0, SUBSET_STRIDE, &fit, &nf);
	load_subset(1, SUBSET_STRIDE, &test, &nt);
	tc_test_a100(&g);
	eff_default(&start);
	start.gemm_half_flop = 2e8; /* fit_defaults' fixed starting point */
	start.mem_frac = 0.8;
	start.launch_s = 1e-5;
	start.launch_overlap_frac = 0.1;
	o.start = &start;
	o.fit_mask = CAL_BIT(eff_id_gemm_half_flop) | CAL_BIT(eff_id_mem_frac) | CAL_BIT(eff_id_launch_s) |
		     CAL_BIT(eff_id_launch_overlap_frac);
	tc_diag_init(&d);
	assert_int_equal(cal_fit(fit, NULL, nf, &g, &o, &r, &d), 0);
	/* Evaluate both on the held-out rows: a fit of 1 parameter held fixed. */
	struct cal_options ev = { .fit_mask = CAL_BIT(eff_id_attn_frac), .max_iter = 1, .start = &start };
	assert_int_equal(cal_fit(test, NULL, nt, &g, &ev, &rt, &d), 0);
	double before = rt.err_before.mape;
	ev.start = &r.after;
	assert_int_equal(cal_fit(test, NULL, nt, &g, &ev, &rt, &d), 0);
	print_message("held-out MAPE: start %.2f%%, calibrated %.2f%%\n", 100 * before,
		      100 * rt.err_before.mape);
	assert_true(rt.err_before.mape < 0.75 * before);
	free(fit);
	free(test);
}

/* K-fold: every case is held out once; calibration lowers the held-out
 * error from a start that was fitted to none of them. */
static void test_cross_validation(void **state)
{
	struct val_case *c;
	size_t n;
	struct gpu g;
	struct roof_eff start;
	struct cal_options o = { 0 };
	struct val_cv_fold f[3];
	struct tc_diag d;
	(void)state;
	load_subset(0, SUBSET_STRIDE, &c, &n);
	tc_test_a100(&g);
	eff_default(&start);
	start.mem_frac = 0.5;
	start.launch_s = 1e-5;
	o.start = &start;
	o.fit_mask = CAL_BIT(eff_id_mem_frac) | CAL_BIT(eff_id_launch_s);
	tc_diag_init(&d);
	assert_int_equal(val_cross_validate(c, n, &g, 3, &o, f, &d), 0);
	size_t total = 0;
	for (int k = 0; k < 3; k++) {
		total += f[k].n_test;
		assert_int_equal(f[k].n_fit + f[k].n_test, n);
		assert_true(f[k].after.mape < f[k].before.mape);
	}
	assert_int_equal(total, n);
	assert_int_equal(val_cross_validate(c, 2, &g, 3, &o, f, &d), -1);
	free(c);
}

static void test_measurements_file(void **state)
{
	struct tc_datapath dp;
	struct tc_diag d;
	struct meas_set m;
	(void)state;
	tc_diag_init(&d);
	assert_int_equal(dp_init(&dp, NULL, 0, &d), 0);
	assert_int_equal(meas_load_file("examples/measurements-a100.yaml", &dp, &m, &d), 0);
	assert_int_equal(m.cases.count, 6);
	assert_int_equal(m.cases.cases[2].w.plan.count, 4);
	assert_int_equal(m.cases.cases[2].w.plan.micro_batch, 2);
	assert_int_equal(m.cases.cases[4].w.plan.pp, 2);
	assert_int_equal(m.cases.cases[4].w.plan.dp, 0);
	assert_int_equal(m.cases.cases[0].metric, VAL_ITER_TIME);
	assert_close(m.cases.cases[0].measured, 0.689778, TOL_EXACT);
	assert_close(m.weight[0], 1, TOL_EXACT);
	meas_set_release(&m);
}

static void test_measurements_bad_input(void **state)
{
	static const struct { const char *file, *msg; } cases[] = {
		{ "tests/unit/data/meas/two-measures.yaml",
		  "tests/unit/data/meas/two-measures.yaml:4:5: run 1 has 2 measurements (expected exactly one of "
		  "step_time, tokens_per_s, samples_per_s, mfu)" },
		{ "tests/unit/data/meas/unknown-key.yaml",
		  "tests/unit/data/meas/unknown-key.yaml:4:5: unknown key 'step_tme' in run (did you mean 'step_time'?)" },
		{ "tests/unit/data/meas/bad-fit.yaml",
		  "tests/unit/data/meas/bad-fit.yaml:2:17: unknown parameter 'launch' (did you mean 'launch_s'?)" },
		{ "tests/unit/data/meas/bad-plan.yaml",
		  "tests/unit/data/meas/bad-plan.yaml:4:11: count 12 is not a multiple of tp x pp = 8 (expected a multiple)" },
	};
	struct tc_datapath dp;
	struct tc_diag d;
	(void)state;
	tc_diag_init(&d);
	assert_int_equal(dp_init(&dp, NULL, 0, &d), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct meas_set m;
		tc_diag_init(&d);
		assert_int_equal(meas_load_file(cases[i].file, &dp, &m, &d), -1);
		assert_int_equal(d.severity, TC_EXIT_INPUT);
		assert_string_equal(d.entry[0].msg, cases[i].msg);
		meas_set_release(&m);
	}
}

static void test_overlay_round_trip_and_apply(void **state)
{
	struct cal_overlay o, back;
	struct tc_diag d;
	struct gpu g, h;
	char path[] = "/tmp/tc-calib-XXXXXX";
	int fd = mkstemp(path);
	(void)state;
	assert_true(fd >= 0);
	close(fd);
	tc_diag_init(&d);
	assert_int_equal(calib_read_file("examples/calibration-a100.yaml", &o, &d), 0);
	assert_string_equal(o.eff.gpu, "a100-80gb-sxm");
	assert_int_equal(o.eff.measurements, 6);
	assert_int_equal(calib_write_file(path, stdout, &o, &d), 0);
	assert_int_equal(calib_read_file(path, &back, &d), 0);
	unlink(path);
	for (int p = 0; p < CAL_PARAM_COUNT; p++) {
		assert_close(cal_get(&back.eff.after, p), cal_get(&o.eff.after, p), 1e-5);
		assert_close(back.se[p], o.se[p], 1e-5);
		for (int q = 0; q < CAL_PARAM_COUNT; q++)
			assert_true(fabs(back.corr[p][q] - o.corr[p][q]) < 1e-4 &&
				    back.corr[p][q] == back.corr[q][p]);
	}
	/* The example's two fitted parameters trade off (file: -0.9269). */
	assert_close(o.corr[eff_id_gemm_max_frac][eff_id_mem_frac], -0.9269, TOL_EXACT);
	assert_close(o.corr[eff_id_gemm_half_flop][eff_id_gemm_half_flop], 1, TOL_EXACT);
	assert_int_equal(back.eff.fitted_mask, o.eff.fitted_mask);
	/* Same GPU: the fitted values. */
	struct eff_stack none = { .id = "" };
	tc_test_a100(&g);
	gpu_resolve(&g, &g, &none, cal_layer(&o));
	assert_close(g.eff.mem_frac, o.eff.after.mem_frac, TOL_EXACT);
	assert_int_equal(g.eff.layer[eff_id_mem_frac], EFF_LAYER_CALIBRATION);
	assert_null(strstr(g.eff.source, "carried over"));
	/* Another GPU: the ratio to the defaults. */
	tc_test_a100(&h);
	strcpy(h.id, "h100-sxm");
	h.eff.mem_frac = 0.9;
	gpu_resolve(&h, &h, &none, cal_layer(&o));
	assert_close(h.eff.mem_frac, 0.9 * o.eff.after.mem_frac / o.eff.before.mem_frac, TOL_EXACT);
	assert_non_null(strstr(h.eff.source, "carried over as ratios"));
	/* A zeroed overlay is no calibration. */
	memset(&back, 0, sizeof(back));
	assert_null(cal_layer(&back));
}

/* The command in-process (it is not in the command table yet). */
static void test_cmd_calibrate(void **state)
{
	struct cli_ctx ctx;
	struct tc_diag d;
	char out_path[] = "/tmp/tc-calcmd-XXXXXX";
	char buf[4096];
	int fd = mkstemp(out_path);
	(void)state;
	assert_true(fd >= 0);
	close(fd);
	memset(&ctx, 0, sizeof(ctx));
	snprintf(ctx.today, sizeof(ctx.today), "%s", TC_TEST_TODAY);
	ctx.out = tmpfile();
	ctx.err = tmpfile();
	assert_non_null(ctx.out);
	assert_non_null(ctx.err);
	tc_diag_init(&d);
	assert_int_equal(dp_init(&ctx.data, NULL, 0, &d), 0);
	char a0[] = "calibrate", a1[] = "examples/measurements-a100.yaml", a2[] = "-o", a3[] = "--fit",
	     a4[] = "nope";
	char *argv[] = { a0, a1, a2, out_path, NULL };
	assert_int_equal(cmd_calibrate(4, argv, &ctx), TC_EXIT_OK);
	rewind(ctx.out);
	size_t len = fread(buf, 1, sizeof(buf) - 1, ctx.out);
	buf[len] = '\0';
	assert_non_null(strstr(buf, "Calibration of a100-80gb-sxm from examples/measurements-a100.yaml: 6 measurements"));
	assert_non_null(strstr(buf, "Error on the measurements"));
	/* The shipped example is what the command writes. */
	FILE *a = fopen(out_path, "r"), *b = fopen("examples/calibration-a100.yaml", "r");
	assert_non_null(a);
	assert_non_null(b);
	char la[512], lb[512];
	while (fgets(la, sizeof(la), a)) {
		assert_non_null(fgets(lb, sizeof(lb), b));
		if (strncmp(la, "fitted_from:", 12))
			assert_string_equal(la, lb);
	}
	assert_null(fgets(lb, sizeof(lb), b));
	fclose(a);
	fclose(b);
	unlink(out_path);
	/* Usage errors. */
	char *bad[] = { a0, NULL };
	assert_int_equal(cmd_calibrate(1, bad, &ctx), TC_EXIT_USAGE);
	char *badfit[] = { a0, a1, a3, a4, NULL };
	assert_int_equal(cmd_calibrate(4, badfit, &ctx), TC_EXIT_USAGE);
	fclose(ctx.out);
	fclose(ctx.err);
}

int main(void)
{
	tc_use_test_data();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recovers_known_parameters),
		cmocka_unit_test(test_one_measurement_fits_a_scale),
		cmocka_unit_test(test_selection_holds_what_data_cannot_see),
		cmocka_unit_test(test_generalises_to_held_out_rows),
		cmocka_unit_test(test_cross_validation),
		cmocka_unit_test(test_measurements_file),
		cmocka_unit_test(test_measurements_bad_input),
		cmocka_unit_test(test_overlay_round_trip_and_apply),
		cmocka_unit_test(test_cmd_calibrate),
	};
	gsl_set_error_handler_off();
	return cmocka_run_group_tests(tests, load_vtrain, free_vtrain);
}
