/*
 * rows.c - typed rows written as a table, Markdown, CSV or JSON (rows.h).
 */
#include "rows.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/units.h"
#include "numfmt.h"
#include "rowfmt.h"

void rep_rows_init(struct rep_rows *r, const struct rep_col *cols, int ncols)
{
	assert(ncols > 0 && ncols <= REP_ROWS_MAX_COLS);
	memset(r, 0, sizeof(*r));
	r->cols = cols;
	r->ncols = ncols;
}

void rep_rows_words(struct rep_rows *r, const rep_word_fn *words)
{
	r->word = words;
}

int rep_worded(const struct rep_rows *r, int c)
{
	return r->word && r->word[c];
}

/* Whether a column's cells are text (copied, written as JSON strings). */
static int is_text(const struct rep_col *col)
{
	return col->kind == REP_COL_TEXT || col->kind == REP_COL_FIGURE;
}

void rep_rows_add(struct rep_rows *r, const struct rep_cell *cells)
{
	if (r->failed)
		return;
	if (r->rows == r->cap) {
		size_t ncap = r->cap ? r->cap * 2 : 8;
		size_t n = ncap * (size_t)r->ncols;
		struct rep_cell *nc = realloc(r->cells, n * sizeof(*nc));
		if (nc)
			r->cells = nc;
		char **nt = nc ? realloc(r->text, n * sizeof(*nt)) : NULL;
		if (!nt) {
			r->failed = 1;
			return;
		}
		r->text = nt;
		r->cap = ncap;
	}
	size_t at = r->rows * (size_t)r->ncols;
	for (int c = 0; c < r->ncols; c++) {
		char *copy = NULL;
		if (is_text(&r->cols[c]) && !cells[c].missing && !cells[c].absent &&
		    !(copy = strdup(cells[c].text ? cells[c].text : ""))) {
			while (c-- > 0)
				free(r->text[at + (size_t)c]);
			r->failed = 1;
			return;
		}
		r->text[at + (size_t)c] = copy;
		r->cells[at + (size_t)c] = cells[c];
		r->cells[at + (size_t)c].text = copy;
		r->cells[at + (size_t)c].missing |= cells[c].absent;
	}
	r->rows++;
}

int rep_view_shows(enum rep_view v, const char *fmt)
{
	int json = !strcmp(fmt, "json"), csv = !strcmp(fmt, "csv");
	switch (v) {
	case REP_VIEW_ALL: return 1;
	case REP_VIEW_JSON: return json;
	case REP_VIEW_FLAT: return !json;
	case REP_VIEW_TEXT: return !json && !csv;
	case REP_VIEW_DATA: return json || csv;
	case REP_VIEW_CSV: return csv;
	case REP_VIEW_TABLE: return !strcmp(fmt, "table");
	}
	return 0;
}

/* v as rep_fmt_count writes it, then suffix, into buf.  Returns buf. */
static const char *amount_text(double v, const char *suffix, char *buf, size_t len)
{
	char n[ROWFMT_MAX];
	snprintf(buf, len, "%s%s", rep_fmt_count(v, n, sizeof(n)), suffix);
	return buf;
}

/*
 * The text of one cell in `fmt`: the contract's value for "csv", the
 * person's for "table" and "md".  buf holds ROWFMT_MAX + the suffix.
 * Returns the text, or NULL for a non-finite number.
 */
static const char *cell_text(const struct rep_col *col, const struct rep_cell *v, int csv,
			     char *buf, size_t len)
{
	if (v->missing)
		return csv ? "" : col->zero ? col->zero : "-";
	switch (col->kind) {
	case REP_COL_TEXT:
	case REP_COL_FIGURE:
		return v->text;
	case REP_COL_BOOL:
		return v->num != 0 ? (csv ? "true" : "yes") : (csv ? "false" : "no");
	case REP_COL_COUNT:
	case REP_COL_NUM:
	case REP_COL_SIG:
	case REP_COL_DELTA:
	case REP_COL_DURATION:
	case REP_COL_USD:
	case REP_COL_AMOUNT:
		break;
	}
	if (!isfinite(v->num))
		return NULL;
	const char *suffix = col->suffix ? col->suffix : "";
	double shown = v->num * (col->scale ? col->scale : 1);
	if (csv && (col->kind == REP_COL_COUNT || col->csv == REP_CSV_WHOLE))
		snprintf(buf, len, "%.0f", v->num);
	else if (csv && col->csv == REP_CSV_DECIMALS)
		snprintf(buf, len, "%.*f", col->decimals, v->num);
	else if (csv && col->csv == REP_CSV_SIG10)
		snprintf(buf, len, "%.10g", v->num);
	else if (csv && col->csv == REP_CSV_EXP6)
		snprintf(buf, len, "%.6g", v->num);
	else if (csv && col->csv == REP_CSV_SIG4)
		snprintf(buf, len, "%.4g", v->num);
	else if (csv)
		rowfmt_g6(buf, v->num);
	else if (v->num == 0 && col->zero)
		return col->zero;
	else if (col->kind == REP_COL_COUNT)
		snprintf(buf, len, "%.0f%s", v->num, suffix);
	else if (col->kind == REP_COL_DELTA)
		snprintf(buf, len, "%+.*f%s", col->decimals, shown, suffix);
	else if (col->kind == REP_COL_SIG)
		snprintf(buf, len, "%.*g%s", col->decimals, shown, suffix);
	else if (col->kind == REP_COL_DURATION)
		tc_fmt_duration(shown, buf, (int)len);
	else if (col->kind == REP_COL_USD)
		rep_fmt_usd(shown, buf, (int)len);
	else if (col->kind == REP_COL_AMOUNT)
		amount_text(shown, suffix, buf, len);
	else
		snprintf(buf, len, "%.*f%s", col->decimals, shown, suffix);
	return buf;
}

