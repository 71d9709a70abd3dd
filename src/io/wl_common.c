/*
 * wl_common.c - the pieces every workload loader shares: the plan's network
 * and GPU id, the named networks, and, for the vision and recommender
 * loaders, the preset lookup, the architecture-file head, the plan section,
 * the top-level keys and the reading of a whole workload around the
 * family's own model and training sections (wlx_load_family()).  The
 * family loaders (wl_load.c, wl_vision.c, wl_recsys.c) depend on this
 * file, never on each other.
 */
#include "wl_common.h"

#include <assert.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "wl_campaign.h"
#include "fw_load.h"
#include "../model/types/network.h"
#include "yaml_load.h"

#define MAX_COUNT 1e6 /* GPUs */

/* True if id looks like a catalog id: [a-z0-9._-]+, optionally
 * ":" and a MIG profile of the same characters. */
int wl_gpu_id_ok(const char *id)
{
	int colons = 0;
	const char *p = id;
	if (!*p || *p == ':')
		return 0;
	for (; *p; p++) {
		if (*p == ':') {
			if (++colons > 1 || !p[1])
				return 0;
			continue;
		}
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') ||
		      *p == '.' || *p == '-' || *p == '_'))
			return 0;
	}
	return 1;
}

/*
 * `network: {fabric: infiniband, nics: 8, speed: 400Gb/s}`: a node's
 * adapters as a server's datasheet or a cloud page states them; each GPU's
 * share is resolved once the node's GPU count is known
 * (net_gpu_bytes_per_s).
 */
static int read_node_adapters(const struct yn_node *v, const struct fd_ctx *ctx,
			      struct plan *p)
{
	struct adapters { int fabric, nics; double speed; } a = { 0 };
	static const struct fd_field table[] = {
		{ .key = "fabric", .type = FD_ENUM, .required = 1,
		  .offset = offsetof(struct adapters, fabric), .names = net_fabric_names },
		{ .key = "nics", .type = FD_INT, .required = 1,
		  .offset = offsetof(struct adapters, nics), .min = 1, .max = 64,
		  .expect = "the network adapters of one node, 1 to 64" },
		{ .key = "speed", .type = FD_NUM, .required = 1, .unit = TC_UNIT_BYTE_RATE,
		  .offset = offsetof(struct adapters, speed), .min = 1.25e8, .max = 1e11,
		  .expect = "one adapter's rate in one direction, 1Gb/s to 800Gb/s" },
		{ 0 },
	};
	if (fd_parse_map(v, table, &a, "network", ctx, NULL))
		return -1;
	p->network_nics = a.nics;
	p->network_bytes_per_s = 2 * a.nics * a.speed;
	p->network_fabric = net_fabric_of(a.fabric, a.nics * a.speed * 8 / 1e9);
	snprintf(p->network, sizeof(p->network), "%d x %g Gb/s %s", a.nics, a.speed * 8 / 1e9,
		 net_fabric_names[a.fabric]);
	return 0;
}

int wl_read_network(const struct yn_node *v, const char *file, struct plan *p,
		    struct tc_diag *d)
{
	const struct fd_ctx ctx = { .file = file, .d = d };
	if (v->type == YN_MAP)
		return read_node_adapters(v, &ctx, p);
	if (v->type != YN_SCALAR)
		return fd_type_error(v, "network", "a network name, a bandwidth such as 25GB/s, "
				     "or a node's adapters {fabric, nics, speed}", &ctx);
	const struct net_def *n = net_find(v->str);
	if (n) {
		wl_set_network(p, n);
		return 0;
	}
	if (v->str[0] && strchr("0123456789.", v->str[0])) {
		double bw;
		if (fd_get_num(v, "network", TC_UNIT_BYTE_RATE, 1e7, 1e13, &bw, &ctx))
			return -1;
		p->network_bytes_per_s = 2 * bw;
		p->network_nics = 0;
		p->network_fabric = FABRIC_IB;
		p->network[0] = '\0';
		return 0;
	}
	const char *close = fd_suggest(v->str, net_names);
	if (close)
		return wlx_err(d, file, v, "unknown network '%s' (did you mean '%s'?)", v->str, close);
	char names[128] = "";
	for (size_t i = 0, used = 0; net_names[i] && used < sizeof(names); i++)
		used += (size_t)snprintf(names + used, sizeof(names) - used, "%s, ", net_names[i]);
	return wlx_err(d, file, v,
		      "unknown network '%s' (expected one of %sor a bandwidth such as 25GB/s)",
		      v->str, names);
}

