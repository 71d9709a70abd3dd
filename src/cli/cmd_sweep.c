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
#include "../io/sweep_load.h"
#include "../model/llm.h"
#include "../model/search.h"
#include "../report/estimate_report.h"
#include "../report/json.h"
#include "../report/layout_text.h"
#include "../report/plot.h"
#include "../report/rowfmt.h"
#include "../util/outfile.h"
#include "../util/utf8.h"
#include "cli.h"
#include "money.h"
#include "plan_args.h"
#include "opts.h"
#include "plot_out.h"

#define CHUNK_ROWS 512      /* rows per unit of work */
#define SLOTS_PER_JOB 4     /* chunks in flight per thread */
#define MAX_JOBS 256
#define ROW_MAX_BYTES 8192  /* one row, all columns (values are capped) */

enum sw_fmt { FMT_CSV, FMT_JSON, FMT_TABLE, FMT_MD };
static const char *const formats[] = { "csv", "json", "table", "md", NULL };

/* The fixed result columns, after `config` and the varied inputs. */
static const char *const result_cols[] = {
	"step_time_s", "total_time_s", "gpu_hours", "mfu_frac",
	"memory_per_gpu_bytes", "fits", "limiting", "provider", "instance",
	"region", "cost_usd", "reason",
};
#define N_RESULT (sizeof(result_cols) / sizeof(result_cols[0]))
#define TABLE_W 14 /* table cell width */

/* A GPU of the sweep with its offers, resolved once. */
struct gpu_entry {
	struct gpu g;
	struct price_table *tables; /* owned array; offers owned, rest borrowed */
	size_t ntables;
};

struct slot {
	char *buf;        /* owned */
	size_t len, cap;
	uint64_t chunk;
	int ready;
};

struct run {
	const struct sweep *sw;
	const struct tc_datapath *dp;
	const struct gpu_catalog *cat;
	const struct price_set *prices;
	struct gpu_entry *gpus;   /* owned */
	size_t ngpus;
	enum sw_fmt fmt;
	char calibration[CAL_TEXT_LEN + GPU_ID_LEN + 32]; /* "" or the
							     overlay applied */
	uint64_t shard_k, shard_n, nrows, nchunks;
	/* threads */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t next_chunk, written;
	struct slot *slots;       /* owned */
	int nslots;
	int failed;               /* out of memory or a non-finite result */
	char fail_msg[256];
	/* --plot: each row's metric, by its place in the shard (owned) */
	double *plot_y;
	char *plot_have;          /* the row has the metric */
	int plot_metric;          /* index into plot_metrics */
};

/* The metrics --plot-y can draw: result columns that are numbers. */
static const char *const plot_metrics[] = {
	"total_time_s", "step_time_s", "gpu_hours", "mfu_frac", "memory_per_gpu_bytes",
	"cost_usd", NULL,
};
static const char *const plot_metric_labels[] = {
	"total time (days)", "step time (s)", "GPU-hours (h)", "MFU (%)",
	"memory per GPU (GB)", "cost (USD)",
};
#define PLOT_MAX_ROWS 100000 /* configurations one chart can show */

/* ---- row text ------------------------------------------------------------ */

struct rowbuf {
	char *p;
	size_t len, cap;
	int col;        /* cells so far in this row */
	enum sw_fmt fmt;
};

static void put(struct rowbuf *r, const char *s, size_t n)
{
	if (r->len + n >= r->cap)
		n = r->cap - r->len - 1; /* capped; never reached with ROW_MAX_BYTES */
	memcpy(r->p + r->len, s, n);
	r->len += n;
}

static void putc_(struct rowbuf *r, char c)
{
	if (r->len + 1 < r->cap)
		r->p[r->len++] = c;
}

