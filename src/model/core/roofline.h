/*
 * roofline.h - time of one kernel on one GPU against achievable rates.
 *
 * t = max(flop / (peak * eta_c), bytes / (bw * eta_m)) + kernels * launch
 * (Williams, Waterman, Patterson, "Roofline", CACM 2009).  eta_c of a GEMM
 * falls for small and badly shaped matrices: tile and wave quantisation over
 * the SM count (NVIDIA, "Matrix Multiplication Background User's Guide") and a
 * fixed per-GEMM cost expressed as the size at which efficiency halves.
 * The parameters live in struct roof_eff; their bounds, defaults and
 * sources in the registry of eff_param.h (docs/model.md, section 6).
 */
#ifndef TC_ROOFLINE_H
#define TC_ROOFLINE_H

#include "../types/estimate_types.h"
#include "../types/gpu.h"
#include "../types/precision.h"

/* Output tile edges (elements) of the GEMM model. */
#define ROOF_TILE_M 128
#define ROOF_TILE_N 128
#define ROOF_TILE_NARROW 32   /* thin tiles for outputs this wide or less */
#define ROOF_SPLIT_K_SLICE 512 /* shortest K slice a split-K kernel takes */

/* The peak at which gemm_half_flop is stated: A100 SXM's dense 16-bit
 * peak, 312 TFLOP/s (NVIDIA A100 datasheet), the GPU it was fitted on. */
#define ROOF_HALF_REF_PEAK 312e12

/*
 * Fraction of the SMs' tile slots doing useful work for a batch of `batch`
 * GEMMs with an (m x n) output: tile quantisation (partial edge tiles) times
 * wave quantisation (tiles / (waves * sm_count)) of 128x128 tiles, which
 * no tiling with edges in multiples of 128 beats in this measure
 * (roofline.c).  Returns a value in (0, 1]; 1 when sm_count <= 0.
 */
double roof_gemm_util(int sm_count, double m, double n, double batch);

/* The same for one tile shape (tm x tn). */
double roof_gemm_util_tile(int sm_count, double m, double n, double batch,
			   double tm, double tn);

/*
 * Compute efficiency (fraction of precision p's dense peak) of a GEMM
 * (m x k) * (k x n), `batch` of them, for every workload family:
 * gemm_max_frac * util * flop / (flop + half).  util: tile and wave
 * quantisation, with split-K where the output's tiles cannot fill the
 * SMs and thin tiles for outputs at most ROOF_TILE_NARROW wide.  half:
 * gemm_half_flop x peak[p] / ROOF_HALF_REF_PEAK, a fixed time per GEMM.
 */
double roof_gemm_eff(const struct gpu *g, enum tc_prec p, double m, double n,
		     double k, double batch);

/*
 * The same for `groups` GEMMs issued as separate kernels (a grouped linear
 * layer of MoE experts): the SMs fill by the groups together, but each
 * pays the fixed per-GEMM cost on its own m x n x k.
 */
double roof_grouped_gemm_eff(const struct gpu *g, enum tc_prec p, double m,
			     double n, double k, double groups);

/* Dense peak for GEMMs in precision p (FLOP/s); 0 if unsupported.
 * Inline, as the timings below: every operator's time reads it. */
static inline double roof_peak(const struct gpu *g, enum tc_prec p)
{
	if ((int)p < 0 || p >= PREC_COUNT)
		return 0;
	return g->peak_flop_per_s[p];
}

/*
 * The share of its compute rates a part sustains against the sibling its
 * file's rates were measured on (eff.measured_tdp_w: the same die and SM
 * count at a higher power limit): clock goes as power^(1/3) under the
 * limit, so (tdp_w / measured_tdp_w)^(1/3).  1 when the rates are the
 * part's own or its limit is not lower (never faster than measured).
 * Every compute rate of roof_time() includes it.
 */
double roof_power_clock_frac(const struct gpu *g);

