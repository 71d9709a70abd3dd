/*
 * md_html.c - the Markdown of `--format md` as HTML (md_html.h).
 */
#include "md_html.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MD_MAX_COLS 64    /* columns of a table */
#define MD_CELL_LEN 1024  /* bytes of one cell */
#define MD_UNIT_LEN 16    /* bytes of a unit lifted into a header */

/* One line of md: [s, s + len). */
struct md_line {
	const char *s;
	size_t len;
};

/* Text escaped for HTML: s[0..len-1]. */
static void put_text(struct xmlbuf *b, const char *s, size_t len)
{
	char buf[MD_CELL_LEN];
	while (len) {
		size_t n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;
		while (n < len && n > 1 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--; /* a piece ends between UTF-8 sequences */
		memcpy(buf, s, n);
		buf[n] = '\0';
		xmlbuf_text(b, buf);
		s += n;
		len -= n;
	}
}

/* Inline Markdown of s[0..len-1]: backslash escapes, `code`, **bold**. */
static void put_inline(struct xmlbuf *b, const char *s, size_t len)
{
	int code = 0, bold = 0;
	size_t from = 0;
	for (size_t i = 0; i < len; i++) {
		const char *tag = NULL;
		size_t skip = 1;
		if (s[i] == '\\' && i + 1 < len && ispunct((unsigned char)s[i + 1]) && !code) {
			put_text(b, s + from, i - from);
			from = ++i; /* the escaped character is plain text */
			continue;
		}
		if (s[i] == '`') {
			tag = code ? "</code>" : "<code>";
			code = !code;
		} else if (!code && s[i] == '*' && i + 1 < len && s[i + 1] == '*') {
			tag = bold ? "</strong>" : "<strong>";
			bold = !bold;
			skip = 2;
		}
		if (!tag)
			continue;
		put_text(b, s + from, i - from);
		xmlbuf_raw(b, tag);
		i += skip - 1;
		from = i + 1;
	}
	put_text(b, s + from, len - from);
	if (code)
		xmlbuf_raw(b, "</code>");
	if (bold)
		xmlbuf_raw(b, "</strong>");
}

/* The cells of table row l into cells[] (trimmed, escapes kept); returns
 * how many (at most MD_MAX_COLS). */
static int split_row(const struct md_line *l, struct md_line *cells)
{
	const char *p = l->s, *end = l->s + l->len;
	int n = 0;
	if (p < end && *p == '|')
		p++;
	while (p < end && n < MD_MAX_COLS) {
		const char *c = p;
		while (p < end && !(*p == '|' && (p == c || p[-1] != '\\')))
			p++;
		const char *ce = p;
		while (c < ce && *c == ' ')
			c++;
		while (ce > c && ce[-1] == ' ')
			ce--;
		if (p == end && c == ce)
			break; /* after the closing '|' */
		cells[n++] = (struct md_line){ c, (size_t)(ce - c) };
		if (p < end)
			p++;
	}
	return n;
}

/* 1 when l is a table's separator row (| --- | ---: |). */
static int is_separator(const struct md_line *l)
{
	if (!l->len || l->s[0] != '|')
		return 0;
	for (size_t i = 0; i < l->len; i++)
		if (!strchr("|-: ", l->s[i]))
			return 0;
	return 1;
}

/*
 * A number with a unit: "$" and digits, or digits, a space and one word
 * ("4.2 GB", "12 %").  Writes the unit (with a leading '$' when the money
 * sign came first) and the number's bounds; returns 1, or 0 when c is not
 * such a cell.
 */
static int split_unit(const struct md_line *c, char *unit, size_t *num_from, size_t *num_len)
{
	size_t i = 0, start;
	int money = c->len && c->s[0] == '$';
	i += (size_t)money;
	start = i;
	if (i < c->len && (c->s[i] == '-' || c->s[i] == '+'))
		i++;
	if (i >= c->len || !isdigit((unsigned char)c->s[i]))
		return 0;
	while (i < c->len && (isdigit((unsigned char)c->s[i]) || c->s[i] == ',' || c->s[i] == '.'))
		i++;
	*num_from = start;
	*num_len = i - start;
	if (i == c->len) {
		snprintf(unit, MD_UNIT_LEN, "%s", money ? "$" : "");
		return 1;
	}
	if (money || c->s[i] != ' ' || c->len - i - 1 >= MD_UNIT_LEN - 1)
		return 0;
	for (size_t k = i + 1; k < c->len; k++)
		if (c->s[k] == ' ' || c->s[k] == '\\')
			return 0;
	snprintf(unit, MD_UNIT_LEN, "%.*s", (int)(c->len - i - 1), c->s + i + 1);
	return 1;
}

/* 1 for a cell that says "no value" ("", "-"). */
static int is_blank(const struct md_line *c)
{
	return !c->len || (c->len == 1 && c->s[0] == '-');
}

/* The unit every cell of column `col` of rows[1..n-1] carries, into unit;
 * returns 1, or 0 when they differ or none has one. */
static int column_unit(const struct md_line *rows, size_t n, int col, char *unit)
{
	int seen = 0;
	for (size_t r = 1; r < n; r++) {
		struct md_line cells[MD_MAX_COLS];
		char u[MD_UNIT_LEN];
		size_t from, len;
		int nc = split_row(&rows[r], cells);
		if (col >= nc || is_blank(&cells[col]))
			continue;
		if (!split_unit(&cells[col], u, &from, &len) || (seen && strcmp(u, unit)))
			return 0;
		memcpy(unit, u, sizeof(u));
		seen = 1;
	}
	return seen && unit[0];
}

/* A table: rows[0] its header, rows[1] its separator, then its body. */
static void put_table(struct xmlbuf *b, const struct md_line *rows, size_t n)
{
	struct md_line head[MD_MAX_COLS], sep[MD_MAX_COLS];
	char unit[MD_MAX_COLS][MD_UNIT_LEN];
	int num[MD_MAX_COLS], lifted[MD_MAX_COLS];
	int ncols = split_row(&rows[0], head), nsep = split_row(&rows[1], sep);
	for (int c = 0; c < ncols; c++) {
		num[c] = c < nsep && sep[c].len && sep[c].s[sep[c].len - 1] == ':';
		unit[c][0] = '\0';
		lifted[c] = num[c] && column_unit(rows + 1, n - 1, c, unit[c]);
	}
	xmlbuf_raw(b, "<div class=\"table\"><table class=\"data\">\n<thead><tr>");
	for (int c = 0; c < ncols; c++) {
		xmlbuf_raw(b, num[c] ? "<th class=\"num\">" : "<th>");
		put_inline(b, head[c].s, head[c].len);
		if (lifted[c]) {
			xmlbuf_raw(b, " (");
			xmlbuf_text(b, unit[c]);
			xmlbuf_raw(b, ")");
		}
		xmlbuf_raw(b, "</th>");
	}
	xmlbuf_raw(b, "</tr></thead>\n<tbody>\n");
	for (size_t r = 2; r < n; r++) {
		struct md_line cells[MD_MAX_COLS];
		int nc = split_row(&rows[r], cells);
		xmlbuf_raw(b, "<tr>");
		for (int c = 0; c < ncols; c++) {
			struct md_line v = c < nc ? cells[c] : (struct md_line){ "", 0 };
			char u[MD_UNIT_LEN];
			size_t from, len;
			xmlbuf_raw(b, num[c] ? "<td class=\"num\">" : "<td>");
			if (lifted[c] && !is_blank(&v) && split_unit(&v, u, &from, &len))
				v = (struct md_line){ v.s + from, len };
			put_inline(b, v.s, v.len);
			xmlbuf_raw(b, "</td>");
		}
		xmlbuf_raw(b, "</tr>\n");
	}
	xmlbuf_raw(b, "</tbody></table></div>\n");
}

/* The lines of md into *lines (owned), *n of them; -1 when out of memory. */
static int split_lines(const char *md, struct md_line **lines, size_t *n)
{
	size_t cap = 16;
	*n = 0;
	*lines = malloc(cap * sizeof(**lines));
	if (!*lines)
		return -1;
	for (const char *p = md; *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (*n == cap) {
			struct md_line *g = realloc(*lines, 2 * cap * sizeof(**lines));
			if (!g) {
				free(*lines);
				*lines = NULL;
				return -1;
			}
			*lines = g;
			cap *= 2;
		}
		(*lines)[(*n)++] = (struct md_line){ p, len };
		p += len + (e != NULL);
	}
	return 0;
}

void rep_md_html(struct xmlbuf *b, const char *md)
{
	struct md_line *l;
	size_t n;
	const char *open = NULL; /* the closing tag of the open block */
	if (split_lines(md, &l, &n)) {
		b->oom = 1;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct md_line *x = &l[i];
		int table = i + 1 < n && x->len && x->s[0] == '|' && is_separator(&l[i + 1]);
		int item = x->len >= 2 && !memcmp(x->s, "- ", 2);
		int heading = x->len && x->s[0] == '#';
		if (open && (!x->len || table || heading || item != !strcmp(open, "</li></ul>\n"))) {
			xmlbuf_raw(b, open);
			open = NULL;
		}
		if (!x->len)
			continue;
		if (table) {
			size_t e = i + 2;
			while (e < n && l[e].len && l[e].s[0] == '|')
				e++;
			put_table(b, l + i, e - i);
			i = e - 1;
		} else if (heading) {
			size_t k = 0;
			while (k < x->len && (x->s[k] == '#' || x->s[k] == ' '))
				k++;
			xmlbuf_raw(b, "<h3>");
			put_inline(b, x->s + k, x->len - k);
			xmlbuf_raw(b, "</h3>\n");
		} else if (item) {
			xmlbuf_raw(b, open ? "</li>\n<li>" : "<ul><li>");
			open = "</li></ul>\n";
			put_inline(b, x->s + 2, x->len - 2);
		} else {
			xmlbuf_raw(b, open ? "\n" : "<p>");
			open = "</p>\n";
			put_inline(b, x->s, x->len);
		}
	}
	if (open)
		xmlbuf_raw(b, open);
	free(l);
}
