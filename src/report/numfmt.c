/*
 * numfmt.c - readable numbers (numfmt.h).
 */
#include "numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

char *rep_fmt_count(double v, char *buf, int len)
{
	if (!(fabs(v) < 1e15) || (fabs(v) < 100 && v != floor(v))) {
		snprintf(buf, (size_t)len, "%.3g", v);
		return buf;
	}
	char digits[32];
	snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	int n = (int)strlen(digits), o = 0;
	if (v < 0 && o < len - 1)
		buf[o++] = '-';
	for (int i = 0; i < n && o < len - 2; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

char *rep_fmt_usd(double v, char *buf, int len)
{
	if (v < 100) {
		snprintf(buf, (size_t)len, "$%.2f", v);
		return buf;
	}
	char n[48];
	snprintf(buf, (size_t)len, "$%s", rep_fmt_count(round(v), n, sizeof(n)));
	return buf;
}

