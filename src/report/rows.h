/*
 * rows.h - rows of typed values under one description of their columns,
 * written as an aligned table, Markdown, CSV or a JSON array: the four
 * views of the same values, so that no command writes its data twice.
 *
 * A column has its contract name (JSON key and CSV header, with the unit
 * its ending names: docs/output-format.md) and the title a person reads;
 * a number column also says how the table shows it.  CSV and JSON carry
 * numbers in the contract's units (CSV to 6 significant digits, JSON in
 * full); the table and Markdown show them scaled, rounded and with a unit.
 */
#ifndef TC_REP_ROWS_H
#define TC_REP_ROWS_H

#include <stddef.h>
#include <stdio.h>

#include "json.h"
#include "table.h"

enum rep_col_kind {
	REP_COL_TEXT,  /* text, left-aligned */
	REP_COL_COUNT, /* a whole number */
	REP_COL_NUM,   /* a number, shown as value * scale with `decimals` and `suffix` */
	REP_COL_SIG,   /* a number of any size, shown to `decimals` significant digits */
	REP_COL_BOOL,  /* true/false; "yes"/"no" in the table */
	REP_COL_DELTA, /* a signed number (an error, a bias): as REP_COL_NUM,
			* with its sign always shown in the table */
	REP_COL_FIGURE, /* text of a number the command wrote with its unit,
			* one that differs by row ("1.2 ms", "840 tokens/s"):
			* text, right-aligned like a number */
	REP_COL_DURATION, /* seconds, shown in the unit that suits each value
			  * to 3 significant digits ("909 ms", "32.1 d":
			  * tc_fmt_duration) */
	REP_COL_USD,      /* US dollars, "$338,840" or, under $100, "$20.85"
			   * (rep_fmt_usd) */
	REP_COL_AMOUNT,   /* a number of any size as people read it, with
			   * `suffix`: digits grouped by thousands, a
			   * fraction under 100 to 3 significant digits
			   * ("49,250", "7.13 kWh": rep_fmt_count) */
};

/* How CSV writes a number column (0: the usual). */
enum rep_csv {
	REP_CSV_SIG6,    /* 6 significant digits (rowfmt_g6) */
	REP_CSV_WHOLE,   /* to the unit ("%.0f"): byte counts and datasheet
			  * rates, whose digits all matter */
	REP_CSV_DECIMALS, /* with the column's `decimals`, unscaled: a fitted
			   * value whose contract shows its precision */
	REP_CSV_SIG10,    /* 10 significant digits ("%.10g"): prices, whose
			   * listed cents must survive */
	REP_CSV_EXP6,     /* 6 significant digits, large values with an
			   * exponent ("%.6g": 1.37e+14): measurements in
			   * any unit, no digit shown beyond the six */
	REP_CSV_SIG4      /* 4 significant digits ("%.4g"): a share counted
			   * over samples, whose further digits are noise */
};

/* The outputs a column appears in (0: all). */
enum rep_view {
	REP_VIEW_ALL,  /* every format */
	REP_VIEW_JSON, /* JSON only: details a row of text leaves out */
	REP_VIEW_FLAT, /* table, Markdown and CSV only */
	REP_VIEW_TEXT, /* table and Markdown only: a person's wording of what
			* a REP_VIEW_DATA column of the same name carries */
	REP_VIEW_DATA, /* CSV and JSON only */
	REP_VIEW_CSV,  /* CSV only: a field JSON carries once for the whole
			* document, CSV on every row */
	REP_VIEW_TABLE /* the table only: a line of a record's sheet, or a
			* fact its wordings draw on (record.h) */
};

struct rep_rows;

/* Room for a worded title or value, with its NUL. */
#define REP_WORD_LEN 1024

/*
 * How a column words its field for people (table and Markdown only,
 * rep_rows_words): the
 * field of row i of r in column c, drawing on any other field of the row
 * (rep_rows_field), written as fmt ("table" or "md") shows it: names
 * quoted from the data go through rep_show, the rest is printed as given.
 * title holds the column's title on entry; a record's line may reword it.
 * Both are REP_WORD_LEN bytes.  Returns 0, 1 when there is nothing to say
 * (a record leaves its line out, rows write an empty cell), or -1 for a
 * non-finite number.
 */
typedef int (*rep_word_fn)(const struct rep_rows *r, size_t i, int c, const char *fmt,
			   char *title, char *value);

struct rep_col {
	const char *name;   /* JSON key and CSV column (the contract) */
	const char *title;  /* table and Markdown header */
	enum rep_col_kind kind;
	double scale;       /* REP_COL_NUM, REP_COL_SIG: 0 means 1 */
	int decimals;
	const char *suffix; /* unit shown after the number ("" or NULL: none) */
	const char *zero;   /* table text for a value of 0 and for a missing one
			     * ("none", "not published"; NULL: the number, "-") */
	/*
	 * JSON: the value is a field of the object `group` rather than of the
	 * row, under the name less its ending "_group" (the CSV column
	 * "fp8_dense_flop_per_s" is "fp8" of "dense_flop_per_s"), or its
	 * whole name where it has no such ending ("gemm_s" of "breakdown");
	 * adjacent columns of one group share the object.  A group may be a
	 * path of objects inside one another, "cost.cheapest" (rows and
	 * records; stream.h takes one level).  A missing value is null, as
	 * outside a group; an `absent` column leaves it out, so that the
	 * object lists what exists (and is empty when nothing does).  Where
	 * every cell of a group is itself `absent` (struct rep_cell), the
	 * object is left out.  NULL: no group.
	 */
	const char *group;
	enum rep_csv csv;
	enum rep_view view;
	int absent;         /* a missing value is left out of the row's JSON
			       object (a field only some rows have), not
			       null, and out of a record's field list
			       (record.h) */
};

