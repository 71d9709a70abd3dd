/*
 * offer_words.h - how the outputs name what a cost stands on: the basis a
 * run is judged on, the caveat of an offer that joins instances, and the
 * cluster products that cannot join them (offer_words.c).
 */
#ifndef TC_OFFER_WORDS_H
#define TC_OFFER_WORDS_H

#include <stdio.h>

#include "../model/types/offer.h"
#include "../model/money/run_cost.h"

/* The basis a run is judged on, as the outputs name it: "steady_state"
 * or "wall_clock" (their `basis` field). */
const char *rep_basis_name(int steady_state);

/* What the answer must say of choice *ch's offer when its run joins
 * instances: "fabric assumed" (--assume-fabric) or "cluster size
 * unconfirmed" (max_instances: unknown); NULL when nothing (a static
 * string). */
const char *rep_offer_caveat(const struct cost_choice *ch);

/*
 * Under a heading, one line each on `out`: the cluster products of *u (may
 * be NULL) that cannot join instances for lack of a sourced price or
 * fabric, those of the GPUs gpus[0..ngpus-1] (gpus NULL: of every GPU; a
 * product that names no GPU is always shown) and of `provider` (NULL:
 * every provider).  Prints nothing when none matches.  Returns how many it
 * printed.
 */
int rep_print_unjoinable(FILE *out, const struct price_unjoin *u, const char *const *gpus,
			 int ngpus, const char *provider);
/* Whether rep_print_unjoinable shows product p for those filters. */
int rep_unjoin_wanted(const struct price_unjoinable *p, const char *const *gpus, int ngpus,
		      const char *provider);

#endif
