/*
 * money.c - pricing options and costing (money.h).
 */
#include "money.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../model/types/network.h"
#include "../io/wl_load.h"
#include "../util/units.h"

void money_spot_opts(struct money_args *a, struct cli_opts *t)
{
	const struct cli_opt rows[] = {
		CLI_VALUE("preempt-per-h", &a->preempt, "R",
			  "spot: preemptions per instance-hour, interruptions of the wall clock "
			  "(their restart and checkpoint interval are the campaign's)"),
	};
	CLI_OPTS_ADD_GROUP(t, MONEY_OPTS_GROUP, rows);
}

void money_basis_opts(int *steady_state, struct cli_opts *t)
{
	const struct cli_opt rows[] = {
		CLI_FLAG("steady-state", steady_state,
			 "judge deadlines and budgets, and bill the cost, at steady state "
			 "(default: on the expected wall clock, with the campaign's "
			 "interruptions, restarts, checkpoints and spare nodes; "
			 "docs/model.md, section 9)"),
	};
	CLI_OPTS_ADD(t, rows);
}

double money_judged_s(int steady_state, const struct estimate *e, const struct run_cost *c)
{
	if (steady_state)
		return e->total_time_s;
	if (!c || c->unfit)
		return e->campaign.wall_s;
	return c->campaign_hopeless ? HUGE_VAL : c->wall_s;
}

double money_judged_usd(int steady_state, const struct run_cost *c)
{
	if (steady_state)
		return c->range.cheapest.run.cost_usd;
	return c->campaign_hopeless ? HUGE_VAL : c->wall_usd;
}

void money_opts(struct money_args *a, struct cli_opts *t)
{
	const struct cli_opt rows[] = {
		CLI_VALUE("provider", &a->provider, "NAME", "one provider's offers only"),
		CLI_CHOICE("pricing", &a->pricing, cost_kind_names, "P",
			   "the kind of price, on-demand unless given"),
		CLI_VALUE("max-age", &a->max_age, "DAYS",
			  "warn about prices older than this (default " CLI_STR(PRICE_STALE_DAYS) ")"),
		CLI_VALUE("pue", &a->pue, "X", "energy: the data centre's power usage effectiveness"),
		CLI_VALUE("power-frac", &a->power_frac, "F", "energy: mean share of each GPU's TDP drawn"),
		CLI_VALUE("grid", &a->grid, "G", "energy: kg CO2 per kWh of the grid"),
	};
	const struct cli_opt unverified[] = {
		CLI_FLAG("include-unverified", &a->include_unverified,
			 "also price offers marked verified: false (without it they are set "
			 "aside, and the answer says what the cheapest would cost)"),
		CLI_VALUE("assume-fabric", &a->assume_fabric, "P=NET",
			  "join provider P's instances over network NET (what a contract gives; "
			  "the answer says so)"),
	};
	CLI_OPTS_ADD_GROUP(t, MONEY_OPTS_GROUP, rows);
	money_spot_opts(a, t);
	CLI_OPTS_ADD_GROUP(t, MONEY_OPTS_GROUP, unverified);
}

/* A plain number option within [min, max]; TC_EXIT_USAGE when not. */
static int num_arg(struct cli_ctx *ctx, const char *cmd, const char *opt, const char *val,
		   double min, double max, double *out)
{
	char *end;
	if (!val)
		return 0;
	double v = strtod(val, &end);
	if (end == val || *end || !isfinite(v) || v < min || v > max)
		return cli_usage_error(ctx, cmd, "--%s '%s' is not valid (expected a number from %g to %g)",
				       opt, val, min, max);
	*out = v;
	return 0;
}

int money_parse(struct cli_ctx *ctx, const char *cmd, const struct money_args *a,
		struct money *m)
{
	double max_age = PRICE_STALE_DAYS;

	memset(m, 0, sizeof(*m));
	run_cost_defaults(&m->in, a->pricing ? (enum cost_kind)cost_kind_parse(a->pricing)
					      : COST_ON_DEMAND);
	if (num_arg(ctx, cmd, "max-age", a->max_age, 1, 36500, &max_age) ||
	    num_arg(ctx, cmd, "pue", a->pue, 1, 3, &m->in.pue) ||
	    num_arg(ctx, cmd, "power-frac", a->power_frac, 0.01, 1.5, &m->in.power_frac) ||
	    num_arg(ctx, cmd, "grid", a->grid, 0, 2000, &m->in.grid_g_per_kwh) ||
	    num_arg(ctx, cmd, "preempt-per-h", a->preempt, 0, 100, &m->in.preempt_per_h))
		return TC_EXIT_USAGE;
	m->max_age_days = (int)max_age;
	/* No source gives a spot preemption rate (reference/goodput.md lists
	 * measured rates among its gaps): the default is an assumption, and
	 * every spot answer that uses it says so. */
	if (m->in.kind == COST_SPOT && !a->preempt)
		fprintf(ctx->err, "traincost %s: warning: no provider publishes a spot preemption rate "
			"and none is sourced here: the %.3g per instance-hour assumed is no measurement "
			"(expected --preempt-per-h R from your own history)\n", cmd,
			m->in.preempt_per_h);
	return money_assume_check(ctx, cmd, a->assume_fabric);
}

