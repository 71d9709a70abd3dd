/*
 * meas_load.c - measurements files (meas_load.h) over the node tree and the
 * field tables of fields.h.
 */
#include "meas_load.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "val_load.h"
#include "wl_load.h"
#include "yaml_load.h"
#include "yaml_node.h"

#define MEAS_MAX_RUNS 100000

static int err_at(struct tc_diag *d, const char *file, const struct yn_node *n,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int err_at(struct tc_diag *d, const char *file, const struct yn_node *n,
		  const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tc_diag_vat(d, TC_EXIT_INPUT, file, n ? n->line : 0, n ? n->col : 0, fmt, ap);
	va_end(ap);
	return -1;
}

void meas_set_init(struct meas_set *m)
{
	memset(m, 0, sizeof(*m));
	val_set_init(&m->cases);
}

void meas_set_release(struct meas_set *m)
{
	if (!m)
		return;
	val_set_release(&m->cases);
	free(m->weight);
	meas_set_init(m);
}

int meas_set_add(struct meas_set *m, const struct val_case *c, double w)
{
	if (m->cases.count == m->weight_cap) {
		size_t cap = m->weight_cap ? 2 * m->weight_cap : 64;
		double *p = realloc(m->weight, cap * sizeof(*p));
		if (!p)
			return -1;
		m->weight = p;
		m->weight_cap = cap;
	}
	if (val_set_add(&m->cases, c))
		return -1;
	m->weight[m->cases.count - 1] = w;
	return 0;
}

/* The folder of `path` with its slash, into buf ("" for a bare name). */
static void dir_of(const char *path, char *buf, size_t n)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) + 1 : 0;
	if (len >= n)
		len = n - 1;
	memcpy(buf, path, len);
	buf[len] = '\0';
}

/* `rel` relative to the folder of `base` (absolute paths kept).  Returns 0
 * or -1 when it does not fit. */
static int resolve(const char *base, const char *rel, char *out, size_t n)
{
	char dir[CAL_TEXT_LEN];
	if (rel[0] == '/')
		dir[0] = '\0';
	else
		dir_of(base, dir, sizeof(dir));
	return snprintf(out, n, "%s%s", dir, rel) < (int)n ? 0 : -1;
}

/* --- plan overrides ---------------------------------------------------- */

struct plan_over {
	char gpu[GPU_ID_LEN];
	int count, gpus_per_node, tp, pp, dp, ep, zero, micro_batch, interleave;
	int sequence_parallel, cuda_graphs, grad_overlap;
	double network; /* one direction, per GPU */
};

enum {
	PO_GPU, PO_COUNT, PO_GPN, PO_TP, PO_PP, PO_DP, PO_EP, PO_ZERO, PO_MB,
	PO_INTERLEAVE, PO_SP, PO_GRAPHS, PO_OVERLAP, PO_NETWORK
};

#define POFF(f) offsetof(struct plan_over, f)
static const struct fd_field plan_fields[] = {
	[PO_GPU] = { .key = "gpu", .type = FD_STR, .offset = POFF(gpu), .size = GPU_ID_LEN },
	[PO_COUNT] = { .key = "count", .type = FD_INT, .offset = POFF(count), .min = 1, .max = 1e6 },
	[PO_GPN] = { .key = "gpus_per_node", .type = FD_INT, .offset = POFF(gpus_per_node), .min = 1, .max = 1024 },
	[PO_TP] = { .key = "tp", .type = FD_INT, .offset = POFF(tp), .min = 1, .max = 65536 },
	[PO_PP] = { .key = "pp", .type = FD_INT, .offset = POFF(pp), .min = 1, .max = 65536 },
	[PO_DP] = { .key = "dp", .type = FD_INT, .offset = POFF(dp), .min = 1, .max = 65536 },
	[PO_EP] = { .key = "ep", .type = FD_INT, .offset = POFF(ep), .min = 1, .max = 65536 },
	[PO_ZERO] = { .key = "zero", .type = FD_INT, .offset = POFF(zero), .min = 0, .max = 3 },
	[PO_MB] = { .key = "micro_batch", .type = FD_INT, .offset = POFF(micro_batch), .min = 1, .max = 1e6 },
	[PO_INTERLEAVE] = { .key = "interleave", .type = FD_INT, .offset = POFF(interleave), .min = 1, .max = 1024 },
	[PO_SP] = { .key = "sequence_parallel", .type = FD_BOOL, .offset = POFF(sequence_parallel) },
	[PO_GRAPHS] = { .key = "cuda_graphs", .type = FD_BOOL, .offset = POFF(cuda_graphs) },
	[PO_OVERLAP] = { .key = "grad_overlap", .type = FD_BOOL, .offset = POFF(grad_overlap) },
	[PO_NETWORK] = { .key = "network", .type = FD_NUM, .offset = POFF(network), .unit = TC_UNIT_BYTE_RATE,
			 .min = 1e7, .max = 1e13, .expect = "a bandwidth per GPU such as 25GB/s" },
	{ 0 },
};
#undef POFF

