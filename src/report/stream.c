/*
 * stream.c - rows written one at a time (stream.h).  A cell's text
 * depends only on its value, so rows formatted by any thread in any order
 * give the same bytes.
 */
#include "stream.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../util/utf8.h"
#include "rowfmt.h"

/* Room for the text of a number cell with the longest unit a column names. */
#define NUM_TEXT_MAX (ROWFMT_MAX + 96)

void rep_buf_put(struct rep_buf *b, const char *s, size_t n)
{
	if (b->len + n >= b->cap)
		n = b->cap - b->len - 1; /* cut */
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void put_char(struct rep_buf *b, char c)
{
	if (b->len + 1 < b->cap)
		b->p[b->len++] = c;
}

static void put_spaces(struct rep_buf *b, int n)
{
	while (n-- > 0)
		put_char(b, ' ');
}

/* Whether a column's cells are text (rows.h). */
static int is_text(const struct rep_col *col)
{
	return col->kind == REP_COL_TEXT || col->kind == REP_COL_FIGURE;
}

/* Whether cell v has no value (rows.h: an absent one is missing too). */
static int no_value(const struct rep_cell *v)
{
	return v->missing || v->absent;
}

/* The length of a text as a cell keeps it. */
static size_t kept_len(const char *s)
{
	size_t n = strlen(s);
	return n > REP_STREAM_TEXT_MAX ? REP_STREAM_TEXT_MAX : n;
}

/* Display width of UTF-8 text: characters, not bytes. */
static int text_width(const char *s, size_t n)
{
	int w = 0;
	for (size_t i = 0; i < n; i++)
		w += ((unsigned char)s[i] & 0xC0) != 0x80;
	return w;
}

/* s as a table (TC_ESC_TEXT) or Markdown cell shows it, into e (of
 * TC_ESC_SIZE(REP_STREAM_TEXT_MAX) bytes).  Returns its length. */
static size_t shown_text(const struct rep_stream *s, const char *t, char *e, size_t size)
{
	return tc_utf8_escape(t, kept_len(t), e, size,
			      s->fmt == REP_STREAM_MD ? TC_ESC_MD : TC_ESC_TEXT);
}

void rep_stream_init(struct rep_stream *s, const struct rep_col *cols, int ncols, const char *fmt)
{
	char e[TC_ESC_SIZE(REP_STREAM_TEXT_MAX)];
	int at = -2; /* where the previous column ended, less the gap */

	assert(ncols > 0 && ncols <= REP_STREAM_MAX_COLS);
	memset(s, 0, sizeof(*s));
	s->cols = cols;
	s->ncols = ncols;
	s->fmt_name = fmt;
	s->fmt = !strcmp(fmt, "json") ? REP_STREAM_JSON : !strcmp(fmt, "table") ? REP_STREAM_TABLE :
		 !strcmp(fmt, "md") ? REP_STREAM_MD : REP_STREAM_CSV;
	for (int c = 0; c < ncols; c++) {
		const struct rep_col *col = &cols[c];
		s->shown[c] = (unsigned char)rep_view_shows(col->view, fmt);
		if (!s->shown[c])
			continue;
		int w = col->kind == REP_COL_COUNT || col->kind == REP_COL_BOOL ? REP_STREAM_SHORT
										   : REP_STREAM_WIDTH;
		int title = text_width(e, shown_text(s, col->title, e, sizeof(e)));
		s->start[c] = at + 2;
		s->end[c] = s->start[c] + (title > w ? title : w);
		at = s->end[c];
	}
}

int rep_stream_words(const struct rep_stream *s)
{
	return s->fmt == REP_STREAM_TABLE || s->fmt == REP_STREAM_MD;
}

void rep_stream_json_text(struct rep_buf *b, const char *s, size_t n)
{
	put_char(b, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			put_char(b, '\\');
			put_char(b, (char)c);
		} else if (c < 0x20) {
			char esc[8];
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			rep_buf_put(b, esc, 6);
		} else {
			put_char(b, (char)c);
		}
	}
	put_char(b, '"');
}

/* A CSV field with RFC 4180 quoting. */
static void csv_text(struct rep_buf *b, const char *s)
{
	size_t n = kept_len(s);
	if (!strpbrk(s, ",\"\r\n")) {
		rep_buf_put(b, s, n);
		return;
	}
	put_char(b, '"');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			put_char(b, '"');
		put_char(b, s[i]);
	}
	put_char(b, '"');
}

/* The text CSV and JSON give number (or truth) cell v of column col, as
 * rep_cell_text does, without printf for the common kinds; in buf of
 * NUM_TEXT_MAX bytes.  Returns it, or NULL for a non-finite number. */
static const char *data_number(const struct rep_col *col, const struct rep_cell *v, char *buf)
{
	if (col->kind == REP_COL_COUNT && v->num >= 0 && v->num < 9007199254740992.0 &&
	    v->num == floor(v->num)) {
		rowfmt_u64(buf, (uint64_t)v->num);
		return buf;
	}
	if (col->kind != REP_COL_COUNT && col->kind != REP_COL_BOOL && col->csv == REP_CSV_SIG6 &&
	    isfinite(v->num)) {
		rowfmt_g6(buf, v->num);
		return buf;
	}
	return rep_cell_text(col, v, "csv", buf, NUM_TEXT_MAX);
}

static int csv_row(const struct rep_stream *s, const struct rep_cell *cells, struct rep_buf *b)
{
	int first = 1;
	for (int c = 0; c < s->ncols; c++) {
		const struct rep_cell *v = &cells[c];
		char num[NUM_TEXT_MAX];
		if (!s->shown[c])
			continue;
		if (!first)
			put_char(b, ',');
		first = 0;
		if (no_value(v))
			continue;
		if (is_text(&s->cols[c])) {
			csv_text(b, v->text);
			continue;
		}
		const char *t = data_number(&s->cols[c], v, num);
		if (!t)
			return -1;
		rep_buf_put(b, t, strlen(t));
	}
	put_char(b, '\n');
	return 0;
}

