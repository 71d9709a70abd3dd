/*
 * gpu.h - one GPU type: datasheet figures plus achievable-rate parameters.
 *
 * All quantities in SI base units (FLOP/s, bytes, bytes/s, W, Hz).  A peak of
 * 0 means the GPU has no such path.  Link bandwidths follow NVIDIA's
 * convention: per GPU, both directions added.
 */
#ifndef TC_GPU_H
#define TC_GPU_H

#include <stddef.h>

#include "eff_param.h"
#include "precision.h"
#include "topology.h"

#define GPU_ID_LEN 64
#define GPU_TEXT_LEN 512
#define GPU_MAX_MIG 12

struct gpu_mig_profile {
	char name[24];       /* "1g.10gb" */
	int instances;       /* how many fit on one GPU */
	int sms;             /* SMs of the slice */
	int memory_slices;   /* eighths of memory and bandwidth */
	double memory_bytes; /* usable memory of the slice */
};

struct gpu {
	char id[GPU_ID_LEN];        /* catalog id, "a100-80gb-sxm" or "...:1g.10gb" */
	char name[GPU_TEXT_LEN];    /* "NVIDIA A100 80GB SXM4" */
	char vendor[32];            /* "nvidia", "amd" */
	char architecture[32];      /* "ampere", "ada", "hopper", ... */
	char form_factor[16];       /* "sxm", "pcie", "oam", ... */
	int launch_year;

	double peak_flop_per_s[PREC_COUNT]; /* dense peaks (int8: OP/s) */
	double sparsity_speedup;   /* 2:4 structured speed-up, 1 if none */
	double sparse_flop_per_s[PREC_COUNT]; /* 2:4 sparse peaks as published;
						 0 = dense * sparsity_speedup */

	double memory_bytes;       /* capacity */
	char memory_type[16];      /* "HBM2e", "GDDR6" */
	double mem_bytes_per_s;    /* DRAM bandwidth */
	double l2_bytes;           /* 0 = not published */
	int sm_count;              /* SMs (NVIDIA) or CUs (AMD) */
	double boost_clock_hz;
	double nvlink_bytes_per_s; /* 0 = none */
	double pcie_bytes_per_s;   /* host bus, both directions */
	enum node_topology topology; /* how the node's GPUs reach each other;
					TOPO_DEFAULT = from the form factor */
	double nvls_gain;          /* all-reduce bus bandwidth with NVLink SHARP
				      over the ring's; 0 or 1 = none */
	char collectives_measured[GPU_ID_LEN]; /* the collectives.yaml entry of
				      an nccl-tests run inside a node of this
				      GPU; "": none, its topology class's
				      figures come from other GPUs */
	double tdp_w;
	int gpus_per_node;         /* usual server size */

	struct gpu_mig_profile mig[GPU_MAX_MIG];
	int mig_count;
	char mig_of[GPU_ID_LEN];   /* set for a MIG slice: the parent id */

	struct roof_eff eff;       /* achievable rates (eff_param.h) */
	struct eff_stack stack;    /* the stack profile gpu_resolve() put into
				      eff; id "" on a GPU as loaded */

	char source[GPU_TEXT_LEN]; /* URL(s) of the datasheet figures */
	char as_of[16];            /* YYYY-MM-DD */
	char notes[GPU_TEXT_LEN];  /* recalled figures, caveats */
};

/* The GPUs of the catalog (models/gpu/), as the loader gives them. */
struct gpu_catalog {
	struct gpu *gpus; /* owned, sorted by id */
	size_t count;
};

/*
 * Derive the MIG slice `profile` of `parent` into *out: SMs scale the
 * peaks, memory slices the bandwidth.  Returns 0, or -1 if the profile is
 * unknown.
 */
int gpu_mig_slice(const struct gpu *parent, const char *profile,
		  struct gpu *out);

/*
 * The 2:4 structured-sparse peak of precision p: the published figure when
 * the file gives one, else dense x sparsity_speedup for tensor-core math;
 * 0 when sparsity does not apply (fp64, fp32 on CUDA cores, no speed-up).
 */
double gpu_sparse_peak(const struct gpu *g, enum tc_prec p);

/* GPUs per server where a plan does not say: the GPU file's usual server,
 * else GPU_DEFAULT_PER_NODE, the 8-GPU board of HGX/DGX and PCIe servers. */
#define GPU_DEFAULT_PER_NODE 8
int gpu_node_size(const struct gpu *g);

/* How the GPUs of g's node reach each other: the file's topology, else the
 * one its form factor and NVLink figure imply (topo_default), for a GPU
 * built in code. */
enum node_topology gpu_topology(const struct gpu *g);

/*
 * The GPU an estimate of a workload run with stack profile `stack` takes,
 * under calibration `cal` (NULL: none): *g (registry defaults and its
 * file's values) with the calibration's and the stack's layers resolved
 * into its efficiencies (eff_resolve(), which holds every precedence rule)
 * and the stack's identity kept in out->stack.  Callers resolve once per
 * (GPU, stack) pair and pass the result to the estimator (estimate.h); *g
 * must be one nothing was resolved into.  out may be g.
 */
void gpu_resolve(struct gpu *out, const struct gpu *g, const struct eff_stack *stack,
		 const struct eff_calibration *cal);

#endif
