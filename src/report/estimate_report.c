/*
 * estimate_report.c - estimate and explain reports (estimate_report.h).
 */
#include "estimate_report.h"

#include <math.h>
#include <string.h>

#include "../util/units.h"
#include "estimate_record.h"
#include "layout_text.h"
#include "numfmt.h"
#include "table.h"

const char *rep_kind_name(const struct workload *w)
{
	return w->kind == WL_LLM ? "llm" : w->kind == WL_VISION ? "vision" : "recsys";
}

const char *rep_model_name(const struct workload *w)
{
	switch (w->kind) {
	case WL_VISION: return w->vis.name;
	case WL_RECSYS: return w->rec.name;
	default: return w->llm.name;
	}
}

static void text_choice(FILE *f, const char *label, const struct cost_choice *ch)
{
	char usd[48], inst[48], dur[48], rate[48];
	fprintf(f, "  %-13s %s on %s %s (%s): %s x %.4g GPU%s for %s at %s/h, as of %s%s\n", label,
		rep_fmt_usd(ch->run.cost_usd, usd, sizeof(usd)), ch->table->provider,
		ch->offer->instance, ch->offer->region[0] ? ch->offer->region : "any region",
		rep_fmt_count(ch->run.instances, inst, sizeof(inst)), ch->offer->gpus,
		ch->offer->gpus == 1 ? "" : "s", tc_fmt_duration(ch->run.billed_s, dur, sizeof(dur)),
		rep_fmt_usd(ch->run.price_usd_per_h, rate, sizeof(rate)), ch->offer->as_of,
		ch->offer->verified ? "" : " (unverified price)");
	if (ch->run.idle_gpus > 0)
		fprintf(f, "  %-13s %.4g GPU%s paid for but idle in the last instance\n", "",
			ch->run.idle_gpus, ch->run.idle_gpus == 1 ? "" : "s");
}

const char *rep_unpriced(char *buf, const struct cost_range *r, enum cost_kind k,
			 const char *gpu_id, double gpus)
{
	const struct cost_choice *big = &r->largest;
	const char *kind = cost_kind_names[k];
	char n[48], most[48], inst[48];
	if (!big->offer) {
		snprintf(buf, REP_UNPRICED_LEN, "no %s offer of %s in the price tables", kind, gpu_id);
		return buf;
	}
	const struct price_offer *o = big->offer;
	rep_fmt_count(gpus, n, sizeof(n));
	rep_fmt_count(cost_offer_capacity(o), most, sizeof(most));
	if (cost_offer_capacity(o) >= gpus) {
		/* Enough GPUs, but on instances smaller than the plan's nodes. */
		snprintf(buf, REP_UNPRICED_LEN, "no %s offer of %s can host %s GPUs on instances as large "
			 "as the plan's nodes", kind, gpu_id, n);
	} else if (cost_offer_capacity(o) > o->gpus) {
		rep_fmt_count(o->max_instances, inst, sizeof(inst));
		snprintf(buf, REP_UNPRICED_LEN, "no %s offer of %s can host %s GPUs: the largest order on sale "
			 "is %s GPUs (%s %s, %s instances of %.4g over %s)", kind, gpu_id, n, most,
			 big->table->provider, o->instance, inst, o->gpus, o->network);
	} else {
		snprintf(buf, REP_UNPRICED_LEN, "no %s offer of %s can host %s GPUs: the largest order on sale "
			 "is %s GPU%s, one instance of %s %s with no network between instances", kind, gpu_id, n,
			 most, o->gpus == 1 ? "" : "s", big->table->provider, o->instance);
	}
	return buf;
}

const char *rep_choice_network(const struct cost_choice *ch, const struct plan *p)
{
	if (ch->run.instances <= 1)
		return NULL;
	return ch->network ? ch->network : p->network;
}

/* Which network the cheapest offer's time was taken over, and the plan's
 * own time beside it when that differs. */
static void text_network_note(FILE *f, const struct plan *p, const struct run_cost *c)
{
	const struct cost_choice *ch = &c->range.cheapest;
	const char *net = rep_choice_network(ch, p);
	char a[48];
	if (!net)
		return;
	if (!ch->network) {
		fprintf(f, "  %-13s every offer timed over %s, the plan's network between instances (%s %s's own is %s)\n",
			"network", net[0] ? net : "the plan's bandwidth", ch->table->provider,
			ch->offer->instance, ch->offer->network);
		return;
	}
	fprintf(f, "  %-13s timed over %s, the network of %s %s between instances", "network", net,
		ch->table->provider, ch->offer->instance);
	if (strcmp(net, p->network)) {
		char b[48];
		tc_fmt_duration(c->run_s, a, sizeof(a));
		tc_fmt_duration(ch->run_s, b, sizeof(b));
		fprintf(f, "; over the plan's %s the run takes %s%s", p->network[0] ? p->network
			: "bandwidth", strcmp(a, b) ? "" : "the same ", a);
	}
	fputs(" (`--network NAME` times every offer over one network)\n", f);
}

