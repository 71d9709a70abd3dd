/*
 * test_alloc_fail.c - allocation failures during loads.
 *
 * Linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,
 * --wrap=free (Makefile), so every allocation the traincost library makes
 * goes through the wrappers below.  Each test loads one file again and
 * again, failing the 1st, 2nd, ... allocation in turn, and checks that the
 * load fails cleanly (non-zero, an "out of memory" class message, severity
 * TC_EXIT_INTERNAL) and that nothing it allocated is left afterwards.
 * libyaml and the C library allocate through their own calls, which are not
 * wrapped: their failures are theirs to handle.
 *
 * Run from the repository root (the paths below are relative to it).
 */
#include "tc_test.h"

#include <stdint.h>
#include <stdlib.h>

#include "../../src/io/datapath.h"
#include "../../src/io/gpu_load.h"
#include "../../src/io/price_load.h"
#include "../../src/io/val_load.h"
#include "../../src/io/wl_load.h"
#include "../../src/io/yaml_load.h"
#include "../../src/io/yaml_node.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
void __wrap_free(void *p);

/* ---- the allocation tracker ---- */

#define LIVE_SLOTS (1u << 20) /* open addressing; loads here stay far below */
#define TOMB ((void *)1)

static void *live[LIVE_SLOTS];
static size_t live_count;
static long fail_at;   /* fail the allocation with this number; 0 = none */
static long alloc_no;  /* allocations seen since the last arm() */
static int injected;   /* the armed failure happened */

static size_t slot_of(const void *p)
{
	uintptr_t h = (uintptr_t)p;
	h ^= h >> 17;
	h *= 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 7) & (LIVE_SLOTS - 1);
}

static void live_add(void *p)
{
	size_t i = slot_of(p);
	while (live[i] && live[i] != TOMB)
		i = (i + 1) & (LIVE_SLOTS - 1);
	live[i] = p;
	live_count++;
}

/* Forget p; returns 0 if it was not ours (allocated inside a library). */
static int live_del(void *p)
{
	size_t i = slot_of(p);
	while (live[i]) {
		if (live[i] == p) {
			live[i] = TOMB;
			live_count--;
			return 1;
		}
		i = (i + 1) & (LIVE_SLOTS - 1);
	}
	return 0;
}

static void live_reset(void)
{
	memset(live, 0, sizeof(live));
	live_count = 0;
}

/* True when this allocation is the one to fail. */
static int should_fail(void)
{
	alloc_no++;
	if (fail_at > 0 && alloc_no == fail_at) {
		injected = 1;
		return 1;
	}
	return 0;
}

void *__wrap_malloc(size_t n)
{
	if (should_fail())
		return NULL;
	void *p = __real_malloc(n);
	if (p)
		live_add(p);
	return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
	if (should_fail())
		return NULL;
	void *p = __real_calloc(n, size);
	if (p)
		live_add(p);
	return p;
}

void *__wrap_realloc(void *p, size_t n)
{
	if (should_fail())
		return NULL; /* p stays valid, as with a real failure */
	int ours = p ? live_del(p) : 0;
	void *q = __real_realloc(p, n);
	if (q)
		live_add(q);
	else if (ours)
		live_add(p);
	return q;
}

char *__wrap_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = __wrap_malloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}

void __wrap_free(void *p)
{
	if (p)
		live_del(p);
	__real_free(p);
}

static void arm(long at)
{
	live_reset();
	alloc_no = 0;
	injected = 0;
	fail_at = at;
}

/* ---- the loads ---- */

#define TODAY "2027-01-01" /* after every as_of of the files below */

/* One load and release; returns the load's status, messages in *d. */
typedef int (*load_fn)(struct tc_diag *d);

static struct tc_datapath dp_here; /* "." only: ./models, ./pricing */

static int load_yaml(struct tc_diag *d)
{
	struct yn_doc doc;
	int rc = yn_load_file("examples/llama2-7b-a100.yaml", &doc, d);
	yn_doc_release(&doc);
	return rc;
}

static int load_workload_preset(struct tc_diag *d)
{
	struct workload w;
	return wl_load_file("examples/llama2-7b-a100.yaml", &dp_here, &w, d);
}

static int load_workload_hf(struct tc_diag *d)
{
	struct workload w;
	return wl_load_file("examples/hf-config.yaml", &dp_here, &w, d);
}

static int load_gpu(struct tc_diag *d)
{
	struct gpu g;
	return gpu_load_file(TC_TEST_DATA "/models/gpu/a100-80gb-sxm.yaml", &g, d);
}

static int load_catalog(struct tc_diag *d)
{
	struct gpu_catalog cat = { 0 };
	int rc = gpu_catalog_load(&dp_here, &cat, d);
	gpu_catalog_release(&cat);
	return rc;
}

