/*
 * gpu.c - derived GPU types: MIG slices of a catalog GPU.
 */
#include "gpu.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

/* Memory and its bandwidth are split into eighths by MIG. */
#define MIG_MEMORY_SLICES 8

/*
 * Derive the MIG slice `profile` of `parent` into *out (which may not alias
 * parent).  The slice is a GPU of its own:
 *  - peaks, SM count and TDP (and the power limit its rates were measured
 *    at, if another part's) scale with the slice's share of the SMs
 *    (TDP is an attribution for cost, not a measured draw);
 *  - memory is the profile's; bandwidth and L2 scale with its memory
 *    slices out of 8;
 *  - NVLink is 0: CUDA gives MIG instances no peer-to-peer access, so
 *    collectives between slices cannot use NVLink and go through the host
 *    bus, which the slice shares (its PCIe figure is kept as the upper
 *    bound);
 *  - gpus_per_node is the number of such slices one GPU holds;
 *  - the slice has no MIG profiles of its own; id is "parent:profile",
 *    mig_of the parent id.
 * Returns 0, or -1 (out untouched) if the profile is unknown or the parent
 * has no SM count to scale by.
 */
int gpu_mig_slice(const struct gpu *parent, const char *profile,
		  struct gpu *out)
{
	const struct gpu_mig_profile *m = NULL;

	assert(parent && profile && out && out != parent);
	for (int i = 0; i < parent->mig_count; i++)
		if (!strcmp(parent->mig[i].name, profile)) {
			m = &parent->mig[i];
			break;
		}
	if (!m || parent->sm_count <= 0 || m->sms <= 0 ||
	    m->sms > parent->sm_count || m->memory_slices <= 0 ||
	    m->memory_slices > MIG_MEMORY_SLICES)
		return -1;

	char id[GPU_ID_LEN];
	int n = snprintf(id, sizeof(id), "%s:%s", parent->id, m->name);
	if (n < 0 || (size_t)n >= sizeof(id))
		return -1;

	double sm_frac = (double)m->sms / parent->sm_count;
	double mem_frac = (double)m->memory_slices / MIG_MEMORY_SLICES;

	*out = *parent;
	memcpy(out->id, id, (size_t)n + 1);
	snprintf(out->mig_of, sizeof(out->mig_of), "%s", parent->id);
	/* A long parent name is cut short rather than failing the lookup. */
	if (snprintf(out->name, sizeof(out->name), "%s MIG %s", parent->name,
		     m->name) < 0)
		out->name[0] = '\0';
	for (int p = 0; p < PREC_COUNT; p++) {
		out->peak_flop_per_s[p] = parent->peak_flop_per_s[p] * sm_frac;
		out->sparse_flop_per_s[p] = parent->sparse_flop_per_s[p] * sm_frac;
	}
	out->sm_count = m->sms;
	out->tdp_w = parent->tdp_w * sm_frac;
	/* The sibling's limit is a whole die's: scaled alike, the slice keeps
	 * the parent's power per SM and so its clock (roof_power_clock_frac). */
	out->eff.measured_tdp_w = parent->eff.measured_tdp_w * sm_frac;
	out->memory_bytes = m->memory_bytes;
	out->mem_bytes_per_s = parent->mem_bytes_per_s * mem_frac;
	out->l2_bytes = parent->l2_bytes * mem_frac;
	out->nvlink_bytes_per_s = 0;
	out->gpus_per_node = m->instances;
	memset(out->mig, 0, sizeof(out->mig));
	out->mig_count = 0;
	return 0;
}

double gpu_sparse_peak(const struct gpu *g, enum tc_prec p)
{
	if (g->sparse_flop_per_s[p] > 0)
		return g->sparse_flop_per_s[p];
	int tensor = p != PREC_FP64 && p != PREC_FP64_TENSOR && p != PREC_FP32;
	if (!tensor || g->sparsity_speedup <= 1)
		return 0;
	return g->peak_flop_per_s[p] * g->sparsity_speedup;
}

int gpu_node_size(const struct gpu *g)
{
	return g->gpus_per_node > 0 ? g->gpus_per_node : GPU_DEFAULT_PER_NODE;
}

enum node_topology gpu_topology(const struct gpu *g)
{
	return g->topology != TOPO_DEFAULT ? g->topology :
					     topo_default(g->form_factor, g->nvlink_bytes_per_s);
}

void gpu_resolve(struct gpu *out, const struct gpu *g, const struct eff_stack *stack,
		 const struct eff_calibration *cal)
{
	assert(out && g && stack && !g->stack.id[0] && !g->stack.set && !eff_calibrated(&g->eff));
	if (out != g)
		*out = *g;
	eff_resolve(&out->eff, out->id, stack, cal);
	out->stack = *stack;
}

