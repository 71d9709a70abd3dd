/*
 * xmlbuf.c - markup buffer with escaping (see xmlbuf.h).
 */
#include "xmlbuf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/utf8.h"

/* Make room for n more bytes and the NUL; 0, or -1 (remembered). */
static int reserve(struct xmlbuf *b, size_t n)
{
	if (b->oom)
		return -1;
	if (n >= XMLBUF_MAX_BYTES || b->len + n + 1 > XMLBUF_MAX_BYTES) {
		b->oom = 1;
		return -1;
	}
	if (b->len + n + 1 <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->len + n + 1)
		cap *= 2;
	char *p = realloc(b->buf, cap);
	if (!p) {
		b->oom = 1;
		return -1;
	}
	b->buf = p;
	b->cap = cap;
	return 0;
}

static void put(struct xmlbuf *b, const char *p, size_t n)
{
	if (reserve(b, n))
		return;
	memcpy(b->buf + b->len, p, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

void xmlbuf_raw(struct xmlbuf *b, const char *markup)
{
	put(b, markup, strlen(markup));
}

void xmlbuf_printf(struct xmlbuf *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	/* Our formats write numbers and class names: 512 bytes is ample, and
	 * a truncation would be a bug, so it counts as a failure. */
	if (n < 0 || (size_t)n >= sizeof(tmp)) {
		b->oom = 1;
		return;
	}
	put(b, tmp, (size_t)n);
}

void xmlbuf_text(struct xmlbuf *b, const char *text)
{
	const unsigned char *t = (const unsigned char *)text;
	size_t n = strlen(text);
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t k = tc_utf8_decode(t + i, n - i, &cp);
		if (!k) {
			put(b, "\xEF\xBF\xBD", 3); /* U+FFFD */
			i++;
			continue;
		}
		switch (t[i]) {
		case '&': put(b, "&amp;", 5); break;
		case '<': put(b, "&lt;", 4); break;
		case '>': put(b, "&gt;", 4); break;
		case '"': put(b, "&quot;", 6); break;
		case '\'': put(b, "&#39;", 5); break;
		default:
			if (cp >= 0x20 || cp == '\t' || cp == '\n')
				if (!(cp >= 0x7F && cp <= 0x9F) && cp != 0xFFFE && cp != 0xFFFF)
					put(b, (const char *)t + i, k);
		}
		i += k;
	}
}

void xmlbuf_release(struct xmlbuf *b)
{
	free(b->buf);
	memset(b, 0, sizeof(*b));
}
