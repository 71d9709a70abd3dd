/*
 * estimate_report.c - what the estimate, explain, compare and plan reports
 * share (estimate_report.h): names, titles, the unpriced reasons.
 */
#include "estimate_report.h"

#include <math.h>
#include <string.h>

#include "../util/units.h"
#include "numfmt.h"
#include "table.h"

const char *rep_kind_name(const struct workload *w)
{
	return w->kind == WL_LLM ? "llm" : w->kind == WL_VISION ? "vision" : "recsys";
}

const char *rep_sample_unit(const char *kind)
{
	if (!strcmp(kind, "vision"))
		return "images";
	return !strcmp(kind, "recsys") ? "samples" : "sequences";
}

const char *rep_model_name(const struct workload *w)
{
	switch (w->kind) {
	case WL_VISION: return w->vis.name;
	case WL_RECSYS: return w->rec.name;
	default: return w->llm.name;
	}
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

void rep_spot_assumptions(FILE *f, double preempt_per_h, int steady_state)
{
	fprintf(f, "Spot: assumed %.3g preemptions per instance-hour on each instance of a run (any one "
		"stops it; --preempt-per-h), counted among the interruptions of the expected wall clock, "
		"each losing the campaign's restart and half its checkpoint interval (docs/model.md, "
		"section 9; docs/pricing.md).  %s\n", preempt_per_h,
		steady_state ? "At steady state (--steady-state) a run has no interruptions, preemptions "
			       "included: its times and costs are the uninterrupted run at spot prices."
			     : "The steady state counts none.");
}

const char *rep_title(char *buf, const struct workload *w, const char *fmt)
{
	return rep_show(buf, REP_TITLE_LEN, w->name[0] ? w->name : w->file, fmt);
}
