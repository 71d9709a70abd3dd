/*
 * price_check.c - what the field tables of a price file cannot say, checked
 * after the table pass at the position of the offending value: a real date
 * not too far after today, positive prices, GCP parts that add up, an offer
 * with at least one price and a consistent fabric, each offer once; and,
 * once the catalog is known, the GPU ids and the age of the prices.
 */
#include "price_check.h"
#include "../model/types/network.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define PART_SUM_TOL 1e-6     /* relative: gpu_part + host_part vs the price */

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
int price_date_days(const char *s, long *days)
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
	if (price_date_days(from, &a) || price_date_days(to, &b))
		return -1;
	*days = b - a;
	return 0;
}
/* The price-like keys that must be > 0 when present. */
static const char *const positive_keys[] = {
	"on_demand", "spot", "gpu_part",
	"host_part", "spot_gpu_part", "spot_host_part", "spot_low", "spot_median", "spot_high", NULL
};
/*
 * An as_of more than PRICE_FUTURE_MAX_DAYS after today is an error at the
 * date's position: a typo, not a clock that is behind.
 */
int price_check_not_future(const struct yn_node *date, const char *today,
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
void price_warn_future(const char *file, const char *date, int line, int col,
		       const char *today, struct tc_diag *warn)
{
	long age;

	if (!warn || price_days_between(date, today, &age) || -age <= PRICE_FUTURE_SLACK_DAYS)
		return;
	tc_diag_at(warn, TC_EXIT_OK, file, line, col,
		   "warning: as_of %s is %ld days after today, %s (expected a date on or before today; check the date and the clock)",
		   date, -age, today);
}

/* An offer's network stated as adapters x rate: the four keys together,
 * not beside `network`, and a rate per GPU the model has a network for,
 * which becomes o->network.  Returns 0 or -1. */
static int check_adapters(const struct yn_node *item, struct price_offer *o,
			  const struct fd_ctx *ctx)
{
	static const char *const keys[] = { "adapters", "adapter_gbps", "fabric", "cluster" };
	const struct yn_node *n[4], *net = yn_map_get(item, "network");
	int given = 0;

	for (int k = 0; k < 4; k++)
		given += (n[k] = yn_map_get(item, keys[k])) != NULL;
	if (given == 0)
		return 0;
	for (int k = 0; k < 4; k++)
		if (!n[k])
			return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, item->line, item->col,
					  "offer '%s' has no '%s' (expected adapters, adapter_gbps, fabric and cluster together)",
					  o->instance, keys[k]);
	if (net)
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, net->line, net->col,
				  "offer '%s' has both network and adapters (expected one of them: adapters x rate name the network)",
				  o->instance);
	if (o->adapters < 1 || !(o->adapter_gbps > 0) || !o->cluster || !(o->gpus > 0))
		return 0; /* a bad value, already reported */
	const struct net_def *d = net_for_adapters(o->fabric, o->adapters, o->adapter_gbps, o->gpus);
	if (!d)
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, n[0]->line, n[0]->col,
				  "offer '%s' has %d x %g Gb/s %s for %g GPUs, %.4g Gb/s per GPU, which no network of the model carries (expected a rate per GPU of one of: %s)",
				  o->instance, o->adapters, o->adapter_gbps,
				  net_fabric_names[o->fabric], o->gpus,
				  o->adapters * o->adapter_gbps / o->gpus, NET_FABRIC_TIERS);
	snprintf(o->network, sizeof(o->network), "%s", d->name);
	return 0;
}

/*
 * The fabric keys come together or not at all: interconnect and
 * max_instances with network, or with adapters, adapter_gbps, fabric and
 * cluster (check_adapters); a lone GPU has no link inside, more than one
 * has one; instances join only over a network.  Sets o->fabric_stated.
 * The source is checked by the caller, who knows the file's default.
 */
