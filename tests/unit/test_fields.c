/*
 * test_fields.c - typed getters and table-driven mappings: exact messages.
 */
#include "tc_test.h"

#include <stdlib.h>

#include "../../src/io/fields.h"
#include "../../src/io/yaml_load.h"

struct plan {
	char gpu[16];
	int count;
	int tp;
	double memory_bytes;
	double network_bytes_per_s;
	double budget_usd;
	int flash;
	int precision;
	int layers; /* set by the custom handler */
};

static const char *const precisions[] = {"fp32", "tf32", "bf16", "fp16", "fp8", NULL};

/* FD_CUSTOM: "layers" must be a list; stores its length. */
static int parse_layers(const struct yn_node *v, void *target, const struct fd_ctx *ctx)
{
	int *out = target;

	if (v->type != YN_SEQ)
		return fd_type_error(v, "layers", "a list", ctx);
	*out = (int)v->count;
	return 0;
}

static const struct fd_field plan_fields[] = {
	{.key = "gpu", .type = FD_STR, .required = 1, .offset = offsetof(struct plan, gpu),
	 .size = sizeof(((struct plan *)0)->gpu)},
	{.key = "count", .type = FD_INT, .required = 1, .offset = offsetof(struct plan, count),
	 .min = 1, .max = 1000000},
	{.key = "tp", .type = FD_INT, .offset = offsetof(struct plan, tp), .min = 1, .max = 1024},
	{.key = "memory", .type = FD_NUM, .offset = offsetof(struct plan, memory_bytes),
	 .unit = TC_UNIT_BYTES, .min = 1e9, .max = 1e13},
	{.key = "network", .type = FD_NUM, .offset = offsetof(struct plan, network_bytes_per_s),
	 .unit = TC_UNIT_BYTE_RATE},
	{.key = "budget", .type = FD_NUM, .offset = offsetof(struct plan, budget_usd),
	 .unit = TC_UNIT_USD, .min = 0, .max = 1e9, .expect = "an amount up to $1e9"},
	{.key = "flash", .type = FD_BOOL, .offset = offsetof(struct plan, flash)},
	{.key = "precision", .type = FD_ENUM, .offset = offsetof(struct plan, precision),
	 .names = precisions},
	{.key = "layers", .type = FD_CUSTOM, .offset = offsetof(struct plan, layers),
	 .parse = parse_layers},
	{.key = "kind", .type = FD_IGNORE},
	{0},
};

#define ALL_KEYS "gpu, count, tp, memory, network, budget, flash, precision, layers, kind"

struct fixture {
	struct yn_doc doc;
	struct tc_diag d;
	struct fd_ctx ctx;
	struct plan p;
};

/* Parse `text` (must be valid YAML) into fx->doc. */
static void load(struct fixture *fx, const char *text)
{
	memset(fx, 0, sizeof(*fx));
	tc_diag_init(&fx->d);
	if (yn_load_buffer("f.yaml", text, strlen(text), &fx->doc, &fx->d) != 0)
		fail_msg("bad test YAML: %s", fx->d.entry[0].msg);
	fx->ctx.file = "f.yaml";
	fx->ctx.d = &fx->d;
	memset(&fx->p, 0x5A, sizeof(fx->p)); /* untouched fields stay 0x5A... */
}

/* Parse the mapping "plan" of `text`; expect exactly the messages in `want`. */
static void expect_plan(const char *text, const char *const *want, int nwant)
{
	struct fixture fx;
	uint64_t seen;
	int i, rc;

	load(&fx, text);
	rc = fd_parse_map(yn_map_get(fx.doc.root, "plan"), plan_fields, &fx.p, "plan",
			  &fx.ctx, &seen);
	for (i = 0; i < fx.d.count && i < nwant; i++)
		assert_string_equal(fx.d.entry[i].msg, want[i]);
	assert_int_equal(fx.d.count, nwant);
	assert_int_equal(rc, nwant ? -1 : 0);
	if (nwant)
		assert_int_equal(fx.d.severity, TC_EXIT_INPUT);
	yn_doc_release(&fx.doc);
}

