/*
 * test_recsys_step.c - the operators of a recommender training step by
 * hand: the gathers, exchanges and sparse updates of each table
 * placement, the dense MLPs and interactions, the optimizer and the
 * gradient all-reduce, unified-memory offload, the buffers a placement
 * adds.  Most tests run tests/unit/data/recsys/small.yaml, whose sizes
 * are summed below, with one field changed.
 */
#include "tc_test.h"
#include "tc_catalog.h"

#include <stdlib.h>
#include <unistd.h>

#include "../../src/model/core/comm.h"
#include "../../src/model/families/estimate.h"
#include "../../src/model/families/recsys.h"

/*
 * small.yaml: a table of 1000 x 16 looked up twice a sample and three of
 * 500 x 16 looked up once: 4 tables, 40,000 parameters, 5 lookups and
 * 80 elements a sample (64 B a row in fp32), pooled width 64.  13 dense
 * features, bottom MLP 64, 16; dot interaction, top MLP 64, 1.  Global
 * batch 1,024 on 2 A100 (512 samples a GPU), fp16 activations (2 B),
 * fp32 tables (4 B) with Adagrad's 4 B of state an element.
 */
#define SMALL "tests/unit/data/recsys/small.yaml"

/* The A100 of the suite's catalog, its gather efficiency set to the
 * registry's defaults (85 % of bandwidth, 128 B of per-row cost). */
static void a100(struct gpu *g)
{
	char why[512];
	assert_int_equal(gpu_catalog_lookup(&cat, "a100-80gb-sxm", g, why,
					    sizeof(why)), 0);
	assert_int_equal(eff_set(&g->eff, eff_id_gather_max_frac, 0.85,
				 EFF_LAYER_FRAMEWORK), 1);
	assert_int_equal(eff_set(&g->eff, eff_id_gather_half_bytes, 128,
				 EFF_LAYER_FRAMEWORK), 1);
}

/* The estimate of w on the A100 into *e and its operators into ws (the
 * caller releases ws). */
static void step_of(const struct workload *w, struct est_workspace *ws,
		    struct estimate *e)
{
	struct gpu g;
	struct plan_problem why;
	a100(&g);
	assert_int_equal(est_workspace_init(ws, EST_MAX_OPS), 0);
	if (step_estimate(w, &g, ws, e, &why))
		fail_msg("estimate failed: %s", why.msg);
}

static const struct op *find_op(const struct est_workspace *ws,
				const char *name)
{
	for (size_t i = 0; i < ws->count; i++)
		if (!strcmp(ws->ops[i].name, name))
			return &ws->ops[i];
	return NULL;
}

static const struct op *must_op(const struct est_workspace *ws,
				const char *name)
{
	const struct op *o = find_op(ws, name);
	if (!o)
		fail_msg("no operator %s", name);
	return o;
}

/* small.yaml with placement `place` (and offload `off`): its operators. */
static void small_step(enum rec_placement place, enum rec_offload off,
		       struct est_workspace *ws, struct estimate *e)
{
	struct workload *w = tc_load_workload(SMALL);
	w->plan.embeddings = place;
	w->plan.offload = off;
	step_of(w, ws, e);
	free(w);
}

/* The YAML text `yaml` loaded as a workload (the caller frees it). */
static struct workload *load_text(const char *yaml)
{
	char path[] = TC_TEMP_FILE;
	struct workload *w;
	tc_write_temp(path, yaml);
	w = tc_load_workload(path);
	unlink(path);
	return w;
}

/* ------------------------------------------------------------------ */

/* The bottom MLP's first GEMM reads the 13 dense features padded to 16
 * for the tensor cores: 2 x 512 x 64 x 16 = 1,048,576 FLOP. */
