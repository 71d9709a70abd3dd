/*
 * vision.c - a vision training step on one GPU: the plan checked, the
 * operators of the forward and backward (vision_ops.c), the loss, the
 * gradient all-reduce and the optimizer, memory; composed by compose.c.
 * docs/vision-recsys.md gives the formulas and their sources.
 */
#include "vision.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/comm.h"
#include "../core/family.h"
#include "../core/mem_reserve.h"
#include "../core/opkit.h"
#include "../core/roofline.h"
#include "vision_ops.h"
#include "vision_shape.h"

/* DDP gradient bucket (PyTorch default bucket_cap_mb = 25): the last one
 * is reduced after the backward ends. */
#define VIS_DDP_BUCKET_BYTES 25e6
/* Parameter tensors updated per multi-tensor optimizer kernel (apex /
 * PyTorch foreach chunks). */
#define VIS_TENSORS_PER_KERNEL 64.0

/* Bytes per parameter moved by one optimizer step (fp32 master weights,
 * as PyTorch AMP keeps them): gradient read, weight and states read and
 * written; 16-bit training adds the weight copy the next forward casts. */
static double opt_bytes(enum optimizer o, double e)
{
	double cast = e < 4 ? 4 + 2 : 0;
	switch (o) {
	case OPT_SGD: return 4 + 8 + 8 + cast;
	case OPT_LARS: return 4 + 8 + 8 + 8 + cast; /* + norms pass */
	case OPT_ADAGRAD: return 4 + 8 + 8 + cast;
	case OPT_ADAFACTOR: return 4 + 8 + 4 + cast;
	case OPT_ADAMW:
	default: return 4 + 8 + 8 + 8 + cast;
	}
}

/*
 * Once per step, over the P trainable parameters: the gradient all-reduce
 * (fp32 gradients, overlapped with the backward by DDP buckets) and the
 * optimizer; and the input pipeline, decoded images per second of all
 * nodes.  Fills *parts for the composer.
 */
static void step_work(struct vb *B, const struct workload *w, double P,
		      struct step_parts *parts)
{
	const struct gpu *g = B->g;
	const struct plan *pl = B->pl;
	double tensors = 0, kern, nodes;
	/* its launches are counted as optimizer time */
	struct op_cost opt = { 0, P * opt_bytes(w->train.optimizer, B->e), 0, 0,
			       PREC_FP32, BOUND_MEMORY };
	enum op_bound bound;
	int k;

	memset(parts, 0, sizeof(*parts));
	parts->m = B->m;
	parts->p = parts->v = 1;
	parts->lps = 1;
	B->out.stage = OPS_STEP;
	B->out.count = 1;
	if (pl->dp > 1) {
		struct kit K = { &B->out, g, pl, B->graphs, NULL, NULL };
		double bytes = 4 * P;
		double t = kit_coll(&K, "dp.grad_allreduce", BRK_DP_COMM, PREC_FP32,
				    COLL_ALLREDUCE, comm_group_of(pl->dp, pl->gpus_per_node),
				    bytes);
		parts->dp_overlap = pl->grad_overlap;
		parts->overlap_slow_frac = g->eff.overlap_slow_frac;
		parts->dp_tail_s = t * fmin(1.0, VIS_DDP_BUCKET_BYTES / bytes);
	}
	for (k = 0; k < w->vis.nlayers; k++)
		tensors += 2 * (w->vis.layer[k].repeat > 0 ?
				w->vis.layer[k].repeat : 1) *
			   (w->vis.layer[k].kind >= VL_ATTENTION ? 6 : 1);
	kern = 1 + ceil(tensors / VIS_TENSORS_PER_KERNEL);
	opt.time_s = roof_time(g, PREC_FP32, 0, g->eff.elem_flop_frac,
			       opt.bytes, kern, pl->cuda_graphs, &bound);
	sink_put(&B->out, "optimizer.step", BRK_OPTIMIZER, &opt, 1, 0);
	nodes = ceil((double)pl->count / pl->gpus_per_node);
	if (w->vtrain.loader_images_per_s_per_node > 0) {
		parts->loader_images_per_s =
			w->vtrain.loader_images_per_s_per_node;
		parts->loader_s = w->train.global_batch /
				  (parts->loader_images_per_s * nodes);
		parts->loader_on_gpu = w->vtrain.loader_on_gpu;
	}
}

/* Resolve and check the plan, the network's shapes (into sh, *sum) and
 * the run.  0 or -1 with *why. */
static int vision_plan(const struct workload *w, const struct gpu *g,
		       struct plan *pl, struct vis_shape *sh,
		       struct vis_summary *sum, struct plan_problem *why)
{
	double gb = w->train.global_batch, mb, in_h, in_w;
	char msg[200];
	int bad;