static int load_price(struct tc_diag *d)
{
	struct price_table t;
	struct tc_diag warn;
	memset(&t, 0, sizeof(t));
	tc_diag_init(&warn);
	int rc = price_load_file("tests/unit/data/pricing/good.yaml", TODAY, &t, &warn, d);
	price_table_release(&t);
	return rc;
}

static int load_onprem(struct tc_diag *d)
{
	struct price_onprem op;
	memset(&op, 0, sizeof(op));
	int rc = price_onprem_load_file("tests/unit/data/pricing/onprem-test.yaml", TODAY, &op, NULL, d);
	price_onprem_release(&op);
	return rc;
}

static int load_skypilot(struct tc_diag *d)
{
	struct price_table t;
	struct tc_diag warn;
	memset(&t, 0, sizeof(t));
	tc_diag_init(&warn);
	int rc = price_import_skypilot("tests/unit/data/pricing/skypilot-aws.csv", "aws",
				       TODAY, &t, &warn, d);
	price_table_release(&t);
	return rc;
}

static int load_val_csv(struct tc_diag *d)
{
	struct val_set set;
	val_set_init(&set);
	int rc = val_load_file("tests/bad/csv-valid.csv", tc_test_datapath(), &set, d);
	val_set_release(&set);
	return rc;
}

/*
 * Load once without failures to count the allocations, then once per
 * allocation (every `stride`-th for large loads) with that one failing.
 * `severity` is the class the failure must be reported as (TC_EXIT_INTERNAL
 * for every loader today).
 */
static void fail_each(load_fn load, long max_runs, enum tc_exit severity)
{
	struct tc_diag d;

	tc_diag_init(&d);
	arm(0);
	assert_int_equal(load(&d), 0);
	assert_int_equal(live_count, 0);
	long total = alloc_no;
	assert_true(total > 0);
	long stride = total > max_runs ? total / max_runs : 1;
	print_message("%ld allocations, failing every %ld\n", total, stride);

	for (long k = 1; k <= total; k += stride) {
		tc_diag_init(&d);
		arm(k);
		int rc = load(&d);
		fail_at = 0;
		if (!injected)
			fail_msg("allocation %ld of %ld was not reached", k, total);
		if (live_count != 0)
			fail_msg("allocation %ld of %ld failed: %zu blocks leaked", k, total,
				 live_count);
		if (rc == 0)
			fail_msg("allocation %ld of %ld failed but the load succeeded", k, total);
		if (tc_diag_total(&d) == 0)
			fail_msg("allocation %ld of %ld failed without a message", k, total);
		if (d.severity != severity)
			fail_msg("allocation %ld of %ld failed: severity %d, expected %d (%s)",
				 k, total, (int)d.severity, (int)severity,
				 d.count ? d.entry[0].msg : "");
	}
	live_reset();
}

static void test_yaml(void **state) { (void)state; fail_each(load_yaml, 100000, TC_EXIT_INTERNAL); }
static void test_workload_preset(void **state) { (void)state; fail_each(load_workload_preset, 100000, TC_EXIT_INTERNAL); }
static void test_workload_hf(void **state) { (void)state; fail_each(load_workload_hf, 100000, TC_EXIT_INTERNAL); }
static void test_gpu(void **state) { (void)state; fail_each(load_gpu, 100000, TC_EXIT_INTERNAL); }
static void test_catalog(void **state) { (void)state; fail_each(load_catalog, 400, TC_EXIT_INTERNAL); }
static void test_price(void **state) { (void)state; fail_each(load_price, 100000, TC_EXIT_INTERNAL); }
static void test_onprem(void **state) { (void)state; fail_each(load_onprem, 100000, TC_EXIT_INTERNAL); }
static void test_skypilot(void **state) { (void)state; fail_each(load_skypilot, 2000, TC_EXIT_INTERNAL); }
/* Running out of memory while adding a case is an internal error (exit 4),
 * not a fault of the case file. */
static void test_val_csv(void **state) { (void)state; fail_each(load_val_csv, 100000, TC_EXIT_INTERNAL); }

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_yaml),
		cmocka_unit_test(test_workload_preset),
		cmocka_unit_test(test_workload_hf),
		cmocka_unit_test(test_gpu),
		cmocka_unit_test(test_catalog),
		cmocka_unit_test(test_price),
		cmocka_unit_test(test_onprem),
		cmocka_unit_test(test_skypilot),
		cmocka_unit_test(test_val_csv),
	};
	memset(&dp_here, 0, sizeof(dp_here));
	snprintf(dp_here.dir[0], sizeof(dp_here.dir[0]), ".");
	dp_here.count = 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
