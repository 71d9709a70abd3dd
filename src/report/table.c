/*
 * table.c - aligned text, CSV and Markdown tables (see table.h).
 */
#include "table.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../util/utf8.h"

void rep_table_init(struct rep_table *t, int ncols, const char *const *header,
		    const enum rep_align *align)
{
	assert(ncols > 0 && ncols <= REP_TABLE_MAX_COLS); /* a CSV header is never cut */
	memset(t, 0, sizeof(*t));
	t->ncols = ncols > REP_TABLE_MAX_COLS ? REP_TABLE_MAX_COLS : ncols;
	for (int c = 0; c < t->ncols; c++) {
		t->header[c] = header[c];
		t->align[c] = align ? align[c] : REP_LEFT;
	}
}

void rep_table_row(struct rep_table *t, const char *const *cells)
{
	if (t->failed)
		return;
	if (t->rows == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 16;
		char **nc = realloc(t->cells, ncap * (size_t)t->ncols * sizeof(*nc));
		if (!nc) {
			t->failed = 1;
			return;
		}
		t->cells = nc;
		t->cap = ncap;
	}
	char **row = t->cells + t->rows * (size_t)t->ncols;
	for (int c = 0; c < t->ncols; c++) {
		row[c] = strdup(cells[c] ? cells[c] : "");
		if (!row[c]) {
			while (c-- > 0)
				free(row[c]);
			t->failed = 1;
			return;
		}
	}
	t->rows++;
}

void rep_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* Display width of UTF-8 text: count characters, not bytes. */
static size_t text_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

static void pad(FILE *f, size_t n)
{
	while (n--)
		fputc(' ', f);
}

static void print_text(const struct rep_table *t, FILE *f)
{
	size_t width[REP_TABLE_MAX_COLS];
	for (int c = 0; c < t->ncols; c++) {
		width[c] = text_width(t->header[c]);
		for (size_t r = 0; r < t->rows; r++) {
			size_t w = text_width(t->cells[r * (size_t)t->ncols + (size_t)c]);
			if (w > width[c])
				width[c] = w;
		}
	}
	for (size_t r = 0; r <= t->rows; r++) {
		const char *const *line = r == 0 ? t->header
						 : (const char *const *)&t->cells[(r - 1) * (size_t)t->ncols];
		/* A line ends at its last text: empty cells after it (a note
		 * most rows lack) leave no trailing spaces. */
		int end = t->ncols - 1;
		while (end > 0 && !line[end][0])
			end--;
		for (int c = 0; c <= end; c++) {
			const char *s = line[c];
			size_t gap = width[c] - text_width(s);
			int last = c == end;
			if (t->align[c] == REP_RIGHT)
				pad(f, gap);
			fputs(s, f);
			if (t->align[c] == REP_LEFT && !last)
				pad(f, gap);
			if (!last)
				fputs("  ", f);
		}
		fputc('\n', f);
	}
}

static void print_csv(const struct rep_table *t, FILE *f)
{
	for (size_t r = 0; r <= t->rows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			if (c)
				fputc(',', f);
			rep_csv_field(f, r == 0 ? t->header[c]
					       : t->cells[(r - 1) * (size_t)t->ncols + (size_t)c]);
		}
		fputc('\n', f);
	}
}

static void print_md(const struct rep_table *t, FILE *f)
{
	for (size_t r = 0; r <= t->rows; r++) {
		fputc('|', f);
		for (int c = 0; c < t->ncols; c++) {
			fputc(' ', f);
			fputs(r == 0 ? t->header[c]
				     : t->cells[(r - 1) * (size_t)t->ncols + (size_t)c], f);
			fputs(" |", f);
		}
		fputc('\n', f);
		if (r == 0) {
			fputc('|', f);
			for (int c = 0; c < t->ncols; c++)
				fputs(t->align[c] == REP_RIGHT ? " ---: |" : " --- |", f);
			fputc('\n', f);
		}
	}
}

const char *rep_show(char *buf, size_t size, const char *s, const char *fmt)
{
	tc_utf8_escape(s, s ? strlen(s) : 0, buf, size,
		       strcmp(fmt, "md") ? TC_ESC_TEXT : TC_ESC_MD);
	return buf;
}

/*
 * A copy of t with its headers and cells as the text or Markdown output
 * shows them (rep_show, never cut; the cells of a `raw` column as they
 * are).  Returns 0 or -1 when out of memory;
 * release with rep_table_release.
 */
static int shown_copy(const struct rep_table *t, struct rep_table *v, const char *fmt,
		      char **hdr)
{
	size_t n = t->rows * (size_t)t->ncols;

	*v = *t;
	v->cells = calloc(n ? n : 1, sizeof(*v->cells));
	if (!v->cells) {
		v->rows = 0;
		return -1;
	}
	v->cap = t->rows;
	for (size_t i = 0; i < n + (size_t)t->ncols; i++) {
		const char *s = i < n ? t->cells[i] : t->header[i - n];
		int raw = i < n && t->raw[i % (size_t)t->ncols];
		size_t size = raw ? strlen(s) + 1 : TC_ESC_SIZE(strlen(s));
		char *e = malloc(size);
		if (!e)
			return -1;
		if (raw)
			memcpy(e, s, size);
		else
			rep_show(e, size, s, fmt);
		if (i < n)
			v->cells[i] = e;
		else
			v->header[i - n] = hdr[i - n] = e;
	}
	return 0;
}

int rep_table_print(const struct rep_table *t, FILE *f, const char *fmt)
{
	struct rep_table v;
	char *hdr[REP_TABLE_MAX_COLS] = { 0 };
	int rc = 0;

	if (t->failed)
		return -1;
	if (!strcmp(fmt, "csv")) {
		print_csv(t, f);
		return 0;
	}
	if (shown_copy(t, &v, fmt, hdr))
		rc = -1;
	else if (!strcmp(fmt, "md"))
		print_md(&v, f);
	else
		print_text(&v, f);
	for (int c = 0; c < t->ncols; c++)
		free(hdr[c]);
	rep_table_release(&v);
	return rc;
}

void rep_table_release(struct rep_table *t)
{
	for (size_t i = 0; i < t->rows * (size_t)t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}
