/*
 * cmd_sweep.c - `traincost sweep SWEEP.yaml`: one row per configuration of
 * a sweep file, evaluated in parallel threads and written in order.
 *
 * Rows are cut into chunks; workers take chunks in order and format them
 * into slot buffers (at most SLOTS_PER_JOB per thread in flight, so memory
 * stays flat), and the calling thread writes the slots in chunk order.  The
 * text of a row depends only on the row, so any --jobs gives the same bytes.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../io/gpu_load.h"
#include "../io/price_load.h"
#include "../io/sweep_ids.h"
#include "../io/sweep_load.h"
#include "../report/chart.h"
#include "../report/estimate_report.h"
#include "../report/json.h"
#include "../report/plot_sweep.h"
#include "../util/outfile.h"
#include "../util/pool.h"
#include "cmd_sweep.h"
#include "cli_ctx.h"
#include "money.h"
#include "plan_args.h"
#include "opts.h"
#include "plot_out.h"
#include "sweep_cells.h"
#include "sweep_eval.h"
#include "sweep_run.h"

static const char *const formats[] = { "csv", "json", "table", "md", NULL };

/* The metrics --plot-y can draw: result columns that are numbers. */
static const char *const plot_metrics[] = {
	"total_time_s", "step_time_s", "gpu_hours", "mfu_frac", "memory_per_gpu_bytes",
	"cost_usd", NULL,
};
/* Each metric's axis: its name and unit (NULL: a time in seconds, shown
 * in a unit chosen from the data). */
static const struct {
	const char *name, *unit;
} plot_metric_axes[] = {
	{ "total time", NULL }, { "step time", NULL }, { "GPU-hours", "h" }, { "MFU", "%" },
	{ "memory per GPU", "GB" }, { "cost", "USD" },
};
#define PLOT_MAX_ROWS 100000 /* configurations one chart can show */

/* ---- progress -------------------------------------------------------------- */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* "rows done, rows/s, time left" on a terminal's stderr. */
static void progress(FILE *err, uint64_t done, uint64_t total, double t0, int last)
{
	double dt = now_s() - t0;
	double rate = dt > 0 ? (double)done / dt : 0;
	double left = rate > 0 ? (double)(total - done) / rate : 0;
	fprintf(err, "\r%llu/%llu rows, %.0f rows/s, %.0f s left   %s",
		(unsigned long long)done, (unsigned long long)total, rate, left,
		last ? "\n" : "");
	fflush(err);
}

/* ---- set-up ---------------------------------------------------------------- */

/* Resolve a GPU id into R->gpus with its offers.  Unknown ids are skipped
 * (rows report them). */
static int add_gpu(struct run *R, const char *id)
{
	if (!id[0] || sweep_find_gpu(R, id))
		return 0;
	struct gpu g;
	char why[512];
	if (gpu_catalog_lookup(R->cat, id, &g, why, sizeof(why)))
		return 0;
	struct gpu_entry *ng = realloc(R->gpus, (R->ngpus + 1) * sizeof(*ng));
	if (!ng)
		return -1;
	R->gpus = ng;
	struct gpu_entry *ge = &R->gpus[R->ngpus];
	memset(ge, 0, sizeof(*ge));
	ge->g = g;
	R->ngpus++;
	if (!R->prices->count)
		return 0;
	ge->tables = calloc(R->prices->count, sizeof(*ge->tables));
	if (!ge->tables)
		return -1;
	for (size_t t = 0; t < R->prices->count; t++) {
		const struct price_table *src = &R->prices->tables[t];
		size_t n = 0;
		for (size_t o = 0; o < src->count; o++)
			n += !strcmp(src->offers[o].gpu, g.id);
		if (!n)
			continue;
		struct price_table *dst = &ge->tables[ge->ntables];
		*dst = *src; /* file, provider... borrowed */
		dst->offers = calloc(n, sizeof(*dst->offers));
		if (!dst->offers)
			return -1;
		dst->count = 0;
		for (size_t o = 0; o < src->count; o++)
			if (!strcmp(src->offers[o].gpu, g.id))
				dst->offers[dst->count++] = src->offers[o];
		ge->ntables++;
	}
	return 0;
}

