/*
 * cmd_gpus.c - `traincost gpus` and `traincost gpus show ID`.
 */
#include <math.h>
#include <string.h>

#include "../io/gpu_load.h"
#include "../report/json.h"
#include "../report/record.h"
#include "../report/rows.h"
#include "cmd_gpus.h"
#include "cli_ctx.h"
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
	{ name, title, REP_COL_SIG, 1e-12, 5, NULL, NULL, "dense_flop_per_s", REP_CSV_WHOLE, 0, 1 }
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

/*
 * The fields of `gpus show`, one list for every format.  The peaks come
 * between the head and the tail, one field per precision of
 * tc_prec_names, dense then 2:4 sparse (show_fields_init); a peak the
 * GPU lacks is left out of the table and of JSON's object.  A figure the
 * catalog does not give (year, L2, clock, host bus) is missing: null in
 * JSON, empty in CSV, the column's words in the table.
 */
static const struct rep_col show_head[] = {
	{ "gpu", "id", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "name", "name", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "vendor", "vendor", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "architecture", "architecture", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "form_factor", "form factor", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "launch_year", "launch year", REP_COL_COUNT, 0, 0, NULL, "not recorded", NULL, 0, 0, 0 },
};
static const struct rep_col show_speedup =
	{ "sparsity_speedup", "2:4 sparsity speed-up", REP_COL_SIG, 0, 4, "x", NULL, NULL, 0,
	  REP_VIEW_DATA, 0 };