#define ASSUME_MAX_LEN 1024 /* longest --assume-fabric */
#define ASSUME_MAX_INSTANCES 100000 /* the loader's bound of an unknown size */

/* Each PROVIDER=NETWORK of spec in turn: fn(ctx, cmd, provider, network,
 * arg) for each, stopping at the first non-zero return.  A malformed item
 * or an unknown network is a usage error. */
static int assume_each(struct cli_ctx *ctx, const char *cmd, const char *spec,
		       int (*fn)(struct cli_ctx *, const char *, const char *,
				 const struct net_def *, void *),
		       void *arg)
{
	char buf[ASSUME_MAX_LEN], *save = NULL;
	if (!spec)
		return 0;
	if (strlen(spec) >= sizeof(buf))
		return cli_usage_error(ctx, cmd, "--assume-fabric is longer than %d characters",
				       ASSUME_MAX_LEN - 1);
	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		const struct net_def *n = eq ? net_find(eq + 1) : NULL;
		if (!eq || eq == item)
			return cli_usage_error(ctx, cmd, "--assume-fabric '%s' is not valid (expected PROVIDER=NETWORK, e.g. coreweave=ib-ndr)",
					       item);
		*eq = '\0';
		if (!n) {
			char names[256] = "";
			for (int k = 0; net_names[k]; k++)
				snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
					 k ? ", " : "", net_names[k]);
			return cli_usage_error(ctx, cmd, "--assume-fabric '%s': network '%s' is not known (expected one of: %s)",
					       item, eq + 1, names);
		}
		int rc = fn ? fn(ctx, cmd, item, n, arg) : 0;
		if (rc)
			return rc;
	}
	return 0;
}

int money_assume_check(struct cli_ctx *ctx, const char *cmd, const char *spec)
{
	return assume_each(ctx, cmd, spec, NULL, NULL);
}

/* assume_each's step: join the offers of `provider` in set over n. */
static int assume_one(struct cli_ctx *ctx, const char *cmd, const char *provider,
		      const struct net_def *n, void *arg)
{
	struct price_set *set = arg;
	for (size_t t = 0; t < set->count; t++) {
		struct price_table *pt = &set->tables[t];
		if (strcmp(pt->provider, provider))
			continue;
		/* the offers set aside too: what they would offer is said */
		for (size_t i = 0; i < pt->count + pt->aside; i++) {
			struct price_offer *o = &pt->offers[i];
			if (o->gpus < 1)
				continue; /* a fractional GPU joins nothing */
			snprintf(o->network, sizeof(o->network), "%s", n->name);
			o->max_instances = ASSUME_MAX_INSTANCES;
			o->max_unconfirmed = 1;
			o->fabric_assumed = 1;
			o->fabric_stated = 1;
			o->adapters = 0;
			o->cluster = COST_CLUSTER_NONE;
			snprintf(o->fabric_source, sizeof(o->fabric_source),
				 "assumed with --assume-fabric %s=%s", provider, n->name);
		}
		return 0;
	}
	return cli_usage_error(ctx, cmd, "--assume-fabric: provider '%s' has no price table (expected a provider of `traincost prices`)",
			       provider);
}

int money_assume_apply(struct cli_ctx *ctx, const char *cmd, const char *spec,
		       struct price_set *set)
{
	return assume_each(ctx, cmd, spec, assume_one, set);
}

int money_load_prices(struct cli_ctx *ctx, const char *provider, int max_age_days,
		      int include_unverified, struct price_set *set)
{
	struct tc_diag d, warn;

	tc_diag_init(&d);
	tc_diag_init(&warn);
	if (price_load_all(&ctx->data, ctx->today, set, &warn, &d)) {
		cli_report(ctx, &warn);
		return d.count ? cli_report(ctx, &d) : TC_EXIT_INTERNAL;
	}
	for (size_t i = 0; i < set->count; i++)
		if (!provider || !strcmp(set->tables[i].provider, provider))
			price_check_stale(&set->tables[i], ctx->today, max_age_days, &warn);
	for (int i = 0; i < warn.count; i++)
		fprintf(ctx->err, "%s\n", warn.entry[i].msg);
	if (!include_unverified)
		price_set_set_aside_unverified(set);
	return 0;
}

