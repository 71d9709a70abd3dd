/*
 * test_sweep.c - `traincost sweep` and `traincost plan` run in-process:
 * row counts, determinism across --jobs, shards, the direct route against
 * the node tree, invalid rows, unknown paths, atomic output; the planner
 * against every count.
 */
#include "tc_test.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../../src/cli/cli.h"
#include "../../src/io/gpu_load.h"
#include "../../src/io/wl_load.h"
#include "../../src/model/planner.h"

#define DATA "tests/unit/data/sweep/"
#define MAX_OUT (4u << 20)

struct run_out {
	int rc;
	char *out; /* owned */
	char *err; /* owned */
};

static char *slurp(FILE *f)
{
	fflush(f);
	long n = ftell(f);
	rewind(f);
	char *buf = calloc(1, (size_t)n + 1);
	if (buf && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)
		buf[0] = '\0';
	return buf;
}

/* Run `traincost CMD args...` in-process. */
static struct run_out run(int argc, const char *const *args)
{
	struct run_out r;
	struct cli_ctx ctx;
	struct tc_diag d;
	char *argv[32];
	memset(&ctx, 0, sizeof(ctx));
	ctx.out = tmpfile();
	ctx.err = tmpfile();
	assert_non_null(ctx.out);
	assert_non_null(ctx.err);
	tc_diag_init(&d);
	assert_int_equal(dp_init(&ctx.data, NULL, 0, &d), 0);
	for (int i = 0; i < argc; i++)
		argv[i] = (char *)(uintptr_t)args[i];
	argv[argc] = NULL;
	if (!strcmp(args[0], "sweep"))
		r.rc = cmd_sweep(argc, argv, &ctx);
	else
		r.rc = cmd_plan(argc, argv, &ctx);
	r.out = slurp(ctx.out);
	r.err = slurp(ctx.err);
	fclose(ctx.out);
	fclose(ctx.err);
	return r;
}

static void done(struct run_out *r)
{
	free(r->out);
	free(r->err);
}

static int lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* 4 GPUs x 5 counts x 2 precisions = 40 rows and a header. */
static void test_row_count(void **state)
{
	(void)state;
	const char *a[] = { "sweep", "examples/sweep-7b.yaml", "--jobs", "2" };
	struct run_out r = run(4, a);
	assert_int_equal(r.rc, 0);
	assert_int_equal(lines(r.out), 41);
	assert_non_null(strstr(r.out, "config,plan.gpu,plan.count,training.precision,step_time_s,"));
	done(&r);
	/* 3 x 2 x 2 x 2 x 2 x (zip of 2) = 96 */
	const char *b[] = { "sweep", DATA "mixed.yaml" };
	r = run(2, b);
	assert_int_equal(r.rc, 0);
	assert_int_equal(lines(r.out), 97);
	done(&r);
	/* ranges: counts 1, 2, 4, 8, 16 x zero 0..3 = 20 */
	const char *c[] = { "sweep", DATA "inline.yaml", "--format", "json" };
	r = run(4, c);
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "\"format_version\":1"));
	assert_non_null(strstr(r.out, "\"configurations\":20"));
	assert_non_null(strstr(r.out, "{\"config\":19,\"inputs\":{\"plan.count\":\"16\",\"plan.zero\":\"3\"}"));
	done(&r);
}

/* An invalid row carries its reason; the others keep their numbers. */
static void test_invalid_row_reason(void **state)
{
	(void)state;
	const char *a[] = { "sweep", "examples/sweep-7b.yaml" };
	struct run_out r = run(2, a);
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "\n1,a100-80gb-sxm,32,fp8,,,,,,,,,,,a100-80gb-sxm has no fp8 rate "
				      "(expected a precision the GPU supports)\n"));
	assert_non_null(strstr(r.out, "\n0,a100-80gb-sxm,32,bf16,"));
	done(&r);
	const char *b[] = { "sweep", DATA "mixed.yaml" };
	r = run(2, b);
	/* count 12 with tp 2 splits; micro_batch 2048 > global_batch 1024 */
	assert_non_null(strstr(r.out, "micro_batch 2048 is larger than global_batch 1024 (expected at most 1024)"));
	done(&r);
}

/* --jobs 1 and --jobs 4 give the same bytes, in every format. */
static void test_jobs_identical(void **state)
{
	(void)state;
	static const char *const fmts[] = { "csv", "json", "table" };
	for (int f = 0; f < 3; f++) {
		const char *a[] = { "sweep", DATA "mixed.yaml", "--jobs", "1", "--format", fmts[f] };
		const char *b[] = { "sweep", DATA "mixed.yaml", "--jobs", "4", "--format", fmts[f] };
		struct run_out r1 = run(6, a), r4 = run(6, b);
		assert_int_equal(r1.rc, 0);
		assert_int_equal(r4.rc, 0);
		assert_string_equal(r1.out, r4.out);
		done(&r1);
		done(&r4);
	}
}