	est_data_parallel_plan(&w->plan, g, pl);
	if (w->vis.nlayers < 1)
		return est_problem(why, WLF_MODEL, "the network has no layers "
			       "(expected a preset or a layer list)");
	vtrain_input(&w->vtrain, &in_h, &in_w);
	bad = vision_infer(&w->vis, in_h, in_w, sh, sum, msg, sizeof(msg));
	if (bad)
		return est_problem(why, bad > 0 ? WLF_MODEL : WLF_IMAGE_SIZE, "%s",
			       msg);
	if (!(gb >= 1) || !isfinite(gb))
		return est_problem(why, WLF_GLOBAL_BATCH, "global_batch %g is not "
			       "positive (expected images per step, >= 1)",
			       gb);
	if (fmod(gb, pl->dp))
		return est_problem(why, WLF_GLOBAL_BATCH, "global_batch %g is not "
			       "a multiple of %d GPUs (expected a multiple of "
			       "%d)", gb, pl->dp, pl->dp);
	if (w->plan.micro_batch <= 0)
		pl->micro_batch = (int)(gb / pl->dp);
	mb = (double)pl->dp * pl->micro_batch;
	if (fmod(gb, mb))
		return est_problem(why, WLF_MICRO_BATCH, "global_batch %g is not a "
			       "multiple of %d GPUs x micro_batch %d (expected "
			       "a multiple of %g)", gb, pl->dp, pl->micro_batch,
			       mb);
	if (est_check_dense_precision(g, w->train.precision, why))
		return -1;
	if (!(g->mem_bytes_per_s > 0) || !(g->memory_bytes > 0) ||
	    !(roof_peak(g, PREC_FP32) > 0))
		return est_problem(why, WLF_GPU, "%s lacks memory size, bandwidth "
			       "or an fp32 rate (expected them in its catalog "
			       "file)", g->id);
	if (!(w->vtrain.dataset_size >= 1) || !(w->vtrain.epochs > 0))
		return est_problem(why, WLF_DATASET_SIZE, "dataset_size and epochs "
			       "must be positive (expected images and "
			       "passes)");
	return 0;
}

/* The vision family's own state: the network's shapes and the builder. */
struct vis_run {
	struct vis_shape sh[VIS_MAX_LAYERS];
	struct vis_summary sum;
	struct vb B;
	double attn_act; /* activation bytes of the transformer blocks */
};

static int plan_hook(struct fam_run *r, struct plan_problem *why)
{
	struct vis_run *V = r->st;
	return vision_plan(r->w, r->g, &r->pl, V->sh, &V->sum, why);
}

/* The forward and backward walks, the loss, and the step's own work. */
static void build_hook(struct fam_run *r)
{
	struct vis_run *V = r->st;
	const struct workload *w = r->w;
	struct vb *B = &V->B;
	double gb = w->train.global_batch, mb = (double)r->pl.dp * r->pl.micro_batch;

	memset(B, 0, sizeof(*B));
	V->attn_act = 0;
	r->ws->count = 0;
	B->g = r->g;
	B->pl = &r->pl;
	sink_start(&B->out, r->ws, &r->S, 1);
	B->out.count = gb / mb;
	B->pg = w->train.precision;
	B->pa = B->pg;
	B->e = B->pg == PREC_FP32 || B->pg == PREC_TF32 ? 4 : 2;
	B->b = r->pl.micro_batch;
	B->m = gb / mb;
	B->graphs = r->pl.cuda_graphs;
	B->frozen_bn = w->vis.frozen_bn;
	B->vol = w->vis.dims == 3;
	B->layout = !w->vtrain.channels_last && B->pg != PREC_FP32;
	vis_walk(B, w, V->sh, &V->attn_act);
	B->out.bwd = 1;
	vis_walk(B, w, V->sh, &V->attn_act);
	B->out.bwd = 0;
	if (V->sum.out_map > 0) {
		/* a U-Net's prediction against its target: mean squared
		 * error, reading both and writing per element (3 X each way) */
		double X = B->b * V->sum.out_map;
		vis_elem(B, "loss.fwd", 3 * B->e * X, 1, 1);
		B->out.bwd = 1;
		vis_elem(B, "loss.bwd", 3 * B->e * X, 1, 1);
		B->out.bwd = 0;
	} else if (V->sum.classes > 0) {
		/* loss: fp32 softmax cross-entropy over the classes (a
		 * detection head charges its own) */
		double X = B->b * V->sum.classes;
		vis_elem(B, "loss.fwd", X * (B->e + 12), 3, 1);
		B->out.bwd = 1;
		vis_elem(B, "loss.bwd", X * (B->e + 8), 2, 1);
		B->out.bwd = 0;
	}
	step_work(B, w, V->sum.trainable_params, &r->P);
}

