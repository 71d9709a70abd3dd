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
#include "tc_ops.h"

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
	assert_close(tc_must_op(&ws, "bottom1.fwd")->flop, 1048576.0, TOL_EXACT);
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
	assert_null(tc_find_op(&ws, "bottom1.bwd_d"));
	assert_non_null(tc_find_op(&ws, "bottom1.bwd_w"));
	assert_non_null(tc_find_op(&ws, "bottom2.bwd_d"));
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
	assert_close(tc_must_op(&ws, "interaction.fwd")->flop, 409600.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "interaction.bwd")->flop, 819200.0, TOL_EXACT);
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
	assert_close(tc_must_op(&ws, "optimizer.dense")->bytes, 74580.0, TOL_EXACT);
	est_workspace_release(&ws);
	w->train.optimizer = OPT_ADAMW;
	step_of(w, &ws, &e);
	assert_close(tc_must_op(&ws, "optimizer.dense")->bytes, 104412.0, TOL_EXACT);
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
	assert_close(tc_must_op(&ws, "dp.grad_allreduce")->bytes, 14916.0, TOL_EXACT);
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
	assert_close(tc_must_op(&ws, "cross.elementwise.fwd")->bytes, 24576.0,
		     TOL_EXACT);
	assert_close(tc_must_op(&ws, "cross.elementwise.bwd")->bytes, 36864.0,
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
	assert_close(tc_must_op(&ws, "gmf.fwd")->bytes, 98304.0, TOL_EXACT);
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
	assert_close(tc_must_op(&ws, "concat.fwd")->bytes, 262144.0, TOL_EXACT);
	est_workspace_release(&ws);
	free(w);
}

/* A row of 48 B spans two 32-byte sectors, 64 B fetched: 0.85 x 64 /
 * (64 + 128) x 48 / 64 = 0.85 x 1/3 x 3/4 = 0.2125 of the bandwidth. */
static void test_gather_frac_whole_sectors(void **state)
{
	struct gpu g;
	(void)state;
	a100(&g);
	assert_close(recsys_gather_frac(&g.eff, 48), 0.2125, TOL_EXACT);
}

/* Replicated tables: each GPU looks up its own 512 samples, 512 x 80 =
 * 40,960 elements of 4 B and 512 x 5 = 2,560 row indices of 8 B:
 * 163,840 + 20,480 = 184,320 B. */
