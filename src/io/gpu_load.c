/*
 * gpu_load.c - the GPU catalog: models/gpu/<id>.yaml, one GPU per file.
 *
 * A file is a mapping checked against field tables (fields.h); what tables
 * cannot say (id equals the file name, a real as_of date, the vendor owns
 * the architecture, MIG slices fit the GPU) is checked here, at the
 * position of the offending value.
 */
#include "gpu_load.h"
#include "gpu_names.h"
#include "eff_map.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/types/gpu_alias.h"
#include "fields.h"
#include "yaml_load.h"
#include "yaml_node.h"

/* Ranges of the catalog fields, in SI units. */
#define GB 1e9             /* bytes */
#define TFLOP_PER_S 1e12   /* FLOP/s per TFLOP/s in dense_tflops */
#define MIG_MEMORY_SLICES 8

static const char *const kind_names[] = { "gpu", NULL };
static const char *const vendor_names[] = { "nvidia", "amd", NULL };
static const char *const arch_names[] = { "volta", "turing", "ampere", "ada",
					  "hopper", "blackwell", "cdna2",
					  "cdna3", "cdna4", NULL };
/* The vendor of each arch_names entry. */
static const int arch_vendor[] = { 0, 0, 0, 0, 0, 0, 1, 1, 1 };
_Static_assert(sizeof(arch_vendor) / sizeof(arch_vendor[0]) ==
		       sizeof(arch_names) / sizeof(arch_names[0]) - 1,
	       "one vendor per architecture");
static const char *const form_names[] = { "sxm", "pcie", "oam", "superchip",
					   NULL };

/* What a GPU file parses into: the GPU plus the enum indices (-1 until a
 * valid value is stored). */
struct gpu_doc {
	struct gpu g;
	int kind;         /* index into kind_names */
	int vendor;       /* index into vendor_names */
	int architecture; /* index into arch_names */
	int form_factor;  /* index into form_names */
	int topology;     /* index into topo_names + 1, -1 = not stated */
};

static int parse_id(const struct yn_node *v, void *target,
		    const struct fd_ctx *ctx);
static int parse_tflops(const struct yn_node *v, void *target,
			const struct fd_ctx *ctx);
static int parse_sparse_tflops(const struct yn_node *v, void *target,
			       const struct fd_ctx *ctx);
static int parse_mig(const struct yn_node *v, void *target,
		     const struct fd_ctx *ctx);
static int parse_eff(const struct yn_node *v, void *target,
		     const struct fd_ctx *ctx);
static int parse_as_of(const struct yn_node *v, void *target,
		       const struct fd_ctx *ctx);

#define G(field) offsetof(struct gpu_doc, g.field)
#define D(field) offsetof(struct gpu_doc, field)

/*
 * The top-level keys, in the order files write them.  FD_CUSTOM handlers
 * get offset 0: their target is the whole struct gpu_doc.
 */
