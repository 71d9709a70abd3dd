/*
 * roofline.c - per-kernel time against achievable rates.
 */
#include "roofline.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/* ceil() for the positive, moderate values of tile counts; the libm call
 * dominated the estimate's profile on CPUs without a rounding instruction. */
static inline double up(double x)
{
	double t = (double)(long long)x;
	return t < x ? t + 1 : t;
}

/*
 * Output elements one tiling computes, useful or not: its waves times the
 * SMs' tile area.  The useful fraction of a (tm x tn) tiling of `batch`
 * (m x n) outputs is m*n*batch / (wave_area * sm_count): tile and wave
 * quantisation in one division.  Inlined so that the divisions by the
 * constant tile sizes become multiplications: the GEMM tiling is the
 * hottest part of an estimate.
 */
static inline __attribute__((always_inline)) double
wave_area(int sm_count, double m, double n, double batch, double tm, double tn)
{
	double tiles = up(m / tm) * up(n / tn) * batch;
	return up(tiles / sm_count) * tm * tn;
}

double roof_gemm_util_tile(int sm_count, double m, double n, double batch,
			   double tm, double tn)
{
	if (sm_count <= 0 || !(m > 0) || !(n > 0) || !(batch > 0))
		return 1.0;
	return m * n * batch /
	       (wave_area(sm_count, m, n, batch, tm, tn) * sm_count);
}

/* roof_gemm_util() of a shape it takes (sm_count, m, n and batch > 0).
 * Inlined into roof_gemm_eff(), which shares its tile counts with the
 * split-K test and its shape test with the caller's.
 *
 * One tiling, 128 x 128: a tiling whose tile is k times larger (edges in
 * multiples of 128) never wastes less.  It has t_k >= t_1 / k tiles
 * (ceil(m/128) <= j ceil(m/(128 j))), each k times the area, so its waves
 * cover k ceil(t_k/S) >= ceil(k t_k/S) >= ceil(t_1/S) times the area of a
 * 128 x 128 wave (S SMs).  What larger tiles gain, the reuse of operands,
 * is in gemm_max_frac, not in this measure. */
static inline __attribute__((always_inline)) double
gemm_util(int sm_count, double m, double n, double batch)
{
	double best = m * n * batch /
		      (wave_area(sm_count, m, n, batch, ROOF_TILE_M, ROOF_TILE_N) * sm_count);
	assert(best > 0 && best <= 1.0 + 1e-12);
	return best;
}

double roof_gemm_util(int sm_count, double m, double n, double batch)
{
	if (sm_count <= 0 || !(m > 0) || !(n > 0) || !(batch > 0))
		return 1.0;
	return gemm_util(sm_count, m, n, batch);
}

/*
 * Tile utilisation when the output's tiles cannot fill the SMs (weight
 * gradients: a small output and a long reduction; adapters a few columns
 * wide): cuBLAS and cuDNN split the reduction over more thread blocks, at
 * most one slice per ROOF_SPLIT_K_SLICE of k, and outputs one thin tile
 * wide (one GEMM, not a batch: LoRA adapters) get thin tiles.  The best
 * of those tilings and `util`, the plain one.
 */
static double split_k_util(int sm_count, double m, double n, double k,
			   double batch, double util)
{
	double tiles = up(m / ROOF_TILE_M) * up(n / ROOF_TILE_N) * batch;
	int thin = batch == 1 && (m <= ROOF_TILE_NARROW || n <= ROOF_TILE_NARROW);
	double kmax;

	/* Most GEMMs fill the SMs with plain tiles: no slice count to find. */
	if (!(tiles < sm_count) && !thin)
		return util;
	kmax = floor(k / ROOF_SPLIT_K_SLICE);
	if (kmax >= 2 && tiles < sm_count) {
		/* One more wave or one fewer: the better of the two. */
		double s = fmin(up(sm_count / tiles), kmax);
		double u = roof_gemm_util(sm_count, m, n, batch * s);
		if (u > util)
			util = u;
		s = fmin(floor(sm_count / tiles), kmax);
		if (s >= 2 && (u = roof_gemm_util(sm_count, m, n, batch * s)) > util)
			util = u;
	}
	if (thin) {
		double tm = m < n ? ROOF_TILE_NARROW : ROOF_TILE_M;
		double tn = m < n ? ROOF_TILE_M : ROOF_TILE_NARROW;
		double s = fmin(floor(sm_count / (up(m / tm) * up(n / tn))), kmax);
		double u = roof_gemm_util_tile(sm_count, m, n, s >= 1 ? s : 1,
					       tm, tn);
		if (u > util)
			util = u;
	}
	return util;
}

