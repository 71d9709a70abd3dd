/*
 * test_search.c - the plan search: search_best_at() against brute force
 * over the same space, and what it says when nothing fits.
 */
#include "tc_test.h"
#include "tc_llm.h"

#include <stdlib.h>

#include "../../src/model/families/estimate.h"
#include "../../src/model/families/llm.h"
#include "../../src/model/analyses/search.h"
#include "../../src/util/intmath.h"
#include "../../src/model/analyses/validate.h"

/* A small GPT-style decoder with `a` heads and `kv` kv heads. */
static void small(struct workload *w, int L, int h, int a, int kv, double gb)
{
	memset(w, 0, sizeof(*w));
	w->kind = WL_LLM;
	w->llm.layers = L;
	w->llm.hidden = h;
	w->llm.heads = a;
	w->llm.kv_heads = kv;
	w->llm.vocab = 32000;
	w->llm.act = ACT_SWIGLU;
	w->llm.ffn = 4 * h;
	w->llm.positions = POS_ROPE;
	w->llm.norm = NORM_RMSNORM;
	w->llm.causal = 1;
	w->train.seq_len = 2048;
	w->train.global_batch = gb;
	w->train.tokens = 1e9;
	w->train.precision = PREC_BF16;
	w->train.optimizer = OPT_ADAMW;
	w->train.flash_attention = 1;
	w->plan.count = 1;
	w->plan.micro_batch = 1;
	w->plan.zero = 1;
	w->plan.grad_overlap = 1;
	w->plan.network_bytes_per_s = 50e9;
	w->plan.network_fabric = FABRIC_IB;
}

/* The same space as search_best_at with every knob free, timed in full. */
static int brute(const struct workload *w, const struct gpu *g, int count,
		 struct workload *bw, struct estimate *be)
{
	int tps[64], pps[256], mbs[512], vs[SEARCH_MAX_INTERLEAVE];
	int found = 0;
	int gpn = g->gpus_per_node > 0 ? g->gpus_per_node : 8;
	long kv = w->llm.kv_heads;
	long a = w->llm.heads, gcd = a;
	for (long b = kv; b;) {
		long t = gcd % b;
		gcd = b;
		b = t;
	}
	int ntp = tc_divisors(gcd, gpn < count ? gpn : count, tps, 64);
	int npp = tc_divisors(w->llm.layers, count, pps, 256);
	for (int ti = 0; ti < ntp; ti++)
		for (int pi = 0; pi < npp; pi++) {
			int tp = tps[ti], pp = pps[pi];
			if (count % (tp * pp))
				continue;
			int dp = count / (tp * pp);
			if (fmod(w->train.global_batch, dp) != 0)
				continue;
			int nmb = tc_divisors((long)(w->train.global_batch / dp),
						  1000000, mbs, 512);
			int nv = 1;
			vs[0] = 1;
			if (pp > 1)
				nv = tc_divisors(w->llm.layers / pp, SEARCH_MAX_INTERLEAVE,
						     vs, SEARCH_MAX_INTERLEAVE);
			for (int vi = 0; vi < nv; vi++)
				for (int sp = 0; sp <= (tp > 1); sp++)
					for (int mi = 0; mi < nmb; mi++)
						for (int z = 0; z <= 3; z++)
							for (int r = 0; r <= 2; r++) {
								struct workload c = *w;
								struct estimate e;
								struct plan_problem why;
								c.plan.count = count;
								c.plan.tp = tp;
								c.plan.pp = pp;
								c.plan.dp = dp;
								c.plan.gpus_per_node = gpn;
								c.plan.interleave = vs[vi];
								c.plan.sequence_parallel = sp;
								c.plan.micro_batch = mbs[mi];
								c.plan.zero = z;
								c.plan.ep = 1;
								c.train.recompute = (enum recompute)r;
								if (step_estimate_brief(&c, g, &ws, &e, &why))
									continue;
								if (!e.fits)
									continue;
								if (!found || e.step_time_s < be->step_time_s) {
									*be = e;
									*bw = c;
									found = 1;
								}
							}
		}
	return found ? 0 : -1;
}

