/*
 * price_load.c - pricing/<provider>.yaml and pricing/onprem.yaml.
 *
 * A file is a mapping checked against field tables (fields.h); what tables
 * cannot say (a real date not after today, positive prices, GCP parts that
 * add up, an offer with at least one price, each offer once) is checked
 * afterwards at the position of the offending value (price_check.c).
 */
#include "price_load.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "../model/types/network.h"
#include "yaml_load.h"
#include "yaml_node.h"

#define MAX_OFFERS 10000      /* offers per file */
#define MAX_INSTANCES 100000 /* instances one order can get */
#define MAX_ADAPTERS 64       /* network adapters per instance (p5: 32) */
#define MAX_ADAPTER_GBPS 3200 /* Gb/s of one adapter (today's fastest: 800) */
#define DATE_EXPECT "a date such as 2026-11-29"

static const char *const pricing_kind[] = { "pricing", NULL };
static const char *const onprem_kind[] = { "onprem", NULL };
static const char *const currencies[] = { "USD", NULL };

/* A pricing file while it is parsed. */
struct table_doc {
	struct price_table t;
	char fabric_source[PRICE_TEXT_LEN]; /* the offers' default */
	int kind;     /* index into pricing_kind */
	int currency; /* index into currencies */
};

/* An on-premises file while it is parsed. */
struct onprem_doc {
	struct price_onprem op;
	int kind;
	int currency;
};

static int parse_date(const struct yn_node *v, void *target,
		      const struct fd_ctx *ctx);
static int parse_billing(const struct yn_node *v, void *target,
			 const struct fd_ctx *ctx);
static int parse_offers(const struct yn_node *v, void *target,
			const struct fd_ctx *ctx);
static int parse_spot_notice(const struct yn_node *v, void *target,
			     const struct fd_ctx *ctx);
static int parse_defaults(const struct yn_node *v, void *target,
			  const struct fd_ctx *ctx);
static int parse_network(const struct yn_node *v, void *target,
			 const struct fd_ctx *ctx);
static int parse_onprem_gpus(const struct yn_node *v, void *target,
			     const struct fd_ctx *ctx);
static int parse_max_instances(const struct yn_node *v, void *target,
			       const struct fd_ctx *ctx);
static int parse_cluster(const struct yn_node *v, void *target,
			 const struct fd_ctx *ctx);

#define T(field) offsetof(struct table_doc, t.field)
#define TD(field) offsetof(struct table_doc, field)

static const struct fd_field table_fields[] = {
	{ .key = "kind", .type = FD_ENUM, .required = 1, .offset = TD(kind),
	  .names = pricing_kind },
	{ .key = "provider", .type = FD_STR, .required = 1, .offset = T(provider),
	  .size = PRICE_ID_LEN },
	{ .key = "currency", .type = FD_ENUM, .required = 1, .offset = TD(currency),
	  .names = currencies },
	{ .key = "as_of", .type = FD_CUSTOM, .required = 1, .offset = T(as_of),
	  .parse = parse_date, .expect = DATE_EXPECT },
	{ .key = "source", .type = FD_STR, .required = 1, .offset = T(source),
	  .size = PRICE_TEXT_LEN },
	{ .key = "billing", .type = FD_CUSTOM, .required = 1, .offset = T(billing),
	  .parse = parse_billing },
	{ .key = "spot_notice", .type = FD_CUSTOM, .offset = 0, .parse = parse_spot_notice },
	{ .key = "notes", .type = FD_STR, .offset = T(notes), .size = PRICE_TEXT_LEN },
	{ .key = "fabric_source", .type = FD_STR, .offset = TD(fabric_source),
	  .size = PRICE_TEXT_LEN },
	{ .key = "offers", .type = FD_CUSTOM, .required = 1, .offset = 0,
	  .parse = parse_offers },
	{ .key = NULL },
};

#define B(field) offsetof(struct cost_billing, field)

/* The billing granularity as read: an int index into cost_gran_names. */
struct billing_doc {
	int granularity;
	double minimum_s;
};

