/*
 * price_load.c - pricing/<provider>.yaml and pricing/onprem.yaml.
 *
 * A file is a mapping checked against field tables (fields.h); what tables
 * cannot say (a real date not after today, positive prices, GCP parts that
 * add up, an offer with at least one price, each offer once) is checked
 * afterwards at the position of the offending value.
 */
#include "price_load.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../model/gpu_alias.h"
#include "../util/infile.h"
#include "fields.h"
#include "network.h"
#include "yaml_node.h"

#define MAX_OFFERS 10000      /* offers per file */
#define PART_SUM_TOL 1e-6     /* relative: gpu_part + host_part vs the price */
#define MAX_INSTANCES 100000 /* instances one order can get */
#define MAX_USD_PER_H 1e5     /* USD per instance-hour: above is a typing mistake */
#define DATE_EXPECT "a date such as 2026-11-29"

static const char *const pricing_kind[] = { "pricing", NULL };
static const char *const onprem_kind[] = { "onprem", NULL };
static const char *const currencies[] = { "USD", NULL };

/* The YAML keys of the pricing kinds, in enum cost_kind order. */
static const char *const price_keys[COST_KIND_COUNT] = { "on_demand", "spot" };

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
static int parse_defaults(const struct yn_node *v, void *target,
			  const struct fd_ctx *ctx);
static int parse_network(const struct yn_node *v, void *target,
			 const struct fd_ctx *ctx);
static int parse_onprem_gpus(const struct yn_node *v, void *target,
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
	{ .key = "spot_host_part", .type = FD_NUM, .offset = O(spot_host_part_usd_per_h),
	  .unit = TC_UNIT_USD_PER_H },
	{ .key = "verified", .type = FD_BOOL, .offset = O(verified) },
	{ .key = "interconnect", .type = FD_ENUM, .offset = O(interconnect),
	  .names = cost_link_names },
	{ .key = "network", .type = FD_CUSTOM, .offset = O(network), .parse = parse_network },
	{ .key = "max_instances", .type = FD_INT, .offset = O(max_instances),
	  .min = 1, .max = MAX_INSTANCES },
	{ .key = "fabric_source", .type = FD_STR, .offset = O(fabric_source),
	  .size = PRICE_TEXT_LEN },
	{ .key = "as_of", .type = FD_CUSTOM, .offset = O(as_of), .parse = parse_date,
	  .expect = DATE_EXPECT },
	{ .key = "source", .type = FD_STR, .offset = O(source), .size = PRICE_TEXT_LEN },
	{ .key = "notes", .type = FD_STR, .offset = O(notes), .size = PRICE_TEXT_LEN },
	{ .key = NULL },
};

/* The price-like keys that must be > 0 when present. */
static const char *const positive_keys[] = {
	"on_demand", "spot", "gpu_part",
	"host_part", "spot_gpu_part", "spot_host_part", NULL
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

/* Days since 1970-01-01 of a Gregorian date (H. Hinnant's days_from_civil). */
static long days_from_civil(long y, long m, long d)
{
	y -= m <= 2;
	long era = (y >= 0 ? y : y - 399) / 400;
	long yoe = y - era * 400;
	long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* Parse "YYYY-MM-DD" (a real date) into days since 1970; 0 or -1. */
static int date_days(const char *s, long *days)
{
	static const char pattern[] = "dddd-dd-dd";
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (strlen(s) != sizeof(pattern) - 1)
		return -1;
	for (size_t i = 0; pattern[i]; i++)
		if (pattern[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != '-')
			return -1;
	int y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (y < 1 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1] + (m == 2 && leap))
		return -1;
	*days = days_from_civil(y, m, d);
	return 0;
}

int price_days_between(const char *from, const char *to, long *days)
{
	long a, b;

	assert(from && to && days);
	if (date_days(from, &a) || date_days(to, &b))
		return -1;
	*days = b - a;
	return 0;
}

/* `as_of`: YYYY-MM-DD, a real date, into a char[PRICE_DATE_LEN]. */
static int parse_date(const struct yn_node *v, void *target,
		      const struct fd_ctx *ctx)
{
	char show[64];
	long days;

	if (v->type != YN_SCALAR || yn_is_null(v))
		return fd_type_error(v, "as_of", DATE_EXPECT, ctx);
	if (date_days(v->str, &days))
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

/*
 * An as_of more than PRICE_FUTURE_MAX_DAYS after today is an error at the
 * date's position: a typo, not a clock that is behind.
 */
static int check_not_future(const struct yn_node *date, const char *today,
			    const struct fd_ctx *ctx)
{
	long age;

	if (!date || date->type != YN_SCALAR)
		return 0;
	if (price_days_between(date->str, today, &age))
		return 0; /* reported by parse_date, or a bad `today` */
	if (-age > PRICE_FUTURE_MAX_DAYS)
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, date->line, date->col,
				  "as_of %s is %ld days after today, %s (expected a date at most %d days ahead)",
				  date->str, -age, today, PRICE_FUTURE_MAX_DAYS);
	return 0;
}

/*
 * A date a little after today (beyond the time-zone slack) is a warning at
 * its position: the file or the clock may be wrong, but the prices are
 * usable.
 */
static void warn_future(const char *file, const char *date, int line, int col,
			const char *today, struct tc_diag *warn)
{
	long age;

	if (!warn || price_days_between(date, today, &age) || -age <= PRICE_FUTURE_SLACK_DAYS)
		return;
	tc_diag_at(warn, TC_EXIT_OK, file, line, col,
		   "warning: as_of %s is %ld days after today, %s (expected a date on or before today; check the date and the clock)",
		   date, -age, today);
}

/* Checks of one parsed offer that tables cannot express. */
/*
 * The fabric keys come together or not at all; a lone GPU has no link
 * inside, more than one has one; instances join only over a network.
 * Sets o->fabric_stated.  The source is checked by the caller, who knows
 * the file's default.
 */
static int check_fabric(const struct yn_node *item, struct price_offer *o,
			const struct fd_ctx *ctx)
{
	static const char *const keys[] = { "interconnect", "network", "max_instances" };
	const struct yn_node *n[3];
	int given = 0;

	for (int k = 0; k < 3; k++)
		given += (n[k] = yn_map_get(item, keys[k])) != NULL;
	if (given == 0)
		return 0;
	if (given < 3) {
		int k = 0;
		while (n[k])
			k++;
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, item->line, item->col,
				  "offer '%s' has no '%s' (expected interconnect, network and max_instances together)",
				  o->instance, keys[k]);
	}
	if (n[0]->type != YN_SCALAR || strcmp(n[0]->str, cost_link_names[o->interconnect]) ||
	    n[1]->type != YN_SCALAR || strcmp(n[1]->str, o->network))
		return 0; /* a bad value, already reported */
	o->fabric_stated = 1;
	if ((o->gpus > 1) != (o->interconnect != COST_LINK_NONE))
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, n[0]->line, n[0]->col,
				  "offer '%s' has %g GPU%s per instance and interconnect %s (expected %s)",
				  o->instance, o->gpus, o->gpus == 1 ? "" : "s",
				  cost_link_names[o->interconnect],
				  o->gpus > 1 ? "pcie or nvlink" : "none");
	if (o->max_instances > 1 && !strcmp(o->network, COST_NETWORK_NONE))
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, n[2]->line, n[2]->col,
				  "offer '%s' has max_instances %d but network none (expected 1 without a network between instances)",
				  o->instance, o->max_instances);
	return 0;
}

