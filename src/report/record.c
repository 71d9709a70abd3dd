/*
 * record.c - one row of typed values written as a list of fields
 * (record.h).
 */
#include "record.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../util/utf8.h"
#include "rowfmt.h"
#include "table.h"

/* Room for a number with the longest unit a column names. */
#define RECORD_CELL_MAX (ROWFMT_MAX + 96)

const struct rep_record_look rep_record_plain = { "field", "value", REP_LEFT };

/* Append the line title, value to t (whose cells are printed as given),
 * the two shown as fmt shows data (rep_show, never cut). */
static void add_shown(struct rep_table *t, const char *title, const char *value, const char *fmt)
{
	size_t nt = TC_ESC_SIZE(strlen(title)), nv = TC_ESC_SIZE(strlen(value));
	char *a = malloc(nt), *b = malloc(nv);
	if (a && b) {
		const char *cells[2] = { rep_show(a, nt, title, fmt), rep_show(b, nv, value, fmt) };
		rep_table_row(t, cells);
	} else {
		t->failed = 1;
	}
	free(a);
	free(b);
}

/* Append field c of record r to t as fmt shows it: its wording, or its
 * title and its value; nothing when the field is left out.  Returns 0,
 * or -1 for a non-finite number. */
static int add_field(struct rep_table *t, const struct rep_rows *r, int c, const char *fmt)
{
	const struct rep_col *col = &r->cols[c];
	if (rep_worded(r, c)) {
		char title[REP_WORD_LEN], value[REP_WORD_LEN];
		int w = rep_rows_word(r, 0, c, fmt, title, value);
		const char *cells[2] = { title, value };
		if (!w)
			rep_table_row(t, cells);
		return w < 0 ? -1 : 0;
	}
	if (rep_cell_left_out(col, &r->cells[c]))
		return 0;
	char buf[RECORD_CELL_MAX];
	const char *v = rep_rows_text(r, 0, c, fmt, buf, sizeof(buf));
	if (!v)
		return -1;
	add_shown(t, col->title, v, fmt);
	return 0;
}

/* The field/value table of a record for "table" or "md". */
static int print_fields(const struct rep_rows *r, FILE *f, const char *fmt,
			const struct rep_record_look *look)
{
	const char *head[] = { look->field, look->value };
	const enum rep_align al[] = { REP_LEFT, look->align };
	struct rep_table t;
	int rc = 0;

	rep_table_init(&t, 2, head, al);
	t.raw[0] = t.raw[1] = 1;
	for (int c = 0; c < r->ncols && !rc; c++)
		if (rep_view_shows(r->cols[c].view, fmt))
			rc = add_field(&t, r, c, fmt);
	if (!rc)
		rc = rep_table_print(&t, f, fmt);
	rep_table_release(&t);
	return rc;
}

int rep_record_print_as(const struct rep_rows *r, FILE *f, const char *fmt,
			const struct rep_record_look *look)
{
	if (r->failed)
		return -1;
	assert(r->rows == 1);
	if (!strcmp(fmt, "csv"))
		return rep_rows_print(r, f, fmt);
	return print_fields(r, f, fmt, look);
}

int rep_record_print(const struct rep_rows *r, FILE *f, const char *fmt)
{
	return rep_record_print_as(r, f, fmt, &rep_record_plain);
}

int rep_record_json(const struct rep_rows *r, struct rep_json *j, const char *key)
{
	if (key)
		rep_json_obj_begin(j, key);
	if (!r->failed) {
		assert(r->rows == 1);
		rep_rows_json_fields(r, 0, j);
	}
	if (key)
		rep_json_obj_end(j);
	return r->failed ? -1 : 0;
}

/* Print n spaces (none when n <= 0). */
static void spaces(FILE *f, int n)
{
	while (n-- > 0)
		fputc(' ', f);
}

/* Print one line of a sheet laid out as *look says (record.h). */
static void print_line(FILE *f, const struct rep_sheet_look *look, const char *title,
		       const char *value, int first)
{
	if (look->heading) {
		if (!first)
			fputc('\n', f);
		if (title[0] || value[0])
			fprintf(f, "%s%s%s\n", title, value[0] ? " " : "", value);
		return;
	}
	/* Widths count bytes, as printf's "%-13s" does: the titles are ASCII
	 * and a value's text is the tool's own. */
	int width = (int)strlen(title);
	fprintf(f, "  %s", title);
	if (value[0]) {
		spaces(f, look->title_width - width + 1);
		/* The lines after the first go on under its start. */
		int at = 2 + (width > look->title_width ? width : look->title_width) + 1;
		spaces(f, look->value_width - (int)strlen(value));
		for (const char *s = value; *s; s++) {
			fputc(*s, f);
			if (*s == '\n')
				spaces(f, at);
		}
	}
	fputc('\n', f);
}

/* Field c of record r as the sheet's line: its title and value (each
 * REP_WORD_LEN bytes) as the table shows them.  Returns 0, 1 when it has
 * no line, or -1 for a non-finite number. */
static int sheet_line(const struct rep_rows *r, int c, char *title, char *value)
{
	const struct rep_col *col = &r->cols[c];
	if (rep_worded(r, c))
		return rep_rows_word(r, 0, c, "table", title, value);
	if (rep_cell_left_out(col, &r->cells[c]))
		return 1;
	char buf[RECORD_CELL_MAX];
	const char *v = rep_rows_text(r, 0, c, "table", buf, sizeof(buf));
	if (!v)
		return -1;
	rep_show(title, REP_WORD_LEN, col->title, "table");
	rep_show(value, REP_WORD_LEN, v, "table");
	return 0;
}

int rep_record_print_sheet(const struct rep_rows *r, FILE *f,
			   const struct rep_sheet_look *const *looks)
{
	static const char *const head[] = { "title", "value" };
	const struct rep_sheet_look *shown[REP_ROWS_MAX_COLS]; /* the looks of t's lines */
	char title[REP_WORD_LEN], value[REP_WORD_LEN];
	struct rep_table t;
	int rc = r->failed ? -1 : 0;

	assert(r->rows == 1 || r->failed);
	rep_table_init(&t, 2, head, NULL);
	/* Every line is worded before any is printed: a non-finite number
	 * leaves the output empty rather than cut short. */
	for (int c = 0; c < r->ncols && !rc; c++) {
		if (!looks[c] || !rep_view_shows(r->cols[c].view, "table"))
			continue;
		int w = sheet_line(r, c, title, value);
		const char *cells[2] = { title, value };
		if (w < 0)
			rc = -1;
		else if (!w) {
			shown[t.rows] = looks[c];
			rep_table_row(&t, cells);
		}
	}
	if (t.failed)
		rc = -1;
	for (size_t i = 0; i < t.rows && !rc; i++)
		print_line(f, shown[i], t.cells[2 * i], t.cells[2 * i + 1], i == 0);
	rep_table_release(&t);
	return rc;
}
