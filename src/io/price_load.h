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
 */
#ifndef TC_PRICE_LOAD_H
#define TC_PRICE_LOAD_H

#include <stddef.h>
#include <stdio.h>

#include "../model/types/offer.h"
#include "../util/diag.h"
#include "datapath.h"

#define PRICE_STALE_DAYS 180 /* default age at which prices are stale */
/* A date written east of UTC can be UTC's tomorrow: no warning within this. */
#define PRICE_FUTURE_SLACK_DAYS 2
/* Further ahead than this (days) is a typo, not a clock that is behind. */
#define PRICE_FUTURE_MAX_DAYS 366

/* One GPU of the on-premises file: a card price or a node price. */
struct price_onprem_gpu {
	char gpu[PRICE_ID_LEN];
	double card_usd;          /* the card alone; 0 when node_usd is given */
	double server_share_usd;  /* host share per GPU; 0 = defaults' fraction */
	double node_usd;          /* a whole server; 0 when card_usd is given */
	int node_gpus;            /* GPUs in that server */
	int verified;             /* 0: a recalled or assumed figure */
	char source[PRICE_TEXT_LEN];
	char notes[PRICE_TEXT_LEN];
	int gpu_line, gpu_col;    /* its `gpu:` value */
};

/* The site-wide on-premises inputs. */
struct price_onprem_defaults {
	double power_usd_per_kwh;
	double pue;
	double life_years;
	double util_frac;
	double residual_frac;
	double colo_usd_per_kw_month;
	double networking_frac;   /* added to capex: network, cabling, switches */
	double server_share_frac; /* host share as a fraction of the card price */
};

struct price_onprem {
	char *file;                     /* owned */
	char currency[8];
	char as_of[PRICE_DATE_LEN];
	char source[PRICE_TEXT_LEN];
	char notes[PRICE_TEXT_LEN];
	struct price_onprem_defaults def;
	struct price_onprem_gpu *gpus;  /* owned, file order */
	size_t count;
};

/* The cluster products that cannot join instances (struct price_unjoin)
 * are declared in offer.h, for the writers that name them. */
extern const char *const price_lack_names[]; /* "price", "fabric", "price_and_fabric", NULL */

/* Every price file of the data path. */
struct price_set {
	struct price_table *tables; /* owned, sorted by provider */
	size_t count;
	struct price_onprem *onprem; /* owned; NULL without onprem.yaml */
	struct price_unjoin *unjoin; /* owned; NULL without unjoinable.yaml */
};

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

/*
 * The cost inputs of GPU `gpu` from the on-premises file: capex per GPU
 * = (card + server share) x (1 + networking) or node / GPUs x (1 +
 * networking), and the site defaults.  Returns 0, or -1 if the GPU is not
 * listed.
 */
int price_onprem_params(const struct price_onprem *op, const char *gpu,
			struct cost_onprem *out);

/* Days from date `from` to date `to` (both YYYY-MM-DD) into *days.
 * Returns 0, or -1 if either is not a real date. */
int price_days_between(const char *from, const char *to, long *days);

/* The offers' price of `kind` per GPU-hour; 0 if not sold that way. */
double price_usd_per_gpu_h(const struct price_offer *o, enum cost_kind kind);

#define PRICE_IMPORT_MAX_BYTES (64u << 20) /* largest CSV read */

/*
 * Convert a SkyPilot catalog vms.csv (columns found by header name) into a
 * price table of provider `provider` dated `today`, source = the file name.
 * The catalog GPU is deduced from AcceleratorName, GpuInfo's SizeInMiB and
 * the instance family; GCP accelerator rows (empty InstanceType) are added
 * to their host rows as gpu_part + host_part; one offer per (instance,
 * region), the cheapest zone.  Rows of accelerators without a catalog GPU
 * are skipped with one warning per accelerator name.  Bad rows are errors
 * "file:line: message".  Returns 0 or -1; *out is owned by the caller.
 */
int price_import_skypilot(const char *path, const char *provider,
			  const char *today, struct price_table *out,
			  struct tc_diag *warn, struct tc_diag *d);

/* Write `t` as a pricing YAML file (the format price_load_file reads).
 * Returns 0 or -1 (a write error). */
int price_table_write_yaml(const struct price_table *t, FILE *f);

/*
 * Remove every offer marked `verified: false` from the set's tables (a
 * formula, a recalled or a conflicting figure is not used unless asked
 * for).  Returns the number removed.
 */
size_t price_set_drop_unverified(struct price_set *set);

/* Load one `kind: unjoinable` file (release with price_unjoin_release).
 * Returns 0 or -1 (messages in d). */
int price_unjoin_load_file(const char *path, const char *today, struct price_unjoin *out,
			   struct tc_diag *warn, struct tc_diag *d);

/* Check each unjoinable product's GPU against `known_ids` as
 * price_check_gpus does.  Returns 0 or -1. */
int price_unjoin_check_gpus(const struct price_unjoin *u, const char *const *known_ids,
			    struct tc_diag *d);

/* Free what the struct owns; safe on zeroed or released structs. */
void price_unjoin_release(struct price_unjoin *u);
void price_table_release(struct price_table *t);
void price_onprem_release(struct price_onprem *op);
void price_set_release(struct price_set *set);

#endif
