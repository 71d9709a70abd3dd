/*
 * recsys.h - DLRM-style recommenders as operator lists: embedding gathers
 * and their sparse backward as random memory access whose efficiency
 * depends on the row size, small MLP GEMMs, dot, DCNv2, NeuMF or two-tower
 * interaction, the
 * all-to-all of model-parallel tables, and PCIe traffic of offloaded
 * tables.  docs/vision-recsys.md.
 */
#ifndef TC_RECSYS_H
#define TC_RECSYS_H

#include "estimate.h"
#include "gpu.h"
#include "workload.h"

/* Totals of a recommender. */
struct rec_summary {
	double tables;          /* tables (count expanded) */
	double rows;            /* rows of all tables */
	double emb_params;      /* rows x dim, all tables */
	double dense_params;    /* MLPs and cross layers */
	double lookups;         /* rows read per sample */
	double gathered_elems;  /* embedding elements read per sample */
	double inter_width;     /* input width of the top MLP */
	double pooled_width;    /* pooled embedding elements per sample (the
				   tables' widths) */
	double gmf_width;       /* neumf: width of the element-wise product */
	double query_width;     /* two_tower: inputs of the query tower (its
				   tables' widths and the dense features) */
	double item_width;      /* two_tower: inputs of the item tower */
};

/* Fill *s.  Assumes a valid architecture (rows, dim >= 1). */
void recsys_summary(const struct recsys_arch *a, struct rec_summary *s);

/*
 * Achieved fraction of memory bandwidth of a random row gather of
 * `row_bytes` per row with the parameters *e (see recsys.c for the model
 * and its calibration).
 */
double recsys_gather_frac(const struct roof_eff *e, double row_bytes);

/* The three kinds of table in a balanced placement. */
enum rec_share { REC_DP, REC_TW, REC_RW, REC_SHARE_COUNT };

/*
 * Table-wise placement (recsys_place.c): the most loaded GPU's table bytes
 * (at eb per element) and lookups per sample (elements and rows), tables
 * largest first onto the GPU with the fewest bytes.
 */
void recsys_table_wise(const struct recsys_arch *a, int n, double eb,
		       double *max_bytes, double *max_elems,
		       double *max_rows);

/* What a balanced placement puts on the busiest GPU (recsys_balance()). */
struct rec_balance {
	double tables[REC_SHARE_COUNT]; /* tables data-parallel, whole, row-wise */
	double global_elems; /* elements gathered per sample of the global batch */
	double global_rows;  /* rows gathered per sample of the global batch */
	double local_elems;  /* elements per local sample (data-parallel tables) */
	double local_rows;   /* rows per local sample (data-parallel tables) */
	double dp_params;    /* elements of the data-parallel tables */
	double bytes_per_gpu; /* table bytes with optimizer state, fullest GPU */
	double rw_tables_node; /* row-wise tables of the busiest node */
	int rw_group;        /* GPUs a row-wise table is cut over */
};

/*
 * Place the tables of *a over n >= 1 GPUs, balancing lookups and bytes
 * (the rule: recsys.c); gpn GPUs per node, b local batch, e bytes per
 * exchanged activation element, sb bytes per stored table element.
 * Fills *out.
 */
void recsys_balance(const struct recsys_arch *a, int n, int gpn, double b,
		    double e, double sb, struct rec_balance *out);

#endif
