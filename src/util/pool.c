/*
 * pool.c - the one pool of worker threads (pool.h).
 */
#include "pool.h"

#include <assert.h>
#include <unistd.h>

int tc_pool_size(int jobs, int most)
{
	int n = jobs > 0 ? jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);

	if (n > most)
		n = most;
	if (n > TC_POOL_MAX)
		n = TC_POOL_MAX;
	return n < 1 ? 1 : n;
}

int tc_pool_start(struct tc_pool *p, int n, void *(*fn)(void *), void *arg)
{
	assert(p && fn);
	p->n = 0;
	if (n > TC_POOL_MAX)
		n = TC_POOL_MAX;
	while (p->n < n && pthread_create(&p->th[p->n], NULL, fn, arg) == 0)
		p->n++;
	return p->n;
}

void tc_pool_join(struct tc_pool *p)
{
	for (int i = 0; i < p->n; i++)
		pthread_join(p->th[i], NULL);
	p->n = 0;
}