static void test_replicated_gather(void **state)
{
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	small_step(EMB_REPLICATED, OFFLOAD_NONE, &ws, &e);
	assert_close(tc_must_op(&ws, "emb.gather.fwd")->bytes, 184320.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* Their gradients are all-gathered in fp32: the whole batch's rows,
 * 1,024 x 80 x 4 B = 327,680 B. */
static void test_replicated_gradient_allgather(void **state)
{
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	small_step(EMB_REPLICATED, OFFLOAD_NONE, &ws, &e);
	assert_close(tc_must_op(&ws, "emb.grad_allgather")->bytes, 327680.0,
		     TOL_EXACT);
	est_workspace_release(&ws);
}

/*
 * The sparse update of replicated tables with a quarter of the looked-up
 * rows distinct: the batch's 1,024 x 80 = 81,920 gradient elements read
 * (2 B), 20,480 distinct elements of row and state read and written
 * (2 x 4 + 2 x 4 = 16 B), 1,024 x 5 = 5,120 row indices and counts
 * (16 B): 163,840 + 327,680 + 81,920 = 573,440 B.
 */
static void test_sparse_update_bytes(void **state)
{
	struct workload *w = tc_load_workload(SMALL);
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	w->plan.embeddings = EMB_REPLICATED;
	w->rtrain.unique_rows = 0.25;
	step_of(w, &ws, &e);
	assert_close(tc_must_op(&ws, "emb.scatter_update.bwd")->bytes, 573440.0,
		     TOL_EXACT);
	est_workspace_release(&ws);
	free(w);
}

/* No more distinct elements are written than a GPU holds: with every
 * lookup distinct, 81,920 > the 40,000 elements of the tables, so
 * 163,840 + 40,000 x 16 + 81,920 = 885,760 B. */
static void test_sparse_update_capped_by_table(void **state)
{
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	small_step(EMB_REPLICATED, OFFLOAD_NONE, &ws, &e);
	assert_close(tc_must_op(&ws, "emb.scatter_update.bwd")->bytes, 885760.0,
		     TOL_EXACT);
	est_workspace_release(&ws);
}

/* Row-wise tables: each GPU holds half of every table's rows, 40,000 x
 * 8 B / 2 = 160,000 B. */
static void test_row_wise_bytes(void **state)
{
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	small_step(EMB_ROW_WISE, OFFLOAD_NONE, &ws, &e);
	assert_close(e.embedding_bytes_per_gpu, 160000.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* Their partial sums are reduce-scattered: a pooled vector per table
 * and sample of the global batch, 1,024 x 4 x 16 x 2 B = 131,072 B. */
static void test_row_wise_reduce_scatter(void **state)
{
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	small_step(EMB_ROW_WISE, OFFLOAD_NONE, &ws, &e);
	assert_close(tc_must_op(&ws, "emb.reducescatter.fwd")->bytes, 131072.0,
		     TOL_EXACT);
	est_workspace_release(&ws);
}

/* Column-wise tables: each GPU gathers half of every row for the whole
 * batch, 1,024 x 80 / 2 = 40,960 elements of 4 B, and all 1,024 x 5 =
 * 5,120 indices of 8 B: 163,840 + 40,960 = 204,800 B. */
static void test_column_wise_gather(void **state)
{
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	small_step(EMB_COLUMN_WISE, OFFLOAD_NONE, &ws, &e);
	assert_close(tc_must_op(&ws, "emb.gather.fwd")->bytes, 204800.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* Half a row is 32 B, one sector: the gather reaches 0.85 x 32 / (32 +
 * 128) = 0.17 of the streaming rate, so its time less its launch part is
 * 204,800 B / (0.17 x the rate). */
static void test_column_wise_gather_rate(void **state)
{
	struct est_workspace ws;
	struct estimate e;
	struct gpu g;
	const struct op *o;
	(void)state;
	a100(&g);
	small_step(EMB_COLUMN_WISE, OFFLOAD_NONE, &ws, &e);
	o = tc_must_op(&ws, "emb.gather.fwd");
	assert_close(o->time_s - o->launch_s,
		     204800.0 / (0.17 * g.mem_bytes_per_s * g.eff.mem_frac),
		     TOL_TIGHT);
	est_workspace_release(&ws);
}

/*
 * Buffers of table-wise tables: the gradients of the GPU's 512 pooled
 * vectors, 512 x 64 x 2 B = 65,536 B, and the rows it gathers for the
 * other GPU's samples and their gradients, 2 x (1,024 x 80 / 2) x 4 B =
 * 327,680 B: 393,216 B.
 */
static void test_table_wise_buffers(void **state)
{
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	small_step(EMB_TABLE_WISE, OFFLOAD_NONE, &ws, &e);
	assert_close(e.mem_bytes[MEM_BUFFERS], 393216.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* Tables in host memory through unified memory: every looked-up row
 * faults in a whole 4,096 B page (a row is 64 B), 512 x 5 = 2,560 rows:
 * 10,485,760 B over PCIe. */
static void test_uvm_gather_pages(void **state)
{
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	small_step(EMB_REPLICATED, OFFLOAD_UVM, &ws, &e);
	assert_close(tc_must_op(&ws, "emb.host_gather.fwd")->bytes, 10485760.0,
		     TOL_EXACT);
	est_workspace_release(&ws);
}

/* Rows wider than a page fault in whole: 2,048 fp32 elements are 8,192 B,
 * two pages, and 512 x 5 = 2,560 rows move 20,971,520 B (the tables'
 * width changed after loading; the bottom MLP is left as it is). */
static void test_uvm_gather_wide_rows(void **state)
{
	struct workload *w = tc_load_workload(SMALL);
	struct est_workspace ws;
	struct estimate e;
	(void)state;
	w->plan.embeddings = EMB_REPLICATED;
	w->plan.offload = OFFLOAD_UVM;
	w->rec.table[0].dim = w->rec.table[1].dim = 2048;
	step_of(w, &ws, &e);
	assert_close(tc_must_op(&ws, "emb.host_gather.fwd")->bytes, 20971520.0,
		     TOL_EXACT);
	est_workspace_release(&ws);
	free(w);
}

/*
 * A balanced placement weighs its exchanges over the whole step, where
 * the all-to-all runs twice (the pooled vectors forward, their gradients
 * backward) and the reduce-scatter of partial sums once, with its
 * all-gather backward.  small.yaml on 8 PCIe A100 of one node, tables of
 * 1e6 rows looked up 4 times a sample, global batch 1,048,576 (131,072
 * a GPU): every table is row-wise over the 8 GPUs, and a shard holds a
 * sample's rows with q = 1 - (7/8)^4 = 1,695 / 4,096.  Its non-zero
 * partial sums by all-to-all: 131,072 x 4 tables x 8 q x 16 x 2 B =
 * 55,541,760 B each way; the reduce-scatter and the all-gather:
 * 1,048,576 x 4 x 16 x 2 B = 134,217,728 B each.  One all-to-all is
 * faster than the pair, two are not: the reduce-scatter is taken.
 */
static void test_exchange_counts_both_directions(void **state)
{
	struct workload *w = tc_load_workload(SMALL);
	struct est_workspace ws;
	struct estimate e;
	struct gpu g;
	struct plan pl;
	struct comm_group node = comm_group_of(8, 8);
	struct plan_problem why;
	char msg[512];
	double a2a, pair;
	(void)state;
	w->plan.count = 8;
	w->plan.embeddings = EMB_BALANCED;
	w->train.global_batch = 1048576;
	w->rec.table[0].rows = w->rec.table[1].rows = 1e6;
	w->rec.table[0].pooling = w->rec.table[1].pooling = 4;
	assert_int_equal(gpu_catalog_lookup(&cat, "a100-80gb-pcie", &g, msg,
					    sizeof(msg)), 0);
	assert_int_equal(g.gpus_per_node, 8);
	memset(&pl, 0, sizeof(pl));
	a2a = comm_time_s(&g, &pl, COLL_ALLTOALL, node, 55541760.0);
	pair = comm_time_s(&g, &pl, COLL_REDUCE_SCATTER, node, 134217728.0) +
	       comm_time_s(&g, &pl, COLL_ALLGATHER, node, 134217728.0);
	assert_true(a2a < pair && 2 * a2a > pair);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	if (step_estimate(w, &g, &ws, &e, &why))
		fail_msg("estimate failed: %s", why.msg);
	assert_null(tc_find_op(&ws, "emb.alltoall.fwd"));
	assert_close(tc_must_op(&ws, "emb.reducescatter.fwd")->bytes, 134217728.0,
		     TOL_EXACT);
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
		cmocka_unit_test(test_gather_frac_whole_sectors),
		cmocka_unit_test(test_replicated_gather),
		cmocka_unit_test(test_replicated_gradient_allgather),
		cmocka_unit_test(test_sparse_update_bytes),
		cmocka_unit_test(test_sparse_update_capped_by_table),
		cmocka_unit_test(test_row_wise_bytes),
		cmocka_unit_test(test_row_wise_reduce_scatter),
		cmocka_unit_test(test_column_wise_gather),
		cmocka_unit_test(test_column_wise_gather_rate),
		cmocka_unit_test(test_table_wise_buffers),
		cmocka_unit_test(test_uvm_gather_pages),
		cmocka_unit_test(test_uvm_gather_wide_rows),
		cmocka_unit_test(test_exchange_counts_both_directions),
	};
	tc_use_test_data();
	return cmocka_run_group_tests(tests, tc_catalog_setup_frozen,
				      tc_catalog_teardown);
}
