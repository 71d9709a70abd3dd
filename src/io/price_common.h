/*
 * price_common.h - what the price-file modules share (price_load.c reads a
 * file, price_check.c checks what its field tables cannot, price_import.c
 * and price_write.c make one).  Internal to src/io: only those include it.
 */
#ifndef TC_PRICE_COMMON_H
#define TC_PRICE_COMMON_H

#include "fields.h"
#include "price_load.h"
#include "yaml_node.h"

#define PRICE_MAX_USD_PER_H 1e5 /* USD per instance-hour: above is a typing mistake */

/* The YAML keys of the pricing kinds, in enum cost_kind order. */
extern const char *const price_keys[COST_KIND_COUNT];

/* Parse "YYYY-MM-DD" (a real date) into days since 1970; 0 or -1. */
int price_date_days(const char *s, long *days);

/* A date (the `as_of` node, may be NULL) too far after today: an error.
 * Returns 0 or -1. */
int price_check_not_future(const struct yn_node *date, const char *today,
			   const struct fd_ctx *ctx);
/* A date a little after today: a warning to `warn` (may be NULL). */
void price_warn_future(const char *file, const char *date, int line, int col,
		       const char *today, struct tc_diag *warn);
/* Checks of one parsed offer `o` read from `item` that tables cannot
 * express.  Returns 0 or -1. */
int price_check_offer(const struct yn_node *item, struct price_offer *o,
		      const char *today, struct tc_diag *warn,
		      const struct fd_ctx *ctx);
/* Each (instance, region) pair of the table once.  Returns 0 or -1. */
int price_check_duplicates(const struct yn_node *offers,
			   const struct price_table *t, const struct fd_ctx *ctx);

/* Parse a loaded `kind: unjoinable` document into *out (owned by the
 * caller).  Returns 0 or -1 (messages in d). */
int price_unjoin_from_doc(const struct yn_doc *doc, const char *today,
			  struct price_unjoin *out, struct tc_diag *warn, struct tc_diag *d);

#endif
