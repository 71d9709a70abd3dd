/*
 * recsys.c - operators of a DLRM-style training step on one GPU.
 *
 * Dense part (bottom MLP, interaction, top MLP, loss) is data parallel over
 * all GPUs: each runs global_batch / count samples.  Embedding tables are
 * placed by plan.embeddings:
 *  - replicated: every GPU holds every table and looks up its own samples;
 *    the looked-up rows' gradients are all-gathered (sparse all-reduce);
 *  - table_wise: whole tables on GPUs (largest first onto the least filled
 *    GPU); each GPU looks up its tables for the global batch; the pooled
 *    vectors go to their samples' GPU by all-to-all, gradients back;
 *  - row_wise: every table cut into count row ranges; each GPU looks up
 *    1/count of the rows for the global batch; partial pooled sums are
 *    reduce-scattered forward and all-gathered backward;
 *  - column_wise: every table cut into count column slices, all-to-all of
 *    the slices as table_wise;
 *  - balanced: small tables data-parallel, hot or large ones row-wise over
 *    whole nodes, the rest whole, balancing lookups and bytes
 *    (recsys_balance());
 *  - auto: replicated on one GPU, else balanced when its fullest GPU
 *    fits, else row_wise.
 * Sparse updates write the share training.unique_rows of the looked-up
 * rows (the distinct ones).
 * Embedding gathers and the sparse backward are random row accesses whose
 * achieved bandwidth depends on the row size (recsys_gather_frac).  Tables
 * offloaded to host memory (uvm, host) are read and written over PCIe.
 * docs/vision-recsys.md has the formulas and the calibration.
 */
#include "recsys.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "comm.h"
#include "compose.h"
#include "memory.h"
#include "opsink.h"
#include "roofline.h"

const char *const rec_placement_names[] = { "auto", "replicated",
	"table_wise", "row_wise", "column_wise", "balanced", NULL };
const char *const rec_offload_names[] = { "none", "uvm", "host", NULL };

/*
 * Random-gather efficiency: a row of R bytes costs whole 32-byte sectors
 * plus a fixed per-row cost (address generation, the index read, DRAM
 * page misses), expressed as gather_half_bytes of extra traffic:
 * frac = gather_max_frac * R32 / (R32 + half) * R / R32.  Both are rows of
 * the parameter registry (eff_param.h), set on the two DLRM measurements of
 * tests/validation/recsys.csv (docs/vision-recsys.md).
 */
/* UVM faults migrate whole pages: a row costs at least this much. */
#define REC_UVM_PAGE_BYTES 4096.0
/* Kernels per step outside the listed operators (index handling, dense
 * feature transform, bookkeeping), charged as launch overhead. */
#define REC_EXTRA_KERNELS 30

double recsys_gather_frac(const struct roof_eff *e, double row_bytes)
{
	double r32 = 32 * ceil(row_bytes / 32);
	if (!(row_bytes > 0))
		return e->gather_max_frac;
	return e->gather_max_frac * r32 / (r32 + e->gather_half_bytes) *
	       row_bytes / r32;
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
		d = t->dim;
	}
	prev = a->dense_features;
	for (i = 0; i < a->nbottom; i++) {
		s->dense_params += prev * a->bottom[i] + a->bottom[i];
		prev = a->bottom[i];
	}
	if (a->interaction == RI_DCNV2) {
		double w = (s->tables + 1) * d;
		s->dense_params += a->cross_layers *
			(2.0 * w * a->cross_rank + w);
		s->inter_width = w;
	} else if (a->interaction == RI_NEUMF) {
		/* the tower reads the tables after the GMF pair */
		s->gmf_width = a->table[0].dim;
		s->inter_width = s->pooled_width - 2 * s->gmf_width;
	} else {
		double f = s->tables + 1;
		s->inter_width = prev + f * (f - 1) / 2;
	}
	prev = s->inter_width;
	for (i = 0; i < a->ntop; i++) {
		if (i == a->ntop - 1)
			prev += s->gmf_width; /* neumf: GMF joins the last */
		s->dense_params += prev * a->top[i] + a->top[i];
		prev = a->top[i];
	}
}