static void test_dense_features_padded(void **state)
{
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	small_step(EMB_TABLE_WISE, OFFLOAD_NONE, &ws, &e);
	assert_close(must_op(&ws, "bottom1.fwd")->flop, 1048576.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* The dense features need no gradient: the bottom MLP's first layer has
 * a weight gradient and no data gradient, the second both. */
static void test_first_bottom_layer_no_data_gradient(void **state)
{
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	small_step(EMB_TABLE_WISE, OFFLOAD_NONE, &ws, &e);
	assert_null(find_op(&ws, "bottom1.bwd_d"));
	assert_non_null(find_op(&ws, "bottom1.bwd_w"));
	assert_non_null(find_op(&ws, "bottom2.bwd_d"));
	est_workspace_release(&ws);
}

/* The dot interaction of f = 4 + 1 = 5 vectors of 16: forward the f x f
 * products, 2 x 512 x 25 x 16 = 409,600 FLOP; backward both operands'
 * gradients, twice that, 819,200. */
static void test_dot_interaction_flop(void **state)
{
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	small_step(EMB_TABLE_WISE, OFFLOAD_NONE, &ws, &e);
	assert_close(must_op(&ws, "interaction.fwd")->flop, 409600.0, TOL_EXACT);
	assert_close(must_op(&ws, "interaction.bwd")->flop, 819200.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/*
 * Model FLOPs: 6 x the multiply-adds a sample x the global batch.  Bottom
 * 13 x 64 + 64 x 16 = 1,856; top 26 x 64 + 64 x 1 = 1,728; the dot
 * products (4 + 1)^2 x 16 = 400: 3,984 a sample, 6 x 3,984 x 1,024 =
 * 24,477,696 FLOP a step.
 */
static void test_model_flop(void **state)
{
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	small_step(EMB_TABLE_WISE, OFFLOAD_NONE, &ws, &e);
	assert_close(e.model_flop_per_step, 24477696.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* The dense optimizer: AdamW reads and writes fp32 weights and two
 * moments and reads the gradient, 28 B a parameter: 3,729 x 28 =
 * 104,412 B (Adagrad, one state: 20 B, 74,580 B). */
static void test_dense_optimizer_bytes(void **state)
{
	struct workload *w = tc_load_workload(SMALL);
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	step_of(w, &ws, &e);
	assert_close(must_op(&ws, "optimizer.dense")->bytes, 74580.0, TOL_EXACT);
	est_workspace_release(&ws);
	w->train.optimizer = OPT_ADAMW;
	step_of(w, &ws, &e);
	assert_close(must_op(&ws, "optimizer.dense")->bytes, 104412.0, TOL_EXACT);
	est_workspace_release(&ws);
	free(w);
}

/* The dense gradients are all-reduced in fp32: 3,729 x 4 = 14,916 B. */
static void test_dense_allreduce_bytes(void **state)
{
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	small_step(EMB_TABLE_WISE, OFFLOAD_NONE, &ws, &e);
	assert_close(must_op(&ws, "dp.grad_allreduce")->bytes, 14916.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/*
 * DCNv2: two tables of 8 wide, 8 dense features, bottom MLP 8, two cross
 * layers of rank 4 over (2 + 1) x 8 = 24 features; 64 samples on one
 * GPU in fp16.  Each cross layer's element-wise part reads x0, the
 * projection and x and writes x forward (4 passes), 6 backward: 2 x 4 x
 * 64 x 24 x 2 B = 24,576 B and 2 x 6 x 64 x 24 x 2 B = 36,864 B.
 */
static void test_dcn_cross_elementwise(void **state)
{
	struct workload *w = load_text(
		"kind: recsys\n"
		"model:\n"
		"  embedding_tables:\n"
		"    - { count: 2, rows: 100, dim: 8 }\n"
		"  dense_features: 8\n"
		"  bottom_mlp: [8]\n"
		"  interaction: dcnv2\n"
		"  cross_layers: 2\n"
		"  cross_rank: 4\n"
		"  top_mlp: [16, 1]\n"
		"training: { samples: 1e6, global_batch: 64, precision: fp16 }\n"
		"plan: { gpu: a100-80gb-sxm, count: 1 }\n");
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	step_of(w, &ws, &e);
	assert_close(must_op(&ws, "cross.elementwise.fwd")->bytes, 24576.0,
		     TOL_EXACT);
	assert_close(must_op(&ws, "cross.elementwise.bwd")->bytes, 36864.0,
		     TOL_EXACT);
	est_workspace_release(&ws);
	free(w);
}

/*
 * NeuMF: a 16-wide user and item table for the GMF pair, a 32-wide pair
 * for the MLP tower; 1,024 samples on one GPU in fp16.  The GMF product
 * of the 16-wide vectors reads two and writes one: 3 x 1,024 x 16 x 2 B
 * = 98,304 B.
 */
#define NEUMF                                                                \
	"kind: recsys\n"                                                     \
	"model:\n"                                                           \
	"  embedding_tables:\n"                                              \
	"    - { rows: 1000, dim: 16 }\n"                                    \
	"    - { rows: 500, dim: 16 }\n"                                     \
	"    - { rows: 1000, dim: 32 }\n"                                    \
	"    - { rows: 500, dim: 32 }\n"                                     \
	"  interaction: neumf\n"                                             \
	"  top_mlp: [64, 1]\n"                                               \
	"training: { samples: 1e6, global_batch: 1024, precision: fp16 }\n"  \
	"plan: { gpu: a100-80gb-sxm, count: 1 }\n"

static void test_gmf_product_bytes(void **state)
{
	struct workload *w = load_text(NEUMF);
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	step_of(w, &ws, &e);
	assert_close(must_op(&ws, "gmf.fwd")->bytes, 98304.0, TOL_EXACT);
	est_workspace_release(&ws);
	free(w);
}

/* The MLP tower reads the tables after the GMF pair: 96 - 2 x 16 = 64
 * features, copied into one input: 2 x 1,024 x 64 x 2 B = 262,144 B. */
static void test_neumf_tower_input(void **state)
{
	struct workload *w = load_text(NEUMF);
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	step_of(w, &ws, &e);
	assert_close(must_op(&ws, "concat.fwd")->bytes, 262144.0, TOL_EXACT);
	est_workspace_release(&ws);
	free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dense_features_padded),
		cmocka_unit_test(test_first_bottom_layer_no_data_gradient),
		cmocka_unit_test(test_dot_interaction_flop),
		cmocka_unit_test(test_model_flop),
		cmocka_unit_test(test_dense_optimizer_bytes),
		cmocka_unit_test(test_dense_allreduce_bytes),
		cmocka_unit_test(test_dcn_cross_elementwise),
		cmocka_unit_test(test_gmf_product_bytes),
		cmocka_unit_test(test_neumf_tower_input),
	};
	tc_use_test_data();
	return cmocka_run_group_tests(tests, tc_catalog_setup_frozen,
				      tc_catalog_teardown);
}