/* A text cell; `name` is the column (JSON key). */
static void cell_text(struct rowbuf *r, const char *name, const char *s)
{
	size_t n = strlen(s);
	if (n > 1000)
		n = 1000;
	switch (r->fmt) {
	case FMT_CSV:
		if (r->col)
			putc_(r, ',');
		if (strpbrk(s, ",\"\r\n")) {
			putc_(r, '"');
			for (size_t i = 0; i < n; i++) {
				if (s[i] == '"')
					putc_(r, '"');
				putc_(r, s[i]);
			}
			putc_(r, '"');
		} else {
			put(r, s, n);
		}
		break;
	case FMT_JSON:
		if (r->col)
			putc_(r, ',');
		putc_(r, '"');
		put(r, name, strlen(name));
		put(r, "\":", 2);
		if (!s[0]) { /* no value: no result, no offer, no reason */
			put(r, "null", 4);
			break;
		}
		putc_(r, '"');
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)s[i];
			if (c == '"' || c == '\\') {
				putc_(r, '\\');
				putc_(r, (char)c);
			} else if (c < 0x20) {
				char esc[8];
				snprintf(esc, sizeof(esc), "\\u%04x", c);
				put(r, esc, 6);
			} else {
				putc_(r, (char)c);
			}
		}
		putc_(r, '"');
		break;
	case FMT_TABLE: {
		/* Line breaks, terminal escapes and bidi overrides shown as
		 * \uXXXX (the 1000 bytes kept above fit escaped). */
		char e[TC_ESC_SIZE(1000)];
		size_t w = tc_utf8_escape(s, n, e, sizeof(e), TC_ESC_TEXT);
		if (r->col)
			putc_(r, ' ');
		put(r, e, w);
		for (; w < TABLE_W; w++)
			putc_(r, ' ');
		break;
	}
	case FMT_MD: {
		char e[TC_ESC_SIZE(1000)];
		size_t w = tc_utf8_escape(s, n, e, sizeof(e), TC_ESC_MD);
		put(r, r->col ? " | " : "| ", r->col ? 3 : 2);
		put(r, e, w);
		break;
	}
	}
	r->col++;
}

/* A cell of n bytes that needs no quoting or escaping in CSV or a table
 * (a number); JSON text cells still go through cell_text(). */
static void cell_plain(struct rowbuf *r, const char *name, const char *s,
		       size_t n)
{
	size_t w;

	if (r->fmt == FMT_JSON) {
		cell_text(r, name, s);
		return;
	}
	if (r->fmt == FMT_MD)
		put(r, r->col ? " | " : "| ", r->col ? 3 : 2);
	else if (r->col)
		putc_(r, r->fmt == FMT_CSV ? ',' : ' ');
	put(r, s, n);
	if (r->fmt == FMT_TABLE)
		for (w = n; w < TABLE_W; w++)
			putc_(r, ' ');
	r->col++;
}

/* A number cell, or an empty cell (JSON null) when !have. */
static void cell_num(struct rowbuf *r, const char *name, double v, int have)
{
	char b[ROWFMT_MAX];
	int n;

	if (!have) {
		if (r->fmt == FMT_JSON) {
			if (r->col)
				putc_(r, ',');
			putc_(r, '"');
			put(r, name, strlen(name));
			put(r, "\":null", 6);
			r->col++;
		} else {
			cell_text(r, name, r->fmt == FMT_TABLE ? "-" : "");
		}
		return;
	}
	n = rowfmt_g6(b, v);
	if (r->fmt == FMT_JSON) {
		if (r->col)
			putc_(r, ',');
		putc_(r, '"');
		put(r, name, strlen(name));
		put(r, "\":", 2);
		put(r, b, (size_t)n);
		r->col++;
	} else {
		cell_plain(r, name, b, (size_t)n);
	}
}

static void cell_bool(struct rowbuf *r, const char *name, int v, int have)
{
	if (r->fmt == FMT_JSON) {
		if (r->col)
			putc_(r, ',');
		putc_(r, '"');
		put(r, name, strlen(name));
		put(r, "\":", 2);
		put(r, !have ? "null" : v ? "true" : "false", !have ? 4 : v ? 4 : 5);
		r->col++;
	} else {
		cell_text(r, name, !have ? (r->fmt == FMT_TABLE ? "-" : "") : v ? "true" : "false");
	}
}

