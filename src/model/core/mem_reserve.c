/*
 * mem_reserve.c - the reserve and the usable memory of a GPU, the same
 * for every family (mem_reserve.h).
 */
#include "mem_reserve.h"

double mem_reserved_bytes(double transient_bytes)
{
	return MEM_CONTEXT_BYTES + MEM_FRAGMENTATION_FRAC * transient_bytes;
}

double mem_usable_bytes(const struct gpu *g, const struct plan *pl)
{
	double h = pl->memory_headroom_frac;
	return g->memory_bytes * (1 - (h > 0 ? h : 0));
}