static const struct fd_field billing_fields[] = {
	{ .key = "granularity", .type = FD_ENUM, .required = 1,
	  .offset = offsetof(struct billing_doc, granularity),
	  .names = cost_gran_names },
	{ .key = "minimum", .type = FD_NUM, .offset = offsetof(struct billing_doc, minimum_s),
	  .unit = TC_UNIT_SECONDS, .min = 0, .max = 86400 },
	{ .key = NULL },
};

#define O(field) offsetof(struct price_offer, field)
#define P(kind) (O(price_usd_per_h) + (size_t)(kind) * sizeof(double))

/* Prices are checked for > 0 after the table pass, with their own message. */
static const struct fd_field offer_fields[] = {
	{ .key = "instance", .type = FD_STR, .required = 1, .offset = O(instance),
	  .size = PRICE_ID_LEN },
	{ .key = "gpu", .type = FD_STR, .required = 1, .offset = O(gpu),
	  .size = PRICE_ID_LEN },
	{ .key = "gpus", .type = FD_NUM, .required = 1, .offset = O(gpus),
	  .unit = TC_UNIT_COUNT, .min = 0.01, .max = 64 },
	{ .key = "region", .type = FD_STR, .required = 1, .offset = O(region),
	  .size = PRICE_ID_LEN },
	{ .key = "on_demand", .type = FD_NUM, .offset = P(COST_ON_DEMAND),
	  .unit = TC_UNIT_USD_PER_H },
	{ .key = "spot", .type = FD_NUM, .offset = P(COST_SPOT),
	  .unit = TC_UNIT_USD_PER_H },
	{ .key = "gpu_part", .type = FD_NUM, .offset = O(gpu_part_usd_per_h),
	  .unit = TC_UNIT_USD_PER_H },
	{ .key = "host_part", .type = FD_NUM, .offset = O(host_part_usd_per_h),
	  .unit = TC_UNIT_USD_PER_H },
	{ .key = "spot_gpu_part", .type = FD_NUM, .offset = O(spot_gpu_part_usd_per_h),
	  .unit = TC_UNIT_USD_PER_H },
	{ .key = "spot_low", .type = FD_NUM, .offset = O(spot_low_usd_per_h),
	  .unit = TC_UNIT_USD_PER_H },
	{ .key = "spot_median", .type = FD_NUM, .offset = O(spot_median_usd_per_h),
	  .unit = TC_UNIT_USD_PER_H },
	{ .key = "spot_high", .type = FD_NUM, .offset = O(spot_high_usd_per_h),
	  .unit = TC_UNIT_USD_PER_H },
	{ .key = "spot_host_part", .type = FD_NUM, .offset = O(spot_host_part_usd_per_h),
	  .unit = TC_UNIT_USD_PER_H },
	{ .key = "verified", .type = FD_BOOL, .offset = O(verified) },
	{ .key = "interconnect", .type = FD_ENUM, .offset = O(interconnect),
	  .names = cost_link_names },
	{ .key = "network", .type = FD_CUSTOM, .offset = O(network), .parse = parse_network },
	{ .key = "max_instances", .type = FD_CUSTOM, .offset = 0, .parse = parse_max_instances },
	{ .key = "adapters", .type = FD_INT, .offset = O(adapters), .min = 1,
	  .max = MAX_ADAPTERS },
	{ .key = "adapter_gbps", .type = FD_NUM, .offset = O(adapter_gbps),
	  .unit = TC_UNIT_COUNT, .min = 1, .max = MAX_ADAPTER_GBPS },
	{ .key = "fabric", .type = FD_ENUM, .offset = O(fabric), .names = net_fabric_names },
	{ .key = "cluster", .type = FD_CUSTOM, .offset = O(cluster), .parse = parse_cluster },
	{ .key = "fabric_source", .type = FD_STR, .offset = O(fabric_source),
	  .size = PRICE_TEXT_LEN },
	{ .key = "as_of", .type = FD_CUSTOM, .offset = O(as_of), .parse = parse_date,
	  .expect = DATE_EXPECT },
	{ .key = "source", .type = FD_STR, .offset = O(source), .size = PRICE_TEXT_LEN },
	{ .key = "notes", .type = FD_STR, .offset = O(notes), .size = PRICE_TEXT_LEN },
	{ .key = NULL },
};

