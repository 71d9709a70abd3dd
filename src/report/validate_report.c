/*
 * validate_report.c - `traincost validate`'s summary: its tables each
 * described once, as columns, and written as a table, Markdown, CSV or
 * JSON from that description (validate_report.h).
 */
#include "validate_report.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "out_fields.h"
#include "record.h"
#include "rows.h"

/* A measured or predicted value in the unit a person reads its metric
 * in, into buf.  Returns buf. */
static const char *metric_unit_text(enum val_metric m, double v, char *buf, size_t len)
{
	switch (m) {
	case VAL_ITER_TIME: snprintf(buf, len, "%.1f ms", v * 1e3); break;
	case VAL_MEGATRON_TFLOPS: snprintf(buf, len, "%.1f TFLOP/s", v / 1e12); break;
	case VAL_MFU: snprintf(buf, len, "%.1f %%", v * 100); break;
	/* whole units from 1,000 up, four significant digits below (a LoRA
	 * run's 2.027 samples/s) */
	case VAL_TOKENS_PER_S: snprintf(buf, len, v < 1000 ? "%.4g tokens/s" : "%.0f tokens/s", v); break;
	case VAL_SAMPLES_PER_S: snprintf(buf, len, v < 1000 ? "%.4g samples/s" : "%.0f samples/s", v); break;
	case VAL_IMAGES_PER_S: snprintf(buf, len, v < 1000 ? "%.4g images/s" : "%.0f images/s", v); break;
	default: snprintf(buf, len, "%.4g", v); break;
	}
	return buf;
}

/*
 * The tables, each described once for every format, of fields of the
 * catalog (out_fields.h) so that each reads the same in every format and
 * wherever validate writes it.  The statistics of a set of cases: as the
 * columns of a group table (after its key), as the fields of "overall" and
 * of each cross-validation object in JSON.
 */
#define FIELD(name) REP_FIELD_COL(name, REP_VIEW_ALL, 0)
#define ERROR_COLS FIELD("mape_frac"), FIELD("median_ape_frac"), FIELD("worst_ape_frac")

/* The cells of stats_cells, in this order. */
enum { ST_CASES, ST_MAPE, ST_MEDIAN, ST_WORST, ST_BIAS, ST_COLS };
static const struct rep_col stats_cols[] = { FIELD("cases"), ERROR_COLS, FIELD("bias_frac") };
static const struct rep_col overall_cols[] = { FIELD("cases"), ERROR_COLS, FIELD("bias_frac"),
					       FIELD("failed"), FIELD("sanity_only_cases") };
static const struct rep_col band_cols[] = { FIELD("band_runs"), FIELD("band_inside") };
/* The key of each group table, before the statistics. */
static const struct rep_col file_key = FIELD("file");
static const struct rep_col gpu_key = FIELD("gpu");
static const struct rep_col framework_key = FIELD("framework");
static const struct rep_col family_key = FIELD("family");
/* The speed ratios: pairs rather than cases, and no bias (the first
 * RATIO_STATS of stats_cells' cells). */
static const struct rep_col ratio_stats_cols[] = { FIELD("pairs"), ERROR_COLS };
#define RATIO_STATS ((int)(sizeof(ratio_stats_cols) / sizeof(ratio_stats_cols[0])))
_Static_assert(sizeof(stats_cols) / sizeof(stats_cols[0]) == ST_COLS, "stats_cols");
#define NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/*
 * One case per row.  CSV and JSON carry measured and predicted in the
 * unit the metric names; the table shows them in the unit a person reads
 * it in, and notes a sanity-only case or why a prediction failed after
 * the error.  A failed case has no predicted and error_frac in JSON, but
 * the reason, "error".
 */
enum { CS_CASE, CS_SOURCE, CS_GPU, CS_FRAMEWORK, CS_SANITY, CS_METRIC, CS_MEASURED,
       CS_MEASURED_SHOWN, CS_PREDICTED, CS_PREDICTED_SHOWN, CS_ERROR_FRAC, CS_MEM, CS_FITS,
       CS_HELD_SOURCE, CS_HELD_GPU, CS_ERROR, CS_NOTE, CS_COLS };