static int check_offer(const struct yn_node *item, struct price_offer *o,
		       const char *today, struct tc_diag *warn,
		       const struct fd_ctx *ctx)
{
	int rc = 0, priced = 0;

	for (int k = 0; positive_keys[k]; k++) {
		const struct yn_node *n = yn_map_get(item, positive_keys[k]);
		double v;
		const char *why;
		if (!n || n->type != YN_SCALAR ||
		    tc_parse_quantity(n->str, TC_UNIT_USD_PER_H, &v, &why))
			continue; /* absent, or already reported */
		if (!(v > 0))
			rc = tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, n->line, n->col,
					"'%s' is %s (expected a price above 0 in US dollars per instance-hour)",
					positive_keys[k], n->str);
		else if (v > MAX_USD_PER_H)
			rc = tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, n->line, n->col,
					"'%s' is %s (expected at most 100000 US dollars per instance-hour)",
					positive_keys[k], n->str);
	}
	for (int k = 0; k < COST_KIND_COUNT; k++)
		if (yn_map_get(item, price_keys[k]))
			priced = 1;
	if (!priced)
		rc = tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, item->line, item->col,
				"offer '%s' has no price (expected on_demand, spot or both)",
				o->instance);
	if (rc)
		return rc;

	/* Split billing: both parts, and they add up to the price. */
	static const struct {
		const char *gpu, *host, *total;
		enum cost_kind kind;
	} parts[] = { { "gpu_part", "host_part", "on_demand", COST_ON_DEMAND },
		      { "spot_gpu_part", "spot_host_part", "spot", COST_SPOT } };
	for (size_t p = 0; p < sizeof(parts) / sizeof(parts[0]); p++) {
		const struct yn_node *gn = yn_map_get(item, parts[p].gpu);
		const struct yn_node *hn = yn_map_get(item, parts[p].host);
		const struct yn_node *tn = yn_map_get(item, parts[p].total);
		if (!gn && !hn)
			continue;
		const struct yn_node *at = gn ? gn : hn;
		if (!gn || !hn || !tn) {
			rc = tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, at->line, at->col,
					"'%s' needs '%s' and '%s' as well (expected both parts and their sum)",
					gn ? parts[p].gpu : parts[p].host,
					gn ? parts[p].host : parts[p].gpu, parts[p].total);
			continue;
		}
		double g = p ? o->spot_gpu_part_usd_per_h : o->gpu_part_usd_per_h;
		double h = p ? o->spot_host_part_usd_per_h : o->host_part_usd_per_h;
		double total = o->price_usd_per_h[parts[p].kind];
		if (fabs(g + h - total) > PART_SUM_TOL * total)
			rc = tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, tn->line, tn->col,
					"'%s' is %s but %s + %s = %.10g (expected the sum of the parts)",
					parts[p].total, tn->str, gn->str, hn->str, g + h);
	}

	const struct yn_node *spot = yn_map_get(item, "spot");
	double od = o->price_usd_per_h[COST_ON_DEMAND];
	if (warn && spot && od > 0 && o->price_usd_per_h[COST_SPOT] > od)
		tc_diag_at(warn, TC_EXIT_OK, ctx->file, spot->line, spot->col,
			   "warning: spot %s is above on_demand %g for offer '%s'",
			   spot->str, od, o->instance);
	if (check_not_future(yn_map_get(item, "as_of"), today, ctx))
		rc = -1;
	if (check_fabric(item, o, ctx))
		rc = -1;
	return rc;
}