static void release_gpus(struct run *R)
{
	for (size_t i = 0; i < R->ngpus; i++) {
		for (size_t t = 0; t < R->gpus[i].ntables; t++)
			free(R->gpus[i].tables[t].offers);
		free(R->gpus[i].tables);
	}
	free(R->gpus);
	R->gpus = NULL;
	R->ngpus = 0;
}

/* A varied key as a legend names it: the last part of its path ("tp" for
 * plan.tp), or the whole path where another key ends the same. */
static const char *key_name(const struct sweep *sw, int k)
{
	const char *path = sw->key[k].path, *dot = strrchr(path, '.');
	const char *tail = dot ? dot + 1 : path;
	for (int j = 0; j < sw->nkeys; j++) {
		const char *o = strrchr(sw->key[j].path, '.');
		if (j != k && !strcmp(o ? o + 1 : sw->key[j].path, tail))
			return path;
	}
	return tail;
}

/*
 * --plot: the metric of every row that has it against key xk, one line per
 * combination of the values of the other dimensions.  Returns 0 or an
 * exit code (printed).
 */
static int write_plot(struct cli_ctx *ctx, const struct run *R, int xk, const char *path)
{
	const struct sweep *sw = R->sw;
	const struct sweep_key *xkey = &sw->key[xk];
	size_t nser = 1, n = 0, di[SWEEP_MAX_KEYS];
	for (int d = 0; d < sw->ndims; d++)
		if (d != xkey->dim)
			nser *= sw->dim[d].len;
	double *x = malloc((R->nrows ? R->nrows : 1) * sizeof(*x));
	double *y = malloc((R->nrows ? R->nrows : 1) * sizeof(*y));
	size_t *ser = malloc((R->nrows ? R->nrows : 1) * sizeof(*ser));
	char **names = calloc(nser, sizeof(*names));
	int rc = TC_EXIT_INTERNAL, drawn = 0;
	if (!x || !y || !ser || !names)
		goto out;
	/* A value axis when every value of the key is a number. */
	int numeric = 1, positive = 1;
	double lo = HUGE_VAL, hi = 0;
	for (size_t v = 0; v < xkey->count; v++) {
		char *end;
		double t = strtod(xkey->text[v], &end);
		if (end == xkey->text[v] || *end || !isfinite(t))
			numeric = 0;
		positive &= t > 0;
		lo = fmin(lo, t);
		hi = fmax(hi, t);
	}
	/* The default metric: cost where any row has one, else total time. */
	int metric = R->plot_metric, have = SWEEP_PLOT_HAVE_Y;
	if (metric == SWEEP_PLOT_DEFAULT) {
		metric = 0;
		have = SWEEP_PLOT_HAVE_TIME;
		for (uint64_t i = 0; i < R->nrows; i++)
			if (R->plot_have[i] & SWEEP_PLOT_HAVE_Y) {
				metric = SWEEP_PLOT_COST;
				have = SWEEP_PLOT_HAVE_Y;
				break;
			}
	}
	const double *val = have == SWEEP_PLOT_HAVE_Y ? R->plot_y : R->plot_time;
	for (uint64_t i = 0; i < R->nrows; i++) {
		if (!(R->plot_have[i] & have))
			continue;
		sweep_row_index(sw, R->shard_k + i * R->shard_n, di);
		size_t v = di[xkey->dim], sid = 0;
		for (int d = 0; d < sw->ndims; d++)
			if (d != xkey->dim)
				sid = sid * sw->dim[d].len + di[d];
		x[n] = numeric ? strtod(xkey->text[v], NULL) : (double)v;
		y[n] = val[i];
		ser[n++] = sid;
		if (!names[sid]) {
			/* "gpu=a100-80gb-sxm, precision=bf16": the other keys
			 * with their values */
			char buf[256] = "";
			size_t used = 0;
			for (int k = 0; k < sw->nkeys; k++)
				if (sw->key[k].dim != xkey->dim && used < sizeof(buf))
					used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s=%s",
								 used ? ", " : "", key_name(sw, k),
								 sweep_value_text(sw, k, di));
			names[sid] = strdup(used ? buf : "all");
			if (!names[sid])
				goto out;
		}
	}
	for (size_t k = 0; k < nser; k++)
		if (!names[k] && !(names[k] = strdup("(no result)")))
			goto out;
	/* Times in the unit that suits the largest. */
	const char *unit = plot_metric_axes[metric].unit;
	if (!unit) {
		double top = 0;
		for (size_t i = 0; i < n; i++)
			top = fmax(top, y[i]);
		struct chart_time_unit u = chart_time_unit(top);
		for (size_t i = 0; i < n; i++)
			y[i] /= u.per_s;
		unit = u.name;
	}
	char title[WL_NAME_LEN + 128], keys[256] = "", ylab[64];
	snprintf(ylab, sizeof(ylab), "%s (%s)", plot_metric_axes[metric].name, unit);
	snprintf(title, sizeof(title), "%s: %s", sw->name[0] ? sw->name : sw->file, ylab);
	/* The legend's title: the keys each line's name gives the values of. */
	for (int k = 0, used = 0; k < sw->nkeys; k++)
		if (sw->key[k].dim != xkey->dim && used < (int)sizeof(keys))
			used += snprintf(keys + used, sizeof(keys) - (size_t)used, "%s%s",
					 used ? ", " : "", sw->key[k].path);
	struct plot_sweep ps = {
		.title = title, .x_label = xkey->path, .y_label = ylab,
		.x = x, .y = y, .series = ser, .n = n,
		.x_names = numeric ? NULL : (const char *const *)xkey->text,
		.nx = xkey->count, .series_names = (const char *const *)names, .nseries = nser,
		.legend_title = keys[0] ? keys : NULL,
		.log_x = numeric && positive && hi >= 10 * lo, /* a decade or more */
	};
	struct svg s;
	plot_sweep(&s, 1, &ps);
	drawn = 1;
	rc = plot_out_write(ctx, "sweep", &s, path);