static const struct rep_col case_cols[CS_COLS] = {
	[CS_CASE] = FIELD("case"),
	[CS_SOURCE] = REP_FIELD_COL("source", REP_VIEW_DATA, 0),
	[CS_GPU] = FIELD("gpu"),
	[CS_FRAMEWORK] = REP_FIELD_COL("framework", REP_VIEW_DATA, 0),
	[CS_SANITY] = REP_FIELD_COL("sanity_only", REP_VIEW_DATA, 0),
	[CS_METRIC] = FIELD("metric"),
	[CS_MEASURED] = REP_FIELD_COL("measured", REP_VIEW_DATA, 0),
	[CS_MEASURED_SHOWN] = REP_FIELD_WORDS("measured", REP_VIEW_TEXT, NULL),
	[CS_PREDICTED] = REP_FIELD_COL("predicted", REP_VIEW_DATA, 1),
	[CS_PREDICTED_SHOWN] = REP_FIELD_WORDS("predicted", REP_VIEW_TEXT, "failed"),
	[CS_ERROR_FRAC] = REP_FIELD_COL("error_frac", REP_VIEW_ALL, 1),
	/* a run that ran and is predicted not to fit is a miss of the memory
	 * model: the table lists them after its summary (print_unfit) */
	[CS_MEM] = REP_FIELD_COL("memory_per_gpu_bytes", REP_VIEW_DATA, 1),
	[CS_FITS] = REP_FIELD_COL("fits", REP_VIEW_DATA, 1),
	/* which runs the cross-validated figures come from (--loo) */
	[CS_HELD_SOURCE] = REP_FIELD_COL("held_out_source_error_frac", REP_VIEW_DATA, 1),
	[CS_HELD_GPU] = REP_FIELD_COL("held_out_gpu_error_frac", REP_VIEW_DATA, 1),
	[CS_ERROR] = REP_FIELD_COL("error", REP_VIEW_DATA, 1),
	/* the table's words after the error: not a field of the contract */
	[CS_NOTE] = REP_TEXT_COL("note", "", REP_VIEW_TEXT, 0),
};

/* Pairs of one benchmark and stack on two GPU types: the error of the
 * predicted A/B speed ratio. */
enum { RT_PAIR, RT_CASE_A, RT_CASE_B, RT_GPU_A, RT_GPU_B, RT_MEASURED, RT_PREDICTED,
       RT_ERROR_FRAC, RT_COLS };
static const struct rep_col ratio_cols[RT_COLS] = {
	[RT_PAIR] = FIELD("pair"),
	[RT_CASE_A] = REP_FIELD_COL("case_a", REP_VIEW_JSON, 0),
	[RT_CASE_B] = REP_FIELD_COL("case_b", REP_VIEW_JSON, 0),
	[RT_GPU_A] = REP_FIELD_COL("gpu_a", REP_VIEW_TEXT, 0),
	[RT_GPU_B] = REP_FIELD_COL("gpu_b", REP_VIEW_TEXT, 0),
	[RT_MEASURED] = REP_FIELD_COL("measured_speed_ratio", REP_VIEW_ALL, 1),
	[RT_PREDICTED] = REP_FIELD_COL("predicted_speed_ratio", REP_VIEW_TEXT, 0),
	[RT_ERROR_FRAC] = FIELD("error_frac"),
};
#undef ERROR_COLS
#undef FIELD

/* The columns of one of validate's tables, as the catalog describes them:
 * they must outlive the rows written under them. */
#define VAL_COLS_MAX 18
struct val_cols {
	struct rep_col col[VAL_COLS_MAX];
	int n;
};
_Static_assert((int)CS_COLS <= VAL_COLS_MAX && (int)RT_COLS <= VAL_COLS_MAX &&
	       1 + (int)ST_COLS <= VAL_COLS_MAX, "val_cols holds every table of validate");

/* spec[0..n) as the catalog describes it, into c.  Returns c's columns. */
static const struct rep_col *val_cols_set(struct val_cols *c, const struct rep_col *spec, int n)
{
	c->n = rep_fields_copy(c->col, spec, n);
	return c->col;
}

/* A group table's columns: its key, then the statistics. */
static const struct rep_col *group_cols(struct val_cols *c, const struct rep_col *key)
{
	c->col[0] = *key;
	memcpy(c->col + 1, stats_cols, sizeof(stats_cols));
	c->n = 1 + ST_COLS;
	rep_fields_apply(c->col, c->n);
	return c->col;
}

