/*
 * price_unjoin.h - the cluster products that cannot join instances:
 * pricing/unjoinable.yaml (kind: unjoinable), read by price_unjoin.c.
 */
#ifndef TC_PRICE_UNJOIN_H
#define TC_PRICE_UNJOIN_H

#include "../model/types/offer.h"
#include "../util/diag.h"
#include "yaml_node.h"

/* The cluster products that cannot join instances (struct price_unjoin)
 * are declared in offer.h, for the writers that name them. */
extern const char *const price_lack_names[]; /* "price", "fabric", "price_and_fabric", NULL */

/* Load one `kind: unjoinable` file (release with price_unjoin_release).
 * Returns 0 or -1 (messages in d). */
int price_unjoin_load_file(const char *path, const char *today, struct price_unjoin *out,
			   struct tc_diag *warn, struct tc_diag *d);

/* Parse a loaded `kind: unjoinable` document into *out (owned by the
 * caller).  Returns 0 or -1 (messages in d). */
int price_unjoin_from_doc(const struct yn_doc *doc, const char *today,
			  struct price_unjoin *out, struct tc_diag *warn, struct tc_diag *d);

/* Free what the struct owns; safe on zeroed or released structs. */
void price_unjoin_release(struct price_unjoin *u);

#endif
