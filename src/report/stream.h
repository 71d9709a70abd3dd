/*
 * stream.h - rows written one at a time, as they are made, under the one
 * description of their columns that rows.h gives: for an output too long
 * to hold (a sweep's millions of rows), formatted by threads into buffers
 * of their own and written in order.
 *
 * The formats of rows.h, a line at a time:
 *   csv    a header row of names, then a line per row, as rep_rows_print;
 *   json   an object per row on one line (the caller opens the document
 *          and separates the rows), groups as objects inside it; numbers
 *          with the digits CSV gives them, so that a row costs the same
 *          in both;
 *   table  titles and cells at fixed places, since the widths of the rows
 *          to come are unknown: a column as wide as its title, or
 *          REP_STREAM_WIDTH (REP_STREAM_SHORT for counts and truth
 *          values); numbers right-aligned; a cell too long pushes the
 *          next only as far as it must; a line ends at its last text;
 *   md     a Markdown table of the same titles and cells.
 * A text is cut at REP_STREAM_TEXT_MAX bytes, a row at its buffer.  The
 * key of a grouped column in JSON is its name less "_group", as rows.h
 * says, or its whole name where it has no such ending (a sweep's varied
 * path "plan.gpu" in "inputs"); a group is one object here, not a path
 * of them, and a missing value in it is null unless its column is
 * `absent`, as rows.h says.
 */
#ifndef TC_REP_STREAM_H
#define TC_REP_STREAM_H

#include <stddef.h>

#include "rows.h"

#define REP_STREAM_WIDTH 14    /* table: the width of a column of text or numbers */
#define REP_STREAM_SHORT 6     /* ... of counts and truth values */
#define REP_STREAM_TEXT_MAX 1000 /* bytes of a text kept in a cell */
#define REP_STREAM_MAX_COLS 64   /* columns of a row */

enum rep_stream_fmt { REP_STREAM_CSV, REP_STREAM_JSON, REP_STREAM_TABLE, REP_STREAM_MD };

/* The text of a row or a header being written: what does not fit in cap
 * bytes is cut. */
struct rep_buf {
	char *p;      /* borrowed: cap bytes */
	size_t len, cap;
};

struct rep_stream {
	const struct rep_col *cols; /* borrowed: must outlive the stream */
	int ncols;
	enum rep_stream_fmt fmt;
	const char *fmt_name;       /* "csv", "json", "table" or "md" (borrowed) */
	unsigned char shown[REP_STREAM_MAX_COLS]; /* the columns fmt shows */
	int start[REP_STREAM_MAX_COLS], end[REP_STREAM_MAX_COLS]; /* table: where each
								   * column starts and ends */
};

/* Start writing rows of cols (ncols of them, at most REP_STREAM_MAX_COLS)
 * in fmt: "csv", "json", "table" or "md". */
void rep_stream_init(struct rep_stream *s, const struct rep_col *cols, int ncols, const char *fmt);
/* Whether the stream's format is one for people (table, Markdown): where
 * the cells of REP_VIEW_TEXT columns are worth wording. */
int rep_stream_words(const struct rep_stream *s);
/* Append the header to b: names (CSV), titles (table), titles and the
 * alignment row (Markdown), each line ending in a newline; nothing for
 * JSON. */
void rep_stream_head(const struct rep_stream *s, struct rep_buf *b);
/* Append one row of ncols cells to b: a line (CSV, table, Markdown) or an
 * object without a newline (JSON).  Returns 0, or -1 for a non-finite
 * number (b then holds part of the row). */
int rep_stream_row(const struct rep_stream *s, const struct rep_cell *cells, struct rep_buf *b);
/* Append s[0..n) to b as it is. */
void rep_buf_put(struct rep_buf *b, const char *s, size_t n);
/* Append s[0..n) to b as a JSON string (for the fields of a document
 * around the rows). */
void rep_stream_json_text(struct rep_buf *b, const char *s, size_t n);

#endif