/*
 * The large-GEMM ceiling of precision p: FP32 work runs on CUDA cores, whose
 * measured SGEMM share of their peak is not the tensor cores' (A100 98 %
 * against 87 %, L40S 51 % against 74 %: docs/model.md), where the GPU's file
 * states it.
 */
static double gemm_ceiling(const struct gpu *g, enum tc_prec p)
{
	if (p == PREC_FP32 && g->eff.fp32_gemm_frac > 0)
		return g->eff.fp32_gemm_frac;
	return g->eff.gemm_max_frac;
}

/*
 * The GEMM size at which efficiency halves, for precision p on this GPU.
 * The fixed per-GEMM cost (pipeline fill, epilogue, the stack's work
 * around each GEMM) is a time: gemm_half_flop is stated at a peak of
 * ROOF_HALF_REF_PEAK, so a GPU or precision with a higher peak does that
 * many more FLOPs in it, a slower one fewer.
 */
static double half_flop(const struct gpu *g, enum tc_prec p)
{
	double half = g->eff.gemm_half_flop > 0 ? g->eff.gemm_half_flop : 0;
	double pp = roof_peak(g, p);

	return pp > 0 ? half * (pp / ROOF_HALF_REF_PEAK) : half;
}

double roof_gemm_eff(const struct gpu *g, enum tc_prec p, double m, double n,
		     double k, double batch)
{
	double flop = 2.0 * m * n * k * batch;
	double half = half_flop(g, p);
	double util = 1.0; /* roof_gemm_util()'s for a shape it does not take */

	if (g->sm_count > 0 && m > 0 && n > 0 && batch > 0)
		util = split_k_util(g->sm_count, m, n, k, batch,
				    gemm_util(g->sm_count, m, n, batch));
	/* Small GEMMs do not reach the large-GEMM rate (fitted, docs/model.md). */
	double size = flop > 0 ? flop / (flop + half) : 1.0;
	return gemm_ceiling(g, p) * util * size;
}

double roof_grouped_gemm_eff(const struct gpu *g, enum tc_prec p, double m,
			     double n, double k, double groups)
{
	double one = 2.0 * m * n * k;
	double half = half_flop(g, p);

	return gemm_ceiling(g, p) * roof_gemm_util(g->sm_count, m, n, groups) *
	       (one > 0 ? one / (one + half) : 1.0);
}

double roof_attn_len_frac(double keys)
{
	if (!(keys > 0))
		return 1;
	return keys / (keys + ROOF_ATTN_HALF_KEYS);
}

__attribute__((noinline, cold)) double roof_power_clock_frac(const struct gpu *g)
{
	double ref = g->eff.measured_tdp_w;

	if (!(ref > 0) || !(g->tdp_w > 0) || g->tdp_w >= ref)
		return 1.0;
	return cbrt(g->tdp_w / ref);
}

double roof_time(const struct gpu *g, enum tc_prec p, double flop,
		 double peak_frac, double bytes, double kernels, int graphs,
		 enum op_bound *bound)
{
	return roof_time_launch(g, p, flop, peak_frac, bytes, kernels, graphs,
				bound, NULL);
}

void roof_rates_init(struct roof_rates *r, const struct gpu *g, int graphs)
{
	for (int p = 0; p < PREC_COUNT; p++) {
		r->peak[p] = roof_peak(g, (enum tc_prec)p);
		r->prec_frac[p] = roof_prec_frac(g, (enum tc_prec)p);
	}
	r->stack_frac = g->eff.stack_frac;
	r->power_frac = roof_power_frac(g);
	r->bw = g->mem_bytes_per_s * g->eff.mem_frac;
	r->launch_s = roof_launch_s(g, graphs);
	r->overlap_frac = roof_launch_overlap(g);
}

double roof_launch_part(const struct gpu *g, enum tc_prec p, double flop,
			double peak_frac, double bytes, double time)
{
	double rate = roof_compute_rate(g, p, peak_frac);
	double bw = g->mem_bytes_per_s * g->eff.mem_frac;
	double tc = flop > 0 && rate > 0 ? flop / rate : 0;
	double tm = bytes > 0 && bw > 0 ? bytes / bw : 0;
	double l = time - (tc > tm ? tc : tm);
	return l > 0 ? l : 0;
}

double roof_skinny_time(const struct gpu *g, double flop, double bytes,
			int graphs)
{
	return roof_time(g, PREC_FP32, flop, g->eff.skinny_frac, bytes, 1, graphs,
			 NULL);
}