static const struct rep_col show_tail[] = {
	{ "memory_bytes", "memory", REP_COL_SIG, 1e-9, 4, " GB", NULL, NULL, REP_CSV_WHOLE, 0, 0 },
	{ "memory_type", "memory type", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "memory_bytes_per_s", "memory bandwidth", REP_COL_SIG, 1e-9, 5, " GB/s", NULL, NULL,
	  REP_CSV_WHOLE, 0, 0 },
	{ "l2_bytes", "L2 cache", REP_COL_SIG, 1e-6, 4, " MB", "not published", NULL,
	  REP_CSV_WHOLE, 0, 0 },
	{ "sm_count", "SMs", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "boost_clock_hz", "boost clock", REP_COL_SIG, 1e-6, 4, " MHz", "not recorded", NULL,
	  REP_CSV_WHOLE, 0, 0 },
	{ "nvlink_bytes_per_s", "NVLink", REP_COL_SIG, 1e-9, 4,
	  " GB/s (per GPU, both directions)", "none", NULL, REP_CSV_WHOLE, 0, 0 },
	{ "pcie_bytes_per_s", "host bus", REP_COL_SIG, 1e-9, 4, " GB/s (both directions)",
	  "not recorded", NULL, REP_CSV_WHOLE, 0, 0 },
	{ "node_topology", "node topology", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "node_allreduce_busbw_bytes_per_s", "node all-reduce", REP_COL_SIG, 1e-9, 4,
	  " GB/s bus bandwidth, all GPUs of a node, large messages", NULL, NULL, REP_CSV_WHOLE, 0, 0 },
	{ "collectives_measured", "node collectives", REP_COL_TEXT, 0, 0, NULL,
	  "none: the topology class's measured fractions stand in, and estimates say so", NULL, 0,
	  0, 0 },
	{ "tdp_w", "TDP", REP_COL_SIG, 0, 4, " W", NULL, NULL, 0, 0, 0 },
	{ "gpus_per_node", "GPUs per node", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "mig_max_instances", "MIG", REP_COL_COUNT, 0, 0, "x", "no", NULL, 0, 0, 0 },
	{ "mig_of", "MIG slice of", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 1 },
	{ "source", "source", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "as_of", "as of", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "notes", "notes", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
};
#define NSHOW_HEAD (int)(sizeof(show_head) / sizeof(show_head[0]))
#define NSHOW_TAIL (int)(sizeof(show_tail) / sizeof(show_tail[0]))
/* The fields' positions in struct show_fields. */
enum { F_GPU, F_NAME, F_VENDOR, F_ARCH, F_FORM, F_YEAR, F_DENSE,
       F_SPEEDUP = F_DENSE + PREC_COUNT, F_SPARSE,
       F_MEMORY = F_SPARSE + PREC_COUNT, F_MEMORY_TYPE, F_BANDWIDTH, F_L2, F_SMS, F_CLOCK,
       F_NVLINK, F_PCIE, F_TOPOLOGY, F_NODE_BUSBW, F_COLL_MEASURED, F_TDP, F_PER_NODE, F_MIG, F_MIG_OF, F_SOURCE, F_AS_OF, F_NOTES,
       SHOW_FIELDS };
_Static_assert(F_DENSE == NSHOW_HEAD && SHOW_FIELDS == F_MEMORY + NSHOW_TAIL,
	       "show_head, show_tail and the fields' positions");
#define PEAK_TEXT_MAX 48

/* The field list of one GPU: the columns, and the peaks' names and
 * titles they point to. */
struct show_fields {
	struct rep_col cols[SHOW_FIELDS];
	char names[2 * PREC_COUNT][PEAK_TEXT_MAX];
	char titles[2 * PREC_COUNT][PEAK_TEXT_MAX];
};

/* Fill s with the fields of `gpus show` for g (AMD counts compute units
 * where NVIDIA counts SMs). */
static void show_fields_init(struct show_fields *s, const struct gpu *g)
{
	static const char *const kinds[2][2] = { { "dense", "dense" }, { "sparse", "2:4 sparse" } };
	memcpy(s->cols, show_head, sizeof(show_head));
	s->cols[F_SPEEDUP] = show_speedup;
	memcpy(s->cols + F_MEMORY, show_tail, sizeof(show_tail));
	if (!strcmp(g->vendor, "amd"))
		s->cols[F_SMS].title = "compute units";
	for (int k = 0; k < 2; k++)
		for (int p = 0; p < PREC_COUNT; p++) {
			char *name = s->names[k * PREC_COUNT + p], *title = s->titles[k * PREC_COUNT + p];
			snprintf(name, PEAK_TEXT_MAX, "%s_%s_flop_per_s", tc_prec_names[p], kinds[k][0]);
			snprintf(title, PEAK_TEXT_MAX, "%s %s", tc_prec_names[p], kinds[k][1]);
			s->cols[(k ? F_SPARSE : F_DENSE) + p] = (struct rep_col){
				.name = name, .title = title, .kind = REP_COL_SIG, .scale = 1e-12,
				.decimals = 5, .suffix = p == PREC_INT8 ? " TOP/s" : " TFLOP/s",
				.group = k ? "sparse_flop_per_s" : "dense_flop_per_s",
				.csv = REP_CSV_WHOLE, .absent = 1 };
		}
}

/* A figure the catalog leaves at 0 when it does not give it. */
static struct rep_cell given(double v)
{
	return (struct rep_cell){ .num = v, .missing = !(v > 0) };
}

/* The record of g under the columns of s. */
static void show_record(struct rep_rows *rec, const struct show_fields *s, const struct gpu *g)
{
	struct rep_cell c[SHOW_FIELDS];
	c[F_GPU] = (struct rep_cell){ .text = g->id };
	c[F_NAME] = (struct rep_cell){ .text = g->name };
	c[F_VENDOR] = (struct rep_cell){ .text = g->vendor };
	c[F_ARCH] = (struct rep_cell){ .text = g->architecture };
	c[F_FORM] = (struct rep_cell){ .text = g->form_factor };
	c[F_YEAR] = given(g->launch_year);
	for (int p = 0; p < PREC_COUNT; p++) {
		c[F_DENSE + p] = given(g->peak_flop_per_s[p]);
		c[F_SPARSE + p] = given(gpu_sparse_peak(g, (enum tc_prec)p));
	}
	c[F_SPEEDUP] = (struct rep_cell){ .num = g->sparsity_speedup };
	c[F_MEMORY] = (struct rep_cell){ .num = g->memory_bytes };
	c[F_MEMORY_TYPE] = (struct rep_cell){ .text = g->memory_type };
	c[F_BANDWIDTH] = (struct rep_cell){ .num = g->mem_bytes_per_s };
	c[F_L2] = given(g->l2_bytes);
	c[F_SMS] = (struct rep_cell){ .num = g->sm_count };
	c[F_CLOCK] = given(g->boost_clock_hz);
	c[F_NVLINK] = (struct rep_cell){ .num = g->nvlink_bytes_per_s };
	c[F_PCIE] = given(g->pcie_bytes_per_s);
	enum node_topology t = gpu_topology(g);
	c[F_TOPOLOGY] = (struct rep_cell){ .text = topo_names[t] };
	/* What the collective operator charges a node's all-reduce
	 * (src/model/types/topology.c): the plateau, before the message-size loss. */
	c[F_NODE_BUSBW] = (struct rep_cell){ .num = topo_ring_busbw(
		t, g->nvlink_bytes_per_s, g->pcie_bytes_per_s, g->eff.comm_frac, g->nvls_gain,
		gpu_node_size(g), 1) };
	c[F_COLL_MEASURED] = (struct rep_cell){ .text = g->collectives_measured,
						.missing = !g->collectives_measured[0] };
	c[F_TDP] = (struct rep_cell){ .num = g->tdp_w };
	c[F_PER_NODE] = (struct rep_cell){ .num = g->gpus_per_node };
	c[F_MIG] = (struct rep_cell){ .num = mig_max_instances(g) };
	c[F_MIG_OF] = (struct rep_cell){ .text = g->mig_of, .missing = !g->mig_of[0] };
	c[F_SOURCE] = (struct rep_cell){ .text = g->source };
	c[F_AS_OF] = (struct rep_cell){ .text = g->as_of };
	c[F_NOTES] = (struct rep_cell){ .text = g->notes };
	rep_rows_init(rec, s->cols, SHOW_FIELDS);
	rep_rows_add(rec, c);
}

/* A GPU's MIG profiles: JSON's array "mig", the table's second table. */
static const struct rep_col mig_cols[] = {
	{ "profile", "profile", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "instances", "instances", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "sms", "SMs", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "memory_slices", "memory slices", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "memory_bytes", "memory", REP_COL_SIG, 1e-9, 4, " GB", NULL, NULL, REP_CSV_WHOLE, 0, 0 },
};
#define MIG_COLS (int)(sizeof(mig_cols) / sizeof(mig_cols[0]))

static void mig_rows(struct rep_rows *rows, const struct gpu *g)
{
	rep_rows_init(rows, mig_cols, MIG_COLS);
	for (int i = 0; i < g->mig_count; i++) {
		const struct gpu_mig_profile *m = &g->mig[i];
		const struct rep_cell c[MIG_COLS] = {
			{ .text = m->name }, { .num = m->instances }, { .num = m->sms },
			{ .num = m->memory_slices }, { .num = m->memory_bytes },
		};
		rep_rows_add(rows, c);
	}
}

/* The efficiency parameters of the GPU's own layer (docs/model.md), by
 * name, and their source: JSON's object "efficiency". */
#define EFF_FIELD(id, ...) { #id, #id, REP_COL_NUM, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
static const struct rep_col eff_cols[] = {
	EFF_PARAMS(EFF_FIELD)
	{ "source", "source", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
};
#undef EFF_FIELD
_Static_assert(sizeof(eff_cols) / sizeof(eff_cols[0]) == EFF_COUNT + 1, "eff_cols");

static void eff_record(struct rep_rows *rec, const struct gpu *g)
{
	struct rep_cell c[EFF_COUNT + 1];
	for (int p = 0; p < EFF_COUNT; p++)
		c[p] = (struct rep_cell){ .num = eff_get(&g->eff, (enum eff_id)p) };
	c[EFF_COUNT] = (struct rep_cell){ .text = g->eff.source };
	rep_rows_init(rec, eff_cols, EFF_COUNT + 1);
	rep_rows_add(rec, c);
}

/*
 * Writes one GPU in `fmt`: the record of its fields, then its MIG
 * profiles (JSON: the array "mig"; table and Markdown: a second table;
 * CSV, one table, leaves them to JSON) and, in JSON, its efficiency.
 * Returns 0, or -1 on a failed allocation or a non-finite number.
 */
static int show_write(FILE *f, const struct gpu *g, const char *fmt)
{
	struct show_fields s;
	struct rep_rows rec, mig, eff;
	int rc;

	show_fields_init(&s, g);
	show_record(&rec, &s, g);
	mig_rows(&mig, g);
	eff_record(&eff, g);
	if (!strcmp(fmt, "json")) {
		struct rep_json j;
		rep_json_doc_begin(&j, f, "gpus");
		rc = rep_record_json(&rec, &j, NULL);
		rc |= rep_rows_json(&mig, &j, "mig");
		rc |= rep_record_json(&eff, &j, "efficiency");
		rep_json_obj_end(&j);
		if (rep_json_finish(&j))
			rc = -1;
	} else {
		rc = rep_record_print(&rec, f, fmt);
		if (!rc && mig.rows && strcmp(fmt, "csv")) {
			fputs("\nMIG profiles:\n\n", f);
			rc = rep_rows_print(&mig, f, fmt);
		}
	}
	rep_rows_release(&rec);
	rep_rows_release(&mig);
	rep_rows_release(&eff);
	return rc;
}

int cmd_gpus(int argc, char **argv, struct cli_ctx *ctx)
{
	const char *format = "table";
	const struct cli_opt opts[] = {
		CLI_CHOICE("format", &format, formats, "F", "output format"),
		{ 0 },
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
	} else if (show_write(ctx->out, &g, format)) {
		fputs("traincost gpus: internal error: out of memory or a non-finite value\n",
		      ctx->err);
		rc = TC_EXIT_INTERNAL;
	} else {
		rc = TC_EXIT_OK;
	}
	gpu_catalog_release(&cat);
	return rc;
}