static const struct fd_field gpu_fields[] = {
	{ .key = "kind", .type = FD_ENUM, .required = 1, .offset = D(kind),
	  .names = kind_names },
	{ .key = "id", .type = FD_CUSTOM, .required = 1, .parse = parse_id },
	{ .key = "name", .type = FD_STR, .required = 1, .offset = G(name),
	  .size = GPU_TEXT_LEN },
	{ .key = "vendor", .type = FD_ENUM, .required = 1, .offset = D(vendor),
	  .names = vendor_names },
	{ .key = "architecture", .type = FD_ENUM, .required = 1,
	  .offset = D(architecture), .names = arch_names },
	{ .key = "form_factor", .type = FD_ENUM, .required = 1,
	  .offset = D(form_factor), .names = form_names },
	{ .key = "launch_year", .type = FD_INT, .offset = G(launch_year),
	  .min = 2010, .max = 2030 },
	{ .key = "dense_tflops", .type = FD_CUSTOM, .required = 1,
	  .parse = parse_tflops },
	{ .key = "sparsity_speedup", .type = FD_NUM, .offset = G(sparsity_speedup),
	  .unit = TC_UNIT_COUNT, .min = 1, .max = 4 },
	{ .key = "sparse_tflops", .type = FD_CUSTOM, .parse = parse_sparse_tflops },
	{ .key = "memory", .type = FD_NUM, .required = 1, .offset = G(memory_bytes),
	  .unit = TC_UNIT_BYTES, .min = 1 * GB, .max = 1000 * GB },
	{ .key = "memory_type", .type = FD_STR, .offset = G(memory_type),
	  .size = sizeof(((struct gpu *)0)->memory_type) },
	{ .key = "memory_bandwidth", .type = FD_NUM, .required = 1,
	  .offset = G(mem_bytes_per_s), .unit = TC_UNIT_BYTE_RATE,
	  .min = 1 * GB, .max = 100000 * GB },
	{ .key = "l2_cache", .type = FD_NUM, .offset = G(l2_bytes),
	  .unit = TC_UNIT_BYTES, .min = 1e5, .max = 10 * GB },
	{ .key = "sm_count", .type = FD_INT, .offset = G(sm_count),
	  .min = 1, .max = 1000 },
	{ .key = "boost_clock", .type = FD_NUM, .offset = G(boost_clock_hz),
	  .unit = TC_UNIT_HZ, .min = 1e8, .max = 1e10 },
	{ .key = "nvlink", .type = FD_NUM, .offset = G(nvlink_bytes_per_s),
	  .unit = TC_UNIT_BYTE_RATE, .min = 1 * GB, .max = 100000 * GB },
	{ .key = "pcie", .type = FD_NUM, .offset = G(pcie_bytes_per_s),
	  .unit = TC_UNIT_BYTE_RATE, .min = 1 * GB, .max = 10000 * GB },
	{ .key = "topology", .type = FD_ENUM, .offset = D(topology),
	  .names = topo_names + 1 },
	{ .key = "nvls_gain", .type = FD_NUM, .offset = G(nvls_gain),
	  .unit = TC_UNIT_COUNT, .min = 1, .max = 2 },
	{ .key = "collectives_measured", .type = FD_STR,
	  .offset = G(collectives_measured), .size = GPU_ID_LEN },
	{ .key = "tdp", .type = FD_NUM, .required = 1, .offset = G(tdp_w),
	  .unit = TC_UNIT_WATTS, .min = 10, .max = 2000 },
	{ .key = "gpus_per_node", .type = FD_INT, .offset = G(gpus_per_node),
	  .min = 1, .max = 64 },
	{ .key = "mig", .type = FD_CUSTOM, .parse = parse_mig },
	{ .key = "efficiency", .type = FD_CUSTOM, .parse = parse_eff },
	{ .key = "source", .type = FD_STR, .required = 1, .offset = G(source),
	  .size = GPU_TEXT_LEN },
	{ .key = "as_of", .type = FD_CUSTOM, .required = 1, .parse = parse_as_of },
	{ .key = "notes", .type = FD_STR, .offset = G(notes),
	  .size = GPU_TEXT_LEN },
	{ .key = NULL },
};

#define M(field) offsetof(struct gpu_mig_profile, field)

/* One entry of `mig:`. */
static const struct fd_field mig_fields[] = {
	{ .key = "profile", .type = FD_STR, .required = 1, .offset = M(name),
	  .size = sizeof(((struct gpu_mig_profile *)0)->name) },
	{ .key = "instances", .type = FD_INT, .required = 1, .offset = M(instances),
	  .min = 1, .max = 7 },
	{ .key = "sms", .type = FD_INT, .required = 1, .offset = M(sms),
	  .min = 1, .max = 1000 },
	{ .key = "memory_slices", .type = FD_INT, .required = 1,
	  .offset = M(memory_slices), .min = 1, .max = MIG_MEMORY_SLICES },
	{ .key = "memory", .type = FD_NUM, .required = 1, .offset = M(memory_bytes),
	  .unit = TC_UNIT_BYTES, .min = 0.1 * GB, .max = 1000 * GB },
	{ .key = NULL },
};

/* The file name of `path` without folders and without ".yaml"/".yml". */
static void id_from_path(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t len = strlen(base);
	if (len > 5 && !strcmp(base + len - 5, ".yaml"))
		len -= 5;
	else if (len > 4 && !strcmp(base + len - 4, ".yml"))
		len -= 4;
	if (len >= size)
		len = size - 1;
	memcpy(buf, base, len);
	buf[len] = '\0';
}