/* Apply the overrides of `map` to w->plan.  Returns 0 or -1. */
static int apply_plan(const struct yn_node *map, struct workload *w, const struct fd_ctx *ctx)
{
	struct plan_over o;
	uint64_t seen = 0;
	struct plan *p = &w->plan;

	if (map->type != YN_MAP)
		return fd_type_error(map, "plan", "a mapping of plan overrides", ctx);
	memset(&o, 0, sizeof(o));
	if (fd_parse_map(map, plan_fields, &o, "plan", ctx, &seen))
		return -1;
#define HAS(k) (seen & (UINT64_C(1) << (k)))
	if (HAS(PO_GPU))
		snprintf(p->gpu, sizeof(p->gpu), "%s", o.gpu);
	if (HAS(PO_COUNT))
		p->count = o.count;
	if (HAS(PO_GPN))
		p->gpus_per_node = o.gpus_per_node;
	if (HAS(PO_TP))
		p->tp = o.tp;
	if (HAS(PO_PP))
		p->pp = o.pp;
	if (HAS(PO_EP))
		p->ep = o.ep;
	if (HAS(PO_ZERO))
		p->zero = o.zero;
	if (HAS(PO_MB))
		p->micro_batch = o.micro_batch;
	if (HAS(PO_INTERLEAVE))
		p->interleave = o.interleave;
	if (HAS(PO_SP))
		p->sequence_parallel = o.sequence_parallel;
	else if (HAS(PO_TP) && !w->mark[WLF_SEQUENCE_PARALLEL].line)
		p->sequence_parallel = p->tp > 1;
	if (HAS(PO_GRAPHS))
		p->cuda_graphs = o.cuda_graphs;
	if (HAS(PO_OVERLAP))
		p->grad_overlap = o.grad_overlap;
	if (HAS(PO_NETWORK)) {
		p->network_bytes_per_s = 2 * o.network;
		p->network_fabric = FABRIC_IB;
		p->network[0] = '\0';
	}
	/* A changed layout recomputes dp unless it is given. */
	if (HAS(PO_DP))
		p->dp = o.dp;
	else if (HAS(PO_COUNT) || HAS(PO_TP) || HAS(PO_PP))
		p->dp = 0;
	double mp = (double)p->tp * p->pp;
	if (p->dp > 0 && mp * p->dp != p->count)
		return err_at(ctx->d, ctx->file, map,
			      "dp %d x tp %d x pp %d does not match count %d (expected a product equal to count)",
			      p->dp, p->tp, p->pp, p->count);
	if (p->dp == 0 && fmod((double)p->count, mp) != 0)
		return err_at(ctx->d, ctx->file, map,
			      "count %d is not a multiple of tp x pp = %.0f (expected a multiple)", p->count, mp);
	for (int k = PO_GPU; k <= PO_NETWORK; k++) {
		static const enum wl_field f[] = {
			[PO_GPU] = WLF_GPU, [PO_COUNT] = WLF_COUNT, [PO_GPN] = WLF_GPUS_PER_NODE,
			[PO_TP] = WLF_TP, [PO_PP] = WLF_PP, [PO_DP] = WLF_DP, [PO_EP] = WLF_EP,
			[PO_ZERO] = WLF_ZERO, [PO_MB] = WLF_MICRO_BATCH, [PO_INTERLEAVE] = WLF_INTERLEAVE,
			[PO_SP] = WLF_SEQUENCE_PARALLEL, [PO_GRAPHS] = WLF_NONE, [PO_OVERLAP] = WLF_NONE,
			[PO_NETWORK] = WLF_NETWORK,
		};
		if (HAS(k) && f[k] != WLF_NONE) {
			w->mark[f[k]].line = map->line;
			w->mark[f[k]].col = map->col;
		}
	}
#undef HAS
	return 0;
}

/* --- one run ----------------------------------------------------------- */

struct run_sec {
	char name[VAL_ID_LEN];
	double step_time_s, tokens_per_s, samples_per_s, mfu, weight;
	int dummy;
};

