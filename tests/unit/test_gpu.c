/*
 * test_gpu.c - the GPU catalog: the frozen copy of models/gpu (tests/data), MIG slices,
 * lookups, and bad files with their exact messages.  Run from the
 * repository root.  With TC_GPU_DATA=DIR it checks only the relations
 * every entry must satisfy and the order of its keys, on DIR/models/gpu:
 * tests/shipped-data.sh runs it so on the shipped catalog (TC_GPU_DATA=.).
 */
#include "tc_test.h"

#include <dirent.h>
#include <stdlib.h>

#include "../../src/io/fw_load.h"
#include "../../src/io/gpu_load.h"
#include "../../src/io/yaml_load.h"
#include "../../src/io/yaml_node.h"
#include "../../src/model/types/gpu.h"
#include "../../src/model/types/gpu_alias.h"
#include "../../src/model/types/precision.h"

#define GPU_DIR TC_TEST_DATA "/models/gpu"
#define BAD_DIR "tests/unit/data/gpu"
#define MIN_GPUS 25
#define TOL_MIG_NAME 0.03 /* MIG profile names round memory to whole GB */

/* Every GPU file of the frozen copy (or of TC_GPU_DATA), loaded once for
 * the suite. */
static struct gpu *all;
static size_t nall;
static const char *gpu_dir = GPU_DIR;

static int load_all(void **state)
{
	DIR *dir = opendir(gpu_dir);
	struct dirent *e;
	size_t cap = 0;

	(void)state;
	if (!dir)
		return -1;
	while ((e = readdir(dir))) {
		size_t len = strlen(e->d_name);
		char path[512];
		struct tc_diag d;

		if (len < 6 || strcmp(e->d_name + len - 5, ".yaml"))
			continue;
		if (nall == cap) {
			cap = cap ? 2 * cap : 32;
			struct gpu *p = realloc(all, cap * sizeof(*all));
			if (!p)
				break;
			all = p;
		}
		snprintf(path, sizeof(path), "%s/%s", gpu_dir, e->d_name);
		tc_diag_init(&d);
		if (gpu_load_file(path, &all[nall], &d)) {
			for (int i = 0; i < d.count; i++)
				fprintf(stderr, "%s\n", d.entry[i].msg);
			closedir(dir);
			return -1;
		}
		nall++;
	}
	closedir(dir);
	return 0;
}

static int free_all(void **state)
{
	(void)state;
	free(all);
	all = NULL;
	nall = 0;
	return 0;
}

static const struct gpu *by_id(const char *id)
{
	for (size_t i = 0; i < nall; i++)
		if (!strcmp(all[i].id, id))
			return &all[i];
	fail_msg("GPU '%s' is not in %s", id, gpu_dir);
	return NULL;
}

static void test_precision_table(void **state)
{
	(void)state;
	assert_string_equal(tc_prec_names[PREC_FP64_TENSOR], "fp64_tensor");
	assert_string_equal(tc_prec_names[PREC_BF16], "bf16");
	assert_string_equal(tc_prec_names[PREC_INT8], "int8");
	assert_null(tc_prec_names[PREC_COUNT]);
	assert_close(tc_prec_bytes(PREC_FP64), 8, TOL_EXACT);
	assert_close(tc_prec_bytes(PREC_FP32), 4, TOL_EXACT);
	assert_close(tc_prec_bytes(PREC_TF32), 4, TOL_EXACT);
	assert_close(tc_prec_bytes(PREC_BF16), 2, TOL_EXACT);
	assert_close(tc_prec_bytes(PREC_FP16), 2, TOL_EXACT);
	assert_close(tc_prec_bytes(PREC_FP8), 1, TOL_EXACT);
	assert_close(tc_prec_bytes(PREC_INT8), 1, TOL_EXACT);
}

static void test_catalog_size(void **state)
{
	static const char *const required[] = {
		"a100-40gb-pcie", "a100-80gb-pcie", "a100-40gb-sxm", "a100-80gb-sxm",
		"l40s", "l40", "l4", "a10", "a10g", "a40", "rtx-a6000",
		"rtx-6000-ada", "rtx-4090", "v100-16gb-sxm2", "v100-32gb-sxm2",
		"v100-pcie", "t4", "h100-sxm", "h100-pcie", "h100-nvl", "h200-sxm",
		"gh200", "b200", "mi250x", "mi300x", "rtx-a5000", "rtx-3090",
		"h200-nvl", "mi325x", "mi355x", "rtx-pro-6000-bse", NULL
	};
	(void)state;
	assert_true(nall >= MIN_GPUS);
	for (int i = 0; required[i]; i++)
		assert_non_null(by_id(required[i]));
}

