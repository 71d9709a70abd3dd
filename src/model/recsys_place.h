/*
 * recsys_place.h - where the embedding tables of a recommender go
 * (recsys_place.c): whole tables over GPUs, and the balanced placement.
 */
#ifndef TC_RECSYS_PLACE_H
#define TC_RECSYS_PLACE_H

#include "recsys_shape.h"
#include "workload.h"

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
