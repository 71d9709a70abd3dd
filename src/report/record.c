/*
 * record.c - one row of typed values written as a list of fields
 * (record.h).
 */
#include "record.h"

#include <assert.h>
#include <string.h>

#include "rowfmt.h"
#include "table.h"

/* Room for a number with the longest unit a column names. */
#define RECORD_CELL_MAX (ROWFMT_MAX + 96)

/* The field/value table of a record for "table" or "md". */
static int print_fields(const struct rep_rows *r, FILE *f, const char *fmt)
{
	static const char *const head[] = { "field", "value" };
	struct rep_table t;
	int rc = 0;

	rep_table_init(&t, 2, head, NULL);
	for (int c = 0; c < r->ncols && !rc; c++) {
		const struct rep_col *col = &r->cols[c];
		char buf[RECORD_CELL_MAX];
		if (!rep_view_shows(col->view, fmt) || rep_cell_left_out(col, &r->cells[c]))
			continue;
		const char *cells[2] = { col->title, rep_rows_text(r, 0, c, fmt, buf, sizeof(buf)) };
		if (!cells[1])
			rc = -1;
		else
			rep_table_row(&t, cells);
	}
	if (!rc)
		rc = rep_table_print(&t, f, fmt);
	rep_table_release(&t);
	return rc;
}

int rep_record_print(const struct rep_rows *r, FILE *f, const char *fmt)
{
	if (r->failed)
		return -1;
	assert(r->rows == 1);
	if (!strcmp(fmt, "csv"))
		return rep_rows_print(r, f, fmt);
	return print_fields(r, f, fmt);
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
