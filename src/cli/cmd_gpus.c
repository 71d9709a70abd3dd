/*
 * cmd_gpus.c - `traincost gpus` and `traincost gpus show ID`.
 */
#include <math.h>
#include <string.h>

#include "../io/gpu_load.h"
#include "../report/json.h"
#include "../report/rows.h"
#include "../report/table.h"
#include "cli.h"
#include "opts.h"

static const char *const formats[] = { "table", "csv", "json", "md", NULL };

/*
 * The list's columns.  The dense peaks, in the JSON's object
 * dense_flop_per_s, are those of list_precs in the same order: the
 * precisions users compare.  Bytes and rates go to CSV to the unit, as
 * the datasheets give them.
 */
static const enum tc_prec list_precs[] = { PREC_FP32, PREC_TF32, PREC_BF16,
					   PREC_FP16, PREC_FP8 };
#define NLIST_PRECS (int)(sizeof(list_precs) / sizeof(list_precs[0]))
#define PEAK(name, title) \
	{ name, title, REP_COL_SIG, 1e-12, 5, NULL, NULL, "dense_flop_per_s", REP_CSV_WHOLE, 0, 0 }
static const struct rep_col list_cols[] = {
	{ "gpu", "id", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "name", "name", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "memory_bytes", "memory", REP_COL_SIG, 1e-9, 4, " GB", NULL, NULL, REP_CSV_WHOLE, 0, 0 },
	{ "memory_bytes_per_s", "bandwidth", REP_COL_SIG, 1e-9, 5, " GB/s", NULL, NULL,
	  REP_CSV_WHOLE, 0, 0 },
	PEAK("fp32_dense_flop_per_s", "FP32"),
	PEAK("tf32_dense_flop_per_s", "TF32"),
	PEAK("bf16_dense_flop_per_s", "BF16"),
	PEAK("fp16_dense_flop_per_s", "FP16"),
	PEAK("fp8_dense_flop_per_s", "FP8"),
	{ "nvlink_bytes_per_s", "NVLink", REP_COL_SIG, 1e-9, 4, " GB/s", "none", NULL,
	  REP_CSV_WHOLE, 0, 0 },
	{ "tdp_w", "TDP", REP_COL_SIG, 0, 4, " W", NULL, NULL, 0, 0, 0 },
	{ "mig_max_instances", "MIG", REP_COL_COUNT, 0, 0, "x", "no", NULL, 0, 0, 0 },
};
#undef PEAK
/* The columns' positions in list_cols. */
enum { COL_ID, COL_NAME, COL_MEMORY, COL_BANDWIDTH, COL_PEAK,
       COL_NVLINK = COL_PEAK + NLIST_PRECS, COL_TDP, COL_MIG, LIST_COLS };
_Static_assert(sizeof(list_cols) / sizeof(list_cols[0]) == LIST_COLS, "list_cols and its positions");

static int mig_max_instances(const struct gpu *g)
{
	int max = 0;
	for (int i = 0; i < g->mig_count; i++)
		if (g->mig[i].instances > max)
			max = g->mig[i].instances;
	return max;
}

/* The catalog as rows of list_cols; a precision without a peak is missing. */
static void list_rows(struct rep_rows *rows, const struct gpu_catalog *cat)
{
	rep_rows_init(rows, list_cols, LIST_COLS);
	for (size_t i = 0; i < cat->count; i++) {
		const struct gpu *g = &cat->gpus[i];
		struct rep_cell c[LIST_COLS];
		c[COL_ID] = (struct rep_cell){ .text = g->id };
		c[COL_NAME] = (struct rep_cell){ .text = g->name };
		c[COL_MEMORY] = (struct rep_cell){ .num = g->memory_bytes };
		c[COL_BANDWIDTH] = (struct rep_cell){ .num = g->mem_bytes_per_s };
		for (int k = 0; k < NLIST_PRECS; k++) {
			double peak = g->peak_flop_per_s[list_precs[k]];
			c[COL_PEAK + k] = (struct rep_cell){ .num = peak, .missing = !(peak > 0) };
		}
		c[COL_NVLINK] = (struct rep_cell){ .num = g->nvlink_bytes_per_s };
		c[COL_TDP] = (struct rep_cell){ .num = g->tdp_w };
		c[COL_MIG] = (struct rep_cell){ .num = mig_max_instances(g) };
		rep_rows_add(rows, c);
	}
}