/* True if `s` is non-empty and only [a-z0-9-]. */
static int valid_id(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '-'))
			return 0;
	return 1;
}

/* `id`: [a-z0-9-]+ and the same as the file name. */
static int parse_id(const struct yn_node *v, void *target,
		    const struct fd_ctx *ctx)
{
	struct gpu_doc *gd = target;
	char want[GPU_ID_LEN];

	if (fd_get_str(v, "id", gd->g.id, sizeof(gd->g.id), ctx))
		return -1;
	if (!valid_id(gd->g.id))
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, v->line, v->col,
				  "id '%s' has characters other than a-z, 0-9 and '-' (expected an id such as 'a100-80gb-sxm')",
				  gd->g.id);
	id_from_path(ctx->file, want, sizeof(want));
	if (strcmp(gd->g.id, want))
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, v->line, v->col,
				  "id '%s' does not match the file name (expected '%s')",
				  gd->g.id, want);
	return 0;
}

/*
 * A mapping of precision to TFLOP/s (int8: TOP/s) into peak[] in FLOP/s;
 * `key` names it in messages, fp32 is required in the dense map only.
 */
static int parse_peaks(const struct yn_node *v, const char *key, double *peak,
		       int need_fp32, const struct fd_ctx *ctx)
{
	struct fd_field f[PREC_COUNT + 1];
	double tflops[PREC_COUNT] = { 0 };

	if (v->type != YN_MAP)
		return fd_type_error(v, key, "a mapping of precision to TFLOP/s", ctx);
	memset(f, 0, sizeof(f));
	for (int p = 0; p < PREC_COUNT; p++) {
		f[p].key = tc_prec_names[p];
		f[p].type = FD_NUM;
		f[p].required = need_fp32 && p == PREC_FP32;
		f[p].offset = (size_t)p * sizeof(double);
		f[p].unit = TC_UNIT_COUNT;
		f[p].min = 0.01;
		f[p].max = 100000;
	}
	int rc = fd_parse_map(v, f, tflops, key, ctx, NULL);
	for (int p = 0; p < PREC_COUNT; p++)
		peak[p] = tflops[p] * TFLOP_PER_S;
	return rc;
}

/* `dense_tflops`: the peaks training runs at. */
static int parse_tflops(const struct yn_node *v, void *target,
			const struct fd_ctx *ctx)
{
	struct gpu_doc *gd = target;
	return parse_peaks(v, "dense_tflops", gd->g.peak_flop_per_s, 1, ctx);
}

/* `sparse_tflops`: 2:4 sparse peaks where the datasheet's are not exactly
 * dense x sparsity_speedup (L40S: 362 dense, 733 sparse bf16). */
static int parse_sparse_tflops(const struct yn_node *v, void *target,
			       const struct fd_ctx *ctx)
{
	struct gpu_doc *gd = target;
	return parse_peaks(v, "sparse_tflops", gd->g.sparse_flop_per_s, 0, ctx);
}

/* `mig`: a list of profiles, each a mapping per mig_fields. */
static int parse_mig(const struct yn_node *v, void *target,
		     const struct fd_ctx *ctx)
{
	struct gpu_doc *gd = target;
	int rc = 0;

	if (v->type != YN_SEQ)
		return fd_type_error(v, "mig", "a list of MIG profiles", ctx);
	if (v->count > GPU_MAX_MIG)
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, v->line, v->col,
				  "mig has %zu profiles (expected at most %d)",
				  v->count, GPU_MAX_MIG);
	gd->g.mig_count = 0;
	for (size_t i = 0; i < v->count; i++) {
		const struct yn_node *item = v->items[i];
		struct gpu_mig_profile *m = &gd->g.mig[i];

		if (item->type != YN_MAP) {
			rc = fd_type_error(item, "mig", "a mapping with profile, instances, sms, memory_slices and memory", ctx);
			continue;
		}
		if (fd_parse_map(item, mig_fields, m, "MIG profile", ctx, NULL)) {
			rc = -1;
			continue;
		}
		/* ':' separates GPU and profile in lookups. */
		if (strchr(m->name, ':')) {
			const struct yn_node *n = yn_map_get(item, "profile");
			rc = tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, n->line,
					n->col, "MIG profile '%s' contains ':' (expected a name such as 1g.10gb)",
					m->name);
			continue;
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(gd->g.mig[j].name, m->name)) {
				const struct yn_node *n = yn_map_get(item, "profile");
				rc = tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file,
						n->line, n->col,
						"MIG profile '%s' is listed twice (expected each profile once)",
						m->name);
				break;
			}
	}
	if (rc == 0)
		gd->g.mig_count = (int)v->count;
	return rc;
}