#define OP(field) offsetof(struct onprem_doc, op.field)
#define OD(field) offsetof(struct onprem_doc, field)

static const struct fd_field onprem_fields[] = {
	{ .key = "kind", .type = FD_ENUM, .required = 1, .offset = OD(kind),
	  .names = onprem_kind },
	{ .key = "currency", .type = FD_ENUM, .required = 1, .offset = OD(currency),
	  .names = currencies },
	{ .key = "as_of", .type = FD_CUSTOM, .required = 1, .offset = OP(as_of),
	  .parse = parse_date, .expect = DATE_EXPECT },
	{ .key = "source", .type = FD_STR, .required = 1, .offset = OP(source),
	  .size = PRICE_TEXT_LEN },
	{ .key = "notes", .type = FD_STR, .offset = OP(notes), .size = PRICE_TEXT_LEN },
	{ .key = "defaults", .type = FD_CUSTOM, .required = 1, .offset = OP(def),
	  .parse = parse_defaults },
	{ .key = "gpus", .type = FD_CUSTOM, .required = 1, .offset = 0,
	  .parse = parse_onprem_gpus },
	{ .key = NULL },
};

#define DF(field) offsetof(struct price_onprem_defaults, field)

static const struct fd_field defaults_fields[] = {
	{ .key = "power_usd_per_kwh", .type = FD_NUM, .required = 1,
	  .offset = DF(power_usd_per_kwh), .unit = TC_UNIT_COUNT, .min = 0, .max = 10 },
	{ .key = "pue", .type = FD_NUM, .required = 1, .offset = DF(pue),
	  .unit = TC_UNIT_COUNT, .min = 1, .max = 5 },
	{ .key = "life_years", .type = FD_NUM, .required = 1, .offset = DF(life_years),
	  .unit = TC_UNIT_COUNT, .min = 0.1, .max = 30 },
	{ .key = "utilisation", .type = FD_NUM, .required = 1, .offset = DF(util_frac),
	  .unit = TC_UNIT_COUNT, .min = 0.01, .max = 1 },
	{ .key = "residual_frac", .type = FD_NUM, .required = 1,
	  .offset = DF(residual_frac), .unit = TC_UNIT_COUNT, .min = 0, .max = 1 },
	{ .key = "colo_usd_per_kw_month", .type = FD_NUM, .required = 1,
	  .offset = DF(colo_usd_per_kw_month), .unit = TC_UNIT_COUNT, .min = 0,
	  .max = 100000 },
	{ .key = "networking_frac", .type = FD_NUM, .required = 1,
	  .offset = DF(networking_frac), .unit = TC_UNIT_COUNT, .min = 0, .max = 1 },
	{ .key = "server_share_frac", .type = FD_NUM, .required = 1,
	  .offset = DF(server_share_frac), .unit = TC_UNIT_COUNT, .min = 0, .max = 10 },
	{ .key = NULL },
};

#define G(field) offsetof(struct price_onprem_gpu, field)

static const struct fd_field onprem_gpu_fields[] = {
	{ .key = "gpu", .type = FD_STR, .required = 1, .offset = G(gpu),
	  .size = PRICE_ID_LEN },
	{ .key = "card_usd", .type = FD_NUM, .offset = G(card_usd),
	  .unit = TC_UNIT_USD, .min = 1, .max = 1e7 },
	{ .key = "server_share_usd", .type = FD_NUM, .offset = G(server_share_usd),
	  .unit = TC_UNIT_USD, .min = 0, .max = 1e7 },
	{ .key = "node_usd", .type = FD_NUM, .offset = G(node_usd),
	  .unit = TC_UNIT_USD, .min = 1, .max = 1e8 },
	{ .key = "node_gpus", .type = FD_INT, .offset = G(node_gpus), .min = 1,
	  .max = 64 },
	{ .key = "verified", .type = FD_BOOL, .offset = G(verified) },
	{ .key = "source", .type = FD_STR, .required = 1, .offset = G(source),
	  .size = PRICE_TEXT_LEN },
	{ .key = "notes", .type = FD_STR, .offset = G(notes), .size = PRICE_TEXT_LEN },
	{ .key = NULL },
};

