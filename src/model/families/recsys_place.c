/*
 * recsys_place.c - where the embedding tables of a recommender go: whole
 * tables onto GPUs (table-wise), or the balanced placement that keeps
 * small tables data-parallel and spreads hot or large ones row-wise.
 */
#include "recsys_place.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#define REC_MAX_GPUS_BALANCED 1024

/*
 * Table-wise placement: the most loaded GPU's table bytes and lookups per
 * sample (rows x dim summed), tables largest first onto the GPU with the
 * fewest bytes.  Greedy (LPT); for more GPUs than REC_MAX_GPUS_BALANCED the
 * largest table or the average, whichever is larger.
 */
void recsys_table_wise(const struct recsys_arch *a, int n, double eb,
		       double *max_bytes, double *max_elems,
		       double *max_rows)
{
	double bytes[REC_MAX_GPUS_BALANCED], elems[REC_MAX_GPUS_BALANCED];
	double rows[REC_MAX_GPUS_BALANCED];
	int used[REC_MAX_TABLES];
	int i, j, k;

	*max_bytes = *max_elems = *max_rows = 0;
	if (n > REC_MAX_GPUS_BALANCED) {
		struct rec_summary s;
		double big = 0, bige = 0;
		recsys_summary(a, &s);
		for (i = 0; i < a->ntables; i++) {
			big = fmax(big, a->table[i].rows * a->table[i].dim * eb);
			bige = fmax(bige, a->table[i].pooling * a->table[i].dim);
		}
		*max_bytes = fmax(big, s.emb_params * eb / n);
		*max_elems = fmax(bige, s.gathered_elems / n);
		*max_rows = fmax(1, s.lookups / n);
		return;
	}
	for (k = 0; k < n; k++)
		bytes[k] = elems[k] = rows[k] = 0;
	memset(used, 0, sizeof(used));
	for (;;) {
		int best = -1;
		for (i = 0; i < a->ntables; i++)
			if (used[i] < (a->table[i].count > 0 ? a->table[i].count : 1) &&
			    (best < 0 || a->table[i].rows * a->table[i].dim >
					 a->table[best].rows * a->table[best].dim))
				best = i;
		if (best < 0)
			break;
		used[best]++;
		j = 0;
		for (k = 1; k < n; k++)
			if (bytes[k] < bytes[j])
				j = k;
		bytes[j] += a->table[best].rows * a->table[best].dim * eb;
		elems[j] += a->table[best].pooling * a->table[best].dim;
		rows[j] += a->table[best].pooling;
	}
	for (k = 0; k < n; k++) {
		if (bytes[k] > *max_bytes)
			*max_bytes = bytes[k];
		if (elems[k] > *max_elems) {
			*max_elems = elems[k];
			*max_rows = rows[k];
		}
	}
}

/*
 * A table cut row-wise over g GPUs: the sample's `pooling` lookups hit a
 * given GPU's shard with probability q = 1 - (1 - 1/g)^pooling (rows taken
 * as spread evenly over the shards), so a sample has g q partial sums that
 * are not zero.  Sent alone to the sample's GPU by the all-to-all, they
 * are q g / (g - 1) of the reduce-scatter's volume, (g - 1) / g of its
 * dense buffer: fewer bytes where that is below 1 (one-hot and other
 * low-pooling tables: a one-hot table over 8 GPUs sends 1/7 of them).
 * Returns g q, the vectors a sample receives, when the all-to-all is the
 * smaller; 0 when the reduce-scatter is.
 */
static double rw_sparse_hits(double pooling, int g)
{
	double q;
	if (g <= 1)
		return 0;
	q = 1 - pow(1 - 1.0 / g, pooling);
	return q * g / (g - 1) < 1 ? q * g : 0;
}

/*
 * Balanced placement, as TorchRec's planner and HugeCTR's sharding plans
 * place tables (the rule is ours, stated in docs/vision-recsys.md):
 *  - a table is data-parallel when all-reducing its fp32 gradient moves no
 *    more bytes per GPU than exchanging its pooled vectors would:
 *    rows x 4 B <= local batch x e (both per column);
 *  - of the others, a table whose lookups (pooling x dim per sample) or
 *    bytes exceed an even share of the model-parallel tables' lookups or
 *    bytes over the GPUs is cut row-wise over whole nodes (over all GPUs
 *    on one node): as many of the least loaded nodes as bring its lookups
 *    per GPU down to that share, heaviest table first
 *    (table-wise-row-wise when that is fewer than all nodes);
 *  - the rest go whole onto GPUs, the heaviest in lookups first onto the
 *    GPU with the fewest lookups so far (LPT; ties: fewer bytes).
 * `sb` is the bytes per stored element (row + optimizer state), `b` the
 * local batch, `e` the bytes of an exchanged activation element, `gpn`
 * the GPUs per node.  Beyond REC_MAX_GPUS_BALANCED GPUs the whole tables
 * are spread over that many (an upper bound on the busiest GPU's load).
 */
/* What the balanced placement has put on each tallied GPU. */
struct gpu_tally {
	double load[REC_MAX_GPUS_BALANCED];  /* elements gathered per sample */
	double rows[REC_MAX_GPUS_BALANCED];  /* rows gathered per sample */
	double bytes[REC_MAX_GPUS_BALANCED]; /* table bytes */
	/* row-wise tables whose partial sums are reduce-scattered, inside
	 * one node or over several ([REC_RS_NODE], [REC_RS_WIDE]): those the
	 * split exchange keeps (split), every row-wise one (all) */
	double split[REC_RS_COUNT][REC_MAX_GPUS_BALANCED];
	double all[REC_RS_COUNT][REC_MAX_GPUS_BALANCED];
};