/* `efficiency`: the GPU layer of the parameters, over the registry defaults. */
static int parse_eff(const struct yn_node *v, void *target,
		     const struct fd_ctx *ctx)
{
	struct gpu_doc *gd = target;
	unsigned long long set = 0;
	double value[EFF_COUNT];

	int rc = eff_map_parse(v, &set, value, &gd->g.eff, ctx);
	for (int p = 0; p < EFF_COUNT; p++)
		if (set & (1ULL << p))
			eff_set(&gd->g.eff, p, value[p], EFF_LAYER_GPU);
	return rc;
}

/* `as_of`: YYYY-MM-DD, a real date. */
static int parse_as_of(const struct yn_node *v, void *target,
		       const struct fd_ctx *ctx)
{
	struct gpu_doc *gd = target;
	return fd_get_date(v, "as_of", gd->g.as_of, sizeof(gd->g.as_of), ctx);
}

/* True if top-level key `key` is in the file (bit i = gpu_fields[i]). */
static int present(uint64_t seen, const char *key)
{
	for (int i = 0; gpu_fields[i].key; i++)
		if (!strcmp(gpu_fields[i].key, key))
			return (int)(seen >> i & 1);
	assert(!"present: not a GPU key");
	return 0;
}

/*
 * Checks across keys, after the table pass: the architecture belongs to the
 * vendor, and every MIG profile fits the GPU.  `seen` is the table pass's
 * bitmask of keys present.  A value that failed its own check is skipped
 * here (it is 0 or -1), so one mistake gives one message.  Returns 0 or -1.
 */
/*
 * The node topology against the form factor and NVLink figure (a PCIe card
 * on an NVLink switch is a typing error, not a server), and NVLink SHARP
 * only on a switch.  Sets gd->g.topology, the default where none is
 * stated.  Returns 0 or -1.
 */
static int check_topology(const struct yn_node *root, struct gpu_doc *gd,
			  const struct fd_ctx *ctx)
{
	const char *form = gd->form_factor >= 0 ? form_names[gd->form_factor] : "";
	const struct yn_node *n;

	if (gd->topology < 0) {
		gd->g.topology = topo_default(form, gd->g.nvlink_bytes_per_s);
	} else {
		gd->g.topology = (enum node_topology)(gd->topology + 1);
		if (gd->form_factor >= 0 &&
		    !topo_fits(gd->g.topology, form, gd->g.nvlink_bytes_per_s)) {
			n = yn_map_get(root, "topology");
			return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, n->line, n->col,
					  "topology '%s' cannot hold on a %s part %s NVLink "
					  "(expected %s)", n->str, form,
					  gd->g.nvlink_bytes_per_s > 0 ? "with" : "without",
					  !strcmp(form, "pcie") ?
						  "pcie, pcie-no-p2p, or nvlink-pairs with an nvlink figure" :
					  !strcmp(form, "oam") ? "mesh, with an nvlink figure" :
						  "nvswitch, with an nvlink figure");
		}
	}
	n = yn_map_get(root, "nvls_gain");
	if (n && gd->g.topology != TOPO_NVSWITCH)
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, n->line, n->col,
				  "nvls_gain needs an NVLink switch (expected topology nvswitch)");
	return 0;
}