const char *rep_rows_text(const struct rep_rows *r, size_t i, int c, const char *fmt, char *buf,
			  size_t len)
{
	assert(i < r->rows && c >= 0 && c < r->ncols);
	return cell_text(&r->cols[c], &r->cells[i * (size_t)r->ncols + (size_t)c],
			 !strcmp(fmt, "csv"), buf, len);
}

const struct rep_cell *rep_rows_field(const struct rep_rows *r, size_t i, const char *group,
				      const char *name)
{
	assert(i < r->rows);
	for (int c = 0; c < r->ncols; c++) {
		const struct rep_col *col = &r->cols[c];
		if (!strcmp(col->name, name) &&
		    (group ? col->group && !strcmp(col->group, group) : !col->group))
			return &r->cells[i * (size_t)r->ncols + (size_t)c];
	}
	return NULL;
}

int rep_rows_word(const struct rep_rows *r, size_t i, int c, const char *fmt, char *title,
		  char *value)
{
	assert(i < r->rows && c >= 0 && c < r->ncols && rep_worded(r, c));
	snprintf(title, REP_WORD_LEN, "%s", r->cols[c].title);
	value[0] = '\0';
	return r->word[c](r, i, c, fmt, title, value);
}

/* Cell i, c of r as flat format fmt writes it, in buf of len bytes (and,
 * for a worded column, words of REP_WORD_LEN bytes).  Returns the text,
 * or NULL for a non-finite number. */
static const char *flat_text(const struct rep_rows *r, size_t i, int c, const char *fmt,
			     char *buf, size_t len, char *words)
{
	int csv = !strcmp(fmt, "csv");
	if (!csv && rep_worded(r, c)) {
		char title[REP_WORD_LEN];
		int w = rep_rows_word(r, i, c, fmt, title, words);
		return w < 0 ? NULL : w ? "" : words;
	}
	return cell_text(&r->cols[c], &r->cells[i * (size_t)r->ncols + (size_t)c], csv, buf, len);
}

int rep_rows_print(const struct rep_rows *r, FILE *f, const char *fmt)
{
	const char *head[REP_TABLE_MAX_COLS] = { 0 };
	enum rep_align al[REP_TABLE_MAX_COLS] = { 0 };
	int shown[REP_TABLE_MAX_COLS]; /* the columns flat formats show */
	char buf[REP_TABLE_MAX_COLS][ROWFMT_MAX + 32];
	char *words = NULL; /* REP_WORD_LEN bytes per column, where any is worded */
	int csv = !strcmp(fmt, "csv");
	struct rep_table t;
	int n = 0, rc = r->failed ? -1 : 0;

	for (int c = 0; c < r->ncols; c++) {
		if (!rep_view_shows(r->cols[c].view, fmt))
			continue;
		assert(n < REP_TABLE_MAX_COLS);
		head[n] = csv ? r->cols[c].name : r->cols[c].title;
		al[n] = r->cols[c].kind == REP_COL_TEXT ? REP_LEFT : REP_RIGHT;
		shown[n++] = c;
	}
	rep_table_init(&t, n, head, al);
	for (int k = 0; k < n; k++)
		t.raw[k] = !csv && rep_worded(r, shown[k]);
	if (memchr(t.raw, 1, (size_t)n) && !(words = malloc((size_t)n * REP_WORD_LEN)))
		rc = -1;
	for (size_t i = 0; i < r->rows && !rc; i++) {
		const char *cells[REP_TABLE_MAX_COLS];
		for (int k = 0; k < n && !rc; k++) {
			cells[k] = flat_text(r, i, shown[k], fmt, buf[k], sizeof(buf[k]),
					     words ? words + (size_t)k * REP_WORD_LEN : NULL);
			if (!cells[k])
				rc = -1;
		}
		if (!rc)
			rep_table_row(&t, cells);
	}
	if (!rc)
		rc = rep_table_print(&t, f, fmt);
	rep_table_release(&t);
	free(words);
	return rc;
}