/* ---------------------------------------------------------------------- */

/* Builder state: how an operator's time is computed; the sink lists it
 * and sums it for the step. */
struct rb {
	struct op_sink out;
	struct op_sums S;
	const struct gpu *g;
	enum tc_prec pg;
	double e;
	int graphs;
};

static void put(struct rb *B, const char *name, enum brk cat, double flop,
		double bytes, enum tc_prec p, double time, double launch,
		enum op_bound bound)
{
	struct op_cost c = { flop, bytes, time, launch, p, bound };
	sink_put(&B->out, name, cat, &c, 1, flop);
}

static void gemm(struct rb *B, const char *name, double m, double n, double k)
{
	double flop = 2 * m * n * k;
	double bytes = B->e * (m * k + k * n + m * n);
	double split = roof_split_k(B->g->sm_count, m, n, k, 1);
	double eff = roof_gemm_eff_prec(B->g, B->pg, m, n, k / split, split);
	enum op_bound bound;
	double t = roof_time(B->g, B->pg, flop, eff, bytes, 1, B->graphs, &bound);
	double alt = roof_skinny_time(B->g, flop, bytes, B->graphs);
	if (alt < t) { /* a GEMV-like kernel on CUDA cores is faster */
		t = alt;
		bound = BOUND_MEMORY;
		eff = B->g->eff.skinny_frac;
		put(B, name, BRK_GEMM, flop, bytes, PREC_FP32, t,
		    roof_launch_part(B->g, PREC_FP32, flop, eff, bytes, t), bound);
		return;
	}
	put(B, name, BRK_GEMM, flop, bytes, B->pg, t,
	    roof_launch_part(B->g, B->pg, flop, eff, bytes, t), bound);
}

/* Memory-bound kernels; `frac` scales the streaming bandwidth. */
static void elem(struct rb *B, const char *name, double bytes, double frac,
		 double kernels)
{
	double eb = bytes / (frac > 0 ? frac : 1);
	enum op_bound bound;
	double t = roof_time(B->g, B->pg, 0, B->g->eff.elem_flop_frac, eb, kernels, B->graphs,
			     &bound);
	put(B, name, BRK_MEMBOUND, 0, bytes, B->pg, t,
	    roof_launch_part(B->g, B->pg, 0, B->g->eff.elem_flop_frac, eb, t), BOUND_MEMORY);
}

static void coll(struct rb *B, const struct plan *pl, const char *name,
		 enum brk cat, enum comm_coll c, struct comm_group grp,
		 double bytes)
{
	double t;
	if (grp.n <= 1)
		return;
	t = comm_time_s(B->g, pl, c, grp, bytes);
	put(B, name, cat, 0, bytes, B->pg, t, 0, BOUND_NETWORK);
}

/* A linear layer (rows x in -> out) forward or backward. */
static void linear(struct rb *B, const char *pfx, double rows, double in,
		   double out, int first)
{
	char n[40];
	if (!B->out.bwd) {
		snprintf(n, sizeof(n), "%s.fwd", pfx);
		gemm(B, n, rows, out, in);
	} else {
		if (!first) {
			snprintf(n, sizeof(n), "%s.bwd_d", pfx);
			gemm(B, n, rows, in, out);
		}
		snprintf(n, sizeof(n), "%s.bwd_w", pfx);
		gemm(B, n, in, out, rows);
	}
}

/* Optimizer state bytes per embedding element (sparse updates). */
static double emb_state_bytes(enum optimizer o)
{
	switch (o) {
	case OPT_ADAGRAD: return 4;
	case OPT_ADAMW: return 8;
	default: return 0;
	}
}

#define REC_MAX_GPUS_BALANCED 1024

/*
 * Table-wise placement: the most loaded GPU's table bytes and lookups per
 * sample (rows x dim summed), tables largest first onto the GPU with the
 * fewest bytes.  Greedy (LPT); for more GPUs than REC_MAX_GPUS_BALANCED the
 * largest table or the average, whichever is larger.
 */