/* The offers' own (instance, region) pairs are unique. */
static int check_duplicates(const struct yn_node *offers,
			    const struct price_table *t, const struct fd_ctx *ctx)
{
	int rc = 0;

	for (size_t i = 0; i < t->count; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(t->offers[i].instance, t->offers[j].instance) &&
			    !strcmp(t->offers[i].region, t->offers[j].region)) {
				const struct yn_node *n = yn_map_get(offers->items[i], "instance");
				rc = tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file,
						n ? n->line : t->offers[i].line,
						n ? n->col : t->offers[i].col,
						"offer '%s' in region '%s' is listed twice (expected it once, first at line %d)",
						t->offers[i].instance, t->offers[i].region,
						t->offers[j].line);
				break;
			}
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
	if (check_not_future(as_of_node, today, &ctx))
		bad = -1;
	const struct yn_node *offers = yn_map_get(doc->root, "offers");
	if (offers && offers->type == YN_SEQ && td->t.offers) {
		for (size_t i = 0; i < td->t.count; i++) {
			struct price_offer *o = &td->t.offers[i];
			if (offers->items[i]->type != YN_MAP)
				continue;
			if (check_offer(offers->items[i], o, today, warn, &ctx))
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
		if (check_duplicates(offers, &td->t, &ctx))
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
			warn_future(doc->file, o->as_of, o->as_of_line, o->as_of_col, today, warn);
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
	if (check_not_future(as_of, today, &ctx))
		bad = -1;
	if (bad)
		goto out;
	if (as_of)
		warn_future(doc->file, od->op.as_of, as_of->line, as_of->col, today, warn);
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

/* Report `id` at (line, col) if it is not one of known_ids. */
static int check_id(const char *file, int line, int col, const char *id,
		    const char *const *known_ids, struct tc_diag *d)
{
	for (size_t i = 0; known_ids[i]; i++)
		if (!strcmp(known_ids[i], id))
			return 0;
	const char *close = fd_suggest(id, known_ids);
	/* "a100" names a family: offer its first member. */
	for (size_t i = 0; !close && *id && known_ids[i]; i++)
		if (!strncmp(known_ids[i], id, strlen(id)))
			close = known_ids[i];
	if (close)
		return tc_diag_at(d, TC_EXIT_INPUT, file, line, col,
				  "unknown GPU '%s' (expected a GPU id of models/gpu; did you mean '%s'?)",
				  id, close);
	return tc_diag_at(d, TC_EXIT_INPUT, file, line, col,
			  "unknown GPU '%s' (expected a GPU id of models/gpu, see `traincost gpus`)",
			  id);
}

size_t price_set_drop_unverified(struct price_set *set)
{
	size_t dropped = 0;
	for (size_t i = 0; i < set->count; i++) {
		struct price_table *t = &set->tables[i];
		size_t kept = 0;
		for (size_t j = 0; j < t->count; j++)
			if (t->offers[j].verified)
				t->offers[kept++] = t->offers[j];
		dropped += t->count - kept;
		t->count = kept;
	}
	return dropped;
}

int price_check_gpus(const struct price_table *t, const char *const *known_ids,
		     struct tc_diag *d)
{
	int rc = 0;

	assert(t && known_ids && d);
	for (size_t i = 0; i < t->count; i++)
		if (check_id(t->file, t->offers[i].gpu_line, t->offers[i].gpu_col,
			     t->offers[i].gpu, known_ids, d))
			rc = -1;
	return rc;
}

int price_onprem_check_gpus(const struct price_onprem *op,
			    const char *const *known_ids, struct tc_diag *d)
{
	int rc = 0;

	assert(op && known_ids && d);
	for (size_t i = 0; i < op->count; i++)
		if (check_id(op->file, op->gpus[i].gpu_line, op->gpus[i].gpu_col,
			     op->gpus[i].gpu, known_ids, d))
			rc = -1;
	return rc;
}

int price_check_stale(const struct price_table *t, const char *today,
		      int max_age_days, struct tc_diag *warn)
{
	int warned = 0;

	assert(t && today && warn);
	for (size_t i = 0; i < t->count; i++) {
		const struct price_offer *o = &t->offers[i];
		long age;
		int seen = 0;
		if (price_days_between(o->as_of, today, &age) || age <= max_age_days)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(t->offers[j].as_of, o->as_of);
		if (seen)
			continue;
		tc_diag_at(warn, TC_EXIT_OK, t->file, o->as_of_line, o->as_of_col,
			   "warning: prices of '%s' dated %s are %ld days old (expected at most %d; refresh them or pass --max-age)",
			   t->provider, o->as_of, age, max_age_days);
		warned++;
	}
	return warned;
}

int price_onprem_params(const struct price_onprem *op, const char *gpu,
			struct cost_onprem *out)
{
	assert(op && gpu && out);
	for (size_t i = 0; i < op->count; i++) {
		const struct price_onprem_gpu *g = &op->gpus[i];
		if (strcmp(g->gpu, gpu))
			continue;
		double per_gpu;
		if (g->node_usd > 0)
			per_gpu = g->node_usd / g->node_gpus;
		else
			per_gpu = g->card_usd + (g->server_share_usd > 0
							 ? g->server_share_usd
							 : g->card_usd * op->def.server_share_frac);
		out->capex_usd = cost_onprem_capex_usd(per_gpu, 0, op->def.networking_frac);
		out->residual_frac = op->def.residual_frac;
		out->life_years = op->def.life_years;
		out->util_frac = op->def.util_frac;
		out->power_usd_per_kwh = op->def.power_usd_per_kwh;
		out->pue = op->def.pue;
		out->colo_usd_per_kw_month = op->def.colo_usd_per_kw_month;
		return 0;
	}
	return -1;
}

double price_usd_per_gpu_h(const struct price_offer *o, enum cost_kind kind)
{
	assert(o && kind >= 0 && kind < COST_KIND_COUNT);
	if (!(o->gpus > 0))
		return 0;
	return o->price_usd_per_h[kind] / o->gpus;
}

void price_table_release(struct price_table *t)
{
	if (!t)
		return;
	free(t->file);
	free(t->offers);
	memset(t, 0, sizeof(*t));
}

void price_onprem_release(struct price_onprem *op)
{
	if (!op)
		return;
	free(op->file);
	free(op->gpus);
	memset(op, 0, sizeof(*op));
}

void price_set_release(struct price_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->count; i++)
		price_table_release(&set->tables[i]);
	free(set->tables);
	if (set->onprem) {
		price_onprem_release(set->onprem);
		free(set->onprem);
	}
	memset(set, 0, sizeof(*set));
}

/* ---- SkyPilot catalog import ------------------------------------------ */

#define CSV_MAX_FIELDS 64
#define IMPORT_MAX_ROWS 1000000 /* records read from one CSV */
#define IMPORT_MAX_SKIPPED 64   /* distinct skipped accelerator names kept */
#define MIB 1048576.0           /* bytes per MiB */

/* One CSV record; fields point into the (unquoted in place) buffer. */
struct csv_rec {
	char *f[CSV_MAX_FIELDS];
	int n;
	int line; /* 1-based line where the record starts */
};

/*
 * Read the next record from *pos (< end), unquoting RFC 4180 fields in
 * place.  *line counts newlines.  Returns 1 for a record, 0 at the end, -1
 * for too many fields or an unclosed quote (r->line says where).
 */
static int csv_next(char **pos, char *end, int *line, struct csv_rec *r)
{
	char *p = *pos, *w = p;

	if (p >= end)
		return 0;
	r->n = 0;
	r->line = *line;
	for (;;) {
		if (r->n == CSV_MAX_FIELDS)
			return -1;
		r->f[r->n++] = w;
		if (p < end && *p == '"') {
			p++;
			for (;;) {
				if (p >= end)
					return -1;
				if (*p == '"') {
					if (p + 1 < end && p[1] == '"') {
						*w++ = '"';
						p += 2;
						continue;
					}
					p++;
					break;
				}
				if (*p == '\n')
					(*line)++;
				*w++ = *p++;
			}
		}
		while (p < end && *p != ',' && *p != '\n' && *p != '\r')
			*w++ = *p++;
		/* w may sit on the terminator: look before writing the NUL. */
		char c = p < end ? *p : '\n';
		if (p < end)
			p++;
		if (c == '\r' && p < end && *p == '\n')
			p++;
		*w++ = '\0';
		if (c == ',')
			continue;
		(*line)++;
		break;
	}
	*pos = p;
	return 1;
}

/* Read a whole file of at most PRICE_IMPORT_MAX_BYTES; NUL-terminated. */
static char *read_file(const char *path, size_t *len, struct tc_diag *d)
{
	int fd = tc_input_open(path, "a CSV file", d);
	FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f) {
		if (fd >= 0) {
			close(fd);
			tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory reading '%s'", path);
		}
		return NULL;
	}
	for (;;) {
		if (n + 65536 + 1 > cap) {
			size_t ncap = cap ? cap * 2 : 1 << 20;
			char *nb = realloc(buf, ncap);
			if (!nb) {
				tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory reading '%s'", path);
				goto fail;
			}
			buf = nb;
			cap = ncap;
		}
		size_t got = fread(buf + n, 1, 65536, f);
		n += got;
		if (n > PRICE_IMPORT_MAX_BYTES) {
			tc_diag_msg(d, TC_EXIT_INPUT, "'%s' is larger than %u MiB (expected a SkyPilot vms.csv)",
				    path, PRICE_IMPORT_MAX_BYTES >> 20);
			goto fail;
		}
		if (got < 65536)
			break;
	}
	if (ferror(f)) {
		tc_diag_msg(d, TC_EXIT_IO, "cannot read '%s'", path);
		goto fail;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	fclose(f);
	free(buf);
	return NULL;
}

/* True if `hay` contains `needle`, ignoring ASCII case. */
static int has(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++) {
		size_t i = 0;
		while (i < n && hay[i] &&
		       (hay[i] | 0x20) == (needle[i] | 0x20))
			i++;
		if (i == n)
			return 1;
	}
	return 0;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Memory in MiB from a GpuInfo text ("... 'SizeInMiB': 40960 ..."), or 0. */
static double gpuinfo_mib(const char *info)
{
	const char *p = info ? strstr(info, "SizeInMiB") : NULL;
	if (!p)
		return 0;
	p += strlen("SizeInMiB");
	while (*p == '\'' || *p == '"' || *p == ':' || *p == ' ')
		p++;
	return strtod(p, NULL);
}

/*
 * The catalog GPU of a SkyPilot row: accelerator name, memory (MiB, 0 if
 * unknown) and instance type.  Returns the id, or NULL with *why set.
 */
static const char *deduce_gpu(const char *acc, double mib, const char *inst,
			      const char **why)
{
	char a[64];

	gpu_name_squash(acc, strlen(acc), a, sizeof(a));
	/* The board of an A100, H100 or V100 depends on the instance; other
	 * names go through the alias table shared with the catalog lookup. */

	/* SXM or PCIe from the name, then from the instance family. */
	int sxm = has(acc, "sxm") || has(inst, "sxm") || starts(inst, "p4d") ||
		  starts(inst, "p4de") || starts(inst, "p5") || starts(inst, "a2-") ||
		  starts(inst, "a3-") || starts(inst, "Standard_ND") ||
		  starts(inst, "BM.GPU4") || starts(inst, "BM.GPU.A100") ||
		  starts(inst, "BM.GPU.H100") || starts(inst, "p3");
	int pcie = has(acc, "pcie") || has(inst, "pcie") ||
		   starts(inst, "Standard_NC");

	if (starts(a, "A100")) {
		int gb80 = has(a, "80GB") || mib >= 70000;
		if (sxm == pcie) {
			*why = "cannot tell A100 SXM from PCIe from the instance name";
			return NULL;
		}
		return gb80 ? (sxm ? "a100-80gb-sxm" : "a100-80gb-pcie")
			    : (sxm ? "a100-40gb-sxm" : "a100-40gb-pcie");
	}
	if (starts(a, "H100")) {
		if (has(a, "NVL") || starts(inst, "Standard_NC") || mib >= 90000)
			return "h100-nvl";
		if (has(a, "MEGA") || (sxm && !pcie))
			return "h100-sxm";
		if (pcie)
			return "h100-pcie";
		*why = "cannot tell H100 SXM, PCIe or NVL from the instance name";
		return NULL;
	}
	if (starts(a, "V100")) {
		int gb32 = has(a, "32GB") || mib >= 30000;
		if (starts(inst, "Standard_NC"))
			return gb32 ? NULL : "v100-pcie";
		if (sxm)
			return gb32 ? "v100-32gb-sxm2" : "v100-16gb-sxm2";
		*why = "cannot tell V100 SXM2 from PCIe from the instance name";
		return NULL;
	}
	const char *id = gpu_alias_id(acc);
	if (!id)
		*why = "no catalog GPU of that name";
	return id;
}

/* GCP host shapes and the accelerators they carry (name as SkyPilot writes
 * it, count); 0 if the host carries no fixed accelerator. */
static int gcp_host_accel(const char *inst, const char **acc)
{
	static const struct {
		const char *prefix;
		const char *acc;
	} fam[] = {
		{ "a2-highgpu-", "A100" }, { "a2-megagpu-", "A100" },
		{ "a2-ultragpu-", "A100-80GB" }, { "a3-highgpu-", "H100" },
		{ "a3-megagpu-", "H100-MEGA" }, { "a3-ultragpu-", "H200" },
		{ "a4-highgpu-", "B200" },
	};
	static const struct {
		const char *inst;
		int n;
	} g2[] = { { "g2-standard-4", 1 }, { "g2-standard-8", 1 },
		   { "g2-standard-12", 1 }, { "g2-standard-16", 1 },
		   { "g2-standard-32", 1 }, { "g2-standard-24", 2 },
		   { "g2-standard-48", 4 }, { "g2-standard-96", 8 } };

	for (size_t i = 0; i < sizeof(g2) / sizeof(g2[0]); i++)
		if (!strcmp(inst, g2[i].inst)) {
			*acc = "L4";
			return g2[i].n;
		}
	for (size_t i = 0; i < sizeof(fam) / sizeof(fam[0]); i++) {
		size_t n = strlen(fam[i].prefix);
		char *endp;
		if (strncmp(inst, fam[i].prefix, n))
			continue;
		long c = strtol(inst + n, &endp, 10);
		if (c > 0 && c <= 64 && !strcmp(endp, "g")) {
			*acc = fam[i].acc;
			return (int)c;
		}
	}
	return 0;
}

/* A row as read, before offers are formed. */
struct sky_row {
	const char *inst, *acc, *info, *region, *zone;
	double count, price, spot;
	int line;
	int used; /* a GCP accelerator row joined to a host row */
};

/* Skipped accelerator names, reported once each. */
struct skipped {
	char name[PRICE_ID_LEN];
	const char *why;
	int rows, first_line;
};

struct import_ctx {
	const char *file;
	struct price_table *t;
	size_t cap;
	struct skipped skip[IMPORT_MAX_SKIPPED];
	int nskip;
	struct tc_diag *d;
};

static void note_skip(struct import_ctx *ic, const char *acc, const char *why,
		      int line)
{
	for (int i = 0; i < ic->nskip; i++)
		if (!strcmp(ic->skip[i].name, acc)) {
			ic->skip[i].rows++;
			return;
		}
	if (ic->nskip == IMPORT_MAX_SKIPPED)
		return;
	struct skipped *s = &ic->skip[ic->nskip++];
	snprintf(s->name, sizeof(s->name), "%s", acc);
	s->why = why;
	s->rows = 1;
	s->first_line = line;
}

/* Add or merge (cheapest zone) an offer.  Returns 0 or -1 (memory). */
static int add_offer(struct import_ctx *ic, const struct sky_row *r,
		     const char *gpu, double gpu_part, double host_part,
		     double spot_gpu, double spot_host)
{
	struct price_table *t = ic->t;
	double od = gpu_part + host_part > 0 ? gpu_part + host_part : r->price;
	double spot = spot_gpu > 0 && spot_host > 0 ? spot_gpu + spot_host : r->spot;

	for (size_t i = 0; i < t->count; i++) {
		struct price_offer *o = &t->offers[i];
		if (strcmp(o->instance, r->inst) || strcmp(o->region, r->region))
			continue;
		if (od > 0 && (!(o->price_usd_per_h[COST_ON_DEMAND] > 0) ||
			       od < o->price_usd_per_h[COST_ON_DEMAND])) {
			o->price_usd_per_h[COST_ON_DEMAND] = od;
			o->gpu_part_usd_per_h = gpu_part;
			o->host_part_usd_per_h = host_part;
		}
		if (spot > 0 && (!(o->price_usd_per_h[COST_SPOT] > 0) ||
				 spot < o->price_usd_per_h[COST_SPOT])) {
			o->price_usd_per_h[COST_SPOT] = spot;
			o->spot_gpu_part_usd_per_h = spot_gpu > 0 && spot_host > 0 ? spot_gpu : 0;
			o->spot_host_part_usd_per_h = spot_gpu > 0 && spot_host > 0 ? spot_host : 0;
		}
		return 0;
	}
	if (t->count == ic->cap) {
		size_t ncap = ic->cap ? ic->cap * 2 : 64;
		struct price_offer *n = realloc(t->offers, ncap * sizeof(*n));
		if (!n)
			return tc_diag_msg(ic->d, TC_EXIT_INTERNAL, "out of memory importing '%s'",
					   ic->file);
		t->offers = n;
		ic->cap = ncap;
	}
	struct price_offer *o = &t->offers[t->count++];
	memset(o, 0, sizeof(*o));
	snprintf(o->instance, sizeof(o->instance), "%s", r->inst);
	snprintf(o->gpu, sizeof(o->gpu), "%s", gpu);
	snprintf(o->region, sizeof(o->region), "%s", r->region);
	o->gpus = r->count;
	o->price_usd_per_h[COST_ON_DEMAND] = od;
	o->price_usd_per_h[COST_SPOT] = spot;
	o->gpu_part_usd_per_h = gpu_part;
	o->host_part_usd_per_h = host_part;
	if (spot_gpu > 0 && spot_host > 0) {
		o->spot_gpu_part_usd_per_h = spot_gpu;
		o->spot_host_part_usd_per_h = spot_host;
	}
	o->verified = 1;
	o->line = r->line;
	memcpy(o->as_of, t->as_of, sizeof(o->as_of));
	memcpy(o->source, t->source, sizeof(o->source));
	return 0;
}

/* Parse a price cell: empty = 0 (not sold); else a number from 0 to the
 * loader's MAX_USD_PER_H, so that the import writes nothing the price
 * loader would refuse. */
static int price_cell(struct import_ctx *ic, int line, const char *col,
		      const char *s, double *out)
{
	char *endp;
	if (!*s) {
		*out = 0;
		return 0;
	}
	double v = strtod(s, &endp);
	if (endp == s || *endp || !isfinite(v) || v < 0 || v > MAX_USD_PER_H)
		return tc_diag_at(ic->d, TC_EXIT_INPUT, ic->file, line, 0,
				  "%s is '%s' (expected a price in US dollars per hour, 0 to %.0f)",
				  col, s, MAX_USD_PER_H);
	*out = v;
	return 0;
}

int price_import_skypilot(const char *path, const char *provider,
			  const char *today, struct price_table *out,
			  struct tc_diag *warn, struct tc_diag *d)
{
	enum { C_INST, C_ACC, C_COUNT, C_INFO, C_REGION, C_ZONE, C_PRICE, C_SPOT, C_N };
	static const char *const names[C_N] = { "InstanceType", "AcceleratorName",
		"AcceleratorCount", "GpuInfo", "Region", "AvailabilityZone",
		"Price", "SpotPrice" };
	static const int required[C_N] = { 1, 1, 1, 0, 1, 0, 1, 0 };
	struct price_table t = { 0 };
	struct import_ctx ic = { .file = path, .t = &t, .d = d };
	struct sky_row *rows = NULL;
	size_t nrows = 0, len = 0;
	int col[C_N], line = 1, rc = -1, bad = 0;
	struct csv_rec rec;
	char *buf, *pos;

	assert(path && provider && today && out && d);
	if (!(buf = read_file(path, &len, d)))
		return -1;
	pos = buf;
	snprintf(t.provider, sizeof(t.provider), "%s", provider);
	snprintf(t.currency, sizeof(t.currency), "USD");
	snprintf(t.as_of, sizeof(t.as_of), "%s", today);
	const char *base = strrchr(path, '/');
	snprintf(t.source, sizeof(t.source), "SkyPilot catalog %s", base ? base + 1 : path);
	/* AWS and GCP bill per second with a 1 minute minimum (their documented
	 * rule); other providers are not known here: per hour, conservative. */
	int fine = !strcmp(provider, "aws") || !strcmp(provider, "gcp");
	t.billing.granularity = fine ? COST_PER_SECOND : COST_PER_HOUR;
	t.billing.minimum_s = fine ? 60 : COST_S_PER_H;
	snprintf(t.notes, sizeof(t.notes),
		 "Imported from %s on %s by `traincost prices import skypilot`: the catalog has no date, so as_of is the import date.  One offer per instance and region, the cheapest zone.%s",
		 base ? base + 1 : path, today,
		 fine ? "" : "  Billing granularity is not in the catalog: per_hour is assumed; edit it.");

	int got = csv_next(&pos, buf + len, &line, &rec);
	if (got <= 0) {
		tc_diag_at(d, TC_EXIT_INPUT, path, 1, 0,
			   "no header line (expected a SkyPilot vms.csv header such as InstanceType,AcceleratorName,...)");
		goto out;
	}
	for (int c = 0; c < C_N; c++) {
		col[c] = -1;
		for (int i = 0; i < rec.n; i++)
			if (!strcmp(rec.f[i], names[c]))
				col[c] = i;
		if (col[c] < 0 && required[c]) {
			tc_diag_at(d, TC_EXIT_INPUT, path, 1, 0,
				   "no '%s' column (expected a SkyPilot vms.csv header with InstanceType, AcceleratorName, AcceleratorCount, Region and Price)",
				   names[c]);
			bad = 1;
		}
	}
	if (bad)
		goto out;
	int ncols = rec.n;
	size_t rcap = 0;
	while ((got = csv_next(&pos, buf + len, &line, &rec)) != 0) {
		if (got < 0) {
			tc_diag_at(d, TC_EXIT_INPUT, path, rec.line, 0,
				   "unclosed quote or more than %d fields (expected a CSV record)",
				   CSV_MAX_FIELDS);
			bad = 1;
			break;
		}
		if (rec.n == 1 && !rec.f[0][0])
			continue; /* blank line */
		if (rec.n != ncols) {
			tc_diag_at(d, TC_EXIT_INPUT, path, rec.line, 0,
				   "%d fields (expected %d, as in the header)", rec.n, ncols);
			bad = 1;
			continue;
		}
		if (nrows == IMPORT_MAX_ROWS) {
			tc_diag_at(d, TC_EXIT_INPUT, path, rec.line, 0,
				   "more than %d rows (expected a SkyPilot vms.csv)", IMPORT_MAX_ROWS);
			bad = 1;
			break;
		}
		if (nrows == rcap) {
			size_t ncap = rcap ? rcap * 2 : 256;
			struct sky_row *n = realloc(rows, ncap * sizeof(*n));
			if (!n) {
				tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory importing '%s'", path);
				goto out;
			}
			rows = n;
			rcap = ncap;
		}
		struct sky_row *r = &rows[nrows];
		r->line = rec.line;
		r->used = 0;
		r->inst = rec.f[col[C_INST]];
		r->acc = rec.f[col[C_ACC]];
		r->info = col[C_INFO] >= 0 ? rec.f[col[C_INFO]] : "";
		r->region = rec.f[col[C_REGION]];
		r->zone = col[C_ZONE] >= 0 ? rec.f[col[C_ZONE]] : "";
		int rowbad = price_cell(&ic, rec.line, "Price", rec.f[col[C_PRICE]], &r->price);
		if (col[C_SPOT] >= 0 &&
		    price_cell(&ic, rec.line, "SpotPrice", rec.f[col[C_SPOT]], &r->spot))
			rowbad = -1;
		else if (col[C_SPOT] < 0)
			r->spot = 0;
		const char *cs = rec.f[col[C_COUNT]];
		char *endp;
		r->count = *cs ? strtod(cs, &endp) : 0;
		if (*cs && (*endp || !isfinite(r->count) || r->count <= 0 || r->count > 64)) {
			tc_diag_at(d, TC_EXIT_INPUT, path, rec.line, 0,
				   "AcceleratorCount is '%s' (expected a GPU count above 0, at most 64)", cs);
			rowbad = -1;
		}
		if (*r->acc && !*cs) {
			tc_diag_at(d, TC_EXIT_INPUT, path, rec.line, 0,
				   "AcceleratorCount is empty for accelerator '%s' (expected a GPU count)",
				   r->acc);
			rowbad = -1;
		}
		if (!*r->region) {
			tc_diag_at(d, TC_EXIT_INPUT, path, rec.line, 0,
				   "Region is empty (expected a region name)");
			rowbad = -1;
		}
		if (rowbad)
			bad = 1;
		else
			nrows++;
	}
	if (bad)
		goto out;

	/* Plain rows: an instance with its accelerators and one price. */
	for (size_t i = 0; i < nrows; i++) {
		const struct sky_row *r = &rows[i];
		const char *why = NULL, *gpu;
		if (!*r->inst || !*r->acc)
			continue; /* CPU instance, or a GCP row (below) */
		if (!(r->price > 0) && !(r->spot > 0))
			continue;
		if (!(gpu = deduce_gpu(r->acc, gpuinfo_mib(r->info), r->inst, &why))) {
			note_skip(&ic, r->acc, why ? why : "no catalog GPU of that size", r->line);
			continue;
		}
		if (add_offer(&ic, r, gpu, 0, 0, 0, 0))
			goto out;
	}
	/* GCP: a host row plus the accelerator row of its zone and count. */
	for (size_t i = 0; i < nrows; i++) {
		const struct sky_row *h = &rows[i];
		struct sky_row *a = NULL;
		const char *acc = NULL, *why = NULL, *gpu;
		if (!*h->inst || *h->acc)
			continue;
		int n = gcp_host_accel(h->inst, &acc);
		if (!n)
			continue;
		for (size_t j = 0; j < nrows && !a; j++)
			if (!*rows[j].inst && !strcmp(rows[j].acc, acc) &&
			    rows[j].count == n && !strcmp(rows[j].region, h->region) &&
			    !strcmp(rows[j].zone, h->zone))
				a = &rows[j];
		if (!a)
			continue;
		a->used = 1;
		if (!(gpu = deduce_gpu(a->acc, gpuinfo_mib(a->info), h->inst, &why))) {
			note_skip(&ic, a->acc, why ? why : "no catalog GPU of that size", a->line);
			continue;
		}
		if (!(h->price > 0 && a->price > 0))
			continue;
		struct sky_row joined = *h;
		joined.count = n;
		joined.price = 0; /* the parts carry the prices */
		joined.spot = 0;
		if (add_offer(&ic, &joined, gpu, a->price, h->price, a->spot, h->spot))
			goto out;
	}
	/* GCP accelerator rows that no host row took (N1 attachments, TPUs). */
	for (size_t j = 0; j < nrows; j++)
		if (!*rows[j].inst && *rows[j].acc && !rows[j].used)
			note_skip(&ic, rows[j].acc,
				  "accelerator rows without a matching GCP host shape (N1 attachments are not imported)",
				  rows[j].line);
	for (int i = 0; warn && i < ic.nskip; i++)
		tc_diag_at(warn, TC_EXIT_OK, path, ic.skip[i].first_line, 0,
			   "warning: skipped %d row%s of accelerator '%s': %s",
			   ic.skip[i].rows, ic.skip[i].rows == 1 ? "" : "s",
			   ic.skip[i].name, ic.skip[i].why);
	if (t.count == 0) {
		tc_diag_at(d, TC_EXIT_INPUT, path, 1, 0,
			   "no GPU offers found (expected rows whose AcceleratorName is a catalog GPU)");
		goto out;
	}
	if (!(t.file = strdup(path))) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory importing '%s'", path);
		goto out;
	}
	*out = t;
	memset(&t, 0, sizeof(t));
	rc = 0;
out:
	price_table_release(&t);
	free(rows);
	free(buf);
	return rc;
}

