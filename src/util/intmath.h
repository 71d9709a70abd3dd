/*
 * intmath.h - integer arithmetic the model's layouts share (intmath.c).
 * The greatest common divisor is inlined where it is used: the collective
 * model asks for one on every collective it times.
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

/*
 * The divisors of n that are <= limit, ascending, into out[0..cap-1].
 * Returns how many were written (0 for n < 1).  The layouts' degrees, the
 * micro-batches a rank's share of the global batch allows and the smaller
 * ones the memory advice may name are all divisors.
 */
int tc_divisors(long n, long limit, int *out, int cap);

/* tc_divisors() of x where x is a whole number below 2^53 (a rank's share
 * of a global batch, held as a double), none otherwise. */
int tc_whole_divisors(double x, long limit, int *out, int cap);

#endif