/* The direct route gives what the node tree and the loader give. */
static void test_direct_equals_tree(void **state)
{
	(void)state;
	const char *a[] = { "sweep", DATA "mixed.yaml" };
	const char *b[] = { "sweep", DATA "mixed.yaml", "--through-tree" };
	struct run_out r1 = run(2, a), r2 = run(3, b);
	assert_int_equal(r1.rc, 0);
	assert_string_equal(r1.out, r2.out);
	done(&r1);
	done(&r2);
	const char *c[] = { "sweep", "examples/sweep-7b.yaml" };
	const char *e[] = { "sweep", "examples/sweep-7b.yaml", "--through-tree" };
	r1 = run(2, c);
	r2 = run(3, e);
	assert_string_equal(r1.out, r2.out);
	done(&r1);
	done(&r2);
}

/* Shards 0/3, 1/3, 2/3 concatenated, sorted by config, give the whole. */
static void test_shards_concatenate(void **state)
{
	(void)state;
	const char *a[] = { "sweep", DATA "mixed.yaml" };
	struct run_out whole = run(2, a);
	char *lines_of[200] = { 0 };
	char *cat = calloc(1, MAX_OUT);
	size_t used = 0;
	for (int k = 0; k < 3; k++) {
		char sh[16];
		snprintf(sh, sizeof(sh), "%d/3", k);
		const char *b[] = { "sweep", DATA "mixed.yaml", "--shard", sh };
		struct run_out r = run(4, b);
		assert_int_equal(r.rc, 0);
		size_t n = strlen(r.out);
		memcpy(cat + used, r.out, n);
		used += n;
		done(&r);
	}
	/* one header (first shard), then rows; put rows back in config order */
	char *save, *line = strtok_r(cat, "\n", &save);
	char *rebuilt = calloc(1, MAX_OUT);
	strcat(rebuilt, line);
	strcat(rebuilt, "\n");
	int nrows = 0;
	while ((line = strtok_r(NULL, "\n", &save))) {
		int idx = atoi(line);
		assert_true(idx >= 0 && idx < 200);
		assert_null(lines_of[idx]);
		lines_of[idx] = line;
		nrows++;
	}
	assert_int_equal(nrows, 96);
	for (int i = 0; i < nrows; i++) {
		assert_non_null(lines_of[i]);
		strcat(rebuilt, lines_of[i]);
		strcat(rebuilt, "\n");
	}
	assert_string_equal(rebuilt, whole.out);
	free(rebuilt);
	free(cat);
	done(&whole);
}

/* An unknown path is an error at its key, and nothing is written. */
static void test_unknown_path(void **state)
{
	(void)state;
	const char *a[] = { "sweep", DATA "unknown-path.yaml" };
	struct run_out r = run(2, a);
	assert_int_equal(r.rc, TC_EXIT_INPUT);
	assert_string_equal(r.err, DATA "unknown-path.yaml:5:3: unknown path 'plan.tpp': "
				   "unknown key 'tpp' in plan (did you mean 'tp'?)\n");
	assert_string_equal(r.out, "");
	done(&r);
	const char *b[] = { "sweep", DATA "bad-zip.yaml" };
	r = run(2, b);
	assert_int_equal(r.rc, TC_EXIT_INPUT);
	assert_string_equal(r.err, DATA "bad-zip.yaml:5:15: 'plan.gpu' has 1 values but 'plan.count' has 2 "
				   "(expected lists of equal length in a zip)\n");
	done(&r);
	const char *c[] = { "sweep", DATA "mixed.yaml", "--shard", "3/3" };
	r = run(4, c);
	assert_int_equal(r.rc, TC_EXIT_USAGE);
	done(&r);
}

/* No temporary file is left in `dir`. */
static void assert_no_temp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			fail_msg("temporary file '%s' left behind", e->d_name);
	closedir(d);
}

/* Output is atomic: written whole, or not at all (old file kept). */
static void test_atomic_output(void **state)
{
	(void)state;
	char dir[] = "/tmp/tc-sweep-XXXXXX";
	char path[256];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.csv", dir);
	FILE *f = fopen(path, "w");
	fputs("old\n", f);
	fclose(f);

	/* A write that fails (file size limit: EFBIG, like a full disk). */
	struct rlimit old, lim;
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 2048;
	void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
	setrlimit(RLIMIT_FSIZE, &lim);
	const char *a[] = { "sweep", DATA "mixed.yaml", "-o", path };
	struct run_out r = run(4, a);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, prev);
	assert_int_equal(r.rc, TC_EXIT_IO);
	assert_non_null(strstr(r.err, "cannot write '"));
	done(&r);
	f = fopen(path, "r");
	char buf[16] = "";
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "old\n");
	assert_no_temp(dir);

	/* A folder that does not exist. */
	char bad[300];
	snprintf(bad, sizeof(bad), "%s/no/such/out.csv", dir);
	const char *b[] = { "sweep", DATA "mixed.yaml", "-o", bad };
	r = run(4, b);
	assert_int_equal(r.rc, TC_EXIT_IO);
	done(&r);

	/* Success replaces the file. */
	const char *c[] = { "sweep", DATA "mixed.yaml", "-o", path };
	r = run(4, c);
	assert_int_equal(r.rc, 0);
	done(&r);
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "config,plan.cou");
	assert_no_temp(dir);
	unlink(path);
	rmdir(dir);
}

