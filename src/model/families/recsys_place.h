/*
 * recsys_place.h - where the embedding tables of a recommender go
 * (recsys_place.c): whole tables over GPUs, and the balanced placement.
 */
#ifndef TC_RECSYS_PLACE_H
#define TC_RECSYS_PLACE_H

#include "recsys_shape.h"
#include "../types/workload.h"

/* The three kinds of table in a balanced placement. */
enum rec_share { REC_DP, REC_TW, REC_RW, REC_RW_SPARSE, REC_SHARE_COUNT };

/* Where a row-wise table's reduce-scatter runs: inside one node, or over
 * several. */
enum rec_rs_span { REC_RS_NODE, REC_RS_WIDE, REC_RS_COUNT };

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
	double tables[REC_SHARE_COUNT]; /* tables data-parallel, whole, row-wise,
					   and of the row-wise ones those whose
					   partial sums go by all-to-all */
	double global_elems; /* elements gathered per sample of the global batch */
	double global_rows;  /* rows gathered per sample of the global batch */
	double local_elems;  /* elements per local sample (data-parallel tables) */
	double local_rows;   /* rows per local sample (data-parallel tables) */
	double dp_params;    /* elements of the data-parallel tables */
	double bytes_per_gpu; /* table bytes with optimizer state, fullest GPU */
	/* Row-wise tables of the busiest GPU whose partial sums are
	 * reduce-scattered, cut inside one node (over rw_node_group GPUs) or
	 * over several (over at most rw_group): with the exchange split
	 * (rs_tables: the others' non-zero sums go by all-to-all) or all
	 * reduce-scattered (rs_all). */
	double rs_tables[REC_RS_COUNT];
	double rs_all[REC_RS_COUNT];
	double rw_sparse_hits; /* non-zero partial sums a sample receives by
				  all-to-all in the split exchange */
	int rw_group;        /* most GPUs a row-wise table is cut over */
	int rw_node_group;   /* GPUs of a table cut inside one node */
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