enum { RK_NAME, RK_WORKLOAD, RK_PLAN, RK_STEP, RK_TOKENS, RK_SAMPLES, RK_MFU, RK_WEIGHT };

#define ROFF(f) offsetof(struct run_sec, f)
static const struct fd_field run_fields[] = {
	[RK_NAME] = { .key = "name", .type = FD_STR, .offset = ROFF(name), .size = VAL_ID_LEN },
	[RK_WORKLOAD] = { .key = "workload", .type = FD_IGNORE, .required = 1, .offset = ROFF(dummy) },
	[RK_PLAN] = { .key = "plan", .type = FD_IGNORE, .offset = ROFF(dummy) },
	[RK_STEP] = { .key = "step_time", .type = FD_NUM, .offset = ROFF(step_time_s), .unit = TC_UNIT_SECONDS,
		      .min = 1e-6, .max = 1e6 },
	[RK_TOKENS] = { .key = "tokens_per_s", .type = FD_NUM, .offset = ROFF(tokens_per_s), .unit = TC_UNIT_COUNT,
			.min = 1e-3, .max = 1e15 },
	[RK_SAMPLES] = { .key = "samples_per_s", .type = FD_NUM, .offset = ROFF(samples_per_s), .unit = TC_UNIT_COUNT,
			 .min = 1e-6, .max = 1e12 },
	[RK_MFU] = { .key = "mfu", .type = FD_NUM, .offset = ROFF(mfu), .unit = TC_UNIT_COUNT, .min = 1e-4, .max = 1,
		     .expect = "a fraction from 0.0001 to 1, such as 0.45" },
	[RK_WEIGHT] = { .key = "weight", .type = FD_NUM, .offset = ROFF(weight), .unit = TC_UNIT_COUNT, .min = 1e-6,
			.max = 1e6 },
	{ 0 },
};
#undef ROFF

/* Load run `item` (index k) of doc into a case.  Returns 0 or -1. */
static int load_run(const struct yn_doc *doc, const struct yn_node *item, size_t k, const char *gpu_default,
		    const struct tc_datapath *dp, struct meas_set *m, struct tc_diag *d)
{
	struct fd_ctx ctx = { .file = doc->file, .d = d };
	struct run_sec rs;
	struct val_case c;
	uint64_t seen = 0;
	int bad = 0;

	if (item->type != YN_MAP)
		return fd_type_error(item, "runs", "a mapping with workload and a measurement", &ctx);
	memset(&rs, 0, sizeof(rs));
	rs.weight = 1;
	if (fd_parse_map(item, run_fields, &rs, "run", &ctx, &seen))
		bad = 1;
	int nmeas = 0;
	for (int key = RK_STEP; key <= RK_MFU; key++)
		nmeas += (seen >> key) & 1;
	if (nmeas != 1)
		bad |= err_at(d, doc->file, item,
			      "run %zu has %d measurements (expected exactly one of step_time, tokens_per_s, samples_per_s, mfu)",
			      k + 1, nmeas);
	memset(&c, 0, sizeof(c));
	const struct yn_node *wn = yn_map_get(item, "workload");
	if (wn) {
		struct tc_diag *wd = d;
		if (wn->type == YN_MAP) {
			struct yn_doc inl = { .file = doc->file, .root = (struct yn_node *)(uintptr_t)wn };
			bad |= wl_load_doc(&inl, dp, &c.w, wd) != 0;
		} else if (wn->type == YN_SCALAR) {
			char path[CAL_TEXT_LEN];
			if (resolve(doc->file, wn->str, path, sizeof(path)))
				bad |= err_at(d, doc->file, wn, "workload path is too long (expected at most %d bytes)",
					      CAL_TEXT_LEN - 1);
			else if (wl_load_file(path, dp, &c.w, wd)) {
				err_at(d, doc->file, wn, "workload '%s' could not be loaded", wn->str);
				bad = 1;
			}
		} else {
			bad |= fd_type_error(wn, "workload", "a workload file path or an inline workload", &ctx);
		}
	}
	if (bad)
		return -1;
	/* A measurement is of the user's own stack, which the calibration
	 * fits: no framework profile goes under it. */
	memset(&c.w.plan.framework, 0, sizeof(c.w.plan.framework));
	const struct yn_node *pn = yn_map_get(item, "plan");
	if (pn && apply_plan(pn, &c.w, &ctx))
		return -1;
	if (!c.w.plan.gpu[0] && gpu_default)
		snprintf(c.w.plan.gpu, sizeof(c.w.plan.gpu), "%s", gpu_default);
	if (!c.w.plan.gpu[0])
		return err_at(d, doc->file, item, "run %zu names no GPU (expected plan.gpu in the run or its workload, or gpu: at the top)",
			      k + 1);
	snprintf(c.gpu_id, sizeof(c.gpu_id), "%s", c.w.plan.gpu);
	if (rs.name[0])
		snprintf(c.id, sizeof(c.id), "%s", rs.name);
	else
		snprintf(c.id, sizeof(c.id), "run %zu", k + 1);
	snprintf(c.family, sizeof(c.family), "llm");
	snprintf(c.source, sizeof(c.source), "%s", m->source[0] ? m->source : doc->file);
	snprintf(c.file, sizeof(c.file), "%s", doc->file);
	c.line = item->line;
	if (seen & (UINT64_C(1) << RK_STEP)) {
		c.metric = VAL_ITER_TIME;
		c.measured = rs.step_time_s;
	} else if (seen & (UINT64_C(1) << RK_TOKENS)) {
		c.metric = VAL_TOKENS_PER_S;
		c.measured = rs.tokens_per_s;
	} else if (seen & (UINT64_C(1) << RK_SAMPLES)) {
		c.metric = VAL_TOKENS_PER_S;
		c.measured = rs.samples_per_s * c.w.train.seq_len;
	} else {
		c.metric = VAL_MFU;
		c.measured = rs.mfu;
	}
	if (meas_set_add(m, &c, rs.weight))
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
	return 0;
}