/* `"key":` after the comma that separates it from the count-th field
 * before it. */
static void json_key(struct rep_buf *b, int *count, const char *key, size_t n)
{
	if ((*count)++)
		put_char(b, ',');
	rep_stream_json_text(b, key, n);
	put_char(b, ':');
}

static int json_value(struct rep_buf *b, const struct rep_col *col, const struct rep_cell *v)
{
	char num[NUM_TEXT_MAX];
	if (no_value(v)) {
		rep_buf_put(b, "null", 4);
		return 0;
	}
	if (is_text(col)) {
		rep_stream_json_text(b, v->text, kept_len(v->text));
		return 0;
	}
	const char *t = data_number(col, v, num);
	if (!t)
		return -1;
	rep_buf_put(b, t, strlen(t));
	return 0;
}

static int json_row(const struct rep_stream *s, const struct rep_cell *cells, struct rep_buf *b)
{
	const char *open = NULL; /* the group whose object is open */
	int outer = 0, inner = 0; /* fields written in the row and in the group */
	put_char(b, '{');
	for (int c = 0; c < s->ncols; c++) {
		const struct rep_col *col = &s->cols[c];
		if (!s->shown[c] || cells[c].absent)
			continue;
		if (open && (!col->group || strcmp(col->group, open))) {
			put_char(b, '}');
			open = NULL;
		}
		if (col->group && !open) {
			json_key(b, &outer, col->group, strlen(col->group));
			put_char(b, '{');
			open = col->group;
			inner = 0;
		}
		if (rep_cell_left_out(col, &cells[c]))
			continue; /* its group, open, lists what exists */
		if (col->group)
			json_key(b, &inner, col->name, rep_col_key_len(col));
		else
			json_key(b, &outer, col->name, strlen(col->name));
		if (json_value(b, col, &cells[c]))
			return -1;
	}
	if (open)
		put_char(b, '}');
	put_char(b, '}');
	return 0;
}

/*
 * Append text t (n bytes, as shown) as a table cell of column c: at its
 * column's place, or as near after the line so far (*pos characters) as
 * the gap between columns allows.  An empty cell writes nothing, so a
 * line ends at its last text.
 */
static void table_cell(const struct rep_stream *s, int c, const char *t, size_t n,
		       struct rep_buf *b, int *pos)
{
	int w = text_width(t, n);
	if (!n)
		return;
	int at = s->cols[c].kind == REP_COL_TEXT ? s->start[c] : s->end[c] - w;
	if (at < (*pos ? *pos + 2 : 0))
		at = *pos ? *pos + 2 : 0;
	put_spaces(b, at - *pos);
	rep_buf_put(b, t, n);
	*pos = at + w;
}

/* Append t as a cell of column c in the table or Markdown. */
static void shown_cell(const struct rep_stream *s, int c, const char *t, struct rep_buf *b,
		       int *pos)
{
	char e[TC_ESC_SIZE(REP_STREAM_TEXT_MAX)];
	size_t n = shown_text(s, t, e, sizeof(e));
	if (s->fmt == REP_STREAM_TABLE) {
		table_cell(s, c, e, n, b, pos);
		return;
	}
	put_char(b, ' ');
	rep_buf_put(b, e, n);
	rep_buf_put(b, " |", 2);
}

static int text_row(const struct rep_stream *s, const struct rep_cell *cells, struct rep_buf *b)
{
	int pos = 0;
	if (s->fmt == REP_STREAM_MD)
		put_char(b, '|');
	for (int c = 0; c < s->ncols; c++) {
		char num[NUM_TEXT_MAX];
		if (!s->shown[c])
			continue;
		const char *t = rep_cell_text(&s->cols[c], &cells[c], s->fmt_name, num, sizeof(num));
		if (!t)
			return -1;
		shown_cell(s, c, t, b, &pos);
	}
	put_char(b, '\n');
	return 0;
}

int rep_stream_row(const struct rep_stream *s, const struct rep_cell *cells, struct rep_buf *b)
{
	switch (s->fmt) {
	case REP_STREAM_CSV: return csv_row(s, cells, b);
	case REP_STREAM_JSON: return json_row(s, cells, b);
	case REP_STREAM_TABLE:
	case REP_STREAM_MD: break;
	}
	return text_row(s, cells, b);
}

void rep_stream_head(const struct rep_stream *s, struct rep_buf *b)
{
	int pos = 0, first = 1;
	if (s->fmt == REP_STREAM_JSON)
		return;
	if (s->fmt == REP_STREAM_MD)
		put_char(b, '|');
	for (int c = 0; c < s->ncols; c++) {
		if (!s->shown[c])
			continue;
		if (s->fmt != REP_STREAM_CSV) {
			shown_cell(s, c, s->cols[c].title, b, &pos);
			continue;
		}
		if (!first)
			put_char(b, ',');
		first = 0;
		csv_text(b, s->cols[c].name);
	}
	put_char(b, '\n');
	if (s->fmt != REP_STREAM_MD)
		return;
	put_char(b, '|');
	for (int c = 0; c < s->ncols; c++)
		if (s->shown[c])
			rep_buf_put(b, s->cols[c].kind == REP_COL_TEXT ? " --- |" : " ---: |",
			    s->cols[c].kind == REP_COL_TEXT ? 6 : 7);
	put_char(b, '\n');
}
