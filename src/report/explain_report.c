/*
 * explain_report.c - `traincost explain`: one row per operator of a step,
 * its columns described once and written in every format through rows.h
 * (explain_report.h).
 */
#include "explain_report.h"

#include <string.h>

#include "../model/core/comm.h"
#include "../util/units.h"
#include "estimate_report.h"
#include "json.h"
#include "out_fields.h"
#include "record.h"
#include "rows.h"
#include "table.h"

static const char *const bound_text[] = { "compute", "memory", "latency", "network" };

/*
 * The columns of one operator, in the order of JSON's fields.  CSV and
 * JSON in the contract's units (FLOP, bytes, seconds); the table in
 * GFLOP, MB and TFLOP/s, as its titles say, and times in a unit that
 * suits each.  Communication rows count the bytes on the wire.
 */
enum { X_OPERATOR, X_CATEGORY, X_PRECISION, X_COUNT, X_FLOP, X_BYTES, X_INTENSITY, X_RIDGE,
       X_BOUND, X_RATE, X_TIME, X_STEP, X_NCOLS };
#define X_SIG4(name, title, scale) \
	{ name, title, REP_COL_SIG, scale, 4, NULL, NULL, NULL, REP_CSV_SIG4, REP_VIEW_ALL, 0 }
#define X_SECONDS(name, title) \
	{ name, title, REP_COL_DURATION, 0, 0, NULL, NULL, NULL, REP_CSV_EXP6, REP_VIEW_ALL, 0 }
static const struct rep_col op_cols[X_NCOLS] = {
	REP_TEXT_COL("operator", "operator", REP_VIEW_ALL, 0),
	REP_TEXT_COL("category", "kind", REP_VIEW_ALL, 0),
	REP_TEXT_COL("precision", "precision", REP_VIEW_JSON, 0),
	{ "count_per_step", "per step", REP_COL_SIG, 0, 6, NULL, NULL, NULL, REP_CSV_EXP6,
	  REP_VIEW_ALL, 0 },
	X_SIG4("flop", "GFLOP", 1e-9),
	X_SIG4("bytes", "MB", 1e-6),
	X_SIG4("intensity_flop_per_byte", "FLOP/B", 0),
	X_SIG4("ridge_flop_per_byte", "ridge FLOP/B", 0),
	REP_TEXT_COL("bound", "bound", REP_VIEW_ALL, 0),
	X_SIG4("achieved_flop_per_s", "TFLOP/s", 1e-12),
	X_SECONDS("time_s", "time"),
	X_SECONDS("time_per_step_s", "per step total"),
};

/*
 * The collectives among the operators: what each is, the links it crosses
 * (model/core/comm.h, comm_route), its group, its message (the buffer each GPU
 * holds before it) and the bus bandwidth it gets, as nccl-tests reports
 * it: the bytes each GPU sends over the time, latency included.
 */
enum { C_OPERATOR, C_COLL, C_ROUTE, C_GPUS, C_BYTES, C_BUSBW, C_TIME, C_NCOLS };
static const struct rep_col coll_cols[C_NCOLS] = {
	REP_TEXT_COL("operator", "collective operator", REP_VIEW_ALL, 0),
	REP_TEXT_COL("collective", "kind", REP_VIEW_ALL, 0),
	REP_TEXT_COL("links", "links", REP_VIEW_ALL, 0),
	{ "group_gpus", "GPUs", REP_COL_SIG, 0, 6, NULL, NULL, NULL, REP_CSV_EXP6, REP_VIEW_ALL, 0 },
	X_SIG4("message_bytes", "message MB", 1e-6),
	X_SIG4("bus_bytes_per_s", "bus GB/s", 1e-9),
	X_SECONDS("time_s", "time"),
};