/* ---- evaluation ------------------------------------------------------------ */

/* The GPU entry of `id`, or NULL when not resolved up front. */
static const struct gpu_entry *find_gpu(const struct run *R, const char *id)
{
	for (size_t i = 0; i < R->ngpus; i++)
		if (!strcmp(R->gpus[i].g.id, id))
			return &R->gpus[i];
	return NULL;
}

/* Per-thread scratch. */
struct worker {
	struct est_workspace ws;
	struct workload w;
	long w_base;          /* the cached base w holds, or -1 */
	struct workload auto_w; /* layout: auto: w with the layout chosen */
	struct estimate e;
	struct gpu g;         /* for GPUs outside the cache */
};

/* Cheapest offer over `tables` for provider filter `prov`, on instances of
 * at least a node of the plan (or the whole job when it is smaller). */
static int price_row(const struct price_table *t, size_t n, const char *prov,
		     const char *gpu, enum cost_kind kind, double gpus, double node,
		     double run_s, struct cost_range *out)
{
	double shape = gpus < node ? gpus : node;
	if (!prov || !prov[0])
		return cost_range_shaped(t, n, gpu, kind, gpus, shape, run_s, out);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].provider, prov))
			return cost_range_shaped(&t[i], 1, gpu, kind, gpus, shape, run_s, out);
	return -1;
}

/* "does not fit: needs 129.3 GB per GPU of 80.0 GB", without snprintf
 * (a third of the rows of a wide sweep take this path). */
static void no_fit_reason(char *p, const struct estimate *e)
{
	static const char a[] = "does not fit: needs ", b[] = " GB per GPU of ";
	size_t len = sizeof(a) - 1;

	memcpy(p, a, len);
	len += (size_t)rowfmt_fixed1(p + len, e->memory_per_gpu_bytes / 1e9);
	memcpy(p + len, b, sizeof(b) - 1);
	len += sizeof(b) - 1;
	len += (size_t)rowfmt_fixed1(p + len, e->memory_capacity_bytes / 1e9);
	memcpy(p + len, " GB", 4);
}

/* Append one configuration's row to rb.  Returns 0, or -1 on an internal
 * error (message in R->fail_msg under the lock). */
static int eval_row(struct run *R, struct worker *W, uint64_t row, int first,
		    struct rowbuf *rb)
{
	const struct sweep *sw = R->sw;
	size_t di[SWEEP_MAX_KEYS];
	char reason[512] = "";
	struct sweep_pricing pr;
	char cfg[ROWFMT_MAX];
	int cfg_len;

	sweep_row_index(sw, row, di);
	rb->col = 0;
	if (rb->fmt == FMT_JSON)
		put(rb, first ? "{" : ",\n{", first ? 1 : 3);
	cfg_len = rowfmt_u64(cfg, row);
	if (rb->fmt == FMT_JSON) {
		put(rb, "\"config\":", 9);
		put(rb, cfg, (size_t)cfg_len);
		put(rb, ",\"inputs\":{", 11);
		rb->col = 0;
	} else {
		cell_plain(rb, "config", cfg, (size_t)cfg_len);
	}
	for (int k = 0; k < sw->nkeys; k++)
		cell_text(rb, sw->key[k].path, sweep_value_text(sw, k, di));
	if (rb->fmt == FMT_JSON) {
		putc_(rb, '}');
		rb->col = 1;
	}

