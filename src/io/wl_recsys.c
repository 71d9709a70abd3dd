/*
 * wl_recsys.c - `kind: recsys` workload files and recommender architecture
 * files (models/arch/<name>.yaml with family: recsys).  The format is in
 * docs/workload-format.md ("Recommender workloads").  Out-parameters are
 * written only on success; problems go to the struct tc_diag.
 */
#include "wl_recsys.h"

#include "wl_common.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "yaml_load.h"

#define MAX_ROWS 1e13
#define MAX_DIM 65536
#define MAX_POOLING 1e6
#define MAX_TABLE_COUNT 10000
#define MAX_SAMPLES 1e16

static const char *const r_precision_names[] = { "fp32", "tf32", "bf16", "fp16", NULL };
static const enum tc_prec r_prec_map[] = { PREC_FP32, PREC_TF32, PREC_BF16, PREC_FP16 };
static const char *const emb_prec_names[] = { "fp32", "fp16", "bf16", NULL };
static const enum tc_prec emb_prec_map[] = { PREC_FP32, PREC_FP16, PREC_BF16 };
static const char *const inter_names[] = { "dot", "dcnv2", "neumf", "two_tower", NULL };
static const char *const tower_names[] = { "query", "item", NULL };
static const enum rec_tower tower_map[] = { REC_TOWER_QUERY, REC_TOWER_ITEM };

struct table_sec {
	double rows, pooling;
	int dim, count, tower;
};

/* One embedding_tables item. */
static int read_table(const struct yn_node *it, const char *file,
		      struct rec_table *t, struct tc_diag *d)
{
#define TOFF(m) offsetof(struct table_sec, m)
	static const struct fd_field table[] = {
		{ .key = "rows", .type = FD_NUM, .required = 1, .offset = TOFF(rows), .unit = TC_UNIT_COUNT, .min = 1, .max = MAX_ROWS },
		{ .key = "dim", .type = FD_INT, .required = 1, .offset = TOFF(dim), .min = 1, .max = MAX_DIM },
		{ .key = "pooling", .type = FD_NUM, .offset = TOFF(pooling), .unit = TC_UNIT_COUNT, .min = 1e-6, .max = MAX_POOLING },
		{ .key = "count", .type = FD_INT, .offset = TOFF(count), .min = 1, .max = MAX_TABLE_COUNT },
		{ .key = "tower", .type = FD_ENUM, .offset = TOFF(tower), .names = tower_names },
		{ 0 },
	};
#undef TOFF
	struct fd_ctx ctx = { .file = file, .d = d };
	struct table_sec ts = { .pooling = 1, .count = 1, .tower = -1 };
	const struct yn_node *rn, *pn;

	if (it->type != YN_MAP)
		return fd_type_error(it, "embedding table", "a mapping with rows and dim", &ctx);
	if (fd_parse_map(it, table, &ts, "embedding table", &ctx, NULL))
		return -1;
	rn = yn_map_get(it, "rows");
	pn = yn_map_get(it, "pooling");
	if (ts.rows != floor(ts.rows))
		return wlx_err(d, file, rn, "rows %g is not a whole number (expected an integer)", ts.rows);
	if (ts.pooling > ts.rows)
		return wlx_err(d, file, pn, "pooling %g is more than the table's %.0f rows (expected at most %.0f lookups per sample)",
			       ts.pooling, ts.rows, ts.rows);
	t->rows = ts.rows;
	t->dim = ts.dim;
	t->pooling = ts.pooling;
	t->count = ts.count;
	t->tower = ts.tower < 0 ? REC_TOWER_NONE : tower_map[ts.tower];
	t->line = it->line;
	t->col = it->col;
	return 0;
}

/* A list of MLP widths. */
static int read_mlp(const struct yn_node *seq, const char *key, const char *file,
		    int *dst, int *n, struct tc_diag *d)
{
	struct fd_ctx ctx = { .file = file, .d = d };
	int bad = 0;
	if (seq->type != YN_SEQ)
		return fd_type_error(seq, key, "a list of layer widths", &ctx);
	if (seq->count == 0)
		return wlx_err(d, file, seq, "%s is empty (expected at least one width)", key);
	if (seq->count > REC_MAX_MLP)
		return wlx_err(d, file, seq->items[REC_MAX_MLP], "%s has more than %d layers (expected at most %d)",
			       key, REC_MAX_MLP, REC_MAX_MLP);
	for (size_t i = 0; i < seq->count; i++)
		if (fd_get_int(seq->items[i], key, 1, 1e6, &dst[i], &ctx))
			bad = 1;
	*n = (int)seq->count;
	return bad ? -1 : 0;
}