/* Prints the list in `fmt`; returns the exit code. */
static int list_print(struct cli_ctx *ctx, const struct gpu_catalog *cat, const char *fmt)
{
	struct rep_rows rows;
	list_rows(&rows, cat);
	if (!strcmp(fmt, "table"))
		fputs("Dense peaks in TFLOP/s (2:4 sparse peaks: `traincost gpus show ID`)\n\n",
		      ctx->out);
	int rc = rep_rows_write(&rows, ctx->out, fmt, "gpus", "gpus");
	rep_rows_release(&rows);
	if (!rc)
		return TC_EXIT_OK;
	fputs("traincost gpus: internal error: out of memory or a non-finite value\n", ctx->err);
	return TC_EXIT_INTERNAL;
}

static void show_json(struct rep_json *j, const struct gpu *g)
{
	rep_json_doc_begin(j, j->f, "gpus");
	rep_json_str(j, "gpu", g->id);
	rep_json_str(j, "name", g->name);
	rep_json_str(j, "vendor", g->vendor);
	rep_json_str(j, "architecture", g->architecture);
	rep_json_str(j, "form_factor", g->form_factor);
	if (g->launch_year)
		rep_json_int(j, "launch_year", g->launch_year);
	rep_json_obj_begin(j, "dense_flop_per_s");
	for (int p = 0; p < PREC_COUNT; p++)
		if (g->peak_flop_per_s[p] > 0)
			rep_json_num(j, tc_prec_names[p], g->peak_flop_per_s[p]);
	rep_json_obj_end(j);
	rep_json_num(j, "sparsity_speedup", g->sparsity_speedup);
	rep_json_obj_begin(j, "sparse_flop_per_s");
	for (int p = 0; p < PREC_COUNT; p++)
		if (gpu_sparse_peak(g, (enum tc_prec)p) > 0)
			rep_json_num(j, tc_prec_names[p], gpu_sparse_peak(g, (enum tc_prec)p));
	rep_json_obj_end(j);
	rep_json_num(j, "memory_bytes", g->memory_bytes);
	rep_json_str(j, "memory_type", g->memory_type);
	rep_json_num(j, "memory_bytes_per_s", g->mem_bytes_per_s);
	rep_json_num(j, "l2_bytes", g->l2_bytes);
	rep_json_int(j, "sm_count", g->sm_count);
	rep_json_num(j, "boost_clock_hz", g->boost_clock_hz);
	rep_json_num(j, "nvlink_bytes_per_s", g->nvlink_bytes_per_s);
	rep_json_num(j, "pcie_bytes_per_s", g->pcie_bytes_per_s);
	rep_json_num(j, "tdp_w", g->tdp_w);
	rep_json_int(j, "gpus_per_node", g->gpus_per_node);
	rep_json_arr_begin(j, "mig");
	for (int i = 0; i < g->mig_count; i++) {
		rep_json_obj_begin(j, NULL);
		rep_json_str(j, "profile", g->mig[i].name);
		rep_json_int(j, "instances", g->mig[i].instances);
		rep_json_int(j, "sms", g->mig[i].sms);
		rep_json_int(j, "memory_slices", g->mig[i].memory_slices);
		rep_json_num(j, "memory_bytes", g->mig[i].memory_bytes);
		rep_json_obj_end(j);
	}
	rep_json_arr_end(j);
	if (g->mig_of[0])
		rep_json_str(j, "mig_of", g->mig_of);
	rep_json_obj_begin(j, "efficiency");
	for (int p = 0; p < EFF_COUNT; p++)
		rep_json_num(j, eff_params[p].name, eff_get(&g->eff, p));
	rep_json_str(j, "source", g->eff.source);
	rep_json_obj_end(j);
	rep_json_str(j, "source", g->source);
	rep_json_str(j, "as_of", g->as_of);
	rep_json_str(j, "notes", g->notes);
	rep_json_obj_end(j);
}

