/*
 * price_types.h - what the price files other than a provider's table load
 * into: the on-premises file and the set of every price file of the data
 * path (a provider's table is struct price_table, model/types/offer.h).
 */
#ifndef TC_PRICE_TYPES_H
#define TC_PRICE_TYPES_H

#include <stddef.h>

#include "../model/types/offer.h"

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

/* Every price file of the data path. */
struct price_set {
	struct price_table *tables; /* owned, sorted by provider */
	size_t count;
	struct price_onprem *onprem; /* owned; NULL without onprem.yaml */
	struct price_unjoin *unjoin; /* owned; NULL without unjoinable.yaml */
};

#endif