#define EXPECT1(text, msg)                                  \
	do {                                                \
		const char *const w_[] = {msg};             \
		expect_plan(text, w_, 1);                   \
	} while (0)

static void test_good_map(void **state)
{
	const char *text =
		"plan:\n"
		"  gpu: a100-80gb-sxm\n"
		"  count: 2e3\n"
		"  tp: 8\n"
		"  memory: 80GiB\n"
		"  network: 200Gb/s\n"
		"  budget: $1500.50\n"
		"  flash: true\n"
		"  precision: bf16\n"
		"  layers: [a, b, c]\n"
		"  kind: llm\n";
	struct fixture fx;
	uint64_t seen = 0;

	(void)state;
	load(&fx, text);
	assert_int_equal(fd_parse_map(yn_map_get(fx.doc.root, "plan"), plan_fields, &fx.p,
				      "plan", &fx.ctx, &seen), 0);
	assert_int_equal(fx.d.count, 0);
	assert_string_equal(fx.p.gpu, "a100-80gb-sxm");
	assert_int_equal(fx.p.count, 2000);
	assert_int_equal(fx.p.tp, 8);
	assert_close(fx.p.memory_bytes, 85899345920.0, TOL_EXACT);
	assert_close(fx.p.network_bytes_per_s, 2.5e10, TOL_EXACT);
	assert_close(fx.p.budget_usd, 1500.5, TOL_EXACT);
	assert_int_equal(fx.p.flash, 1);
	assert_int_equal(fx.p.precision, 2);
	assert_int_equal(fx.p.layers, 3);
	assert_int_equal(seen, 0x3FF);
	yn_doc_release(&fx.doc);
}

/* Optional fields that are absent leave the target alone; seen says so. */
static void test_optional_absent(void **state)
{
	struct fixture fx;
	uint64_t seen = 0;
	int untouched;

	(void)state;
	load(&fx, "plan:\n  gpu: l4\n  count: 1\n  flash: false\n");
	memset(&untouched, 0x5A, sizeof(untouched));
	assert_int_equal(fd_parse_map(yn_map_get(fx.doc.root, "plan"), plan_fields, &fx.p,
				      "plan", &fx.ctx, &seen), 0);
	assert_int_equal(seen, 0x43); /* gpu, count, flash */
	assert_int_equal(fx.p.flash, 0);
	assert_int_equal(fx.p.tp, untouched);
	assert_int_equal(fd_parse_map(yn_map_get(fx.doc.root, "plan"), plan_fields, &fx.p,
				      "plan", &fx.ctx, NULL), 0);
	yn_doc_release(&fx.doc);
}

static void test_unknown_keys(void **state)
{
	(void)state;
	EXPECT1("name: x\nplan:\n  tpp: 2\n  gpu: l4\n  count: 1\n",
		"f.yaml:3:3: unknown key 'tpp' in plan (did you mean 'tp'?)");
	EXPECT1("plan:\n  gpu: l4\n  count: 1\n  Precision: bf16\n",
		"f.yaml:4:3: unknown key 'Precision' in plan (did you mean 'precision'?)");
	EXPECT1("plan:\n  gpu: l4\n  count: 1\n  foo: 1\n",
		"f.yaml:4:3: unknown key 'foo' in plan (expected one of: " ALL_KEYS ")");
	EXPECT1("plan:\n  gpu: l4\n  count: 1\n  \"\": 1\n",
		"f.yaml:4:3: unknown key '' in plan (expected one of: " ALL_KEYS ")");
}

static void test_missing_required(void **state)
{
	static const char *const both[] = {
		"f.yaml:4:3: missing required key 'gpu' in plan",
		"f.yaml:4:3: missing required key 'count' in plan",
	};

	(void)state;
	EXPECT1("plan:\n  gpu: l4\n", "f.yaml:2:3: missing required key 'count' in plan");
	expect_plan("name: x\nplan:\n\n  tp: 1\n", both, 2);
	expect_plan("plan: {}\n", (const char *const[]){
		"f.yaml:1:7: missing required key 'gpu' in plan",
		"f.yaml:1:7: missing required key 'count' in plan"}, 2);
}

