/*
 * price_load.h - the price tables: pricing/<provider>.yaml (kind: pricing)
 * and pricing/onprem.yaml (kind: onprem).  File format: docs/pricing.md.
 *
 * Loaders return fully owned structs (nothing points into the YAML tree).
 * Problems are errors in `d` (file:line:col: what is wrong (expected));
 * things worth knowing that do not stop a run (spot above on-demand, stale
 * prices) are appended to `warn` as "file:line:col: warning: ..." with
 * severity TC_EXIT_OK; `warn` may be NULL.
 *
 * `today` is a date "YYYY-MM-DD" passed in by the caller (the command line
 * reads it once per run), never read from the clock here.  An as_of more
 * than PRICE_FUTURE_SLACK_DAYS after it is a warning; more than
 * PRICE_FUTURE_MAX_DAYS after it, an error.
 *
 * This header also brings the headers of the other price units, for
 * callers outside src/io; inside src/io each unit includes what it uses.
 */
#ifndef TC_PRICE_LOAD_H
#define TC_PRICE_LOAD_H

#include <stddef.h>
#include <stdio.h>

#include "../model/types/offer.h"
#include "../util/diag.h"
#include "datapath.h"
#include "price_check.h"
#include "price_import.h"
#include "price_table.h"
#include "price_types.h"
#include "price_unjoin.h"
#include "price_write.h"

#define PRICE_STALE_DAYS 180 /* default age at which prices are stale */

/*
 * Load one `kind: pricing` file into *out (release with
 * price_table_release).  Checks everything but GPU ids (price_check_gpus)
 * and age (price_check_stale).  Returns 0 or -1 (messages in d).
 */
int price_load_file(const char *path, const char *today, struct price_table *out,
		    struct tc_diag *warn, struct tc_diag *d);

/* Load one `kind: onprem` file.  Returns 0 or -1 (messages in d). */
int price_onprem_load_file(const char *path, const char *today,
			   struct price_onprem *out, struct tc_diag *warn,
			   struct tc_diag *d);

/*
 * Load every pricing/<name>.yaml on the search path, each as what its `kind:`
 * says; earlier roots shadow later ones by file name (dp_list).  Two files
 * of one provider, or two onprem files, are an error.  No file at all is
 * not an error (set->count == 0).  Returns 0 or -1; on failure the set is
 * released.
 */
int price_load_all(const struct tc_datapath *dp, const char *today,
		   struct price_set *set, struct tc_diag *warn, struct tc_diag *d);

#endif