/* One value of a row under `key` (the JSON side of cell_text). */
static void json_cell(struct rep_json *j, const struct rep_col *col, const struct rep_cell *v,
		      const char *key)
{
	if (v->missing)
		rep_json_null(j, key);
	else if (is_text(col))
		rep_json_str(j, key, v->text);
	else if (col->kind == REP_COL_BOOL)
		rep_json_bool(j, key, v->num != 0);
	else if (col->kind == REP_COL_COUNT && isfinite(v->num))
		rep_json_int(j, key, (long long)v->num);
	else
		rep_json_num(j, key, v->num);
}

size_t rep_col_key_len(const struct rep_col *col)
{
	size_t n = strlen(col->name), g = strlen(col->group);
	if (n > g + 1 && col->name[n - g - 1] == '_' && !strcmp(col->name + n - g, col->group))
		return n - g - 1;
	return n;
}

/* The number of objects group path p names ("cost.cheapest": 2; NULL: 0). */
static int path_depth(const char *p)
{
	int n = p ? 1 : 0;
	for (; p && *p; p++)
		n += *p == '.';
	return n;
}

/* The number of leading objects paths a and b share (NULL: none). */
static int path_shared(const char *a, const char *b)
{
	int n = 0;
	if (!a || !b)
		return 0;
	for (;; a++, b++) {
		int end_a = !*a || *a == '.', end_b = !*b || *b == '.';
		if (end_a || end_b) {
			if (!(end_a && end_b))
				return n;
			n++;
			if (!*a || !*b)
				return n;
		} else if (*a != *b) {
			return n;
		}
	}
}

/* Open the objects of path p from its level `from` (0: the first) on. */
static void path_open(struct rep_json *j, const char *p, int from)
{
	for (int level = 0; *p; level++) {
		size_t n = strcspn(p, ".");
		char key[64];
		assert(n < sizeof(key));
		if (level >= from) {
			snprintf(key, sizeof(key), "%.*s", (int)n, p);
			rep_json_obj_begin(j, key);
		}
		p += n + (p[n] == '.');
	}
}

void rep_rows_json_fields(const struct rep_rows *r, size_t i, struct rep_json *j)
{
	const char *open = NULL; /* the group path whose objects are open */
	assert(i < r->rows);
	for (int c = 0; c < r->ncols; c++) {
		const struct rep_col *col = &r->cols[c];
		const struct rep_cell *v = &r->cells[i * (size_t)r->ncols + (size_t)c];
		char key[128];
		if (!rep_view_shows(col->view, "json") || v->absent)
			continue;
		if (!open || !col->group || strcmp(col->group, open)) {
			int keep = path_shared(open, col->group);
			for (int k = path_depth(open); k > keep; k--)
				rep_json_obj_end(j);
			if (col->group)
				path_open(j, col->group, keep);
			open = col->group;
		}
		if (rep_cell_left_out(col, v))
			continue; /* its group, open, lists what exists */
		if (!col->group) {
			json_cell(j, col, v, col->name);
		} else {
			snprintf(key, sizeof(key), "%.*s", (int)rep_col_key_len(col), col->name);
			json_cell(j, col, v, key);
		}
	}
	for (int k = path_depth(open); k > 0; k--)
		rep_json_obj_end(j);
}

int rep_rows_json(const struct rep_rows *r, struct rep_json *j, const char *key)
{
	rep_json_arr_begin(j, key);
	for (size_t i = 0; i < r->rows && !r->failed; i++) {
		rep_json_obj_begin(j, NULL);
		rep_rows_json_fields(r, i, j);
		rep_json_obj_end(j);
	}
	rep_json_arr_end(j);
	return r->failed ? -1 : 0;
}

int rep_rows_write(const struct rep_rows *r, FILE *f, const char *fmt, const char *command,
		   const char *key)
{
	if (strcmp(fmt, "json"))
		return rep_rows_print(r, f, fmt);
	struct rep_json j;
	rep_json_doc_begin(&j, f, command);
	int rc = rep_rows_json(r, &j, key);
	rep_json_obj_end(&j);
	return rep_json_finish(&j) ? -1 : rc;
}

void rep_rows_release(struct rep_rows *r)
{
	for (size_t i = 0; i < r->rows * (size_t)r->ncols; i++)
		free(r->text[i]);
	free(r->text);
	free(r->cells);
	memset(r, 0, sizeof(*r));
}

int rep_cell_left_out(const struct rep_col *col, const struct rep_cell *v)
{
	return v->absent || (col->absent && v->missing);
}

/* Cell v as rep_rows_add keeps it: an absent value is a missing one. */
static struct rep_cell as_kept(const struct rep_cell *v)
{
	struct rep_cell c = *v;
	c.missing |= c.absent;
	return c;
}

const char *rep_cell_text(const struct rep_col *col, const struct rep_cell *v, const char *fmt,
			  char *buf, size_t len)
{
	struct rep_cell c = as_kept(v);
	return cell_text(col, &c, !strcmp(fmt, "csv"), buf, len);
}

void rep_cell_json(struct rep_json *j, const struct rep_col *col, const struct rep_cell *v)
{
	struct rep_cell c = as_kept(v);
	json_cell(j, col, &c, col->name);
}