/* Price: cost grows with GPUs and time (a stand-in table). */
static int flat_price(void *ctx, const struct gpu *g, int count, double run_s,
		      double *cost, const char **prov, const char **inst)
{
	(void)ctx;
	*cost = count * ceil(run_s / 3600) * (g->memory_bytes > 50e9 ? 2.0 : 1.2);
	*prov = "test";
	*inst = g->id;
	return 0;
}

/* The planner with pruned counts equals the search over every count. */
static void test_planner_brute_force(void **state)
{
	(void)state;
	struct tc_datapath dp;
	struct tc_diag d;
	struct workload w;
	struct gpu_catalog cat = { 0 };
	struct gpu g[2];
	char why[256];
	tc_diag_init(&d);
	assert_int_equal(dp_init(&dp, NULL, 0, &d), 0);
	assert_int_equal(wl_load_file("examples/gpt2-124m-l4.yaml", &dp, &w, &d), 0);
	assert_int_equal(gpu_catalog_load(&dp, &cat, &d), 0);
	assert_int_equal(gpu_catalog_lookup(&cat, "l4", &g[0], why, sizeof(why)), 0);
	assert_int_equal(gpu_catalog_lookup(&cat, "a100-80gb-sxm", &g[1], why, sizeof(why)), 0);
	gpu_catalog_release(&cat);
	w.train.global_batch = 48;
	struct planner_in in = { .w = &w, .gpus = g, .ngpus = 2, .max_gpus = 24,
				 .price = flat_price, .jobs = 2 };
	search_knobs_all(&in.knobs);
	struct plan_point *p1, *p2;
	size_t n1, n2;
	assert_int_equal(planner_run(&in, &p1, &n1, NULL), 0);
	in.all_counts = 1;
	in.jobs = 1;
	assert_int_equal(planner_run(&in, &p2, &n2, NULL), 0);
	assert_true(n1 > 4);
	assert_int_equal(n1, n2); /* counts no layout can use add nothing */
	for (size_t i = 0; i < n1; i++) {
		assert_int_equal(p1[i].plan.count, p2[i].plan.count);
		assert_int_equal(p1[i].gpu, p2[i].gpu);
		assert_true(p1[i].total_time_s == p2[i].total_time_s);
		assert_true(p1[i].cost_usd == p2[i].cost_usd);
	}
	/* The Pareto front: nothing on it is beaten in both. */
	int front[256];
	planner_pareto(p1, n1, front);
	int on = 0;
	for (size_t i = 0; i < n1; i++) {
		on += front[i];
		for (size_t j = 0; j < n1 && front[i]; j++)
			assert_false(p1[j].total_time_s < p1[i].total_time_s &&
				     p1[j].cost_usd < p1[i].cost_usd);
	}
	assert_true(on >= 1);
	free(p1);
	free(p2);
}

/* The plan command: cheapest within a deadline, and what is closest. */
static void test_plan_command(void **state)
{
	(void)state;
	const char *a[] = { "plan", "examples/gpt2-124m-l4.yaml", "--deadline", "30d",
			    "--max-gpus", "64", "--gpus", "l4,a100-80gb-sxm" };
	struct run_out r = run(8, a);
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "Cheapest plan that finishes within 30.0 d:"));
	assert_non_null(strstr(r.out, "Pareto front"));
	done(&r);
	const char *b[] = { "plan", "examples/gpt2-124m-l4.yaml", "--deadline", "1s",
			    "--max-gpus", "8", "--gpus", "l4" };
	r = run(8, b);
	assert_int_equal(r.rc, 0);
	/* Only single-L4 instances are sold in the tables, and a plan of 8-GPU
	 * nodes cannot run on them: the one priced plan is 1 x l4. */
	assert_non_null(strstr(r.out, "  none: the fastest plan (1 x l4) takes"));
	assert_non_null(strstr(r.out, "over the 1.0 s deadline"));
	done(&r);
	/* The bundled example: a 70B fine-tune with a 7-day deadline. */
	const char *c[] = { "plan", "examples/plan-70b-finetune.yaml", "--deadline", "7d",
			    "--max-gpus", "256", "--gpus", "h100-sxm,a100-80gb-sxm" };
	r = run(8, c);
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "Cheapest plan that finishes within 7.0 d:\n  "));
	done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_count),
		cmocka_unit_test(test_invalid_row_reason),
		cmocka_unit_test(test_jobs_identical),
		cmocka_unit_test(test_direct_equals_tree),
		cmocka_unit_test(test_shards_concatenate),
		cmocka_unit_test(test_unknown_path),
		cmocka_unit_test(test_atomic_output),
		cmocka_unit_test(test_planner_brute_force),
		cmocka_unit_test(test_plan_command),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
