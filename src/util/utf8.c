/*
 * utf8.c - strict UTF-8 decoding (RFC 3629).
 */
#include "utf8.h"

#include <assert.h>

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