static void table_wise(const struct recsys_arch *a, int n, double eb,
		       double *max_bytes, double *max_elems, double *max_rows)
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
void recsys_balance(const struct recsys_arch *a, int n, int gpn, double b,
		    double e, double sb, struct rec_balance *out)
{
	double load[REC_MAX_GPUS_BALANCED], bytes[REC_MAX_GPUS_BALANCED];
	double rows[REC_MAX_GPUS_BALANCED], rwt[REC_MAX_GPUS_BALANCED];
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
	for (k = 0; k < m; k++)
		load[k] = bytes[k] = rows[k] = rwt[k] = 0;
	/* Row-wise tables first, heaviest first, onto the least loaded nodes
	 * (a node is its first GPU's tally): as many nodes as bring the
	 * table's lookups per GPU down to the even share; then whole tables
	 * onto the least loaded GPUs (LPT). */
	for (int pass = EMB_ROW_WISE; pass >= EMB_TABLE_WISE; pass--) {
		int rw = pass == EMB_ROW_WISE;
		memset(used, 0, sizeof(used));
		for (;;) {
			const struct rec_table *t;
			unsigned char took[REC_MAX_GPUS_BALANCED];
			int best = -1, span = 1, q;
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
			}
			memset(took, 0, sizeof(took));
			for (q = 0; q < span; q++) {
				int step = rw ? r : 1, lim = rw ? nodes * r : m;
				int j = -1;
				double div = rw ? (double)span * r : 1;
				for (k = 0; k < lim; k += step)
					if (!took[k] && (j < 0 || load[k] < load[j] ||
					    (load[k] == load[j] && bytes[k] < bytes[j])))
						j = k;
				assert(j >= 0); /* span <= nodes: one is free */
				took[j] = 1;
				for (k = j; k < j + step; k++) {
					load[k] += t->pooling * t->dim / div;
					rows[k] += t->pooling / div;
					bytes[k] += t->rows * t->dim * sb / div;
					rwt[k] += rw;
				}
			}
		}
	}
	for (k = 0; k < m; k++) {
		if (load[k] > R.global_elems) {
			R.global_elems = load[k];
			R.global_rows = rows[k];
		}
		R.bytes_per_gpu = fmax(R.bytes_per_gpu, bytes[k]);
		R.rw_tables_node = fmax(R.rw_tables_node, rwt[k]);
	}
	R.bytes_per_gpu += R.dp_params * sb;
	*out = R;
}

/* Resolve and check the plan and the model against the GPU.  0 or -1 with
 * *why. */
static int recsys_plan(const struct workload *w, const struct gpu *g,
		       struct plan *pl, struct plan_problem *why)
{
	const struct recsys_arch *a = &w->rec;
	double gb = w->train.global_batch;
	int i;

	est_data_parallel_plan(&w->plan, g, pl);
	if (a->ntables < 1 || a->ntop < 1)
		return est_problem(why, WLF_MODEL, "the model needs embedding "
			       "tables and a top MLP (expected "
			       "embedding_tables and top_mlp)");
	for (i = 0; i < a->ntables; i++)
		if (!(a->table[i].rows >= 1) || a->table[i].dim < 1 ||
		    !(a->table[i].pooling > 0))
			return est_problem(why, WLF_MODEL, "table %d has no rows, "
				       "width or lookups (expected positive "
				       "rows, dim and pooling)", i + 1);
	if (!(gb >= 1) || fmod(gb, pl->count))
		return est_problem(why, WLF_GLOBAL_BATCH, "global_batch %g is not a "
			       "positive multiple of %d GPUs (expected a "
			       "multiple of %d)", gb, pl->count, pl->count);
	if (est_check_dense_precision(g, w->train.precision, why))
		return -1;
	if (!(g->mem_bytes_per_s > 0) || !(g->memory_bytes > 0))
		return est_problem(why, WLF_GPU, "%s lacks memory size or bandwidth "
			       "(expected both in its catalog file)", g->id);
	return 0;
}