#define HEAD "plan:\n  gpu: l4\n"
#define COUNT_EXPECT "(expected a whole number from 1 to 1000000)"
#define TP_EXPECT "(expected a whole number from 1 to 1024)"

static void test_int_errors(void **state)
{
	(void)state;
	EXPECT1(HEAD "  count: abc\n",
		"f.yaml:3:10: 'count' must be an integer, got 'abc' " COUNT_EXPECT);
	EXPECT1(HEAD "  count: 2.5\n",
		"f.yaml:3:10: 'count' must be an integer, got '2.5' " COUNT_EXPECT);
	EXPECT1(HEAD "  count: \"8\"\n",
		"f.yaml:3:10: 'count' must be an integer, got quoted text \"8\" (remove the quotes)");
	EXPECT1(HEAD "  count: 'x'\n",
		"f.yaml:3:10: 'count' must be an integer, got quoted text \"x\" " COUNT_EXPECT);
	EXPECT1(HEAD "  count: {a: 1}\n",
		"f.yaml:3:10: 'count' must be an integer, got a mapping " COUNT_EXPECT);
	EXPECT1(HEAD "  count: [8]\n",
		"f.yaml:3:10: 'count' must be an integer, got a list " COUNT_EXPECT);
	EXPECT1(HEAD "  count:\n", "f.yaml:3:9: 'count' has no value " COUNT_EXPECT);
	EXPECT1(HEAD "  count: ~\n", "f.yaml:3:10: 'count' has no value " COUNT_EXPECT);
	EXPECT1(HEAD "  count: 1e300\n", "f.yaml:3:10: 'count' is 1e300 " COUNT_EXPECT);
	EXPECT1(HEAD "  count: -1e300\n", "f.yaml:3:10: 'count' is -1e300 " COUNT_EXPECT);
	EXPECT1(HEAD "  count: 1e400\n",
		"f.yaml:3:10: 'count' must be an integer, got '1e400' " COUNT_EXPECT);
	EXPECT1(HEAD "  count: 0x10\n",
		"f.yaml:3:10: 'count' must be an integer, got '0x10' " COUNT_EXPECT);
	EXPECT1(HEAD "  count: .nan\n",
		"f.yaml:3:10: 'count' must be an integer, got '.nan' " COUNT_EXPECT);
	EXPECT1(HEAD "  count: 8\n  tp: 0\n", "f.yaml:4:7: 'tp' is 0 " TP_EXPECT);
	EXPECT1(HEAD "  count: 8\n  tp: 2048\n", "f.yaml:4:7: 'tp' is 2048 " TP_EXPECT);
	EXPECT1(HEAD "  count: 8\n  tp: -3\n", "f.yaml:4:7: 'tp' is -3 " TP_EXPECT);
}

static void test_num_errors(void **state)
{
	(void)state;
	EXPECT1(HEAD "  count: 1\n  memory: 80\n",
		"f.yaml:4:11: 'memory' must be a size, got '80' (expected a size such as 80GB or 80GiB)");
	EXPECT1(HEAD "  count: 1\n  memory: 80Gb\n",
		"f.yaml:4:11: 'memory' must be a size, got '80Gb' (expected a size in bytes such as 80GB; lower-case 'b' means bits)");
	EXPECT1(HEAD "  count: 1\n  memory: 20TB\n",
		"f.yaml:4:11: 'memory' is 20TB (expected a size from 1000000000 B to 10000000000000 B)");
	EXPECT1(HEAD "  count: 1\n  memory: \"80GB\"\n",
		"f.yaml:4:11: 'memory' must be a size, got quoted text \"80GB\" (remove the quotes)");
	EXPECT1(HEAD "  count: 1\n  memory: [80GB]\n",
		"f.yaml:4:11: 'memory' must be a size, got a list (expected a size such as 80GB or 80GiB)");
	EXPECT1(HEAD "  count: 1\n  memory:\n",
		"f.yaml:4:10: 'memory' has no value (expected a size such as 80GB or 80GiB)");
	EXPECT1(HEAD "  count: 1\n  network: fast\n",
		"f.yaml:4:12: 'network' must be a byte rate, got 'fast' (expected a rate such as 2039GB/s or 200Gb/s)");
	EXPECT1(HEAD "  count: 1\n  network: 1e308TB/s\n",
		"f.yaml:4:12: 'network' must be a byte rate, got '1e308TB/s' (expected a number of at most about 1.8e308)");
	EXPECT1(HEAD "  count: 1\n  budget: $2e9\n",
		"f.yaml:4:11: 'budget' is $2e9 (expected an amount up to $1e9)");
	EXPECT1(HEAD "  count: 1\n  budget: 5 EUR\n",
		"f.yaml:4:11: 'budget' must be an amount in USD, got '5 EUR' (expected an amount up to $1e9)");
}

