/*
 * sweep_load.c - sweep files and the workload of each configuration
 * (sweep_load.h; format in docs/sweep-and-plan.md).  The axes (the paths
 * and values of vary: and zip:) are read by sweep_axis.c.
 */
#include "sweep_load.h"
#include "sweep_axis.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "fw_load.h"
#include "wl_load.h"
#include "yaml_load.h"

/* Fields a value can be set in directly, after conversion by a probe. */
enum sw_field {
	FF_GPU, FF_COUNT, FF_GPN, FF_TP, FF_PP, FF_DP, FF_EP, FF_ZERO, FF_MB,
	FF_INTERLEAVE, FF_SP, FF_GRAPHS, FF_COMPILE, FF_OVERLAP, FF_NETWORK, FF_GB, FF_PREC,
	FF_RECOMP, FF_OPT, FF_FLASH, FF_TOKENS, FF_STEPS
};

static const struct {
	const char *path;
	enum sw_field f;
} direct[] = {
	{ "plan.gpu", FF_GPU }, { "plan.count", FF_COUNT },
	{ "plan.gpus_per_node", FF_GPN }, { "plan.tp", FF_TP },
	{ "plan.pp", FF_PP }, { "plan.dp", FF_DP }, { "plan.ep", FF_EP },
	{ "plan.zero", FF_ZERO }, { "plan.micro_batch", FF_MB },
	{ "plan.interleave", FF_INTERLEAVE },
	{ "plan.sequence_parallel", FF_SP }, { "plan.cuda_graphs", FF_GRAPHS },
	{ "plan.compile", FF_COMPILE },
	{ "plan.grad_overlap", FF_OVERLAP }, { "plan.network", FF_NETWORK },
	{ "training.global_batch", FF_GB }, { "training.precision", FF_PREC },
	{ "training.recompute", FF_RECOMP }, { "training.optimizer", FF_OPT },
	{ "training.flash_attention", FF_FLASH },
	{ "training.tokens", FF_TOKENS }, { "training.steps", FF_STEPS },
};
#define N_DIRECT (sizeof(direct) / sizeof(direct[0]))

#define SW_MAX_TOKENS 1e16 /* the loader's limit on steps x batch x seq */

/* The message without its "file:line:col: " prefix. */
static const char *strip_pos(const char *m)
{
	const char *p = m;
	for (int part = 0; part < 3; part++) {
		const char *c = strchr(p, ':');
		if (!c)
			return m;
		if (part > 0) {
			for (const char *q = p; q < c; q++)
				if (*q < '0' || *q > '9')
					return m;
			if (c == p)
				return m;
		}
		p = c + 1;
	}
	return *p == ' ' ? p + 1 : p;
}

/* The search path with the framework profiles read once: a sweep loads a
 * workload per value and per row, and reading every profile each time
 * was most of that work. */
struct sweep_lookup {
	struct tc_datapath dp;  /* dp.frameworks = &fw */
	struct fw_catalog fw;
};

/* Read the profiles once into sw->lookup.  A catalog that does not load
 * leaves it NULL: each workload then reports the problem itself. */
static int lookup_init(struct sweep *sw, const struct tc_datapath *dp, struct tc_diag *d)
{
	struct tc_diag fd;
	tc_diag_init(&fd);
	sw->lookup = calloc(1, sizeof(*sw->lookup));
	if (!sw->lookup)
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
	if (fw_catalog_load(dp, &sw->lookup->fw, &fd)) {
		free(sw->lookup);
		sw->lookup = NULL;
		return 0;
	}
	sw->lookup->dp = *dp;
	sw->lookup->dp.frameworks = &sw->lookup->fw;
	return 0;
}

/* Load the tree `root` (a copy owned by the caller) as a workload. */
static int load_tree(const struct sweep *sw, struct yn_node *root,
		     const struct tc_datapath *dp, struct workload *w,
		     struct tc_diag *d)
{
	struct yn_doc doc = { sw->base.file, root };
	return wl_load_doc(&doc, sw->lookup ? &sw->lookup->dp : dp, w, d);
}

