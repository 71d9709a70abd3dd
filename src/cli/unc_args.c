/*
 * unc_args.c - `--uncertainty[=N]` and `--seed` for estimate, compare and
 * plan (unc_args.h).
 */
#include "unc_args.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "cli_ctx.h"

void unc_args_opts(struct unc_args *u, struct cli_opts *t)
{
	const struct cli_opt rows[] = {
		CLI_OPTIONAL("uncertainty", &u->samples, &u->on, "N",
			     "Monte Carlo over the efficiency parameters: N samples (default "
			     CLI_STR(UNC_DEFAULT_SAMPLES) "), P10, P50 and P90 of time and cost"),
		CLI_VALUE("seed", &u->seed, "S",
			  "random seed (default " CLI_STR(UNC_DEFAULT_SEED) "; same seed, same output)"),
	};
	CLI_OPTS_ADD_GROUP(t, "Uncertainty:", rows);
}

int unc_args_spec(struct cli_ctx *ctx, const char *cmd, const struct unc_args *u,
		  const struct cal_overlay *cal, struct unc_spec *s)
{
	int samples = UNC_DEFAULT_SAMPLES, seed = UNC_DEFAULT_SEED;

	assert(ctx && cmd && u && cal && s);
	if ((u->samples && cli_int_arg(ctx, cmd, "uncertainty", u->samples, 1, UNC_MAX_SAMPLES, &samples)) ||
	    (u->seed && cli_int_arg(ctx, cmd, "seed", u->seed, 0, 2147483647, &seed)))
		return TC_EXIT_USAGE;
	unc_spec_default(s);
	if (cal->eff.measurements)
		unc_spec_from_calibration(s, cal);
	s->samples = (size_t)samples;
	s->seed = (unsigned long)seed;
	return 0;
}

void unc_spec_price(struct unc_spec *s, const struct run_cost *cost)
{
	s->offer = NULL;
	s->billing = NULL;
	/* the wall clock of the run priced: spot preemptions included */
	s->campaign = !cost->unfit && !cost->campaign_hopeless ? &cost->campaign : NULL;
	if (!cost->priced)
		return;
	s->offer = cost->range.cheapest.offer;
	s->billing = &cost->range.cheapest.table->billing;
	s->kind = cost->kind;
	s->preempt_per_h = cost->in.preempt_per_h;
}

int unc_args_workspace(struct cli_ctx *ctx, const char *cmd, const struct unc_spec *s,
		       struct unc_workspace *ws)
{
	if (unc_workspace_init(ws, s->samples)) {
		fprintf(ctx->err, "traincost %s: out of memory for %zu samples\n", cmd, s->samples);
		return TC_EXIT_INTERNAL;
	}
	return 0;
}
