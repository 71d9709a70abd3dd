/*
 * mem_reserve.h - what a GPU's memory holds besides the model, for every
 * workload family: the CUDA context and library workspaces, the caching
 * allocator's fragmentation, and the headroom a plan keeps free.
 */
#ifndef TC_MEM_RESERVE_H
#define TC_MEM_RESERVE_H

#include "../types/gpu.h"
#include "../types/workload.h"

/* CUDA context, cuBLAS workspaces and NCCL buffers, bytes (GB = 1e9): the
 * low end of the 1-3 GB formulas.md quotes; fragmentation is added apart. */
#define MEM_CONTEXT_BYTES 1.0e9
/* Caching-allocator fragmentation, fraction of activations and buffers. */
#define MEM_FRAGMENTATION_FRAC 0.05

/* The most --memory-headroom may keep free. */
#define MEM_MAX_HEADROOM_FRAC 0.5

/* The reserve (enum mem_part MEM_RESERVED) of a GPU whose activations and
 * buffers take `transient_bytes`: the context plus their fragmentation. */
double mem_reserved_bytes(double transient_bytes);

/* GPU g's memory a plan may fill: its capacity less the share
 * pl->memory_headroom_frac kept free.  Every fit test uses it. */
double mem_usable_bytes(const struct gpu *g, const struct plan *pl);

#endif
