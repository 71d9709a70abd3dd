/*
 * opkit.c - one timing of each operator kind for every family (opkit.h).
 */
#include "opkit.h"

#include "roofline.h"

#include <stdint.h>
#include <string.h>

/* roof_time_launch() of an operator on K's GPU: from the builder's rates
 * where it resolved them. */
static inline double kit_time(const struct kit *K, enum tc_prec p,
			      double flop, double peak_frac, double bytes,
			      double kernels, enum op_bound *bound,
			      double *launch_s)
{
	if (K->rates)
		return roof_time_at(K->rates, p, flop, peak_frac, bytes, kernels,
				    bound, launch_s);
	return roof_time_launch(K->g, p, flop, peak_frac, bytes, kernels,
				K->graphs, bound, launch_s);
}

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
	c.time_s = kit_time(K, p, c.flop, eff, bytes,
			    path == GEMM_GROUPED ? batch : 1, &c.bound,
			    &c.launch_s);
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
	c.time_s = kit_time(K, p, flop, K->g->eff.elem_flop_frac,
			    bytes / bw_frac, kernels, &c.bound, &c.launch_s);
	if (c.bound == BOUND_COMPUTE)
		c.bound = BOUND_MEMORY;
	return sink_put(K->out, name, cat, &c, mult, 0);
}

void kit_memo_init(struct kit_memo *m)
{
	m->n = 0;
}

/* Whether a and b are the same bits: the same inputs give the same time,
 * where == would take -0 for 0. */
static int same_bits(double a, double b)
{
	uint64_t x, y;

	memcpy(&x, &a, sizeof(x));
	memcpy(&y, &b, sizeof(y));
	return x == y;
}

/* Seconds and network bytes of collective c (comm.h), from K's memo when
 * it holds them, else computed and kept there while it has room. */
static void coll_cost(const struct kit *K, enum comm_coll c,
		      struct comm_group grp, double bytes, double *time_s,
		      double *net_bytes)
{
	struct kit_memo *m = K->memo;
	int i;

	for (i = 0; m && i < m->n; i++)
		if (same_bits(m->coll[i].bytes, bytes) && m->coll[i].c == c &&
		    m->coll[i].grp.n == grp.n &&
		    m->coll[i].grp.per_node == grp.per_node) {
			*time_s = m->coll[i].time_s;
			*net_bytes = m->coll[i].net_bytes;
			return;
		}
	*time_s = comm_time_s(K->g, K->pl, c, grp, bytes);
	*net_bytes = comm_net_bytes(c, grp, bytes);
	if (m && m->n < KIT_MEMO_COLLS) {
		m->coll[m->n].c = c;
		m->coll[m->n].grp = grp;
		m->coll[m->n].bytes = bytes;
		m->coll[m->n].time_s = *time_s;
		m->coll[m->n].net_bytes = *net_bytes;
		m->n++;
	}
}

double kit_coll(const struct kit *K, const char *name, enum brk cat,
		    enum tc_prec p, enum comm_coll c, struct comm_group grp,
		    double bytes)
{
	struct op_cost o = { 0, bytes, 0, 0, p, BOUND_NETWORK };
	double net;

	if (grp.n <= 1 && c != COLL_P2P)
		return 0;
	coll_cost(K, c, grp, bytes, &o.time_s, &net);
	K->out->sums->net_bytes += K->out->count * net;
	sink_coll(K->out, sink_put(K->out, name, cat, &o, 1, 0), c, grp);
	return o.time_s;
}
