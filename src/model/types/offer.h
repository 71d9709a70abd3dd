/*
 * offer.h - what the price files hold: one provider's offers and how it
 * bills, the on-premises inputs of a GPU, and the names of their enums as
 * the files spell them.  Types and the one formula that fills an input
 * (capex per GPU), so that the price loaders (src/io/price_load.h) fill
 * them without the cost model (cost.h), which turns an offer or a site and
 * a run into dollars.
 */
#ifndef TC_OFFER_H
#define TC_OFFER_H

#include <stddef.h>

#define PRICE_ID_LEN 64     /* provider, instance, GPU id, region */
#define PRICE_TEXT_LEN 1024 /* source, notes */
#define PRICE_DATE_LEN 11   /* "YYYY-MM-DD" + NUL */

#define COST_S_PER_H 3600.0      /* seconds per hour */
#define COST_H_PER_MONTH 730.0   /* hours per month (8760 / 12) */
#define COST_H_PER_YEAR 8760.0   /* hours per year */

/* How a provider rounds billed time. */
enum cost_gran { COST_PER_SECOND, COST_PER_MINUTE, COST_PER_HOUR };
extern const char *const cost_gran_names[]; /* "per_second", ...; NULL-ended */

/* How an offer is bought.  The order is that of cost_kind_names.  No
 * reserved or committed-use kind: no provider figure for one was confirmed
 * (docs/pricing.md). */
enum cost_kind {
	COST_ON_DEMAND,
	COST_SPOT,
	COST_KIND_COUNT
};
/* "on-demand", "spot", NULL (CLI spelling). */
extern const char *const cost_kind_names[];
/* The YAML keys of a price file's prices, in enum cost_kind order. */
extern const char *const cost_kind_keys[COST_KIND_COUNT];

/* What links the GPUs inside one instance.  The order is that of
 * cost_link_names. */
enum cost_link { COST_LINK_NONE, COST_LINK_PCIE, COST_LINK_NVLINK };
extern const char *const cost_link_names[]; /* "none", "pcie", "nvlink", NULL */

/* The product an offer's instances are joined by (docs/pricing.md,
 * "Fabric").  The order is that of cost_cluster_names. */
enum cost_cluster {
	COST_CLUSTER_NONE,
	COST_CLUSTER_PLACEMENT_GROUP, /* AWS cluster placement group */
	COST_CLUSTER_SCALE_SET,       /* Azure virtual machine scale set */
	COST_CLUSTER_NETWORK,         /* OCI cluster network */
	COST_CLUSTER_CAPACITY_BLOCK,  /* AWS Capacity Blocks for ML */
	COST_CLUSTER_ONE_CLICK,       /* Lambda 1-Click Cluster */
	COST_CLUSTER_INSTANT,         /* RunPod / Together Instant Cluster */
};
/* "none", "placement_group", ...: the file's spelling; NULL-ended. */
extern const char *const cost_cluster_names[];

/* The network name of an offer whose instances cannot be joined. */
#define COST_NETWORK_NONE "none"

struct cost_billing {
	enum cost_gran granularity;
	double minimum_s; /* shortest billed time per instance, seconds */
};

