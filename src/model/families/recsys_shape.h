/*
 * recsys_shape.h - the sizes of a recommender: its tables, MLPs and
 * interaction, per sample; what the step (recsys.c) and the placement of
 * the tables (recsys_place.c) both read.
 */
#ifndef TC_RECSYS_SHAPE_H
#define TC_RECSYS_SHAPE_H

#include "../types/workload.h"

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

/* Multiply-adds per sample of a stack of n linear layers from width in. */
double recsys_mlp_macs(double in, const int *w, int n);

/* neumf: the GMF product joins the last top layer's input, adding its
 * width times that layer's outputs in weights and multiply-adds. */
double recsys_top_gmf(const struct recsys_arch *a, const struct rec_summary *s);

#endif
