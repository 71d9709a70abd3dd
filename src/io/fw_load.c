/*
 * fw_load.c - framework profiles, models/framework/<id>.yaml.
 */
#include "fw_load.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eff_map.h"
#include "fields.h"
#include "yaml_load.h"
#include "yaml_node.h"

static const char *const kind_names[] = { "framework", NULL };

/* The parse target: the profile and what fd_parse_map fills around it. */
struct fw_doc {
	struct framework f;
	int kind;
};

#define F(field) offsetof(struct fw_doc, f.field)

static int parse_id(const struct yn_node *v, void *target, const struct fd_ctx *ctx)
{
	struct fw_doc *fd = target;
	char *id = fd->f.layer.id;
	if (fd_get_str(v, "id", id, sizeof(fd->f.layer.id), ctx))
		return -1;
	for (const char *s = id; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
			return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, v->line, v->col,
					  "id '%s' has characters other than a-z, 0-9 and '-' "
					  "(expected an id such as 'megatron')", id);
	const char *base = strrchr(ctx->file, '/');
	base = base ? base + 1 : ctx->file;
	size_t len = strlen(id);
	if (strncmp(base, id, len) || strcmp(base + len, ".yaml"))
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, v->line, v->col,
				  "id '%s' does not match the file name (expected the name "
				  "without .yaml)", id);
	return 0;
}

/* A list of workload families into a bit set. */
static int family_set(const struct yn_node *v, const char *key, unsigned *out,
		      const struct fd_ctx *ctx)
{
	if (v->type != YN_SEQ || v->count == 0)
		return fd_type_error(v, key, "a list such as [llm, vision]", ctx);
	int rc = 0;
	for (size_t i = 0; i < v->count; i++) {
		int k;
		if (fd_get_enum(v->items[i], key, wl_kind_names, &k, ctx))
			rc = -1;
		else
			*out |= 1u << k;
	}
	return rc;
}

static int parse_families(const struct yn_node *v, void *target, const struct fd_ctx *ctx)
{
	return family_set(v, "families", &((struct fw_doc *)target)->f.families, ctx);
}

static int parse_default_for(const struct yn_node *v, void *target, const struct fd_ctx *ctx)
{
	return family_set(v, "default_for", &((struct fw_doc *)target)->f.default_for, ctx);
}

static int parse_eff(const struct yn_node *v, void *target, const struct fd_ctx *ctx)
{
	struct fw_doc *fd = target;
	return eff_map_parse(v, &fd->f.layer.set, fd->f.layer.value, NULL, ctx);
}

static int parse_as_of(const struct yn_node *v, void *target, const struct fd_ctx *ctx)
{
	struct fw_doc *fd = target;
	return fd_get_date(v, "as_of", fd->f.as_of, sizeof(fd->f.as_of), ctx);
}

static const struct fd_field fw_fields[] = {
	{ .key = "kind", .type = FD_ENUM, .required = 1, .offset = offsetof(struct fw_doc, kind),
	  .names = kind_names },
	{ .key = "id", .type = FD_CUSTOM, .required = 1, .parse = parse_id },
	{ .key = "name", .type = FD_STR, .required = 1, .offset = F(name),
	  .size = GPU_TEXT_LEN },
	{ .key = "families", .type = FD_CUSTOM, .required = 1, .parse = parse_families },
	{ .key = "default_for", .type = FD_CUSTOM, .parse = parse_default_for },
	{ .key = "efficiency", .type = FD_CUSTOM, .parse = parse_eff },
	{ .key = "fitted_runs", .type = FD_INT, .offset = F(layer.fitted_runs), .min = 0, .max = 100000 },
	{ .key = "source", .type = FD_STR, .required = 1, .offset = F(source),
	  .size = FW_TEXT_LEN },
	{ .key = "as_of", .type = FD_CUSTOM, .required = 1, .parse = parse_as_of },
	{ .key = "notes", .type = FD_STR, .offset = F(notes), .size = FW_TEXT_LEN },
	{ .key = NULL },
};