/* `as_of`: YYYY-MM-DD, a real date, into a char[PRICE_DATE_LEN]. */
static int parse_date(const struct yn_node *v, void *target,
		      const struct fd_ctx *ctx)
{
	char show[64];
	long days;

	if (v->type != YN_SCALAR || yn_is_null(v))
		return fd_type_error(v, "as_of", DATE_EXPECT, ctx);
	if (price_date_days(v->str, &days))
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, v->line, v->col,
				  "as_of '%s' is not a date (expected YYYY-MM-DD, e.g. 2026-11-29)",
				  yn_show_text(v->str, v->len, show, sizeof(show)));
	memcpy(target, v->str, PRICE_DATE_LEN);
	return 0;
}

static int parse_billing(const struct yn_node *v, void *target,
			 const struct fd_ctx *ctx)
{
	struct cost_billing *b = target;
	struct billing_doc bd = { 0, 0 };

	if (v->type != YN_MAP)
		return fd_type_error(v, "billing",
				     "a mapping such as { granularity: per_second, minimum: 60s }",
				     ctx);
	if (fd_parse_map(v, billing_fields, &bd, "billing", ctx, NULL))
		return -1;
	b->granularity = (enum cost_gran)bd.granularity;
	b->minimum_s = bd.minimum_s;
	return 0;
}

/* The spot notice as read: its own source and date, like an offer's. */
struct notice_doc {
	double seconds;
	char source[PRICE_TEXT_LEN];
	char as_of[PRICE_DATE_LEN];
};

static const struct fd_field notice_fields[] = {
	{ .key = "seconds", .type = FD_NUM, .required = 1,
	  .offset = offsetof(struct notice_doc, seconds), .unit = TC_UNIT_SECONDS,
	  .min = 0, .max = 3600, .expect = "a duration from 0 s to 1 h" },
	{ .key = "source", .type = FD_STR, .required = 1,
	  .offset = offsetof(struct notice_doc, source), .size = PRICE_TEXT_LEN },
	{ .key = "as_of", .type = FD_CUSTOM, .required = 1,
	  .offset = offsetof(struct notice_doc, as_of), .parse = parse_date,
	  .expect = DATE_EXPECT },
	{ .key = NULL },
};

/* `spot_notice`: { seconds, source, as_of } from the provider's documents,
 * or `unknown` where the provider states none (the answer then says so). */
static int parse_spot_notice(const struct yn_node *v, void *target,
			     const struct fd_ctx *ctx)
{
	struct table_doc *td = target;
	struct notice_doc nd;
	memset(&nd, 0, sizeof(nd));
	if (v->type == YN_SCALAR && v->style == YN_PLAIN && !strcmp(v->str, "unknown")) {
		td->t.spot_notice_known = 0;
		return 0;
	}
	if (v->type != YN_MAP)
		return fd_type_error(v, "spot_notice", "a mapping such as { seconds: 2min, "
				     "source: URL, as_of: 2026-12-05 }, or unknown", ctx);
	if (fd_parse_map(v, notice_fields, &nd, "spot_notice", ctx, NULL))
		return -1;
	td->t.spot_notice_known = 1;
	td->t.spot_notice_s = nd.seconds;
	memcpy(td->t.spot_notice_source, nd.source, sizeof(nd.source));
	memcpy(td->t.spot_notice_as_of, nd.as_of, sizeof(nd.as_of));
	return 0;
}