out:
	if (!drawn)
		fputs("traincost sweep: out of memory\n", ctx->err);
	for (size_t k = 0; names && k < nser; k++)
		free(names[k]);
	free(names);
	free(ser);
	free(x);
	free(y);
	return rc;
}

/* The header (CSV, table, Markdown) or the opening (JSON). */
static int write_head(struct run *R, struct outfile *of)
{
	char buf[8192];
	struct rep_buf b = { buf, 0, sizeof(buf) };
	if (R->st.fmt == REP_STREAM_JSON) {
		b.len = (size_t)snprintf(buf, sizeof(buf), "{\"format_version\":%d,\"command\":\"sweep\","
					 "\"file\":", REP_FORMAT_VERSION);
		rep_stream_json_text(&b, R->sw->file, strlen(R->sw->file));
		b.len += (size_t)snprintf(buf + b.len, sizeof(buf) - b.len,
					  ",\"configurations\":%llu,\"shard\":\"%llu/%llu\",\"rows\":[\n",
					  (unsigned long long)R->sw->rows,
					  (unsigned long long)R->shard_k,
					  (unsigned long long)R->shard_n);
		return outfile_write(of, buf, b.len);
	}
	if (R->shard_k != 0 && R->st.fmt != REP_STREAM_TABLE)
		return 0; /* only the first shard has the header: cat gives one */
	rep_stream_head(&R->st, &b);
	return outfile_write(of, buf, b.len);
}

static int parse_shard(struct cli_ctx *ctx, const char *s, uint64_t *k, uint64_t *n)
{
	char *end;
	errno = 0;
	unsigned long long a = strtoull(s, &end, 10);
	if (errno || end == s || *end != '/' || s[0] == '-')
		goto bad;
	const char *s2 = end + 1;
	unsigned long long b = strtoull(s2, &end, 10);
	if (errno || end == s2 || *end || s2[0] == '-' || b < 1 || b > 1000000 || a >= b)
		goto bad;
	*k = a;
	*n = b;
	return 0;
bad:
	return cli_usage_error(ctx, "sweep", "--shard '%s' is not valid (expected K/N with 0 <= K < N, as in 0/4)", s);
}

/*
 * Evaluate the rows of *R on `jobs` threads and write them to *of in
 * order, chunk by chunk, with a progress line on a terminal.  Returns 0,
 * or -1 when writing failed (the workers are stopped); R->failed tells of
 * a failure of the workers themselves.
 */
