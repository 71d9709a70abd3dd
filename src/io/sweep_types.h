/*
 * sweep_types.h - what a loaded sweep file is (sweep_load.h): its varied
 * keys, their values and the dimensions of the product.  Types only, so
 * that the axis reader (sweep_axis.c) and the loader share them without
 * using each other.
 */
#ifndef TC_SWEEP_TYPES_H
#define TC_SWEEP_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "../model/types/offer.h"
#include "../model/types/workload.h"
#include "yaml_node.h"

#define SWEEP_MAX_KEYS 32          /* varied paths */
#define SWEEP_MAX_SEGS 8           /* parts of a dotted path */
#define SWEEP_PATH_LEN 128
#define SWEEP_MAX_VALUES 5000      /* values of all keys together (ranges
				      included): each is loaded once alone */
#define SWEEP_MAX_ROWS 1e12        /* configurations of one sweep */
#define SWEEP_MAX_BASES 1024       /* cached bases (combinations of the
				      keys that always go through the tree) */

/* What a key sets besides the workload. */
enum sweep_target { SWT_WORKLOAD, SWT_PRICING_KIND, SWT_PRICING_PROVIDER };

/* A converted value of a directly settable field. */
struct sweep_probe {
	int ok;                  /* the base loads with this value alone */
	struct plan plan;        /* the loaded plan and training settings */
	struct training train;
};

struct sweep_key {
	char path[SWEEP_PATH_LEN];   /* "plan.count" */
	char segbuf[SWEEP_PATH_LEN]; /* path with NULs between parts */
	const char *seg[SWEEP_MAX_SEGS]; /* into segbuf */
	int nseg;
	enum sweep_target target;
	int field;                   /* directly settable field, or -1 */
	int dim;                     /* the dimension it belongs to */
	int line, col;               /* the key in the sweep file */
	size_t count;                /* values */
	size_t cap;                  /* room in values, text */
	struct yn_node **values;     /* owned copies */
	char **text;                 /* printable values, owned */
	struct sweep_probe *probe;   /* per value when field >= 0, owned */
};

/* One axis of the product: one key, or a zip group of keys. */
struct sweep_dim {
	size_t len;
	int slow;                   /* a key of it goes through the tree */
};

/* A base with the tree-only keys of one combination applied. */
struct sweep_base {
	int ok;
	struct workload w;
};

struct sweep_lookup;

struct sweep {
	char *file;                  /* the sweep file, owned */
	char name[WL_NAME_LEN];
	struct yn_doc base;          /* the base workload tree, owned */
	struct workload base_w;      /* it loaded (base_ok) */
	int base_ok;
	int sp_explicit;             /* sequence_parallel written or varied */
	int layout_auto;             /* layout: auto: each row gets the fastest
				      * layout that fits (search_best_at) */
	enum cost_kind kind;         /* pricing.kind (default on-demand) */
	char provider[PRICE_ID_LEN]; /* pricing.provider, "" = all */
	struct sweep_key key[SWEEP_MAX_KEYS];
	int nkeys;
	struct sweep_dim dim[SWEEP_MAX_KEYS];
	int ndims;
	uint64_t rows;               /* product of the dimensions */
	struct sweep_base *bases;    /* owned; NULL when not cached */
	size_t nbases;
	int force_tree;              /* tests: every row through the tree */
	struct sweep_lookup *lookup; /* owned: the search path with the framework
				      * profiles read once; NULL if they do not load */
};

#endif
