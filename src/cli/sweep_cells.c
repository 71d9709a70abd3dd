/*
 * sweep_cells.c - the cells of one row of `traincost sweep` output: CSV
 * quoting, JSON keys and escapes, padded table cells and Markdown pipes
 * (sweep_cells.h).  A cell's text depends only on its value, so every
 * --jobs gives the same bytes.
 */
#include "sweep_cells.h"

#include <stdio.h>
#include <string.h>

#include "../report/rowfmt.h"
#include "../util/utf8.h"

#define TABLE_W 14 /* table cell width */

void cells_put(struct rowbuf *r, const char *s, size_t n)
{
	if (r->len + n >= r->cap)
		n = r->cap - r->len - 1; /* capped; never reached with ROW_MAX_BYTES */
	memcpy(r->p + r->len, s, n);
	r->len += n;
}

void cells_putc(struct rowbuf *r, char c)
{
	if (r->len + 1 < r->cap)
		r->p[r->len++] = c;
}

/* The JSON key of a cell, after the comma that separates it from the
 * previous one: `,"name":`. */
static void json_key(struct rowbuf *r, const char *name)
{
	if (r->col)
		cells_putc(r, ',');
	cells_putc(r, '"');
	cells_put(r, name, strlen(name));
	cells_put(r, "\":", 2);
}

/* A text cell; `name` is the column (JSON key). */
void cells_text(struct rowbuf *r, const char *name, const char *s)
{
	size_t n = strlen(s);
	if (n > 1000)
		n = 1000;
	switch (r->fmt) {
	case FMT_CSV:
		if (r->col)
			cells_putc(r, ',');
		if (strpbrk(s, ",\"\r\n")) {
			cells_putc(r, '"');
			for (size_t i = 0; i < n; i++) {
				if (s[i] == '"')
					cells_putc(r, '"');
				cells_putc(r, s[i]);
			}
			cells_putc(r, '"');
		} else {
			cells_put(r, s, n);
		}
		break;
	case FMT_JSON:
		json_key(r, name);
		if (!s[0]) { /* no value: no result, no offer, no reason */
			cells_put(r, "null", 4);
			break;
		}
		cells_putc(r, '"');
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)s[i];
			if (c == '"' || c == '\\') {
				cells_putc(r, '\\');
				cells_putc(r, (char)c);
			} else if (c < 0x20) {
				char esc[8];
				snprintf(esc, sizeof(esc), "\\u%04x", c);
				cells_put(r, esc, 6);
			} else {
				cells_putc(r, (char)c);
			}
		}
		cells_putc(r, '"');
		break;
	case FMT_TABLE: {
		/* Line breaks, terminal escapes and bidi overrides shown as
		 * \uXXXX (the 1000 bytes kept above fit escaped). */
		char e[TC_ESC_SIZE(1000)];
		size_t w = tc_utf8_escape(s, n, e, sizeof(e), TC_ESC_TEXT);
		if (r->col)
			cells_putc(r, ' ');
		cells_put(r, e, w);
		for (; w < TABLE_W; w++)
			cells_putc(r, ' ');
		break;
	}
	case FMT_MD: {
		char e[TC_ESC_SIZE(1000)];
		size_t w = tc_utf8_escape(s, n, e, sizeof(e), TC_ESC_MD);
		cells_put(r, r->col ? " | " : "| ", r->col ? 3 : 2);
		cells_put(r, e, w);
		break;
	}
	}
	r->col++;
}

/* A cell of n bytes that needs no quoting or escaping in CSV or a table
 * (a number); JSON text cells still go through cells_text(). */
void cells_plain(struct rowbuf *r, const char *name, const char *s,
		 size_t n)
{
	size_t w;

	if (r->fmt == FMT_JSON) {
		cells_text(r, name, s);
		return;
	}
	if (r->fmt == FMT_MD)
		cells_put(r, r->col ? " | " : "| ", r->col ? 3 : 2);
	else if (r->col)
		cells_putc(r, r->fmt == FMT_CSV ? ',' : ' ');
	cells_put(r, s, n);
	if (r->fmt == FMT_TABLE)
		for (w = n; w < TABLE_W; w++)
			cells_putc(r, ' ');
	r->col++;
}

/* A number cell, or an empty cell (JSON null) when !have. */
void cells_num(struct rowbuf *r, const char *name, double v, int have)
{
	char b[ROWFMT_MAX];
	int n;

	if (!have) {
		if (r->fmt == FMT_JSON) {
			json_key(r, name);
			cells_put(r, "null", 4);
			r->col++;
		} else {
			cells_text(r, name, r->fmt == FMT_TABLE ? "-" : "");
		}
		return;
	}
	n = rowfmt_g6(b, v);
	if (r->fmt == FMT_JSON) {
		json_key(r, name);
		cells_put(r, b, (size_t)n);
		r->col++;
	} else {
		cells_plain(r, name, b, (size_t)n);
	}
}

void cells_bool(struct rowbuf *r, const char *name, int v, int have)
{
	if (r->fmt == FMT_JSON) {
		json_key(r, name);
		cells_put(r, !have ? "null" : v ? "true" : "false", !have ? 4 : v ? 4 : 5);
		r->col++;
	} else {
		cells_text(r, name, !have ? (r->fmt == FMT_TABLE ? "-" : "") : v ? "true" : "false");
	}
}