int rep_validate_cols(struct rep_col *cols)
{
	int n = 0;
	n += rep_fields_copy(cols + n, overall_cols, NCOLS(overall_cols));
	n += rep_fields_copy(cols + n, band_cols, NCOLS(band_cols));
	n += rep_fields_copy(cols + n, &file_key, 1);
	n += rep_fields_copy(cols + n, &gpu_key, 1);
	n += rep_fields_copy(cols + n, &framework_key, 1);
	n += rep_fields_copy(cols + n, &family_key, 1);
	n += rep_fields_copy(cols + n, ratio_stats_cols, RATIO_STATS);
	n += rep_fields_copy(cols + n, case_cols, CS_COLS);
	n += rep_fields_copy(cols + n, ratio_cols, RT_COLS);
	return n;
}

/* The statistics st as cells of stats_cols (ST_COLS of them). */
static void stats_cells(const struct val_stats *st, struct rep_cell *c)
{
	c[ST_CASES] = (struct rep_cell){ .num = (double)st->n };
	c[ST_MAPE] = (struct rep_cell){ .num = st->mape };
	c[ST_MEDIAN] = (struct rep_cell){ .num = st->median_ape };
	c[ST_WORST] = (struct rep_cell){ .num = st->worst_ape };
	c[ST_BIAS] = (struct rep_cell){ .num = st->bias };
}

/* The error statistics st[first..last] (ST_MAPE to ST_WORST) as a
 * sentence reads them, each under its catalog title and as the tables
 * show it ("MAPE 9.61 %, median 7.00 %, worst 30.1 %"), into buf of len
 * bytes.  Returns buf, or NULL for a non-finite number. */
static const char *stats_words(const struct val_stats *st, int first, int last, char *buf,
			       size_t len)
{
	struct rep_cell c[ST_COLS];
	struct rep_col col[ST_COLS];
	size_t at = 0;
	stats_cells(st, c);
	rep_fields_copy(col, stats_cols, ST_COLS);
	buf[0] = '\0';
	for (int k = first; k <= last; k++) {
		char num[64];
		const char *v = rep_cell_text(&col[k], &c[k], "table", num, sizeof(num));
		if (!v)
			return NULL;
		at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%s %s",
				       k > first ? ", " : "", col[k].title, v);
	}
	return buf;
}

/* Groups g as rows under the column key and the statistics (their
 * columns in vc), and the row "all cases" when `all` is given. */
static void group_rows(struct rep_rows *r, struct val_cols *vc, const struct rep_col *key,
		       const struct val_group *g, int ng, const struct val_stats *all)
{
	rep_rows_init(r, group_cols(vc, key), 1 + ST_COLS);
	for (int k = 0; k < ng + (all != NULL); k++) {
		struct rep_cell c[1 + ST_COLS];
		c[0] = (struct rep_cell){ .text = k < ng ? g[k].key : "all cases" };
		stats_cells(k < ng ? &g[k].st : all, c + 1);
		rep_rows_add(r, c);
	}
}

/* Case k's held-out error in errs (indexed by case), missing where there
 * is none. */
static struct rep_cell held_cell(const double *errs, size_t k)
{
	int have = errs && isfinite(errs[k]);
	return (struct rep_cell){ .num = have ? errs[k] : 0, .missing = !have };
}

/* The cases of res (n of them) as rows of case_cols, their columns in vc
 * (the rows copy the worded measured and predicted values). */
