/*
 * llm_encdec.c - a training step of an encoder-decoder language model.
 *
 * Each stack is built by llm.c as a single-stack model (the encoder
 * bidirectional over input_len tokens, the decoder causal over target_len
 * tokens) into a sink of its own, which prefixes its rows, and the
 * decoder's layers get their cross-attention on top; the encoder has no LM
 * head, loss or step operators (llm_build_stack()'s parts), the decoder's
 * step operators carry the whole model's parameters.  Stages run one after
 * the other on every GPU: pipeline and context parallelism are refused
 * (docs/model.md, "Encoder-decoder models").
 */
#include "llm_encdec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/family.h"
#include "memory.h"
#include "../core/opsink.h"
#include "step.h"

/* Each stack as a single-stack workload. */
static void encdec_views(const struct workload *w, struct encdec *E)
{
	memset(E, 0, sizeof(*E));
	E->enc = *w;
	E->enc.llm.form = FORM_DECODER;
	E->enc.llm.layers = w->llm.encoder_layers;
	E->enc.llm.causal = 0;
	E->enc.train.seq_len = w->train.input_len;
	E->dec = E->enc;
	E->dec.llm.layers = w->llm.decoder_layers;
	E->dec.llm.causal = 1;
	E->dec.train.seq_len = w->train.target_len;
}

void encdec_init(const struct workload *w, const struct plan *pl,
		 struct encdec *E)
{
	const struct llm_arch *A = &w->llm;
	struct llm_shape *sd = &E->sd;
	double norm, stage, cross_tensors;

	encdec_views(w, E);
	llm_shape_init(&E->enc, pl, &E->se);
	llm_shape_init(&E->dec, pl, sd);

	norm = sd->final_norm_params;
	E->cross_params = sd->attn_matmul_params + norm +
			  (A->bias ? (sd->a + 2 * sd->g) * sd->d + sd->h : 0);
	if (A->positions == POS_LEARNED) /* a table per stack */
		E->position_params = 2.0 * A->max_positions * sd->h;
	else if (A->positions == POS_RELATIVE) /* a bias per bucket, head */
		E->position_params = 2.0 * A->rel_buckets * sd->a;
	/* One shared token table, one LM head (0 when tied), a final (T5) or
	 * embedding (BART) norm per stack. */
	E->params = E->se.L * E->se.layer_params +
		    sd->L * (sd->layer_params + E->cross_params) +
		    sd->V * sd->h + E->position_params + sd->head_params +
		    2 * norm;

	/* The decoder's shape speaks for the whole model in the step
	 * operators (gradient reduction, optimizer: 4 weight matrices, their
	 * biases and a norm more per decoder layer, the encoder's layers'
	 * tensors spread over the decoder's) and in memory. */
	cross_tensors = 4.0 * (A->bias ? 2 : 1) +
			(A->norm == NORM_RMSNORM ? 1 : 2);
	sd->layer_tensors += cross_tensors +
			     E->se.layer_tensors * E->se.L / sd->L;
	sd->layer_params += E->cross_params;
	sd->layer_matmul_params += sd->attn_matmul_params;
	sd->params = sd->active_params = E->params;
	stage = (E->params - 2 * norm) / sd->t + 2 * norm;
	sd->stage_params_first = sd->stage_params_mid =
		sd->stage_params_last = stage;
	sd->trainable_first = sd->trainable_mid = sd->trainable_last = stage;
}

/*
 * Per sample: 6 FLOPs per weight and token (4 for frozen weights), the
 * encoder's weights over input_len tokens, the decoder's over target_len,
 * the cross-attention's key and value projections over input_len once per
 * decoder layer; attention 12 a d per query and key (encoder input x input,
 * decoder target x target and target x input).
 */
double encdec_model_flop(const struct encdec *E, int lora)
{
	const struct llm_shape *se = &E->se, *sd = &E->sd;
	double si = se->skv, st = sd->skv, ad = sd->a * sd->d;
	double kv = 2 * sd->g * sd->d * sd->h;
	double mm_in = se->L * (se->attn_matmul_params + se->mlp_matmul_params) +
		       sd->L * kv;
	double mm_tgt = sd->L * (sd->attn_matmul_params +
				 sd->mlp_matmul_params + 2 * ad * sd->h) +
			sd->V * sd->h;
	double attn = 12.0 * ad * (se->L * si * si + sd->L * st * st +
				   sd->L * st * si);

	return (lora ? 4.0 : 6.0) * (mm_in * si + mm_tgt * st) + attn;
}

/* FLOPs per sample that recompute adds to encdec_model_flop(): the forward
 * of every layer (full) or the attention core's forward (selective). */
