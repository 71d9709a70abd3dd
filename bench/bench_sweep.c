/*
 * bench_sweep.c - sweep throughput: a Llama 2 7B sweep of 1,048,576 LLM
 * configurations (GPU type x count x micro-batch x ZeRO x recompute x
 * precision x global batch x network x CUDA graphs x overlap x flash
 * attention x optimizer) written to CSV with `traincost
 * sweep --jobs 2`.  Target: >= 500,000 configurations per second on 2 cores.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "../src/cli/cli_ctx.h"
#include "../src/cli/cmd_sweep.h"
#include "../src/cli/today.h"

int mkstemps(char *template, int suffixlen);

#define TARGET_PER_S 500000.0

int main(int argc, char **argv)
{
	char path[] = "/tmp/traincost-bench-XXXXXX.yaml";
	char out[] = "/tmp/traincost-bench-out-XXXXXX";
	int fd = mkstemps(path, 5);
	if (fd < 0) {
		perror("bench_sweep");
		return 1;
	}
	FILE *f = fdopen(fd, "w");
	fprintf(f,
		"kind: sweep\n"
		"base: %s/examples/llama2-7b-a100.yaml\n"
		"vary:\n"
		"  plan.gpu: [a100-80gb-sxm, a100-40gb-sxm, h100-sxm, h200-sxm, l40s, h100-pcie, b200, mi300x]\n"
		"  plan.count: {from: 8, to: 1024, times: 2}\n"
		"  plan.micro_batch: [1, 2, 4, 8]\n"
		"  plan.zero: [0, 1, 2, 3]\n"
		"  training.recompute: [none, selective, full, none]\n"
		"  training.precision: [bf16, fp16]\n"
		"  training.global_batch: [1024, 2048]\n"
		"  plan.network: [ib-hdr, ib-ndr]\n"
		"  plan.cuda_graphs: [false, true]\n"
		"  plan.grad_overlap: [true, false]\n"
		"  training.flash_attention: [true, false]\n"
		"  training.optimizer: [adamw, sgd, adafactor, adamw]\n",
		getcwd((char[4096]){ 0 }, 4096));
	fclose(f);
	/* 8 x 8 x 4 x 4 x 4 x 2 x 2 x 2 x 2 x 2 x 2 x 4 = 1,048,576 */
	int ofd = mkstemp(out);
	if (ofd >= 0)
		close(ofd);
	struct cli_ctx ctx;
	memset(&ctx, 0, sizeof(ctx));
	ctx.out = stdout;
	ctx.err = stderr;
	struct tc_diag d;
	tc_diag_init(&d);
	if (dp_init(&ctx.data, NULL, 0, &d) || cli_today(ctx.today, sizeof(ctx.today), &d)) {
		fprintf(stderr, "%s\n", d.entry[0].msg);
		return 1;
	}
	char a0[] = "sweep", a2[] = "--jobs", a3[] = "2", a4[] = "-o";
	char *av[] = { a0, path, a2, a3, a4, out, NULL };
	double secs[BENCH_RUNS];
	int rc = 0;
	for (int run = 0; run < BENCH_RUNS && !rc; run++) {
		double t0 = bench_now_s();
		rc = cmd_sweep(6, av, &ctx);
		secs[run] = bench_now_s() - t0;
	}
	long rows = 0;
	FILE *o = fopen(out, "r");
	if (o) {
		int c;
		while ((c = getc(o)) != EOF)
			rows += c == '\n';
		fclose(o);
		rows--; /* header */
	}
	unlink(path);
	unlink(out);
	if (rc) {
		fprintf(stderr, "bench_sweep: sweep failed (%d)\n", rc);
		return 1;
	}
	double dt = bench_median(secs, BENCH_RUNS);
	double per_s = rows / dt;
	printf("sweep llama2-7b: %ld configurations to CSV in %.2f s, median of %d runs, = %.0f "
	       "configurations/s with --jobs 2 (machine: %ld cores; target >= %.0f/s on 2 "
	       "cores)\n", rows, dt, BENCH_RUNS, per_s, bench_cores(), TARGET_PER_S);
	return bench_summary(argc, argv, "sweep %.0f/s (target >= %.0f: %s)", per_s,
			     TARGET_PER_S, per_s >= TARGET_PER_S ? "met" : "NOT met") ? 1 : 0;
}
