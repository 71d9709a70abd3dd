/*
 * fuzz_escape.c - libFuzzer harness for the writers of user text: the one
 * escaper (tc_utf8_escape) and the text and Markdown tables built on it
 * (rep_table_print).  The first byte chooses the mode and an output size;
 * the rest is the text, NUL bytes included.
 *
 * Checked: the output is valid UTF-8 with no control, bidi or zero-width
 * character and no unescaped Markdown special in md; with room for it,
 * unescaping gives the input back exactly; when cut, it fits and ends with
 * "..."; a table has one line per row (plus the header and, in Markdown,
 * the rule), whatever its cells hold.
 */
#include "fuzz.h"

#include "../src/report/table.h"
#include "../src/util/utf8.h"

/* Append code point c as UTF-8 (c below 0x110000). */
static size_t put_utf8(uint32_t c, unsigned char *o)
{
	if (c < 0x80) {
		o[0] = (unsigned char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (unsigned char)(0xC0 | (c >> 6));
		o[1] = (unsigned char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (unsigned char)(0xE0 | (c >> 12));
		o[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
		o[2] = (unsigned char)(0x80 | (c & 0x3F));
		return 3;
	}
	o[0] = (unsigned char)(0xF0 | (c >> 18));
	o[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
	o[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
	o[3] = (unsigned char)(0x80 | (c & 0x3F));
	return 4;
}

/* Undo tc_utf8_escape on e[0..n) into out (room for n bytes: an escape is
 * never shorter than what it stands for).  Returns the length; aborts on
 * a backslash that starts no escape. */
static size_t unescape(const char *e, size_t n, unsigned char *out)
{
	size_t i = 0, o = 0;
	while (i < n) {
		if (e[i] != '\\') {
			out[o++] = (unsigned char)e[i++];
			continue;
		}
		if (i + 1 >= n)
			abort();
		char c = e[i + 1];
		if (c == 'u' || c == 'x') {
			size_t digits = c == 'u' ? 4 : 2;
			char hex[8] = { 0 };
			if (i + 2 + digits > n)
				abort();
			memcpy(hex, e + i + 2, digits);
			uint32_t v = (uint32_t)strtoul(hex, NULL, 16);
			if (c == 'u')
				o += put_utf8(v, out + o);
			else
				out[o++] = (unsigned char)v;
			i += 2 + digits;
		} else {
			out[o++] = (unsigned char)c;
			i += 2;
		}
	}
	return o;
}

/* The output of one escape must be displayable text. */
static void check_shown(const char *e, size_t n, enum tc_esc mode)
{
	const unsigned char *t = (const unsigned char *)e;
	size_t i = 0;
	uint32_t cp;

	if (tc_utf8_check(t, n) != n)
		abort();
	while (i < n) {
		size_t k = tc_utf8_decode(t + i, n - i, &cp);
		if (k == 0 || cp < 0x20 || cp == 0x7F || tc_utf8_invisible(cp))
			abort();
		if (cp == '\\') { /* an escape: skip what it escapes */
			if (i + 1 >= n)
				abort();
			i += 2;
			continue;
		}
		if (mode == TC_ESC_MD && cp < 0x80 && strchr("`*_[]<>|~&", (int)cp))
			abort();
		i += k;
	}
}

static void check_escape(const char *s, size_t len, enum tc_esc mode, size_t small)
{
	size_t size = TC_ESC_SIZE(len);
	char *e = malloc(size);
	unsigned char *back = malloc(size);
	if (!e || !back)
		abort();
	size_t n = tc_utf8_escape(s, len, e, size, mode);
	if (n >= size || e[n] != '\0' || strlen(e) != n)
		abort();
	check_shown(e, n, mode);
	if (unescape(e, n, back) != len || memcmp(back, s, len))
		abort();
	/* A buffer too small: cut, within bounds, ending with "...". */
	if (small >= 4 && small < size) {
		size_t m = tc_utf8_escape(s, len, e, small, mode);
		if (m >= small || e[m] != '\0')
			abort();
		if (m < n && (m < 3 || memcmp(e + m - 3, "...", 3)))
			abort();
		if (m >= 3 && !memcmp(e + m - 3, "...", 3))
			m -= 3;
		check_shown(e, m, mode);
	}
	free(e);
	free(back);
}

/* Lines of s (each ends with '\n'). */
static size_t lines(const char *s, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += s[i] == '\n';
	if (n && s[n - 1] != '\n')
		abort();
	return k;
}

/* Cells split at the byte 0x1F; a table of 2 columns. */
static void check_table(const char *s, size_t len, const char *fmt)
{
	static const char *const head[] = { "name", "value" };
	char *copy = malloc(len + 1), *out = NULL;
	size_t outlen = 0, rows = 0;
	struct rep_table t;
	FILE *f;

	if (!copy)
		abort();
	memcpy(copy, s, len);
	copy[len] = '\0'; /* cells end at the first NUL, as C strings do */
	rep_table_init(&t, 2, head, NULL);
	char *p = copy;
	while (p && rows < 64) {
		char *sep = strchr(p, 0x1F);
		if (sep)
			*sep = '\0';
		const char *cells[2] = { p, "1" };
		rep_table_row(&t, cells);
		rows++;
		p = sep ? sep + 1 : NULL;
	}
	f = open_memstream(&out, &outlen);
	if (!f)
		abort();
	if (rep_table_print(&t, f, fmt) != 0)
		abort();
	fclose(f);
	if (lines(out, outlen) != rows + 1 + !strcmp(fmt, "md"))
		abort();
	for (size_t i = 0; i < outlen; i++)
		if (((unsigned char)out[i] < 0x20 && out[i] != '\n') || out[i] == 0x7F)
			abort();
	rep_table_release(&t);
	free(out);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 4096)
		return 0;
	enum tc_esc mode = data[0] & 1 ? TC_ESC_MD : TC_ESC_TEXT;
	size_t small = data[0] >> 1;
	const char *s = (const char *)data + 1;
	size_t len = size - 1;

	check_escape(s, len, mode, small);
	check_table(s, len, mode == TC_ESC_MD ? "md" : "table");
	return 0;
}