struct rarch_sec {
	int dense_features, interaction, cross_layers, cross_rank;
	double params;
	char source[GPU_TEXT_LEN];
	char preset[WL_NAME_LEN];
	int dummy;
};

/* The entry of `key` in a field table. */
static struct fd_field *field(struct fd_field *t, const char *key)
{
	while (t->key && strcmp(t->key, key))
		t++;
	assert(t->key);
	return t;
}

/* The first of the keys (NULL-terminated) that map has, or NULL. */
static const struct yn_node *first_of(const struct yn_node *map, const char *const *keys)
{
	for (; *keys; keys++)
		if (yn_map_get(map, *keys))
			return yn_map_get(map, *keys);
	return NULL;
}

/* Two towers: every table on a side, both sides, towers of one width. */
static int check_two_tower(const struct yn_node *map, const char *file,
			   const struct recsys_arch *a, struct tc_diag *d)
{
	static const char *const dlrm_keys[] = { "bottom_mlp", "top_mlp", NULL };
	const struct yn_node *tn = yn_map_get(map, "embedding_tables"), *n;
	int sides = 0;

	if ((n = first_of(map, dlrm_keys)))
		return wlx_err(d, file, n, "two_tower has no bottom or top MLP (expected query_tower and item_tower)");
	if (!a->nquery || !a->nitem)
		return wlx_err(d, file, map, "missing required key '%s' in model (expected query_tower and item_tower with two_tower)",
			       a->nquery ? "item_tower" : "query_tower");
	for (int i = 0; i < a->ntables; i++) {
		if (a->table[i].tower == REC_TOWER_NONE)
			return wlx_err(d, file, tn->items[i], "table %d has no tower (expected tower: query or item with two_tower)",
				       i + 1);
		sides |= a->table[i].tower == REC_TOWER_QUERY ? 1 : 2;
	}
	if (sides != 3)
		return wlx_err(d, file, tn, "every table is on the %s side (expected tables of both the query and the item tower)",
			       sides == 1 ? "query" : "item");
	if (a->query[a->nquery - 1] != a->item[a->nitem - 1])
		return wlx_err(d, file, yn_map_get(map, "item_tower"),
			       "item_tower ends in %d, query_tower in %d (expected the same width: the logit is their dot product)",
			       a->item[a->nitem - 1], a->query[a->nquery - 1]);
	return 0;
}

/* What each interaction needs of the tables and layers. */
static int check_interaction(const struct yn_node *map, const char *file,
			     const struct recsys_arch *a, struct tc_diag *d)
{
	static const char *const tower_keys[] = { "query_tower", "item_tower", NULL };
	static const char *const cross_keys[] = { "cross_layers", "cross_rank", NULL };
	const struct yn_node *tn = yn_map_get(map, "embedding_tables"), *n;
	const struct yn_node *bn = yn_map_get(map, "bottom_mlp");

	if (a->interaction == RI_TWO_TOWER)
		return check_two_tower(map, file, a, d);
	if ((n = first_of(map, tower_keys)))
		return wlx_err(d, file, n, "towers need interaction: two_tower (expected bottom_mlp and top_mlp with %s)",
			       inter_names[a->interaction]);
	for (int i = 0; i < a->ntables; i++)
		if (a->table[i].tower != REC_TOWER_NONE)
			return wlx_err(d, file, yn_map_get(tn->items[i], "tower"),
				       "a table's tower needs interaction: two_tower (expected no tower with %s)",
				       inter_names[a->interaction]);
	if (a->interaction == RI_NEUMF) {
		if (a->dense_features > 0 || a->nbottom > 0)
			return wlx_err(d, file, bn ? bn : yn_map_get(map, "dense_features"),
				       "neumf takes no dense features (expected dense_features: 0 and no bottom_mlp)");
		if (a->ntables < 3 || a->table[0].dim != a->table[1].dim ||
		    a->table[0].count > 1 || a->table[1].count > 1)
			return wlx_err(d, file, tn, "neumf needs a user and an item table of one width, then the tower's tables "
				       "(expected at least 3 tables, the first two of the same dim and count 1)");
		if (a->ntop < 2)
			return wlx_err(d, file, yn_map_get(map, "top_mlp"), "neumf needs a tower and a prediction layer "
				       "(expected top_mlp of at least 2 widths)");
	}
	if (a->interaction == RI_DCNV2 && (!a->cross_layers || !a->cross_rank))
		return wlx_err(d, file, yn_map_get(map, "interaction"),
			       "interaction dcnv2 needs cross_layers and cross_rank (expected both)");
	if (a->interaction != RI_DOT)
		return 0;
	if ((n = first_of(map, cross_keys)))
		return wlx_err(d, file, n, "cross layers need interaction: dcnv2 (expected no cross_* keys with dot)");
	for (int i = 1; i < a->ntables; i++)
		if (a->table[i].dim != a->table[0].dim)
			return wlx_err(d, file, tn->items[i], "dim %d differs from the first table's %d (expected one width for the dot interaction)",
				       a->table[i].dim, a->table[0].dim);
	if (a->bottom[a->nbottom - 1] != a->table[0].dim)
		return wlx_err(d, file, bn, "bottom_mlp ends in %d, not the embedding width %d (expected the same width for the dot interaction)",
			       a->bottom[a->nbottom - 1], a->table[0].dim);
	return 0;
}

