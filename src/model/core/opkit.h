/*
 * opkit.h - the operators every family's builder puts into its sink, each
 * timed in one place: a GEMM (tensor-core tiles, a grouped batch, or a
 * CUDA-core kernel where a thin shape runs faster there), a streaming
 * kernel sequence, a collective.
 *
 * A family says what an operator is (its shape, bytes, precision, how
 * often it runs); the kit says how long it takes on the GPU (roofline.h,
 * comm.h) and lists it (opsink.h).
 */
#ifndef TC_OPKIT_H
#define TC_OPKIT_H

#include "comm.h"
#include "roofline.h"
#include "../types/estimate_types.h"
#include "../types/gpu.h"
#include "opsink.h"
#include "../types/workload.h"

/* Collectives a memo keeps: a transformer step has about five distinct ones. */
#define KIT_MEMO_COLLS 8

/*
 * The collectives a kit has timed, for the same collective again in one
 * build: a transformer layer's tensor-parallel collectives, a dozen, share
 * one group and buffer size.  Its entries hold for one GPU and plan: a
 * builder's, whose kits all time on them.  Owned by that builder, never
 * shared: estimates run on several threads at once.
 */
struct kit_memo {
	int n; /* entries in coll */
	struct {
		enum comm_coll c;
		struct comm_group grp;
		double bytes;
		double time_s, net_bytes; /* comm_time_s(), comm_net_bytes() */
	} coll[KIT_MEMO_COLLS];
};

/* An empty memo. */
void kit_memo_init(struct kit_memo *m);

/* Where a step's operators go and what times them. */
struct kit {
	struct op_sink *out;
	const struct gpu *g;
	const struct plan *pl;
	int graphs; /* CUDA graphs: launches cost less */
	struct kit_memo *memo; /* borrowed: timings on g and pl; NULL: none */
	const struct roof_rates *rates; /* borrowed: g's with graphs, read
					   once for a builder's operators;
					   NULL: read for each */
};

/* How a GEMM may run. */
enum gemm_path {
	GEMM_TILED,   /* tensor-core tiles (roof_gemm_eff) */
	GEMM_GROUPED, /* a batch run as separate kernels, one launch each
			 (roof_grouped_gemm_eff: MoE experts) */
	GEMM_OR_THIN, /* tiles, or a GEMV-like kernel on CUDA cores at
			 skinny_frac when that is faster (vision and
			 recommender layers of a few rows or columns) */
};

/*
 * A batch of `batch` GEMMs of m x n x k in precision p at `scale` times
 * the GEMM model's efficiency, moving `bytes` through DRAM, `mult` times
 * per unit of the sink's stage; its FLOPs count as model FLOPs (unless
 * the sink recomputes).  Returns its row (opsink.h).
 */
struct op *kit_gemm(const struct kit *K, const char *name, enum brk cat,
		    enum tc_prec p, double m, double n, double k, double batch,
		    double scale, double bytes, enum gemm_path path, double mult);

/*
 * A sequence of `kernels` memory-bound kernels moving `bytes` at `bw_frac`
 * of the streaming rate (their `flop` at elem_flop_frac of peak), in
 * category cat, `mult` times per unit; a kernel the FLOPs would bound is
 * still listed as memory-bound.
 */
struct op *kit_stream(const struct kit *K, const char *name, enum brk cat,
		      enum tc_prec p, double bytes, double bw_frac, double flop,
		      double kernels, double mult);

/*
 * Collective c of `bytes` per GPU over group grp (nothing for a group of
 * one, except a point-to-point transfer), timed by the collective model
 * (comm.h); its bytes between nodes are added to the sink's sums.
 * Returns the seconds of one execution (0 when nothing runs).
 */
double kit_coll(const struct kit *K, const char *name, enum brk cat,
		    enum tc_prec p, enum comm_coll c, struct comm_group grp,
		    double bytes);

#endif
