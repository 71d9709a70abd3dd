/*
 * intmath.h - integer arithmetic the model's layouts share (intmath.c).
 */
#ifndef TC_INTMATH_H
#define TC_INTMATH_H

/* The greatest common divisor of a and b (both >= 0), by Euclid's
 * algorithm; tc_gcd(a, 0) = a, so tc_gcd(0, 0) = 0. */
long tc_gcd(long a, long b);

#endif