/* Datasheet figures that GPU lists often get wrong: the A100 has no FP8 peak,
 * its PCIe and SXM parts differ in bandwidth and power (not in peak), and the
 * L40S's sparse rates are twice its dense ones. */
static void test_datasheet_figures(void **state)
{
	static const char *const a100[] = { "a100-40gb-pcie", "a100-80gb-pcie",
					    "a100-40gb-sxm", "a100-80gb-sxm" };
	(void)state;
	for (int i = 0; i < 4; i++) {
		const struct gpu *g = by_id(a100[i]);
		assert_close(g->peak_flop_per_s[PREC_BF16], 312e12, TOL_EXACT);
		assert_close(g->peak_flop_per_s[PREC_FP16], 312e12, TOL_EXACT);
		assert_close(g->peak_flop_per_s[PREC_TF32], 156e12, TOL_EXACT);
		assert_close(g->sparsity_speedup * g->peak_flop_per_s[PREC_BF16],
			     624e12, TOL_EXACT);
		assert_close(g->peak_flop_per_s[PREC_FP8], 0, TOL_EXACT);
		assert_int_equal(g->sm_count, 108);
	}
	/* PCIe vs SXM differ in bandwidth and power, not in peak. */
	assert_close(by_id("a100-80gb-pcie")->mem_bytes_per_s, 1935e9, TOL_EXACT);
	assert_close(by_id("a100-80gb-sxm")->mem_bytes_per_s, 2039e9, TOL_EXACT);
	assert_close(by_id("a100-40gb-pcie")->tdp_w, 250, TOL_EXACT);
	assert_close(by_id("a100-80gb-pcie")->tdp_w, 300, TOL_EXACT);
	assert_close(by_id("a100-80gb-sxm")->tdp_w, 400, TOL_EXACT);

	const struct gpu *l = by_id("l40s");
	assert_close(l->peak_flop_per_s[PREC_BF16], 362e12, TOL_EXACT);
	assert_close(l->peak_flop_per_s[PREC_TF32], 183e12, TOL_EXACT);
	assert_close(l->peak_flop_per_s[PREC_FP8], 733e12, TOL_EXACT);
	assert_close(l->peak_flop_per_s[PREC_FP64], 1.43e12, TOL_EXACT);
	/* Sparse apart, as the datasheet prints them: 733 bf16, 366 tf32,
	 * 1466 fp8; none for fp64 (no tensor cores) or fp32. */
	assert_close(gpu_sparse_peak(l, PREC_BF16), 733e12, TOL_EXACT);
	assert_close(gpu_sparse_peak(l, PREC_TF32), 366e12, TOL_EXACT);
	assert_close(gpu_sparse_peak(l, PREC_FP8), 1466e12, TOL_EXACT);
	assert_close(gpu_sparse_peak(l, PREC_FP64), 0, TOL_EXACT);
	assert_close(gpu_sparse_peak(l, PREC_FP32), 0, TOL_EXACT);
	/* A100: sparse = dense x 2 (312 -> 624), derived from sparsity_speedup. */
	assert_close(gpu_sparse_peak(by_id("a100-80gb-pcie"), PREC_BF16), 624e12, TOL_EXACT);
	assert_close(l->tdp_w, 350, TOL_EXACT);
	assert_close(l->nvlink_bytes_per_s, 0, TOL_EXACT);
	assert_int_equal(l->mig_count, 0);
	assert_close(l->memory_bytes, 48e9, TOL_EXACT);
	assert_string_equal(l->memory_type, "GDDR6");
	assert_close(by_id("l40")->tdp_w, 300, TOL_EXACT);
}