/*
 * The share of precision p's peak a GEMM reaches against the 16-bit share:
 * fp8_gemm_frac for FP8, and for FP4, whose rate nobody has measured, the
 * share FP8 reaches of its own peak (docs/model.md, "FP4"); 1 otherwise.
 */
static inline double roof_prec_frac(const struct gpu *g, enum tc_prec p)
{
	return p == PREC_FP8 || p == PREC_FP4 ? g->eff.fp8_gemm_frac : 1;
}

/* roof_power_clock_frac() of a part its measured sibling outpowers, else
 * 1: the test before the call keeps the common path free of the cube
 * root. */
static inline double roof_power_frac(const struct gpu *g)
{
	return g->eff.measured_tdp_w > g->tdp_w ? roof_power_clock_frac(g) : 1;
}

/* The share of the shorter of a kernel and its launch that hides under
 * the longer: launch_overlap_frac within [0, 1]. */
static inline double roof_launch_overlap(const struct gpu *g)
{
	double ov = g->eff.launch_overlap_frac;

	return ov < 0 ? 0 : ov > 1 ? 1 : ov;
}

/*
 * The arithmetic rate of work at peak_frac of precision p's peak (FLOP/s),
 * a software stack sustaining stack_frac of the kernel rates over a step.
 */
static inline double roof_compute_rate(const struct gpu *g, enum tc_prec p,
				       double peak_frac)
{
	double r = roof_peak(g, p) * peak_frac * g->eff.stack_frac;

	return r * roof_power_frac(g) * roof_prec_frac(g, p);
}

/* Launch cost of one kernel for this GPU and CUDA-graph setting. */
static inline double roof_launch_s(const struct gpu *g, int graphs)
{
	double l = graphs ? g->eff.launch_graph_s : g->eff.launch_s;
	return l > 0 ? l : 0;
}

/*
 * Keys a query attends to at which a fused attention kernel reaches half of
 * its long-sequence rate (eff.attn_frac): FlashAttention-2's forward and
 * backward (Dao-AILab/flash-attention @0251105 README plots, in
 * reference/achievable.md section 6) go from 132 to 176 TFLOP/s on A100 and
 * from 215 to 296 on H100 at head dim 64, and from 248 to 338 on H100 at
 * head dim 128, between 512 and 16k tokens; 187 to 203 on A100 (head dim
 * 128) between 2k and 16k.  k / (k + half) through each pair of points
 * gives half = 178, 202, 194 and 203 keys (docs/model.md, "Attention").
 */
#define ROOF_ATTN_HALF_KEYS 200.0 /* keys (tokens) */

/*
 * The share of its long-sequence rate a fused attention kernel reaches when
 * each query attends to `keys` keys: keys / (keys + ROOF_ATTN_HALF_KEYS),
 * in (0, 1); 1 for keys <= 0 (no length known).
 */
double roof_attn_len_frac(double keys);

/*
 * Seconds of one kernel sequence: `flop` at `peak_frac` of peak[p] and `bytes`
 * at mem_frac of bandwidth, whichever is larger (the roof), plus `kernels`
 * launches (launch_graph_s with CUDA graphs), less launch_overlap_frac of
 * the shorter of roof and launch (asynchronous dispatch hides it).  Writes
 * the bound to *bound when not NULL.  Returns a finite value >= 0 for valid inputs (peak of p > 0).
 */
double roof_time(const struct gpu *g, enum tc_prec p, double flop,
		 double peak_frac, double bytes, double kernels, int graphs,
		 enum op_bound *bound);

/* The time of `flop` at `rate` and `bytes` at streaming rate `bw`, the
 * larger (the roof), and of `tl` seconds of launches, `ov` (within [0, 1])
 * of the shorter of both hidden: roof_time_launch() once its rates are
 * read. */
static inline double roof_time_of(double flop, double rate, double bytes,
				  double bw, double tl, double ov,
				  enum op_bound *bound, double *launch_s)
{
	double tc = 0, tm = 0;

	if (flop > 0 && rate > 0)
		tc = flop / rate;
	if (bytes > 0 && bw > 0)
		tm = bytes / bw;
	double roof = tc > tm ? tc : tm;

