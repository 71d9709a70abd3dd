/*
 * test_optimizer.c - the registry of optimizers: its figures, the names each
 * family's loader accepts from it, and the state bytes the memory model and
 * a checkpoint count with it.
 */
#include "tc_test.h"
#include "tc_catalog.h"

#include <stdlib.h>

#include "../../src/io/wl_load.h"
#include "../../src/io/yaml_load.h"
#include "../../src/model/families/campaign.h"
#include "../../src/model/families/estimate.h"
#include "../../src/model/types/optimizer.h"

/* The state of each row (optimizer.h's sources): Adam's two fp32 moments,
 * one fp32 buffer for momentum SGD, LARS and Adagrad, Adafactor's factored
 * moment bounded at 0.05; sparse table rows under SGD keep no momentum. */
static void test_registry_rows(void **state)
{
	static const struct {
		enum optimizer o;
		double state, table; /* B per dense parameter, per table element */
	} want[] = {
		{ OPT_ADAMW, 8, 8 }, { OPT_SGD, 4, 0 }, { OPT_ADAFACTOR, 0.05, 0.05 },
		{ OPT_LARS, 4, 4 }, { OPT_ADAGRAD, 4, 4 },
	};
	(void)state;
	assert_int_equal(sizeof(want) / sizeof(want[0]), OPT_COUNT);
	for (size_t i = 0; i < OPT_COUNT; i++) {
		assert_close(opt_state_bytes(want[i].o), want[i].state, TOL_EXACT);
		assert_close(opt_table_state_bytes(want[i].o), want[i].table, TOL_EXACT);
		assert_string_equal(opt_name(want[i].o), opt_names[want[i].o]);
	}
	assert_null(opt_names[OPT_COUNT]);
	assert_string_equal(opt_name(OPT_COUNT), "optimizer");
}

/* Each family accepts the rows that name it, in the registry's order. */
static void test_family_names(void **state)
{
	static const char *const want[WL_KIND_COUNT][3] = {
		[WL_LLM] = { "adamw", "sgd", "adafactor" },
		[WL_VISION] = { "adamw", "sgd", "lars" },
		[WL_RECSYS] = { "adamw", "sgd", "adagrad" },
	};
	const char *names[OPT_COUNT + 1];
	enum optimizer ids[OPT_COUNT];
	(void)state;
	for (int k = 0; k < WL_KIND_COUNT; k++) {
		assert_int_equal(opt_names_of_family(k, names, ids), 3);
		for (int i = 0; i < 3; i++) {
			assert_string_equal(names[i], want[k][i]);
			assert_string_equal(opt_name(ids[i]), want[k][i]);
		}
		assert_null(names[3]);
	}
}

/* small.yaml's text with its optimizer replaced by `opt`, loaded. */
static int load_recsys_with(const char *opt, struct workload *w, struct tc_diag *d)
{
	static const char text[] =
		"kind: recsys\n"
		"model:\n"
		"  embedding_tables: [ { rows: 1000, dim: 16 } ]\n"
		"  dense_features: 13\n"
		"  bottom_mlp: [64, 16]\n"
		"  interaction: dot\n"
		"  top_mlp: [64, 1]\n"
		"training: { samples: 1e6, global_batch: 1024, optimizer: %s }\n"
		"plan: { gpu: a100-80gb-sxm, count: 2 }\n";
	char buf[sizeof(text) + 32];
	struct yn_doc doc = { 0 };
	int rc;

	snprintf(buf, sizeof(buf), text, opt);
	tc_diag_init(d);
	memset(w, 0, sizeof(*w));
	if (yn_load_buffer("t.yaml", buf, strlen(buf), &doc, d))
		return -1;
	rc = wl_load_doc(&doc, &dp, w, d);
	yn_doc_release(&doc);
	return rc;
}

/* The recommender loader takes its names from the registry: adagrad is
 * read, lars (a vision optimizer) is refused at its position (line 8,
 * column 58) with the family's names. */