/* Apply the workload keys of `keys` (values vi[k]) to a copy of the base
 * tree.  Returns the copy, or NULL (out of memory, or a path crossing a
 * value: *bad set to the key). */
static struct yn_node *tree_with(const struct sweep *sw, const int *keys, int nk,
				 const size_t *vi, int *bad)
{
	struct yn_node *root = yn_node_copy(sw->base.root);
	if (!root)
		return NULL;
	for (int j = 0; j < nk; j++) {
		const struct sweep_key *k = &sw->key[keys[j]];
		if (k->target != SWT_WORKLOAD)
			continue;
		int rc = yn_set_path(root, k->seg, k->nseg, k->values[vi[j]],
				     k->line, k->col, NULL);
		if (rc) {
			if (bad)
				*bad = keys[j];
			yn_node_free(root);
			return NULL;
		}
	}
	return root;
}

/*
 * With layout: auto the search chooses these (search_best_at): a sweep
 * that also varies one would print values no row uses.  0, or -1 naming
 * the first such key.
 */
static int check_auto_keys(const struct sweep *sw, struct tc_diag *d)
{
	static const char *const searched[] = { "plan.tp", "plan.pp", "plan.dp", "plan.zero",
		"plan.micro_batch", "plan.interleave", "plan.sequence_parallel",
		"training.recompute", NULL };
	for (int k = 0; k < sw->nkeys; k++)
		for (int i = 0; searched[i]; i++)
			if (!strcmp(sw->key[k].path, searched[i])) {
				sweep_err_at(d, sw->file, sw->key[k].line, sw->key[k].col,
					     "'%s' is chosen by layout: auto (expected it left out of vary "
					     "and zip, or layout: fixed)", searched[i]);
				return -1;
			}
	return 0;
}

/* Probe every value of key ki; report unknown paths at the key. */
/*
 * Probe key ki: load the base with each of its values alone, keeping the
 * converted plan and training of those that load.  `base_err` is the
 * base's first message when it does not load alone (else NULL): *varies
 * is set when some value loads, or fails for another reason, so the
 * base's problem lies in what the sweep varies.  0 or -1.
 */
static int probe_key(struct sweep *sw, int ki, const struct tc_datapath *dp,
		     const char *base_err, int *varies, struct tc_diag *d)
{
	struct sweep_key *k = &sw->key[ki];
	if (k->target != SWT_WORKLOAD)
		return 0;
	for (size_t i = 0; i < N_DIRECT; i++)
		if (!strcmp(direct[i].path, k->path))
			k->field = (int)direct[i].f;
	if (!strcmp(k->path, "plan.sequence_parallel"))
		sw->sp_explicit = 1;
	if (k->field >= 0) {
		k->probe = calloc(k->count, sizeof(*k->probe));
		if (!k->probe)
			return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
	}
	/* Crossing a value that is not a mapping is an error at the key. */
	{
		struct yn_node *root = yn_node_copy(sw->base.root);
		int bad_seg = 0;
		if (!root)
			return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
		int rc = yn_set_path(root, k->seg, k->nseg, k->values[0], k->line, k->col, &bad_seg);
		yn_node_free(root);
		if (rc == -1)
			return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
		if (rc == -2)
			return sweep_err_at(d, sw->file, k->line, k->col,
					    "path '%s' goes through '%s', which is not a mapping in the base workload",
					    k->path, k->seg[bad_seg]);
	}
	for (size_t v = 0; v < k->count; v++) {
		int one = ki;
		size_t vi = v;
		struct tc_diag pd;
		struct workload w;
		tc_diag_init(&pd);
		struct yn_node *root = tree_with(sw, &one, 1, &vi, NULL);
		if (!root)
			return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
		int rc = load_tree(sw, root, dp, &w, &pd);
		yn_node_free(root);
		if (base_err && (!rc || !pd.count || strcmp(pd.entry[0].msg, base_err)))
			*varies = 1;
		if (!rc && k->probe) {
			k->probe[v].ok = 1;
			k->probe[v].plan = w.plan;
			k->probe[v].train = w.train;
		}
		/* An unknown key along the path: the path is wrong. */
		for (int e = 0; rc && !v && e < pd.count; e++)
			for (int s = 0; s < k->nseg; s++) {
				char pat[SWEEP_PATH_LEN + 16];
				snprintf(pat, sizeof(pat), "unknown key '%s'", k->seg[s]);
				if (strstr(pd.entry[e].msg, pat))
					return sweep_err_at(d, sw->file, k->line, k->col,
							    "unknown path '%s': %s", k->path,
							    strip_pos(pd.entry[e].msg));
			}
		/* A key without probes needs its first value (the path) and,
		 * under a failing base, one value that changes the failure. */
		if (!k->probe && (!base_err || *varies))
			break;
	}
	return 0;
}

