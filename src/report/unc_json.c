/*
 * unc_json.c - uncertainty results as JSON (unc_json.h).
 */
#include "unc_json.h"

static void json_quantiles(struct rep_json *j, const char *key, const struct unc_quantiles *q)
{
	rep_json_obj_begin(j, key);
	rep_json_num(j, "p10", q->p10);
	rep_json_num(j, "p50", q->p50);
	rep_json_num(j, "p90", q->p90);
	rep_json_num(j, "mean", q->mean);
	rep_json_num(j, "sd", q->sd);
	rep_json_obj_end(j);
}

void rep_unc_json(struct rep_json *j, const char *key, const struct unc_result *u)
{
	rep_json_obj_begin(j, key);
	rep_json_int(j, "samples", (long long)u->samples);
	rep_json_int(j, "seed", (long long)u->seed);
	json_quantiles(j, "step_time_s", &u->step_s);
	json_quantiles(j, "total_time_s", &u->total_s);
	if (u->has_cost)
		json_quantiles(j, "steady_cost_usd", &u->cost_usd);
	if (u->price_drawn) {
		/* the spot price drawn across the source's zones */
		rep_json_obj_begin(j, "spot_price_usd_per_h");
		rep_json_num(j, "low", u->price_low_usd_per_h);
		rep_json_num(j, "median", u->price_median_usd_per_h);
		rep_json_num(j, "high", u->price_high_usd_per_h);
		rep_json_bool(j, "median_sourced", u->price_median_sourced);
		rep_json_obj_end(j);
	}
	if (u->has_deadline)
		rep_json_num(j, "p_deadline", u->p_deadline);
	if (u->has_budget)
		rep_json_num(j, "p_budget", u->p_budget);
	if (u->has_wall) {
		json_quantiles(j, "wall_time_s", &u->wall_s);
		if (u->has_cost)
			json_quantiles(j, "wall_cost_usd", &u->wall_usd);
		if (u->has_deadline)
			rep_json_num(j, "p_deadline_wall", u->p_deadline_wall);
		if (u->has_budget)
			rep_json_num(j, "p_budget_wall", u->p_budget_wall);
	}
	rep_json_obj_end(j);
}