/* search_best_at equals brute force: same time, same plan. */
static void check_same(const struct workload *w, const struct gpu *g, int count)
{
	struct workload bw, sw;
	struct estimate be, se;
	struct search_knobs k;
	struct plan_problem why;
	search_knobs_all(&k);
	int rb = brute(w, g, count, &bw, &be);
	int rs = search_best_at(w, g, count, &k, &ws, &sw, &se, &why);
	if (rb != rs)
		fail_msg("count %d: brute %d, search %d (%s)", count, rb, rs,
			 rs ? why.msg : "");
	if (rb)
		return;
	if (be.step_time_s != se.step_time_s)
		fail_msg("count %d: brute %.9g s (tp %d pp %d v %d sp %d mb %d z %d r %d), "
			 "search %.9g s (tp %d pp %d v %d sp %d mb %d z %d r %d)",
			 count, be.step_time_s, bw.plan.tp, bw.plan.pp,
			 bw.plan.interleave, bw.plan.sequence_parallel,
			 bw.plan.micro_batch, bw.plan.zero, bw.train.recompute,
			 se.step_time_s, sw.plan.tp, sw.plan.pp, sw.plan.interleave,
			 sw.plan.sequence_parallel, sw.plan.micro_batch, sw.plan.zero,
			 sw.train.recompute);
	assert_int_equal(bw.plan.tp, sw.plan.tp);
	assert_int_equal(bw.plan.pp, sw.plan.pp);
	assert_int_equal(bw.plan.micro_batch, sw.plan.micro_batch);
	assert_int_equal(bw.plan.zero, sw.plan.zero);
	assert_int_equal(bw.train.recompute, sw.train.recompute);
	assert_int_equal(se.fits, 1);
}

/* Brute force agrees over counts and memory sizes that make some plans
 * fit and others not. */
static void test_equals_brute_force(void **state)
{
	struct workload w;
	struct gpu g;
	(void)state;
	tc_test_a100(&g);
	static const double mem_gb[] = { 80, 8, 4 };
	static const int counts[] = { 1, 2, 4, 8, 16 };
	for (size_t m = 0; m < sizeof(mem_gb) / sizeof(mem_gb[0]); m++) {
		g.memory_bytes = mem_gb[m] * 1e9;
		small(&w, 8, 1024, 8, 4, 32);
		for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
			check_same(&w, &g, counts[c]);
		small(&w, 12, 768, 12, 12, 24);
		for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
			check_same(&w, &g, counts[c]);
	}
}

/* More GPUs never make the best step slower here (a relation, not a law:
 * the search space only grows with count for this model). */
static void test_more_gpus_not_slower_dp(void **state)
{
	struct workload w, bw;
	struct gpu g;
	struct estimate e1, e2;
	struct search_knobs k;
	struct plan_problem why;
	(void)state;
	tc_test_a100(&g);
	small(&w, 8, 1024, 8, 8, 64);
	search_knobs_all(&k);
	assert_int_equal(search_best_at(&w, &g, 1, &k, &ws, &bw, &e1, &why), 0);
	assert_int_equal(search_best_at(&w, &g, 8, &k, &ws, &bw, &e2, &why), 0);
	assert_true(e2.step_time_s < e1.step_time_s);
	assert_int_equal(bw.plan.count, 8);
	assert_int_equal(bw.plan.tp * bw.plan.pp * bw.plan.dp, 8);
}

/* Fixed knobs stay as given. */
static void test_fixed_knobs(void **state)
{
	struct workload w, bw;
	struct gpu g;
	struct estimate e;
	struct search_knobs k;
	struct plan_problem why;
	(void)state;
	tc_test_a100(&g);
	small(&w, 8, 1024, 8, 8, 64);
	w.plan.tp = 2;
	w.plan.zero = 3;
	search_knobs_all(&k);
	k.tp = 0;
	k.zero = 0;
	assert_int_equal(search_best_at(&w, &g, 8, &k, &ws, &bw, &e, &why), 0);
	assert_int_equal(bw.plan.tp, 2);
	assert_int_equal(bw.plan.zero, 3);
}