static int check_relations(const struct yn_node *root, struct gpu_doc *gd,
			   uint64_t seen, const struct fd_ctx *ctx)
{
	int rc = 0;
	const struct yn_node *n;

	if (gd->vendor >= 0 && gd->architecture >= 0 &&
	    arch_vendor[gd->architecture] != gd->vendor) {
		n = yn_map_get(root, "architecture");
		rc = tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, n->line, n->col,
				"architecture '%s' is not made by vendor '%s' (expected an %s architecture)",
				arch_names[gd->architecture],
				vendor_names[gd->vendor], vendor_names[gd->vendor]);
	}
	rc |= check_topology(root, gd, ctx);
	const struct yn_node *mig = yn_map_get(root, "mig");
	if (!mig || gd->g.mig_count == 0)
		return rc;
	if (!present(seen, "sm_count")) {
		n = yn_map_key(root, "mig");
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, n->line, n->col,
				  "mig profiles need the GPU's SM count (expected an sm_count key)");
	}
	for (int i = 0; i < gd->g.mig_count; i++) {
		const struct gpu_mig_profile *m = &gd->g.mig[i];
		const struct yn_node *item = mig->items[i];
		if (gd->g.sm_count > 0 && m->sms > gd->g.sm_count) {
			n = yn_map_get(item, "sms");
			rc = tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, n->line, n->col,
					"MIG profile '%s' has %d SMs, more than the GPU's %d (expected at most %d)",
					m->name, m->sms, gd->g.sm_count, gd->g.sm_count);
		}
		if (gd->g.memory_bytes > 0 && m->memory_bytes > gd->g.memory_bytes * 1.0001) {
			n = yn_map_get(item, "memory");
			rc = tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, n->line, n->col,
					"MIG profile '%s' has more memory than the GPU (expected at most %s)",
					m->name, yn_map_get(root, "memory")->str);
		}
	}
	return rc;
}

/* See gpu_load.h.  *out is written only when the whole file is valid. */
int gpu_load_file(const char *path, struct gpu *out, struct tc_diag *d)
{
	struct yn_doc doc = { 0 };
	struct gpu_doc *gd = NULL;
	int rc = -1;
	uint64_t seen = 0;

	assert(path && out && d);
	if (yn_load_file(path, &doc, d))
		goto out;
	const struct fd_ctx ctx = { .file = doc.file ? doc.file : path, .d = d };
	if (!doc.root || doc.root->type != YN_MAP) {
		tc_diag_at(d, TC_EXIT_INPUT, ctx.file,
			   doc.root ? doc.root->line : 1,
			   doc.root ? doc.root->col : 1,
			   "the file holds %s (expected a mapping of GPU keys)",
			   doc.root ? yn_type_name(doc.root) : "nothing");
		goto out;
	}
	gd = calloc(1, sizeof(*gd));
	if (!gd) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory loading '%s'", path);
		goto out;
	}
	gd->kind = gd->vendor = gd->architecture = gd->form_factor = gd->topology = -1;
	eff_default(&gd->g.eff);
	gd->g.sparsity_speedup = 1;
	gd->g.gpus_per_node = 1;
	int bad = fd_parse_map(doc.root, gpu_fields, gd, "GPU file", &ctx, &seen);
	if (check_relations(doc.root, gd, seen, &ctx) || bad)
		goto out;
	snprintf(gd->g.vendor, sizeof(gd->g.vendor), "%s", vendor_names[gd->vendor]);
	snprintf(gd->g.architecture, sizeof(gd->g.architecture), "%s",
		 arch_names[gd->architecture]);
	snprintf(gd->g.form_factor, sizeof(gd->g.form_factor), "%s",
		 form_names[gd->form_factor]);
	*out = gd->g;
	rc = 0;
out:
	free(gd);
	yn_doc_release(&doc);
	return rc;
}

int gpu_load_id(const char *dir, const char *id, struct gpu *out, struct tc_diag *d)
{
	char path[DP_PATH_LEN];
	int n;

	assert(dir && id && out && d);
	if (!id[0] || id[0] == '.' || strchr(id, '/'))
		return tc_diag_msg(d, TC_EXIT_INPUT, "'%s' is not a GPU id (expected letters, digits and '-')",
				   id);
	n = snprintf(path, sizeof(path), "%s/%s.yaml", dir, id);
	if (n < 0 || (size_t)n >= sizeof(path))
		return tc_diag_msg(d, TC_EXIT_INPUT, "the path of GPU '%s' under '%s' is too long", id, dir);
	return gpu_load_file(path, out, d);
}