int recsys_estimate(const struct workload *w, const struct gpu *g,
		    struct est_workspace *ws, struct estimate *out,
		    struct plan_problem *why)
{
	const struct recsys_arch *a = &w->rec;
	struct rec_summary S;
	struct estimate E;
	struct plan pl;
	struct rb B;
	double gb = w->train.global_batch, b, eb, tab_bytes, tab_elems, tab_rows;
	double row_bytes, dim, prev, free_b;
	struct step_parts parts;
	double act, state, P, uniq, Pdp = 0;
	struct rec_balance bal;
	/* dense features padded to 8 for tensor-core GEMMs */
	double din = 8 * ceil(a->dense_features / 8.0);
	enum rec_placement place;
	struct comm_group all, rwg;
	int n, i, k;

	assert(w && g && ws && out);
	if (recsys_plan(w, g, &pl, why))
		return -1;
	n = pl.count;
	recsys_summary(a, &S);
	b = gb / n;
	eb = tc_prec_bytes(w->rtrain.emb_precision);
	if (!(eb > 0))
		eb = 4;
	dim = a->table[0].dim;
	row_bytes = S.gathered_elems / S.lookups * eb; /* average row */

	/* Dense memory first: it decides what is left for tables. */
	P = S.dense_params;
	memset(&E, 0, sizeof(E));
	memset(&B, 0, sizeof(B));
	sink_start(&B.out, ws, &B.S, 0);
	B.g = g;
	B.pg = w->train.precision;
	B.e = B.pg == PREC_FP32 || B.pg == PREC_TF32 ? 4 : 2;
	B.graphs = pl.cuda_graphs;
	/* activations: every MLP layer input and output, the interaction
	 * input and output, the pooled embeddings (per sample) */
	act = S.pooled_width + S.inter_width + S.gmf_width +
	      a->dense_features;
	for (i = 0; i < a->nbottom; i++)
		act += 2.0 * a->bottom[i];
	for (i = 0; i < a->ntop; i++)
		act += 2.0 * a->top[i];
	if (a->interaction == RI_DCNV2)
		act += a->cross_layers * (2.0 * S.inter_width + a->cross_rank);
	act *= b * B.e;
	state = emb_state_bytes(w->train.optimizer);
	E.mem_bytes[MEM_WEIGHTS] = 4 * P;
	E.mem_bytes[MEM_GRADS] = 4 * P;
	E.mem_bytes[MEM_OPTIMIZER] = (w->train.optimizer == OPT_ADAMW ? 8 :
				      w->train.optimizer == OPT_SGD ? 0 : 4) * P;
	E.mem_bytes[MEM_ACTIVATIONS] = act;
	/* the gradients of the local batch's pooled vectors (the vectors
	 * themselves are activations); the rows gathered for other GPUs'
	 * samples are added with the placement, below */
	E.mem_bytes[MEM_BUFFERS] = b * S.pooled_width * B.e;
	E.mem_bytes[MEM_RESERVED] = MEM_CONTEXT_BYTES + MEM_FRAGMENTATION_FRAC *
				    (act + E.mem_bytes[MEM_BUFFERS]);
	free_b = g->memory_bytes;
	for (k = 0; k < MEM_COUNT; k++)
		free_b -= E.mem_bytes[k];