	if (bound) {
		if (tc >= tm)
			*bound = tc >= tl ? BOUND_COMPUTE : BOUND_LATENCY;
		else
			*bound = tm >= tl ? BOUND_MEMORY : BOUND_LATENCY;
	}
	/* The shorter of launch and kernel hides partly under the longer. */
	double t = roof + tl - ov * (roof < tl ? roof : tl);
	if (launch_s)
		*launch_s = t - roof > 0 ? t - roof : 0;
	return t;
}

/* roof_time(), also writing to *launch_s the part of the time that is launch
 * overhead: the time less the roof, never negative.  Inline: every
 * operator of an estimate is timed here, and its callers' constant
 * arguments and out-parameters then cost no call. */
static inline double roof_time_launch(const struct gpu *g, enum tc_prec p,
				      double flop, double peak_frac,
				      double bytes, double kernels, int graphs,
				      enum op_bound *bound, double *launch_s)
{
	return roof_time_of(flop, roof_compute_rate(g, p, peak_frac), bytes,
			    g->mem_bytes_per_s * g->eff.mem_frac,
			    kernels * roof_launch_s(g, graphs),
			    roof_launch_overlap(g), bound, launch_s);
}

/*
 * What a roof time reads of a GPU, resolved once for the operators of a
 * build (its kit's, opkit.h) rather than for each: the peaks, the factors
 * of a compute rate (each exactly 1 where it does not apply, so that the
 * rate is roof_compute_rate()'s to the bit), the streaming rate, a
 * launch's cost and the share of it that overlaps.
 */
struct roof_rates {
	double peak[PREC_COUNT];      /* roof_peak() */
	double stack_frac;            /* eff.stack_frac */
	double power_frac;            /* roof_power_clock_frac() of a part
					 its measured sibling outpowers */
	double prec_frac[PREC_COUNT]; /* eff.fp8_gemm_frac for FP8, FP4 */
	double bw;                    /* streaming rate, bytes/s */
	double launch_s;              /* roof_launch_s() */
	double overlap_frac;          /* launch_overlap_frac within [0, 1] */
};

/* The rates of GPU g with (graphs) or without CUDA graphs. */
void roof_rates_init(struct roof_rates *r, const struct gpu *g, int graphs);

/* roof_time_launch() on the GPU and CUDA-graph setting r was resolved
 * for. */
static inline double roof_time_at(const struct roof_rates *r, enum tc_prec p,
				  double flop, double peak_frac, double bytes,
				  double kernels, enum op_bound *bound,
				  double *launch_s)
{
	int known = (int)p >= 0 && p < PREC_COUNT;
	double rate = (known ? r->peak[p] : 0) * peak_frac * r->stack_frac *
		      r->power_frac * (known ? r->prec_frac[p] : 1);

	return roof_time_of(flop, rate, bytes, r->bw, kernels * r->launch_s,
			    r->overlap_frac, bound, launch_s);
}

/*
 * The part of `time` that is launch overhead: time less the roof of `flop`
 * at `peak_frac` of peak[p] and `bytes` at mem_frac of bandwidth, never
 * negative.  For a time roof_time() gave with the same arguments this is
 * what roof_time_launch() returns; builders that pick the time among
 * several kernels (a skinny GEMM or a tensor-core one) state the roof here.
 */
double roof_launch_part(const struct gpu *g, enum tc_prec p, double flop,
			double peak_frac, double bytes, double time);

/*
 * Seconds of a degenerate GEMM (one side of a few elements: GEMV-like,
 * tiny batched products) run as a CUDA-core kernel: `flop` at skinny_frac
 * (eff_param.h) of the fp32 peak or `bytes` at the streaming rate.  The GEMM
 * model's tile quantisation makes such shapes look far slower than
 * libraries run them; callers take the smaller of both times.
 */
double roof_skinny_time(const struct gpu *g, double flop, double bytes,
			int graphs);

#endif