static int write_rows(struct cli_ctx *ctx, struct run *R, struct outfile *of, int jobs)
{
	pthread_mutex_init(&R->mu, NULL);
	pthread_cond_init(&R->cv, NULL);
	struct tc_pool pool;
	int nth = tc_pool_start(&pool, (uint64_t)jobs < R->nchunks ? jobs : (int)R->nchunks,
				sweep_worker_main, R);
	int tty = isatty(fileno(ctx->err));
	double t0 = now_s(), tlast = t0;
	int werr = 0;
	if (!nth && R->nchunks)
		R->failed = 1;
	for (uint64_t c = 0; c < R->nchunks; c++) {
		struct slot *s = &R->slots[c % (uint64_t)R->nslots];
		pthread_mutex_lock(&R->mu);
		while (!R->failed && !(s->ready && s->chunk == c))
			pthread_cond_wait(&R->cv, &R->mu);
		int failed = R->failed;
		pthread_mutex_unlock(&R->mu);
		if (failed)
			break;
		if (!werr && outfile_write(of, s->buf, s->len))
			werr = 1;
		pthread_mutex_lock(&R->mu);
		s->ready = 0;
		R->written = c + 1;
		if (werr)
			R->failed = 1; /* stop the workers: the output is lost */
		pthread_cond_broadcast(&R->cv);
		pthread_mutex_unlock(&R->mu);
		if (werr)
			break;
		if (tty && now_s() - tlast > 0.2) {
			tlast = now_s();
			uint64_t done = (c + 1) * CHUNK_ROWS;
			progress(ctx->err, done < R->nrows ? done : R->nrows, R->nrows, t0, 0);
		}
	}
	tc_pool_join(&pool);
	pthread_cond_destroy(&R->cv);
	pthread_mutex_destroy(&R->mu);
	if (tty && R->nrows)
		progress(ctx->err, R->written * CHUNK_ROWS < R->nrows ? R->written * CHUNK_ROWS : R->nrows,
			 R->nrows, t0, 1);
	return werr ? -1 : 0;
}

/* The GPUs known up front into R's cache: the base's, the cached bases',
 * the varied values'.  0, or -1 when out of memory. */
static int add_known_gpus(struct run *R, const struct sweep *sw)
{
	if (add_gpu(R, sw->base_w.plan.gpu))
		return -1;
	for (size_t b = 0; b < sw->nbases; b++)
		if (sw->bases[b].ok && add_gpu(R, sw->bases[b].w.plan.gpu))
			return -1;
	for (int k = 0; k < sw->nkeys; k++)
		for (size_t v = 0; sw->key[k].probe && v < sw->key[k].count; v++)
			if (sw->key[k].probe[v].ok && add_gpu(R, sw->key[k].probe[v].plan.gpu))
				return -1;
	return 0;
}

/* --plot: the varied key along x into *plot_k, the metric, and room for
 * a value per row in *R.  Returns 0, or an exit code after printing the
 * problem. */
static int plot_setup(struct cli_ctx *ctx, struct run *R, const char *plot_x,
		      const char *plot_y, int *plot_k)
{
	const struct sweep *sw = R->sw;
	*plot_k = plot_x ? -1 : 0;
	for (int k = 0; plot_x && k < sw->nkeys; k++)
		if (!strcmp(sw->key[k].path, plot_x))
			*plot_k = k;
	if (*plot_k < 0 || !sw->nkeys)
		return cli_usage_error(ctx, "sweep", "--plot-x '%s' is not a varied key of %s (expected one of its vary: paths)",
				       plot_x ? plot_x : "", sw->file);
	if (R->nrows > PLOT_MAX_ROWS)
		return cli_usage_error(ctx, "sweep", "--plot draws at most %d configurations, not %llu (expected a smaller sweep or --shard)",
				       PLOT_MAX_ROWS, (unsigned long long)R->nrows);
	R->plot_metric = plot_y ? 0 : SWEEP_PLOT_DEFAULT;
	while (plot_y && strcmp(plot_metrics[R->plot_metric], plot_y))
		R->plot_metric++;
	R->plot_y = calloc(R->nrows ? R->nrows : 1, sizeof(*R->plot_y));
	R->plot_have = calloc(R->nrows ? R->nrows : 1, 1);
	if (!plot_y)
		R->plot_time = calloc(R->nrows ? R->nrows : 1, sizeof(*R->plot_time));
	if (!R->plot_y || !R->plot_have || (!plot_y && !R->plot_time)) {
		fprintf(ctx->err, "traincost sweep: out of memory\n");
		return TC_EXIT_INTERNAL;
	}
	return 0;
}