/* Set field f of w from probe p. */
static void apply_field(struct workload *w, int f, const struct sweep_probe *p)
{
	struct plan *pl = &w->plan;
	const struct plan *q = &p->plan;
	switch ((enum sw_field)f) {
	case FF_GPU: memcpy(pl->gpu, q->gpu, sizeof(pl->gpu)); break;
	case FF_COUNT: pl->count = q->count; break;
	case FF_GPN: pl->gpus_per_node = q->gpus_per_node; break;
	case FF_TP: pl->tp = q->tp; break;
	case FF_PP: pl->pp = q->pp; break;
	case FF_DP: pl->dp = q->dp; break;
	case FF_EP: pl->ep = q->ep; break;
	case FF_ZERO: pl->zero = q->zero; break;
	case FF_MB: pl->micro_batch = q->micro_batch; break;
	case FF_INTERLEAVE: pl->interleave = q->interleave; break;
	case FF_SP: pl->sequence_parallel = q->sequence_parallel; break;
	case FF_GRAPHS: pl->cuda_graphs = q->cuda_graphs; break;
	case FF_COMPILE: pl->compile = q->compile; break;
	case FF_OVERLAP: pl->grad_overlap = q->grad_overlap; break;
	case FF_NETWORK:
		pl->network_bytes_per_s = q->network_bytes_per_s;
		pl->network_nics = q->network_nics;
		pl->network_fabric = q->network_fabric;
		memcpy(pl->network, q->network, sizeof(pl->network));
		break;
	case FF_GB: w->train.global_batch = p->train.global_batch; break;
	case FF_PREC: w->train.precision = p->train.precision; break;
	case FF_RECOMP: w->train.recompute = p->train.recompute; break;
	case FF_OPT: w->train.optimizer = p->train.optimizer; break;
	case FF_FLASH: w->train.flash_attention = p->train.flash_attention; break;
	case FF_TOKENS: w->train.tokens = p->train.tokens; break;
	case FF_STEPS: w->train.steps = p->train.steps; break;
	}
}

/* The loader's cross-field checks (wl_load.c read_training, read_plan,
 * cross_checks): true when the workload surely loads. */
static int loads_cleanly(const struct workload *w)
{
	/* another family has no language model's part: its checks see none
	 * (no experts, learned positions of length 0, so that any length
	 * sends the row to the loader) */
	static const struct llm_arch no_llm;
	const struct plan *p = &w->plan;
	const struct llm_arch *a = w->kind == WL_LLM ? &w->llm : &no_llm;
	double mp = (double)p->tp * p->pp;
	if (p->dp > 0 && mp * p->dp != p->count)
		return 0;
	if (p->dp == 0 && fmod((double)p->count, mp) != 0)
		return 0;
	if (p->ep > 1 && (a->experts <= 1 || a->experts % p->ep))
		return 0;
	if (p->micro_batch > w->train.global_batch)
		return 0;
	/* An encoder-decoder's longer length is either stack's, its tokens
	 * are its inputs' (seq_len holds the target's). */
	double tok_len = w->train.input_len > 0 ? w->train.input_len : w->train.seq_len;
	if (a->positions == POS_LEARNED &&
	    fmax(w->train.seq_len, w->train.input_len) > a->max_positions)
		return 0;
	if (w->train.steps > 0 &&
	    w->train.steps * w->train.global_batch * tok_len > SW_MAX_TOKENS)
		return 0;
	return 1;
}