static void case_rows(struct rep_rows *r, struct val_cols *vc, const struct val_set *set,
		      const struct val_result *res, size_t n,
		      const struct rep_validate_summary *s)
{
	rep_rows_init(r, val_cols_set(vc, case_cols, CS_COLS), CS_COLS);
	for (size_t i = 0; i < n; i++) {
		const struct val_case *c = &set->cases[res[i].index];
		int ok = res[i].ok;
		char m[48], p[48];
		struct rep_cell cell[CS_COLS] = {
			[CS_CASE] = { .text = c->id },
			[CS_SOURCE] = { .text = c->source },
			[CS_GPU] = { .text = c->gpu_id },
			[CS_FRAMEWORK] = { .text = c->framework },
			[CS_SANITY] = { .num = c->sanity_only },
			[CS_METRIC] = { .text = val_metric_names[c->metric] },
			[CS_MEASURED] = { .num = res[i].measured },
			[CS_MEASURED_SHOWN] = { .text = metric_unit_text(c->metric, res[i].measured,
									  m, sizeof(m)) },
			[CS_PREDICTED] = { .num = res[i].predicted, .missing = !ok },
			[CS_PREDICTED_SHOWN] = { .text = ok ? metric_unit_text(c->metric,
										res[i].predicted,
										p, sizeof(p)) : NULL,
						 .missing = !ok },
			[CS_ERROR_FRAC] = { .num = res[i].err_frac, .missing = !ok },
			[CS_MEM] = { .num = res[i].mem_bytes, .missing = !ok },
			[CS_FITS] = { .num = res[i].fits, .missing = !ok },
			[CS_HELD_SOURCE] = held_cell(s->held_source, res[i].index),
			[CS_HELD_GPU] = held_cell(s->held_gpu, res[i].index),
			[CS_ERROR] = { .text = res[i].msg, .missing = ok },
			[CS_NOTE] = { .text = !ok ? res[i].msg : c->sanity_only ? "(sanity only)" : "" },
		};
		rep_rows_add(r, cell);
	}
}

/* The speed-ratio pairs of s as rows of ratio_cols, their columns in vc;
 * a pair without a measured ratio has no measured or predicted one. */
static void ratio_rows(struct rep_rows *r, struct val_cols *vc, const struct val_set *set,
		       const struct rep_validate_summary *s)
{
	rep_rows_init(r, val_cols_set(vc, ratio_cols, RT_COLS), RT_COLS);
	for (size_t k = 0; k < s->nratios; k++) {
		const struct val_ratio *v = &s->ratios[k];
		const struct val_case *a = &set->cases[s->kept[v->a].index];
		const struct val_case *b = &set->cases[s->kept[v->b].index];
		int none = !(v->measured > 0);
		const struct rep_cell cell[RT_COLS] = {
			[RT_PAIR] = { .text = a->pair },
			[RT_CASE_A] = { .text = a->id },
			[RT_CASE_B] = { .text = b->id },
			[RT_GPU_A] = { .text = a->gpu_id },
			[RT_GPU_B] = { .text = b->gpu_id },
			[RT_MEASURED] = { .num = v->measured, .missing = none },
			[RT_PREDICTED] = { .num = v->measured * (1 + v->err_frac), .missing = none },
			[RT_ERROR_FRAC] = { .num = v->err_frac },
		};
		rep_rows_add(r, cell);
	}
}

/* One row of cells under cols (ncols of them) as the object `key` of
 * j, or as fields of the object open there (key NULL).  Returns 0, or -1
 * when an allocation failed. */
static int json_record(struct rep_json *j, const char *key, const struct rep_col *cols, int ncols,
		       const struct rep_cell *cells)
{
	struct rep_rows r;
	struct rep_col col[NCOLS(overall_cols)];
	assert(ncols <= NCOLS(col));
	rep_rows_init(&r, col, rep_fields_copy(col, cols, ncols));
	rep_rows_add(&r, cells);
	int rc = rep_record_json(&r, j, key);
	rep_rows_release(&r);
	return rc;
}

/* The statistics st as the object `key` of j. */
static int json_stats(struct rep_json *j, const char *key, const struct val_stats *st)
{
	struct rep_cell c[ST_COLS];
	stats_cells(st, c);
	return json_record(j, key, stats_cols, ST_COLS, c);
}

/* Groups g as the array `key` of j, each under the column `by`. */
static int json_groups(struct rep_json *j, const char *key, const struct rep_col *by,
		       const struct val_group *g, int ng)
{
	struct rep_rows r;
	struct val_cols vc;
	group_rows(&r, &vc, by, g, ng, NULL);
	int rc = rep_rows_json(&r, j, key);
	rep_rows_release(&r);
	return rc;
}

/* The document: overall, groups, cross-validation, speed ratios, cases.
 * Returns 0, or -1 on a failed allocation or a non-finite number. */