int fw_load_file(const char *path, struct framework *out, struct tc_diag *d)
{
	struct yn_doc doc = { 0 };
	struct fw_doc *fd = NULL;
	int rc = -1;

	assert(path && out && d);
	if (yn_load_file(path, &doc, d))
		goto out;
	const struct fd_ctx ctx = { .file = doc.file ? doc.file : path, .d = d };
	if (!doc.root || doc.root->type != YN_MAP) {
		tc_diag_at(d, TC_EXIT_INPUT, ctx.file, doc.root ? doc.root->line : 1,
			   doc.root ? doc.root->col : 1,
			   "the file holds %s (expected a mapping of framework keys)",
			   doc.root ? yn_type_name(doc.root) : "nothing");
		goto out;
	}
	fd = calloc(1, sizeof(*fd));
	if (!fd) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory loading '%s'", path);
		goto out;
	}
	if (fd_parse_map(doc.root, fw_fields, fd, "framework file", &ctx, NULL))
		goto out;
	*out = fd->f;
	rc = 0;
out:
	free(fd);
	yn_doc_release(&doc);
	return rc;
}

static int cmp_fw_id(const void *a, const void *b)
{
	return strcmp(((const struct framework *)a)->layer.id,
		      ((const struct framework *)b)->layer.id);
}

/*
 * A stack with no measured run and no stack_frac of its own takes the rate
 * pooled over every measured stack of its family (the family's default
 * profile, models/framework/generic.yaml for language models), not the
 * registry's 1, which only the stack the defaults were fitted on earns.
 */
static void inherit_pooled(struct fw_catalog *cat)
{
	const unsigned long long bit = 1ULL << eff_id_stack_frac;
	for (size_t i = 0; i < cat->count; i++) {
		struct eff_stack *f = &cat->fws[i].layer;
		if (f->fitted_runs > 0 || (f->set & bit))
			continue;
		for (size_t j = 0; j < cat->count; j++) {
			const struct eff_stack *g = &cat->fws[j].layer;
			if (!(cat->fws[j].default_for & cat->fws[i].families) ||
			    g->fitted_runs <= 0 || !(g->set & bit))
				continue;
			f->value[eff_id_stack_frac] = g->value[eff_id_stack_frac];
			f->set |= bit;
			snprintf(f->pooled_from, sizeof(f->pooled_from), "%s", g->id);
			break;
		}
	}
}

int fw_catalog_load(const struct tc_datapath *dp, struct fw_catalog *cat, struct tc_diag *d)
{
	char **paths = NULL;
	size_t n = 0;
	int rc = -1, bad = 0;

	assert(dp && cat && d);
	memset(cat, 0, sizeof(*cat));
	if (dp_list(dp, "models/framework", &paths, &n)) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory listing models/framework");
		return -1;
	}
	cat->fws = calloc(n ? n : 1, sizeof(*cat->fws));
	if (!cat->fws) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory loading the framework profiles");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (fw_load_file(paths[i], &cat->fws[cat->count], d))
			bad = 1;
		else
			cat->count++;
	}
	if (bad)
		goto out;
	qsort(cat->fws, cat->count, sizeof(*cat->fws), cmp_fw_id);
	for (size_t i = 0; i < cat->count; i++)
		for (size_t j = i + 1; j < cat->count; j++)
			if (cat->fws[i].default_for & cat->fws[j].default_for) {
				tc_diag_msg(d, TC_EXIT_INPUT, "frameworks '%s' and '%s' are both the "
					    "default of one family (expected at most one default_for "
					    "each family)", cat->fws[i].layer.id, cat->fws[j].layer.id);
				goto out;
			}
	inherit_pooled(cat);
	rc = 0;
out:
	dp_list_free(paths, n);
	if (rc)
		fw_catalog_release(cat);
	return rc;
}