/* `offers`: a list of mappings per offer_fields; positions are kept. */
/* An offer's network: a name of network.h or "none". */
static int parse_network(const struct yn_node *v, void *target,
			 const struct fd_ctx *ctx)
{
	int i;
	if (fd_get_enum(v, "network", net_offer_names, &i, ctx))
		return -1;
	snprintf(target, PRICE_ID_LEN, "%s", net_offer_names[i]);
	return 0;
}

/* An offer's max_instances: a count, or `unknown` (no size stated: the
 * loader's bound, and the answer says it is unconfirmed). */
static int parse_max_instances(const struct yn_node *v, void *target,
			       const struct fd_ctx *ctx)
{
	struct price_offer *o = target;
	if (v->type == YN_SCALAR && v->style == YN_PLAIN && !strcmp(v->str, "unknown")) {
		o->max_instances = MAX_INSTANCES;
		o->max_unconfirmed = 1;
		return 0;
	}
	char *end = NULL;
	long n = v->type == YN_SCALAR && v->style == YN_PLAIN ? strtol(v->str, &end, 10) : 0;
	int number = end && end != v->str && !*end;
	if (!number || n < 1 || n > MAX_INSTANCES)
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, v->line, v->col,
				  "'max_instances' is %s%s%s (expected a whole number from 1 to %d, or unknown)",
				  number ? "" : "'", v->type == YN_SCALAR ? v->str : "not a scalar",
				  number ? "" : "'", MAX_INSTANCES);
	o->max_unconfirmed = 0;
	o->max_instances = (int)n;
	return 0;
}

/* An offer's cluster product: one of cost_cluster_names after "none". */
static int parse_cluster(const struct yn_node *v, void *target,
			 const struct fd_ctx *ctx)
{
	int i;
	if (fd_get_enum(v, "cluster", cost_cluster_names + 1, &i, ctx))
		return -1;
	*(int *)target = i + 1;
	return 0;
}

static int parse_offers(const struct yn_node *v, void *target,
			const struct fd_ctx *ctx)
{
	struct table_doc *td = target;
	int rc = 0;

	if (v->type != YN_SEQ)
		return fd_type_error(v, "offers", "a list of offers", ctx);
	if (v->count == 0)
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, v->line, v->col,
				  "offers is empty (expected at least one offer)");
	if (v->count > MAX_OFFERS)
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, v->line, v->col,
				  "offers has %zu entries (expected at most %d)",
				  v->count, MAX_OFFERS);
	free(td->t.offers);
	td->t.count = 0;
	td->t.offers = calloc(v->count, sizeof(*td->t.offers));
	if (!td->t.offers)
		return tc_diag_msg(ctx->d, TC_EXIT_INTERNAL, "out of memory loading '%s'",
				   ctx->file);
	for (size_t i = 0; i < v->count; i++) {
		const struct yn_node *item = v->items[i];
		struct price_offer *o = &td->t.offers[i];

		o->verified = 1;
		o->max_instances = 1;
		snprintf(o->network, sizeof(o->network), "%s", COST_NETWORK_NONE);
		o->line = item->line;
		o->col = item->col;
		if (item->type != YN_MAP) {
			rc = fd_type_error(item, "offer", "a mapping with instance, gpu, gpus, region and prices", ctx);
			continue;
		}
		if (fd_parse_map(item, offer_fields, o, "offer", ctx, NULL))
			rc = -1;
		const struct yn_node *g = yn_map_get(item, "gpu");
		if (g) {
			o->gpu_line = g->line;
			o->gpu_col = g->col;
		}
		const struct yn_node *a = yn_map_get(item, "as_of");
		if (a) {
			o->as_of_line = a->line;
			o->as_of_col = a->col;
		}
	}
	td->t.count = v->count;
	return rc;
}

static int parse_defaults(const struct yn_node *v, void *target,
			  const struct fd_ctx *ctx)
{
	if (v->type != YN_MAP)
		return fd_type_error(v, "defaults", "a mapping of site inputs", ctx);
	return fd_parse_map(v, defaults_fields, target, "defaults", ctx, NULL);
}