void rep_spot_assumptions(FILE *f, const struct cost_spot *sp, const char *what)
{
	char a[48], b[48], c[48];
	fprintf(f, "Spot: assumed %.3g preemptions per instance-hour on each instance of a run (any one "
		"stops it), a checkpoint every %s and %s to get training again, so each restart loses %s "
		"on every instance (the restart and half a checkpoint interval of work); %s include the "
		"expected restarts (--preempt-per-h, --checkpoint, --restart; docs/pricing.md).\n",
		sp->preempt_per_h, tc_fmt_duration(sp->checkpoint_interval_s, a, sizeof(a)),
		tc_fmt_duration(sp->restart_s, b, sizeof(b)),
		tc_fmt_duration(sp->restart_s + sp->checkpoint_interval_s / 2, c, sizeof(c)), what);
}

/* What one spot restart costs, and whether the job can finish at all. */
static void text_restart(FILE *f, const struct run_cost *c)
{
	const struct cost_spot *sp = &c->in.spot;
	const struct cost_run *r = &c->range.cheapest.run;
	char a[48], b[48], x[48], y[48], z[48], n[48], w[48], k[48], t[48];
	fprintf(f, "  %-13s each costs %s to get training again plus on average %s of work lost since the "
		"last checkpoint (half the %s interval): %s on %s instance%s at %s/h, %s; all %s expected: %s\n",
		"restart", tc_fmt_duration(sp->restart_s, a, sizeof(a)),
		tc_fmt_duration(sp->checkpoint_interval_s / 2, b, sizeof(b)),
		tc_fmt_duration(sp->checkpoint_interval_s, x, sizeof(x)),
		tc_fmt_duration(c->spot.lost_s_per_restart, y, sizeof(y)),
		rep_fmt_count(r->instances, n, sizeof(n)), r->instances == 1 ? "" : "s",
		rep_fmt_usd(r->price_usd_per_h, z, sizeof(z)), rep_fmt_usd(c->restart_usd, w, sizeof(w)),
		rep_fmt_count(round(c->spot.expected_restarts), k, sizeof(k)),
		rep_fmt_usd(c->overhead_usd, t, sizeof(t)));
	if (cost_spot_loss_per_h(sp) >= 1)
		fprintf(f, "  %-13s at %.3g restarts per hour of work, each losing %s, the job loses work as fast "
			"as it makes it: spot cannot finish this run (the first-order figures above understate "
			"that)\n", "", sp->preempt_per_h * sp->instances,
			tc_fmt_duration(c->spot.lost_s_per_restart, y, sizeof(y)));
}

