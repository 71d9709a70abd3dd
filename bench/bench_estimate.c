/*
 * bench_estimate.c - evaluations per second of step_estimate() on one core:
 * Llama-2 70B on 512 A100 80GB SXM (tp 8, pp 4, dp 16, micro-batch 1,
 * global batch 1024, seq 4096).  Target: >= 200,000 per second.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../src/model/estimate.h"
#include "../src/model/llm.h"
#include "../src/model/validate.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
	struct workload w;
	struct gpu g;
	struct est_workspace ws;
	struct estimate e;
	struct plan_problem why;
	double t0, t1, sink = 0, per_s;
	long i, n = 0, batch = 10000;

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
	val_gpu_a100_sxm80(&g);
	if (est_workspace_init(&ws, LLM_MAX_OPS)) {
		fprintf(stderr, "bench_estimate: out of memory\n");
		return 1;
	}
	if (step_estimate(&w, &g, &ws, &e, &why)) {
		fprintf(stderr, "bench_estimate: %s\n", why.msg);
		est_workspace_release(&ws);
		return 1;
	}
	t0 = now_s();
	do {
		for (i = 0; i < batch; i++) {
			w.train.global_batch = (i & 1) ? 1024 : 2048;
			step_estimate(&w, &g, &ws, &e, &why);
			sink += e.step_time_s;
		}
		n += batch;
		t1 = now_s();
	} while (t1 - t0 < 1.0);
	per_s = n / (t1 - t0);
	printf("estimate llama2-70b/512xA100: %.0f evaluations/s (%.2f us "
	       "each; %zu operators, step %.2f s, MFU %.1f%%)\n", per_s,
	       1e6 / per_s, ws.count, sink > 0 ? e.step_time_s : 0,
	       100 * e.mfu_frac);
	est_workspace_release(&ws);
	return 0;
}
