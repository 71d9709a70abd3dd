/*
 * opkit.c - one timing of each operator kind for every family (opkit.h).
 */
#include "opkit.h"

#include "roofline.h"

struct op *kit_gemm(const struct kit *K, const char *name, enum brk cat,
		    enum tc_prec p, double m, double n, double k, double batch,
		    double scale, double bytes, enum gemm_path path, double mult)
{
	const struct gpu *g = K->g;
	struct op_cost c;
	double eff = (path == GEMM_GROUPED ?
		      roof_grouped_gemm_eff(g, p, m, n, k, batch) :
		      roof_gemm_eff(g, p, m, n, k, batch)) * scale;

	c.flop = 2.0 * m * n * k * batch;
	c.bytes = bytes;
	c.prec = p;
	c.time_s = roof_time_launch(g, p, c.flop, eff, bytes,
				    path == GEMM_GROUPED ? batch : 1, K->graphs,
				    &c.bound, &c.launch_s);
	if (path == GEMM_OR_THIN) {
		double thin = roof_skinny_time(g, c.flop, bytes, K->graphs);
		if (thin < c.time_s) {
			c.prec = PREC_FP32;
			c.time_s = thin;
			c.bound = BOUND_MEMORY;
			c.launch_s = roof_launch_part(g, PREC_FP32, c.flop,
						      g->eff.skinny_frac, bytes,
						      thin);
		}
	}
	return sink_put(K->out, name, cat, &c, mult, c.flop);
}

struct op *kit_stream(const struct kit *K, const char *name, enum brk cat,
		      enum tc_prec p, double bytes, double bw_frac, double flop,
		      double kernels, double mult)
{
	struct op_cost c;

	c.flop = flop;
	c.bytes = bytes;
	c.prec = p;
	c.time_s = roof_time_launch(K->g, p, flop, K->g->eff.elem_flop_frac,
				    bytes / bw_frac, kernels, K->graphs,
				    &c.bound, &c.launch_s);
	if (c.bound == BOUND_COMPUTE)
		c.bound = BOUND_MEMORY;
	return sink_put(K->out, name, cat, &c, mult, 0);
}

double kit_coll(const struct kit *K, const char *name, enum brk cat,
		    enum tc_prec p, enum comm_coll c, struct comm_group grp,
		    double bytes)
{
	struct op_cost o = { 0, bytes, 0, 0, p, BOUND_NETWORK };

	if (grp.n <= 1 && c != COLL_P2P)
		return 0;
	o.time_s = comm_time_s(K->g, K->pl, c, grp, bytes);
	K->out->sums->net_bytes += K->out->count * comm_net_bytes(c, grp, bytes);
	sink_coll(K->out, sink_put(K->out, name, cat, &o, 1, 0), c, grp);
	return o.time_s;
}