static void text_cost(FILE *f, const struct gpu *g, const struct run_cost *c, const struct plan *p)
{
	const struct run_cost_in *in = &c->in;
	char a[48], b[48], x[48], y[48], z[48];

	fprintf(f, "\nCost (%s prices):\n", cost_kind_names[c->kind]);
	if (c->unfit) {
		fprintf(f, "  %-13s the plan does not fit in GPU memory: no offer, on-premises or energy figure\n",
			"not priced");
		return;
	}
	if (c->priced) {
		text_choice(f, "cheapest", &c->range.cheapest);
		fprintf(f, "  %-13s %s to %s across %d provider%s (%d offer%s)\n", "range",
			rep_fmt_usd(c->range.cheapest.run.cost_usd, a, sizeof(a)),
			rep_fmt_usd(c->range.dearest.run.cost_usd, b, sizeof(b)), c->range.providers,
			c->range.providers == 1 ? "" : "s", c->range.offers,
			c->range.offers == 1 ? "" : "s");
		text_network_note(f, p, c);
	} else {
		char why[REP_UNPRICED_LEN];
		fprintf(f, "  %-13s %s\n", "cloud", rep_unpriced(why, &c->range, c->kind, g->id, p->count));
	}
	if (c->range.skipped_small)
		fprintf(f, "  %-13s %d offer%s with fewer GPUs per instance than the plan's nodes left out\n",
			"", c->range.skipped_small, c->range.skipped_small == 1 ? "" : "s");
	if (c->range.skipped_fabric)
		fprintf(f, "  %-13s %d offer%s left out: one order cannot join the instances the plan needs "
			"(its network or max_instances; `traincost prices`)\n", "",
			c->range.skipped_fabric, c->range.skipped_fabric == 1 ? "" : "s");
	if (c->spot_applied)
		fprintf(f, "  %-13s assumed %.3g preemptions per instance-hour on each of %.0f instance%s (any one "
			"stops the job), a checkpoint every %s and %s per restart: %.3g restarts add %s\n",
			"spot", in->spot.preempt_per_h, in->spot.instances, in->spot.instances == 1 ? "" : "s",
			tc_fmt_duration(in->spot.checkpoint_interval_s, a, sizeof(a)),
			tc_fmt_duration(in->spot.restart_s, b, sizeof(b)), c->spot.expected_restarts,
			tc_fmt_duration(c->spot.overhead_s, x, sizeof(x)));
	if (c->spot_applied && c->priced)
		text_restart(f, c);
	if (c->onprem)
		fprintf(f, "  %-13s %s at %s per GPU-hour (capital %s, power %s, colocation %s)\n",
			"on-premises", rep_fmt_usd(c->onprem_usd, a, sizeof(a)),
			rep_fmt_usd(c->onprem_rate.total_usd_per_gpu_h, b, sizeof(b)),
			rep_fmt_usd(c->onprem_rate.capital_usd_per_gpu_h, x, sizeof(x)),
			rep_fmt_usd(c->onprem_rate.power_usd_per_gpu_h, y, sizeof(y)),
			rep_fmt_usd(c->onprem_rate.colo_usd_per_gpu_h, z, sizeof(z)));
	if (c->co2_kg >= 1000)
		snprintf(b, sizeof(b), "%.3g t", c->co2_kg / 1000);
	else
		snprintf(b, sizeof(b), "%.3g kg", c->co2_kg);
	fprintf(f, "  %-13s %s kWh and %s CO2 (assumed: average power %.0f %% of the %.0f W TDP, "
		"PUE %.2f, %.0f g CO2 per kWh)\n", "energy",
		rep_fmt_count(c->energy_kwh, a, sizeof(a)), b, 100 * in->power_frac,
		g->tdp_w, in->pue, in->grid_g_per_kwh);
}

static void text_uncertainty(FILE *f, const struct unc_result *u)
{
	char a[48], b[48], c[48];
	fprintf(f, "\nUncertainty (%zu samples, seed %lu):      P10         P50         P90\n",
		u->samples, u->seed);
	fprintf(f, "  %-24s %11s %11s %11s\n", "step time", tc_fmt_duration(u->step_s.p10, a, sizeof(a)),
		tc_fmt_duration(u->step_s.p50, b, sizeof(b)), tc_fmt_duration(u->step_s.p90, c, sizeof(c)));
	fprintf(f, "  %-24s %11s %11s %11s\n", "total time", tc_fmt_duration(u->total_s.p10, a, sizeof(a)),
		tc_fmt_duration(u->total_s.p50, b, sizeof(b)), tc_fmt_duration(u->total_s.p90, c, sizeof(c)));
	if (u->has_cost)
		fprintf(f, "  %-24s %11s %11s %11s\n", "cost (cheapest offer)",
			rep_fmt_usd(u->cost_usd.p10, a, sizeof(a)), rep_fmt_usd(u->cost_usd.p50, b, sizeof(b)),
			rep_fmt_usd(u->cost_usd.p90, c, sizeof(c)));
	if (u->has_deadline)
		fprintf(f, "  probability of meeting the deadline: %.0f %%\n", 100 * u->p_deadline);
	if (u->has_budget)
		fprintf(f, "  probability of staying within the budget: %.0f %%\n", 100 * u->p_budget);
}

const char *rep_title(char *buf, const struct workload *w, const char *fmt)
{
	return rep_show(buf, REP_TITLE_LEN, w->name[0] ? w->name : w->file, fmt);
}

static int text_report(FILE *f, const struct workload *w, const struct gpu *g,
			const struct estimate *e, const struct run_cost *c,
			const struct unc_result *u)
{
	int rc = rep_estimate_sheet(f, w, g, e, c);
	if (u)
		text_uncertainty(f, u);
	if (c)
		text_cost(f, g, c, &w->plan);
	if (e->warning_count) {
		fputs("\nWarnings:\n", f);
		for (int i = 0; i < e->warning_count; i++)
			fprintf(f, "  - %s\n", e->warning[i]);
	}
	return rc;
}

int rep_estimate(FILE *f, const char *fmt, const struct workload *w,
		 const struct gpu *g, const struct estimate *e, const struct run_cost *c,
		 const struct unc_result *u)
{
	if (!strcmp(fmt, "json"))
		return rep_estimate_json(f, w, g, e, c, u);
	if (!strcmp(fmt, "csv"))
		return rep_estimate_csv(f, w, g, e, c);
	if (!strcmp(fmt, "md"))
		return rep_estimate_md(f, w, g, e, c);
	return text_report(f, w, g, e, c, u);
}
