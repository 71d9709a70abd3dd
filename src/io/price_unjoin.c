/*
 * price_unjoin.c - pricing/unjoinable.yaml (kind: unjoinable): the cluster
 * products the fabric sources name that traincost cannot price as joined
 * instances, each with what the sources lack (an instance price, a fabric
 * the model can time, or both), so that `prices` and `compare` say so
 * rather than stay silent.  Format: docs/pricing.md, "Products that cannot
 * join instances".
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "price_unjoin.h"

#include "price_check.h"
#include "yaml_load.h"

#define MAX_UNJOINABLE 1000 /* products per file */

const char *const price_lack_names[] = { "price", "fabric", "price_and_fabric", NULL };

static const char *const unjoin_kind[] = { "unjoinable", NULL };

struct unjoin_doc {
	struct price_unjoin u;
	int kind;
	char notes[PRICE_TEXT_LEN];
};

static int parse_items(const struct yn_node *v, void *target, const struct fd_ctx *ctx);

#define UD(field) offsetof(struct unjoin_doc, field)
#define U(field) offsetof(struct unjoin_doc, u.field)

static const struct fd_field unjoin_fields[] = {
	{ .key = "kind", .type = FD_ENUM, .required = 1, .offset = UD(kind),
	  .names = unjoin_kind },
	{ .key = "as_of", .type = FD_STR, .required = 1, .offset = U(as_of),
	  .size = PRICE_DATE_LEN },
	{ .key = "source", .type = FD_STR, .required = 1, .offset = U(source),
	  .size = PRICE_TEXT_LEN },
	{ .key = "notes", .type = FD_STR, .offset = UD(notes), .size = PRICE_TEXT_LEN },
	{ .key = "products", .type = FD_CUSTOM, .required = 1, .offset = 0,
	  .parse = parse_items },
	{ .key = NULL },
};

#define I(field) offsetof(struct price_unjoinable, field)

static const struct fd_field item_fields[] = {
	{ .key = "provider", .type = FD_STR, .required = 1, .offset = I(provider),
	  .size = PRICE_ID_LEN },
	{ .key = "product", .type = FD_STR, .required = 1, .offset = I(product),
	  .size = PRICE_ID_LEN },
	{ .key = "gpu", .type = FD_STR, .offset = I(gpu), .size = PRICE_ID_LEN },
	{ .key = "lacks", .type = FD_ENUM, .required = 1, .offset = I(lacks),
	  .names = price_lack_names },
	{ .key = "fabric", .type = FD_STR, .required = 1, .offset = I(fabric),
	  .size = PRICE_TEXT_LEN },
	{ .key = "price", .type = FD_STR, .required = 1, .offset = I(price),
	  .size = PRICE_TEXT_LEN },
	{ .key = "source", .type = FD_STR, .required = 1, .offset = I(source),
	  .size = PRICE_TEXT_LEN },
	{ .key = NULL },
};

/* `products`: a non-empty list of mappings per item_fields. */
static int parse_items(const struct yn_node *v, void *target, const struct fd_ctx *ctx)
{
	struct unjoin_doc *ud = target;
	int rc = 0;

	if (v->type != YN_SEQ)
		return fd_type_error(v, "products", "a list of products", ctx);
	if (v->count == 0 || v->count > MAX_UNJOINABLE)
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, v->line, v->col,
				  "products has %zu entries (expected 1 to %d)", v->count,
				  MAX_UNJOINABLE);
	free(ud->u.items);
	ud->u.count = 0;
	ud->u.items = calloc(v->count, sizeof(*ud->u.items));
	if (!ud->u.items)
		return tc_diag_msg(ctx->d, TC_EXIT_INTERNAL, "out of memory loading '%s'",
				   ctx->file);
	for (size_t i = 0; i < v->count; i++) {
		const struct yn_node *item = v->items[i], *g;
		struct price_unjoinable *p = &ud->u.items[i];
		if (item->type != YN_MAP) {
			rc = fd_type_error(item, "product",
					   "a mapping with provider, product, lacks, fabric, price and source",
					   ctx);
			continue;
		}
		if (fd_parse_map(item, item_fields, p, "product", ctx, NULL))
			rc = -1;
		if ((g = yn_map_get(item, "gpu"))) {
			p->gpu_line = g->line;
			p->gpu_col = g->col;
		}
	}
	ud->u.count = v->count;
	return rc;
}

int price_unjoin_from_doc(const struct yn_doc *doc, const char *today,
			  struct price_unjoin *out, struct tc_diag *warn, struct tc_diag *d)
{
	struct unjoin_doc *ud = calloc(1, sizeof(*ud));
	const struct fd_ctx ctx = { .file = doc->file, .d = d };
	const struct yn_node *as_of = yn_map_get(doc->root, "as_of");
	long days;
	int rc = -1;

	assert(doc && today && out && d);
	if (!ud)
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory loading '%s'", doc->file);
	int bad = fd_parse_map(doc->root, unjoin_fields, ud, "unjoinable file", &ctx, NULL);
	if (!bad && price_date_days(ud->u.as_of, &days))
		bad = tc_diag_at(d, TC_EXIT_INPUT, doc->file, as_of->line, as_of->col,
				 "as_of '%s' is not a date (expected YYYY-MM-DD, e.g. 2026-11-29)",
				 ud->u.as_of);
	if (!bad && price_check_not_future(as_of, today, &ctx))
		bad = -1;
	if (bad)
		goto out;
	price_warn_future(doc->file, ud->u.as_of, as_of->line, as_of->col, today, warn);
	if (!(ud->u.file = strdup(doc->file))) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory loading '%s'", doc->file);
		goto out;
	}
	*out = ud->u;
	memset(&ud->u, 0, sizeof(ud->u)); /* ownership moved to *out */
	rc = 0;
out:
	price_unjoin_release(&ud->u);
	free(ud);
	return rc;
}

int price_unjoin_load_file(const char *path, const char *today, struct price_unjoin *out,
			   struct tc_diag *warn, struct tc_diag *d)
{
	struct yn_doc doc = { 0 };

	assert(path && today && out && d);
	if (yn_load_file(path, &doc, d))
		return -1;
	int rc = -1;
	if (doc.root && doc.root->type == YN_MAP)
		rc = price_unjoin_from_doc(&doc, today, out, warn, d);
	else
		tc_diag_at(d, TC_EXIT_INPUT, doc.file, 1, 1,
			   "the file holds no mapping (expected a mapping of unjoinable-file keys)");
	yn_doc_release(&doc);
	return rc;
}

void price_unjoin_release(struct price_unjoin *u)
{
	if (!u)
		return;
	free(u->file);
	free(u->items);
	memset(u, 0, sizeof(*u));
}