double encdec_recompute_flop(const struct encdec *E, enum recompute rc)
{
	const struct llm_shape *se = &E->se, *sd = &E->sd;
	double si = se->skv, st = sd->skv, ad = sd->a * sd->d;
	double attn_fwd = 4.0 * ad * (se->L * si * si + sd->L * st * st +
				      sd->L * st * si);
	double mm = se->L * (se->attn_matmul_params + se->mlp_matmul_params) *
			    si +
		    sd->L * 2 * sd->g * sd->d * sd->h * si +
		    sd->L * (sd->attn_matmul_params + sd->mlp_matmul_params +
			     2 * ad * sd->h) * st;

	if (rc == RECOMP_FULL)
		return recompute_share(rc, E->enc.train.recompute_frac) *
		       (2 * mm + attn_fwd);
	return rc == RECOMP_SELECTIVE ? attn_fwd : 0;
}

/*
 * Activation bytes of one decoder layer's cross-attention (Korthikanti et
 * al. 2022 sec. 4.1, as mem_layer_activation_bytes() counts a layer): the
 * norm's input and output and a dropout mask whole under tensor
 * parallelism; the query, the keys and values of the encoder's tokens, the
 * output projection's input and the attention core split.  Full recompute
 * keeps only the layer input, which the decoder layer already counts.
 * Averaged over the decoder's layers.
 */
static double cross_activation_bytes(const struct workload *w,
				     const struct encdec *E)
{
	const struct llm_shape *sd = &E->sd;
	double sb = sd->s * sd->b, sbe = E->se.s * sd->b, e = sd->e;
	double repl, split, core;
	enum recompute rc = w->train.recompute;
	/* Full recompute keeps nothing here, in the share of the layers it
	 * recomputes; the others keep all of theirs. */
	double keep = 1 - train_recompute_share(&w->train);

	if (keep <= 0)
		return 0;
	repl = 2 * sb * sd->h * e + sb * sd->h;
	split = 2 * sb * sd->a * sd->d * e + 2 * sbe * sd->g * sd->d * e;
	if (w->train.flash_attention)
		core = 4 * sd->a * sb; /* fp32 softmax statistics */
	else if (rc == RECOMP_SELECTIVE)
		core = 0;
	else
		core = sd->a * sb * E->se.s * (2 * e + 1);
	if (sd->sp)
		return keep * (repl + split + core) / sd->t;
	return keep * (repl + (split + core) / sd->t);
}

/* Memory per GPU: the whole model's states, the decoder's activations and
 * logits (memory.c), the encoder's layers, the cross-attentions and the
 * encoder's output that every one of them reads. */
static double encdec_memory(const struct encdec *E, const struct plan *pl,
			    double part[MEM_COUNT])
{
	const struct workload *w = &E->enc;
	double total = mem_estimate(&E->dec, pl, &E->sd, part);
	double extra = E->se.L * mem_layer_kept_bytes(&E->se, &w->train) +
		       E->sd.L * cross_activation_bytes(w, E) +
		       E->se.b * E->se.s * E->se.h * E->se.e;

	part[MEM_ACTIVATIONS] += extra;
	part[MEM_RESERVED] += MEM_FRAGMENTATION_FRAC * extra;
	return total + (1 + MEM_FRAGMENTATION_FRAC) * extra;
}

double llm_memory_bytes(const struct workload *w, const struct plan *pl,
			double part[MEM_COUNT])
{
	struct llm_shape sh;
	struct encdec E;

	if (w->llm.form == FORM_ENCODER_DECODER) {
		encdec_init(w, pl, &E);
		return encdec_memory(&E, pl, part);
	}
	llm_shape_init(w, pl, &sh);
	return mem_estimate(w, pl, &sh, part);
}

/*
 * Build a step's operators into ws, each stack into a prefixed sink of its
 * own: the encoder's layers, embedding and final norm (filed with the
 * embedding: the decoder reads its output; no head, loss or step
 * operators), as "encoder.*"; the decoder as a single stack, its layers and
 * embedding as "decoder.*"; then its layers' cross-attentions.  Fills S[0]
 * (encoder), S[1] (decoder), S[2] (one cross-attention).
 */
static void encdec_build(const struct encdec *E, const struct gpu *g,
			 const struct plan *pl, struct est_workspace *ws,
			 struct op_sums S[3])
{
	struct op_sink enc, dec, cross;