/* --- the file ---------------------------------------------------------- */

struct top_sec {
	char kind[32];
	char source[CAL_TEXT_LEN];
	char gpu[GPU_ID_LEN];
	char cases[CAL_TEXT_LEN];
	int select;
	int dummy;
};

static const char *const select_names[] = { "all", "even", "odd", NULL };

/* `fit:` a list of parameter names, or `scale`. */
static int read_fit(const struct yn_node *v, struct meas_set *m, const struct fd_ctx *ctx)
{
	if (v->type == YN_SCALAR && !strcmp(v->str, "scale")) {
		m->scale_only = 1;
		return 0;
	}
	if (v->type != YN_SEQ || v->count == 0)
		return fd_type_error(v, "fit", "scale or a list of parameter names", ctx);
	int bad = 0;
	for (size_t i = 0; i < v->count; i++) {
		const struct yn_node *it = v->items[i];
		int p = it->type == YN_SCALAR ? cal_param_find(it->str) : -1;
		if (p < 0) {
			const char *names[CAL_PARAM_COUNT + 1];
			for (int k = 0; k < CAL_PARAM_COUNT; k++)
				names[k] = eff_params[k].name;
			names[CAL_PARAM_COUNT] = NULL;
			const char *close = it->type == YN_SCALAR ? fd_suggest(it->str, names) : NULL;
			bad |= close ? err_at(ctx->d, ctx->file, it, "unknown parameter '%s' (did you mean '%s'?)",
					      it->str, close)
				     : err_at(ctx->d, ctx->file, it,
					      "unknown parameter (expected one of gemm_max_frac, gemm_half_flop, attn_frac, "
					      "mem_frac, launch_s, launch_overlap_frac, comm_frac, comm_latency_s, "
					      "comm_half_bytes)");
			continue;
		}
		m->fit_mask |= CAL_BIT(p);
	}
	return bad ? -1 : 0;
}

/* `start:` parameter values. */
static int read_start(const struct yn_node *v, struct meas_set *m, const struct fd_ctx *ctx)
{
	struct fd_field t[CAL_PARAM_COUNT + 1];
	uint64_t seen = 0;
	if (v->type != YN_MAP)
		return fd_type_error(v, "start", "a mapping of parameter values", ctx);
	memset(t, 0, sizeof(t));
	for (int p = 0; p < CAL_PARAM_COUNT; p++) {
		t[p].key = eff_params[p].name;
		t[p].type = FD_NUM;
		t[p].offset = eff_params[p].offset;
		t[p].unit = TC_UNIT_COUNT;
		t[p].min = eff_params[p].kind == EFF_FRAC ? eff_params[p].lo : 0;
		t[p].max = eff_params[p].kind == EFF_FRAC ? eff_params[p].hi : 1e15;
	}
	if (fd_parse_map(v, t, &m->start, "start", ctx, &seen))
		return -1;
	m->start_mask = (unsigned)seen;
	return 0;
}

