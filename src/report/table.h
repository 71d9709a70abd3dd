/*
 * table.h - rows of text cells printed as an aligned table, CSV or Markdown.
 *
 * The writer owns copies of every cell.  Numbers are formatted by the caller
 * (with their units); this module only lays text out.
 */
#ifndef TC_REP_TABLE_H
#define TC_REP_TABLE_H

#include <stddef.h>
#include <stdio.h>

#define REP_TABLE_MAX_COLS 64

enum rep_align { REP_LEFT, REP_RIGHT };

struct rep_table {
	int ncols;
	const char *header[REP_TABLE_MAX_COLS]; /* borrowed: string literals */
	enum rep_align align[REP_TABLE_MAX_COLS];
	unsigned char raw[REP_TABLE_MAX_COLS]; /* the column's cells are already as
						* the format shows them (rep_show,
						* or a wording of its own): printed
						* as given, not escaped (0: escaped) */
	char **cells;  /* owned: rows * ncols strings, row-major */
	size_t rows, cap;
	int failed;    /* an allocation failed: rep_table_print returns -1 */
};

/* Start a table with `ncols` columns (headers borrowed, must outlive it). */
void rep_table_init(struct rep_table *t, int ncols, const char *const *header,
		    const enum rep_align *align);
/* Append a row of ncols cells, each printf-formatted separately: pass the
 * already formatted strings. */
void rep_table_row(struct rep_table *t, const char *const *cells);
/* Print as aligned text (fmt "table"), "csv" or "md".  Returns 0 or -1. */
int rep_table_print(const struct rep_table *t, FILE *f, const char *fmt);
void rep_table_release(struct rep_table *t);

/*
 * `s` as a text ("table") or Markdown ("md") report shows it: control,
 * bidi and zero-width characters as \uXXXX, Markdown's special characters
 * escaped in "md" (tc_utf8_escape); written into buf (cut with "..." when
 * it does not fit).  Returns buf.  Every user-supplied string printed in a
 * text or Markdown report goes through here or through rep_table_print.
 */
const char *rep_show(char *buf, size_t size, const char *s, const char *fmt);

/* Print one CSV field with RFC 4180 quoting. */
void rep_csv_field(FILE *f, const char *s);

#endif