/* The architecture keys of a map (a model section or an arch file). */
static int read_rarch(const struct yn_node *map, const char *file, int arch_file,
		      struct recsys_arch *a, struct tc_diag *d)
{
#define ROFF(m) offsetof(struct rarch_sec, m)
	static const struct fd_field table[] = {
		{ .key = "embedding_tables", .type = FD_IGNORE, .required = 1, .offset = ROFF(dummy) },
		{ .key = "dense_features", .type = FD_INT, .offset = ROFF(dense_features), .min = 0, .max = 1e6 },
		{ .key = "bottom_mlp", .type = FD_IGNORE, .required = 1, .offset = ROFF(dummy) },
		{ .key = "interaction", .type = FD_ENUM, .offset = ROFF(interaction), .names = inter_names },
		{ .key = "cross_layers", .type = FD_INT, .offset = ROFF(cross_layers), .min = 1, .max = 64 },
		{ .key = "cross_rank", .type = FD_INT, .offset = ROFF(cross_rank), .min = 1, .max = 1e6 },
		{ .key = "top_mlp", .type = FD_IGNORE, .required = 1, .offset = ROFF(dummy) },
		{ .key = "query_tower", .type = FD_IGNORE, .offset = ROFF(dummy) },
		{ .key = "item_tower", .type = FD_IGNORE, .offset = ROFF(dummy) },
		/* architecture files only, from "kind" on */
		{ .key = "kind", .type = FD_IGNORE, .offset = ROFF(dummy) },
		{ .key = "name", .type = FD_IGNORE, .offset = ROFF(dummy) },
		{ .key = "family", .type = FD_IGNORE, .offset = ROFF(dummy) },
		{ .key = "display_name", .type = FD_IGNORE, .offset = ROFF(dummy) },
		{ .key = "notes", .type = FD_IGNORE, .offset = ROFF(dummy) },
		{ .key = "params", .type = FD_NUM, .offset = ROFF(params), .unit = TC_UNIT_COUNT, .min = 1, .max = 1e16 },
		{ .key = "source", .type = FD_STR, .offset = ROFF(source), .size = GPU_TEXT_LEN },
		{ 0 },
	};
#undef ROFF
	const struct { const char *key; int *widths, *n; } mlps[] = {
		{ "bottom_mlp", a->bottom, &a->nbottom },
		{ "top_mlp", a->top, &a->ntop },
		{ "query_tower", a->query, &a->nquery },
		{ "item_tower", a->item, &a->nitem },
	};
	struct fd_field t[sizeof(table) / sizeof(table[0])];
	struct fd_ctx ctx = { .file = file, .d = d };
	struct rarch_sec rs = { .dense_features = 13 };
	const struct yn_node *tn, *in = yn_map_get(map, "interaction");
	int bad = 0;