	/* The LLM builder's names are literals (the rows a prefix renames,
	 * and its casts', are copied). */
	sink_start(&enc, ws, &S[0], 0);
	enc.prefix = "encoder";
	enc.prefix_also = "";
	enc.literal_names = 1;
	llm_build_stack(&enc, &E->enc, g, pl, &E->se, LLM_PART_LAYERS |
			LLM_PART_FIRST | LLM_PART_FINAL_NORM_FIRST);
	sink_continue(&dec, ws, &S[1], 0);
	dec.prefix = "decoder";
	dec.prefix_also = "embed.";
	dec.literal_names = 1;
	llm_build_stack(&dec, &E->dec, g, pl, &E->sd, LLM_PART_ALL);
	sink_continue(&cross, ws, &S[2], 0);
	cross.literal_names = 1;
	llm_build_cross_ops(&cross, &E->dec, g, pl, &E->sd, E->se.s);
}

/* One figure of the combined stage st from those of the encoder (e), the
 * decoder (d) and the decoder's cross-attention (x). */
static double encdec_stage(const struct encdec *E, int st, double e, double d,
			   double x)
{
	switch (st) {
	case OPS_LAYER:
		return E->se.L * e + E->sd.L * (d + x);
	case OPS_FIRST:
		return e + d;
	default:
		return d;
	}
}

/*
 * The sums of one micro-batch with both stacks as one "layer" stage
 * (L_enc encoder layers and L_dec decoder layers with their
 * cross-attention), the two embeddings and the encoder's final norm as
 * the first stage, the decoder's head as the last, its step operators
 * (the whole model's gradient reduction and optimizer) as the step's.
 */
static void encdec_sums(const struct encdec *E, const struct op_sums S[3],
			struct op_sums *C)
{
	int k, st;

	memset(C, 0, sizeof(*C));
	for (st = 0; st < OPS_COUNT; st++) {
		for (k = 0; k < BRK_COUNT; k++)
			C->t[st][k] = encdec_stage(E, st, S[0].t[st][k],
						   S[1].t[st][k], S[2].t[st][k]);
		for (k = 0; k < LIM_COUNT; k++)
			C->lim[st][k] = encdec_stage(E, st, S[0].lim[st][k],
						     S[1].lim[st][k],
						     S[2].lim[st][k]);
		C->wgrad_s[st] = st == OPS_LAYER ?
			encdec_stage(E, st, S[0].wgrad_s[st], S[1].wgrad_s[st],
				     S[2].wgrad_s[st]) :
			S[1].wgrad_s[st];
	}
	C->bwd_s = encdec_stage(E, OPS_LAYER, S[0].bwd_s, S[1].bwd_s,
				S[2].bwd_s);
	C->net_bytes = S[0].net_bytes + S[1].net_bytes + S[2].net_bytes;
}

/* What the encoder-decoder builder does not model, and lengths a learned
 * position table cannot hold.  0, or -1 with *why. */
static int encdec_check(const struct workload *w, struct plan_problem *why)
{
	const struct llm_arch *A = &w->llm;
	const struct training *tr = &w->train;

	if (A->encoder_layers < 1 || A->decoder_layers < 1)
		return est_problem(why, WLF_MODEL, "encoder-decoder model needs "
			       "encoder_layers and decoder_layers (expected "
			       "positive integers)");
	if (!(tr->input_len >= 1) || !(tr->target_len >= 1))
		return est_problem(why, tr->input_len >= 1 ? WLF_TARGET_LEN :
						WLF_INPUT_LEN,
			       "encoder-decoder training needs input_len and "
			       "target_len (expected tokens per sample, >= 1)");
	if (w->plan.pp > 1)
		return est_problem(why, WLF_PP, "pp %d: pipeline parallelism is "
			       "not modelled for encoder-decoder models "
			       "(expected pp 1)", w->plan.pp);
	if (w->plan.first_stage_layers || w->plan.last_stage_layers)
		return est_problem(why, w->plan.first_stage_layers ?
				   WLF_FIRST_STAGE_LAYERS :
				   WLF_LAST_STAGE_LAYERS,
				   "%s: pipeline stages are not modelled for "
				   "encoder-decoder models (expected no stage "
				   "layer counts)", w->plan.first_stage_layers ?
				   "first_stage_layers" : "last_stage_layers");
	if (w->plan.cp > 1)
		return est_problem(why, WLF_CP, "cp %d: context parallelism is "
			       "not modelled for encoder-decoder models "
			       "(expected cp 1)", w->plan.cp);
	if (A->experts > 1)
		return est_problem(why, WLF_MODEL, "experts %d: mixtures of "
			       "experts are not modelled for encoder-decoder "
			       "models (expected a dense model)", A->experts);
	if (tr->finetune != FT_FULL)
		return est_problem(why, WLF_FINETUNE, "LoRA is not modelled for "
			       "encoder-decoder models (expected finetune: "
			       "full)");
	if (A->no_lm_head)
		return est_problem(why, WLF_MODEL, "lm_head false is not "
			       "modelled for encoder-decoder models (expected "
			       "lm_head: true)");
	if (tr->recompute == RECOMP_SELECTIVE_OP)
		return est_problem(why, WLF_RECOMPUTE, "recompute selective_op "
			       "is not modelled for encoder-decoder models "
			       "(expected none, selective or full)");
	if (tr->packing)
		return est_problem(why, WLF_PACKING, "packing is not modelled for "
			       "encoder-decoder models (expected input_len and "
			       "target_len as the lengths computed)");
	if (A->positions == POS_LEARNED &&
	    fmax(tr->input_len, tr->target_len) > A->max_positions)
		return est_problem(why, tr->input_len > A->max_positions ?
					WLF_INPUT_LEN : WLF_TARGET_LEN,
			       "%s %g is longer than the %d learned positions "
			       "(expected at most %d)",
			       tr->input_len > A->max_positions ? "input_len" :
							       "target_len",
			       fmax(tr->input_len, tr->target_len),
			       A->max_positions, A->max_positions);
	return 0;
}