static void test_other_figures(void **state)
{
	(void)state;
	const struct gpu *h = by_id("h100-sxm");
	assert_close(h->peak_flop_per_s[PREC_BF16], 989.4e12, TOL_EXACT);
	assert_close(h->peak_flop_per_s[PREC_FP8], 1978.9e12, TOL_EXACT);
	assert_close(h->nvlink_bytes_per_s, 900e9, TOL_EXACT);
	/* GeForce: FP32-accumulate tensor rate, half the FP16-accumulate one. */
	assert_close(by_id("rtx-4090")->peak_flop_per_s[PREC_BF16], 165.2e12,
		     TOL_EXACT);
	/* MI250X describes the package (2 GCDs). */
	const struct gpu *m = by_id("mi250x");
	assert_close(m->memory_bytes, 128e9, TOL_EXACT);
	assert_close(m->peak_flop_per_s[PREC_BF16], 383e12, TOL_EXACT);
	assert_close(m->sparsity_speedup, 1, TOL_EXACT);
	assert_close(by_id("v100-16gb-sxm2")->sparsity_speedup, 1, TOL_EXACT);
	assert_close(by_id("t4")->sparsity_speedup, 1, TOL_EXACT);
	assert_close(by_id("h200-sxm")->memory_bytes, 141e9, TOL_EXACT);
	assert_close(by_id("b200")->memory_bytes, 180e9, TOL_EXACT);
	/* H200 NVL datasheet prints 1671 sparse BF16: dense is 1671 / 2. */
	assert_close(by_id("h200-nvl")->peak_flop_per_s[PREC_BF16], 835.5e12,
		     TOL_EXACT);
	/* GA102 whitepaper: RTX 3090 BF16 with FP32 accumulate is 71 dense. */
	assert_close(by_id("rtx-3090")->peak_flop_per_s[PREC_BF16], 71e12,
		     TOL_EXACT);
	assert_string_equal(by_id("mi355x")->architecture, "cdna4");
}

/* Relations every catalog entry must satisfy. */
static void test_relations(void **state)
{
	(void)state;
	for (size_t i = 0; i < nall; i++) {
		const struct gpu *g = &all[i];
		const double *pk = g->peak_flop_per_s;

		assert_true(strlen(g->source) > 0);
		assert_int_equal(strlen(g->as_of), 10);
		assert_true(strlen(g->notes) > 0);
		assert_true(strlen(g->name) > 0);
		assert_true(pk[PREC_FP32] > 0);
		assert_true(g->memory_bytes > 0 && g->mem_bytes_per_s > 0);
		assert_true(g->tdp_w > 0 && g->gpus_per_node >= 1);
		assert_true(g->sm_count > 0);
		/* A clock the vendor does not publish is left out, and the
		 * notes say so (`gpus show` prints "not recorded"). */
		assert_true(g->boost_clock_hz > 0 ||
			    strstr(g->notes, "clock") != NULL);
		assert_true(g->pcie_bytes_per_s > 0);
		/* Dense and sparse apart: the sparse peak is dense times 1 or 2. */
		assert_true(g->sparsity_speedup == 1 || g->sparsity_speedup == 2);
		/* Tensor math is never slower than the plain FP32 path. */
		for (int p = PREC_TF32; p <= PREC_INT8; p++)
			if (pk[p] > 0)
				assert_true(pk[p] >= pk[PREC_FP32]);
		if (pk[PREC_FP16] > 0 && pk[PREC_BF16] > 0)
			assert_close(pk[PREC_BF16], pk[PREC_FP16], TOL_EXACT);
		if (pk[PREC_FP8] > 0)
			assert_true(pk[PREC_FP8] >= pk[PREC_BF16]);
		if (pk[PREC_FP64_TENSOR] > 0)
			assert_true(pk[PREC_FP64_TENSOR] >= pk[PREC_FP64]);
		if (pk[PREC_TF32] > 0 && pk[PREC_BF16] > 0)
			assert_true(pk[PREC_BF16] >= pk[PREC_TF32]);
		/* Several MIG instances of a profile fit on one GPU. */
		for (int k = 0; k < g->mig_count; k++) {
			const struct gpu_mig_profile *m = &g->mig[k];
			assert_true(m->instances * m->sms <= g->sm_count);
			assert_true(m->instances * m->memory_slices <= 8);
			/* The profile's memory is its eighths of the GPU's, up
			 * to the rounding of profile names (H100 NVL 1g.24gb:
			 * 2/8 of 94 GB = 23.5 GB) and, where the file gives
			 * the bytes the driver exposes, the names' decimal GB
			 * against binary HBM sizes (A100 40GB 1g.5gb: 42.95 /
			 * 8 = 5.37 GB, 0.93 of it; B200 1g.23gb: 192.3 / 8 =
			 * 24.0 GB, 0.96). */
			double share = g->memory_bytes * m->memory_slices / 8;
			assert_true(m->memory_bytes <= share * (1 + TOL_MIG_NAME));
			assert_true(m->memory_bytes >= share * 0.9);
		}
	}
}