/* Index of the cached base for dimension indices di (slow dims only). */
static size_t base_index(const struct sweep *sw, const size_t *di)
{
	size_t b = 0;
	for (int j = 0; j < sw->ndims; j++)
		if (sw->dim[j].slow)
			b = b * sw->dim[j].len + di[j];
	return b;
}

/* Build the cache of bases: every combination of the slow dimensions. */
static int build_bases(struct sweep *sw, const struct tc_datapath *dp,
		       struct tc_diag *d)
{
	double n = 1;
	for (int j = 0; j < sw->ndims; j++)
		if (sw->dim[j].slow)
			n *= (double)sw->dim[j].len;
	if (n > SWEEP_MAX_BASES)
		return 0; /* every row goes through the tree */
	sw->nbases = (size_t)n;
	sw->bases = calloc(sw->nbases, sizeof(*sw->bases));
	if (!sw->bases)
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
	size_t di[SWEEP_MAX_KEYS] = { 0 };
	for (size_t b = 0; b < sw->nbases; b++) {
		/* Decode b into the slow dimensions' indices. */
		size_t r = b;
		for (int j = sw->ndims - 1; j >= 0; j--)
			if (sw->dim[j].slow) {
				di[j] = r % sw->dim[j].len;
				r /= sw->dim[j].len;
			} else {
				di[j] = 0;
			}
		int keys[SWEEP_MAX_KEYS], nk = 0;
		size_t vi[SWEEP_MAX_KEYS];
		for (int k = 0; k < sw->nkeys; k++)
			if (sw->dim[sw->key[k].dim].slow) {
				keys[nk] = k;
				vi[nk++] = di[sw->key[k].dim];
			}
		struct yn_node *root = tree_with(sw, keys, nk, vi, NULL);
		if (!root) {
			sw->bases[b].ok = 0;
			continue;
		}
		struct tc_diag pd;
		tc_diag_init(&pd);
		sw->bases[b].ok = load_tree(sw, root, dp, &sw->bases[b].w, &pd) == 0 &&
				  sw->bases[b].w.kind == WL_LLM;
		yn_node_free(root);
	}
	return 0;
}

/*
 * Set plan.framework of the base to `id` for every row, as if the base
 * said it; refused when the sweep varies it.  0 or -1.
 */
static int override_framework(struct sweep *sw, const char *id, struct tc_diag *d)
{
	static const char *const seg[] = { "plan", "framework" };
	for (int k = 0; k < sw->nkeys; k++)
		if (!strcmp(sw->key[k].path, "plan.framework"))
			return sweep_err_at(d, sw->file, sw->key[k].line, sw->key[k].col,
					    "'plan.framework' is varied here and set for every row by "
					    "--framework (expected one of them)");
	struct yn_node *v = yn_scalar_new(id, YN_PLAIN, 0, 0);
	int rc = v ? yn_set_path(sw->base.root, seg, 2, v, 0, 0, NULL) : -1;
	yn_node_free(v);
	if (rc == -1)
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
	if (rc == -2)
		return sweep_err_at(d, sw->file, 0, 0, "the base's plan is not a mapping "
				    "(expected one that --framework can set)");
	return 0;
}

int sweep_load_file(const char *path, const struct tc_datapath *dp,
		    struct sweep *sw, struct tc_diag *d)
{
	return sweep_load_file_with(path, NULL, dp, sw, d);
}

/* kind: sweep (a workload given by mistake says so), the top-level keys,
 * name and layout.  0, or -1 with the error. */