/* qsort order of the catalog: by id. */
static int cmp_gpu_id(const void *a, const void *b)
{
	return strcmp(((const struct gpu *)a)->id, ((const struct gpu *)b)->id);
}

/* See gpu_load.h.  Every file is loaded, so every bad one is reported. */
int gpu_catalog_load(const struct tc_datapath *dp, struct gpu_catalog *cat,
		     struct tc_diag *d)
{
	char **paths = NULL;
	size_t n = 0, got = 0;
	int rc = -1;

	assert(dp && cat && d);
	memset(cat, 0, sizeof(*cat));
	if (dp_list(dp, "models/gpu", &paths, &n)) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory listing models/gpu");
		return -1;
	}
	if (n == 0) {
		tc_diag_msg(d, TC_EXIT_INPUT,
			    "no GPU files found (expected models/gpu/*.yaml in a data folder)");
		goto out;
	}
	cat->gpus = calloc(n, sizeof(*cat->gpus));
	if (!cat->gpus) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory loading the GPU catalog");
		goto out;
	}
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		if (gpu_load_file(paths[i], &cat->gpus[got], d))
			bad = 1;
		else
			got++;
	}
	if (bad)
		goto out;
	cat->count = got;
	qsort(cat->gpus, cat->count, sizeof(*cat->gpus), cmp_gpu_id);
	/* Ids equal file names, so this only fires for hand-built paths. */
	for (size_t i = 1; i < cat->count; i++)
		if (!strcmp(cat->gpus[i].id, cat->gpus[i - 1].id)) {
			tc_diag_msg(d, TC_EXIT_INPUT,
				    "GPU id '%s' is defined by two files (expected each id once)",
				    cat->gpus[i].id);
			goto out;
		}
	rc = 0;
out:
	dp_list_free(paths, n);
	if (rc)
		gpu_catalog_release(cat);
	return rc;
}

/* Append `s` to buf (capacity len, currently *used bytes); cuts with "...". */
static void append(char *buf, size_t len, size_t *used, const char *s)
{
	if (*used + 1 >= len)
		return;
	int n = snprintf(buf + *used, len - *used, "%s", s);
	if (n < 0)
		return;
	if ((size_t)n >= len - *used) {
		*used = len - 1;
		if (len >= 4)
			memcpy(buf + len - 4, "...", 4);
		return;
	}
	*used += (size_t)n;
}

/* Index of GPU `id` in the catalog, or -1. */
static long find_id(const struct gpu_catalog *cat, const char *id, size_t idlen)
{
	for (size_t i = 0; i < cat->count; i++)
		if (strlen(cat->gpus[i].id) == idlen &&
		    !strncmp(cat->gpus[i].id, id, idlen))
			return (long)i;
	return -1;
}

/*
 * The GPU a name people type stands for: a catalog id in any case or
 * punctuation ("A100-80GB-SXM"), else an alias ("H100", gpu_alias.h).
 * Index or -1.
 */
static long find_loose(const struct gpu_catalog *cat, const char *id, size_t idlen)
{
	char want[GPU_ID_LEN], have[GPU_ID_LEN], word[GPU_ID_LEN];
	gpu_name_squash(id, idlen, want, sizeof(want));
	for (size_t i = 0; i < cat->count; i++) {
		gpu_name_squash(cat->gpus[i].id, strlen(cat->gpus[i].id), have, sizeof(have));
		if (!strcmp(want, have))
			return (long)i;
	}
	snprintf(word, sizeof(word), "%.*s", (int)(idlen < sizeof(word) ? idlen : sizeof(word) - 1), id);
	const char *alias = gpu_alias_id(word);
	return alias ? find_id(cat, alias, strlen(alias)) : gpu_names_match(cat, word);
}

/* The catalog id that `word` begins, preferring the SXM part clouds rent
 * most ("a100-40" is a100-40gb-sxm); NULL if none. */