/* Keys of every file appear in the schema's order. */
static void test_key_order(void **state)
{
	static const char *const order[] = {
		"kind", "id", "name", "vendor", "architecture", "form_factor",
		"launch_year", "dense_tflops", "sparsity_speedup", "sparse_tflops", "memory",
		"memory_type", "memory_bandwidth", "l2_cache", "sm_count",
		"boost_clock", "nvlink", "pcie", "topology", "nvls_gain", "collectives_measured", "tdp", "gpus_per_node", "mig",
		"efficiency", "source", "as_of", "notes", NULL
	};
	(void)state;
	for (size_t i = 0; i < nall; i++) {
		char path[512];
		struct yn_doc doc = { 0 };
		struct tc_diag d;
		int at = 0;

		snprintf(path, sizeof(path), "%s/%s.yaml", gpu_dir, all[i].id);
		tc_diag_init(&d);
		assert_int_equal(yn_load_file(path, &doc, &d), 0);
		for (size_t k = 0; k < doc.root->count; k++) {
			const char *key = doc.root->keys[k]->str;
			while (order[at] && strcmp(order[at], key))
				at++;
			if (!order[at])
				fail_msg("%s: key '%s' out of order", path, key);
		}
		/* dense_tflops keys follow enum tc_prec. */
		const struct yn_node *t = yn_map_get(doc.root, "dense_tflops");
		int p = 0;
		for (size_t k = 0; k < t->count; k++) {
			while (p < PREC_COUNT &&
			       strcmp(tc_prec_names[p], t->keys[k]->str))
				p++;
			if (p == PREC_COUNT)
				fail_msg("%s: dense_tflops key '%s' out of order",
					 path, t->keys[k]->str);
		}
		yn_doc_release(&doc);
	}
}

static void test_mig_slice(void **state)
{
	struct gpu s;
	(void)state;
	const struct gpu *a = by_id("a100-80gb-sxm");

	assert_int_equal(gpu_mig_slice(a, "1g.10gb", &s), 0);
	assert_string_equal(s.id, "a100-80gb-sxm:1g.10gb");
	assert_string_equal(s.mig_of, "a100-80gb-sxm");
	assert_string_equal(s.name, "NVIDIA A100 80GB SXM4 MIG 1g.10gb");
	assert_int_equal(s.sm_count, 14);
	/* 14 of 108 SMs: 312e12 * 14 / 108 = 40.44e12 FLOP/s dense BF16. */
	assert_close(s.peak_flop_per_s[PREC_BF16], 312e12 * 14 / 108, TOL_EXACT);
	assert_close(s.peak_flop_per_s[PREC_FP32], 19.5e12 * 14 / 108, TOL_EXACT);
	/* 1 of 8 memory slices: 2039e9 / 8 = 254.9e9 B/s; 40 MB / 8 of L2. */
	assert_close(s.memory_bytes, 10e9, TOL_EXACT);
	assert_close(s.mem_bytes_per_s, 2039e9 / 8, TOL_EXACT);
	assert_close(s.l2_bytes, 40e6 / 8, TOL_EXACT);
	assert_close(s.nvlink_bytes_per_s, 0, TOL_EXACT);
	assert_int_equal(s.gpus_per_node, 7);
	assert_int_equal(s.mig_count, 0);
	assert_close(s.sparsity_speedup, 2, TOL_EXACT);

	/* 4g.40gb: 56 SMs, 4 of 8 memory slices. */
	assert_int_equal(gpu_mig_slice(a, "4g.40gb", &s), 0);
	assert_close(s.peak_flop_per_s[PREC_BF16], 312e12 * 56 / 108, TOL_EXACT);
	assert_close(s.mem_bytes_per_s, 2039e9 * 4 / 8, TOL_EXACT);
	assert_close(s.memory_bytes, 40e9, TOL_EXACT);

	/* A bigger slice is never slower (relation). */
	struct gpu big;
	assert_int_equal(gpu_mig_slice(a, "7g.80gb", &big), 0);
	assert_true(big.peak_flop_per_s[PREC_BF16] > s.peak_flop_per_s[PREC_BF16]);
	assert_true(big.peak_flop_per_s[PREC_BF16] <= a->peak_flop_per_s[PREC_BF16]);

	assert_int_equal(gpu_mig_slice(a, "1g.5gb", &s), -1);
	assert_int_equal(gpu_mig_slice(by_id("l40s"), "1g.10gb", &s), -1);
}

/* A four-GPU catalog built in code, for exact lookup messages. */
static void small_catalog(struct gpu_catalog *cat, struct gpu g[4])
{
	memset(g, 0, 4 * sizeof(*g));
	g[0] = *by_id("a10");
	g[1] = *by_id("a100-40gb-pcie");
	g[2] = *by_id("a100-80gb-sxm");
	g[3] = *by_id("l40s");
	cat->gpus = g;
	cat->count = 4;
}

