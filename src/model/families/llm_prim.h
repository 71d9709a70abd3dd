/*
 * llm_prim.h - the builder of a transformer training step's operators and
 * the operator kinds it is built of (llm_prim.c), which the layers, the
 * stages and the step of llm.c are made of.
 */
#ifndef TC_LLM_PRIM_H
#define TC_LLM_PRIM_H

#include "../core/comm.h"
#include "../core/opkit.h"
#include "../core/opsink.h"
#include "../types/gpu.h"
#include "../types/workload.h"
#include "llm_shape.h"

/* The element-wise chains that eager PyTorch runs as composite ops and a
 * fused or compiled stack as one kernel (docs/model.md, section 2). */
enum lb_chain {
	CHAIN_RMSNORM,     /* RMSNorm forward */
	CHAIN_RMSNORM_BWD,
	CHAIN_ROPE,        /* rotary embedding, forward or backward */
	CHAIN_GLU,         /* gated activation: act(a) * b */
	CHAIN_GLU_BWD,
	CHAIN_COUNT
};

/* Builder state: how an operator's time is computed; the sink lists it. */
struct bld {
	struct op_sink *out;
	const struct gpu *g;
	const struct plan *pl;
	const struct llm_shape *sh;
	enum tc_prec pg;   /* GEMM precision */
	double eg;         /* bytes per GEMM input element */
	enum tc_prec pa;   /* attention and element-wise precision */
	int graphs;
	int grouped;       /* a batch of GEMMs runs as separate kernels */
	double composite;  /* share of the element-wise chains run as
			      eager composite ops (lb_chain) */
	double chain_bytes[CHAIN_COUNT];   /* of a chain's fused bytes, what
					      moves with that share eager */
	double chain_kernels[CHAIN_COUNT]; /* the same of its kernels */
	struct roof_rates rates; /* g's with graphs, for every operator */
	struct kit kit;    /* over out, g, pl, graphs and rates, set once:
			      every operator's timing passes it; its memo is
			      borrowed from lb_init()'s caller */
	struct comm_group tpg; /* the tensor-parallel group, which most of
				  the collectives of a layer span */
};

/* A builder putting into `out`: GEMMs in `prec`, attention and
 * element-wise work in 16 bits where GEMMs run in fp8 or fp4; the
 * collectives it times are kept in `memo` (emptied here) for its build. */
void lb_init(struct bld *B, struct op_sink *out, const struct gpu *g,
	     const struct plan *pl, const struct llm_shape *sh,
	     enum tc_prec prec, struct kit_memo *memo);

/* A batch of GEMMs (m x n x k) on tensor cores, grouped where the builder
 * says so; frozen weight-gradient GEMMs are skipped by the caller. */
void lb_gemm(struct bld *B, const char *name, enum brk cat, double m,
	     double n, double k, double batch);
/* A weight-gradient GEMM: the part of a backward that a zero-bubble
 * schedule may defer (schedule.c). */
void lb_wgemm(struct bld *B, const char *name, double m, double n, double k,
	      double batch);
/* A memory-bound kernel sequence. */
void lb_elem(struct bld *B, const char *name, enum brk cat, double bytes,
	     double flop, double kernels);
/* Chain k of `bytes` in `kernels` fused kernels; its composite share
 * moves the traffic and runs the kernels of eager PyTorch's ops. */
void lb_chain(struct bld *B, const char *name, enum lb_chain k,
	      double bytes, double kernels);
/* A fused kernel (flash attention) at attn_frac of peak, less at short
 * sequences: `keys` a query attends to on average in one kernel call;
 * `model_flop` of its work count (a causal mask skips the rest).  A
 * forward (`fwd`) runs lib_attn_share of its work at the vendor library's
 * attn_lib_fwd_frac where the GPU has that rate (docs/model.md). */
void lb_fused(struct bld *B, const char *name, double flop, double bytes,
	      double model_flop, double keys, int fwd);
/* An operator whose whole time is communication, `time_s` known. */
void lb_wire(struct bld *B, const char *name, enum brk cat, double bytes,
	     double time_s);
/* A collective; its whole time is communication. */
void lb_coll(struct bld *B, const char *name, enum brk cat,
	     enum comm_coll c, struct comm_group grp, double bytes);
/* Ranks of a group of n with stride `stride` that share a node. */
struct comm_group lb_group(int n, int stride, int gpn);

/* Two ranks `stages` pipeline stages apart (a send to the next stage, the
 * first and last stages' tied embeddings): Megatron's order puts tensor,
 * then context, then data parallelism inside a stage, so they are
 * stages x tp x cp x dp ranks apart, in one node only below its GPUs. */
struct comm_group lb_stage_pair(const struct llm_shape *sh, int stages);

#endif