/* The encoder-decoder family's own state: both stacks' views and shapes. */
struct encdec_run {
	struct encdec ed;
};

/* The decoder alone passes every check of a single stack and resolves the
 * plan (its seq_len is the target's); then the model's shapes. */
static int plan_hook(struct fam_run *r, struct plan_problem *why)
{
	struct encdec *ED = &((struct encdec_run *)r->st)->ed;

	if (encdec_check(r->w, why))
		return -1;
	encdec_views(r->w, ED);
	if (llm_plan(&ED->dec, r->g, &r->pl, r->E, why)) {
		if (why && why->field == WLF_SEQ_LEN)
			why->field = WLF_TARGET_LEN;
		return -1;
	}
	encdec_init(r->w, &r->pl, ED);
	return 0;
}

static void build_hook(struct fam_run *r)
{
	const struct encdec *ED = &((struct encdec_run *)r->st)->ed;
	const struct plan *pl = &r->pl;
	struct op_sums S[3];

	encdec_build(ED, r->g, pl, r->ws, S);
	encdec_sums(ED, S, &r->S);
	r->P.m = ED->sd.m;
	r->P.p = r->P.v = 1;
	r->P.lps = 1; /* the layer stage holds both stacks */
	r->P.schedule = pl->schedule;
	r->P.dp_overlap = pl->grad_overlap && pl->zero < 3;
	r->P.tp_overlap = pl->tp_comm_overlap && pl->tp > 1;
	r->P.overlap_slow_frac = r->g->eff.overlap_slow_frac;
}

static void counts_hook(struct fam_run *r)
{
	const struct encdec *ED = &((struct encdec_run *)r->st)->ed;
	const struct training *tr = &r->w->train;
	struct estimate *out = r->E;

	out->params = out->active_params = ED->params;
	out->micro_batches = (int)ED->sd.m;
	/* Input tokens, as the T5 paper counts its pre-training tokens
	 * (docs/model.md, "Encoder-decoder models"). */
	out->tokens_per_step = tr->global_batch * tr->input_len;
	if (tr->steps > 0)
		out->steps = tr->steps;
	else if (tr->tokens > 0)
		out->steps = ceil(tr->tokens / out->tokens_per_step);
	out->samples_per_step = tr->global_batch;
	out->model_flop_per_step = tr->global_batch * encdec_model_flop(ED, 0);
	out->hw_flop_per_step = out->model_flop_per_step +
		tr->global_batch * encdec_recompute_flop(ED, tr->recompute);
}

static void memory_hook(struct fam_run *r)
{
	const struct encdec *ED = &((struct encdec_run *)r->st)->ed;
	encdec_memory(ED, &r->pl, r->E->mem_bytes);
}

static void advice_hook(struct fam_run *r)
{
	struct estimate *E = r->E;

	if (!E->fits)
		snprintf(E->fit_advice, sizeof(E->fit_advice),
			 "needs %.1f GB per GPU, %.1f GB more than the %.1f GB "
			 "available (expected recompute, zero, micro_batch or "
			 "tp raised, or more GPUs)",
			 E->memory_per_gpu_bytes / 1e9,
			 (E->memory_per_gpu_bytes - E->memory_usable_bytes) / 1e9,
			 E->memory_usable_bytes / 1e9);
}

_Static_assert(sizeof(struct encdec_run) <= EST_FAMILY_STATE_MAX,
	       "the family's state fits est_drive()'s room");

const struct est_family encdec_family = {
	.plan = plan_hook,
	.build = build_hook,
	.counts = counts_hook,
	.memory = memory_hook,
	.advice = advice_hook,
	.work_field = llm_work_field,
	.auto_micro_batch = 1,
	.state_size = sizeof(struct encdec_run),
};