/* A text column: contract name, title, the formats that show it (enum
 * rep_view) and whether JSON leaves a missing value out of its row. */
#define REP_TEXT_COL(name, title, view, absent) \
	{ name, title, REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, view, absent }

/* One cell: text for REP_COL_TEXT and REP_COL_FIGURE, num (or num != 0) for the others;
 * missing != 0 leaves it empty (CSV), null (JSON, or absent from a
 * group), the column's `zero` or "-" (table). */
struct rep_cell {
	const char *text; /* copied by rep_rows_add */
	double num;
	int missing;
	int absent;       /* missing, and left out of JSON and of a record's
			     field list whatever the column's `absent`: a
			     field that other rows have, even as null, and
			     this one lacks */
};

struct rep_rows {
	const struct rep_col *cols; /* borrowed: must outlive the rows */
	int ncols;
	struct rep_cell *cells;     /* owned, rows * ncols; texts point into text */
	char **text;                /* owned, rows * ncols copies (NULL: none) */
	size_t rows, cap;
	int failed;                 /* an allocation failed: printing returns -1 */
	const rep_word_fn *word;    /* borrowed: ncols wordings for the table and
				     * Markdown, each in place of its column's
				     * own text, even where the value is missing
				     * (NULL, or a NULL one: none) */
};

/* Columns of rows at most; a flat format shows at most REP_TABLE_MAX_COLS
 * of them (a record's JSON may have more fields than its CSV columns, and
 * its table lines of its own). */
#define REP_ROWS_MAX_COLS 320

/* Start empty rows under `ncols` (at most REP_ROWS_MAX_COLS) columns. */
void rep_rows_init(struct rep_rows *r, const struct rep_col *cols, int ncols);
/* Word the columns as words[0..ncols) say (borrowed: must outlive the
 * rows; a NULL one: the column's own text) in the table and Markdown. */
void rep_rows_words(struct rep_rows *r, const rep_word_fn *words);
/* Append one row of ncols cells. */
void rep_rows_add(struct rep_rows *r, const struct rep_cell *cells);
/* Write the rows as "table", "md" or "csv" (headers: titles, titles,
 * names), with the columns each of these formats shows (enum rep_view).  Returns 0, or -1 on
 * a failed allocation or a non-finite number (never printed). */
int rep_rows_print(const struct rep_rows *r, FILE *f, const char *fmt);
/* Write the rows into a JSON document as an array `key` of objects, one
 * field per column JSON shows (a non-finite number is
 * caught by rep_json_finish).
 * Returns 0, or -1 when an allocation failed (the array is then empty). */
int rep_rows_json(const struct rep_rows *r, struct rep_json *j, const char *key);
/* Write the rows in `fmt`, "json" as the array `key` of the document of
 * `command` (rep_json_doc_begin): a command whose output is one list.
 * Returns 0, or -1 on a failed allocation or a non-finite number. */
int rep_rows_write(const struct rep_rows *r, FILE *f, const char *fmt, const char *command,
		   const char *key);
void rep_rows_release(struct rep_rows *r);

/* Whether format fmt ("table", "md", "csv" or "json") shows a column of
 * view v. */
int rep_view_shows(enum rep_view v, const char *fmt);
/* The text of row i's cell in column c as the flat format fmt writes it
 * (the contract's value for "csv", the person's for "table" and "md"),
 * in buf of len bytes when it is a number.  Returns the text, or NULL for
 * a non-finite number. */
const char *rep_rows_text(const struct rep_rows *r, size_t i, int c, const char *fmt, char *buf,
			  size_t len);
/* Whether column c of r is worded (rep_rows_words). */
int rep_worded(const struct rep_rows *r, int c);
/* Row i's cell of the column `name` in group `group` (NULL: none), or
 * NULL when r has no such column: for a wording (rep_word_fn) that draws
 * on several fields. */
const struct rep_cell *rep_rows_field(const struct rep_rows *r, size_t i, const char *group,
				      const char *name);
/* The wording of row i's cell in worded column c (rep_rows_words)
 * for fmt ("table" or "md"), into title (the column's title, reworded or
 * not) and value, of REP_WORD_LEN bytes.  Returns as rep_word_fn. */
int rep_rows_word(const struct rep_rows *r, size_t i, int c, const char *fmt, char *title,
		  char *value);
/* Write row i's fields, those JSON shows, into the object open in j
 * (groups as objects of their own).  A non-finite number is caught by
 * rep_json_finish. */
void rep_rows_json_fields(const struct rep_rows *r, size_t i, struct rep_json *j);
/* Whether JSON and a record's field list leave cell v of column col
 * out (the cell's `absent`, or the column's for a missing value). */
int rep_cell_left_out(const struct rep_col *col, const struct rep_cell *v);
/* The length of the key of grouped column col inside its group's object:
 * its name less "_" and the group, or all of it. */
size_t rep_col_key_len(const struct rep_col *col);

/* The text of cell v of column col as the flat format fmt writes it, as
 * rep_rows_text gives a cell of rows: for a writer that holds no rows
 * (stream.h).  Returns the text (v's own for a text cell, else in buf of
 * len bytes), or NULL for a non-finite number. */
const char *rep_cell_text(const struct rep_col *col, const struct rep_cell *v, const char *fmt,
			  char *buf, size_t len);
/* Write cell v of column col into the object open in j under the
 * column's name, as rep_rows_json writes it (groups and `absent` are the
 * caller's: this writes one value).  A non-finite number is caught by
 * rep_json_finish. */
void rep_cell_json(struct rep_json *j, const struct rep_col *col, const struct rep_cell *v);

#endif