static void counts_hook(struct fam_run *r)
{
	const struct vis_run *V = r->st;
	const struct workload *w = r->w;
	struct estimate *E = r->E;
	double gb = w->train.global_batch;

	E->params = E->active_params = V->sum.params;
	E->micro_batches = (int)V->B.m;
	E->samples_per_step = gb;
	E->steps = ceil(w->vtrain.dataset_size / gb) * w->vtrain.epochs;
	/* 2 FLOP per multiply-add, backward twice the forward (§0.1); a
	 * frozen prefix runs forward only */
	E->model_flop_per_step = (2 * (V->sum.macs + V->sum.encoder_macs) +
				  4 * V->sum.trainable_macs) * gb;
	E->hw_flop_per_step = E->model_flop_per_step;
}

/*
 * The activation gradients in flight at the backward's peak, elements per
 * image.  Autograd frees a layer's saved tensors once its backward has run
 * (retain_graph false: torch.autograd.backward), so when the gradients of
 * layer k's output and input (2 x its output) exist, the activations the
 * layers after k kept are gone: the peak is the largest 2 out_k less what
 * the later layers kept, at least the last layer's pair.  A network whose
 * early maps are the largest (a CNN's stem) peaks at the backward's start.
 */
static double backward_grad_elems(const struct vis_shape *sh, int n)
{
	double later = 0, peak = 0;
	for (int k = n - 1; k >= 0; k--) {
		double pair = 2 * sh[k].c * sh[k].h * sh[k].w * sh[k].d;
		if (pair - later > peak)
			peak = pair - later;
		later += sh[k].act_bytes;
	}
	return peak;
}

/* Memory per GPU: fp32 weights (+ 16-bit copies), fp32 gradients,
 * optimizer states, kept activations, DDP buckets, the activation
 * gradients in flight, reserve. */
static void memory_hook(struct fam_run *r)
{
	const struct vis_run *V = r->st;
	const struct workload *w = r->w;
	const struct vb *B = &V->B;
	const struct vis_shape *sh = V->sh;
	double *mem = r->E->mem_bytes, P = V->sum.trainable_params;
	/* vision_infer counts transformer blocks at 16 bits per image;
	 * memory.c's figure for the micro-batch replaces it */
	double infer_attn = 0;

	mem[MEM_WEIGHTS] = V->sum.params * (B->e < 4 ? 6 : 4) +
			   V->sum.encoder_params * B->e;
	mem[MEM_GRADS] = 4 * P;
	mem[MEM_OPTIMIZER] = opt_state_bytes(w->train.optimizer) * P; /* optimizer.h */
	for (int k = 0; k < w->vis.nlayers; k++)
		if (w->vis.layer[k].kind == VL_ATTENTION)
			infer_attn += sh[k].act_bytes;
	mem[MEM_ACTIVATIONS] = B->b * B->e * (V->sum.act_elems - infer_attn) +
			       V->attn_act;
	mem[MEM_BUFFERS] = (r->pl.dp > 1 ? 4 * P : 0) +
			   B->b * B->e * backward_grad_elems(sh, w->vis.nlayers);
	mem[MEM_RESERVED] = mem_reserved_bytes(mem[MEM_ACTIVATIONS] +
					       mem[MEM_BUFFERS]);
}

static void advice_hook(struct fam_run *r)
{
	struct estimate *E = r->E;

	if (!E->fits)
		snprintf(E->fit_advice, sizeof(E->fit_advice), "needs %.1f GB of "
			 "%.1f GB: try micro_batch %d (gradient accumulation) "
			 "or more GPUs", E->memory_per_gpu_bytes / 1e9,
			 E->memory_usable_bytes / 1e9,
			 r->pl.micro_batch > 1 ? r->pl.micro_batch / 2 : 1);
}

static enum wl_field work_field(const struct workload *w, const char **what)
{
	(void)w;
	*what = "epochs";
	return WLF_EPOCHS;
}

_Static_assert(sizeof(struct vis_run) <= EST_FAMILY_STATE_MAX,
	       "the family's state fits est_drive()'s room");

const struct est_family vision_family = {
	.plan = plan_hook,
	.build = build_hook,
	.counts = counts_hook,
	.memory = memory_hook,
	.advice = advice_hook,
	.work_field = work_field,
	.images = 1,
	.state_size = sizeof(struct vis_run),
};
