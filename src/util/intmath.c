/*
 * intmath.c - integer arithmetic the model's layouts share (intmath.h).
 */
#include "intmath.h"

#include <math.h>

int tc_divisors(long n, long limit, int *out, int cap)
{
	int lo = 0, nhi = 0;
	long hi[4096];
	if (n < 1 || cap < 1)
		return 0;
	for (long d = 1; d * d <= n && d <= limit; d++) {
		if (n % d)
			continue;
		if (lo < cap)
			out[lo++] = (int)d;
		long e = n / d;
		if (e != d && e <= limit && nhi < 4096)
			hi[nhi++] = e;
	}
	/* hi[] is descending: append it reversed. */
	for (int i = nhi - 1; i >= 0 && lo < cap; i--)
		out[lo++] = (int)hi[i];
	return lo;
}

int tc_whole_divisors(double x, long limit, int *out, int cap)
{
	if (!(x >= 1 && x < 9007199254740992.0) || x != floor(x))
		return 0;
	return tc_divisors((long)x, limit, out, cap);
}