static void test_bool_errors(void **state)
{
	static const char *const bad[] = {"yes", "no", "on", "off", "1", "0", "True", "FALSE", "y"};
	char text[128], want[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), HEAD "  count: 1\n  flash: %s\n", bad[i]);
		snprintf(want, sizeof(want),
			 "f.yaml:4:10: 'flash' must be true or false, got '%s' (expected true or false)",
			 bad[i]);
		EXPECT1(text, want);
	}
	EXPECT1(HEAD "  count: 1\n  flash: \"true\"\n",
		"f.yaml:4:10: 'flash' must be true or false, got quoted text \"true\" (remove the quotes)");
	EXPECT1(HEAD "  count: 1\n  flash:\n",
		"f.yaml:4:9: 'flash' has no value (expected true or false)");
	EXPECT1(HEAD "  count: 1\n  flash: {}\n",
		"f.yaml:4:10: 'flash' must be true or false, got a mapping (expected true or false)");
}

#define PREC_LIST "one of: fp32, tf32, bf16, fp16, fp8"

static void test_enum_errors(void **state)
{
	(void)state;
	EXPECT1(HEAD "  count: 1\n  precision: bf17\n",
		"f.yaml:4:14: 'precision' is 'bf17' (expected " PREC_LIST "; did you mean 'bf16'?)");
	EXPECT1(HEAD "  count: 1\n  precision: BF16\n",
		"f.yaml:4:14: 'precision' is 'BF16' (expected " PREC_LIST "; did you mean 'bf16'?)");
	EXPECT1(HEAD "  count: 1\n  precision: int4\n",
		"f.yaml:4:14: 'precision' is 'int4' (expected " PREC_LIST ")");
	EXPECT1(HEAD "  count: 1\n  precision:\n",
		"f.yaml:4:13: 'precision' has no value (expected " PREC_LIST ")");
	EXPECT1(HEAD "  count: 1\n  precision: [bf16]\n",
		"f.yaml:4:14: 'precision' must be text, got a list (expected " PREC_LIST ")");
	/* quoted text is fine for an enum */
	expect_plan(HEAD "  count: 1\n  precision: \"fp8\"\n", NULL, 0);
}

static void test_str_errors(void **state)
{
	(void)state;
	EXPECT1("plan:\n  count: 1\n  gpu: \"\"\n", "f.yaml:3:8: 'gpu' is empty (expected text)");
	EXPECT1("plan:\n  count: 1\n  gpu:\n", "f.yaml:3:7: 'gpu' has no value (expected text)");
	EXPECT1("plan:\n  count: 1\n  gpu: null\n", "f.yaml:3:8: 'gpu' has no value (expected text)");
	EXPECT1("plan:\n  count: 1\n  gpu: {id: l4}\n",
		"f.yaml:3:8: 'gpu' must be text, got a mapping (expected text)");
	EXPECT1("plan:\n  count: 1\n  gpu: a-very-long-gpu-name\n",
		"f.yaml:3:8: 'gpu' is too long: 20 bytes (expected at most 15)");
	/* plain numbers and quoted text are both text */
	expect_plan("plan:\n  count: 1\n  gpu: 4090\n", NULL, 0);
	expect_plan("plan:\n  count: 1\n  gpu: 'l4'\n", NULL, 0);
}

