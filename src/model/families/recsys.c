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

#include "../../util/units.h"
#include "../core/comm.h"
#include "../core/family.h"
#include "../core/mem_reserve.h"
#include "../core/opkit.h"
#include "../core/opsink.h"
#include "../core/roofline.h"

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
/* Host time a sample of a GPU's batch costs when the training loop reads
 * and assembles each batch on the host and waits for it
 * (training.input_on_host: DeepLearningExamples' binary Criteo loader),
 * charged after the GPU work, not under it.  Fitted, not measured: the
 * rms log error of the six DeepLearningExamples DLRM runs
 * (tests/validation/recsys.csv) is least at 100 ns a sample, within the
 * stated bound 0..200 ns (docs/model.md section 7). */
#define REC_HOST_INPUT_S 100e-9

double recsys_gather_frac(const struct roof_eff *e, double row_bytes)
{
	double r32 = 32 * ceil(row_bytes / 32);
	if (!(row_bytes > 0))
		return e->gather_max_frac;
	return e->gather_max_frac * r32 / (r32 + e->gather_half_bytes) *
	       row_bytes / r32;
}

/* ---------------------------------------------------------------------- */

/* Builder state: how an operator's time is computed; the sink lists it
 * and sums it for the step. */
struct rb {
	struct op_sink out;
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

/* The kit (opkit.h) over this builder's sink. */
static struct kit kit_of(struct rb *B, const struct plan *pl)
{
	/* no memo: its few collectives differ */
	struct kit K = { &B->out, B->g, pl, B->graphs, NULL, NULL };
	return K;
}

/* A GEMM reading both operands and writing its result once; a thin one may
 * run on CUDA cores. */
static void gemm(struct rb *B, const char *name, double m, double n, double k)
{
	struct kit K = kit_of(B, NULL);
	kit_gemm(&K, name, BRK_GEMM, B->pg, m, n, k, 1, 1,
		 B->e * (m * k + k * n + m * n), GEMM_OR_THIN, 1);
}

/* Memory-bound kernels; `frac` scales the streaming bandwidth. */
static void elem(struct rb *B, const char *name, double bytes, double frac,
		 double kernels)
{
	struct kit K = kit_of(B, NULL);
	kit_stream(&K, name, BRK_MEMBOUND, B->pg, bytes, frac > 0 ? frac : 1, 0,
		   kernels, 1);
}

/*
 * An activation pass a stack may fuse into the GEMM before it (a bias and
 * ReLU epilogue): only the share unfused_frac of its bytes and kernels
 * runs on its own.
 */
static void fusable(struct rb *B, const char *name, double bytes,
		    double kernels)
{
	double u = B->g->eff.unfused_frac;
	if (u > 0)
		elem(B, name, bytes * u, 1, kernels * u);
}

/* Collective c of `bytes` over grp; nothing when there are none. */
static void coll(struct rb *B, const struct plan *pl, const char *name,
		 enum brk cat, enum comm_coll c, struct comm_group grp,
		 double bytes)
{
	struct kit K = kit_of(B, pl);
	if (bytes > 0)
		kit_coll(&K, name, cat, B->pg, c, grp, bytes);
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

/* Resolve and check the plan and the model against the GPU.  0 or -1 with
 * *why. */
static int recsys_plan(const struct workload *w, const struct gpu *g,
		       struct plan *pl, struct plan_problem *why)
{
	const struct recsys_arch *a = &w->rec;
	double gb = w->train.global_batch;
	int i;

	est_data_parallel_plan(&w->plan, g, pl);
	if (a->ntables < 1 || (a->interaction == RI_TWO_TOWER ?
			       a->nquery < 1 || a->nitem < 1 : a->ntop < 1))
		return est_problem(why, WLF_MODEL, "the model needs embedding "
			       "tables and a top MLP or two towers (expected "
			       "embedding_tables and top_mlp, or query_tower "
			       "and item_tower)");
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

/* A recommender step as its parts are worked out. */
struct rstep {
	const struct workload *w;
	const struct recsys_arch *a;
	const struct gpu *g;
	struct plan pl;
	struct rec_summary S;
	struct rec_balance bal;
	enum rec_placement place;
	struct comm_group all;      /* all GPUs */
	struct comm_group rwg[REC_RS_COUNT]; /* groups of the row-wise
					       reduce-scatters: one node,
					       several */
	int n;                      /* GPUs */
	double gb, b;               /* samples per step, per GPU */
	double eb, state;           /* bytes per table element, and of its
				       optimizer state */
	double e;                   /* bytes per dense activation element */
	double dim, row_bytes;      /* table width, bytes of an average row */
	double din;                 /* dense features padded to 8 for
				       tensor-core GEMMs */
	double P, Pdp;              /* dense parameters; data-parallel table
				       parameters (balanced placement) */
	/* The placement's work on one GPU per step. */
	double per_gpu;             /* table bytes (with optimizer state) */
	double gathered_rows, gathered_elems;
	double a2a, rs[REC_RS_COUNT]; /* bytes of the all-to-all and of the
				       row-wise reduce-scatter */
	double upd_rows, upd_elems; /* rows the sparse backward updates */
};

/* Dense memory per GPU into E->mem_bytes; returns what is left for the
 * tables. */
static double dense_memory(const struct rstep *R, struct estimate *E)
{
	const struct recsys_arch *a = R->a;
	double act, free_b = mem_usable_bytes(R->g, &R->pl);
	int i, k;

	/* activations: every MLP layer input and output, the interaction
	 * input and output, the pooled embeddings (per sample) */
	act = R->S.pooled_width + R->S.inter_width + R->S.gmf_width +
	      a->dense_features;
	for (i = 0; i < a->nbottom; i++)
		act += 2.0 * a->bottom[i];
	for (i = 0; i < a->ntop; i++)
		act += 2.0 * a->top[i];
	if (a->interaction == RI_DCNV2)
		act += a->cross_layers * (2.0 * R->S.inter_width + a->cross_rank);
	for (i = 0; i < a->nquery; i++)
		act += 2.0 * a->query[i];
	for (i = 0; i < a->nitem; i++)
		act += 2.0 * a->item[i];
	act += R->S.query_width + R->S.item_width;
	act *= R->b * R->e;
	/* two_tower: the b x b logits and their fp32 log-probabilities */
	if (a->interaction == RI_TWO_TOWER)
		act += R->b * R->b * (R->e + 4);
	E->mem_bytes[MEM_WEIGHTS] = 4 * R->P;
	E->mem_bytes[MEM_GRADS] = 4 * R->P;
	E->mem_bytes[MEM_OPTIMIZER] = opt_state_bytes(R->w->train.optimizer) * R->P;
	E->mem_bytes[MEM_ACTIVATIONS] = act;
	/* the gradients of the local batch's pooled vectors (the vectors
	 * themselves are activations); the rows gathered for other GPUs'
	 * samples are added with the placement */
	E->mem_bytes[MEM_BUFFERS] = R->b * R->S.pooled_width * R->e;
	E->mem_bytes[MEM_RESERVED] = mem_reserved_bytes(act + E->mem_bytes[MEM_BUFFERS]);
	for (k = 0; k < MEM_COUNT; k++)
		free_b -= E->mem_bytes[k];
	return free_b;
}

/* Seconds of the embedding exchanges of one step, forward and backward:
 * an all-to-all of a2a bytes over all GPUs each way, a reduce-scatter of
 * rs[i] bytes over row-wise group i and its all-gather backward. */
static double exchange_s(const struct rstep *R, double a2a, const double *rs)
{
	double t = 2 * comm_time_s(R->g, &R->pl, COLL_ALLTOALL, R->all, a2a);
	for (int i = 0; i < REC_RS_COUNT; i++)
		t += comm_time_s(R->g, &R->pl, COLL_REDUCE_SCATTER, R->rwg[i],
				 rs[i]) +
		     comm_time_s(R->g, &R->pl, COLL_ALLGATHER, R->rwg[i], rs[i]);
	return t;
}

/*
 * The exchanges of a balanced placement.  Row-wise partial sums are
 * reduce-scattered inside their group, and across nodes travel on with
 * the whole tables' pooled vectors by the all-to-all; or, for the tables
 * whose non-zero partial sums are fewer bytes (recsys_balance()), only
 * those go, straight to the samples' GPUs by the all-to-all.  The
 * faster of the two is taken, as a planner that weighs communication
 * would (HugeCTR's sharding plan takes the ratio of memory to
 * communication bandwidth, calibration-cases.yaml mem_comm_bw_ratio): on
 * NVSwitch the all-to-all of a one-hot table's sums, on PCIe across two
 * sockets (all-to-all at 0.19 of a link) often the reduce-scatter.
 */
static void balanced_exchange(struct rstep *R)
{
	const struct rec_balance *bal = &R->bal;
	double v = R->b * R->dim * R->e, rwv = R->gb * R->dim * R->e;
	int onward = bal->rw_group > 0 && bal->rw_group < R->n;
	double a2a_dense = v * (bal->tables[REC_TW] +
				(onward ? bal->tables[REC_RW] : 0));
	double rs_dense[REC_RS_COUNT], rs_split[REC_RS_COUNT];
	double a2a_split = v * (bal->tables[REC_TW] + bal->rw_sparse_hits +
				(onward ? bal->tables[REC_RW] -
				 bal->tables[REC_RW_SPARSE] : 0));
	int split, i;

	for (i = 0; i < REC_RS_COUNT; i++) {
		rs_dense[i] = rwv * bal->rs_all[i];
		rs_split[i] = rwv * bal->rs_tables[i];
	}
	split = bal->tables[REC_RW_SPARSE] > 0 &&
		exchange_s(R, a2a_split, rs_split) <
		exchange_s(R, a2a_dense, rs_dense);
	R->a2a = split ? a2a_split : a2a_dense;
	for (i = 0; i < REC_RS_COUNT; i++)
		R->rs[i] = split ? rs_split[i] : rs_dense[i];
}

/* The lookups, exchanges and updates of placement R->place. */
static void placement_work(struct rstep *R)
{
	const struct rec_summary *S = &R->S;
	const struct rec_balance *bal = &R->bal;
	double tab_bytes, tab_elems, tab_rows, gb = R->gb, b = R->b, n = R->n;
	double row = R->eb + R->state;

	R->a2a = R->rs[REC_RS_NODE] = R->rs[REC_RS_WIDE] = 0;
	switch (R->place) {
	case EMB_REPLICATED:
		R->per_gpu = S->emb_params * row;
		R->gathered_rows = b * S->lookups;
		R->gathered_elems = b * S->gathered_elems;
		break;
	case EMB_TABLE_WISE:
		recsys_table_wise(R->a, R->n, row, &tab_bytes, &tab_elems, &tab_rows);
		R->per_gpu = tab_bytes;
		R->gathered_rows = gb * tab_rows;
		R->gathered_elems = gb * tab_elems;
		R->a2a = b * S->tables * R->dim * R->e;
		break;
	case EMB_ROW_WISE:
		R->per_gpu = S->emb_params * row / n;
		R->gathered_rows = gb * S->lookups / n;
		R->gathered_elems = gb * S->gathered_elems / n;
		R->rs[REC_RS_NODE] = gb * S->tables * R->dim * R->e;
		break;
	case EMB_BALANCED:
		R->per_gpu = bal->bytes_per_gpu;
		R->gathered_rows = gb * bal->global_rows + b * bal->local_rows;
		R->gathered_elems = gb * bal->global_elems +
				    b * bal->local_elems;
		balanced_exchange(R);
		/* data-parallel tables: all-reduced and updated with the
		 * dense parameters */
		R->Pdp = bal->dp_params;
		break;
	case EMB_COLUMN_WISE:
	default:
		R->per_gpu = S->emb_params * row / n;
		R->gathered_rows = gb * S->lookups;
		R->gathered_elems = gb * S->gathered_elems / n;
		R->a2a = b * S->tables * R->dim * R->e;
		break;
	}
	/* rows updated by the sparse backward (data-parallel tables of a
	 * balanced placement are updated densely) */
	R->upd_elems = R->place == EMB_REPLICATED ? gb * S->gathered_elems :
		       R->place == EMB_BALANCED ? gb * bal->global_elems :
		       R->gathered_elems;
	R->upd_rows = R->place == EMB_REPLICATED ? gb * S->lookups :
		      R->place == EMB_BALANCED ? gb * bal->global_rows :
		      R->gathered_rows;
}

/*
 * Place the tables (auto: replicated on one GPU, else balanced when its
 * fullest GPU fits in `free_b`, else row-wise), add the lookup buffers to
 * E's memory and check the tables fit.  0 or -1 with *why.
 */
static int place_tables(struct rstep *R, struct estimate *E, double free_b,
			struct plan_problem *why)
{
	const struct plan *pl = &R->pl;
	int n = R->n;
	double mp, extra;

	R->place = (enum rec_placement)pl->embeddings;
	recsys_balance(R->a, n, pl->gpus_per_node, R->b, R->e,
		       R->eb + R->state, &R->bal);
	if (R->place == EMB_AUTO)
		R->place = n == 1 ? EMB_REPLICATED :
			   R->bal.bytes_per_gpu <= free_b ? EMB_BALANCED :
							    EMB_ROW_WISE;
	R->all = comm_group_of(n, pl->gpus_per_node);
	/* row_wise: every table over all GPUs; balanced: over one node's
	 * GPUs, or the widest group of nodes */
	R->rwg[REC_RS_NODE] = R->rwg[REC_RS_WIDE] = R->all;
	if (R->place == EMB_BALANCED) {
		R->rwg[REC_RS_NODE] = comm_group_of(R->bal.rw_node_group,
						    pl->gpus_per_node);
		if (R->bal.rw_group > 0)
			R->rwg[REC_RS_WIDE] = comm_group_of(R->bal.rw_group,
							    pl->gpus_per_node);
	}
	placement_work(R);
	/* lookup buffers: the rows this GPU gathers for the samples of other
	 * GPUs (model-parallel tables) and their gradients */
	mp = R->place == EMB_REPLICATED || n == 1 ? 0 :
	     R->place == EMB_BALANCED ? R->gb * R->bal.global_elems :
	     R->gb * R->S.gathered_elems / n;
	extra = 2 * mp * R->eb;
	E->mem_bytes[MEM_BUFFERS] += extra;
	E->mem_bytes[MEM_RESERVED] += MEM_FRAGMENTATION_FRAC * extra;
	free_b -= extra * (1 + MEM_FRAGMENTATION_FRAC);
	E->embedding_bytes_per_gpu = R->per_gpu;
	/* When the dense part alone overflows, the tables are not what to
	 * change: the estimate says it does not fit and why. */
	if (R->per_gpu > free_b && free_b > 0 && pl->offload == OFFLOAD_NONE)
		return est_problem(why, WLF_EMBEDDINGS, "embedding tables need "
				   "%.1f GB per GPU with %s placement, %.1f GB "
				   "are free on %s (expected offload: uvm or "
				   "host, row_wise, or more GPUs)",
				   R->per_gpu / 1e9,
				   rec_placement_names[R->place],
				   free_b > 0 ? free_b / 1e9 : 0, R->g->id);
	return 0;
}

/* Achieved share of bandwidth of the placement's row gathers. */
static double gather_frac(const struct rstep *R)
{
	return recsys_gather_frac(&R->g->eff, R->row_bytes *
				  (R->place == EMB_COLUMN_WISE ? 1.0 / R->n :
				   1.0));
}

/* Host-offloaded tables: `wire` bytes over PCIe. */
static void host_transfer(struct rb *B, const struct rstep *R,
			  const char *name, double wire)
{
	double pcie = R->g->pcie_bytes_per_s / 2 * R->g->eff.host_pcie_frac;
	double t = pcie > 0 ? wire / pcie : 0;
	put(B, name, BRK_MEMBOUND, 0, wire, B->pg, t, 0, BOUND_NETWORK);
}

/*
 * The dot-product interaction, forward or backward.  Unfused: batched
 * (f x d) x (d x f) products written out whole, then the triangle and the
 * concatenation.  A fused kernel keeps each sample's f x f products in
 * registers and writes the top MLP's input directly: it streams the inputs
 * (backward: and the output gradient) once.  The share unfused_frac of the
 * work runs unfused.
 */
static void dot_interaction(struct rb *B, const struct rstep *R, int bwd)
{
	const struct gpu *g = R->g;
	double f = R->S.tables + 1, b = R->b, dim = R->dim;
	double flop = (bwd ? 4 : 2) * b * f * f * dim;
	double io = (bwd ? 2 : 1) * f * dim + R->S.inter_width;
	double bytes = B->e * b * (io + f * f), fbytes = B->e * b * io;
	double eff = bwd ? roof_gemm_eff(g, B->pg, f, dim, f, b) :
			   roof_gemm_eff(g, B->pg, f, f, dim, b);
	double u = g->eff.unfused_frac, flaunch;
	enum op_bound bd, fbd;
	double t = fmin(roof_time(g, B->pg, flop, eff, bytes, 2, B->graphs,
				  &bd),
			roof_skinny_time(g, flop, bytes, B->graphs));
	double launch = roof_launch_part(g, B->pg, flop, eff, bytes, t);
	double tf = roof_time_launch(g, B->pg, flop, 1, fbytes, 1, B->graphs,
				     &fbd, &flaunch);

	if ((1 - u) * tf > u * t)
		bd = fbd;
	put(B, bwd ? "interaction.bwd" : "interaction.fwd", BRK_GEMM, flop,
	    u * bytes + (1 - u) * fbytes, B->pg, u * t + (1 - u) * tf,
	    u * launch + (1 - u) * flaunch, bd);
}

/*
 * One tower's linear layers from width `in`, forward or backward, a ReLU
 * between layers (none after the last: its output is the embedding).  The
 * first layer's input gradient is the pooled embeddings' gradient.
 */
static void tower(struct rb *B, const char *side, double b, double in,
		  const int *w, int n)
{
	char nm[24];
	if (B->out.bwd) {
		for (int i = n - 1; i >= 0; i--) {
			snprintf(nm, sizeof(nm), "%s%d", side, i + 1);
			linear(B, nm, b, i ? w[i - 1] : in, w[i], 0);
		}
		return;
	}
	for (int i = 0; i < n; i++) {
		snprintf(nm, sizeof(nm), "%s%d", side, i + 1);
		linear(B, nm, b, i ? w[i - 1] : in, w[i], 0);
		snprintf(nm, sizeof(nm), "%s.relu.fwd", side);
		if (i + 1 < n)
			fusable(B, nm, 2 * b * w[i] * B->e, 1);
	}
}

/*
 * Two towers and the in-batch softmax: each of the b local queries
 * against the b local items, a (b x d)(d x b) GEMM of logits; the softmax
 * cross-entropy over each row runs in fp32 (autocast's fp32 operators):
 * forward it reads the logits and writes the log-probabilities the
 * backward reads, backward it writes the logits' gradient; then the two
 * gradient GEMMs (b x b)(b x d), one per tower.
 */
static void two_tower(struct rb *B, const struct rstep *R)
{
	const struct recsys_arch *a = R->a;
	double b = R->b, d = R->S.inter_width, logits = b * b;

	if (!B->out.bwd) {
		tower(B, "query", b, R->S.query_width, a->query, a->nquery);
		tower(B, "item", b, R->S.item_width, a->item, a->nitem);
		gemm(B, "logits.fwd", b, b, d);
		elem(B, "softmax_xent.fwd", logits * (B->e + 4), 1, 2);
		return;
	}
	elem(B, "softmax_xent.bwd", logits * (4 + B->e), 1, 1);
	gemm(B, "logits.bwd_query", b, d, b);
	gemm(B, "logits.bwd_item", b, d, b);
	tower(B, "item", b, R->S.item_width, a->item, a->nitem);
	tower(B, "query", b, R->S.query_width, a->query, a->nquery);
}

/* Forward: lookups, exchange, bottom MLP, interaction, top MLP, loss. */
static void forward(struct rb *B, struct rstep *R, struct estimate *E)
{
	const struct recsys_arch *a = R->a;
	const struct rec_summary *S = &R->S;
	double b = R->b, prev;
	int i;

	if (R->pl.offload != OFFLOAD_NONE) {
		host_transfer(B, R, "emb.host_gather.fwd",
			      R->pl.offload == OFFLOAD_UVM ?
			      R->gathered_rows * fmax(R->row_bytes,
						      REC_UVM_PAGE_BYTES) :
			      R->gathered_elems * R->eb);
		E->host_bytes = S->emb_params * (R->eb + R->state);
	} else {
		elem(B, "emb.gather.fwd", R->gathered_elems * R->eb +
		     R->gathered_rows * 8, gather_frac(R), 1);
	}
	coll(B, &R->pl, "emb.reducescatter.fwd", BRK_EP_COMM,
	     COLL_REDUCE_SCATTER, R->rwg[REC_RS_NODE], R->rs[REC_RS_NODE]);
	coll(B, &R->pl, "emb.reducescatter_nodes.fwd", BRK_EP_COMM,
	     COLL_REDUCE_SCATTER, R->rwg[REC_RS_WIDE], R->rs[REC_RS_WIDE]);
	if (R->a2a > 0)
		coll(B, &R->pl, "emb.alltoall.fwd", BRK_EP_COMM, COLL_ALLTOALL,
		     R->all, R->a2a);
	prev = a->dense_features;
	for (i = 0; i < a->nbottom; i++) {
		char nm[24];
		snprintf(nm, sizeof(nm), "bottom%d", i + 1);
		linear(B, nm, b, i ? prev : R->din, a->bottom[i], 0);
		prev = a->bottom[i];
	}
	if (a->interaction == RI_DCNV2) {
		double wdt = S->inter_width;
		for (i = 0; i < a->cross_layers; i++) {
			linear(B, "cross.v", b, wdt, a->cross_rank, 0);
			linear(B, "cross.w", b, a->cross_rank, wdt, 0);
		}
		elem(B, "cross.elementwise.fwd", a->cross_layers * 4 * b * wdt *
		     B->e, 1, a->cross_layers);
	} else if (a->interaction == RI_NEUMF) {
		/* GMF product (read two, write one) and the tower's
		 * concatenation (a copy) */
		elem(B, "gmf.fwd", 3 * b * S->gmf_width * B->e, 1, 1);
		elem(B, "concat.fwd", 2 * b * S->inter_width * B->e, 1, 1);
	} else if (a->interaction == RI_TWO_TOWER) {
		two_tower(B, R);
		return; /* its loss is the softmax; no top MLP */
	} else {
		dot_interaction(B, R, 0);
	}
	prev = S->inter_width;
	for (i = 0; i < a->ntop; i++) {
		char nm[24];
		snprintf(nm, sizeof(nm), "top%d", i + 1);
		if (i == a->ntop - 1)
			prev += S->gmf_width;
		linear(B, nm, b, prev, a->top[i], 0);
		prev = a->top[i];
		if (i + 1 < a->ntop)
			fusable(B, "top.relu.fwd", 2 * b * prev * B->e, 1);
	}
	elem(B, "loss.fwd", b * 16, 1, 2);
}

/*
 * The sparse update: the gradient of each pooled lookup (read), and for
 * the distinct rows only (the share unique_rows of the lookups, never more
 * than the rows this GPU holds) the row and its optimizer state read and
 * written (SGD: no state).
 */
static void sparse_update(struct rb *B, const struct rstep *R)
{
	double uniq = R->w->rtrain.unique_rows > 0 ? R->w->rtrain.unique_rows : 1;
	double ge = R->upd_elems, eb = R->eb, state = R->state;
	double held = R->per_gpu / (eb + state);
	double distinct = fmin(uniq * ge, held);
	double bytes = ge * R->e + distinct * (2 * eb + 2 * state) +
		       R->upd_rows * 16;

	if (R->pl.offload != OFFLOAD_NONE) {
		host_transfer(B, R, "emb.host_update.bwd",
			      R->pl.offload == OFFLOAD_UVM ?
			      (ge > 0 ? distinct / ge : 0) * R->upd_rows * 2 *
			      fmax(R->row_bytes, REC_UVM_PAGE_BYTES) :
			      distinct * (2 * eb + 2 * state));
	} else {
		elem(B, "emb.sort_dedup.bwd", R->upd_rows * 24, 1, 3);
		elem(B, "emb.scatter_update.bwd", bytes, gather_frac(R), 1);
	}
}

/* Backward: the forward's operators in reverse, then the exchanges and the
 * sparse update. */
static void backward(struct rb *B, const struct rstep *R)
{
	const struct recsys_arch *a = R->a;
	const struct rec_summary *S = &R->S;
	double b = R->b;
	int i;

	B->out.bwd = 1;
	if (a->interaction != RI_TWO_TOWER)
		elem(B, "loss.bwd", b * 16, 1, 1);
	for (i = a->ntop - 1; i >= 0; i--) {
		char nm[24];
		double in = i ? a->top[i - 1] : S->inter_width;
		snprintf(nm, sizeof(nm), "top%d", i + 1);
		if (i == a->ntop - 1)
			in += S->gmf_width;
		linear(B, nm, b, in, a->top[i], 0);
	}
	if (a->interaction == RI_DCNV2) {
		double wdt = S->inter_width;
		for (i = 0; i < a->cross_layers; i++) {
			linear(B, "cross.w", b, a->cross_rank, wdt, 0);
			linear(B, "cross.v", b, wdt, a->cross_rank, 0);
		}
		elem(B, "cross.elementwise.bwd", a->cross_layers * 6 * b * wdt *
		     B->e, 1, a->cross_layers);
	} else if (a->interaction == RI_NEUMF) {
		/* GMF: read the gradient and both inputs, write both
		 * gradients; the concatenation's gradient split */
		elem(B, "gmf.bwd", 5 * b * S->gmf_width * B->e, 1, 1);
		elem(B, "concat.bwd", 2 * b * S->inter_width * B->e, 1, 1);
	} else if (a->interaction == RI_TWO_TOWER) {
		two_tower(B, R);
	} else {
		dot_interaction(B, R, 1);
	}
	for (i = a->nbottom - 1; i >= 0; i--) {
		char nm[24];
		double in = i ? a->bottom[i - 1] : R->din;
		snprintf(nm, sizeof(nm), "bottom%d", i + 1);
		linear(B, nm, b, in, a->bottom[i], i == 0);
	}
	coll(B, &R->pl, "emb.allgather.bwd", BRK_EP_COMM, COLL_ALLGATHER,
	     R->rwg[REC_RS_NODE], R->rs[REC_RS_NODE]);
	coll(B, &R->pl, "emb.allgather_nodes.bwd", BRK_EP_COMM, COLL_ALLGATHER,
	     R->rwg[REC_RS_WIDE], R->rs[REC_RS_WIDE]);
	if (R->a2a > 0)
		coll(B, &R->pl, "emb.alltoall.bwd", BRK_EP_COMM, COLL_ALLTOALL,
		     R->all, R->a2a);
	if (R->place == EMB_REPLICATED)
		coll(B, &R->pl, "emb.grad_allgather", BRK_DP_COMM,
		     COLL_ALLGATHER, R->all, R->gb * S->gathered_elems * 4);
	sparse_update(B, R);
	B->out.bwd = 0;
}

/* Once per step: the dense gradients' all-reduce (overlapped with the
 * backward where the plan says so), the dense optimizer, and the kernels
 * no operator lists. */
static void step_work(struct rb *B, const struct rstep *R,
		      struct step_parts *parts)
{
	const struct gpu *g = R->g;
	double dense = R->P + R->Pdp;
	double bytes = dense * (R->w->train.optimizer == OPT_ADAMW ? 28 : 20);
	enum op_bound bd;
	double t;

	memset(parts, 0, sizeof(*parts));
	parts->m = 1;
	parts->p = parts->v = 1;
	parts->lps = 1;
	if (R->n > 1) {
		struct op_cost c = { 0, 4 * dense, 0, 0, PREC_FP32,
				     BOUND_NETWORK };
		c.time_s = comm_time_s(g, &R->pl, COLL_ALLREDUCE, R->all,
				       c.bytes);
		B->out.stage = OPS_STEP;
		sink_coll(&B->out,
			  sink_put(&B->out, "dp.grad_allreduce", BRK_DP_COMM, &c, 1, 0),
			  COLL_ALLREDUCE, R->all);
		B->out.stage = OPS_LAYER;
		parts->dp_overlap = R->pl.grad_overlap;
		parts->overlap_slow_frac = g->eff.overlap_slow_frac;
	}
	t = roof_time(g, PREC_FP32, 0, g->eff.elem_flop_frac, bytes, 2,
		      B->graphs, &bd);
	put(B, "optimizer.dense", BRK_OPTIMIZER, 0, bytes, PREC_FP32, t,
	    roof_launch_part(g, PREC_FP32, 0, g->eff.elem_flop_frac, bytes, t),
	    BOUND_MEMORY);
	t = REC_EXTRA_KERNELS * roof_launch_s(g, R->pl.cuda_graphs) *
	    (1 - g->eff.launch_overlap_frac * 0.5);
	put(B, "misc.kernels", BRK_LAUNCH, 0, 0, B->pg, t, t, BOUND_LATENCY);
	if (R->w->rtrain.input_on_host) {
		t = R->b * REC_HOST_INPUT_S;
		put(B, "input.host_batch", BRK_LAUNCH, 0, 0, B->pg, t, t,
		    BOUND_LATENCY);
	}
}

/* Model FLOPs per step: 6 x the dense multiply-adds (3 x the forward
 * GEMM FLOPs). */
static double model_flop(const struct rstep *R)
{
	const struct recsys_arch *a = R->a;
	double f = recsys_mlp_macs(a->dense_features, a->bottom, a->nbottom) +
		   recsys_mlp_macs(R->S.inter_width, a->top, a->ntop) + recsys_top_gmf(a, &R->S);

	/* neumf's GMF product is element-wise: no multiply-adds counted */
	if (a->interaction == RI_DCNV2)
		f += a->cross_layers * 2.0 * R->S.inter_width * a->cross_rank;
	else if (a->interaction == RI_DOT)
		f += (R->S.tables + 1) * (R->S.tables + 1) * R->dim;
	else if (a->interaction == RI_TWO_TOWER) /* and b logits a sample */
		f += recsys_mlp_macs(R->S.query_width, a->query, a->nquery) +
		     recsys_mlp_macs(R->S.item_width, a->item, a->nitem) +
		     R->b * R->S.inter_width;
	return 6 * f * R->gb;
}

/* What a plan that does not fit could change, and which placement ran. */
static void recsys_advice(const struct rstep *R, struct estimate *E)
{
	const struct rec_balance *bal = &R->bal;
	int chose = R->w->plan.embeddings == EMB_AUTO;

	if (!E->fits) {
		char need[32], have[32];
		snprintf(E->fit_advice, sizeof(E->fit_advice), "needs %s of %s: "
			 "try row_wise tables, offload: host, a smaller "
			 "global_batch or more GPUs",
			 tc_fmt_bytes(E->memory_per_gpu_bytes, need, sizeof(need)),
			 tc_fmt_bytes(R->g->memory_bytes, have, sizeof(have)));
	}
	if (R->place == EMB_BALANCED)
		est_warn(E, "embeddings: %s%s placement, %.0f tables "
			 "data-parallel, %.0f whole on one GPU, %.0f row-wise "
			 "over all %d", chose ? "auto chose " : "",
			 rec_placement_names[R->place], bal->tables[REC_DP],
			 bal->tables[REC_TW], bal->tables[REC_RW], R->n);
	else if (chose)
		est_warn(E, "embeddings: auto chose %s",
			 rec_placement_names[R->place]);
}

/* The recommender family's own state: the step's parts and the builder. */
struct rec_run {
	struct rstep R;
	struct rb B;
};

/* The plan, then the placement of the tables in what the dense part
 * leaves free: it decides the step's operators. */
static int plan_hook(struct fam_run *r, struct plan_problem *why)
{
	struct rstep *R = &((struct rec_run *)r->st)->R;
	const struct workload *w = r->w;

	memset(R, 0, sizeof(*R));
	if (recsys_plan(w, r->g, &R->pl, why))
		return -1;
	R->w = w;
	R->a = &w->rec;
	R->g = r->g;
	R->n = R->pl.count;
	recsys_summary(R->a, &R->S);
	R->gb = w->train.global_batch;
	R->b = R->gb / R->n;
	R->eb = tc_prec_bytes(w->rtrain.emb_precision);
	if (!(R->eb > 0))
		R->eb = 4;
	R->state = opt_table_state_bytes(w->train.optimizer);
	R->e = w->train.precision == PREC_FP32 ||
	       w->train.precision == PREC_TF32 ? 4 : 2;
	R->dim = R->a->table[0].dim;
	R->row_bytes = R->S.gathered_elems / R->S.lookups * R->eb; /* average */
	R->din = 8 * ceil(R->a->dense_features / 8.0);
	R->P = R->S.dense_params;
	r->pl = R->pl;
	/* Dense memory first: it decides what is left for tables. */
	return place_tables(R, r->E, dense_memory(R, r->E), why);
}

static void build_hook(struct fam_run *r)
{
	struct rec_run *st = r->st;
	struct rb *B = &st->B;

	memset(B, 0, sizeof(*B));
	sink_start(&B->out, r->ws, &r->S, 0);
	B->g = r->g;
	B->pg = r->w->train.precision;
	B->e = st->R.e;
	B->graphs = st->R.pl.cuda_graphs;
	forward(B, &st->R, r->E);
	backward(B, &st->R);
	step_work(B, &st->R, &r->P);
}

static void counts_hook(struct fam_run *r)
{
	const struct rstep *R = &((struct rec_run *)r->st)->R;
	const struct workload *w = r->w;
	struct estimate *E = r->E;

	E->params = E->active_params = R->P + R->S.emb_params;
	E->micro_batches = 1;
	E->samples_per_step = R->gb;
	if (w->rtrain.samples > 0)
		E->steps = ceil(w->rtrain.samples / R->gb);
	else
		E->steps = ceil(w->rtrain.dataset_size / R->gb) * w->rtrain.epochs;
	E->model_flop_per_step = model_flop(R);
	E->hw_flop_per_step = E->model_flop_per_step;
}

/* The dense part and the lookup buffers were set with the placement; the
 * tables on the GPU split into weights and optimizer state. */
static void memory_hook(struct fam_run *r)
{
	const struct rstep *R = &((struct rec_run *)r->st)->R;
	struct estimate *E = r->E;

	if (R->pl.offload == OFFLOAD_NONE) {
		E->mem_bytes[MEM_WEIGHTS] += E->embedding_bytes_per_gpu * R->eb /
					     (R->eb + R->state);
		E->mem_bytes[MEM_OPTIMIZER] += E->embedding_bytes_per_gpu *
					       R->state / (R->eb + R->state);
	} else {
		E->embedding_bytes_per_gpu = 0;
	}
}

static void advice_hook(struct fam_run *r)
{
	recsys_advice(&((struct rec_run *)r->st)->R, r->E);
}

static enum wl_field work_field(const struct workload *w, const char **what)
{
	*what = w->rtrain.samples > 0 ? "samples" : "epochs";
	return w->rtrain.samples > 0 ? WLF_SAMPLES : WLF_EPOCHS;
}

_Static_assert(sizeof(struct rec_run) <= EST_FAMILY_STATE_MAX,
	       "the family's state fits est_drive()'s room");

const struct est_family recsys_family = {
	.plan = plan_hook,
	.build = build_hook,
	.counts = counts_hook,
	.memory = memory_hook,
	.advice = advice_hook,
	.work_field = work_field,
	.state_size = sizeof(struct rec_run),
};
