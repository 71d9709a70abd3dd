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