static void test_custom_and_type_errors(void **state)
{
	(void)state;
	EXPECT1(HEAD "  count: 1\n  layers: 12\n", "f.yaml:4:11: 'layers' must be a list, got '12'");
	EXPECT1(HEAD "  count: 1\n  layers: \"12\"\n",
		"f.yaml:4:11: 'layers' must be a list, got quoted text \"12\"");
	EXPECT1(HEAD "  count: 1\n  layers: ~\n", "f.yaml:4:11: 'layers' must be a list, got no value");
	EXPECT1(HEAD "  count: 1\n  layers: {a: 1}\n",
		"f.yaml:4:11: 'layers' must be a list, got a mapping");
	EXPECT1("plan: [1, 2]\n", "f.yaml:1:7: 'plan' must be a mapping, got a list");
	EXPECT1("plan: 7\n", "f.yaml:1:7: 'plan' must be a mapping, got '7'");
}

/* Every problem is reported in document order; good fields are stored. */
static void test_all_problems_reported(void **state)
{
	const char *text =
		"plan:\n"
		"  count: abc\n"
		"  tp: 4\n"
		"  memory: 80\n"
		"  tpp: 2\n"
		"  flash: yes\n"
		"  network: 25GB/s\n"
		"  precision: fp9\n";
	struct fixture fx;
	uint64_t seen = 0;

	(void)state;
	load(&fx, text);
	assert_int_equal(fd_parse_map(yn_map_get(fx.doc.root, "plan"), plan_fields, &fx.p,
				      "plan", &fx.ctx, &seen), -1);
	assert_int_equal(fx.d.count, 6);
	assert_string_equal(fx.d.entry[0].msg, "f.yaml:2:10: 'count' must be an integer, got 'abc' " COUNT_EXPECT);
	assert_string_equal(fx.d.entry[1].msg,
			    "f.yaml:4:11: 'memory' must be a size, got '80' (expected a size such as 80GB or 80GiB)");
	assert_string_equal(fx.d.entry[2].msg, "f.yaml:5:3: unknown key 'tpp' in plan (did you mean 'tp'?)");
	assert_string_equal(fx.d.entry[3].msg,
			    "f.yaml:6:10: 'flash' must be true or false, got 'yes' (expected true or false)");
	assert_string_equal(fx.d.entry[4].msg,
			    "f.yaml:8:14: 'precision' is 'fp9' (expected " PREC_LIST "; did you mean 'fp8'?)");
	assert_string_equal(fx.d.entry[5].msg, "f.yaml:2:3: missing required key 'gpu' in plan");
	/* the fields that parsed are stored, the others untouched */
	assert_int_equal(fx.p.tp, 4);
	assert_close(fx.p.network_bytes_per_s, 25e9, TOL_EXACT);
	assert_int_equal(fx.p.count, 0x5A5A5A5A);
	assert_int_equal(seen, 0xDE); /* count tp memory flash network precision */
	yn_doc_release(&fx.doc);
}

/* The diagnostic context keeps 20 messages and counts the rest. */
static void test_many_problems_capped(void **state)
{
	char text[1024], line[32];
	struct fixture fx;
	int i;

	(void)state;
	snprintf(text, sizeof(text), "plan:\n  gpu: l4\n  count: 1\n");
	for (i = 0; i < 25; i++) {
		snprintf(line, sizeof(line), "  zz%d: 1\n", i);
		strcat(text, line);
	}
	load(&fx, text);
	assert_int_equal(fd_parse_map(yn_map_get(fx.doc.root, "plan"), plan_fields, &fx.p,
				      "plan", &fx.ctx, NULL), -1);
	assert_int_equal(fx.d.count, TC_DIAG_MAX);
	assert_int_equal(fx.d.dropped, 5);
	assert_int_equal(tc_diag_total(&fx.d), 25);
	assert_string_equal(fx.d.entry[19].msg,
			    "f.yaml:23:3: unknown key 'zz19' in plan (expected one of: " ALL_KEYS ")");
	yn_doc_release(&fx.doc);
}

