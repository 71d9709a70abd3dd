/*
 * test_sweep.c - `traincost sweep` and `traincost plan` run in-process:
 * row counts, determinism across --jobs, shards, the direct route against
 * the node tree, invalid rows, unknown paths, atomic output; the planner
 * against every count; ranking by P90 under uncertainty.
 */
#include "tc_test.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../src/cli/cmd_sweep.h"
#include "../../src/cli/cmd_compare.h"
#include "../../src/cli/cmd_plan.h"
#include "../../src/cli/cli_ctx.h"
#include "../../src/io/fw_load.h"
#include "../../src/io/gpu_load.h"
#include "../../src/io/wl_load.h"
#include "../../src/model/analyses/planner.h"

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
	snprintf(ctx.today, sizeof(ctx.today), "%s", TC_TEST_TODAY);
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
	else if (!strcmp(args[0], "compare"))
		r.rc = cmd_compare(argc, argv, &ctx);
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
	assert_non_null(strstr(r.out, "\"format_version\":6,\"command\":\"sweep\""));
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
	assert_non_null(strstr(r.out, "\n1,a100-80gb-sxm,32,fp8,,,,,,,,,,,,,,a100-80gb-sxm has no fp8 rate "
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

/* A search path carrying read profiles looks names up in them alone, as a
 * sweep's thousands of loads do, and not on disk. */
static void test_preloaded_frameworks(void **state)
{
	(void)state;
	struct tc_datapath dp;
	struct tc_diag d;
	struct eff_stack out;
	struct framework only;
	tc_diag_init(&d);
	assert_int_equal(dp_init(&dp, NULL, 0, &d), 0);
	assert_null(dp.frameworks);
	assert_int_equal(fw_resolve_id(&dp, "--framework", "megatron", &out, &d), 0);
	memset(&only, 0, sizeof(only));
	strcpy(only.layer.id, "only");
	only.default_for = 1u << WL_LLM;
	struct fw_catalog cat = { &only, 1 };
	dp.frameworks = &cat;
	assert_int_equal(fw_resolve_id(&dp, "--framework", "only", &out, &d), 0);
	assert_string_equal(out.id, "only");
	assert_int_equal(fw_resolve_default(&dp, WL_LLM, &out, &d), 0);
	assert_string_equal(out.id, "only");
	assert_int_equal(fw_resolve_id(&dp, "--framework", "megatron", &out, &d), -1);
	assert_non_null(strstr(d.entry[d.count - 1].msg, "unknown framework 'megatron'"));
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

/* Field `col` (from 0) of a CSV line without quoted commas before it, into
 * out; the line is the first one starting with `prefix`. */
static void csv_field(const char *text, const char *prefix, int col, char *out, size_t len)
{
	const char *p = strstr(text, prefix);
	assert_non_null(p);
	for (int i = 0; i < col; i++) {
		p = strchr(p, ',');
		assert_non_null(p);
		p++;
	}
	size_t n = strcspn(p, ",\n");
	assert_true(n < len);
	memcpy(out, p, n);
	out[n] = '\0';
}

/* The last field of the first line starting with `prefix`, into out. */
static void csv_last(const char *text, const char *prefix, char *out, size_t len)
{
	const char *p = strstr(text, prefix);
	assert_non_null(p);
	const char *end = strchr(p + 1, '\n');
	assert_non_null(end);
	const char *q = end;
	while (q > p && q[-1] != ',')
		q--;
	assert_true((size_t)(end - q) < len);
	memcpy(out, q, (size_t)(end - q));
	out[end - q] = '\0';
}

/* layout: auto runs compare's search on every row: for each GPU type at 64
 * GPUs the sweep's layout, offer and cost are compare --count 64's. */
static void test_layout_auto_matches_compare(void **state)
{
	(void)state;
	const char *a[] = { "sweep", DATA "auto.yaml" };
	struct run_out s = run(2, a);
	assert_int_equal(s.rc, 0);
	assert_non_null(strstr(s.out, ",cost_usd,basis,reason,layout\n"));
	const char *b[] = { "compare", "examples/llama2-7b-a100.yaml", "--count", "64", "--gpus",
			    "a100-80gb-sxm,h100-sxm,l40s", "--format", "csv" };
	struct run_out c = run(8, b);
	assert_int_equal(c.rc, 0);
	static const char *const gpus[] = { "a100-80gb-sxm", "h100-sxm", "l40s" };
	for (int i = 0; i < 3; i++) {
		char sp[64], cp[64], sl[96], cl[256], sc[32], cc[32], si[64], ci[96];
		snprintf(sp, sizeof(sp), "\n%d,%s,", i, gpus[i]);
		snprintf(cp, sizeof(cp), "\n%s,64,", gpus[i]);
		/* sweep: config,gpu,step,total,wall,gpu_h,mfu,mem,fits,limiting,
		 * provider,instance (11),region,cost (13),basis,reason (quoted: may
		 * hold commas),layout; compare: gpu,count,tp,pp,dp,ep,zero,
		 * micro_batch,recompute,...,instance (21),region,cost_usd (23),...
		 * Both bill the expected wall clock with the spare nodes. */
		char f[7][32];
		csv_last(s.out, sp, sl, sizeof(sl));
		for (int k = 0; k < 7; k++)
			csv_field(c.out, cp, 2 + k, f[k], sizeof(f[k]));
		snprintf(cl, sizeof(cl), "tp%s pp%s dp%s z%s mb%s %s", f[0], f[1], f[2], f[4], f[5], f[6]);
		assert_string_equal(sl, cl);
		csv_field(s.out, sp, 13, sc, sizeof(sc));
		csv_field(c.out, cp, 23, cc, sizeof(cc));
		/* The same cost: the sweep's CSV has six significant digits
		 * (src/report/rowfmt.c, %.6g), so they agree to within half a
		 * unit of the sixth, 5e-6 of the value at most. */
		if (cc[0])
			assert_close(strtod(sc, NULL), strtod(cc, NULL), 5e-6);
		else
			assert_string_equal(sc, "");
		csv_field(s.out, sp, 11, si, sizeof(si));
		csv_field(c.out, cp, 21, ci, sizeof(ci));
		if (cc[0])
			assert_string_equal(ci, si);
	}
	/* The fixed layout of the base (tp1 pp1 dp64 z1 mb2) does not fit on
	 * L40S; auto found ZeRO 3, so the row is priced or says why not. */
	assert_null(strstr(s.out, "does not fit"));
	done(&s);
	done(&c);

	const char *e[] = { "sweep", DATA "auto-tp.yaml" };
	s = run(2, e);
	assert_int_equal(s.rc, TC_EXIT_INPUT);
	assert_string_equal(s.err, DATA "auto-tp.yaml:5:3: 'plan.tp' is chosen by layout: auto "
				   "(expected it left out of vary and zip, or layout: fixed)\n");
	done(&s);
	const char *f[] = { "sweep", DATA "auto-bad.yaml" };
	s = run(2, f);
	assert_int_equal(s.rc, TC_EXIT_INPUT);
	assert_string_equal(s.err, DATA "auto-bad.yaml:3:9: layout is 'best' (expected fixed or auto)\n");
	done(&s);
}

/* Whether `dir` holds a temporary file (a name starting with '.'). */
static int has_temp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;
	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			found = 1;
	closedir(d);
	return found;
}

/* No temporary file is left in `dir`. */
static void assert_no_temp(const char *dir)
{
	if (has_temp(dir))
		fail_msg("a temporary file was left behind in %s", dir);
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

	/* A write that fails (file size limit: EFBIG, like a full disk); the
	 * writer itself ignores SIGXFSZ (tests/cli/cases/out-full-disk.case
	 * checks the same on the real binary). */
	struct rlimit old, lim;
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 2048;
	setrlimit(RLIMIT_FSIZE, &lim);
	const char *a[] = { "sweep", DATA "mixed.yaml", "-o", path };
	struct run_out r = run(4, a);
	setrlimit(RLIMIT_FSIZE, &old);
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

/* SIGTERM while a sweep writes its file: the process dies of the signal
 * and leaves neither the temporary file nor a destination behind. */
static void test_interrupted_output(void **state)
{
	(void)state;
	char dir[] = "/tmp/tc-sweep-XXXXXX";
	char path[256];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.csv", dir);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct cli_ctx ctx;
		struct tc_diag d;
		char a0[] = "sweep", a1[] = DATA "long.yaml", a2[] = "-o";
		char *argv[] = { a0, a1, a2, path, NULL };
		memset(&ctx, 0, sizeof(ctx));
		snprintf(ctx.today, sizeof(ctx.today), "%s", TC_TEST_TODAY);
		ctx.out = stdout;
		ctx.err = stderr;
		tc_diag_init(&d);
		if (dp_init(&ctx.data, NULL, 0, &d))
			_exit(100);
		_exit(cmd_sweep(4, argv, &ctx));
	}
	/* Wait (up to 10 minutes: valgrind) for the temporary file. */
	struct timespec nap = { 0, 2000000 };
	int seen = 0;
	for (long i = 0; i < 300000 && !seen; i++) {
		seen = has_temp(dir);
		if (!seen) {
			int st;
			if (waitpid(pid, &st, WNOHANG) == pid)
				fail_msg("the sweep ended (status %d) before it was interrupted", st);
			nanosleep(&nap, NULL);
		}
	}
	assert_true(seen);
	assert_int_equal(kill(pid, SIGTERM), 0);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	assert_no_temp(dir);
	assert_int_equal(access(path, F_OK), -1);
	rmdir(dir);
}

/* Price: cost grows with GPUs and time (a stand-in table). */
static int flat_price(void *ctx, const struct gpu *g, const struct workload *w,
		      const struct estimate *e, struct plan_priced *out)
{
	(void)ctx;
	(void)w;
	out->cost_usd = e->plan.count * ceil(e->total_time_s / 3600) *
			(g->memory_bytes > 50e9 ? 2.0 : 1.2);
	out->provider = "test";
	out->instance = g->id;
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
	struct eff_stack stack;
	assert_int_equal(fw_stack(&dp, w.plan.framework, &stack, &d), 0);
	for (int k = 0; k < 2; k++)
		gpu_resolve(&g[k], &g[k], &stack, NULL);
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

/* flat_price, with runs of more than one 8-GPU node taking twice as long
 * over the offer's own network "slow-net". */
static int slow_net_price(void *ctx, const struct gpu *g, const struct workload *w,
			  const struct estimate *e, struct plan_priced *out)
{
	flat_price(ctx, g, w, e, out);
	if (e->plan.count > 8) {
		out->total_time_s = out->net_time_s = 2 * e->total_time_s;
		out->network = "slow-net";
	}
	return 0;
}

/* A point takes the time its price function gives (over the offer's
 * network): step time doubles and MFU halves with a run twice as long,
 * and the point names the network; one-node points are unchanged. */
static void test_planner_offer_network_time(void **state)
{
	(void)state;
	struct tc_datapath dp;
	struct tc_diag d;
	struct workload w;
	struct gpu_catalog cat = { 0 };
	struct gpu g[1];
	char why[256];
	tc_diag_init(&d);
	assert_int_equal(dp_init(&dp, NULL, 0, &d), 0);
	assert_int_equal(wl_load_file("examples/gpt2-124m-l4.yaml", &dp, &w, &d), 0);
	assert_int_equal(gpu_catalog_load(&dp, &cat, &d), 0);
	assert_int_equal(gpu_catalog_lookup(&cat, "a100-80gb-sxm", &g[0], why, sizeof(why)), 0);
	gpu_catalog_release(&cat);
	struct eff_stack stack;
	assert_int_equal(fw_stack(&dp, w.plan.framework, &stack, &d), 0);
	gpu_resolve(&g[0], &g[0], &stack, NULL);
	w.train.global_batch = 48;
	struct planner_in in = { .w = &w, .gpus = g, .ngpus = 1, .max_gpus = 24,
				 .price = flat_price, .jobs = 1 };
	search_knobs_all(&in.knobs);
	struct plan_point *p1, *p2;
	size_t n1, n2;
	assert_int_equal(planner_run(&in, &p1, &n1, NULL), 0);
	in.price = slow_net_price;
	assert_int_equal(planner_run(&in, &p2, &n2, NULL), 0);
	assert_int_equal(n1, n2);
	int multi = 0;
	for (size_t i = 0; i < n1; i++) {
		assert_int_equal(p1[i].plan.count, p2[i].plan.count);
		assert_null(p1[i].network);
		if (p1[i].plan.count <= 8) {
			assert_null(p2[i].network);
			assert_true(p2[i].total_time_s == p1[i].total_time_s);
			continue;
		}
		multi++;
		assert_string_equal(p2[i].network, "slow-net");
		assert_close(p2[i].total_time_s, 2 * p1[i].total_time_s, TOL_EXACT);
		assert_close(p2[i].step_time_s, 2 * p1[i].step_time_s, TOL_EXACT);
		assert_close(p2[i].mfu_frac, p1[i].mfu_frac / 2, TOL_EXACT);
	}
	assert_true(multi > 0);
	free(p1);
	free(p2);
}

/* Offers that price like flat_price: one GPU per instance, billed by the
 * started hour, $2.00 (over 50 GB) or $1.20 per GPU-hour. */
static struct price_offer test_offers[2];
static const struct cost_billing hourly = { COST_PER_HOUR, 0 };

static int flat_offer(void *ctx, const struct gpu *g, const struct plan_point *p,
		      const struct price_offer **o, const struct cost_billing **b)
{
	(void)ctx;
	(void)p;
	*o = &test_offers[g->memory_bytes > 50e9];
	*b = &hourly;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/*
 * --risk p90: the planner samples every point; the plan chosen under a
 * deadline is never dearer at P90 than another plan that also meets the
 * deadline at P90, and the fastest within a budget is never slower at P90
 * than another within it.  Sampling is the same on one thread or two.
 */
static void test_planner_risk(void **state)
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
	struct eff_stack stack;
	assert_int_equal(fw_stack(&dp, w.plan.framework, &stack, &d), 0);
	for (int k = 0; k < 2; k++)
		gpu_resolve(&g[k], &g[k], &stack, NULL);
	for (int k = 0; k < 2; k++) {
		memset(&test_offers[k], 0, sizeof(test_offers[k]));
		test_offers[k].gpus = 1;
		test_offers[k].price_usd_per_h[COST_ON_DEMAND] = k ? 2.0 : 1.2;
	}
	w.train.global_batch = 48;
	struct planner_in in = { .w = &w, .gpus = g, .ngpus = 2, .max_gpus = 24,
				 .price = flat_price, .offer = flat_offer, .jobs = 2 };
	search_knobs_all(&in.knobs);
	struct plan_point *p, *q;
	size_t n, nq;
	assert_int_equal(planner_run(&in, &p, &n, NULL), 0);
	assert_int_equal(planner_run(&in, &q, &nq, NULL), 0);
	assert_true(n > 4);
	assert_int_equal(n, nq);
	char want[256];
	assert_true(n <= sizeof(want));
	memset(want, 1, sizeof(want));
	struct unc_spec s;
	unc_spec_default(&s);
	s.samples = 200;
	s.seed = 5;
	assert_int_equal(planner_sample(&in, p, n, want, &s), 0);
	in.jobs = 1;
	assert_int_equal(planner_sample(&in, q, n, want, &s), 0);

	double t90[256], c90[256];
	for (size_t i = 0; i < n; i++) {
		const struct unc_result *u = &p[i].unc;
		assert_true(p[i].sampled);
		assert_true(u->has_cost);
		/* The sampled workload is the point's own plan. */
		assert_close(u->point_step_s, p[i].step_time_s, TOL_TIGHT);
		assert_true(u->total_s.p10 <= u->total_s.p50 && u->total_s.p50 <= u->total_s.p90);
		assert_true(u->cost_usd.p10 <= u->cost_usd.p50 && u->cost_usd.p50 <= u->cost_usd.p90);
		/* Threads change nothing. */
		assert_true(u->total_s.p90 == q[i].unc.total_s.p90);
		assert_true(u->cost_usd.p90 == q[i].unc.cost_usd.p90);
		t90[i] = u->total_s.p90;
		c90[i] = u->cost_usd.p90;
	}
	qsort(t90, n, sizeof(double), cmp_double);
	qsort(c90, n, sizeof(double), cmp_double);

	/* Cheapest at P90 among the plans that meet the deadline at P90. */
	double deadline = t90[n / 2];
	size_t k = 0;
	long best = planner_select(p, n, PLAN_RISK_P90, deadline, 0, &k);
	assert_true(best >= 0);
	assert_true(k >= n / 2);
	assert_true(p[best].unc.total_s.p90 <= deadline);
	for (size_t j = 0; j < n; j++)
		if (p[j].unc.total_s.p90 <= deadline)
			assert_true(p[best].unc.cost_usd.p90 <= p[j].unc.cost_usd.p90);

	/* Fastest at P90 among the plans within the budget at P90. */
	double budget = c90[n / 2];
	best = planner_select(p, n, PLAN_RISK_P90, 0, budget, &k);
	assert_true(best >= 0);
	assert_true(p[best].unc.cost_usd.p90 <= budget);
	for (size_t j = 0; j < n; j++)
		if (p[j].unc.cost_usd.p90 <= budget)
			assert_true(p[best].unc.total_s.p90 <= p[j].unc.total_s.p90);

	/* The point estimate ranks as before: cheapest meeting the deadline. */
	best = planner_select(p, n, PLAN_RISK_P50, deadline, 0, &k);
	assert_true(best >= 0);
	for (size_t j = 0; j < n; j++)
		if (p[j].total_time_s <= deadline)
			assert_true(p[best].cost_usd <= p[j].cost_usd);

	/* A plan without samples is no candidate at P90. */
	best = planner_select(p, n, PLAN_RISK_P90, deadline, 0, NULL);
	p[best].sampled = 0;
	assert_false(planner_meets(&p[best], PLAN_RISK_P90, deadline, 0));
	assert_int_not_equal(planner_select(p, n, PLAN_RISK_P90, deadline, 0, NULL), best);
	int front[256];
	planner_pareto_ranked(p, n, PLAN_RISK_P90, front);
	assert_false(front[best]);
	free(p);
	free(q);
}

/* The front drops a faster plan that saves no more than PLAN_PARETO_TOL of
 * the time of a cheaper one: 4096 GPUs at 7.8 h for $4x against 1024 at
 * 7.8 h x 1.01 for $x is no choice worth showing. */
static void test_pareto_tolerance(void **state)
{
	(void)state;
	struct plan_point p[4];
	memset(p, 0, sizeof(p));
	const double t[4] = { 7.8 * 3600, 7.8 * 3600 * 1.01, 10 * 3600, 5 * 3600 };
	const double c[4] = { 4000, 1000, 500, 9000 };
	for (int i = 0; i < 4; i++) {
		p[i].total_time_s = t[i];
		p[i].cost_usd = c[i];
	}
	int front[4];
	planner_pareto(p, 4, front);
	assert_false(front[0]); /* 1 % faster than [1] for 4x the money */
	assert_true(front[1]);  /* 23 % faster than [2] */
	assert_true(front[2]);  /* the cheapest */
	assert_true(front[3]);  /* 36 % faster than [1] */
	assert_close(PLAN_PARETO_TOL, 0.02, TOL_EXACT);
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
	assert_non_null(strstr(r.out, "over the 1.00 s deadline"));
	done(&r);
	/* The bundled example: a 70B fine-tune with a 7-day deadline needs
	 * more than one 8-GPU instance, and no L40S or GH200 offer of the
	 * tables states a network between instances: nothing can be rented,
	 * and the message names the largest order on sale (8 L40S). */
	const char *c[] = { "plan", "examples/plan-70b-finetune.yaml", "--deadline", "7d",
			    "--max-gpus", "256", "--gpus", "l40s,gh200" };
	r = run(8, c);
	assert_int_equal(r.rc, TC_EXIT_INPUT);
	assert_non_null(strstr(r.err, "traincost plan: no offer can host the "));
	assert_non_null(strstr(r.err, "the largest order on sale holds 8 GPUs (aws g6e.48xlarge)"));
	assert_null(strstr(r.out, "Cheapest plan"));
	done(&r);
	/* H100 and A100 are sold in EFA-joined orders (aws p5, p4de): priced. */
	const char *e[] = { "plan", "examples/plan-70b-finetune.yaml", "--deadline", "7d",
			    "--max-gpus", "256", "--gpus", "h100-sxm,a100-80gb-sxm" };
	r = run(8, e);
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "Cheapest plan"));
	done(&r);
}

int main(void)
{
	tc_use_test_data();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_count),
		cmocka_unit_test(test_invalid_row_reason),
		cmocka_unit_test(test_jobs_identical),
		cmocka_unit_test(test_direct_equals_tree),
		cmocka_unit_test(test_shards_concatenate),
		cmocka_unit_test(test_unknown_path),
		cmocka_unit_test(test_layout_auto_matches_compare),
		cmocka_unit_test(test_atomic_output),
		cmocka_unit_test(test_interrupted_output),
		cmocka_unit_test(test_planner_brute_force),
		cmocka_unit_test(test_planner_offer_network_time),
		cmocka_unit_test(test_planner_risk),
		cmocka_unit_test(test_plan_command),
		cmocka_unit_test(test_preloaded_frameworks),
		cmocka_unit_test(test_pareto_tolerance),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
