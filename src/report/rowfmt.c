/*
 * rowfmt.c - number text for sweep rows (rowfmt.h).
 */
#include "rowfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Decimal digits of v, most significant first; returns their count. */
static int digits_u64(char *p, uint64_t v)
{
	char rev[24];
	int n = 0, len = 0;

	do {
		rev[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	while (n > 0)
		p[len++] = rev[--n];
	return len;
}

int rowfmt_u64(char *p, uint64_t v)
{
	int n = digits_u64(p, v);
	p[n] = '\0';
	return n;
}

/* Powers of ten from 1e-4 to 1e15: the decade of a value without log10(). */
static const double decade[] = {
	1e-4, 1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
	1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
};

int rowfmt_g6(char *p, double v)
{
	static const double p10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
				      1e8, 1e9, 1e10 };
	double a = fabs(v);
	char digits[24];
	int e, dec, n, frac, len = 0;

	if (a == 0) {
		memcpy(p, "0", 2);
		return 1;
	}
	if (!(a >= 1e-4 && a < 1e15))
		return snprintf(p, ROWFMT_MAX, "%.6g", v);
	/* e = floor(log10(a)): decade[e + 4] <= a < decade[e + 5]. */
	for (e = -4; a >= decade[e + 5]; e++)
		;
	dec = 5 - e;
	if (dec < 0)
		dec = 0;
	if (dec > 10)
		return snprintf(p, ROWFMT_MAX, "%.6g", v);
	n = digits_u64(digits, (uint64_t)llround(a * p10[dec]));
	if (v < 0)
		p[len++] = '-';
	/* Drop trailing zeros of the fraction. */
	frac = dec;
	while (frac > 0 && digits[n - 1] == '0') {
		n--;
		frac--;
	}
	if (n <= frac) { /* 0.000ddd */
		p[len++] = '0';
		p[len++] = '.';
		memset(p + len, '0', (size_t)(frac - n));
		len += frac - n;
		memcpy(p + len, digits, (size_t)n);
		len += n;
	} else {
		memcpy(p + len, digits, (size_t)(n - frac));
		len += n - frac;
		if (frac > 0) {
			p[len++] = '.';
			memcpy(p + len, digits + n - frac, (size_t)frac);
			len += frac;
		}
	}
	p[len] = '\0';
	return len;
}

int rowfmt_fixed1(char *p, double v)
{
	double t = fabs(v) * 10, r, f;
	uint64_t tenths;
	int len = 0;

	/* Scaling by 10 is monotonic, so only a product landing exactly on a
	 * half can round differently from printf's exact decimal expansion;
	 * that case, and huge or non-finite values, go to printf. */
	if (!(t < 1e15))
		return snprintf(p, ROWFMT_MAX, "%.1f", v);
	r = floor(t);
	f = t - r;
	if (f == 0.5)
		return snprintf(p, ROWFMT_MAX, "%.1f", v);
	tenths = (uint64_t)r + (f > 0.5);
	if (signbit(v))
		p[len++] = '-';
	len += digits_u64(p + len, tenths / 10);
	p[len++] = '.';
	p[len++] = (char)('0' + tenths % 10);
	p[len] = '\0';
	return len;
}