/* The single getters write their out-parameter only on success. */
static void test_getters_direct(void **state)
{
	struct fixture fx;
	const struct yn_node *r;
	char buf[8];
	double num = -1.0;
	int i = -1;

	(void)state;
	load(&fx, "a: 12\nb: x\nc: 2e3\nd: 64k\ne: false\nf: 1.5TB/s\ng: -0\n");
	r = fx.doc.root;
	assert_int_equal(fd_get_int(yn_map_get(r, "a"), "a", 0, 0, &i, &fx.ctx), 0);
	assert_int_equal(i, 12);
	assert_int_equal(fd_get_int(yn_map_get(r, "b"), "b", 0, 0, &i, &fx.ctx), -1);
	assert_int_equal(i, 12);
	assert_string_equal(fx.d.entry[0].msg,
			    "f.yaml:2:4: 'b' must be an integer, got 'x' (expected a whole number from -2147483648 to 2147483647)");
	assert_int_equal(fd_get_int(yn_map_get(r, "c"), "c", 0, 0, &i, &fx.ctx), 0);
	assert_int_equal(i, 2000);
	assert_int_equal(fd_get_int(yn_map_get(r, "d"), "d", 0, 0, &i, &fx.ctx), 0);
	assert_int_equal(i, 64000);
	assert_int_equal(fd_get_int(yn_map_get(r, "d"), "d", 0, 1000, &i, &fx.ctx), -1);
	assert_int_equal(i, 64000);
	assert_string_equal(fx.d.entry[1].msg, "f.yaml:4:4: 'd' is 64k (expected a whole number from 0 to 1000)");
	assert_int_equal(fd_get_int(yn_map_get(r, "g"), "g", 0, 0, &i, &fx.ctx), 0);
	assert_int_equal(i, 0);

	assert_int_equal(fd_get_bool(yn_map_get(r, "e"), "e", &i, &fx.ctx), 0);
	assert_int_equal(i, 0);
	i = 7;
	assert_int_equal(fd_get_bool(yn_map_get(r, "a"), "a", &i, &fx.ctx), -1);
	assert_int_equal(i, 7);

	assert_int_equal(fd_get_num(yn_map_get(r, "f"), "f", TC_UNIT_BYTE_RATE, 0, 0, &num, &fx.ctx), 0);
	assert_close(num, 1.5e12, TOL_EXACT);
	assert_int_equal(fd_get_num(yn_map_get(r, "b"), NULL, TC_UNIT_SECONDS, 0, 0, &num, &fx.ctx), -1);
	assert_close(num, 1.5e12, TOL_EXACT);
	assert_string_equal(fx.d.entry[3].msg,
			    "f.yaml:2:4: 'value' must be a duration, got 'x' (expected a duration such as 30s, 90min, 3h or 14d)");
	assert_int_equal(fd_get_num(yn_map_get(r, "a"), "a", TC_UNIT_COUNT, 0.5, 1.5, &num, &fx.ctx), -1);
	assert_string_equal(fx.d.entry[4].msg, "f.yaml:1:4: 'a' is 12 (expected a number from 0.5 to 1.5)");

	memcpy(buf, "keep", 5);
	assert_int_equal(fd_get_str(yn_map_get(r, "b"), "b", buf, sizeof(buf), &fx.ctx), 0);
	assert_string_equal(buf, "x");
	assert_int_equal(fd_get_str(yn_map_get(r, "f"), "f", buf, 4, &fx.ctx), -1);
	assert_string_equal(buf, "x");
	assert_int_equal(fd_get_enum(yn_map_get(r, "b"), "b", precisions, &i, &fx.ctx), -1);
	assert_int_equal(i, 7);
	assert_string_equal(fx.d.entry[6].msg, "f.yaml:2:4: 'b' is 'x' (expected " PREC_LIST ")");
	assert_int_equal(fx.d.count, 7);
	yn_doc_release(&fx.doc);
}

