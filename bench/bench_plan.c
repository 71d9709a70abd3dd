/*
 * bench_plan.c - the planner: GPT-3 175B (300B tokens, seq 2048, global
 * batch 1536) over six GPU types and every usable count up to 4096 GPUs,
 * full search (tp, pp, dp, ZeRO, micro-batch, recompute, interleave,
 * sequence parallel), priced on-demand.  Target: under 1 s on 2 cores.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "../src/io/fw_load.h"
#include "../src/cli/money.h"
#include "../src/cli/today.h"
#include "../src/io/gpu_load.h"
#include "../src/io/price_load.h"
#include "../src/io/wl_load.h"
#include "../src/model/analyses/planner.h"

int mkstemps(char *template, int suffixlen);

#define TARGET_S 1.0

struct pctx {
	const struct price_set *ps;
};

/* As `traincost plan` prices: each offer that joins instances timed over
 * its own network (the bench pays for those estimates too). */
static int price(void *v, const struct gpu *g, const struct workload *w,
		 const struct estimate *e, struct plan_priced *out)
{
	const struct pctx *c = v;
	struct cost_range r;
	struct money_timer mt;
	int count = e->plan.count;
	double shape = count < g->gpus_per_node ? count : g->gpus_per_node;
	money_timer_init(&mt, w, g, e->total_time_s);
	struct cost_timer timer = { money_timer_time, &mt };
	int rc = cost_range_timed(c->ps->tables, c->ps->count, g->id, COST_ON_DEMAND, count,
				  shape, e->total_time_s, &timer, &r);
	money_timer_release(&mt);
	if (rc)
		return -1;
	out->cost_usd = r.cheapest.run.cost_usd;
	out->total_time_s = out->net_time_s = r.cheapest.run_s;
	out->provider = r.cheapest.table->provider;
	out->instance = r.cheapest.offer->instance;
	out->network = r.cheapest.network;
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const ids[] = { "a100-40gb-sxm", "a100-80gb-sxm", "h100-sxm",
					   "h200-sxm", "b200", "mi300x" };
	char path[] = "/tmp/traincost-plan-XXXXXX.yaml";
	struct tc_datapath dp;
	struct tc_diag d;
	struct workload w;
	struct gpu_catalog cat = { 0 };
	struct price_set ps = { 0 };
	struct gpu gpus[6];
	char today[PRICE_DATE_LEN];
	int fd = mkstemps(path, 5);
	if (fd < 0)
		return 1;
	FILE *f = fdopen(fd, "w");
	fprintf(f, "kind: llm\nname: GPT-3 175B\nmodel: { preset: gpt3-175b }\n"
		   "training: { seq_len: 2048, global_batch: 1536, tokens: 300B, precision: bf16 }\n"
		   "plan: { count: 1024, network: ib-ndr }\n");
	fclose(f);
	tc_diag_init(&d);
	if (dp_init(&dp, NULL, 0, &d) || wl_load_file(path, &dp, &w, &d) ||
	    gpu_catalog_load(&dp, &cat, &d) || cli_today(today, sizeof(today), &d) ||
	    price_load_all(&dp, today, &ps, NULL, &d)) {
		unlink(path);
		for (int i = 0; i < d.count; i++)
			fprintf(stderr, "%s\n", d.entry[i].msg);
		return 1;
	}
	unlink(path);
	for (int i = 0; i < 6; i++) {
		char why[512];
		if (gpu_catalog_lookup(&cat, ids[i], &gpus[i], why, sizeof(why))) {
			fprintf(stderr, "bench_plan: %s\n", why);
			return 1;
		}
		struct eff_stack stack;
		if (fw_stack(&dp, w.plan.framework, &stack, &d)) {
			fprintf(stderr, "bench_plan: %s\n", d.count ? d.entry[0].msg : "?");
			return 1;
		}
		gpu_resolve(&gpus[i], &gpus[i], &stack, NULL);
	}
	struct pctx pc = { &ps };
	struct planner_in in = { .w = &w, .gpus = gpus, .ngpus = 6, .max_gpus = 4096,
				 .price = price, .price_ctx = &pc };
	search_knobs_all(&in.knobs);
	struct plan_point *pts = NULL;
	size_t n = 0;
	double secs[BENCH_RUNS];
	for (int run = 0; run < BENCH_RUNS; run++) {
		free(pts);
		double t0 = bench_now_s();
		if (planner_run(&in, &pts, &n, NULL)) {
			fprintf(stderr, "bench_plan: out of memory\n");
			price_set_release(&ps);
			gpu_catalog_release(&cat);
			return 1;
		}
		secs[run] = bench_now_s() - t0;
	}
	double dt = bench_median(secs, BENCH_RUNS);
	size_t fastest = 0;
	for (size_t i = 0; i < n; i++)
		if (pts[i].total_time_s < pts[fastest].total_time_s)
			fastest = i;
	printf("plan gpt3-175b: 6 GPU types, up to 4096 GPUs: %zu fitting (type, count) "
	       "points in %.2f s, median of %d runs, one thread per core (machine: %ld cores; "
	       "target < %.0f s on 2 cores); fastest %d x %s, %.1f days\n", n, dt, BENCH_RUNS,
	       bench_cores(), TARGET_S, n ? pts[fastest].plan.count : 0,
	       n ? gpus[pts[fastest].gpu].id : "-", n ? pts[fastest].total_time_s / 86400 : 0.0);
	free(pts);
	int bad = bench_summary(argc, argv, "plan %.2f s (target < %.0f s: %s)", dt, TARGET_S,
				dt < TARGET_S ? "met" : "NOT met");
	price_set_release(&ps);
	gpu_catalog_release(&cat);
	return bad ? 1 : 0;
}