/* The command line of a sweep. */
struct sweep_args {
	const char *file, *out, *fmt, *jobs_s, *shard, *calibration, *plot, *plot_x, *plot_y,
		*framework, *headroom;
	int tree, include_unverified, jobs, steady_state;
};

/*
 * Parse the command line into *a (the threads in a->jobs) and the shard
 * into R.  Returns 0, CLI_HELP_SHOWN, or an exit code after printing the
 * problem.
 */
static int parse_args(struct cli_ctx *ctx, int argc, char **argv, struct sweep_args *a,
		      struct run *R)
{
	*a = (struct sweep_args){ .fmt = "csv" };
	const struct cli_opt mine[] = {
		{ .name = "output", .value = &a->out, .short_name = 'o', .arg = "OUT",
		  .help = "write to OUT (a temporary file renamed at the end)" },
		CLI_CHOICE("format", &a->fmt, formats, "F", "output format"),
		CLI_VALUE("jobs", &a->jobs_s, "N",
			  "threads (default: the machine's cores); the output is the same"),
		CLI_VALUE("shard", &a->shard, "K/N",
			  "only configurations K, K+N, K+2N, ... (0 <= K < N); shard 0 writes the "
			  "CSV header, so the shards concatenate"),
		CLI_HIDDEN_FLAG("through-tree", &a->tree), /* tests: no direct path */
		CLI_VALUE("memory-headroom", &a->headroom, "F", MEMORY_HEADROOM_HELP),
		CLI_VALUE("calibration", &a->calibration, "FILE", CALIBRATION_HELP),
		CLI_VALUE("framework", &a->framework, "ID",
			  "software-stack profile of every row, as if the base named it (see "
			  "`traincost frameworks`; not with a varied plan.framework)"),
		CLI_FLAG("include-unverified", &a->include_unverified,
			 "also price offers marked verified: false"),
		CLI_VALUE("plot", &a->plot, "FILE",
			  "also draw a metric against one varied key as an SVG chart into FILE, a "
			  "line per combination of the others"),
		CLI_VALUE("plot-x", &a->plot_x, "PATH", "the varied key along x (default: the first)"),
		CLI_CHOICE("plot-y", &a->plot_y, plot_metrics, "M",
			   "the metric along y (default: cost, else total time)"),
	};
	struct cli_opts opts = { 0 };
	CLI_OPTS_ADD(&opts, mine);
	money_basis_opts(&a->steady_state, &opts);
	char *pos[CLI_MAX_POS];
	int npos, rc;
	rc = cli_parse(ctx, "sweep", argc, argv, opts.row, pos, &npos);
	if (rc)
		return rc;
	if (npos != 1)
		return cli_usage_error(ctx, "sweep", "%s", npos ? "too many files (expected one sweep file)"
							       : "no sweep file given (expected SWEEP.yaml)");
	a->file = pos[0];
	if ((rc = plot_out_check(ctx, "sweep", a->plot)))
		return rc;
	a->jobs = tc_pool_size(0, TC_POOL_MAX);
	if (a->jobs_s && cli_int_arg(ctx, "sweep", "jobs", a->jobs_s, 1, TC_POOL_MAX, &a->jobs))
		return TC_EXIT_USAGE;
	R->shard_k = 0;
	R->shard_n = 1;
	if (a->shard && parse_shard(ctx, a->shard, &R->shard_k, &R->shard_n))
		return TC_EXIT_USAGE;
	if (cli_headroom_arg(ctx, "sweep", a->headroom, &R->memory_headroom_frac))
		return TC_EXIT_USAGE;
	R->steady_state = a->steady_state;
	return 0;
}