	int rc = sweep_row_workload(sw, di, R->dp, &W->w, &W->w_base, &pr, reason,
				    sizeof(reason));
	if (rc < 0)
		return -1;
	const struct gpu *g = NULL;
	const struct gpu_entry *ge = NULL;
	if (!rc) {
		if (!W->w.plan.gpu[0]) {
			snprintf(reason, sizeof(reason),
				 "no GPU chosen (expected plan.gpu in the base or in vary)");
			rc = 1;
		} else if ((ge = find_gpu(R, W->w.plan.gpu))) {
			g = &ge->g;
		} else if (gpu_catalog_lookup(R->cat, W->w.plan.gpu, &W->g, reason, sizeof(reason))) {
			rc = 1;
		} else {
			g = &W->g;
		}
	}
	struct plan_problem why = { WLF_NONE, "" };
	const struct workload *used = &W->w;
	if (!rc && sw->layout_auto) {
		/* The same search as compare at this count (search.h). */
		struct search_knobs kn;
		search_knobs_all(&kn);
		if (search_best_at(&W->w, g, W->w.plan.count, &kn, &W->ws, &W->auto_w, &W->e, &why)) {
			snprintf(reason, sizeof(reason), "%s", why.msg);
			rc = 1;
		}
		used = &W->auto_w;
	} else if (!rc && step_estimate_brief(&W->w, g, &W->ws, &W->e, &why)) {
		snprintf(reason, sizeof(reason), "%s", why.msg);
		rc = 1;
	}
	const struct estimate *e = &W->e;
	int ok = !rc;
	if (ok) {
		const double v[] = { e->step_time_s, e->total_time_s, e->gpu_hours,
				     e->mfu_frac, e->memory_per_gpu_bytes };
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
			if (!isfinite(v[i])) {
				pthread_mutex_lock(&R->mu);
				snprintf(R->fail_msg, sizeof(R->fail_msg),
					 "internal error: non-finite result in configuration %llu",
					 (unsigned long long)row);
				pthread_mutex_unlock(&R->mu);
				return -1;
			}
	}
	struct cost_range cr;
	int priced = 0;
	memset(&cr, 0, sizeof(cr)); /* read for the reason even when no table matched */
	if (ok && e->fits) {
		if (ge)
			priced = price_row(ge->tables, ge->ntables, pr.provider, g->id, pr.kind,
					   e->plan.count, e->plan.gpus_per_node, e->total_time_s,
					   &cr) == 0;
		else
			priced = price_row(R->prices->tables, R->prices->count, pr.provider, g->id,
					   pr.kind, e->plan.count, e->plan.gpus_per_node,
					   e->total_time_s, &cr) == 0;
		if (!priced) {
			char why_text[REP_UNPRICED_LEN];
			snprintf(reason, sizeof(reason), "%s%s%s",
				 rep_unpriced(why_text, &cr, pr.kind, g->id, e->plan.count),
				 pr.provider[0] ? " from " : "", pr.provider);
		}
	} else if (ok) {
		no_fit_reason(reason, e);
	}
	cell_num(rb, "step_time_s", e->step_time_s, ok);
	cell_num(rb, "total_time_s", e->total_time_s, ok);
	cell_num(rb, "gpu_hours", e->gpu_hours, ok);
	cell_num(rb, "mfu_frac", e->mfu_frac, ok);
	cell_num(rb, "memory_per_gpu_bytes", e->memory_per_gpu_bytes, ok);
	cell_bool(rb, "fits", e->fits, ok);
	cell_text(rb, "limiting", ok ? limiter_names[e->limiting] : "");
	cell_text(rb, "provider", priced ? cr.cheapest.table->provider : "");
	cell_text(rb, "instance", priced ? cr.cheapest.offer->instance : "");
	cell_text(rb, "region", priced ? cr.cheapest.offer->region : "");
	cell_num(rb, "cost_usd", priced ? cr.cheapest.run.cost_usd : 0, priced);
	cell_text(rb, "reason", reason);
	if (R->plot_y) {
		/* In the units of plot_metric_labels; only runs that fit. */
		const double v[] = { e->total_time_s / 86400, e->step_time_s, e->gpu_hours,
				     100 * e->mfu_frac, e->memory_per_gpu_bytes / 1e9,
				     priced ? cr.cheapest.run.cost_usd : 0 };
		uint64_t i = (row - R->shard_k) / R->shard_n;
		R->plot_have[i] = ok && e->fits && (R->plot_metric != 5 || priced);
		R->plot_y[i] = R->plot_have[i] ? v[R->plot_metric] : 0;
	}
	if (sw->layout_auto) {
		char lay[96];
		cell_text(rb, "layout", ok ? rep_layout_text(lay, sizeof(lay), used, e) : "");
	}
	if (R->calibration[0])
		cell_text(rb, "calibration", R->calibration);
	if (rb->fmt == FMT_JSON)
		putc_(rb, '}');
	else if (rb->fmt == FMT_MD)
		put(rb, " |\n", 3);
	else
		putc_(rb, '\n');
	return 0;
}