/* `gpus` of the on-premises file: each with a card or a node price. */
static int parse_onprem_gpus(const struct yn_node *v, void *target,
			     const struct fd_ctx *ctx)
{
	struct onprem_doc *od = target;
	int rc = 0;

	if (v->type != YN_SEQ)
		return fd_type_error(v, "gpus", "a list of GPUs with their prices", ctx);
	if (v->count == 0 || v->count > MAX_OFFERS)
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, v->line, v->col,
				  "gpus has %zu entries (expected 1 to %d)", v->count,
				  MAX_OFFERS);
	free(od->op.gpus);
	od->op.count = 0;
	od->op.gpus = calloc(v->count, sizeof(*od->op.gpus));
	if (!od->op.gpus)
		return tc_diag_msg(ctx->d, TC_EXIT_INTERNAL, "out of memory loading '%s'",
				   ctx->file);
	for (size_t i = 0; i < v->count; i++) {
		const struct yn_node *item = v->items[i];
		struct price_onprem_gpu *g = &od->op.gpus[i];

		g->verified = 1;
		if (item->type != YN_MAP) {
			rc = fd_type_error(item, "gpus", "a mapping with gpu, card_usd or node_usd, and source", ctx);
			continue;
		}
		if (fd_parse_map(item, onprem_gpu_fields, g, "on-premises GPU", ctx, NULL)) {
			rc = -1;
			continue;
		}
		const struct yn_node *gn = yn_map_get(item, "gpu");
		g->gpu_line = gn->line;
		g->gpu_col = gn->col;
		int card = yn_map_get(item, "card_usd") != NULL;
		int node = yn_map_get(item, "node_usd") != NULL;
		int ngpus = yn_map_get(item, "node_gpus") != NULL;
		if (card == node) {
			rc = tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, item->line, item->col,
					"GPU '%s' needs exactly one of card_usd and node_usd (expected a card price, or a node price with node_gpus)",
					g->gpu);
		} else if (node != ngpus) {
			rc = tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, item->line, item->col,
					"GPU '%s': node_usd and node_gpus go together (expected both or neither)",
					g->gpu);
		} else if (node && yn_map_get(item, "server_share_usd")) {
			const struct yn_node *s = yn_map_key(item, "server_share_usd");
			rc = tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, s->line, s->col,
					"server_share_usd is part of node_usd already (expected it with card_usd only)");
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(od->op.gpus[j].gpu, g->gpu)) {
				rc = tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, gn->line, gn->col,
						"GPU '%s' is listed twice (expected each GPU once)",
						g->gpu);
				break;
			}
	}
	od->op.count = v->count;
	return rc;
}

/* Parse a loaded pricing document into *out. */
static int table_from_doc(const struct yn_doc *doc, const char *today,
			  struct price_table *out, struct tc_diag *warn,
			  struct tc_diag *d)
{
	struct table_doc *td = calloc(1, sizeof(*td));
	const struct fd_ctx ctx = { .file = doc->file, .d = d };
	int rc = -1;