/*
 * Put table t, sb bytes a stored element (row-wise over `span` nodes of r
 * GPUs, or whole onto one of the m GPUs), onto the least loaded places of
 * *T (ties: fewer bytes); `sparse`: its partial sums go by all-to-all, not
 * reduce-scatter.
 */
static void place_table(const struct rec_table *t, double sb, int rw, int span,
			int r, int nodes, int m, int sparse, struct gpu_tally *T)
{
	unsigned char took[REC_MAX_GPUS_BALANCED];
	int step = rw ? r : 1, lim = rw ? nodes * r : m, wide = span > 1;
	double div = rw ? (double)span * r : 1;

	memset(took, 0, sizeof(took));
	for (int q = 0; q < span; q++) {
		int j = -1;
		for (int k = 0; k < lim; k += step)
			if (!took[k] && (j < 0 || T->load[k] < T->load[j] ||
			    (T->load[k] == T->load[j] && T->bytes[k] < T->bytes[j])))
				j = k;
		assert(j >= 0); /* span <= nodes: one is free */
		took[j] = 1;
		for (int k = j; k < j + step; k++) {
			T->load[k] += t->pooling * t->dim / div;
			T->rows[k] += t->pooling / div;
			T->bytes[k] += t->rows * t->dim * sb / div;
			T->split[wide][k] += rw && !sparse;
			T->all[wide][k] += rw;
		}
	}
}

void recsys_balance(const struct recsys_arch *a, int n, int gpn, double b,
		    double e, double sb, struct rec_balance *out)
{
	struct gpu_tally T;
	double mp_load = 0, mp_bytes = 0;
	int used[REC_MAX_TABLES], kind[REC_MAX_TABLES];
	int i, k, m;
	int r = n > gpn && gpn > 0 && n % gpn == 0 ? gpn : n;
	int nodes;
	struct rec_balance R;

	assert(n >= 1);
	m = n < REC_MAX_GPUS_BALANCED ? n : REC_MAX_GPUS_BALANCED;
	if (r > m) /* beyond the tallied GPUs: they form one group */
		r = m;
	nodes = m / r;
	memset(&R, 0, sizeof(R));
	memset(&T, 0, sizeof(T));
	R.rw_node_group = r;
	for (i = 0; i < a->ntables; i++) {
		const struct rec_table *t = &a->table[i];
		double c = t->count > 0 ? t->count : 1;
		if (n > 1 && t->rows * 4 <= b * e) {
			kind[i] = EMB_REPLICATED;
			R.tables[REC_DP] += c;
			R.local_elems += c * t->pooling * t->dim;
			R.local_rows += c * t->pooling;
			R.dp_params += c * t->rows * t->dim;
		} else {
			kind[i] = EMB_TABLE_WISE;
			mp_load += c * t->pooling * t->dim;
			mp_bytes += c * t->rows * t->dim * sb;
		}
	}
	for (i = 0; i < a->ntables; i++) {
		const struct rec_table *t = &a->table[i];
		if (kind[i] == EMB_TABLE_WISE &&
		    (n == 1 || t->pooling * t->dim > mp_load / n ||
		     t->rows * t->dim * sb > mp_bytes / n))
			kind[i] = EMB_ROW_WISE;
	}
	/* Row-wise tables first, heaviest first, onto the least loaded nodes
	 * (a node is its first GPU's tally): as many nodes as bring the
	 * table's lookups per GPU down to the even share; then whole tables
	 * onto the least loaded GPUs (LPT). */
	for (int pass = EMB_ROW_WISE; pass >= EMB_TABLE_WISE; pass--) {
		int rw = pass == EMB_ROW_WISE;
		memset(used, 0, sizeof(used));
		for (;;) {
			const struct rec_table *t;
			int best = -1, span = 1;
			double sparse = 0;
			for (i = 0; i < a->ntables; i++) {
				t = &a->table[i];
				if (kind[i] != pass ||
				    used[i] >= (t->count > 0 ? t->count : 1))
					continue;
				if (best < 0 || t->pooling * t->dim >
				    a->table[best].pooling * a->table[best].dim)
					best = i;
			}
			if (best < 0)
				break;
			used[best]++;
			t = &a->table[best];
			R.tables[rw ? REC_RW : REC_TW] += 1;
			if (rw) {
				double share = mp_load / n;
				span = share > 0 ? (int)ceil(t->pooling * t->dim /
							     (r * share)) : 1;
				span = span < 1 ? 1 : span > nodes ? nodes : span;
				R.rw_group = R.rw_group > span * r ? R.rw_group :
					     span * r;
				sparse = rw_sparse_hits(t->pooling, span * r);
				R.rw_sparse_hits += sparse;
				R.tables[REC_RW_SPARSE] += sparse > 0;
			}
			place_table(t, sb, rw, span, r, nodes, m, sparse > 0, &T);
		}
	}
	for (k = 0; k < m; k++) {
		if (T.load[k] > R.global_elems) {
			R.global_elems = T.load[k];
			R.global_rows = T.rows[k];
		}
		R.bytes_per_gpu = fmax(R.bytes_per_gpu, T.bytes[k]);
		for (i = 0; i < REC_RS_COUNT; i++) {
			R.rs_tables[i] = fmax(R.rs_tables[i], T.split[i][k]);
			R.rs_all[i] = fmax(R.rs_all[i], T.all[i][k]);
		}
	}
	R.bytes_per_gpu += R.dp_params * sb;
	*out = R;
}

