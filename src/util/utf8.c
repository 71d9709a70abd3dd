/*
 * utf8.c - strict UTF-8 decoding (RFC 3629).
 */
#include "utf8.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

size_t tc_utf8_decode(const unsigned char *t, size_t avail, uint32_t *cp)
{
	uint32_t c, min;
	size_t n, i;

	assert(t && avail >= 1 && cp);
	c = t[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xC2 && c <= 0xDF) {
		n = 2;
		c &= 0x1F;
		min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		c &= 0x0F;
		min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		c &= 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if (i >= avail || (t[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (t[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return n;
}

size_t tc_utf8_check(const unsigned char *t, size_t len)
{
	size_t i = 0, n;
	uint32_t c;

	while (i < len) {
		n = tc_utf8_decode(t + i, len - i, &c);
		if (n == 0)
			return i;
		i += n;
	}
	return len;
}

int tc_utf8_invisible(uint32_t c)
{
	return (c >= 0x80 && c <= 0x9F) || c == 0xAD || c == 0x61C ||
	       c == 0x180E || (c >= 0x200B && c <= 0x200F) ||
	       (c >= 0x2028 && c <= 0x202E) || (c >= 0x2060 && c <= 0x206F) ||
	       c == 0xFEFF;
}

/* Markdown's characters that would start emphasis, code, links, HTML,
 * entities, strike-through or a new cell. */
static const char md_special[] = "\\`*_[]<>|~&";

size_t tc_utf8_escape(const char *s, size_t len, char *out, size_t size,
		      enum tc_esc mode)
{
	const unsigned char *t = (const unsigned char *)s;
	size_t i = 0, o = 0, n;
	char piece[8];
	uint32_t cp;

	assert(out && size >= 4);
	while (i < len && t) {
		size_t plen;
		n = tc_utf8_decode(t + i, len - i, &cp);
		if (n == 0) {
			plen = (size_t)snprintf(piece, sizeof(piece), "\\x%02X", t[i]);
			n = 1;
		} else if (cp < 0x20 || cp == 0x7F || tc_utf8_invisible(cp)) {
			plen = (size_t)snprintf(piece, sizeof(piece), "\\u%04X", (unsigned)cp);
		} else if (cp == '\\' ||
			   (mode == TC_ESC_MD && cp < 0x80 && strchr(md_special, (int)cp))) {
			piece[0] = '\\';
			piece[1] = (char)cp;
			plen = 2;
		} else {
			memcpy(piece, t + i, n);
			plen = n;
		}
		/* Keep room for "..." unless this is the last piece; every
		 * piece written left that room, so "..." always fits. */
		if (o + plen + (i + n < len ? 3 : 0) >= size) {
			assert(o + 3 < size);
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		memcpy(out + o, piece, plen);
		o += plen;
		i += n;
	}
	out[o] = '\0';
	return o;
}