	if (!td)
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory loading '%s'",
				   doc->file);
	int bad = fd_parse_map(doc->root, table_fields, td, "price file", &ctx, NULL);
	const struct yn_node *as_of_node = yn_map_get(doc->root, "as_of");
	if (price_check_not_future(as_of_node, today, &ctx))
		bad = -1;
	const struct yn_node *offers = yn_map_get(doc->root, "offers");
	if (offers && offers->type == YN_SEQ && td->t.offers) {
		for (size_t i = 0; i < td->t.count; i++) {
			struct price_offer *o = &td->t.offers[i];
			if (offers->items[i]->type != YN_MAP)
				continue;
			if (price_check_offer(offers->items[i], o, today, warn, &ctx))
				bad = -1;
			/* Defaults from the file. */
			if (!o->as_of[0]) {
				memcpy(o->as_of, td->t.as_of, sizeof(o->as_of));
				if (as_of_node) {
					o->as_of_line = as_of_node->line;
					o->as_of_col = as_of_node->col;
				}
			}
			if (!o->source[0])
				memcpy(o->source, td->t.source, sizeof(o->source));
			if (o->fabric_stated && !o->fabric_source[0])
				memcpy(o->fabric_source, td->fabric_source, sizeof(o->fabric_source));
			if (o->fabric_stated && !o->fabric_source[0]) {
				tc_diag_at(d, TC_EXIT_INPUT, doc->file, o->line, o->col,
					   "offer '%s' states its fabric without a source (expected fabric_source in the offer or the file)",
					   o->instance);
				bad = -1;
			}
		}
		if (price_check_duplicates(offers, &td->t, &ctx))
			bad = -1;
	}
	if (bad)
		goto out;
	/* One warning per distinct date in use. */
	for (size_t i = 0; i < td->t.count; i++) {
		const struct price_offer *o = &td->t.offers[i];
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(td->t.offers[j].as_of, o->as_of);
		if (!seen)
			price_warn_future(doc->file, o->as_of, o->as_of_line, o->as_of_col, today, warn);
	}
	td->t.file = strdup(doc->file);
	if (!td->t.file) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory loading '%s'", doc->file);
		goto out;
	}
	snprintf(td->t.currency, sizeof(td->t.currency), "%s", currencies[td->currency]);
	*out = td->t;
	memset(&td->t, 0, sizeof(td->t)); /* ownership moved to *out */
	rc = 0;
out:
	price_table_release(&td->t);
	free(td);
	return rc;
}

/* Parse a loaded on-premises document into *out. */
static int onprem_from_doc(const struct yn_doc *doc, const char *today,
			   struct price_onprem *out, struct tc_diag *warn,
			   struct tc_diag *d)
{
	struct onprem_doc *od = calloc(1, sizeof(*od));
	const struct fd_ctx ctx = { .file = doc->file, .d = d };
	int rc = -1;

	if (!od)
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory loading '%s'",
				   doc->file);
	int bad = fd_parse_map(doc->root, onprem_fields, od, "on-premises file", &ctx, NULL);
	const struct yn_node *as_of = yn_map_get(doc->root, "as_of");
	if (price_check_not_future(as_of, today, &ctx))
		bad = -1;
	if (bad)
		goto out;
	if (as_of)
		price_warn_future(doc->file, od->op.as_of, as_of->line, as_of->col, today, warn);
	od->op.file = strdup(doc->file);
	if (!od->op.file) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory loading '%s'", doc->file);
		goto out;
	}
	snprintf(od->op.currency, sizeof(od->op.currency), "%s", currencies[od->currency]);
	*out = od->op;
	memset(&od->op, 0, sizeof(od->op));
	rc = 0;
out:
	price_onprem_release(&od->op);
	free(od);
	return rc;
}

/* Load `path` and require a mapping root.  Returns 0 or -1. */
static int load_doc(const char *path, struct yn_doc *doc, struct tc_diag *d)
{
	if (yn_load_file(path, doc, d))
		return -1;
	if (!doc->root || doc->root->type != YN_MAP) {
		const struct fd_ctx ctx = { .file = doc->file ? doc->file : path, .d = d };
		if (doc->root)
			fd_type_error(doc->root, NULL, "a mapping of price-file keys", &ctx);
		else
			tc_diag_at(d, TC_EXIT_INPUT, ctx.file, 1, 1,
				   "file is empty (expected a mapping of price-file keys)");
		yn_doc_release(doc);
		return -1;
	}
	return 0;
}

int price_load_file(const char *path, const char *today, struct price_table *out,
		    struct tc_diag *warn, struct tc_diag *d)
{
	struct yn_doc doc = { 0 };

	assert(path && today && out && d);
	if (load_doc(path, &doc, d))
		return -1;
	int rc = table_from_doc(&doc, today, out, warn, d);
	yn_doc_release(&doc);
	return rc;
}