/* The alias table: common and SkyPilot names to catalog ids. */
static void test_alias(void **state)
{
	(void)state;
	assert_string_equal(gpu_alias_id("A100"), "a100-80gb-sxm");
	assert_string_equal(gpu_alias_id("a100-80gb"), "a100-80gb-sxm");
	assert_string_equal(gpu_alias_id("A100-40GB"), "a100-40gb-sxm");
	assert_string_equal(gpu_alias_id("H100"), "h100-sxm");
	assert_string_equal(gpu_alias_id("h100_mega"), "h100-sxm");
	assert_string_equal(gpu_alias_id("RTX 6000 Ada"), "rtx-6000-ada");
	assert_null(gpu_alias_id("A100X"));
	assert_null(gpu_alias_id(""));
	/* Every target is a catalog id of the real files. */
	for (size_t i = 0; gpu_alias_table[i].name; i++) {
		size_t k = 0;
		while (k < nall && strcmp(all[k].id, gpu_alias_table[i].id))
			k++;
		assert_true(k < nall);
	}
}

/* The names people type, resolved by their parts (gpu_names.h) against
 * the whole catalog: a memory size that is the GPU's own, a bare model
 * number, any case; and the suggestion stays in the family. */
static void test_names_by_parts(void **state)
{
	static const struct {
		const char *typed, *id;
	} resolves[] = {
		{ "l40s-48gb", "l40s" },         /* l40s.yaml: memory 48GB */
		{ "h100-80gb-sxm", "h100-sxm" }, /* h100-sxm.yaml: 80GB, sxm */
		{ "H100-80GB", "h100-sxm" },     /* h100-sxm and h100-pcie are 80GB:
						    the part "H100" alone means */
		{ "h100-94gb", "h100-nvl" },     /* the one H100 of 94GB */
		{ "4090", "rtx-4090" },          /* the one family numbered 4090 */
		{ "h100-sxm5", "h100-sxm" },     /* its name: NVIDIA H100 80GB SXM5 */
		{ "A100 80GB SXM4", "a100-80gb-sxm" },
	};
	static const struct {
		const char *typed, *suggest;
	} unknown[] = {
		{ "a100-pcie", "a100-80gb-pcie" },   /* not h100-pcie: the family first */
		{ "a100-96gb", "a100-80gb-sxm" },    /* no A100 has 96GB */
		{ "h100-sxm6", "h100-sxm" },         /* its SXM is SXM5 */
		{ "b200-192gb", "b200" },            /* b200.yaml: 180GB */
		{ "6000", "rtx-pro-6000-bse" },      /* three families numbered 6000 */
	};
	struct gpu_catalog cat = { all, nall };
	struct gpu out;
	char why[1024], want[128];
	(void)state;
	for (size_t i = 0; i < sizeof(resolves) / sizeof(resolves[0]); i++) {
		assert_int_equal(gpu_catalog_lookup(&cat, resolves[i].typed, &out, why, sizeof(why)), 0);
		assert_string_equal(out.id, resolves[i].id);
	}
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		assert_int_equal(gpu_catalog_lookup(&cat, unknown[i].typed, &out, why, sizeof(why)), -1);
		snprintf(want, sizeof(want), "unknown GPU '%s' (did you mean '%s'? known: ",
			 unknown[i].typed, unknown[i].suggest);
		assert_memory_equal(why, want, strlen(want));
	}
}

