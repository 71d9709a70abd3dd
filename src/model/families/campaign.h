/*
 * campaign.h - what the run will take on the wall clock: interruptions,
 * restarts, checkpoints, stragglers, evaluation and start-up on top of the
 * steady-state time of the step estimate (docs/model.md, section 9).  The
 * inputs and their sourced defaults are in campaign_in.h.
 *
 * Pure computation: no I/O, no allocation.
 */
#ifndef TC_CAMPAIGN_H
#define TC_CAMPAIGN_H

#include "../types/campaign_in.h"
#include "../types/campaign_types.h"
#include "../types/workload.h"

/* Names of the parts of the wall clock (enum camp_part). */
extern const char *const camp_part_names[CAMP_PART_COUNT];

struct plan_problem;

/* Fill the inputs not set in *in with the defaults (in->set unchanged). */
void campaign_resolve(struct campaign_in *in);

/*
 * The campaign of job *j under inputs *in (defaults filled for what is not
 * set).  Returns 0 with *out filled, or -1 with *why when the inputs make
 * no sense for this job: a restart longer than the run (why->field
 * WLF_CAMPAIGN_RESTART) or interruptions so frequent that the job loses
 * all its time (WLF_CAMPAIGN_INTERVAL when the interval was given, else
 * WLF_COUNT).  Never produces a non-finite number.
 */
int campaign_compute(const struct campaign_in *in, const struct campaign_job *j,
		     struct campaign *out, struct plan_problem *why);

/* Bytes of the training state of `params` parameters trained in precision
 * p with optimizer o: the memory model's weight and optimizer bytes per
 * parameter (14 for bf16 with AdamW). */
double campaign_state_bytes(double params, enum tc_prec p, enum optimizer o);

/*
 * The campaign of estimate *e (workload *w on GPU *g): the checkpoint holds
 * every parameter's weights and optimizer state as the memory model counts
 * them, an asynchronous one copied over half the GPU's host bus.  Fills
 * e->campaign and adds the warnings of a fragile plan to *e; returns 0, or
 * -1 with *why as campaign_compute().
 */
struct estimate;
int campaign_estimate(const struct workload *w, const struct gpu *g, struct estimate *e,
		      struct plan_problem *why);

/* Warn on *e when campaign *c has spot preemptions and a checkpoint takes
 * longer to write than their notice (`whose`: where the notice comes
 * from, as the warning names it), and (c another campaign than e's) when
 * c's loss per interruption is fragile and e's was not.  campaign_estimate
 * does it for a workload that states its notice; the caller, once pricing
 * knows the provider, for the others. */
void campaign_spot_warning(struct estimate *e, const struct campaign *c, const char *whose);

/*
 * Campaign *c again with spot preemptions of `preempt_per_h` per instance
 * (node) and hour among its interruptions, each announced `notice_s`
 * ahead (the provider's), unless its workload gave its own rate or notice
 * (those are kept): the provider's preemptions are interruptions like the
 * others.  Returns 0 with *out, or -1 with *why as campaign_compute()
 * (they leave no time to train).
 */
int campaign_with_preemptions(const struct campaign *c, double preempt_per_h, double notice_s,
			      struct campaign *out, struct plan_problem *why);

/* Wall-clock seconds of a run whose steady state takes steady_s under
 * campaign *c (the same stretch and start-up). */
double campaign_wall_s(const struct campaign *c, double steady_s);

#endif