int price_onprem_load_file(const char *path, const char *today,
			   struct price_onprem *out, struct tc_diag *warn,
			   struct tc_diag *d)
{
	struct yn_doc doc = { 0 };

	assert(path && today && out && d);
	if (load_doc(path, &doc, d))
		return -1;
	int rc = onprem_from_doc(&doc, today, out, warn, d);
	yn_doc_release(&doc);
	return rc;
}

static int cmp_provider(const void *a, const void *b)
{
	return strcmp(((const struct price_table *)a)->provider,
		      ((const struct price_table *)b)->provider);
}

/* The unjoinable products of doc into set->unjoin (kind: its `kind:`
 * node): one such file at most.  Returns 0 or -1 (messages in d). */
static int set_unjoin(struct price_set *set, const struct yn_doc *doc,
		      const struct yn_node *kind, const char *today, struct tc_diag *warn,
		      struct tc_diag *d)
{
	struct price_unjoin u;
	if (set->unjoin)
		return tc_diag_at(d, TC_EXIT_INPUT, doc->file, kind->line, kind->col,
				  "a second unjoinable file (expected one kind: unjoinable file, the first is '%s')",
				  set->unjoin->file);
	if (price_unjoin_from_doc(doc, today, &u, warn, d))
		return -1;
	if (!(set->unjoin = malloc(sizeof(*set->unjoin)))) {
		price_unjoin_release(&u);
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory loading prices");
	}
	*set->unjoin = u;
	return 0;
}

int price_load_all(const struct tc_datapath *dp, const char *today,
		   struct price_set *set, struct tc_diag *warn, struct tc_diag *d)
{
	char **paths = NULL;
	size_t n = 0;
	int bad = 0;

	assert(dp && today && set && d);
	memset(set, 0, sizeof(*set));
	if (dp_list(dp, "pricing", &paths, &n))
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory listing pricing");
	if (n) {
		set->tables = calloc(n, sizeof(*set->tables));
		if (!set->tables) {
			tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory loading prices");
			bad = 1;
			goto out;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct yn_doc doc = { 0 };
		if (load_doc(paths[i], &doc, d)) {
			bad = 1;
			continue;
		}
		const struct yn_node *kind = yn_map_get(doc.root, "kind");
		if (kind && kind->type == YN_SCALAR && !strcmp(kind->str, "onprem")) {
			struct price_onprem op;
			if (onprem_from_doc(&doc, today, &op, warn, d)) {
				bad = 1;
			} else if (set->onprem) {
				tc_diag_at(d, TC_EXIT_INPUT, doc.file, kind->line, kind->col,
					   "a second on-premises file (expected one kind: onprem file, the first is '%s')",
					   set->onprem->file);
				price_onprem_release(&op);
				bad = 1;
			} else if (!(set->onprem = malloc(sizeof(*set->onprem)))) {
				tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory loading prices");
				price_onprem_release(&op);
				bad = 1;
			} else {
				*set->onprem = op;
			}
		} else if (kind && kind->type == YN_SCALAR && !strcmp(kind->str, "unjoinable")) {
			bad |= set_unjoin(set, &doc, kind, today, warn, d) != 0;
		} else if (table_from_doc(&doc, today, &set->tables[set->count], warn, d)) {
			bad = 1;
		} else {
			set->count++;
		}
		yn_doc_release(&doc);
	}
	if (bad)
		goto out;
	qsort(set->tables, set->count, sizeof(*set->tables), cmp_provider);
	for (size_t i = 1; i < set->count; i++)
		if (!strcmp(set->tables[i].provider, set->tables[i - 1].provider)) {
			tc_diag_msg(d, TC_EXIT_INPUT,
				    "provider '%s' has two price files, '%s' and '%s' (expected one file per provider)",
				    set->tables[i].provider, set->tables[i - 1].file,
				    set->tables[i].file);
			bad = 1;
			break;
		}
out:
	dp_list_free(paths, n);
	if (bad) {
		price_set_release(set);
		return -1;
	}
	return 0;
}