/* The fields of the document around the operators (JSON's alone). */
enum { D_WORKLOAD, D_FILE, D_KIND, D_GPU, D_STEP, D_MEM_RATE, D_NCOLS };
static const struct rep_col doc_cols[D_NCOLS] = {
	REP_TEXT_COL("workload", "workload", REP_VIEW_ALL, 0),
	REP_TEXT_COL("file", "file", REP_VIEW_ALL, 0),
	REP_TEXT_COL("kind", "kind", REP_VIEW_ALL, 0),
	/* fields of the catalog (out_fields.h) */
	REP_FIELD_COL("gpu", REP_VIEW_ALL, 0),
	REP_FIELD_COL("step_time_s", REP_VIEW_ALL, 0),
	{ "memory_bytes_per_s", "memory bandwidth", REP_COL_SIG, 1e-9, 4, " GB/s", NULL, NULL,
	  REP_CSV_EXP6, REP_VIEW_ALL, 0 },
};

/* Where the expected wall clock goes (model/families/campaign.h), a row per part
 * that takes any time. */
static const struct rep_col part_cols[] = {
	REP_TEXT_COL("part", "wall clock, expected", REP_VIEW_ALL, 0),
	X_SECONDS("time_s", "time"),
	{ "share_frac", "share", REP_COL_SIG, 100, 3, " %", NULL, NULL, REP_CSV_EXP6, REP_VIEW_ALL,
	  0 },
};
#define P_NCOLS (sizeof(part_cols) / sizeof(part_cols[0]))

static void part_rows(struct rep_rows *r, const struct campaign *c)
{
	rep_rows_init(r, part_cols, P_NCOLS);
	for (int k = 0; k < CAMP_PART_COUNT; k++) {
		struct rep_cell v[P_NCOLS] = { { .text = camp_part_names[k] },
					       { .num = c->part_s[k] },
					       { .num = c->part_s[k] / c->wall_s } };
		if (c->part_s[k] > 0)
			rep_rows_add(r, v);
	}
}

/* The operators of workspace *ws as rows of op_cols on GPU *g. */
static void op_rows(struct rep_rows *r, const struct gpu *g, const struct est_workspace *ws)
{
	rep_rows_init(r, op_cols, X_NCOLS);
	for (size_t i = 0; i < ws->count; i++) {
		const struct op *o = &ws->ops[i];
		struct rep_cell c[X_NCOLS] = {
			[X_OPERATOR] = { .text = o->name },
			[X_CATEGORY] = { .text = brk_names[o->category] },
			[X_PRECISION] = { .text = tc_prec_names[o->prec] },
			[X_COUNT] = { .num = o->count },
			[X_FLOP] = { .num = o->flop },
			[X_BYTES] = { .num = o->bytes },
			[X_INTENSITY] = { .num = o->bytes > 0 ? o->flop / o->bytes : 0 },
			[X_RIDGE] = { .num = g->peak_flop_per_s[o->prec] / g->mem_bytes_per_s },
			[X_BOUND] = { .text = bound_text[o->bound] },
			[X_RATE] = { .num = o->time_s > 0 ? o->flop / o->time_s : 0 },
			[X_TIME] = { .num = o->time_s },
			[X_STEP] = { .num = o->time_s * o->count },
		};
		rep_rows_add(r, c);
	}
}

/* The collective operators of *ws as rows of coll_cols (the rows copy
 * their texts). */
static void coll_rows(struct rep_rows *r, const struct gpu *g, const struct plan *p,
		      const struct est_workspace *ws)
{
	rep_rows_init(r, coll_cols, C_NCOLS);
	for (size_t i = 0; i < ws->count; i++) {
		const struct op *o = &ws->ops[i];
		char route[64];
		if (o->coll.grp.n <= 0 || !(o->time_s > 0))
			continue;
		comm_route(g, p, o->coll.kind, o->coll.grp, route, sizeof(route));
		struct rep_cell c[C_NCOLS] = {
			[C_OPERATOR] = { .text = o->name },
			[C_COLL] = { .text = comm_coll_names[o->coll.kind] },
			[C_ROUTE] = { .text = route },
			[C_GPUS] = { .num = o->coll.grp.n },
			[C_BYTES] = { .num = o->bytes },
			[C_BUSBW] = { .num = (o->coll.kind == COLL_P2P ? o->bytes :
					      comm_volume(o->coll.kind, o->coll.grp.n, o->bytes)) /
					     o->time_s },
			[C_TIME] = { .num = o->time_s },
		};
		rep_rows_add(r, c);
	}
}