	memcpy(t, table, sizeof(table));
	if (!arch_file)
		*field(t, "kind") = (struct fd_field){ 0 };
	/* NeuMF has no dense features and no bottom MLP; two towers have
	 * neither MLP, and dense features only when given */
	int neumf = in && in->type == YN_SCALAR && !strcmp(in->str, "neumf");
	int towers = in && in->type == YN_SCALAR && !strcmp(in->str, "two_tower");
	if (neumf || towers) {
		field(t, "bottom_mlp")->required = 0;
		rs.dense_features = 0;
	}
	if (towers)
		field(t, "top_mlp")->required = 0;
	if (fd_parse_map(map, t, &rs, arch_file ? "architecture file" : "model", &ctx, NULL))
		return -1;
	memset(a, 0, sizeof(*a));
	tn = yn_map_get(map, "embedding_tables");
	if (tn->type != YN_SEQ || tn->count == 0)
		return fd_type_error(tn, "embedding_tables", "a non-empty list of tables", &ctx);
	if (tn->count > REC_MAX_TABLES)
		return wlx_err(d, file, tn->items[REC_MAX_TABLES], "more than %d table entries (expected count: for identical tables)",
			       REC_MAX_TABLES);
	a->ntables = (int)tn->count;
	for (size_t i = 0; i < tn->count; i++)
		if (read_table(tn->items[i], file, &a->table[i], d))
			bad = 1;
	for (size_t i = 0; i < sizeof(mlps) / sizeof(mlps[0]); i++) {
		const struct yn_node *mn = yn_map_get(map, mlps[i].key);
		if (mn)
			bad |= read_mlp(mn, mlps[i].key, file, mlps[i].widths, mlps[i].n, d);
	}
	if (bad)
		return -1;
	a->dense_features = rs.dense_features;
	a->interaction = (enum rec_interaction)rs.interaction;
	a->cross_layers = rs.cross_layers;
	a->cross_rank = rs.cross_rank;
	if (check_interaction(map, file, a, d))
		return -1;
	snprintf(a->source, sizeof(a->source), "%s", rs.source[0] ? rs.source : file);
	snprintf(a->file, sizeof(a->file), "%s", file);
	return 0;
}

static int rarch_from_doc(const struct yn_doc *doc, const char *want,
			  struct recsys_arch *out, struct tc_diag *d)
{
	struct recsys_arch a;
	const char *slash;
	if (!doc->root || doc->root->type != YN_MAP)
		return wlx_err(d, doc->file, doc->root, "the file holds %s (expected a mapping of architecture fields)",
			       doc->root ? yn_type_name(doc->root) : "nothing");
	if (wlx_arch_head(doc, want, "recsys", d))
		return -1;
	if (read_rarch(doc->root, doc->file, 1, &a, d))
		return -1;
	slash = strrchr(doc->file, '/');
	snprintf(a.name, sizeof(a.name), "%s", want ? want : slash ? slash + 1 : doc->file);
	if (!want) {
		char *dot = strrchr(a.name, '.');
		if (dot)
			*dot = '\0';
	}
	*out = a;
	return 0;
}

int wl_recsys_arch_load_file(const char *path, struct recsys_arch *out,
			     struct tc_diag *d)
{
	struct yn_doc doc = { 0 };
	assert(path && out && d);
	if (yn_load_file(path, &doc, d))
		return -1;
	int rc = rarch_from_doc(&doc, NULL, out, d);
	yn_doc_release(&doc);
	return rc;
}

static int read_rmodel(const char *file, const struct yn_node *map,
		       const struct tc_datapath *dp, struct workload *w,
		       struct tc_diag *d)
{
	const struct yn_node *pn = yn_map_get(map, "preset");
	struct fd_ctx ctx = { .file = file, .d = d };
	if (pn) {
		char name[WL_NAME_LEN];
		struct yn_doc doc = { 0 };
		int rc;
		if (map->count > 1)
			return wlx_err(d, file, map->keys[map->keys[0] == yn_map_key(map, "preset") ? 1 : 0],
				       "model has both preset and other keys (expected preset alone, or the inline fields)");
		if (fd_get_str(pn, "preset", name, sizeof(name), &ctx))
			return -1;
		rc = wlx_open_preset(dp, name, file, pn, &doc, d);
		if (rc == 0)
			rc = rarch_from_doc(&doc, name, &w->rec, d) ? -2 : 0;
		yn_doc_release(&doc);
		if (rc == -2)
			wlx_err(d, file, pn, "preset '%s' could not be loaded", name);
		return rc ? -1 : 0;
	}
	if (read_rarch(map, file, 0, &w->rec, d))
		return -1;
	snprintf(w->rec.name, sizeof(w->rec.name), "inline");
	return 0;
}