static const char *family_member(const struct gpu_catalog *cat, const char *word)
{
	char want[GPU_ID_LEN], have[GPU_ID_LEN];
	const char *first = NULL;
	gpu_name_squash(word, strlen(word), want, sizeof(want));
	if (!want[0])
		return NULL;
	for (size_t i = 0; i < cat->count; i++) {
		const char *id = cat->gpus[i].id;
		gpu_name_squash(id, strlen(id), have, sizeof(have));
		if (strncmp(have, want, strlen(want)))
			continue;
		if (strstr(id, "sxm"))
			return id;
		if (!first)
			first = id;
	}
	return first;
}

/* "unknown GPU 'x' (did you mean 'y'? known: a, b, ...)" into why. */
static void unknown_gpu(const struct gpu_catalog *cat, const char *word,
			char *why, size_t whylen)
{
	const char **names = calloc(cat->count + 1, sizeof(*names));
	const char *close = NULL;
	size_t used = 0;

	/* A GPU of the same family, by memory and form factor; "a100-40"
	 * begins a family's id: offer a member before a near spelling such
	 * as "a10". */
	close = gpu_names_suggest(cat, word);
	if (!close)
		close = family_member(cat, word);
	if (names && !close) {
		for (size_t i = 0; i < cat->count; i++)
			names[i] = cat->gpus[i].id;
		close = fd_suggest(word, names);
	}
	why[0] = '\0';
	append(why, whylen, &used, "unknown GPU '");
	append(why, whylen, &used, word);
	append(why, whylen, &used, "' (");
	if (close) {
		append(why, whylen, &used, "did you mean '");
		append(why, whylen, &used, close);
		append(why, whylen, &used, "'? ");
	}
	append(why, whylen, &used, "known: ");
	for (size_t i = 0; i < cat->count; i++) {
		if (i)
			append(why, whylen, &used, ", ");
		append(why, whylen, &used, cat->gpus[i].id);
	}
	append(why, whylen, &used, ")");
	free(names);
}

/* See gpu_load.h.  `why` is always NUL-terminated, cut with "..." if short. */
int gpu_catalog_lookup(const struct gpu_catalog *cat, const char *id,
		       struct gpu *out, char *why, size_t whylen)
{
	assert(cat && id && out && why && whylen > 0);
	const char *colon = strchr(id, ':');
	size_t idlen = colon ? (size_t)(colon - id) : strlen(id);
	long i = find_id(cat, id, idlen);

	if (i < 0)
		i = find_loose(cat, id, idlen);
	if (i < 0) {
		char word[GPU_ID_LEN];
		snprintf(word, sizeof(word), "%.*s", (int)(idlen < sizeof(word) ? idlen : sizeof(word) - 1), id);
		unknown_gpu(cat, word, why, whylen);
		return -1;
	}
	const struct gpu *g = &cat->gpus[i];
	if (!colon) {
		*out = *g;
		return 0;
	}
	if (gpu_mig_slice(g, colon + 1, out) == 0)
		return 0;

	size_t used = 0;
	why[0] = '\0';
	if (g->mig_count == 0) {
		append(why, whylen, &used, "GPU '");
		append(why, whylen, &used, g->id);
		append(why, whylen, &used, "' has no MIG profiles (expected a plain id, or a MIG-capable GPU such as a100-80gb-sxm:1g.10gb)");
		return -1;
	}
	append(why, whylen, &used, "unknown MIG profile '");
	append(why, whylen, &used, colon + 1);
	append(why, whylen, &used, "' of GPU '");
	append(why, whylen, &used, g->id);
	append(why, whylen, &used, "' (expected one of: ");
	for (int k = 0; k < g->mig_count; k++) {
		if (k)
			append(why, whylen, &used, ", ");
		append(why, whylen, &used, g->mig[k].name);
	}
	append(why, whylen, &used, ")");
	return -1;
}

/* Free the GPUs; the catalog is left empty and may be released again. */
void gpu_catalog_release(struct gpu_catalog *cat)
{
	if (!cat)
		return;
	free(cat->gpus);
	cat->gpus = NULL;
	cat->count = 0;
}