/* Write `s` as a double-quoted YAML scalar. */
static void yaml_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s < 0x20)
			fprintf(f, "\\x%02x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

int price_table_write_yaml(const struct price_table *t, FILE *f)
{
	static const char *const part_keys[] = { "gpu_part", "host_part",
						 "spot_gpu_part", "spot_host_part" };

	assert(t && f);
	fputs("kind: pricing\nprovider: ", f);
	yaml_str(f, t->provider);
	fprintf(f, "\ncurrency: %s\nas_of: %s\nsource: ", t->currency, t->as_of);
	yaml_str(f, t->source);
	fprintf(f, "\nbilling: { granularity: %s, minimum: %.10gs }\n",
		cost_gran_names[t->billing.granularity], t->billing.minimum_s);
	if (t->notes[0]) {
		fputs("notes: ", f);
		yaml_str(f, t->notes);
		fputc('\n', f);
	}
	fputs("offers:\n", f);
	for (size_t i = 0; i < t->count; i++) {
		const struct price_offer *o = &t->offers[i];
		const double parts[] = { o->gpu_part_usd_per_h, o->host_part_usd_per_h,
					 o->spot_gpu_part_usd_per_h,
					 o->spot_host_part_usd_per_h };
		fputs("  - { instance: ", f);
		yaml_str(f, o->instance);
		fprintf(f, ", gpu: %s, gpus: %.10g, region: ", o->gpu, o->gpus);
		yaml_str(f, o->region);
		for (int k = 0; k < COST_KIND_COUNT; k++)
			if (o->price_usd_per_h[k] > 0)
				fprintf(f, ", %s: %.10g", price_keys[k], o->price_usd_per_h[k]);
		for (int k = 0; k < 4; k++)
			if (parts[k] > 0)
				fprintf(f, ", %s: %.10g", part_keys[k], parts[k]);
		if (!o->verified)
			fputs(", verified: false", f);
		if (o->as_of[0] && strcmp(o->as_of, t->as_of))
			fprintf(f, ", as_of: %s", o->as_of);
		if (o->source[0] && strcmp(o->source, t->source)) {
			fputs(", source: ", f);
			yaml_str(f, o->source);
		}
		if (o->notes[0]) {
			fputs(", notes: ", f);
			yaml_str(f, o->notes);
		}
		fputs(" }\n", f);
	}
	return ferror(f) ? -1 : 0;
}