static int read_head(struct sweep *sw, const struct yn_node *root, struct tc_diag *d)
{
	/* The kind first: a workload given by mistake gets one line saying
	 * so, not one "unknown key" per section. */
	const struct yn_node *kind = yn_map_get(root, "kind");
	if (kind && kind->type == YN_SCALAR &&
	    (!strcmp(kind->str, "llm") || !strcmp(kind->str, "vision") ||
	     !strcmp(kind->str, "recsys")))
		return sweep_err_at(d, sw->file, kind->line, kind->col,
				    "kind '%s' is a workload, not a sweep (expected kind: sweep, with the "
				    "workload as its base; `traincost estimate` takes a workload)", kind->str);
	if (!kind || kind->type != YN_SCALAR || strcmp(kind->str, "sweep"))
		return sweep_err_at(d, sw->file, kind ? kind->line : root->line, kind ? kind->col : root->col,
				    "%s (expected kind: sweep)", kind ? "kind is not sweep" : "missing required key 'kind' in sweep");
	/* Top-level keys. */
	static const char *const top_keys[] = { "kind", "name", "base", "vary", "zip", "pricing",
						"layout", NULL };
	int bad = 0;
	for (size_t i = 0; i < root->count; i++) {
		const char *kname = root->keys[i]->str;
		int known = 0;
		for (int t = 0; top_keys[t]; t++)
			known |= !strcmp(top_keys[t], kname);
		if (!known) {
			const char *close = fd_suggest(kname, top_keys);
			if (close)
				sweep_err_at(d, sw->file, root->keys[i]->line, root->keys[i]->col,
					     "unknown key '%s' in sweep (did you mean '%s'?)", kname, close);
			else
				sweep_err_at(d, sw->file, root->keys[i]->line, root->keys[i]->col,
					     "unknown key '%s' in sweep (expected one of: kind, name, base, vary, zip, pricing, layout)",
					     kname);
			bad = 1;
		}
	}
	if (bad)
		return -1;
	const struct yn_node *nm = yn_map_get(root, "name");
	if (nm && nm->type == YN_SCALAR)
		snprintf(sw->name, sizeof(sw->name), "%s", nm->str);

	/* layout: fixed (the base's, with the varied values) or auto. */
	const struct yn_node *lay = yn_map_get(root, "layout");
	if (lay) {
		if (lay->type != YN_SCALAR || (strcmp(lay->str, "fixed") && strcmp(lay->str, "auto")))
			return sweep_err_at(d, sw->file, lay->line, lay->col, "layout is '%s' (expected fixed or auto)",
					    lay->type == YN_SCALAR ? lay->str : yn_type_name(lay));
		sw->layout_auto = !strcmp(lay->str, "auto");
	}
	return 0;
}

/* pricing: {kind, provider}.  0 or -1. */
static int read_pricing(struct sweep *sw, const struct yn_node *root, struct tc_diag *d)
{
	const struct yn_node *pr = yn_map_get(root, "pricing");
	if (!pr)
		return 0;
	struct pr_sec { char kind[32]; char provider[PRICE_ID_LEN]; } ps = { "", "" };
	static const struct fd_field pt[] = {
		{ .key = "kind", .type = FD_STR, .offset = offsetof(struct pr_sec, kind), .size = 32 },
		{ .key = "provider", .type = FD_STR, .offset = offsetof(struct pr_sec, provider),
		  .size = PRICE_ID_LEN },
		{ 0 },
	};
	struct fd_ctx ctx = { sw->file, d };
	if (pr->type != YN_MAP)
		return fd_type_error(pr, "pricing", "a mapping", &ctx);
	if (fd_parse_map(pr, pt, &ps, "pricing", &ctx, NULL))
		return -1;
	if (ps.kind[0]) {
		int kk = cost_kind_parse(ps.kind);
		if (kk < 0) {
			const struct yn_node *kv = yn_map_get(pr, "kind");
			return sweep_err_at(d, sw->file, kv->line, kv->col,
					    "pricing kind '%s' is not known (expected on-demand or spot)",
					    ps.kind);
		}
		sw->kind = (enum cost_kind)kk;
	}
	memcpy(sw->provider, ps.provider, sizeof(sw->provider));
	return 0;
}

/* base: a path (relative to the sweep file) or an inline workload, not a
 * sweep.  Sets *basep to its node.  0 or -1. */
