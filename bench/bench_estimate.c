/*
 * bench_estimate.c - evaluations per second of step_estimate() on one core:
 * Llama-2 70B on 512 A100 80GB SXM (tp 8, pp 4, dp 16, micro-batch 1,
 * global batch 1024, seq 4096).  Target: >= 500,000 per second.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "../src/io/gpu_load.h"
#include "../src/model/families/estimate.h"
#include "../src/model/families/llm.h"

#define TARGET_PER_S 500000.0

int main(int argc, char **argv)
{
	struct workload w;
	struct gpu g;
	struct est_workspace ws;
	struct estimate e;
	struct plan_problem why;
	struct tc_diag d;
	double t0, t1, sink = 0, per_s, rate[BENCH_RUNS];
	long i, n, batch = 10000;
	int run;

	memset(&w, 0, sizeof(w));
	w.kind = WL_LLM;
	strcpy(w.llm.name, "llama2-70b");
	w.llm.layers = 80;
	w.llm.hidden = 8192;
	w.llm.heads = 64;
	w.llm.kv_heads = 8;
	w.llm.ffn = 28672;
	w.llm.act = ACT_SWIGLU;
	w.llm.vocab = 32000;
	w.llm.positions = POS_ROPE;
	w.llm.norm = NORM_RMSNORM;
	w.llm.causal = 1;
	w.train.seq_len = 4096;
	w.train.global_batch = 1024;
	w.train.tokens = 2e12;
	w.train.precision = PREC_BF16;
	w.train.optimizer = OPT_ADAMW;
	w.train.recompute = RECOMP_SELECTIVE;
	w.train.flash_attention = 1;
	w.plan.count = 512;
	w.plan.tp = 8;
	w.plan.pp = 4;
	w.plan.dp = 16;
	w.plan.micro_batch = 1;
	w.plan.zero = 1;
	w.plan.sequence_parallel = 1;
	w.plan.network_bytes_per_s = 50e9;
	tc_diag_init(&d);
	if (gpu_load_id("tests/data/models/gpu", "a100-80gb-sxm", &g, &d)) {
		fprintf(stderr, "bench_estimate: tests/data/models/gpu/a100-80gb-sxm.yaml does not load "
			"(run from the repository root)\n");
		return 1;
	}
	if (est_workspace_init(&ws, EST_MAX_OPS)) {
		fprintf(stderr, "bench_estimate: out of memory\n");
		return 1;
	}
	if (step_estimate(&w, &g, &ws, &e, &why)) {
		fprintf(stderr, "bench_estimate: %s\n", why.msg);
		est_workspace_release(&ws);
		return 1;
	}
	for (run = 0; run < BENCH_RUNS; run++) {
		n = 0;
		t0 = bench_now_s();
		do {
			for (i = 0; i < batch; i++) {
				w.train.global_batch = (i & 1) ? 1024 : 2048;
				step_estimate(&w, &g, &ws, &e, &why);
				sink += e.step_time_s;
			}
			n += batch;
			t1 = bench_now_s();
		} while (t1 - t0 < 1.0);
		rate[run] = n / (t1 - t0);
	}
	per_s = bench_median(rate, BENCH_RUNS);
	printf("estimate llama2-70b/512xA100: %.0f evaluations/s on one core, "
	       "median of %d runs (%.2f us each; %zu operators, step %.2f s, "
	       "MFU %.1f%%; machine: %ld cores; target >= %.0f/s)\n", per_s,
	       BENCH_RUNS, 1e6 / per_s, ws.count,
	       sink > 0 ? e.step_time_s : 0, 100 * e.mfu_frac, bench_cores(),
	       TARGET_PER_S);
	if (bench_summary(argc, argv, "estimate %.0f/s (target >= %.0f: %s)",
			  per_s, TARGET_PER_S,
			  per_s >= TARGET_PER_S ? "met" : "NOT met")) {
		est_workspace_release(&ws);
		return 1;
	}
	est_workspace_release(&ws);
	return 0;
}