static void test_loader_accepts(void **state)
{
	struct workload *w = calloc(1, sizeof(*w));
	struct tc_diag d;
	(void)state;
	assert_non_null(w);
	assert_int_equal(load_recsys_with("adagrad", w, &d), 0);
	assert_int_equal(w->train.optimizer, OPT_ADAGRAD);
	assert_int_equal(load_recsys_with("lars", w, &d), -1);
	assert_int_equal(d.count, 1);
	assert_string_equal(d.entry[0].msg, "t.yaml:8:58: 'optimizer' is 'lars' (expected one of: "
			    "adamw, sgd, adagrad)");
	free(w);
}

/*
 * tests/unit/data/recsys/small.yaml (test_recsys.c counts it): 3,729 dense
 * parameters; table-wise on 2 GPUs the fuller GPU holds the 1000 x 16 and
 * one 500 x 16 table, 24,000 fp32 elements, whatever the state per element
 * (the largest table goes first, ties to the first GPU).  Optimizer memory
 * = dense x state + the table elements x table state:
 *   adagrad: 3,729 x 4 + 24,000 x 4 = 14,916 + 96,000 = 110,916 B
 *   sgd:     3,729 x 4 + 24,000 x 0 = 14,916 B (momentum on the dense
 *            parameters, none on the sparse rows)
 *   adamw:   3,729 x 8 + 24,000 x 8 = 29,832 + 192,000 = 221,832 B
 */
static void test_recsys_state_bytes(void **state)
{
	static const enum optimizer opt[] = { OPT_ADAGRAD, OPT_SGD, OPT_ADAMW };
	static const double want[] = { 110916, 14916, 221832 };
	struct workload *w = tc_load_workload("tests/unit/data/recsys/small.yaml");
	struct est_workspace ws;
	struct plan_problem why;
	struct estimate e;
	struct gpu g;
	char msg[512];
	(void)state;
	assert_int_equal(gpu_catalog_lookup(&cat, "a100-80gb-sxm", &g, msg, sizeof(msg)), 0);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	for (int i = 0; i < 3; i++) {
		w->train.optimizer = opt[i];
		assert_int_equal(step_estimate(w, &g, &ws, &e, &why), 0);
		assert_close(e.mem_bytes[MEM_OPTIMIZER], want[i], TOL_EXACT);
	}
	est_workspace_release(&ws);
	free(w);
}

/* A checkpoint holds 16-bit weights, the fp32 master and the registry's
 * state per parameter: 2 + 4 + 8 = 14 B for AdamW (BLOOM's figure),
 * 2 + 4 + 4 = 10 for LARS and Adagrad, 2 + 4 + 0.05 for Adafactor; fp32
 * momentum SGD 4 + 4 = 8. */
static void test_checkpoint_bytes(void **state)
{
	(void)state;
	assert_close(campaign_state_bytes(1e9, PREC_BF16, OPT_ADAMW), 14e9, TOL_EXACT);
	assert_close(campaign_state_bytes(1e9, PREC_BF16, OPT_LARS), 10e9, TOL_EXACT);
	assert_close(campaign_state_bytes(1e9, PREC_FP16, OPT_ADAGRAD), 10e9, TOL_EXACT);
	assert_close(campaign_state_bytes(1e9, PREC_BF16, OPT_ADAFACTOR), 6.05e9, TOL_EXACT);
	assert_close(campaign_state_bytes(1e9, PREC_FP32, OPT_SGD), 8e9, TOL_EXACT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_rows),
		cmocka_unit_test(test_family_names),
		cmocka_unit_test(test_loader_accepts),
		cmocka_unit_test(test_recsys_state_bytes),
		cmocka_unit_test(test_checkpoint_bytes),
	};
	return cmocka_run_group_tests(tests, tc_catalog_setup_frozen, tc_catalog_teardown);
}
