/*
 * utf8.h - checking UTF-8 text: strict decoding (no overlong forms, no
 * surrogates, nothing above U+10FFFF), shared by the YAML and CSV readers.
 */
#ifndef TC_UTF8_H
#define TC_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decode one character at t[0..avail), avail >= 1.  Returns its length in
 * bytes (1 to 4) and sets *cp, or returns 0 if the bytes starting at t[0]
 * are not valid UTF-8; *cp is then left as it was.  The byte to blame is
 * t[0], the lead byte of the broken sequence.
 */
size_t tc_utf8_decode(const unsigned char *t, size_t avail, uint32_t *cp);

/* Offset of the first byte of t[0..len) that starts an invalid sequence,
 * or len if all of it is valid UTF-8 (NUL bytes count as valid here). */
size_t tc_utf8_check(const unsigned char *t, size_t len);

/*
 * True for characters that print as nothing or reorder the text around
 * them: C1 controls, soft hyphen, bidi marks, embeddings, overrides and
 * isolates, zero-width spaces and joiners, the byte order mark.  Shown as
 * \uXXXX wherever a user's text is displayed.
 */
int tc_utf8_invisible(uint32_t cp);

/* How tc_utf8_escape shows text. */
enum tc_esc {
	TC_ESC_TEXT, /* a terminal: control and invisible characters as \uXXXX */
	TC_ESC_MD,   /* Markdown: the same, and its special characters escaped */
};

/* Output bytes that always hold the escaped form of n input bytes (an
 * input byte becomes at most 6: "\u001B"), and at least the 4 that
 * tc_utf8_escape needs. */
#define TC_ESC_SIZE(n) ((n) * 6 + 4)

/*
 * Write s[0..len) for display into out (size >= 4 bytes, NUL-terminated):
 * C0 and C1 controls, DEL and tc_utf8_invisible() characters as \uXXXX, a
 * backslash doubled (so the escapes are unambiguous), a byte that is not
 * UTF-8 as \xNN; in TC_ESC_MD also \ ` * _ [ ] < > | ~ & escaped with a
 * backslash.  Text that does not fit is cut at a character and ends with
 * "...".  Returns the bytes written, without the NUL.  This is the one
 * escaper for user-supplied text in tables, Markdown and text reports.
 */
size_t tc_utf8_escape(const char *s, size_t len, char *out, size_t size,
		      enum tc_esc mode);

#endif
