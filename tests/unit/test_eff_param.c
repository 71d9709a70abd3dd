/*
 * test_eff_param.c - the registry of efficiency parameters: its order and
 * bounds, the layers a value resolves through, the GPU-file keys it
 * generates and the table docs/model.md carries.
 */
#include "tc_test.h"

#include <stdlib.h>

#include "../../src/io/gpu_load.h"
#include "../../src/model/analyses/calibrate.h"
#include "../../src/model/types/eff_param.h"
#include "../../src/report/eff_table.h"

/* Calibration files and masks index the calibrated rows from 0: they come
 * first, and every default lies inside its bounds. */
static void test_registry_rows(void **state)
{
	int cal = 0;
	(void)state;
	for (int p = 0; p < EFF_COUNT; p++) {
		const struct eff_param *e = &eff_params[p];
		assert_int_equal(eff_find(e->name), p);
		assert_int_equal(e->calibrated, p < CAL_PARAM_COUNT);
		cal += e->calibrated;
		assert_true(e->lo <= e->def && e->def <= e->hi);
		assert_true(e->default_rel_sd >= 0);
		if (e->kind == EFF_FRAC)
			assert_true(e->lo >= 0 && e->hi <= 1);
		else
			assert_true(e->fit_floor > 0);
		assert_non_null(e->unit);
		assert_true(strlen(e->source) > 0 && strlen(e->what) > 0);
	}
	assert_int_equal(cal, CAL_PARAM_COUNT);
	assert_int_equal(eff_find("no_such_parameter"), -1);
	assert_int_equal(cal_param_find("conv_frac"), -1); /* not calibratable */
	assert_int_equal(cal_param_find("mem_frac"), eff_id_mem_frac);
}

/* A higher layer wins whatever the order the layers are applied in. */
static void test_layers(void **state)
{
	struct roof_eff e;
	(void)state;
	eff_default(&e);
	assert_close(e.conv_frac, eff_params[eff_id_conv_frac].def, TOL_EXACT);
	assert_int_equal(e.layer[eff_id_conv_frac], EFF_LAYER_DEFAULT);

	assert_int_equal(eff_set(&e, eff_id_conv_frac, 0.7, EFF_LAYER_CALIBRATION), 1);
	assert_int_equal(eff_set(&e, eff_id_conv_frac, 0.6, EFF_LAYER_GPU), 0);
	assert_close(e.conv_frac, 0.7, TOL_EXACT);
	assert_int_equal(e.layer[eff_id_conv_frac], EFF_LAYER_CALIBRATION);

	assert_int_equal(eff_set(&e, eff_id_mem_frac, 0.6, EFF_LAYER_GPU), 1);
	assert_int_equal(eff_set(&e, eff_id_mem_frac, 0.65, EFF_LAYER_FRAMEWORK), 1);
	assert_int_equal(eff_set(&e, eff_id_mem_frac, 0.9, EFF_LAYER_DEFAULT), 0);
	assert_close(e.mem_frac, 0.65, TOL_EXACT);
	assert_close(eff_get(&e, eff_id_mem_frac), 0.65, TOL_EXACT);
}

/*
 * gpu_resolve() puts a stack's values into a GPU's efficiencies and keeps
 * the stack's identity; the GPU it starts from is left as it was; a
 * calibrated GPU keeps its values, and counts as measured where the stack
 * layer does not.
 */