/* True if s is a file-name-safe preset name. */
static int safe(const char *s)
{
	if (!s[0] || s[0] == '.')
		return 0;
	for (const char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '-' ||
		      *p == '_'))
			return 0;
	return 1;
}

/*
 * Find preset `name` in models/arch and parse it into *doc.  An unknown
 * name is reported at (file, at) with the closest name suggested.  Returns
 * 0, -1 (name problem, reported) or -2 (the file itself is broken).
 */
int wlx_closest_preset(const struct tc_datapath *dp, const char *name, char *buf, size_t len)
{
	char **paths = NULL;
	size_t n = 0;
	const char **names = NULL;
	const char *close = NULL;
	if (dp_list(dp, "models/arch", &paths, &n) == 0 &&
	    (names = calloc(n + 1, sizeof(*names))) != NULL) {
		/* Cut ".yaml" in place: the list is ours to free. */
		for (size_t i = 0; i < n; i++) {
			char *slash = strrchr(paths[i], '/');
			char *dot = strrchr(paths[i], '.');
			if (dot && !strcmp(dot, ".yaml"))
				*dot = '\0';
			names[i] = slash ? slash + 1 : paths[i];
		}
		close = fd_suggest(name, names);
	}
	if (close)
		snprintf(buf, len, "%s", close);
	free(names);
	dp_list_free(paths, n);
	return close != NULL;
}

int wlx_open_preset(const struct tc_datapath *dp, const char *name,
		    const char *file, const struct yn_node *at,
		    struct yn_doc *doc, struct tc_diag *d)
{
	char path[DP_PATH_LEN], fname[WL_NAME_LEN + 8];

	if (!safe(name) || strlen(name) >= WL_NAME_LEN)
		return wlx_err(d, file, at, "preset name '%s' is not a file "
			       "name (expected letters, digits, '.', '-' or "
			       "'_')", name);
	snprintf(fname, sizeof(fname), "%s.yaml", name);
	if (dp_find(dp, "models/arch", fname, path, sizeof(path))) {
		char close[WL_NAME_LEN];
		if (wlx_closest_preset(dp, name, close, sizeof(close)))
			wlx_err(d, file, at, "unknown preset '%s' (did you mean "
				"'%s'?)", name, close);
		else
			wlx_err(d, file, at, "unknown preset '%s' (expected the "
				"name of a file in models/arch)", name);
		return -1;
	}
	return yn_load_file(path, doc, d) ? -2 : 0;
}

/*
 * The head of an architecture file: kind arch, name = file stem (or
 * `want`), family = `family`.  Returns 0 or -1.
 */
int wlx_arch_head(const struct yn_doc *doc, const char *want,
		  const char *family, struct tc_diag *d)
{
	const struct yn_node *root = doc->root;
	const struct yn_node *k = yn_map_get(root, "kind");
	const struct yn_node *n = yn_map_get(root, "name");
	const struct yn_node *f = yn_map_get(root, "family");
	const struct yn_node *s = yn_map_get(root, "source");
	char st[WL_NAME_LEN];
	int bad = 0;

	wlx_stem(doc->file, st, sizeof(st));
	if (!k || k->type != YN_SCALAR || strcmp(k->str, "arch"))
		bad |= wlx_err(d, doc->file, k ? k : root, "kind '%s' is not an "
			       "architecture (expected kind: arch)",
			       k && k->type == YN_SCALAR ? k->str : "");
	if (!f || f->type != YN_SCALAR || strcmp(f->str, family))
		bad |= wlx_err(d, doc->file, f ? f : root, "family '%s' is not "
			       "%s (expected family: %s)",
			       f && f->type == YN_SCALAR ? f->str : "", family,
			       family);
	if (!n || n->type != YN_SCALAR || strcmp(n->str, want ? want : st))
		bad |= wlx_err(d, doc->file, n ? n : root, "name '%s' does not "
			       "match the file name '%s' (expected name: %s)",
			       n && n->type == YN_SCALAR ? n->str : "", st,
			       want ? want : st);
	if (!s)
		bad |= wlx_err(d, doc->file, root, "missing required key "
			       "'source' in architecture file");
	return bad ? -1 : 0;
}

