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
/* Write record r's fields into j: into the object open there (key NULL)
 * or as an object `key` of it.  A non-finite number is caught by
 * rep_json_finish.  Returns 0, or -1 when an allocation failed (the
 * object is then empty). */
int rep_record_json(const struct rep_rows *r, struct rep_json *j, const char *key);

#endif
