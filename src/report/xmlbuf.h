/*
 * xmlbuf.h - a growable buffer of XML/HTML markup with escaping, shared by
 * the SVG writer and the HTML report.
 *
 * Errors (out of memory, the text over XMLBUF_MAX_BYTES) are remembered in
 * `oom` and reported once by the owner, so writing code needs no checks of
 * its own.
 */
#ifndef TC_XMLBUF_H
#define TC_XMLBUF_H

#include <stddef.h>

#define XMLBUF_MAX_BYTES (16u << 20) /* bytes: no chart or page of ours comes near */

struct xmlbuf {
	char *buf;  /* owned, NUL-terminated once anything was written */
	size_t len, cap;
	int oom;    /* an allocation failed or the size limit was reached */
};

/* Append raw markup (no escaping): only for literal strings of ours. */
void xmlbuf_raw(struct xmlbuf *b, const char *markup);

/* Append printf-formatted raw markup; the arguments must not be user text. */
void xmlbuf_printf(struct xmlbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Append text escaped for XML content and attribute values: & < > " ' as
 * entities, control characters other than tab and newline dropped (XML 1.0
 * has no way to write them), bytes that are not UTF-8 as U+FFFD.
 */
void xmlbuf_text(struct xmlbuf *b, const char *text);

/* Free the buffer; safe on a zeroed struct.  The struct is zeroed. */
void xmlbuf_release(struct xmlbuf *b);

#endif