/* --- plan ---------------------------------------------------------------- */

struct plan_sec2 {
	char gpu[GPU_ID_LEN];
	int count, gpus_per_node, micro_batch, cuda_graphs, grad_overlap;
	int embeddings, offload;
	int dummy;
};

/* The plan of a vision (recsys = 0) or recommender (recsys = 1) workload. */
int wlx_read_plan(const char *file, const struct tc_datapath *dp, const struct yn_node *map,
		  int recsys, struct workload *w, struct tc_diag *d)
{
#define POFF(m) offsetof(struct plan_sec2, m)
	struct fd_field table[] = {
		{ .key = "gpu", .type = FD_STR, .offset = POFF(gpu), .size = GPU_ID_LEN },
		{ .key = "count", .type = FD_INT, .required = 1, .offset = POFF(count), .min = 1, .max = MAX_COUNT,
		  .expect = "a whole number of GPUs from 1 to 1000000" },
		{ .key = "gpus_per_node", .type = FD_INT, .offset = POFF(gpus_per_node), .min = 1, .max = 1024 },
		{ .key = "cuda_graphs", .type = FD_BOOL, .offset = POFF(cuda_graphs) },
		{ .key = "grad_overlap", .type = FD_BOOL, .offset = POFF(grad_overlap) },
		{ .key = "network", .type = FD_IGNORE, .offset = POFF(dummy) },
		{ .key = "framework", .type = FD_IGNORE, .offset = POFF(dummy) },
		{ .key = recsys ? "embeddings" : "micro_batch", .type = recsys ? FD_ENUM : FD_INT,
		  .offset = recsys ? POFF(embeddings) : POFF(micro_batch), .min = recsys ? 0 : 1,
		  .max = recsys ? 0 : 1e6, .names = recsys ? rec_placement_names : NULL },
		{ .key = recsys ? "offload" : NULL, .type = FD_ENUM, .offset = POFF(offload), .names = rec_offload_names },
		{ 0 },
	};
#undef POFF
	struct fd_ctx ctx = { .file = file, .d = d };
	struct plan_sec2 ps = { .grad_overlap = 1 };
	struct plan *p = &w->plan;
	const struct yn_node *gn, *nn;
	int bad = 0;

	if (!recsys)
		table[8] = (struct fd_field){ 0 };
	if (fd_parse_map(map, table, &ps, "plan", &ctx, NULL))
		bad = 1;
	gn = yn_map_get(map, "gpu");
	nn = yn_map_get(map, "network");
	if (gn && ps.gpu[0] && !wl_gpu_id_ok(ps.gpu))
		bad |= wlx_err(d, file, gn, "gpu '%s' is not a catalog id "
			       "(expected letters, digits, '.', "
			       "'-', '_', and ':PROFILE' for a MIG slice)",
			       ps.gpu);
	wl_default_network(p);
	if (nn && wl_read_network(nn, file, p, d))
		bad = 1;
	const struct yn_node *fn = yn_map_get(map, "framework");
	struct eff_stack stack = { 0 }; /* the workload keeps its id */
	if (fn ? fw_resolve(dp, file, fn, &stack, d) :
		 fw_resolve_default(dp, recsys ? WL_RECSYS : WL_VISION, &stack, d))
		bad = 1;
	snprintf(p->framework, sizeof(p->framework), "%s", stack.id);
	if (bad)
		return -1;
	snprintf(p->gpu, sizeof(p->gpu), "%s", ps.gpu);
	p->count = ps.count;
	p->gpus_per_node = ps.gpus_per_node;
	p->tp = p->pp = p->ep = p->interleave = 1;
	p->dp = 0;
	p->zero = 0;
	p->micro_batch = ps.micro_batch;
	p->cuda_graphs = ps.cuda_graphs;
	p->grad_overlap = ps.grad_overlap;
	p->embeddings = ps.embeddings;
	p->offload = ps.offload;
	w->mark[WLF_GPU] = gn ? (struct tc_mark){ gn->line, gn->col } :
				(struct tc_mark){ 0, 0 };
	wlx_mark(w, WLF_COUNT, map, "count");
	wlx_mark(w, WLF_GPUS_PER_NODE, map, "gpus_per_node");
	wlx_mark(w, WLF_MICRO_BATCH, map, "micro_batch");
	wlx_mark(w, WLF_NETWORK, map, "network");
	wlx_mark(w, WLF_EMBEDDINGS, map, "embeddings");
	wlx_mark(w, WLF_OFFLOAD, map, "offload");
	return 0;
}