	/* Placement. */
	place = (enum rec_placement)pl.embeddings;
	table_wise(a, n, eb + state, &tab_bytes, &tab_elems, &tab_rows);
	recsys_balance(a, n, pl.gpus_per_node, b, B.e, eb + state, &bal);
	if (place == EMB_AUTO) {
		if (n == 1)
			place = EMB_REPLICATED;
		else if (bal.bytes_per_gpu <= free_b)
			place = EMB_BALANCED;
		else
			place = EMB_ROW_WISE;
	}
	uniq = w->rtrain.unique_rows > 0 ? w->rtrain.unique_rows : 1;
	{
		double per_gpu = 0, gathered_rows = 0, gathered_elems = 0;
		double a2a = 0, rs = 0, upd_elems, upd_rows;
		switch (place) {
		case EMB_REPLICATED:
			per_gpu = S.emb_params * (eb + state);
			gathered_rows = b * S.lookups;
			gathered_elems = b * S.gathered_elems;
			break;
		case EMB_TABLE_WISE:
			per_gpu = tab_bytes;
			gathered_rows = gb * tab_rows;
			gathered_elems = gb * tab_elems;
			a2a = b * S.tables * dim * B.e;
			break;
		case EMB_ROW_WISE:
			per_gpu = S.emb_params * (eb + state) / n;
			gathered_rows = gb * S.lookups / n;
			gathered_elems = gb * S.gathered_elems / n;
			rs = gb * S.tables * dim * B.e;
			break;
		case EMB_BALANCED:
			per_gpu = bal.bytes_per_gpu;
			gathered_rows = gb * bal.global_rows + b * bal.local_rows;
			gathered_elems = gb * bal.global_elems +
					 b * bal.local_elems;
			/* row-wise partial sums are reduce-scattered inside
			 * their group; across nodes they then travel with the
			 * whole tables' pooled vectors */
			a2a = b * (bal.tables[REC_TW] + (bal.rw_group > 0 &&
				   bal.rw_group < n ?
				   bal.tables[REC_RW] : 0)) * dim * B.e;
			rs = gb * bal.rw_tables_node * dim * B.e;
			/* data-parallel tables: all-reduced and updated with
			 * the dense parameters */
			Pdp = bal.dp_params;
			break;
		case EMB_COLUMN_WISE:
		default:
			per_gpu = S.emb_params * (eb + state) / n;
			gathered_rows = gb * S.lookups;
			gathered_elems = gb * S.gathered_elems / n;
			a2a = b * S.tables * dim * B.e;
			break;
		}
		/* rows updated by the sparse backward (data-parallel tables
		 * of a balanced placement are updated densely) */
		upd_elems = place == EMB_REPLICATED ? gb * S.gathered_elems :
			    place == EMB_BALANCED ? gb * bal.global_elems :
			    gathered_elems;
		upd_rows = place == EMB_REPLICATED ? gb * S.lookups :
			   place == EMB_BALANCED ? gb * bal.global_rows :
			   gathered_rows;
		/* lookup buffers: the rows this GPU gathers for the samples
		 * of other GPUs (model-parallel tables) and their gradients */
		{
			double mp = place == EMB_REPLICATED || n == 1 ? 0 :
				    place == EMB_BALANCED ? gb * bal.global_elems :
				    gb * S.gathered_elems / n;
			double extra = 2 * mp * eb;
			E.mem_bytes[MEM_BUFFERS] += extra;
			E.mem_bytes[MEM_RESERVED] += MEM_FRAGMENTATION_FRAC * extra;
			free_b -= extra * (1 + MEM_FRAGMENTATION_FRAC);
		}
		E.embedding_bytes_per_gpu = per_gpu;
		if (per_gpu > free_b && pl.offload == OFFLOAD_NONE)
			return est_problem(why, WLF_EMBEDDINGS, "embedding tables "
				       "need %.1f GB per GPU with %s placement, "
				       "%.1f GB are free on %s (expected "
				       "offload: uvm or host, row_wise, or "
				       "more GPUs)", per_gpu / 1e9,
				       rec_placement_names[place],
				       free_b > 0 ? free_b / 1e9 : 0, g->id);

		all.n = n;
		all.per_node = est_gcd(n, n < pl.gpus_per_node ? n : pl.gpus_per_node);
		rwg = all;
		if (place == EMB_BALANCED && bal.rw_group > 0 &&
		    bal.rw_group < n) {
			rwg.n = bal.rw_group;
			rwg.per_node = est_gcd(bal.rw_group, bal.rw_group <
					       pl.gpus_per_node ? bal.rw_group :
					       pl.gpus_per_node);
		}

		/* Forward: lookups, exchange, bottom MLP, interaction, top. */
		{
			double gbytes = gathered_elems * eb;
			double frac = recsys_gather_frac(&g->eff, row_bytes *
				(place == EMB_COLUMN_WISE ? 1.0 / n : 1.0));
			if (pl.offload != OFFLOAD_NONE) {
				double pcie = g->pcie_bytes_per_s / 2 * g->eff.host_pcie_frac;
				double rb_ = row_bytes;
				double wire = pl.offload == OFFLOAD_UVM ?
					gathered_rows * fmax(rb_, REC_UVM_PAGE_BYTES) :
					gbytes;
				double t = pcie > 0 ? wire / pcie : 0;
				put(&B, "emb.host_gather.fwd", BRK_MEMBOUND, 0,
				    wire, B.pg, t, 0, BOUND_NETWORK);
				E.host_bytes = S.emb_params * (eb + state);
			} else {
				elem(&B, "emb.gather.fwd", gbytes +
				     gathered_rows * 8, frac, 1);
			}
			if (rs > 0)
				coll(&B, &pl, "emb.reducescatter.fwd",
				     BRK_EP_COMM, COLL_REDUCE_SCATTER, rwg, rs);
			if (a2a > 0)
				coll(&B, &pl, "emb.alltoall.fwd", BRK_EP_COMM,
				     COLL_ALLTOALL, all, a2a);
		}
		prev = a->dense_features;
		for (i = 0; i < a->nbottom; i++) {
			char nm[24];
			snprintf(nm, sizeof(nm), "bottom%d", i + 1);
			linear(&B, nm, b, i ? prev : din, a->bottom[i], 0);
			prev = a->bottom[i];
		}
		if (a->interaction == RI_DCNV2) {
			double wdt = S.inter_width;
			for (i = 0; i < a->cross_layers; i++) {
				linear(&B, "cross.v", b, wdt, a->cross_rank, 0);
				linear(&B, "cross.w", b, a->cross_rank, wdt, 0);
			}
			elem(&B, "cross.elementwise.fwd", a->cross_layers * 4 *
			     b * wdt * B.e, 1, a->cross_layers);
		} else if (a->interaction == RI_NEUMF) {
			/* GMF product (read two, write one) and the tower's
			 * concatenation (a copy) */
			elem(&B, "gmf.fwd", 3 * b * S.gmf_width * B.e, 1, 1);
			elem(&B, "concat.fwd", 2 * b * S.inter_width * B.e, 1,
			     1);
		} else {
			double f = S.tables + 1;
			/* batched (f x d) x (d x f), then the triangle */
			double flop = 2 * b * f * f * dim;
			double bytes = B.e * b * (f * dim + f * f + S.inter_width);
			enum op_bound bd;
			double t = fmin(roof_time(g, B.pg, flop,
					     roof_gemm_eff(g, f, f, dim, b), bytes,
					     2, B.graphs, &bd),
					     roof_skinny_time(g, flop, bytes, B.graphs));
			put(&B, "interaction.fwd", BRK_GEMM, flop, bytes, B.pg, t,
			    roof_launch_part(g, B.pg, flop, roof_gemm_eff(g, f, f, dim,
								     b), bytes, t),
			    bd);
		}
		prev = S.inter_width;
		for (i = 0; i < a->ntop; i++) {
			char nm[24];
			snprintf(nm, sizeof(nm), "top%d", i + 1);
			if (i == a->ntop - 1)
				prev += S.gmf_width;
			linear(&B, nm, b, prev, a->top[i], 0);
			prev = a->top[i];
			if (i + 1 < a->ntop)
				elem(&B, "top.relu.fwd", 2 * b * prev * B.e, 1, 1);
		}
		elem(&B, "loss.fwd", b * 16, 1, 2);

		/* Backward. */
		B.out.bwd = 1;
		elem(&B, "loss.bwd", b * 16, 1, 1);
		for (i = a->ntop - 1; i >= 0; i--) {
			char nm[24];
			double in = i ? a->top[i - 1] : S.inter_width;
			snprintf(nm, sizeof(nm), "top%d", i + 1);
			if (i == a->ntop - 1)
				in += S.gmf_width;
			linear(&B, nm, b, in, a->top[i], 0);
		}
		if (a->interaction == RI_DCNV2) {
			double wdt = S.inter_width;
			for (i = 0; i < a->cross_layers; i++) {
				linear(&B, "cross.w", b, a->cross_rank, wdt, 0);
				linear(&B, "cross.v", b, wdt, a->cross_rank, 0);
			}
			elem(&B, "cross.elementwise.bwd", a->cross_layers * 6 *
			     b * wdt * B.e, 1, a->cross_layers);
		} else if (a->interaction == RI_NEUMF) {
			/* GMF: read the gradient and both inputs, write both
			 * gradients; the concatenation's gradient split */
			elem(&B, "gmf.bwd", 5 * b * S.gmf_width * B.e, 1, 1);
			elem(&B, "concat.bwd", 2 * b * S.inter_width * B.e, 1,
			     1);
		} else {
			double f = S.tables + 1;
			double flop = 4 * b * f * f * dim;
			double bytes = B.e * b * (2 * f * dim + f * f + S.inter_width);
			enum op_bound bd;
			double t = fmin(roof_time(g, B.pg, flop,
					     roof_gemm_eff(g, f, dim, f, b), bytes,
					     2, B.graphs, &bd),
					     roof_skinny_time(g, flop, bytes, B.graphs));
			put(&B, "interaction.bwd", BRK_GEMM, flop, bytes, B.pg, t,
			    roof_launch_part(g, B.pg, flop, roof_gemm_eff(g, f, dim, f,
								     b), bytes, t),
			    bd);
		}
		prev = a->dense_features;
		for (i = a->nbottom - 1; i >= 0; i--) {
			char nm[24];
			double in = i ? a->bottom[i - 1] : din;
			snprintf(nm, sizeof(nm), "bottom%d", i + 1);
			linear(&B, nm, b, in, a->bottom[i], i == 0);
		}
		if (rs > 0)
			coll(&B, &pl, "emb.allgather.bwd", BRK_EP_COMM,
			     COLL_ALLGATHER, rwg, rs / rwg.n);
		if (a2a > 0)
			coll(&B, &pl, "emb.alltoall.bwd", BRK_EP_COMM,
			     COLL_ALLTOALL, all, a2a);
		if (place == EMB_REPLICATED)
			coll(&B, &pl, "emb.grad_allgather", BRK_DP_COMM,
			     COLL_ALLGATHER, all, gb * S.gathered_elems * 4);
		{
			/* sparse update: the gradient of each pooled lookup
			 * (read), and for the distinct rows only (the share
			 * uniq of the lookups, and never more than the rows
			 * this GPU holds) the row and its optimizer state
			 * read and written (SGD: no state) */
			double ge = upd_elems;
			double held = per_gpu / (eb + state);
			double distinct = fmin(uniq * ge, held);
			double bytes = ge * 4 + distinct * (2 * eb + 2 * state) +
				       upd_rows * 16;
			double frac = recsys_gather_frac(&g->eff, row_bytes *
				(place == EMB_COLUMN_WISE ? 1.0 / n : 1.0));
			if (pl.offload != OFFLOAD_NONE) {
				double pcie = g->pcie_bytes_per_s / 2 * g->eff.host_pcie_frac;
				double wire = pl.offload == OFFLOAD_UVM ?
					(ge > 0 ? distinct / ge : 0) * upd_rows * 2 *
					fmax(row_bytes, REC_UVM_PAGE_BYTES) :
					distinct * (2 * eb + 2 * state);
				double t = pcie > 0 ? wire / pcie : 0;
				put(&B, "emb.host_update.bwd", BRK_MEMBOUND, 0,
				    wire, B.pg, t, 0, BOUND_NETWORK);
			} else {
				elem(&B, "emb.sort_dedup.bwd", upd_rows * 24,
				     1, 3);
				elem(&B, "emb.scatter_update.bwd", bytes, frac, 1);
			}
		}
		B.out.bwd = 0;
	}
	/* Dense gradients: all-reduce, overlapped with the backward. */
	memset(&parts, 0, sizeof(parts));
	parts.m = 1;
	parts.p = parts.v = 1;
	parts.lps = 1;
	if (n > 1) {
		struct op_cost c = { 0, 4 * (P + Pdp), 0, 0, PREC_FP32,
				     BOUND_NETWORK };
		c.time_s = comm_time_s(g, &pl, COLL_ALLREDUCE, all, c.bytes);
		B.out.stage = OPS_STEP;
		sink_put(&B.out, "dp.grad_allreduce", BRK_DP_COMM, &c, 1, 0);
		B.out.stage = OPS_LAYER;
		parts.dp_overlap = pl.grad_overlap;
	}
	{
		double bytes = (P + Pdp) * (w->train.optimizer == OPT_ADAMW ? 28 : 20);
		enum op_bound bd;
		double t = roof_time(g, PREC_FP32, 0, g->eff.elem_flop_frac, bytes, 2, B.graphs, &bd);
		put(&B, "optimizer.dense", BRK_OPTIMIZER, 0, bytes, PREC_FP32, t,
		    roof_launch_part(g, PREC_FP32, 0, g->eff.elem_flop_frac, bytes, t), BOUND_MEMORY);
		t = REC_EXTRA_KERNELS * roof_launch_s(g, pl.cuda_graphs) *
		    (1 - g->eff.launch_overlap_frac * 0.5);
		put(&B, "misc.kernels", BRK_LAUNCH, 0, 0, B.pg, t, t,
		    BOUND_LATENCY);
	}
	compose_step(&B.S, &parts, &E);