int cmd_sweep(int argc, char **argv, struct cli_ctx *ctx)
{
	struct sweep_args a;
	struct run R;
	memset(&R, 0, sizeof(R));
	int rc = parse_args(ctx, argc, argv, &a, &R);
	if (rc)
		return rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;
	struct sweep sw;
	struct gpu_catalog cat = { 0 };
	struct price_set prices = { 0 };
	struct tc_diag d;
	struct outfile of = { .fd = -1 };
	int have_of = 0;
	tc_diag_init(&d);
	/* An unknown --framework is named as the option, before the file. */
	struct plan fw_check;
	if (a.framework && (rc = cli_framework_arg(ctx, a.framework, &fw_check)))
		return rc;
	const struct sweep_overrides ov = { .framework = a.framework };
	if (sweep_load_file_with(a.file, &ov, &ctx->data, &sw, &d))
		return cli_report(ctx, &d);
	if (sweep_check_ids(&sw, &ctx->data, &d)) { /* before any row, as `check` */
		sweep_release(&sw);
		return cli_report(ctx, &d);
	}
	sw.force_tree = a.tree;
	rc = TC_EXIT_OK;
	struct cal_overlay cal;
	if ((rc = cli_load_catalog(ctx, a.calibration, &cat, &cal)))
		goto out;
	R.cal = cal_layer(&cal);
	if (a.calibration) /* every row says which efficiencies it used */
		snprintf(R.calibration, sizeof(R.calibration), "%s (fitted on %s)",
			 a.calibration, cal.eff.gpu);
	if ((rc = money_load_prices(ctx, NULL, PRICE_STALE_DAYS, a.include_unverified, &prices)))
		goto out;
	rep_stream_init(&R.st, R.cols, sweep_cols(&sw, R.calibration[0] != 0, R.cols), a.fmt);
	R.sw = &sw;
	R.dp = &ctx->data;
	R.cat = &cat;
	R.prices = &prices;
	if (add_known_gpus(&R, &sw))
		goto oom;
	R.nrows = sw.rows > R.shard_k ? (sw.rows - R.shard_k + R.shard_n - 1) / R.shard_n : 0;
	int plot_k = 0;
	if (a.plot && (rc = plot_setup(ctx, &R, a.plot_x, a.plot_y, &plot_k)))
		goto out;
	R.nchunks = (R.nrows + CHUNK_ROWS - 1) / CHUNK_ROWS;
	R.nslots = a.jobs * SLOTS_PER_JOB;
	R.slots = calloc((size_t)R.nslots, sizeof(*R.slots));
	if (!R.slots)
		goto oom;

	if (outfile_open(&of, a.out, ctx->out, &d)) {
		rc = cli_report(ctx, &d);
		goto out;
	}
	have_of = 1;
	if (write_head(&R, &of))
		goto io;

	if (write_rows(ctx, &R, &of, a.jobs))
		goto io;
	if (R.failed) {
		if (R.fail_msg[0]) {
			fprintf(ctx->err, "traincost sweep: %s\n", R.fail_msg);
			rc = TC_EXIT_INTERNAL;
			goto out;
		}
		goto oom;
	}
	if (R.st.fmt == REP_STREAM_JSON && outfile_write(&of, "\n]}\n", R.nrows ? 4 : 3))
		goto io;
	/* The chart before the rows are committed: a failed chart leaves neither. */
	if (a.plot && (rc = write_plot(ctx, &R, plot_k, a.plot)))
		goto out;
	have_of = 0;
	if (outfile_commit(&of, &d)) {
		rc = cli_report(ctx, &d);
		goto out;
	}
	goto out;
io:
	if (outfile_commit(&of, &d) == 0) /* a stream: report its error */
		fprintf(ctx->err, "traincost sweep: cannot write the output\n");
	else
		cli_report(ctx, &d);
	have_of = 0;
	rc = TC_EXIT_IO;
	goto out;
oom:
	fprintf(ctx->err, "traincost sweep: out of memory\n");
	rc = TC_EXIT_INTERNAL;
out:
	if (have_of)
		outfile_abort(&of);
	for (int i = 0; R.slots && i < R.nslots; i++)
		free(R.slots[i].buf);
	free(R.slots);
	release_gpus(&R);
	free(R.plot_y);
	free(R.plot_time);
	free(R.plot_have);
	price_set_release(&prices);
	gpu_catalog_release(&cat);
	sweep_release(&sw);
	return rc;
}
