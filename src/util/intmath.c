/*
 * intmath.c - integer arithmetic the model's layouts share (intmath.h).
 */
#include "intmath.h"

long tc_gcd(long a, long b)
{
	while (b) {
		long r = a % b;
		a = b;
		b = r;
	}
	return a;
}