const struct framework *fw_catalog_find(const struct fw_catalog *cat, const char *id,
					char *why, size_t whylen)
{
	const char *names[64];
	size_t k = 0, used = 0;

	for (size_t i = 0; i < cat->count; i++)
		if (!strcmp(cat->fws[i].layer.id, id))
			return &cat->fws[i];
	for (size_t i = 0; i < cat->count && k + 1 < sizeof(names) / sizeof(names[0]); i++)
		names[k++] = cat->fws[i].layer.id;
	names[k] = NULL;
	const char *close = fd_suggest(id, names);
	int w = snprintf(why, whylen, "unknown framework '%s' (%s%s%sknown: ", id,
			 close ? "did you mean '" : "", close ? close : "", close ? "'? " : "");
	used = w > 0 && (size_t)w < whylen ? (size_t)w : whylen - 1;
	for (size_t i = 0; i < k && used + 1 < whylen; i++) {
		w = snprintf(why + used, whylen - used, "%s%s", i ? ", " : "", names[i]);
		used = w > 0 && (size_t)w < whylen - used ? used + (size_t)w : whylen - 1;
	}
	if (used + 1 < whylen)
		snprintf(why + used, whylen - used, "%s)", k ? "" : "none installed");
	return NULL;
}

void fw_catalog_release(struct fw_catalog *cat)
{
	if (!cat)
		return;
	free(cat->fws);
	cat->fws = NULL;
	cat->count = 0;
}

/* The profiles of dp: its preloaded catalog, else read into *own (release
 * it after).  NULL on failure (messages in d). */
static const struct fw_catalog *catalog_of(const struct tc_datapath *dp, struct fw_catalog *own,
					   struct tc_diag *d)
{
	memset(own, 0, sizeof(*own));
	if (dp->frameworks)
		return dp->frameworks;
	return fw_catalog_load(dp, own, d) ? NULL : own;
}

/* Look id up into *out; the message (without position) into why. */
static int resolve(const struct tc_datapath *dp, const char *id, struct eff_stack *out,
		   char *why, size_t whylen, struct tc_diag *d)
{
	struct fw_catalog own;
	const struct fw_catalog *cat = catalog_of(dp, &own, d);
	if (!cat)
		return -1;
	const struct framework *f = fw_catalog_find(cat, id, why, whylen);
	if (f)
		*out = f->layer;
	fw_catalog_release(&own);
	return f ? 0 : 1;
}

int fw_resolve(const struct tc_datapath *dp, const char *file, const struct yn_node *v,
	       struct eff_stack *out, struct tc_diag *d)
{
	char why[512];
	if (v->type != YN_SCALAR || !v->len)
		return tc_diag_at(d, TC_EXIT_INPUT, file, v->line, v->col,
				  "framework is not a name (expected a framework id such as "
				  "megatron; `traincost frameworks` lists them)");
	int rc = resolve(dp, v->str, out, why, sizeof(why), d);
	if (rc > 0)
		return tc_diag_at(d, TC_EXIT_INPUT, file, v->line, v->col, "%s", why);
	return rc;
}

int fw_resolve_id(const struct tc_datapath *dp, const char *what, const char *id,
		  struct eff_stack *out, struct tc_diag *d)
{
	char why[512];
	int rc = resolve(dp, id, out, why, sizeof(why), d);
	if (rc > 0)
		return tc_diag_msg(d, TC_EXIT_USAGE, "%s: %s", what, why);
	return rc;
}

int fw_stack(const struct tc_datapath *dp, const char *id, struct eff_stack *out,
	     struct tc_diag *d)
{
	memset(out, 0, sizeof(*out));
	return id[0] ? fw_resolve_id(dp, "framework", id, out, d) : 0;
}

int fw_resolve_default(const struct tc_datapath *dp, enum wl_kind kind,
		       struct eff_stack *out, struct tc_diag *d)
{
	struct fw_catalog own;
	const struct fw_catalog *cat = catalog_of(dp, &own, d);
	if (!cat)
		return -1;
	const struct framework *f = fw_catalog_default(cat, kind);
	if (f)
		*out = f->layer;
	fw_catalog_release(&own);
	return 0;
}

const struct framework *fw_catalog_default(const struct fw_catalog *cat, enum wl_kind kind)
{
	const struct framework *f = NULL;
	for (size_t i = 0; i < cat->count; i++) /* the load allows one a kind */
		if (cat->fws[i].default_for & (1u << kind))
			f = &cat->fws[i];
	return f;
}
