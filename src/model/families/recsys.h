/*
 * recsys.h - DLRM-style recommenders as operator lists: embedding gathers
 * and their sparse backward as random memory access whose efficiency
 * depends on the row size, small MLP GEMMs, dot, DCNv2, NeuMF or two-tower
 * interaction, the
 * all-to-all of model-parallel tables, and PCIe traffic of offloaded
 * tables.  docs/vision-recsys.md.
 */
#ifndef TC_RECSYS_H
#define TC_RECSYS_H

#include "../core/family.h"
#include "../types/estimate_types.h"
#include "../types/gpu.h"
#include "recsys_place.h"
#include "recsys_shape.h"
#include "../types/workload.h"

extern const struct est_family recsys_family;

/*
 * Achieved fraction of memory bandwidth of a random row gather of
 * `row_bytes` per row with the parameters *e (see recsys.c for the model
 * and its calibration).
 */
double recsys_gather_frac(const struct roof_eff *e, double row_bytes);

#endif