/* Top-level keys of a vision or recommender workload; 0 or -1. */
static int wlx_top(const struct yn_doc *doc, struct workload *w, struct tc_diag *d)
{
	struct tsec { char kind[16]; char name[WL_NAME_LEN]; int dummy; } top;
	static const struct fd_field table[] = {
		{ .key = "kind", .type = FD_STR, .required = 1, .offset = offsetof(struct tsec, kind), .size = 16 },
		{ .key = "name", .type = FD_STR, .offset = offsetof(struct tsec, name), .size = WL_NAME_LEN },
		{ .key = "model", .type = FD_IGNORE, .required = 1, .offset = offsetof(struct tsec, dummy) },
		{ .key = "training", .type = FD_IGNORE, .required = 1, .offset = offsetof(struct tsec, dummy) },
		{ .key = "plan", .type = FD_IGNORE, .required = 1, .offset = offsetof(struct tsec, dummy) },
		{ .key = "campaign", .type = FD_IGNORE, .offset = offsetof(struct tsec, dummy) },
		{ 0 },
	};
	struct fd_ctx ctx = { .file = doc->file, .d = d };
	static const char *const sec[] = { "model", "training", "plan" };
	int bad = 0;

	memset(&top, 0, sizeof(top));
	if (fd_parse_map(doc->root, table, &top, "workload", &ctx, NULL))
		bad = 1;
	for (int i = 0; i < 3; i++) {
		const struct yn_node *s = yn_map_get(doc->root, sec[i]);
		if (s && s->type != YN_MAP)
			bad |= fd_type_error(s, sec[i], "a mapping", &ctx);
	}
	snprintf(w->file, sizeof(w->file), "%s", doc->file);
	if (top.name[0])
		snprintf(w->name, sizeof(w->name), "%s", top.name);
	else
		wlx_stem(doc->file, w->name, sizeof(w->name));
	return bad ? -1 : 0;
}

int wlx_load_family(const struct yn_doc *doc, const struct tc_datapath *dp,
		    const struct wlx_family *f, struct workload *out,
		    struct tc_diag *d)
{
	struct workload *w;
	const struct yn_node *model, *training, *plan;
	int ok;

	assert(doc && dp && f && out && d);
	w = calloc(1, sizeof(*w));
	if (!w)
		return tc_diag_at(d, TC_EXIT_INTERNAL, doc->file, 0, 0,
				  "out of memory (expected a smaller file)");
	w->kind = f->kind;
	ok = wlx_top(doc, w, d) == 0;
	model = yn_map_get(doc->root, "model");
	training = yn_map_get(doc->root, "training");
	plan = yn_map_get(doc->root, "plan");
	if (model && model->type == YN_MAP) {
		w->mark[WLF_MODEL] = (struct tc_mark){ model->line, model->col };
		ok &= f->model(doc->file, model, dp, w, d) == 0;
	} else {
		ok = 0;
	}
	ok &= training && training->type == YN_MAP &&
	      f->training(doc->file, training, w, d) == 0;
	ok &= plan && plan->type == YN_MAP &&
	      wlx_read_plan(doc->file, dp, plan, f->kind == WL_RECSYS, w, d) == 0;
	ok &= wl_read_campaign(doc->root, doc->file, w, d) == 0;
	if (ok && f->check)
		ok = f->check(doc, training, plan, w, d) == 0;
	if (ok)
		*out = *w;
	free(w);
	return ok ? 0 : -1;
}

int wlx_get_optimizer(const struct yn_node *v, enum wl_kind kind,
		      enum optimizer *out, const struct fd_ctx *ctx)
{
	const char *names[OPT_COUNT + 1];
	enum optimizer ids[OPT_COUNT];
	int i;

	opt_names_of_family((int)kind, names, ids);
	if (fd_get_enum(v, "optimizer", names, &i, ctx))
		return -1;
	*out = ids[i];
	return 0;
}