/* One "field  value" row of the text view. */
static void kv(struct rep_table *t, const char *field, const char *value)
{
	const char *cells[2] = { field, value };
	rep_table_row(t, cells);
}

static int show_text(struct cli_ctx *ctx, const struct gpu *g, const char *fmt)
{
	static const char *const head[] = { "field", "value" };
	static const char *const peak_head[] = { "precision", "dense TFLOP/s",
						 "2:4 sparse TFLOP/s" };
	static const enum rep_align peak_align[] = { REP_LEFT, REP_RIGHT, REP_RIGHT };
	struct rep_table t, pk;
	char b[16][96];
	int rc = 0;

	rep_table_init(&t, 2, head, NULL);
	kv(&t, "id", g->id);
	kv(&t, "name", g->name);
	kv(&t, "vendor", g->vendor);
	kv(&t, "architecture", g->architecture);
	kv(&t, "form factor", g->form_factor);
	snprintf(b[0], sizeof(b[0]), "%d", g->launch_year);
	kv(&t, "launch year", g->launch_year ? b[0] : "not recorded");
	snprintf(b[1], sizeof(b[1]), "%.4g GB %s", g->memory_bytes / 1e9, g->memory_type);
	kv(&t, "memory", b[1]);
	snprintf(b[2], sizeof(b[2]), "%.5g GB/s", g->mem_bytes_per_s / 1e9);
	kv(&t, "memory bandwidth", b[2]);
	snprintf(b[3], sizeof(b[3]), "%.4g MB", g->l2_bytes / 1e6);
	kv(&t, "L2 cache", g->l2_bytes > 0 ? b[3] : "not published");
	snprintf(b[4], sizeof(b[4]), "%d", g->sm_count);
	kv(&t, !strcmp(g->vendor, "amd") ? "compute units" : "SMs", b[4]);
	snprintf(b[5], sizeof(b[5]), "%.4g MHz", g->boost_clock_hz / 1e6);
	kv(&t, "boost clock", g->boost_clock_hz > 0 ? b[5] : "not recorded");
	snprintf(b[6], sizeof(b[6]), "%.4g GB/s (per GPU, both directions)",
		 g->nvlink_bytes_per_s / 1e9);
	kv(&t, "NVLink", g->nvlink_bytes_per_s > 0 ? b[6] : "none");
	snprintf(b[7], sizeof(b[7]), "%.4g GB/s (both directions)", g->pcie_bytes_per_s / 1e9);
	kv(&t, "host bus", g->pcie_bytes_per_s > 0 ? b[7] : "not recorded");
	snprintf(b[8], sizeof(b[8]), "%.4g W", g->tdp_w);
	kv(&t, "TDP", b[8]);
	snprintf(b[9], sizeof(b[9]), "%d", g->gpus_per_node);
	kv(&t, "GPUs per node", b[9]);
	if (g->mig_of[0])
		kv(&t, "MIG slice of", g->mig_of);
	for (int i = 0; i < g->mig_count && i < 6; i++) {
		snprintf(b[10 + i], sizeof(b[10 + i]), "%s x%d (%d SMs, %.4g GB)",
			 g->mig[i].name, g->mig[i].instances, g->mig[i].sms,
			 g->mig[i].memory_bytes / 1e9);
		kv(&t, i ? "" : "MIG profiles", b[10 + i]);
	}
	for (int i = 6; i < g->mig_count; i++) {
		char extra[96];
		snprintf(extra, sizeof(extra), "%s x%d (%d SMs, %.4g GB)", g->mig[i].name,
			 g->mig[i].instances, g->mig[i].sms, g->mig[i].memory_bytes / 1e9);
		kv(&t, "", extra);
	}
	if (!g->mig_count)
		kv(&t, "MIG profiles", "none");
	kv(&t, "source", g->source);
	kv(&t, "as of", g->as_of);
	if (g->notes[0])
		kv(&t, "notes", g->notes);

	/* CSV is one table: the peaks become field rows of it. */
	int csv = !strcmp(fmt, "csv");
	rep_table_init(&pk, 3, peak_head, peak_align);
	for (int p = 0; p < PREC_COUNT; p++) {
		char dense[32], sparse[32], name[2][48];
		double v = g->peak_flop_per_s[p];
		double sp = gpu_sparse_peak(g, (enum tc_prec)p);
		const char *cells[3] = { tc_prec_names[p], dense, sparse };
		if (v > 0)
			snprintf(dense, sizeof(dense), "%.5g", v / 1e12);
		else
			snprintf(dense, sizeof(dense), "not supported");
		if (sp > 0)
			snprintf(sparse, sizeof(sparse), "%.5g", sp / 1e12);
		else
			snprintf(sparse, sizeof(sparse), "-");
		if (!csv) {
			rep_table_row(&pk, cells);
			continue;
		}
		const char *unit = p == PREC_INT8 ? "TOP/s" : "TFLOP/s";
		snprintf(name[0], sizeof(name[0]), "%s dense %s", tc_prec_names[p], unit);
		snprintf(name[1], sizeof(name[1]), "%s 2:4 sparse %s", tc_prec_names[p], unit);
		kv(&t, name[0], dense);
		kv(&t, name[1], sparse);
	}
	if (rep_table_print(&t, ctx->out, fmt))
		rc = -1;
	if (!csv) {
		fputs("\nPeak throughput (int8 in TOP/s; training uses dense):\n\n", ctx->out);
		if (rep_table_print(&pk, ctx->out, fmt))
			rc = -1;
	}
	rep_table_release(&t);
	rep_table_release(&pk);
	if (rc)
		fputs("traincost gpus: out of memory\n", ctx->err);
	return rc ? TC_EXIT_INTERNAL : TC_EXIT_OK;
}