/* The offers m's tables set aside, as tables of their own that borrow
 * the offers and the file name (m->aside; none when no offer is set
 * aside).  Returns 0, or -1 out of memory. */
static int aside_views(struct money *m)
{
	size_t n = 0;
	for (size_t i = 0; i < m->ntables; i++)
		n += m->tables[i].aside > 0;
	if (!n)
		return 0;
	m->aside = calloc(n, sizeof(*m->aside));
	if (!m->aside)
		return -1;
	for (size_t i = 0; i < m->ntables; i++) {
		const struct price_table *t = &m->tables[i];
		if (!t->aside)
			continue;
		struct price_table *v = &m->aside[m->naside++];
		*v = *t;
		v->offers = t->offers + t->count;
		v->count = t->aside;
		v->aside = 0;
	}
	return 0;
}

int money_load(struct cli_ctx *ctx, const char *cmd, const struct money_args *a,
	       struct money *m)
{
	int rc = money_load_prices(ctx, a->provider, m->max_age_days, a->include_unverified,
				   &m->set);

	if (!rc && (rc = money_assume_apply(ctx, cmd, a->assume_fabric, &m->set)))
		money_release(m);
	if (rc)
		return rc;
	m->tables = m->set.tables;
	m->ntables = m->set.count;
	if (a->provider) {
		m->tables = NULL;
		m->ntables = 0;
		for (size_t i = 0; i < m->set.count; i++)
			if (!strcmp(m->set.tables[i].provider, a->provider)) {
				m->tables = &m->set.tables[i];
				m->ntables = 1;
			}
	}
	if (m->tables) {
		if (!aside_views(m))
			return 0;
		money_release(m);
		fprintf(ctx->err, "traincost %s: internal error: out of memory\n", cmd);
		return TC_EXIT_INTERNAL;
	}
	char list[512] = "";
	size_t used = 0;
	for (size_t i = 0; i < m->set.count && used < sizeof(list); i++) {
		int n = snprintf(list + used, sizeof(list) - used, "%s%s",
				 i ? ", " : "", m->set.tables[i].provider);
		if (n > 0)
			used += (size_t)n;
	}
	money_release(m);
	return cli_usage_error(ctx, cmd, "--provider '%s' has no price table (expected one of: %s)",
			       a->provider, list);
}

void money_timer_init(struct money_timer *t, const struct workload *w, const struct gpu *g,
		      double run_s)
{
	memset(t, 0, sizeof(*t));
	t->w = w;
	t->g = g;
	t->run_s = run_s;
}

int money_timer_time(void *ctx, const char *network, double *run_s)
{
	struct money_timer *t = ctx;
	const struct net_def *n = net_find(network);
	if (!strcmp(network, t->w->plan.network)) {
		*run_s = t->run_s;
		return 0;
	}
	for (int i = 0; i < t->nseen; i++)
		if (!strcmp(t->seen[i].network, network)) {
			*run_s = t->seen[i].run_s;
			return t->seen[i].ok ? 0 : -1;
		}
	if (!n || t->nseen == MONEY_TIMER_NETS || (!t->ws.ops && est_workspace_init(&t->ws, EST_MAX_OPS)))
		return -1;
	/* The same layout, its instances joined by the offer's network. */
	struct workload *w = malloc(sizeof(*w));
	struct estimate *e = malloc(sizeof(*e));
	struct plan_problem why;
	int have = w && e, ok = 0;
	if (have) {
		*w = *t->w;
		wl_set_network(&w->plan, n);
		ok = step_estimate_brief(w, t->g, &t->ws, e, &why) == 0;
	}
	double s = ok ? e->total_time_s : 0;
	free(w);
	free(e);
	if (!have)
		return -1;
	t->seen[t->nseen].network = network;
	t->seen[t->nseen].ok = ok;
	t->seen[t->nseen++].run_s = s;
	*run_s = s;
	return ok ? 0 : -1;
}

void money_priced_workload(const struct run_cost *c, const struct workload *w,
			   struct workload *out)
{
	const struct net_def *n = c->priced && c->range.cheapest.network ?
		net_find(c->range.cheapest.network) : NULL;
	*out = *w;
	if (n)
		wl_set_network(&out->plan, n);
}

void money_timer_release(struct money_timer *t)
{
	est_workspace_release(&t->ws);
	memset(t, 0, sizeof(*t));
}