static int check_fabric(const struct yn_node *item, struct price_offer *o,
			const struct fd_ctx *ctx)
{
	static const char *const keys[] = { "interconnect", "network", "max_instances" };
	const struct yn_node *n[3];
	int given = 0;

	if (check_adapters(item, o, ctx))
		return -1;
	for (int k = 0; k < 3; k++)
		given += (n[k] = yn_map_get(item, keys[k])) != NULL;
	if (o->adapters && !n[1]) {
		given++; /* the adapters are the network */
		n[1] = yn_map_get(item, "adapters");
	}
	if (given == 0)
		return 0;
	if (given < 3) {
		int k = 0;
		while (n[k])
			k++;
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, item->line, item->col,
				  "offer '%s' has no '%s' (expected interconnect, network or adapters, and max_instances together)",
				  o->instance, keys[k]);
	}
	if (n[0]->type != YN_SCALAR || strcmp(n[0]->str, cost_link_names[o->interconnect]) ||
	    (!o->adapters && (n[1]->type != YN_SCALAR || strcmp(n[1]->str, o->network))))
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
				  "offer '%s' has max_instances %s but network none (expected 1 without a network between instances)",
				  o->instance, n[2]->str);
	return 0;
}

/*
 * Spot across zones: spot_low and spot_high together, the point price (the
 * median when given, which is then the spot price and excludes `spot`)
 * between them.  Returns 0 or -1.
 */
static int check_spot_zones(const struct yn_node *item, struct price_offer *o,
			    const struct fd_ctx *ctx)
{
	const struct yn_node *lo = yn_map_get(item, "spot_low"), *hi = yn_map_get(item, "spot_high");
	const struct yn_node *med = yn_map_get(item, "spot_median"), *spot = yn_map_get(item, "spot");
	if (med && spot)
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, med->line, med->col,
				  "offer '%s' has both spot and spot_median (expected one: the median is the spot price)",
				  o->instance);
	if (med)
		o->price_usd_per_h[COST_SPOT] = o->spot_median_usd_per_h;
	if (!lo && !hi)
		return 0;
	if (!lo || !hi)
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, (lo ? lo : hi)->line,
				  (lo ? lo : hi)->col,
				  "offer '%s' has %s without %s (expected spot_low and spot_high together)",
				  o->instance, lo ? "spot_low" : "spot_high", lo ? "spot_high" : "spot_low");
	double point = o->price_usd_per_h[COST_SPOT];
	if (!(point > 0))
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, lo->line, lo->col,
				  "offer '%s' has a spot range but no spot price (expected spot or spot_median)",
				  o->instance);
	if (!(o->spot_low_usd_per_h <= point && point <= o->spot_high_usd_per_h))
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, (med ? med : spot)->line,
				  (med ? med : spot)->col,
				  "offer '%s' has spot %g outside its zones' spot_low %g to spot_high %g (expected a price between them)",
				  o->instance, point, o->spot_low_usd_per_h, o->spot_high_usd_per_h);
	return 0;
}

int price_check_offer(const struct yn_node *item, struct price_offer *o,
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
		else if (v > PRICE_MAX_USD_PER_H)
			rc = tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, n->line, n->col,
					"'%s' is %s (expected at most 100000 US dollars per instance-hour)",
					positive_keys[k], n->str);
	}
	for (int k = 0; k < COST_KIND_COUNT; k++)
		if (yn_map_get(item, cost_kind_keys[k]))
			priced = 1;
	if (yn_map_get(item, "spot_median"))
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
	if (price_check_not_future(yn_map_get(item, "as_of"), today, ctx))
		rc = -1;
	if (check_fabric(item, o, ctx))
		rc = -1;
	if (check_spot_zones(item, o, ctx))
		rc = -1;
	return rc;
}

/* The offers' own (instance, region) pairs are unique. */
int price_check_duplicates(const struct yn_node *offers,
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

int price_unjoin_check_gpus(const struct price_unjoin *u, const char *const *known_ids,
			    struct tc_diag *d)
{
	int rc = 0;

	assert(u && known_ids && d);
	for (size_t i = 0; i < u->count; i++)
		if (u->items[i].gpu[0] && check_id(u->file, u->items[i].gpu_line,
						    u->items[i].gpu_col, u->items[i].gpu,
						    known_ids, d))
			rc = -1;
	return rc;
}