static void test_gpu_resolve(void **state)
{
	struct gpu base, g;
	struct eff_stack st = { .id = "stack", .fitted_runs = 3 };
	(void)state;
	tc_test_a100(&base);
	st.set = 1ULL << eff_id_stack_frac | 1ULL << eff_id_launch_s;
	st.value[eff_id_stack_frac] = 0.8;
	st.value[eff_id_launch_s] = 5e-6;
	gpu_resolve(&g, &base, &st, NULL);
	assert_close(g.eff.stack_frac, 0.8, TOL_EXACT);
	assert_close(g.eff.launch_s, 5e-6, TOL_EXACT);
	assert_int_equal(g.eff.layer[eff_id_stack_frac], EFF_LAYER_FRAMEWORK);
	assert_int_equal(eff_measured(&g.eff, eff_id_stack_frac), 0);
	assert_string_equal(g.stack.id, "stack");
	assert_int_equal(g.stack.fitted_runs, 3);
	assert_true(eff_stack_same(&g.stack, &st));
	assert_close(base.eff.stack_frac, eff_params[eff_id_stack_frac].def, TOL_EXACT);
	assert_string_equal(base.stack.id, "");

	/* a stack with another value is another stack */
	struct eff_stack other = st;
	other.value[eff_id_stack_frac] = 0.7;
	assert_false(eff_stack_same(&g.stack, &other));

	/* a calibration drops the stack's layer, the identity stays: fitted on
	 * this GPU, gemm_max_frac from 0.85 to 0.8 */
	struct eff_calibration cal = { .measurements = 2, .fitted_mask = CAL_BIT(eff_id_gemm_max_frac) };
	strcpy(cal.gpu, base.id);
	strcpy(cal.fitted_from, "m.yaml");
	cal.before = base.eff;
	cal.before.gemm_max_frac = 0.85;
	cal.after = cal.before;
	cal.after.gemm_max_frac = 0.8;
	gpu_resolve(&g, &base, &st, &cal);
	assert_close(g.eff.stack_frac, eff_params[eff_id_stack_frac].def, TOL_EXACT);
	assert_close(g.eff.launch_s, base.eff.launch_s, TOL_EXACT);
	assert_close(g.eff.gemm_max_frac, 0.8, TOL_EXACT);
	assert_int_equal(eff_measured(&g.eff, eff_id_gemm_max_frac), 1);
	assert_string_equal(g.stack.id, "stack");
	assert_string_equal(g.eff.source, "calibrated from m.yaml (2 measurements on a100-80gb-sxm)");
	assert_int_equal(eff_calibrated(&base.eff), 0);

	/* on another GPU the fit is carried as a ratio: 0.9 x 0.8 / 0.85 */
	strcpy(base.id, "h100-sxm");
	base.eff.gemm_max_frac = 0.9;
	gpu_resolve(&g, &base, &st, &cal);
	assert_close(g.eff.gemm_max_frac, 0.9 * 0.8 / 0.85, TOL_EXACT);
	assert_close(g.eff.stack_frac, eff_params[eff_id_stack_frac].def, TOL_EXACT);
}

/* A GPU file may set any registry key; it becomes the GPU layer. */
static void test_gpu_file_keys(void **state)
{
	struct gpu g;
	struct tc_diag d;
	(void)state;
	tc_diag_init(&d);
	assert_int_equal(gpu_load_file("tests/unit/data/gpu/with-efficiency.yaml", &g, &d), 0);
	assert_close(g.eff.gather_half_bytes, 64, TOL_EXACT);
	assert_int_equal(g.eff.layer[eff_id_gather_half_bytes], EFF_LAYER_GPU);
	assert_int_equal(g.eff.layer[eff_id_gemm_max_frac], EFF_LAYER_GPU);
	assert_int_equal(g.eff.layer[eff_id_conv_frac], EFF_LAYER_DEFAULT);
}

/* Read the text between the markers of docs/model.md into a new string. */
static char *doc_table(void)
{
	FILE *f = fopen("docs/model.md", "r");
	static char doc[1 << 17];
	size_t n;
	assert_non_null(f);
	n = fread(doc, 1, sizeof(doc) - 1, f);
	fclose(f);
	doc[n] = 0;
	char *a = strstr(doc, REP_EFF_TABLE_BEGIN "\n");
	char *b = strstr(doc, REP_EFF_TABLE_END);
	assert_non_null(a);
	assert_non_null(b);
	a += strlen(REP_EFF_TABLE_BEGIN "\n");
	assert_true(b >= a);
	return strndup(a, (size_t)(b - a));
}

/* docs/model.md carries the registry as generated. */
static void test_doc_table(void **state)
{
	char *want = NULL, *have;
	size_t len = 0;
	FILE *m = open_memstream(&want, &len);
	(void)state;
	assert_non_null(m);
	rep_eff_table_md(m);
	fclose(m);
	have = doc_table();
	if (strcmp(have, want))
		fail_msg("docs/model.md: the efficiency table differs from the "
			 "registry; replace it between the markers with:\n%s", want);
	free(have);
	free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_rows),
		cmocka_unit_test(test_layers),
		cmocka_unit_test(test_gpu_resolve),
		cmocka_unit_test(test_gpu_file_keys),
		cmocka_unit_test(test_doc_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