int money_cost(const struct money *m, const struct gpu *g, const struct workload *w,
	       const struct estimate *e, struct run_cost *out)
{
	struct run_cost_in in = m->in;
	struct money_timer mt;
	if (!e->fits) {
		run_cost_unfit(&in, out);
		return 0;
	}
	in.have_onprem = m->set.onprem &&
			 price_onprem_params(m->set.onprem, g->id, &in.onprem) == 0;
	money_timer_init(&mt, w, g, e->total_time_s);
	struct run_cost_own_net own = { w->plan.network, e->total_time_s };
	struct cost_timer timer = { money_timer_time, &mt };
	if (m->network_own)
		timer = (struct cost_timer){ run_cost_own_net_time, &own };
	const struct cost_timer *t = m->network_fixed ? NULL : &timer;
	int rc = run_cost_compute_timed(m->tables, m->ntables, g->id, e->plan.count,
					e->plan.gpus_per_node, g->tdp_w, e->total_time_s, t, &in,
					out);
	if (!rc && m->naside)
		run_cost_aside(m->aside, m->naside, g->id, e->plan.count, e->plan.gpus_per_node,
			       t, out);
	money_timer_release(&mt);
	return rc ? rc : run_cost_campaign(out, e->plan.count, &e->campaign);
}

void money_warn_spot(struct cli_ctx *ctx, const char *cmd, const struct price_set *set,
		     const struct price_table *tables, size_t ntables, const struct gpu *g)
{
	struct cost_range r;
	struct cost_onprem op;
	struct cost_onprem_result own;
	if (!set->onprem || price_onprem_params(set->onprem, g->id, &op) ||
	    cost_onprem_per_gpu_h(&op, g->tdp_w, &own) ||
	    cost_range(tables, ntables, g->id, COST_SPOT, 0, 0, &r))
		return;
	const struct price_offer *o = r.cheapest.offer;
	double spot = r.cheapest.run.price_usd_per_gpu_h;
	if (!(spot < own.total_usd_per_gpu_h))
		return;
	char zones[96] = "";
	if (o->spot_high_usd_per_h > 0)
		snprintf(zones, sizeof(zones), "; its zones ran $%.2f to $%.2f per GPU-hour",
			 o->spot_low_usd_per_h / o->gpus, o->spot_high_usd_per_h / o->gpus);
	fprintf(ctx->err, "traincost %s: warning: spot %s %s at $%.2f per GPU-hour is below the "
		"on-premises $%.2f for %s (a spot price is one sample of the zones read%s; "
		"not a price to plan on)\n", cmd, r.cheapest.table->provider, o->instance, spot,
		own.total_usd_per_gpu_h, g->id, zones);
}

void money_warn_aside(struct cli_ctx *ctx, const char *cmd, const struct price_table *tables,
		      size_t ntables, enum cost_kind kind, const struct gpu *g)
{
	const struct price_table *bt = NULL;
	const struct price_offer *big = NULL;
	double used = 0;
	for (size_t t = 0; t < ntables; t++)
		for (size_t i = 0; i < tables[t].count + tables[t].aside; i++) {
			const struct price_offer *o = &tables[t].offers[i];
			if (strcmp(o->gpu, g->id) || !(o->price_usd_per_h[kind] > 0))
				continue;
			double most = cost_offer_capacity(o);
			if (i < tables[t].count)
				used = most > used ? most : used;
			else if (!big || most > cost_offer_capacity(big) ||
				 (most == cost_offer_capacity(big) &&
				  price_usd_per_gpu_h(o, kind) < price_usd_per_gpu_h(big, kind))) {
				big = o;
				bt = &tables[t];
			}
		}
	if (!big || !(cost_offer_capacity(big) > used))
		return;
	fprintf(ctx->err, "traincost %s: warning: %s: the %s offers in use hold at most %.4g GPU%s "
		"an order; %s %s, set aside for its unverified price, holds %.4g "
		"(--include-unverified prices it)\n", cmd, g->id, cost_kind_names[kind], used,
		used == 1 ? "" : "s", bt->provider, big->instance, cost_offer_capacity(big));
}

void money_release(struct money *m)
{
	free(m->aside); /* views: the offers are the set's */
	price_set_release(&m->set);
	memset(m, 0, sizeof(*m));
}

int money_budget_arg(struct cli_ctx *ctx, const char *cmd, const char *s, double *usd)
{
	const char *why = NULL;
	double v;
	if (tc_parse_quantity(s, TC_UNIT_USD, &v, &why) || !(v > 0))
		return cli_usage_error(ctx, cmd, "--budget '%s' is not valid (expected a positive "
				       "amount such as 50000, $50,000, 2.5k or 3M)", s);
	*usd = v;
	return 0;
}