int meas_load_file(const char *path, const struct tc_datapath *dp, struct meas_set *m,
		   struct tc_diag *d)
{
	enum { TK_KIND, TK_SOURCE, TK_GPU, TK_RUNS, TK_CASES, TK_SELECT, TK_FIT, TK_START };
#define TOFF(f) offsetof(struct top_sec, f)
	static const struct fd_field top[] = {
		[TK_KIND] = { .key = "kind", .type = FD_STR, .required = 1, .offset = TOFF(kind), .size = 32 },
		[TK_SOURCE] = { .key = "source", .type = FD_STR, .offset = TOFF(source), .size = CAL_TEXT_LEN },
		[TK_GPU] = { .key = "gpu", .type = FD_STR, .offset = TOFF(gpu), .size = GPU_ID_LEN },
		[TK_RUNS] = { .key = "runs", .type = FD_IGNORE, .offset = TOFF(dummy) },
		[TK_CASES] = { .key = "cases", .type = FD_STR, .offset = TOFF(cases), .size = CAL_TEXT_LEN },
		[TK_SELECT] = { .key = "select", .type = FD_ENUM, .offset = TOFF(select), .names = select_names },
		[TK_FIT] = { .key = "fit", .type = FD_IGNORE, .offset = TOFF(dummy) },
		[TK_START] = { .key = "start", .type = FD_IGNORE, .offset = TOFF(dummy) },
		{ 0 },
	};
#undef TOFF
	struct yn_doc doc = { 0 };
	struct top_sec ts;
	int bad = 0;

	assert(path && dp && m && d);
	meas_set_init(m);
	snprintf(m->file, sizeof(m->file), "%s", path);
	if (yn_load_file(path, &doc, d))
		return -1;
	struct fd_ctx ctx = { .file = doc.file, .d = d };
	const struct yn_node *root = doc.root;
	if (root->type != YN_MAP) {
		bad = err_at(d, doc.file, root, "the file holds %s (expected a mapping with kind: measurements and runs)",
			     yn_type_name(root));
		goto out;
	}
	memset(&ts, 0, sizeof(ts));
	if (fd_parse_map(root, top, &ts, "measurements file", &ctx, NULL)) {
		bad = 1;
		goto out;
	}
	if (strcmp(ts.kind, "measurements")) {
		bad = err_at(d, doc.file, yn_map_get(root, "kind"), "kind '%s' is not a measurements file (expected kind: measurements)",
			     ts.kind);
		goto out;
	}
	snprintf(m->source, sizeof(m->source), "%s", ts.source);
	const struct yn_node *fn = yn_map_get(root, "fit"), *sn = yn_map_get(root, "start");
	if (fn && read_fit(fn, m, &ctx))
		bad = 1;
	if (sn && read_start(sn, m, &ctx))
		bad = 1;
	const struct yn_node *runs = yn_map_get(root, "runs");
	if (runs && (runs->type != YN_SEQ || runs->count > MEAS_MAX_RUNS)) {
		bad |= fd_type_error(runs, "runs", "a list of at most 100000 runs", &ctx);
		runs = NULL;
	}
	for (size_t k = 0; runs && k < runs->count; k++)
		if (load_run(&doc, runs->items[k], k, ts.gpu[0] ? ts.gpu : NULL, dp, m, d))
			bad = 1;
	if (ts.cases[0]) {
		char cpath[CAL_TEXT_LEN];
		struct val_set vs;
		const struct yn_node *cn = yn_map_get(root, "cases");
		val_set_init(&vs);
		if (resolve(doc.file, ts.cases, cpath, sizeof(cpath)))
			bad |= err_at(d, doc.file, cn, "cases path is too long");
		else if (val_load_file(cpath, dp, &vs, d))
			bad = 1;
		else
			for (size_t i = 0; i < vs.count && !bad; i++) {
				if ((ts.select == 1 && i % 2) || (ts.select == 2 && !(i % 2)))
					continue;
				if (ts.gpu[0] && strcmp(vs.cases[i].gpu_id, ts.gpu))
					continue;
				if (meas_set_add(m, &vs.cases[i], 1))
					bad = tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
			}
		val_set_release(&vs);
	}
	if (!bad && m->cases.count == 0)
		bad = err_at(d, doc.file, root, "no measurements (expected runs: or cases:)");
out:
	yn_doc_release(&doc);
	if (bad) {
		meas_set_release(m);
		return -1;
	}
	return 0;
}