/* Evaluate chunk c into slot s.  Returns 0 or -1. */
static int eval_chunk(struct run *R, struct worker *W, uint64_t c, struct slot *s)
{
	uint64_t first = c * CHUNK_ROWS;
	uint64_t last = first + CHUNK_ROWS;
	if (last > R->nrows)
		last = R->nrows;
	s->len = 0;
	for (uint64_t i = first; i < last; i++) {
		if (s->cap - s->len < ROW_MAX_BYTES) {
			size_t nc = s->cap ? 2 * s->cap : (size_t)CHUNK_ROWS * 256;
			char *nb = realloc(s->buf, nc);
			if (!nb)
				return -1;
			s->buf = nb;
			s->cap = nc;
		}
		struct rowbuf rb = { s->buf + s->len, 0, ROW_MAX_BYTES, 0, R->fmt };
		if (eval_row(R, W, R->shard_k + i * R->shard_n, i == 0, &rb))
			return -1;
		s->len += rb.len;
	}
	return 0;
}

static void *worker_main(void *arg)
{
	struct run *R = arg;
	struct worker *W = calloc(1, sizeof(*W));
	if (W)
		W->w_base = -1;
	if (!W || est_workspace_init(&W->ws, LLM_MAX_OPS)) {
		free(W);
		pthread_mutex_lock(&R->mu);
		R->failed = 1;
		pthread_cond_broadcast(&R->cv);
		pthread_mutex_unlock(&R->mu);
		return NULL;
	}
	for (;;) {
		pthread_mutex_lock(&R->mu);
		/* Wait until the next chunk's slot has been written out. */
		while (!R->failed && R->next_chunk < R->nchunks &&
		       R->next_chunk >= R->written + (uint64_t)R->nslots)
			pthread_cond_wait(&R->cv, &R->mu);
		uint64_t c = R->next_chunk;
		if (R->failed || c >= R->nchunks) {
			pthread_mutex_unlock(&R->mu);
			break;
		}
		R->next_chunk++;
		struct slot *s = &R->slots[c % (uint64_t)R->nslots];
		pthread_mutex_unlock(&R->mu);
		int rc = eval_chunk(R, W, c, s);
		pthread_mutex_lock(&R->mu);
		if (rc)
			R->failed = 1;
		s->chunk = c;
		s->ready = 1;
		pthread_cond_broadcast(&R->cv);
		pthread_mutex_unlock(&R->mu);
		if (rc)
			break;
	}
	est_workspace_release(&W->ws);
	free(W);
	return NULL;
}

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
	if (!id[0] || find_gpu(R, id))
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
	for (uint64_t i = 0; i < R->nrows; i++) {
		if (!R->plot_have[i])
			continue;
		sweep_row_index(sw, R->shard_k + i * R->shard_n, di);
		size_t v = di[xkey->dim], sid = 0;
		for (int d = 0; d < sw->ndims; d++)
			if (d != xkey->dim)
				sid = sid * sw->dim[d].len + di[d];
		x[n] = numeric ? strtod(xkey->text[v], NULL) : (double)v;
		y[n] = R->plot_y[i];
		ser[n++] = sid;
		if (!names[sid]) {
			/* "a100-80gb-sxm, bf16": the other keys' values */
			char buf[256] = "";
			size_t used = 0;
			for (int k = 0; k < sw->nkeys; k++)
				if (sw->key[k].dim != xkey->dim && used < sizeof(buf))
					used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s",
								 used ? ", " : "",
								 sweep_value_text(sw, k, di));
			names[sid] = strdup(used ? buf : "all");
			if (!names[sid])
				goto out;
		}
	}
	for (size_t k = 0; k < nser; k++)
		if (!names[k] && !(names[k] = strdup("(no result)")))
			goto out;
	char title[WL_NAME_LEN + 64];
	snprintf(title, sizeof(title), "%s: %s", sw->name[0] ? sw->name : sw->file,
		 plot_metric_labels[R->plot_metric]);
	struct plot_sweep ps = {
		.title = title, .x_label = xkey->path, .y_label = plot_metric_labels[R->plot_metric],
		.x = x, .y = y, .series = ser, .n = n,
		.x_names = numeric ? NULL : (const char *const *)xkey->text,
		.nx = xkey->count, .series_names = (const char *const *)names, .nseries = nser,
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

/* The header (CSV, table) or the opening (JSON). */
static int write_head(struct run *R, struct outfile *of)
{
	char buf[8192];
	struct rowbuf rb = { buf, 0, sizeof(buf), 0, R->fmt };
	if (R->fmt == FMT_JSON) {
		rb.len = (size_t)snprintf(buf, sizeof(buf),
					  "{\"format_version\":%d,\"command\":\"sweep\",\"file\":\"",
					  REP_FORMAT_VERSION);
		for (const char *p = R->sw->file; *p && rb.len < 4000; p++) {
			if (*p == '"' || *p == '\\')
				buf[rb.len++] = '\\';
			buf[rb.len++] = (unsigned char)*p < 0x20 ? ' ' : *p;
		}
		rb.len += (size_t)snprintf(buf + rb.len, sizeof(buf) - rb.len,
					   "\",\"configurations\":%llu,\"shard\":\"%llu/%llu\",\"rows\":[\n",
					   (unsigned long long)R->sw->rows,
					   (unsigned long long)R->shard_k,
					   (unsigned long long)R->shard_n);
		return outfile_write(of, buf, rb.len);
	}
	if (R->shard_k != 0 && (R->fmt == FMT_CSV || R->fmt == FMT_MD))
		return 0; /* only the first shard has the header: cat gives one */
	cell_text(&rb, "config", "config");
	for (int k = 0; k < R->sw->nkeys; k++)
		cell_text(&rb, R->sw->key[k].path, R->sw->key[k].path);
	for (size_t i = 0; i < N_RESULT; i++)
		cell_text(&rb, result_cols[i], result_cols[i]);
	if (R->sw->layout_auto)
		cell_text(&rb, "layout", "layout");
	if (R->calibration[0])
		cell_text(&rb, "calibration", "calibration");
	if (R->fmt == FMT_MD) {
		put(&rb, " |\n", 3);
		for (int k = 0; k < rb.col; k++)
			put(&rb, k ? " | ---" : "| ---", k ? 6 : 5);
		put(&rb, " |", 2);
	}
	putc_(&rb, '\n');
	return outfile_write(of, buf, rb.len);
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

int cmd_sweep(int argc, char **argv, struct cli_ctx *ctx)
{
	const char *out = NULL, *fmt = "csv", *jobs_s = NULL, *shard = NULL,
		   *calibration = NULL, *plot = NULL, *plot_x = NULL, *plot_y = "total_time_s";
	int tree = 0, include_unverified = 0;
	struct cli_opt opts[] = {
		{ "output", &out, NULL, NULL },
		{ "format", &fmt, NULL, formats },
		{ "calibration", &calibration, NULL, NULL },
		{ "jobs", &jobs_s, NULL, NULL },
		{ "shard", &shard, NULL, NULL },
		{ "through-tree", NULL, &tree, NULL }, /* tests: no direct path */
		{ "plot", &plot, NULL, NULL },
		{ "plot-x", &plot_x, NULL, NULL },
		{ "plot-y", &plot_y, NULL, plot_metrics },
		{ "include-unverified", NULL, &include_unverified, NULL },
		{ NULL, NULL, NULL, NULL },
	};
	char *pos[CLI_MAX_POS];
	int npos, rc;
	char **av = calloc((size_t)argc + 1, sizeof(*av));
	if (!av) {
		fprintf(ctx->err, "traincost sweep: out of memory\n");
		return TC_EXIT_INTERNAL;
	}
	/* -o OUT is --output OUT. */
	static char output_opt[] = "--output";
	for (int i = 0; i < argc; i++)
		av[i] = !strcmp(argv[i], "-o") ? output_opt : argv[i];
	rc = cli_parse(ctx, "sweep", argc, av, opts, pos, &npos);
	free(av);
	if (rc)
		return rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;
	if (npos != 1)
		return cli_usage_error(ctx, "sweep", "%s", npos ? "too many files (expected one sweep file)"
							       : "no sweep file given (expected SWEEP.yaml)");
	if ((rc = plot_out_check(ctx, "sweep", plot)))
		return rc;
	int jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (jobs < 1)
		jobs = 1;
	if (jobs > MAX_JOBS)
		jobs = MAX_JOBS;
	if (jobs_s && cli_int_arg(ctx, "sweep", "jobs", jobs_s, 1, MAX_JOBS, &jobs))
		return TC_EXIT_USAGE;
	struct run R;
	memset(&R, 0, sizeof(R));
	R.shard_k = 0;
	R.shard_n = 1;
	if (shard && parse_shard(ctx, shard, &R.shard_k, &R.shard_n))
		return TC_EXIT_USAGE;
	R.fmt = !strcmp(fmt, "json") ? FMT_JSON : !strcmp(fmt, "table") ? FMT_TABLE :
		!strcmp(fmt, "md") ? FMT_MD : FMT_CSV;

	struct sweep sw;
	struct gpu_catalog cat = { 0 };
	struct price_set prices = { 0 };
	struct tc_diag d;
	struct outfile of = { .fd = -1 };
	int have_of = 0;
	tc_diag_init(&d);
	if (sweep_load_file(pos[0], &ctx->data, &sw, &d))
		return cli_report(ctx, &d);
	sw.force_tree = tree;
	rc = TC_EXIT_OK;
	struct cal_overlay cal;
	if ((rc = cli_load_catalog(ctx, calibration, &cat, &cal)))
		goto out;
	if (calibration) /* every row says which efficiencies it used */
		snprintf(R.calibration, sizeof(R.calibration), "%s (fitted on %s)",
			 calibration, cal.gpu);
	if ((rc = money_load_prices(ctx, NULL, PRICE_STALE_DAYS, include_unverified, &prices)))
		goto out;
	R.sw = &sw;
	R.dp = &ctx->data;
	R.cat = &cat;
	R.prices = &prices;
	/* GPUs known up front: the base's, the cached bases', the varied. */
	if (add_gpu(&R, sw.base_w.plan.gpu))
		goto oom;
	for (size_t b = 0; b < sw.nbases; b++)
		if (sw.bases[b].ok && add_gpu(&R, sw.bases[b].w.plan.gpu))
			goto oom;
	for (int k = 0; k < sw.nkeys; k++)
		for (size_t v = 0; sw.key[k].probe && v < sw.key[k].count; v++)
			if (sw.key[k].probe[v].ok && add_gpu(&R, sw.key[k].probe[v].plan.gpu))
				goto oom;
	R.nrows = sw.rows > R.shard_k ? (sw.rows - R.shard_k + R.shard_n - 1) / R.shard_n : 0;
	int plot_k = 0;
	if (plot) {
		plot_k = plot_x ? -1 : 0;
		for (int k = 0; plot_x && k < sw.nkeys; k++)
			if (!strcmp(sw.key[k].path, plot_x))
				plot_k = k;
		if (plot_k < 0 || !sw.nkeys) {
			rc = cli_usage_error(ctx, "sweep", "--plot-x '%s' is not a varied key of %s (expected one of its vary: paths)",
					     plot_x ? plot_x : "", sw.file);
			goto out;
		}
		if (R.nrows > PLOT_MAX_ROWS) {
			rc = cli_usage_error(ctx, "sweep", "--plot draws at most %d configurations, not %llu (expected a smaller sweep or --shard)",
					     PLOT_MAX_ROWS, (unsigned long long)R.nrows);
			goto out;
		}
		while (strcmp(plot_metrics[R.plot_metric], plot_y))
			R.plot_metric++;
		R.plot_y = calloc(R.nrows ? R.nrows : 1, sizeof(*R.plot_y));
		R.plot_have = calloc(R.nrows ? R.nrows : 1, 1);
		if (!R.plot_y || !R.plot_have)
			goto oom;
	}
	R.nchunks = (R.nrows + CHUNK_ROWS - 1) / CHUNK_ROWS;
	R.nslots = jobs * SLOTS_PER_JOB;
	R.slots = calloc((size_t)R.nslots, sizeof(*R.slots));
	if (!R.slots)
		goto oom;

	if (outfile_open(&of, out, ctx->out, &d)) {
		rc = cli_report(ctx, &d);
		goto out;
	}
	have_of = 1;
	if (write_head(&R, &of))
		goto io;

	pthread_mutex_init(&R.mu, NULL);
	pthread_cond_init(&R.cv, NULL);
	pthread_t th[MAX_JOBS];
	int nth = 0;
	for (int i = 0; i < jobs && (uint64_t)i < R.nchunks; i++) {
		if (pthread_create(&th[nth], NULL, worker_main, &R))
			break;
		nth++;
	}
	int tty = isatty(fileno(ctx->err));
	double t0 = now_s(), tlast = t0;
	int werr = 0;
	if (!nth && R.nchunks)
		R.failed = 1;
	for (uint64_t c = 0; c < R.nchunks; c++) {
		struct slot *s = &R.slots[c % (uint64_t)R.nslots];
		pthread_mutex_lock(&R.mu);
		while (!R.failed && !(s->ready && s->chunk == c))
			pthread_cond_wait(&R.cv, &R.mu);
		int failed = R.failed;
		pthread_mutex_unlock(&R.mu);
		if (failed)
			break;
		if (!werr && outfile_write(&of, s->buf, s->len))
			werr = 1;
		pthread_mutex_lock(&R.mu);
		s->ready = 0;
		R.written = c + 1;
		if (werr)
			R.failed = 1; /* stop the workers: the output is lost */
		pthread_cond_broadcast(&R.cv);
		pthread_mutex_unlock(&R.mu);
		if (werr)
			break;
		if (tty && now_s() - tlast > 0.2) {
			tlast = now_s();
			uint64_t done = (c + 1) * CHUNK_ROWS;
			progress(ctx->err, done < R.nrows ? done : R.nrows, R.nrows, t0, 0);
		}
	}
	for (int i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	pthread_cond_destroy(&R.cv);
	pthread_mutex_destroy(&R.mu);
	if (tty && R.nrows)
		progress(ctx->err, R.written * CHUNK_ROWS < R.nrows ? R.written * CHUNK_ROWS : R.nrows,
			 R.nrows, t0, 1);
	if (werr)
		goto io;
	if (R.failed) {
		if (R.fail_msg[0]) {
			fprintf(ctx->err, "traincost sweep: %s\n", R.fail_msg);
			rc = TC_EXIT_INTERNAL;
			goto out;
		}
		goto oom;
	}
	if (R.fmt == FMT_JSON && outfile_write(&of, "\n]}\n", R.nrows ? 4 : 3))
		goto io;
	/* The chart before the rows are committed: a failed chart leaves neither. */
	if (plot && (rc = write_plot(ctx, &R, plot_k, plot)))
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
	free(R.plot_have);
	price_set_release(&prices);
	gpu_catalog_release(&cat);
	sweep_release(&sw);
	return rc;
}
