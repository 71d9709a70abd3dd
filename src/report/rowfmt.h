/*
 * rowfmt.h - number text for sweep rows: locale-free, deterministic, and
 * several times faster than snprintf, which dominated a row's cost.
 */
#ifndef TC_ROWFMT_H
#define TC_ROWFMT_H

#include <stdint.h>

/* Longest text any of these writes, with its NUL. */
#define ROWFMT_MAX 32

/*
 * v rounded to 6 significant digits, or to a whole number when it has more
 * integer digits than that; plain decimal for 1e-4 <= |v| < 1e15 (%.6g
 * outside), trailing zeros of the fraction dropped: 99.9744, 47671596,
 * 0.774614.  Writes at most ROWFMT_MAX bytes to p; returns the length.
 */
int rowfmt_g6(char *p, double v);

/* v with one decimal, exactly as printf's "%.1f" (round half to even on
 * the binary value).  Returns the length. */
int rowfmt_fixed1(char *p, double v);

/* v in decimal, as "%llu".  Returns the length. */
int rowfmt_u64(char *p, uint64_t v);

#endif
