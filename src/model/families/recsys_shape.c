/*
 * recsys_shape.c - the sizes of a recommender: its tables, MLPs and
 * interaction, per sample (recsys_shape.h).
 */
#include "recsys_shape.h"

#include <string.h>

double recsys_mlp_macs(double in, const int *w, int n)
{
	double f = 0;
	for (int i = 0; i < n; i++) {
		f += in * w[i];
		in = w[i];
	}
	return f;
}

/* Parameters of that stack: its weights and a bias per output. */
static double mlp_params(double in, const int *w, int n)
{
	double p = recsys_mlp_macs(in, w, n);
	for (int i = 0; i < n; i++)
		p += w[i];
	return p;
}

double recsys_top_gmf(const struct recsys_arch *a, const struct rec_summary *s)
{
	return a->ntop > 0 ? s->gmf_width * a->top[a->ntop - 1] : 0;
}

void recsys_summary(const struct recsys_arch *a, struct rec_summary *s)
{
	int i;
	double prev, d = 0;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < a->ntables; i++) {
		const struct rec_table *t = &a->table[i];
		double n = t->count > 0 ? t->count : 1;
		s->tables += n;
		s->rows += n * t->rows;
		s->emb_params += n * t->rows * t->dim;
		s->lookups += n * t->pooling;
		s->gathered_elems += n * t->pooling * t->dim;
		s->pooled_width += n * t->dim;
		if (t->tower == REC_TOWER_QUERY)
			s->query_width += n * t->dim;
		else if (t->tower == REC_TOWER_ITEM)
			s->item_width += n * t->dim;
		d = t->dim;
	}
	s->dense_params += mlp_params(a->dense_features, a->bottom, a->nbottom);
	prev = a->nbottom > 0 ? a->bottom[a->nbottom - 1] : a->dense_features;
	if (a->interaction == RI_DCNV2) {
		double w = (s->tables + 1) * d;
		s->dense_params += a->cross_layers *
			(2.0 * w * a->cross_rank + w);
		s->inter_width = w;
	} else if (a->interaction == RI_NEUMF) {
		/* the tower reads the tables after the GMF pair */
		s->gmf_width = a->table[0].dim;
		s->inter_width = s->pooled_width - 2 * s->gmf_width;
	} else if (a->interaction == RI_TWO_TOWER) {
		/* the dense features join the query side; the width of the
		 * two embeddings whose dot product is the logit */
		s->query_width += a->dense_features;
		s->dense_params += mlp_params(s->query_width, a->query, a->nquery) +
				   mlp_params(s->item_width, a->item, a->nitem);
		s->inter_width = a->nquery > 0 ? a->query[a->nquery - 1] : 0;
	} else {
		double f = s->tables + 1;
		s->inter_width = prev + f * (f - 1) / 2;
	}
	s->dense_params += mlp_params(s->inter_width, a->top, a->ntop) + recsys_top_gmf(a, s);
}