static int read_base(struct sweep *sw, const struct yn_node *root,
		     const struct yn_node **basep, struct tc_diag *d)
{
	const struct yn_node *base = yn_map_get(root, "base");
	*basep = base;
	if (!base)
		return sweep_err_at(d, sw->file, root->line, root->col,
				    "missing required key 'base' in sweep (expected a workload file or an inline workload)");
	if (base->type == YN_SCALAR) {
		char p2[2 * DP_PATH_LEN];
		const char *slash = strrchr(sw->file, '/');
		if (base->str[0] == '/' || !slash)
			snprintf(p2, sizeof(p2), "%s", base->str);
		else
			snprintf(p2, sizeof(p2), "%.*s%s", (int)(slash - sw->file + 1), sw->file, base->str);
		if (yn_load_file(p2, &sw->base, d))
			return sweep_err_at(d, sw->file, base->line, base->col, "base '%s' could not be loaded", base->str);
	} else if (base->type == YN_MAP) {
		sw->base.root = yn_node_copy(base);
		sw->base.file = sweep_dup_str(sw->file);
		if (!sw->base.root || !sw->base.file)
			return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
	} else {
		return sweep_err_at(d, sw->file, base->line, base->col,
				    "base is %s (expected a workload file name or a mapping)", yn_type_name(base));
	}
	const struct yn_node *bk = yn_map_get(sw->base.root, "kind");
	if (bk && bk->type == YN_SCALAR && !strcmp(bk->str, "sweep"))
		return sweep_err_at(d, sw->file, base->line, base->col,
				    "base is a sweep (expected a workload: a sweep cannot vary another sweep)");
	const struct yn_node *plan = yn_map_get(sw->base.root, "plan");
	if (plan && yn_map_get(plan, "sequence_parallel"))
		sw->sp_explicit = 1;
	return 0;
}

/* vary: and zip: into the keys and dimensions, within the row and value
 * limits.  0 or -1. */
static int read_vary(struct sweep *sw, const struct yn_node *root, struct tc_diag *d)
{
	const struct yn_node *vary = yn_map_get(root, "vary");
	const struct yn_node *zip = yn_map_get(root, "zip");
	if (!vary && !zip)
		return sweep_err_at(d, sw->file, root->line, root->col,
				    "missing required key 'vary' in sweep (expected dotted paths with lists of values)");
	if (vary && vary->type != YN_MAP)
		return sweep_err_at(d, sw->file, vary->line, vary->col,
				    "vary is %s (expected a mapping of dotted paths to lists)", yn_type_name(vary));
	if (sweep_count_rows(sw, root, vary, zip, d))
		return -1;
	for (size_t i = 0; vary && i < vary->count; i++) {
		if (sweep_read_key(sw, vary->keys[i], vary->items[i], sw->ndims, d))
			return -1;
		sw->dim[sw->ndims++].len = sw->key[sw->nkeys - 1].count;
	}
	if (zip && zip->type != YN_SEQ)
		return sweep_err_at(d, sw->file, zip->line, zip->col,
				    "zip is %s (expected a list of mappings whose lists move together)", yn_type_name(zip));
	for (size_t g = 0; zip && g < zip->count; g++) {
		const struct yn_node *grp = zip->items[g];
		if (grp->type != YN_MAP || !grp->count)
			return sweep_err_at(d, sw->file, grp->line, grp->col,
					    "zip entry is %s (expected a mapping of paths to lists of equal length)",
					    grp->type == YN_MAP ? "empty" : yn_type_name(grp));
		int first = sw->nkeys;
		for (size_t i = 0; i < grp->count; i++) {
			if (sweep_read_key(sw, grp->keys[i], grp->items[i], sw->ndims, d))
				return -1;
			const struct sweep_key *k = &sw->key[sw->nkeys - 1];
			if (k->count != sw->key[first].count)
				return sweep_err_at(d, sw->file, grp->items[i]->line, grp->items[i]->col,
						    "'%s' has %zu values but '%s' has %zu (expected lists of equal length in a zip)",
						    k->path, k->count, sw->key[first].path, sw->key[first].count);
		}
		sw->dim[sw->ndims++].len = sw->key[first].count;
	}
	if (sw->layout_auto && check_auto_keys(sw, d))
		return -1;
	double rows = 1;
	for (int j = 0; j < sw->ndims; j++)
		rows *= (double)sw->dim[j].len;
	if (rows > SWEEP_MAX_ROWS)
		return sweep_err_at(d, sw->file, root->line, root->col,
				    "the sweep has %.3g configurations (expected at most %.0e)", rows, SWEEP_MAX_ROWS);
	sw->rows = (uint64_t)rows;
	size_t values = 0;
	for (int k = 0; k < sw->nkeys; k++) {
		values += sw->key[k].count;
		if (values > SWEEP_MAX_VALUES)
			return sweep_err_at(d, sw->file, sw->key[k].line, sw->key[k].col,
					    "the sweep lists more than %d values with '%s' (expected at "
					    "most %d in all keys together: each is checked on its own)",
					    SWEEP_MAX_VALUES, sw->key[k].path, SWEEP_MAX_VALUES);
	}
	return 0;
}