/* Nothing fits: the closest plan and by how much it misses. */
static void test_nothing_fits(void **state)
{
	struct workload w, bw;
	struct gpu g;
	struct estimate e;
	struct search_knobs k;
	struct plan_problem why;
	(void)state;
	tc_test_a100(&g);
	g.memory_bytes = 1.5e9;
	small(&w, 8, 2048, 16, 16, 8);
	search_knobs_all(&k);
	assert_int_equal(search_best_at(&w, &g, 2, &k, &ws, &bw, &e, &why), -1);
	assert_non_null(strstr(why.msg, "no plan on 2 x a100-80gb-sxm fits memory"));
	assert_non_null(strstr(why.msg, "the closest (tp 2"));
	assert_non_null(strstr(why.msg, "recompute full"));
	assert_non_null(strstr(why.msg, "too much"));
}

/* Every plan fits memory but the GPU cannot run the precision (fp8 on an
 * A100): the reason is the precision, not a memory shortfall that is
 * negative. */
static void test_refused_not_memory(void **state)
{
	struct workload w, bw;
	struct gpu g;
	struct estimate e;
	struct search_knobs k;
	struct plan_problem why;
	(void)state;
	tc_test_a100(&g);
	small(&w, 8, 2048, 16, 16, 8);
	w.train.precision = PREC_FP8;
	search_knobs_all(&k);
	assert_int_equal(search_best_at(&w, &g, 2, &k, &ws, &bw, &e, &why), -1);
	assert_null(strstr(why.msg, "fits memory"));
	assert_non_null(strstr(why.msg, "fp8"));
}

/* --memory-headroom: the search compares memory with the capacity less the
 * share kept free, and the check flips exactly there.  The fastest plan
 * at 8 GPUs needs M bytes of the A100's 80 GB: kept free 1 - M / 80 GB a
 * hair less, it is still chosen; a hair more, a plan needing at most the
 * rest is chosen instead, slower or equal (it was in the first search's
 * space and lost). */
static void test_memory_headroom(void **state)
{
	struct workload w, bw;
	struct gpu g;
	struct estimate e0, e1, e2;
	struct search_knobs k;
	struct plan_problem why;
	(void)state;
	tc_test_a100(&g);
	small(&w, 8, 2048, 16, 16, 64);
	search_knobs_all(&k);
	assert_int_equal(search_best_at(&w, &g, 8, &k, &ws, &bw, &e0, &why), 0);
	double m = e0.memory_per_gpu_bytes, edge = 1 - m / g.memory_bytes;
	assert_close(e0.memory_usable_bytes, g.memory_bytes, TOL_EXACT);
	w.plan.memory_headroom_frac = edge - 1e-9;
	assert_int_equal(search_best_at(&w, &g, 8, &k, &ws, &bw, &e1, &why), 0);
	assert_close(e1.memory_per_gpu_bytes, m, TOL_EXACT);
	assert_true(e1.fits);
	w.plan.memory_headroom_frac = edge + 1e-9;
	assert_int_equal(search_best_at(&w, &g, 8, &k, &ws, &bw, &e2, &why), 0);
	assert_true(e2.memory_per_gpu_bytes <= g.memory_bytes * (1 - edge - 1e-9));
	assert_true(e2.memory_per_gpu_bytes < m);
	assert_true(e2.step_time_s >= e0.step_time_s);
	assert_close(e2.memory_usable_bytes, g.memory_bytes * (1 - edge - 1e-9), TOL_TIGHT);
	assert_close(bw.plan.memory_headroom_frac, edge + 1e-9, TOL_EXACT);
}

/* No layout at all: the batch does not split over the GPUs. */
static void test_no_layout(void **state)
{
	struct workload w, bw;
	struct gpu g;
	struct estimate e;
	struct search_knobs k;
	struct plan_problem why;
	(void)state;
	tc_test_a100(&g);
	small(&w, 7, 1024, 8, 8, 3);
	search_knobs_all(&k);
	k.tp = 0;
	assert_int_equal(search_best_at(&w, &g, 4, &k, &ws, &bw, &e, &why), -1);
	assert_int_equal(why.field, WLF_GLOBAL_BATCH);
	assert_non_null(strstr(why.msg, "global_batch 3 is not a multiple of dp"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equals_brute_force),
		cmocka_unit_test(test_more_gpus_not_slower_dp),
		cmocka_unit_test(test_fixed_knobs),
		cmocka_unit_test(test_nothing_fits),
		cmocka_unit_test(test_refused_not_memory),
		cmocka_unit_test(test_no_layout),
		cmocka_unit_test(test_memory_headroom),
	};
	return cmocka_run_group_tests(tests, tc_llm_setup, tc_llm_teardown);
}