static void test_lookup(void **state)
{
	struct gpu g[4], out;
	struct gpu_catalog cat;
	char why[512];
	(void)state;

	small_catalog(&cat, g);
	assert_int_equal(gpu_catalog_lookup(&cat, "l40s", &out, why, sizeof(why)), 0);
	assert_string_equal(out.id, "l40s");
	assert_int_equal(gpu_catalog_lookup(&cat, "a100-80gb-sxm:3g.40gb", &out,
					    why, sizeof(why)), 0);
	assert_string_equal(out.id, "a100-80gb-sxm:3g.40gb");
	assert_int_equal(out.sm_count, 42);

	/* The names people type: any case, and documented aliases. */
	assert_int_equal(gpu_catalog_lookup(&cat, "a100", &out, why, sizeof(why)), 0);
	assert_string_equal(out.id, "a100-80gb-sxm");
	assert_int_equal(gpu_catalog_lookup(&cat, "A100-80GB", &out, why, sizeof(why)), 0);
	assert_string_equal(out.id, "a100-80gb-sxm");
	assert_int_equal(gpu_catalog_lookup(&cat, "A100-40GB-PCIE", &out, why, sizeof(why)), 0);
	assert_string_equal(out.id, "a100-40gb-pcie");
	assert_int_equal(gpu_catalog_lookup(&cat, "L40S", &out, why, sizeof(why)), 0);
	assert_string_equal(out.id, "l40s");
	assert_int_equal(gpu_catalog_lookup(&cat, "A100:3g.40gb", &out, why, sizeof(why)), 0);
	assert_string_equal(out.id, "a100-80gb-sxm:3g.40gb");
	/* A family prefix wins over a nearer spelling such as 'a10' (the CLI
	 * case gpu-suggest-sxm checks that the SXM member is preferred). */
	assert_int_equal(gpu_catalog_lookup(&cat, "a100-4", &out, why, sizeof(why)), -1);
	assert_string_equal(why, "unknown GPU 'a100-4' (did you mean 'a100-40gb-pcie'? "
			    "known: a10, a100-40gb-pcie, a100-80gb-sxm, l40s)");
	assert_int_equal(gpu_catalog_lookup(&cat, "l40z", &out, why, sizeof(why)), -1);
	assert_string_equal(why, "unknown GPU 'l40z' (did you mean 'l40s'? "
			    "known: a10, a100-40gb-pcie, a100-80gb-sxm, l40s)");
	assert_int_equal(gpu_catalog_lookup(&cat, "h100:1g.10gb", &out, why,
					    sizeof(why)), -1);
	assert_string_equal(why, "unknown GPU 'h100' (known: a10, a100-40gb-pcie, "
			    "a100-80gb-sxm, l40s)");
	assert_int_equal(gpu_catalog_lookup(&cat, "a100-80gb-sxm:1g.5gb", &out,
					    why, sizeof(why)), -1);
	assert_string_equal(why, "unknown MIG profile '1g.5gb' of GPU 'a100-80gb-sxm' "
			    "(expected one of: 1g.10gb, 1g.20gb, 2g.20gb, 3g.40gb, "
			    "4g.40gb, 7g.80gb)");
	assert_int_equal(gpu_catalog_lookup(&cat, "l40s:1g.10gb", &out, why,
					    sizeof(why)), -1);
	assert_string_equal(why, "GPU 'l40s' has no MIG profiles (expected a plain id, "
			    "or a MIG-capable GPU such as a100-80gb-sxm:1g.10gb)");
	/* A short buffer is cut, never overrun. */
	char tiny[16];
	assert_int_equal(gpu_catalog_lookup(&cat, "x", &out, tiny, sizeof(tiny)), -1);
	assert_int_equal(strlen(tiny), sizeof(tiny) - 1);
	assert_string_equal(tiny + sizeof(tiny) - 4, "...");
}

static void test_catalog_load(void **state)
{
	struct tc_datapath dp;
	struct gpu_catalog cat = { 0 };
	struct tc_diag d;
	struct gpu out;
	char why[1024];
	(void)state;

	tc_diag_init(&d);
	assert_int_equal(dp_init(&dp, NULL, 0, &d), 0);
	assert_int_equal(gpu_catalog_load(&dp, &cat, &d), 0);
	assert_int_equal(d.count, 0);
	assert_true(cat.count >= MIN_GPUS);
	for (size_t i = 1; i < cat.count; i++)
		assert_true(strcmp(cat.gpus[i - 1].id, cat.gpus[i].id) < 0);
	assert_int_equal(gpu_catalog_lookup(&cat, "h100-sxm:1g.10gb", &out, why,
					    sizeof(why)), 0);
	assert_string_equal(out.mig_of, "h100-sxm");
	gpu_catalog_release(&cat);
	assert_null(cat.gpus);
	gpu_catalog_release(&cat); /* twice is harmless */

	/* A folder with a bad file fails as a whole. */
	const char *dirs[] = { BAD_DIR };
	tc_diag_init(&d);
	assert_int_equal(dp_init(&dp, dirs, 1, &d), 0);
	assert_int_equal(gpu_catalog_load(&dp, &cat, &d), -1);
	assert_int_equal(d.count, 1);
	assert_string_equal(d.entry[0].msg, BAD_DIR "/models/gpu/bad-one.yaml:1:1: "
			    "missing required key 'tdp' in GPU file");
	assert_null(cat.gpus);
	assert_int_equal(cat.count, 0);
}