/* Long or multi-line values are shown shortened and escaped. */
static void test_value_shown_short(void **state)
{
	(void)state;
	EXPECT1(HEAD "  count: 1\n  precision: |\n    two\n    lines\n",
		"f.yaml:4:14: 'precision' is 'two\\nlines\\n' (expected " PREC_LIST ")");
	EXPECT1(HEAD "  count: abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz\n",
		"f.yaml:3:10: 'count' must be an integer, got 'abcdefghijklmnopqrstuvwxyzabcdefghijklmn...' " COUNT_EXPECT);
}

static void test_suggest(void **state)
{
	static const char *const names[] = {"tp", "pp", "precision", "global_batch", "count", NULL};
	char longword[100];

	(void)state;
	assert_string_equal(fd_suggest("tpp", names), "tp");
	assert_string_equal(fd_suggest("precison", names), "precision");
	assert_string_equal(fd_suggest("PRECISION", names), "precision");
	assert_string_equal(fd_suggest("globalbatch", names), "global_batch");
	assert_string_equal(fd_suggest("global_bach", names), "global_batch");
	assert_null(fd_suggest("cnt", names)); /* distance 2, limit 1 */
	assert_string_equal(fd_suggest("cont", names), "count");
	assert_null(fd_suggest("xyz", names));
	assert_string_equal(fd_suggest("glbl_btch", names), "global_batch"); /* 3, limit 3 */
	assert_null(fd_suggest("glbl_bch", names));                         /* 4, limit 2 */
	assert_null(fd_suggest("tp", NULL));
	memset(longword, 'a', sizeof(longword) - 1);
	longword[sizeof(longword) - 1] = '\0';
	assert_null(fd_suggest(longword, names));
}

/* The diagnostic context's message forms and truncation. */
static void test_diag_forms(void **state)
{
	struct tc_diag d;
	char big[600];

	(void)state;
	tc_diag_init(&d);
	assert_int_equal(tc_diag_at(&d, TC_EXIT_INPUT, "f.yaml", 3, 7, "bad '%s'", "x"), -1);
	assert_int_equal(tc_diag_at(&d, TC_EXIT_IO, "f.yaml", 3, 0, "no column"), -1);
	assert_int_equal(tc_diag_at(&d, TC_EXIT_INPUT, "f.yaml", 0, 5, "no line"), -1);
	assert_int_equal(tc_diag_at(&d, TC_EXIT_INPUT, NULL, 2, 2, "no file"), -1);
	assert_int_equal(tc_diag_msg(&d, TC_EXIT_USAGE, "plain %d", 1), -1);
	assert_string_equal(d.entry[0].msg, "f.yaml:3:7: bad 'x'");
	assert_string_equal(d.entry[1].msg, "f.yaml:3: no column");
	assert_string_equal(d.entry[2].msg, "f.yaml: no line");
	assert_string_equal(d.entry[3].msg, "no file");
	assert_string_equal(d.entry[4].msg, "plain 1");
	assert_int_equal(d.severity, TC_EXIT_IO); /* the worst seen */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	tc_diag_at(&d, TC_EXIT_INPUT, "f.yaml", 1, 1, "%s", big);
	assert_int_equal(strlen(d.entry[5].msg), TC_DIAG_MSG_LEN - 1);
	assert_string_equal(d.entry[5].msg + TC_DIAG_MSG_LEN - 4, "...");
	assert_int_equal(tc_diag_total(&d), 6);
	tc_diag_init(&d);
	assert_int_equal(d.count + d.dropped, 0);
	assert_int_equal(d.severity, TC_EXIT_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_map),
		cmocka_unit_test(test_optional_absent),
		cmocka_unit_test(test_unknown_keys),
		cmocka_unit_test(test_missing_required),
		cmocka_unit_test(test_int_errors),
		cmocka_unit_test(test_num_errors),
		cmocka_unit_test(test_bool_errors),
		cmocka_unit_test(test_enum_errors),
		cmocka_unit_test(test_str_errors),
		cmocka_unit_test(test_custom_and_type_errors),
		cmocka_unit_test(test_all_problems_reported),
		cmocka_unit_test(test_many_problems_capped),
		cmocka_unit_test(test_getters_direct),
		cmocka_unit_test(test_value_shown_short),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_diag_forms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