/* JSON: the document's fields, then the operators. */
static int explain_json(FILE *f, const struct rep_rows *ops, const struct rep_rows *colls,
			const struct rep_rows *parts,
			const struct workload *w, const struct gpu *g, const struct estimate *e)
{
	const struct rep_cell c[D_NCOLS] = {
		[D_WORKLOAD] = { .text = w->name }, [D_FILE] = { .text = w->file },
		[D_KIND] = { .text = rep_kind_name(w) }, [D_GPU] = { .text = g->id },
		[D_STEP] = { .num = e->step_time_s }, [D_MEM_RATE] = { .num = g->mem_bytes_per_s },
	};
	struct rep_col cols[D_NCOLS];
	struct rep_rows doc;
	struct rep_json j;
	rep_fields_copy(cols, doc_cols, D_NCOLS);
	rep_rows_init(&doc, cols, D_NCOLS);
	rep_rows_add(&doc, c);
	rep_json_doc_begin(&j, f, "explain");
	int rc = rep_record_json(&doc, &j, NULL);
	rc |= rep_rows_json(ops, &j, "operators");
	rc |= rep_rows_json(colls, &j, "collectives");
	rc |= rep_rows_json(parts, &j, "campaign");
	rep_json_obj_end(&j);
	rc |= rep_json_finish(&j);
	rep_rows_release(&doc);
	return rc ? -1 : 0;
}

int rep_explain(FILE *f, const char *fmt, const struct workload *w,
		const struct gpu *g, const struct estimate *e,
		const struct est_workspace *ws)
{
	struct rep_rows ops, colls, parts;
	int rc;
	op_rows(&ops, g, ws);
	coll_rows(&colls, g, &e->plan, ws);
	part_rows(&parts, &e->campaign);
	if (!strcmp(fmt, "json")) {
		rc = explain_json(f, &ops, &colls, &parts, w, g, e);
	} else {
		if (strcmp(fmt, "csv")) {
			char a[64], title[REP_TITLE_LEN], gi[REP_TITLE_LEN];
			fprintf(f, "%s on %d x %s: step time %s; one row per operator on one GPU\n",
				rep_title(title, w, fmt), e->plan.count, rep_show(gi, sizeof(gi), g->id, fmt),
				tc_fmt_duration(e->step_time_s, a, sizeof(a)));
			fputs("(ridge = dense peak / memory bandwidth; communication rows: MB on the "
			      "wire)\n\n", f);
		}
		rc = rep_rows_print(&ops, f, fmt);
		if (strcmp(fmt, "csv") && colls.rows > 0) {
			fputs("\nCollectives: the links each crosses and the bus bandwidth it gets "
			      "(docs/model.md, section 3):\n\n", f);
			rc |= rep_rows_print(&colls, f, fmt);
		}
		if (strcmp(fmt, "csv")) { /* CSV: the operators' one table */
			char a[64], b[64];
			fprintf(f, "\n%s at steady state, %s expected on the wall clock "
				"(docs/model.md, \"Campaign\"):\n\n",
				tc_fmt_duration(e->total_time_s, a, sizeof(a)),
				tc_fmt_duration(e->campaign.wall_s, b, sizeof(b)));
			rc |= rep_rows_print(&parts, f, fmt);
		}
	}
	rep_rows_release(&ops);
	rep_rows_release(&colls);
	rep_rows_release(&parts);
	return rc;
}