static void test_optional_keys(void **state)
{
	struct gpu g;
	struct tc_diag d;
	struct roof_eff def;
	(void)state;

	eff_default(&def);
	tc_diag_init(&d);
	assert_int_equal(gpu_load_file(BAD_DIR "/minimal.yaml", &g, &d), 0);
	assert_close(g.sparsity_speedup, 1, TOL_EXACT);
	assert_int_equal(g.gpus_per_node, 1);
	assert_int_equal(g.mig_count, 0);
	assert_close(g.nvlink_bytes_per_s, 0, TOL_EXACT);
	assert_close(g.eff.gemm_max_frac, def.gemm_max_frac, TOL_EXACT);
	assert_string_equal(g.eff.source, def.source);
	assert_string_equal(g.vendor, "nvidia");
	assert_string_equal(g.architecture, "ampere");
	assert_string_equal(g.form_factor, "sxm");

	tc_diag_init(&d);
	assert_int_equal(gpu_load_file(BAD_DIR "/with-efficiency.yaml", &g, &d), 0);
	assert_close(g.eff.gemm_max_frac, 0.7, TOL_EXACT);
	assert_close(g.eff.launch_s, 8e-6, TOL_EXACT);
	assert_close(g.eff.mem_frac, def.mem_frac, TOL_EXACT);
	assert_close(g.eff.comm_frac, def.comm_frac, TOL_EXACT);
	assert_string_equal(g.eff.source, "test override");
	assert_string_equal(g.eff.measured_on, "");

	/* values measured on another GPU of the same die */
	tc_diag_init(&d);
	assert_int_equal(gpu_load_file(BAD_DIR "/measured-on.yaml", &g, &d), 0);
	assert_close(g.eff.gemm_max_frac, 0.7, TOL_EXACT);
	assert_string_equal(g.eff.measured_on, "a100-80gb-sxm");
	assert_string_equal(g.eff.source, "test proxy");
}

/* `measured_on` is a GPU file's key: a framework profile refuses it. */
static void test_measured_on_not_in_profiles(void **state)
{
	struct framework f;
	struct tc_diag d;
	(void)state;
	tc_diag_init(&d);
	assert_int_equal(fw_load_file("tests/unit/data/fw/measured-on.yaml", &f, &d), -1);
	assert_true(d.count >= 1);
	assert_non_null(strstr(d.entry[0].msg, "measured-on.yaml:9:3: unknown key 'measured_on' "
				"in efficiency"));
}

/* One bad file and every message it must give, in order. */
struct bad_case {
	const char *file;   /* under BAD_DIR */
	const char *msg[3]; /* complete, position included; NULL-terminated */
};