/* The base alone, then each value alone: a base that fails whatever single
 * value is set fails in a key the sweep does not vary, and every row would
 * repeat it.  0 or -1. */
static int check_base(struct sweep *sw, const struct yn_node *base,
		      const struct tc_datapath *dp, struct tc_diag *d)
{
	struct tc_diag bd;
	tc_diag_init(&bd);
	struct yn_node *copy = yn_node_copy(sw->base.root);
	if (!copy)
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
	int loads = load_tree(sw, copy, dp, &sw->base_w, &bd) == 0;
	sw->base_ok = loads && sw->base_w.kind == WL_LLM;
	yn_node_free(copy);
	const char *base_err = !loads && bd.count ? bd.entry[0].msg : NULL;
	int varies = 0;
	for (int k = 0; k < sw->nkeys; k++)
		if (probe_key(sw, k, dp, base_err, &varies, d))
			return -1;
	if (base_err && !varies)
		return sweep_err_at(d, sw->file, base->line, base->col,
				    "base is invalid in a key the sweep does not vary: %s", base_err);
	return 0;
}

int sweep_load_file_with(const char *path, const struct sweep_overrides *ov,
			 const struct tc_datapath *dp, struct sweep *sw, struct tc_diag *d)
{
	struct yn_doc doc = { 0 };
	const struct yn_node *base = NULL;
	int rc = -1;

	memset(sw, 0, sizeof(*sw));
	sw->kind = COST_ON_DEMAND;
	if (yn_load_file(path, &doc, d))
		return -1;
	sw->file = sweep_dup_str(doc.file);
	if (!sw->file) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
		goto out;
	}
	const struct yn_node *root = doc.root;
	if (root->type != YN_MAP) {
		sweep_err_at(d, sw->file, root->line, root->col,
			     "the file holds %s (expected a mapping with kind: sweep, base and vary)",
			     yn_type_name(root));
		goto out;
	}
	if (read_head(sw, root, d) || read_pricing(sw, root, d) || read_base(sw, root, &base, d) ||
	    read_vary(sw, root, d))
		goto out;
	if (ov && ov->framework && override_framework(sw, ov->framework, d))
		goto out;
	if (lookup_init(sw, dp, d) || check_base(sw, base, dp, d))
		goto out;
	for (int k = 0; k < sw->nkeys; k++)
		if (sw->key[k].target == SWT_WORKLOAD && sw->key[k].field < 0)
			sw->dim[sw->key[k].dim].slow = 1;
	if (sw->base_ok && build_bases(sw, dp, d))
		goto out;
	rc = 0;
out:
	yn_doc_release(&doc);
	if (rc)
		sweep_release(sw);
	return rc;
}

void sweep_row_index(const struct sweep *sw, uint64_t row, size_t *di)
{
	for (int j = sw->ndims - 1; j >= 0; j--) {
		di[j] = (size_t)(row % sw->dim[j].len);
		row /= sw->dim[j].len;
	}
}

