/*
 * price_check.h - the checks of price files their field tables cannot
 * express (price_check.c): dates, offers, duplicates, GPU ids, age.
 */
#ifndef TC_PRICE_CHECK_H
#define TC_PRICE_CHECK_H

#include "../util/diag.h"
#include "fields.h"
#include "price_types.h"
#include "yaml_node.h"

#define PRICE_MAX_USD_PER_H 1e5 /* USD per instance-hour: above is a typing mistake */
/* A date written east of UTC can be UTC's tomorrow: no warning within this. */
#define PRICE_FUTURE_SLACK_DAYS 2
/* Further ahead than this (days) is a typo, not a clock that is behind. */
#define PRICE_FUTURE_MAX_DAYS 366

/*
 * Check every offer's GPU against `known_ids` (NULL-terminated catalog
 * ids), reporting each unknown one at its `gpu:` value with the closest
 * known id.  Returns 0 or -1.
 */
int price_check_gpus(const struct price_table *t, const char *const *known_ids,
		     struct tc_diag *d);
int price_onprem_check_gpus(const struct price_onprem *op,
			    const char *const *known_ids, struct tc_diag *d);

/*
 * Warn about prices older than `max_age_days` on `today`: one warning per
 * distinct date of the file (its own and its offers'), at the date's
 * position, naming the file and date.  Returns the number of warnings.
 */
int price_check_stale(const struct price_table *t, const char *today,
		      int max_age_days, struct tc_diag *warn);

/* Check each unjoinable product's GPU against `known_ids` as
 * price_check_gpus does.  Returns 0 or -1. */
int price_unjoin_check_gpus(const struct price_unjoin *u, const char *const *known_ids,
			    struct tc_diag *d);

/* Days from date `from` to date `to` (both YYYY-MM-DD) into *days.
 * Returns 0, or -1 if either is not a real date. */
int price_days_between(const char *from, const char *to, long *days);

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

#endif