static int print_json(FILE *out, const struct val_set *set,
		      const struct val_result *res, size_t n, const struct rep_validate_summary *s)
{
	struct rep_json j;
	struct rep_rows ratios, cases;
	struct val_cols vc;
	struct rep_cell c[ST_COLS + 2];
	int rc = 0;

	rep_json_doc_begin(&j, out, "validate");
	stats_cells(&s->all, c);
	c[ST_COLS] = (struct rep_cell){ .num = (double)s->all.failed };
	c[ST_COLS + 1] = (struct rep_cell){ .num = (double)s->nsanity };
	rc |= json_record(&j, "overall", overall_cols, ST_COLS + 2, c);
	rc |= json_groups(&j, "files", &file_key, s->files, s->nfiles);
	rc |= json_groups(&j, "gpus", &gpu_key, s->gpus, s->ngpus);
	rc |= json_groups(&j, "frameworks", &framework_key, s->frameworks, s->nframeworks);
	rc |= json_groups(&j, "families", &family_key, s->families, s->nfamilies);
	rep_json_obj_begin(&j, "cross_validation");
	rc |= json_stats(&j, "leave_one_source_out", &s->loso);
	rc |= json_stats(&j, "leave_one_gpu_type_out", &s->logo);
	c[0] = (struct rep_cell){ .num = (double)s->band_n };
	c[1] = (struct rep_cell){ .num = (double)s->band_in };
	rc |= json_record(&j, NULL, band_cols, NCOLS(band_cols), c);
	rc |= json_stats(&j, "llm_leave_one_source_out", &s->loso_llm);
	rc |= json_stats(&j, "llm_leave_one_gpu_type_out", &s->logo_llm);
	rep_json_obj_end(&j);
	rep_json_obj_begin(&j, "speed_ratios");
	stats_cells(&s->ratio_st, c);
	rc |= json_record(&j, NULL, ratio_stats_cols, RATIO_STATS, c);
	ratio_rows(&ratios, &vc, set, s);
	rc |= rep_rows_json(&ratios, &j, "pairs_list");
	rep_rows_release(&ratios);
	rep_json_obj_end(&j);
	case_rows(&cases, &vc, set, res, n, s);
	rc |= rep_rows_json(&cases, &j, "cases");
	rep_rows_release(&cases);
	rep_json_obj_end(&j);
	return rep_json_finish(&j) ? -1 : rc;
}

/* Rows r written in fmt and released.  Returns what rep_rows_print does. */
static int print_rows(FILE *out, struct rep_rows *r, const char *fmt)
{
	int rc = rep_rows_print(r, out, fmt);
	rep_rows_release(r);
	return rc;
}

/* One group table, each group under the column `by`: a row per group,
 * and the total when `all` is given. */
static int print_groups(FILE *out, const char *fmt, const struct rep_col *by,
			const struct val_group *g, int ng, const struct val_stats *all)
{
	struct rep_rows r;
	struct val_cols vc;
	group_rows(&r, &vc, by, g, ng, all);
	return print_rows(out, &r, fmt);
}

/* The A/B speed ratios of the same benchmark on two GPU types. */
static int print_ratios(FILE *out, const char *fmt, const struct val_set *set,
			const struct rep_validate_summary *s)
{
	struct rep_rows r;
	struct val_cols vc;
	fputs("\nSpeed ratios: the same benchmark and stack on two GPU types (error of the "
	      "predicted A/B speed ratio)\n\n", out);
	ratio_rows(&r, &vc, set, s);
	int rc = print_rows(out, &r, fmt);
	char w[160];
	if (!stats_words(&s->ratio_st, ST_MAPE, ST_WORST, w, sizeof(w)))
		return -1;
	fprintf(out, "\nratio error over %zu pairs: %s\n", s->ratio_st.n, w);
	return rc;
}

/* The measured runs the memory model says could not have run: each one is
 * a miss of the memory model (a published run is proof that it fit).
 * Said even when there are none. */
static void print_unfit(FILE *out, const struct val_set *set,
			const struct rep_validate_summary *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nkept; i++)
		n += s->kept[i].ok && !s->kept[i].fits;
	fprintf(out, "\n%zu measured run%s predicted not to fit in memory%s\n", n,
		n == 1 ? "" : "s", n ? " (each ran, so each is a miss of the memory model):" : "");
	for (size_t i = 0; i < s->nkept; i++) {
		const struct val_result *r = &s->kept[i];
		if (r->ok && !r->fits)
			fprintf(out, "  %s: %.1f GB a GPU of %.0f\n", set->cases[r->index].id,
				r->mem_bytes / 1e9, r->capacity_bytes / 1e9);
	}
}

/* The flat formats: CSV one row per case; the table and Markdown the
 * summary, after every case with --verbose. */
