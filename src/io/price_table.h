/*
 * price_table.h - what a loaded price set answers and how it is freed
 * (price_table.c): on-premises inputs of a GPU, an offer's price per
 * GPU-hour, the unverified offers set aside.
 */
#ifndef TC_PRICE_TABLE_H
#define TC_PRICE_TABLE_H

#include <stddef.h>

#include "../model/types/offer.h"
#include "price_types.h"

/*
 * The cost inputs of GPU `gpu` from the on-premises file: capex per GPU
 * = (card + server share) x (1 + networking) or node / GPUs x (1 +
 * networking), and the site defaults.  Returns 0, or -1 if the GPU is not
 * listed.
 */
int price_onprem_params(const struct price_onprem *op, const char *gpu,
			struct cost_onprem *out);

/* The offers' price of `kind` per GPU-hour; 0 if not sold that way. */
double price_usd_per_gpu_h(const struct price_offer *o, enum cost_kind kind);

/*
 * Set aside every offer marked `verified: false` in the set's tables (a
 * formula, a recalled or a conflicting figure is not used unless asked
 * for): each table's verified offers come first, in file order, and are
 * its `count`; the others follow them, in file order, as its `aside`, so
 * that an answer can still say what they would have offered.  Returns the
 * number set aside.
 */
size_t price_set_set_aside_unverified(struct price_set *set);

/* Free what the struct owns; safe on zeroed or released structs. */
void price_table_release(struct price_table *t);
void price_onprem_release(struct price_onprem *op);
void price_set_release(struct price_set *set);

#endif
