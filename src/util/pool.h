/*
 * pool.h - the one pool of worker threads: start up to n threads running
 * the same function, then join them.  How the threads share their work is
 * the caller's (a queue of indices in the planner, chunks written in order
 * in sweep); the pool only sizes, starts and joins them.
 */
#ifndef TC_POOL_H
#define TC_POOL_H

#include <pthread.h>

#define TC_POOL_MAX 256 /* threads a pool holds at most (--jobs' bound) */

struct tc_pool {
	pthread_t th[TC_POOL_MAX];
	int n; /* threads started */
};

/*
 * The threads a --jobs value asks for: `jobs` when above 0, else one per
 * online processor; at most `most` and TC_POOL_MAX, at least 1.
 */
int tc_pool_size(int jobs, int most);

/*
 * Start up to `n` threads (at most TC_POOL_MAX) running fn(arg); stops at
 * the first that fails to start, leaving its share of the work to the
 * others.  Returns the number started (p->n), which may be 0.
 */
int tc_pool_start(struct tc_pool *p, int n, void *(*fn)(void *), void *arg);

/* Wait for every thread started to end. */
void tc_pool_join(struct tc_pool *p);

#endif