static int print_tables(FILE *out, const char *fmt, const struct val_set *set,
			const struct val_result *res, size_t n, const struct rep_validate_summary *s,
			int verbose)
{
	struct rep_rows cases;
	struct val_cols vc;
	int rc = 0;
	if (!strcmp(fmt, "csv") || verbose) {
		case_rows(&cases, &vc, set, res, n, s);
		rc = print_rows(out, &cases, fmt);
		if (!strcmp(fmt, "csv"))
			return rc;
		fputc('\n', out);
	}
	fputs("Predicted against measured (absolute percentage error; bias > 0: over-predicts)\n\n",
	      out);
	rc |= print_groups(out, fmt, &file_key, s->files, s->nfiles, &s->all);
	/* One headline a family over every counted run: none is set aside. */
	if (s->nfamilies > 1) {
		fputc('\n', out);
		rc |= print_groups(out, fmt, &family_key, s->families, s->nfamilies, NULL);
	}
	if (s->ngpus > 1) {
		fputc('\n', out);
		rc |= print_groups(out, fmt, &gpu_key, s->gpus, s->ngpus, NULL);
	}
	if (s->nframeworks) {
		fputc('\n', out);
		rc |= print_groups(out, fmt, &framework_key, s->frameworks, s->nframeworks, NULL);
	}
	if (s->nratios)
		rc |= print_ratios(out, fmt, set, s);
	if (!s->loso.n && s->nframeworks)
		fputs("\nCross-validation of the framework fit (leave one source out, leave one GPU "
		      "type out): traincost validate --loo\n", out);
	if (s->loso.n) {
		char so[160], go[160];
		if (!stats_words(&s->loso, ST_MAPE, ST_WORST, so, sizeof(so)) ||
		    !stats_words(&s->logo, ST_MAPE, ST_WORST, go, sizeof(go)))
			return -1;
		fprintf(out, "\nCross-validation of the framework fit over the %zu runs that name "
			"a framework (docs/model.md section 7):\n"
			"  leave one source out:   %s\n"
			"  leave one GPU type out: %s\n", s->loso.n, so, go);
	}
	if (s->band_n)
		fprintf(out, "  the P10-P90 band of `estimate --uncertainty` holds %zu of %zu runs "
			"(%.0f %%; an honest band holds about 80 %%)\n", s->band_in, s->band_n,
			100.0 * (double)s->band_in / (double)s->band_n);
	/* Only where the cases shown hold language models (not --family vision). */
	if (s->loso_llm.n && s->loso_llm.n != s->loso.n && s->band_llm_n) {
		char so[64], go[64];
		if (!stats_words(&s->loso_llm, ST_MAPE, ST_MAPE, so, sizeof(so)) ||
		    !stats_words(&s->logo_llm, ST_MAPE, ST_MAPE, go, sizeof(go)))
			return -1;
		fprintf(out, "  language models alone (%zu runs): leave one source out %s, "
			"leave one GPU type out %s, P10-P90 band holds %zu of %zu\n",
			s->loso_llm.n, so, go, s->band_llm_in, s->band_llm_n);
	}
	if (s->all.n) {
		const struct val_result *r = &s->kept[s->all.worst];
		const struct val_case *w = &set->cases[r->index];
		char m[48], p[48];
		fprintf(out, "\nworst case: %s, measured %s, predicted %s\n", w->id,
			metric_unit_text(w->metric, r->measured, m, sizeof(m)),
			metric_unit_text(w->metric, r->predicted, p, sizeof(p)));
	}
	print_unfit(out, set, s);
	/* Said even when none, so a reader knows every run was counted. */
	fprintf(out, "%zu sanity-only case%s left out of the figures above%s\n", s->nsanity,
		s->nsanity == 1 ? "" : "s",
		s->nsanity ? " (--verbose lists them; the case files say why)" : "");
	if (s->all.failed)
		fprintf(out, "%zu case%s could not be estimated (see --verbose)\n",
			s->all.failed, s->all.failed == 1 ? "" : "s");
	return rc;
}

int rep_validate_report(FILE *out, const char *fmt, const struct val_set *set,
			const struct val_result *res, size_t n,
			const struct rep_validate_summary *s, int verbose)
{
	if (!strcmp(fmt, "json"))
		return print_json(out, set, res, n, s);
	return print_tables(out, fmt, set, res, n, s, verbose);
}