int cmd_gpus(int argc, char **argv, struct cli_ctx *ctx)
{
	const char *format = "table";
	const struct cli_opt opts[] = {
		{ "format", &format, NULL, formats },
		{ NULL, NULL, NULL, NULL },
	};
	char *pos[CLI_MAX_POS];
	int npos;
	int rc = cli_parse(ctx, "gpus", argc, argv, opts, pos, &npos);
	if (rc)
		return rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;
	int show = npos >= 1 && !strcmp(pos[0], "show");
	if (npos >= 1 && !show)
		return cli_usage_error(ctx, "gpus", "unknown subcommand '%s' (expected 'show ID' or nothing)",
				       pos[0]);
	if (show && npos != 2)
		return cli_usage_error(ctx, "gpus", "'show' needs exactly one GPU id (see `traincost gpus`)");

	struct gpu_catalog cat = { 0 };
	struct tc_diag d;
	tc_diag_init(&d);
	if (gpu_catalog_load(&ctx->data, &cat, &d))
		return cli_report(ctx, &d);
	if (cat.count == 0) {
		fputs("traincost gpus: no GPU files found under models/gpu on the data path"
		      " (expected --data DIR, TRAINCOST_PATH or an installed catalog)\n", ctx->err);
		gpu_catalog_release(&cat);
		return TC_EXIT_IO;
	}

	struct gpu g;
	if (show) {
		char why[1024];
		if (gpu_catalog_lookup(&cat, pos[1], &g, why, sizeof(why))) {
			fprintf(ctx->err, "traincost gpus: %s\n", why);
			gpu_catalog_release(&cat);
			return TC_EXIT_INPUT;
		}
	}
	if (!show) {
		rc = list_print(ctx, &cat, format);
	} else if (!strcmp(format, "json")) {
		struct rep_json j;
		rep_json_init(&j, ctx->out);
		show_json(&j, &g);
		rc = TC_EXIT_OK;
		if (rep_json_finish(&j)) {
			fprintf(ctx->err, "traincost gpus: internal error: non-finite value in '%s'\n",
				j.bad_key);
			rc = TC_EXIT_INTERNAL;
		}
	} else {
		rc = show_text(ctx, &g, format);
	}
	gpu_catalog_release(&cat);
	return rc;
}