	E.plan = pl;
	E.params = E.active_params = P + S.emb_params;
	E.micro_batches = 1;
	E.samples_per_step = gb;
	if (w->rtrain.samples > 0)
		E.steps = ceil(w->rtrain.samples / gb);
	else
		E.steps = ceil(w->rtrain.dataset_size / gb) * w->rtrain.epochs;
	/* model FLOPs: 6 x dense multiply-adds... 3 x forward GEMM FLOPs */
	{
		double f = 0;
		prev = a->dense_features;
		for (i = 0; i < a->nbottom; i++) {
			f += prev * a->bottom[i];
			prev = a->bottom[i];
		}
		prev = S.inter_width;
		for (i = 0; i < a->ntop; i++) {
			f += prev * a->top[i];
			prev = a->top[i];
		}
		if (a->interaction == RI_DCNV2)
			f += a->cross_layers * 2.0 * S.inter_width * a->cross_rank;
		else
			f += (S.tables + 1) * (S.tables + 1) * dim;
		E.model_flop_per_step = 6 * f * gb;
	}
	E.hw_flop_per_step = E.model_flop_per_step;
	if (pl.offload == OFFLOAD_NONE) {
		E.mem_bytes[MEM_WEIGHTS] += E.embedding_bytes_per_gpu * eb /
					    (eb + state);
		E.mem_bytes[MEM_OPTIMIZER] += E.embedding_bytes_per_gpu * state /
					      (eb + state);
	} else {
		E.embedding_bytes_per_gpu = 0;
	}
	if (compose_finish(&E, g, w->train.precision, 0, ws, why))
		return -1;
	if (!E.fits)
		snprintf(E.fit_advice, sizeof(E.fit_advice), "needs %.1f GB of "
			 "%.1f GB: try row_wise tables, offload: host, a "
			 "smaller global_batch or more GPUs",
			 E.memory_per_gpu_bytes / 1e9, g->memory_bytes / 1e9);
	if (place == EMB_BALANCED)
		est_warn(&E, "embeddings: %s%s placement, %.0f tables data-parallel, "
		     "%.0f whole on one GPU, %.0f row-wise over all %d",
		     w->plan.embeddings == EMB_AUTO ? "auto chose " : "",
		     rec_placement_names[place], bal.tables[REC_DP],
		     bal.tables[REC_TW], bal.tables[REC_RW], n);
	else if (w->plan.embeddings == EMB_AUTO)
		est_warn(&E, "embeddings: auto chose %s", rec_placement_names[place]);
	*out = E;
	return 0;
}
