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

#endif