/* One rentable instance shape of one provider. */
struct price_offer {
	char instance[PRICE_ID_LEN];
	char gpu[PRICE_ID_LEN];      /* catalog id, exact variant */
	double gpus;                 /* GPUs per instance; may be 0.25 */
	char region[PRICE_ID_LEN];
	/* USD per instance-hour by kind; 0 = not sold that way. */
	double price_usd_per_h[COST_KIND_COUNT];
	/* Split billing (GCP): parts of the on-demand / spot price; 0 = none. */
	double gpu_part_usd_per_h, host_part_usd_per_h;
	double spot_gpu_part_usd_per_h, spot_host_part_usd_per_h;
	/* Spot across the zones the source sampled: lowest, median, highest
	 * per instance-hour; 0 = not given.  A median given is the spot price
	 * (price_usd_per_h[COST_SPOT]). */
	double spot_low_usd_per_h, spot_median_usd_per_h, spot_high_usd_per_h;
	int verified;                /* 0: a suspect or recalled figure */
	/* What one order can host (docs/pricing.md, "Fabric").  Unstated:
	 * no link, no network, one instance. */
	int fabric_stated;           /* interconnect, network, max_instances written */
	int interconnect;            /* enum cost_link, between one instance's GPUs */
	char network[PRICE_ID_LEN];  /* between instances: a network name or "none" */
	int max_instances;           /* the most instances one order gets, >= 1 */
	int max_unconfirmed;         /* no size stated (max_instances: unknown):
				      * max_instances is the loader's bound and an
				      * answer of several instances says so */
	/* The network as the source states it: adapters x rate per instance
	 * (network.h maps it to a named network); 0 adapters: not stated. */
	int adapters;
	double adapter_gbps;         /* each adapter, Gb/s one way */
	int fabric;                  /* index into net_fabric_names */
	int cluster;                 /* enum cost_cluster */
	int fabric_assumed;          /* set by --assume-fabric, not by a source */
	char fabric_source[PRICE_TEXT_LEN]; /* where those three were read; "" if unstated */
	char as_of[PRICE_DATE_LEN];  /* the offer's date (default: the file's) */
	char source[PRICE_TEXT_LEN]; /* the offer's source (default: the file's) */
	char notes[PRICE_TEXT_LEN];
	int line, col;               /* the offer in its file, 1-based */
	int gpu_line, gpu_col;       /* its `gpu:` value */
	int as_of_line, as_of_col;   /* where its date was written */
};

/* One provider's price file. */
struct price_table {
	char *file;                  /* path used in messages, owned */
	char provider[PRICE_ID_LEN];
	char currency[8];            /* "USD" */
	char as_of[PRICE_DATE_LEN];
	char source[PRICE_TEXT_LEN];
	char notes[PRICE_TEXT_LEN];
	struct cost_billing billing;
	/* The warning before a spot preemption, as the provider documents it
	 * (the file's spot_notice, with its own source and date);
	 * spot_notice_known 0 when the file says unknown or gives none. */
	int spot_notice_known;
	double spot_notice_s;
	char spot_notice_source[PRICE_TEXT_LEN];
	char spot_notice_as_of[PRICE_DATE_LEN];
	struct price_offer *offers;  /* owned, file order */
	size_t count;
	/* Offers set aside after the `count` in use, in file order: those
	 * marked verified: false when unverified prices are not used
	 * (price_set_set_aside_unverified); 0 otherwise. */
	size_t aside;
};

/* What keeps a cluster product the sources name from being priced as
 * joined instances (pricing/unjoinable.yaml). */
enum price_lack { PRICE_LACKS_PRICE, PRICE_LACKS_FABRIC, PRICE_LACKS_BOTH };

/* One cluster product that cannot join instances in traincost. */
struct price_unjoinable {
	char provider[PRICE_ID_LEN];
	char product[PRICE_ID_LEN];
	char gpu[PRICE_ID_LEN];          /* catalog id; "" when the sources name none */
	int lacks;                       /* enum price_lack */
	char fabric[PRICE_TEXT_LEN];     /* what the sources state of its fabric */
	char price[PRICE_TEXT_LEN];      /* what they state of its price */
	char source[PRICE_TEXT_LEN];
	int gpu_line, gpu_col;           /* its `gpu:` value, 0 when none */
};

/* The file of them (kind: unjoinable, docs/pricing.md). */
struct price_unjoin {
	char *file;                      /* owned */
	char as_of[PRICE_DATE_LEN];
	char source[PRICE_TEXT_LEN];
	struct price_unjoinable *items;  /* owned, file order */
	size_t count;
};

/* On-premises inputs; capex is per GPU, networking already added. */
struct cost_onprem {
	double capex_usd;             /* per GPU: card + server share + network */
	double residual_frac;         /* resale value at end of life, 0..1 */
	double life_years;            /* amortisation period */
	double util_frac;             /* fraction of hours doing paid work */
	double power_usd_per_kwh;
	double pue;                   /* facility power / IT power, >= 1 */
	double colo_usd_per_kw_month; /* colocation per kW of facility power */
};

/* Capex per GPU: (card + server share) x (1 + networking share). */
double cost_onprem_capex_usd(double card_usd, double server_share_usd,
			     double networking_frac);

/* Index of `name` in cost_kind_names, or -1. */
int cost_kind_parse(const char *name);

#endif
