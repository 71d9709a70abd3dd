/*
 * intmath.h - integer arithmetic the model's layouts share.  A header
 * alone: the collective model asks for a divisor on every collective it
 * times, so the function is inlined where it is used.
 */
#ifndef TC_INTMATH_H
#define TC_INTMATH_H

/* The greatest common divisor of a and b (both >= 0), by Euclid's
 * algorithm; tc_gcd(a, 0) = a, so tc_gcd(0, 0) = 0. */
static inline long tc_gcd(long a, long b)
{
	while (b) {
		long r = a % b;
		a = b;
		b = r;
	}
	return a;
}

#endif
