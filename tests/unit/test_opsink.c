/*
 * test_opsink.c - the operator sink (model/core/opsink.h): a prefixed
 * sink's names, a second sink over the same workspace, the overflow row,
 * and which row sink_coll() marks.  Times are chosen so that each sum is
 * exact in binary (powers of two).
 */
#include "tc_test.h"

#include <string.h>

#include "../../src/model/core/opsink.h"

/* One execution: 0.5 s of roof and 0.25 s of launch (0.75 s in all). */
static const struct op_cost one = { 0, 0, 0.75, 0.25, PREC_BF16, BOUND_MEMORY };

static void test_prefixed_sinks(void **state)
{
	struct est_workspace ws;
	struct op_sums s1, s2, s3;
	struct op_sink a, b, c;
	(void)state;

	assert_int_equal(est_workspace_init(&ws, 8), 0);
	sink_start(&a, &ws, &s1, 0);
	a.prefix = "encoder";
	a.prefix_also = "";              /* every name */
	sink_put(&a, "layer.qkv.fwd", BRK_GEMM, &one, 1, 0);
	sink_put(&a, "final_norm.fwd", BRK_MEMBOUND, &one, 1, 0);
	sink_continue(&b, &ws, &s2, 0);
	b.prefix = "decoder";
	b.prefix_also = "embed.";        /* those only */
	sink_put(&b, "embed.fwd", BRK_MEMBOUND, &one, 1, 0);
	sink_put(&b, "loss.fwd", BRK_MEMBOUND, &one, 2, 0);
	sink_continue(&c, &ws, &s3, 0);  /* no prefix */
	sink_put(&c, "layer.x", BRK_GEMM, &one, 1, 0);

	assert_int_equal(ws.count, 5);   /* the rows before each sink stay */
	assert_string_equal(ws.ops[0].name, "encoder.qkv.fwd");
	assert_string_equal(ws.ops[1].name, "encoder.final_norm.fwd");
	assert_string_equal(ws.ops[2].name, "decoder.embed.fwd");
	assert_string_equal(ws.ops[3].name, "loss.fwd");
	assert_string_equal(ws.ops[4].name, "layer.x");
	assert_close(ws.ops[3].count, 2.0, 0);
	/* each sink sums its own operators: 0.5 s roof a put, x2 for loss */
	assert_close(s1.t[OPS_LAYER][BRK_GEMM], 0.5, 0);
	assert_close(s1.t[OPS_LAYER][BRK_MEMBOUND], 0.5, 0);
	assert_close(s1.t[OPS_LAYER][BRK_LAUNCH], 0.5, 0);  /* 2 x 0.25 */
	assert_close(s2.t[OPS_LAYER][BRK_MEMBOUND], 1.5, 0); /* 0.5 + 2 x 0.5 */
	assert_close(s2.t[OPS_LAYER][BRK_GEMM], 0, 0);
	assert_close(s3.t[OPS_LAYER][BRK_GEMM], 0.5, 0);
	est_workspace_release(&ws);
}

static void test_overflow_and_coll(void **state)
{
	struct est_workspace ws;
	struct op_sums s;
	struct op_sink k;
	struct comm_group grp = { 8, 8 };
	struct op *o;
	(void)state;

	/* 3 slots: two rows, then the catch-all row in the last */
	assert_int_equal(est_workspace_init(&ws, 3), 0);
	sink_start(&k, &ws, &s, 0);
	o = sink_put(&k, "a", BRK_TP_COMM, &one, 1, 0);
	sink_coll(&k, o, COLL_ALLREDUCE, grp);
	assert_int_equal(o->coll.grp.n, 8);
	sink_put(&k, "b", BRK_GEMM, &one, 1, 0);
	o = sink_put(&k, "c", BRK_TP_COMM, &one, 1, 0);
	assert_ptr_equal(o, &ws.ops[2]);
	assert_string_equal(o->name, SINK_OVERFLOW_NAME);
	sink_coll(&k, o, COLL_ALLREDUCE, grp);  /* not marked */
	assert_int_equal(o->coll.grp.n, 0);
	sink_put(&k, "d", BRK_GEMM, &one, 1, 0);
	assert_int_equal(ws.count, 3);
	assert_close(o->time_s, 1.5, 0);        /* c and d: 2 x 0.75 */
	/* the sums lose nothing: a, b, c, d at 0.5 s roof each */
	assert_close(s.t[OPS_LAYER][BRK_TP_COMM] + s.t[OPS_LAYER][BRK_GEMM], 2.0, 0);
	sink_coll(&k, NULL, COLL_ALLREDUCE, grp); /* nothing to mark */
	est_workspace_release(&ws);
}

/* A sink of literal names lists each as given; one without copies it, so
 * that a name composed in a buffer outlives the buffer's next use; a
 * prefixed sink of literal names copies the names it renames. */
static void test_literal_and_copied_names(void **state)
{
	static const char literal[] = "layer.qkv.fwd";
	char buf[EST_OP_NAME_LEN];
	struct est_workspace ws;
	struct op_sums s1, s2, s3;
	struct op_sink lit, copy, pre;
	(void)state;

	assert_int_equal(est_workspace_init(&ws, 8), 0);
	sink_start(&lit, &ws, &s1, 0);
	lit.literal_names = 1;
	sink_put(&lit, literal, BRK_GEMM, &one, 1, 0);
	sink_list(&lit, "pp.send_recv", BRK_PP_COMM, &one, 2);
	assert_ptr_equal(ws.ops[0].name, literal);
	assert_string_equal(ws.ops[1].name, "pp.send_recv");
	sink_continue(&copy, &ws, &s2, 0);
	strcpy(buf, "layer.qkv.fwd.cast");
	sink_put(&copy, buf, BRK_MEMBOUND, &one, 1, 0);
	strcpy(buf, "overwritten");
	assert_string_equal(ws.ops[2].name, "layer.qkv.fwd.cast");
	sink_continue(&pre, &ws, &s3, 0);
	pre.literal_names = 1;
	pre.prefix = "encoder";
	pre.prefix_also = "embed.";
	sink_put(&pre, literal, BRK_GEMM, &one, 1, 0);
	sink_put(&pre, "loss.fwd", BRK_MEMBOUND, &one, 1, 0);
	assert_string_equal(ws.ops[3].name, "encoder.qkv.fwd");
	assert_true(ws.ops[3].name >= ws.names[0] &&
		    ws.ops[3].name < ws.names[ws.cap]);
	assert_string_equal(ws.ops[4].name, "loss.fwd");
	assert_int_equal(ws.count, 5);
	/* a name past the slot's length is cut to fit, with its NUL */
	sink_put(&copy, "a.name.longer.than.the.forty.bytes.of.its.slot",
		 BRK_GEMM, &one, 1, 0);
	assert_int_equal(strlen(ws.ops[5].name), EST_OP_NAME_LEN - 1);
	est_workspace_release(&ws);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefixed_sinks),
		cmocka_unit_test(test_overflow_and_coll),
		cmocka_unit_test(test_literal_and_copied_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