/* FD_CUSTOM: the optimizers a recommender file may name. */
static int parse_optimizer(const struct yn_node *v, void *at, const struct fd_ctx *ctx)
{
	return wlx_get_optimizer(v, WL_RECSYS, at, ctx);
}

struct rtrain_sec {
	double samples, dataset_size, epochs, unique_rows;
	int global_batch, precision, emb_precision, input_on_host;
	enum optimizer optimizer;
};

static int read_rtraining(const char *file, const struct yn_node *map,
			  struct workload *w, struct tc_diag *d)
{
#define TOFF(m) offsetof(struct rtrain_sec, m)
	static const struct fd_field table[] = {
		{ .key = "samples", .type = FD_NUM, .offset = TOFF(samples), .unit = TC_UNIT_COUNT, .min = 1, .max = MAX_SAMPLES },
		{ .key = "dataset_size", .type = FD_NUM, .offset = TOFF(dataset_size), .unit = TC_UNIT_COUNT, .min = 1, .max = MAX_SAMPLES },
		{ .key = "epochs", .type = FD_NUM, .offset = TOFF(epochs), .unit = TC_UNIT_COUNT, .min = 1e-6, .max = 1e6 },
		{ .key = "global_batch", .type = FD_INT, .required = 1, .offset = TOFF(global_batch), .min = 1, .max = 1e9 },
		{ .key = "precision", .type = FD_ENUM, .offset = TOFF(precision), .names = r_precision_names },
		{ .key = "embedding_precision", .type = FD_ENUM, .offset = TOFF(emb_precision), .names = emb_prec_names },
		{ .key = "optimizer", .type = FD_CUSTOM, .offset = TOFF(optimizer), .parse = parse_optimizer },
		{ .key = "unique_rows", .type = FD_NUM, .offset = TOFF(unique_rows), .min = 1e-6, .max = 1,
		  .expect = "the share of a step's lookups that hit distinct rows, above 0 and at most 1" },
		{ .key = "input_on_host", .type = FD_BOOL, .offset = TOFF(input_on_host) },
		{ 0 },
	};
#undef TOFF
	struct fd_ctx ctx = { .file = file, .d = d };
	struct rtrain_sec ts = { .precision = 2, .emb_precision = 0, .optimizer = OPT_SGD };
	const struct yn_node *sn, *dn, *en;

	if (fd_parse_map(map, table, &ts, "training", &ctx, NULL))
		return -1;
	sn = yn_map_get(map, "samples");
	dn = yn_map_get(map, "dataset_size");
	en = yn_map_get(map, "epochs");
	if (sn && (dn || en))
		return wlx_err(d, file, dn ? dn : en, "training has both samples and %s (expected samples, or epochs with dataset_size)",
			       dn ? "dataset_size" : "epochs");
	if (!sn && !(dn && en))
		return wlx_err(d, file, map, "missing required key '%s' in training (expected samples, or epochs with dataset_size)",
			       dn ? "epochs" : en ? "dataset_size" : "samples");
	w->train.global_batch = ts.global_batch;
	w->train.precision = r_prec_map[ts.precision];
	w->train.optimizer = ts.optimizer;
	w->train.seq_len = 1;
	w->rtrain.samples = sn ? ts.samples : 0;
	w->rtrain.dataset_size = ts.dataset_size;
	w->rtrain.epochs = ts.epochs;
	w->rtrain.emb_precision = emb_prec_map[ts.emb_precision];
	w->rtrain.unique_rows = ts.unique_rows;
	w->rtrain.input_on_host = ts.input_on_host;
	wlx_mark(w, WLF_SAMPLES, map, "samples");
	wlx_mark(w, WLF_DATASET_SIZE, map, "dataset_size");
	wlx_mark(w, WLF_EPOCHS, map, "epochs");
	wlx_mark(w, WLF_GLOBAL_BATCH, map, "global_batch");
	wlx_mark(w, WLF_PRECISION, map, "precision");
	wlx_mark(w, WLF_EMB_PRECISION, map, "embedding_precision");
	wlx_mark(w, WLF_OPTIMIZER, map, "optimizer");
	return 0;
}

int wl_recsys_load_doc(const struct yn_doc *doc, const struct tc_datapath *dp,
		       struct workload *out, struct tc_diag *d)
{
	static const struct wlx_family recsys = {
		.kind = WL_RECSYS, .model = read_rmodel, .training = read_rtraining,
	};
	return wlx_load_family(doc, dp, &recsys, out, d);
}