#define P BAD_DIR "/"
static const struct bad_case bad_cases[] = {
	{ "missing-tdp.yaml",
	  { P "missing-tdp.yaml:1:1: missing required key 'tdp' in GPU file" } },
	{ "memory-no-unit.yaml",
	  { P "memory-no-unit.yaml:13:9: 'memory' must be a size, got '80' "
	      "(expected a size such as 80GB or 80GiB)" } },
	{ "id-mismatch.yaml",
	  { P "id-mismatch.yaml:2:5: id 'a100-80gb-sxm' does not match the file "
	      "name (expected 'id-mismatch')" } },
	{ "bad-as-of.yaml",
	  { P "bad-as-of.yaml:22:8: as_of '2026-02-30' is not a real date "
	      "(expected YYYY-MM-DD, e.g. 2026-11-29)" } },
	{ "as-of-shape.yaml",
	  { P "as-of-shape.yaml:22:8: as_of '29.11.2026' is not a date "
	      "(expected YYYY-MM-DD, e.g. 2026-11-29)" } },
	{ "negative-tdp.yaml",
	  { P "negative-tdp.yaml:17:6: 'tdp' is -350W "
	      "(expected a power from 10 W to 2000 W)" } },
	{ "unknown-precision.yaml",
	  { P "unknown-precision.yaml:11:3: unknown key 'bf61' in dense_tflops "
	      "(expected one of: fp64, fp64_tensor, fp32, tf32, bf16, fp16, fp8, int8, fp4)" } },
	{ "no-fp32.yaml",
	  { P "no-fp32.yaml:9:3: missing required key 'fp32' in dense_tflops" } },
	{ "id-chars.yaml",
	  { P "id-chars.yaml:2:5: id 'ID_Chars' has characters other than a-z, "
	      "0-9 and '-' (expected an id such as 'a100-80gb-sxm')" } },
	{ "wrong-kind.yaml",
	  { P "wrong-kind.yaml:1:7: 'kind' is 'gpus' "
	      "(expected one of: gpu; did you mean 'gpu'?)" } },
	{ "arch-vendor.yaml",
	  { P "arch-vendor.yaml:5:15: architecture 'ampere' is not made by vendor "
	      "'amd' (expected an amd architecture)" } },
	{ "mig-sms.yaml",
	  { P "mig-sms.yaml:20:43: MIG profile '1g.10gb' has 140 SMs, more than "
	      "the GPU's 108 (expected at most 108)" } },
	{ "mig-twice.yaml",
	  { P "mig-twice.yaml:21:15: MIG profile '1g.10gb' is listed twice "
	      "(expected each profile once)" } },
	{ "mig-no-sm-count.yaml",
	  { P "mig-no-sm-count.yaml:18:1: mig profiles need the GPU's SM count "
	      "(expected an sm_count key)" } },
	{ "eff-range.yaml",
	  { P "eff-range.yaml:22:18: 'gemm_max_frac' is 1.5 "
	      "(expected a number from 0.01 to 1)" } },
	{ "not-a-map.yaml",
	  { P "not-a-map.yaml:1:1: the file holds a list "
	      "(expected a mapping of GPU keys)" } },
	/* Every problem is reported, not just the first. */
	{ "two-problems.yaml",
	  { P "two-problems.yaml:13:9: 'memory' must be a size, got '80' "
	      "(expected a size such as 80GB or 80GiB)",
	    P "two-problems.yaml:17:6: 'tdp' is 3000W "
	      "(expected a power from 10 W to 2000 W)" } },
	{ "typo-key.yaml",
	  { P "typo-key.yaml:13:1: unknown key 'tdpp' in GPU file (did you mean 'tdp'?)",
	    P "typo-key.yaml:1:1: missing required key 'tdp' in GPU file" } },
	{ NULL, { NULL } },
};

static void test_bad_files(void **state)
{
	(void)state;
	for (int i = 0; bad_cases[i].file; i++) {
		const struct bad_case *c = &bad_cases[i];
		char path[512];
		struct gpu g;
		struct tc_diag d;
		int want = 0;

		while (want < 3 && c->msg[want])
			want++;
		snprintf(path, sizeof(path), "%s/%s", BAD_DIR, c->file);
		memset(&g, 0x5a, sizeof(g));
		tc_diag_init(&d);
		assert_int_equal(gpu_load_file(path, &g, &d), -1);
		assert_int_equal(d.severity, TC_EXIT_INPUT);
		if (d.count != want) {
			for (int k = 0; k < d.count; k++)
				fprintf(stderr, "  %s\n", d.entry[k].msg);
			fail_msg("%s: %d messages, expected %d", path, d.count, want);
		}
		for (int k = 0; k < want; k++)
			assert_string_equal(d.entry[k].msg, c->msg[k]);
		/* Out-parameters are written only on success. */
		assert_int_equal((unsigned char)g.id[0], 0x5a);
	}
}

static void test_missing_file(void **state)
{
	struct gpu g;
	struct tc_diag d;
	(void)state;

	tc_diag_init(&d);
	assert_int_equal(gpu_load_file(BAD_DIR "/no-such-gpu.yaml", &g, &d), -1);
	assert_int_equal(d.severity, TC_EXIT_IO);
}

int main(void)
{
	tc_use_test_data();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_precision_table),
		cmocka_unit_test(test_catalog_size),
		cmocka_unit_test(test_datasheet_figures),
		cmocka_unit_test(test_other_figures),
		cmocka_unit_test(test_relations),
		cmocka_unit_test(test_key_order),
		cmocka_unit_test(test_mig_slice),
		cmocka_unit_test(test_alias),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_catalog_load),
		cmocka_unit_test(test_optional_keys),
		cmocka_unit_test(test_measured_on_not_in_profiles),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_names_by_parts),
	};
	const struct CMUnitTest shipped[] = {
		cmocka_unit_test(test_catalog_size),
		cmocka_unit_test(test_relations),
		cmocka_unit_test(test_key_order),
	};
	const char *other = getenv("TC_GPU_DATA");
	static char dir[512];

	if (other && other[0]) {
		snprintf(dir, sizeof(dir), "%s/models/gpu", other);
		gpu_dir = dir;
		return cmocka_run_group_tests_name("gpu relations", shipped, load_all,
						   free_all);
	}
	return cmocka_run_group_tests_name("gpu", tests, load_all, free_all);
}