const char *sweep_value_text(const struct sweep *sw, int k, const size_t *di)
{
	return sw->key[k].text[di[sw->key[k].dim]];
}

/* The configuration through the node tree and the loader. */
static int row_by_tree(const struct sweep *sw, const size_t *di,
		       const struct tc_datapath *dp, struct workload *w,
		       char *reason, size_t len)
{
	int keys[SWEEP_MAX_KEYS];
	size_t vi[SWEEP_MAX_KEYS];
	for (int k = 0; k < sw->nkeys; k++) {
		keys[k] = k;
		vi[k] = di[sw->key[k].dim];
	}
	struct yn_node *root = tree_with(sw, keys, sw->nkeys, vi, NULL);
	if (!root)
		return -1;
	struct tc_diag d;
	tc_diag_init(&d);
	int rc = load_tree(sw, root, dp, w, &d);
	yn_node_free(root);
	if (rc) {
		if (d.severity == TC_EXIT_INTERNAL)
			return -1;
		snprintf(reason, len, "%s", d.count ? strip_pos(d.entry[0].msg) : "invalid workload");
		return 1;
	}
	return 0;
}

int sweep_row_workload(const struct sweep *sw, const size_t *di,
		       const struct tc_datapath *dp, struct workload *w,
		       long *w_base, struct sweep_pricing *pr, char *reason,
		       size_t len)
{
	pr->kind = sw->kind;
	pr->provider = sw->provider;
	for (int k = 0; k < sw->nkeys; k++) {
		const struct sweep_key *key = &sw->key[k];
		const struct yn_node *v = key->values[di[key->dim]];
		if (key->target == SWT_PRICING_KIND)
			pr->kind = (enum cost_kind)cost_kind_parse(v->str);
		else if (key->target == SWT_PRICING_PROVIDER)
			pr->provider = v->str;
	}
	if (!sw->force_tree && sw->bases) {
		size_t bi = base_index(sw, di);
		const struct sweep_base *b = &sw->bases[bi];
		int ok = b->ok;
		for (int k = 0; ok && k < sw->nkeys; k++) {
			const struct sweep_key *key = &sw->key[k];
			if (key->target == SWT_WORKLOAD && key->field >= 0 &&
			    !key->probe[di[key->dim]].ok)
				ok = 0;
		}
		if (ok) {
			/* Every field the direct keys touch is set again below,
			 * so a copy of the same base can stay. */
			if (*w_base != (long)bi) {
				memcpy(w, &b->w, sizeof(*w));
				*w_base = (long)bi;
			}
			for (int k = 0; k < sw->nkeys; k++) {
				const struct sweep_key *key = &sw->key[k];
				if (key->target == SWT_WORKLOAD && key->field >= 0)
					apply_field(w, key->field, &key->probe[di[key->dim]]);
			}
			if (!sw->sp_explicit)
				w->plan.sequence_parallel = w->plan.tp > 1;
			if (loads_cleanly(w))
				return 0;
		}
	}
	*w_base = -1;
	return row_by_tree(sw, di, dp, w, reason, len);
}

const struct tc_datapath *sweep_datapath(const struct sweep *sw,
					 const struct tc_datapath *dp)
{
	return sw->lookup ? &sw->lookup->dp : dp;
}

void sweep_release(struct sweep *sw)
{
	if (!sw)
		return;
	for (int k = 0; k < sw->nkeys; k++) {
		struct sweep_key *key = &sw->key[k];
		for (size_t i = 0; i < key->count; i++) {
			yn_node_free(key->values[i]);
			free(key->text[i]);
		}
		free(key->values);
		free(key->text);
		free(key->probe);
	}
	if (sw->lookup)
		fw_catalog_release(&sw->lookup->fw);
	free(sw->lookup);
	free(sw->bases);
	free(sw->file);
	yn_doc_release(&sw->base);
	memset(sw, 0, sizeof(*sw));
}
