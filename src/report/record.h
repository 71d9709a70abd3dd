/*
 * record.h - one record: the single row of a struct rep_rows read as a
 * list of fields, for a command that describes one thing (`gpus show`).
 *
 * The columns are the fields, in order, with everything rows.h gives
 * them: contract name, title, kind, scale and unit, group, view.  The
 * four formats of the same record:
 *   table, md  two columns, field (title) and value (scaled, with its
 *              unit), one line per field the format shows; a missing
 *              value of an `absent` column leaves its line out; a worded
 *              column (rows.h, `word`) gives its line's title and value
 *              itself, from as many fields of the record as it needs,
 *              or leaves its line out;
 *   csv        one header row of names and one row of values, as
 *              rep_rows_print writes any rows;
 *   json       the fields of one object, groups as objects inside it.
 * A record may instead be written for people as a sheet: lines of prose
 * in sections (rep_record_print_sheet, the estimate's table), each line
 * one field the table shows, worded from the record's other fields.
 * A list inside the record (a GPU's MIG profiles) stays rows of its own
 * that the command writes after the record: JSON as an array of the
 * same object, the table as a second table; CSV, one table, leaves it
 * to JSON.
 */
#ifndef TC_REP_RECORD_H
#define TC_REP_RECORD_H

#include <stdio.h>

#include "json.h"
#include "rows.h"
#include "table.h"

/* The headers of a record's field/value table, and how its values
 * align. */
struct rep_record_look {
	const char *field, *value; /* borrowed */
	enum rep_align align;
};
/* "field", "value", left-aligned. */
extern const struct rep_record_look rep_record_plain;

/* Write record r (rows of one row) as "table", "md" or "csv".  Returns
 * 0, or -1 on a failed allocation or a non-finite number (never
 * printed). */
int rep_record_print(const struct rep_rows *r, FILE *f, const char *fmt);
/* The same, the field/value table with the look *look. */
int rep_record_print_as(const struct rep_rows *r, FILE *f, const char *fmt,
			const struct rep_record_look *look);
/*
 * How a line of a record's sheet is laid out.  A heading opens a section:
 * a blank line before it (unless it is the sheet's first), then its title
 * and value unindented, or nothing more when both are empty.  Any other
 * line is indented by two spaces, its title padded to title_width, then
 * a space and the value right-aligned in value_width (0: as it is); an
 * empty value ends the line at its title, and a value of several lines
 * goes on under the first one's start.
 */
struct rep_sheet_look {
	int heading;
	int title_width, value_width;
};

/* Write record r as a sheet in the table format: each field the table
 * shows (rep_view_shows) that has a look, looks[c] for field c (NULL:
 * a fact the wordings draw on, not a line), in the record's order, its
 * title and value worded (rows.h, `word`) or as rep_show gives them; a
 * field a wording leaves out, or an `absent` one, has no line.  Returns 0,
 * or -1 on a failed allocation or a non-finite number (never printed). */
int rep_record_print_sheet(const struct rep_rows *r, FILE *f,
			   const struct rep_sheet_look *const *looks);
/* Write record r's fields into j: into the object open there (key NULL)
 * or as an object `key` of it.  A non-finite number is caught by
 * rep_json_finish.  Returns 0, or -1 when an allocation failed (the
 * object is then empty). */
int rep_record_json(const struct rep_rows *r, struct rep_json *j, const char *key);

#endif
