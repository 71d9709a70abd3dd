/*
 * memory.c - memory per GPU and advice when a plan does not fit.
 */
#include "memory.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/schedule.h"
#include "../../util/intmath.h"

/* The most divisors a rank's share of the global batch can have: a global
 * batch is at most 1e9 sequences, and no number up to 1e9 has more than
 * 1,344 (735,134,400 has that many), so the advice sees every one. */
#define MEM_ADVICE_MAX_DIVISORS 1344

static double dmax(double a, double b) { return a > b ? a : b; }

/*
 * Korthikanti et al. 2022, sec. 4.1, 16-bit, per layer: attention block
 * 11sbh + 5as^2b, MLP 19sbh, norms 4sbh; 10sbh of it (norm inputs, QKV and
 * FC1 inputs, dropout masks) stays whole under TP without sequence
 * parallelism.  Generalised: K and V are g*d wide (GQA), the MLP keeps its
 * input, the activation input (f, or 2f gated) and the FC2 input (f).
 *
 * Under fp8 (and fp4) GEMMs the inputs a linear layer keeps for its weight
 * gradient are kept as the GEMM consumed them, in sh->eg bytes, not in 16
 * bits: Transformer Engine's _Linear / _LayerNormLinear / _LayerNormMLP
 * forward save the fp8-cast input (transformer_engine/pytorch/module/
 * linear.py, "saved_inputmat" is the fp8 tensor when fp8 is on).  That is
 * the QKV and FC1 inputs (the norm outputs) and the FC2 input; the
 * attention output stays 16-bit where flash attention keeps it for its own
 * backward, and the projection keeps an fp8 copy besides.
 *
 * A linear layer keeps its input for its weight gradient alone (the data
 * gradient dX = dY W^T reads the weight, not X), so a frozen LoRA base
 * keeps none: Transformer Engine saves the input only when the weight
 * takes a gradient (linear.py, backward_needs_input = weight.requires_grad).
 * Its adapter keeps the same input in 16 bits for the adapter's own weight
 * gradient; the adapters' r-wide middles are negligible.
 *
 * The activation function keeps its input (f, or 2f gated) for its
 * backward, in sh->act_in bytes: Megatron-Core's
 * activation_func_fp8_input_store keeps an fp8 copy and casts it back
 * before the backward (megatron/core/transformer/transformer_config.py).
 */
double mem_layer_activation_bytes(const struct llm_shape *sh,
				  enum recompute rc)
{
	double sb = sh->s * sh->b, h = sh->h, d = sh->d, t = sh->t;
	double ffn_in = sh->gated ? 2 * sh->f : sh->f;
	double scale = sh->e / 2; /* 16-bit baseline */
	/* bytes kept of each element of each linear's input */
	double qkv = mem_linear_input_bytes(sh, LORA_QKV);
	double proj = mem_linear_input_bytes(sh, LORA_PROJ);
	double fc1 = mem_linear_input_bytes(sh, LORA_FC1);
	double fc2 = mem_linear_input_bytes(sh, LORA_FC2);
	double repl, split, core, masks, attn_out;

	if (rc == RECOMP_FULL) /* the layer input only */
		return 2 * sb * h * scale / (sh->sp ? t : 1);
	if (rc == RECOMP_SELECTIVE_OP)
		return mem_layer_op_saved_bytes(sh);
	/* two dropout masks, 1 byte, unless the model has no dropout */
	masks = sh->no_dropout ? 0 : 2 * sb * h;
	/* norm inputs (4sbh) in 16 bits, QKV and FC1 inputs as kept */
	repl = 4 * sb * h * scale + sb * h * (qkv + fc1) + masks;
	attn_out = sh->flash ? 2 * scale + (proj < 2 * scale ? proj : 0) : proj;
	/* MoE: the experts' share grows with the capacity factor (the
	 * busiest rank's pairs over the mean). */
	split = sb * ((2 * sh->a * d + 4 * sh->g * d) * scale +
		      sh->a * d * attn_out) +
		sh->cf * sh->top_k * sb * (ffn_in * sh->act_in + sh->f * fc2);
	if (sh->flash)
		core = 4 * sh->a * sh->s * sh->b; /* fp32 softmax statistics */
	else if (rc == RECOMP_SELECTIVE)
		core = 0;
	else /* softmax output, and without dropout no mask nor output */
		core = sh->a * sh->s * sh->skv * sh->b *
		       (sh->no_dropout ? 2 * scale : 4 * scale + 1);
	if (sh->sp)
		return (repl + split + core) / t;
	return repl + (split + core) / t;
}

/*
 * torchtitan's per-op selective checkpointing (torchtitan/models/llama/
 * parallelize_llama.py, _apply_ac_to_transformer_block, selective_ac_option
 * "op"): of the ops in _save_list it keeps the outputs of attention (flash
 * or memory-efficient SDPA: the output and its fp32 log-sum-exp) and of
 * every other aten.mm ("Saves output of all compute ops, except every
 * second mm"), and replays the rest: norms, RoPE, activations, dropout and
 * the even matmuls.  In a block's forward order (wq, wk, wv, wo, then w1,
 * w3, w2 gated or fc1, fc2) the kept matmul outputs are Q, V, the first FFN
 * matmul's and, gated, w2's (a row-parallel output: whole h on each TP
 * rank, a partial sum before its reduce-scatter).  The block's input stays
 * as checkpoint's input.  Attention in eager matmuls (no flash) uses bmm,
 * not in the list: replayed.
 */
double mem_layer_op_saved_bytes(const struct llm_shape *sh)
{
	double sb = sh->s * sh->b, h = sh->h, d = sh->d, t = sh->t;
	double scale = sh->e / 2; /* 16-bit baseline */
	double input, split, repl;

	input = 2 * sb * h * scale / (sh->sp ? t : 1);
	split = sb * (2 * sh->a * d + 2 * sh->g * d) * scale +
		sh->cf * sh->top_k * sb * 2 * sh->f * scale;
	if (sh->flash) /* output and fp32 log-sum-exp */
		split += sb * 2 * sh->a * d * scale + 4 * sh->a * sb;
	repl = sh->gated ? sh->cf * sh->top_k * sb * 2 * h * scale : 0;
	return input + repl + split / t;
}

double mem_saved_input_bytes(const struct llm_shape *sh)
{
	return sh->eg < sh->e ? sh->eg : sh->e;
}

double mem_linear_input_bytes(const struct llm_shape *sh, unsigned linear)
{
	if (sh->lora_r <= 0)
		return mem_saved_input_bytes(sh);
	return sh->lora_on & linear ? sh->e : 0;
}

double mem_layer_kept_bytes(const struct llm_shape *sh,
			    const struct training *tr)
{
	double s = train_recompute_share(tr);

	if (tr->recompute != RECOMP_FULL)
		return mem_layer_activation_bytes(sh, tr->recompute);
	return s * mem_layer_activation_bytes(sh, RECOMP_FULL) +
	       (1 - s) * mem_layer_activation_bytes(sh, RECOMP_NONE);
}

double mem_weight_bytes_per_param(double elem_bytes)
{
	return elem_bytes >= 4 ? 4 : 2;
}

double mem_optimizer_bytes_per_param(enum optimizer o, int mixed)
{
	return (mixed ? 4 : 0) + opt_state_bytes(o);
}

/* `all` bytes sharded over dp ranks, of which `expert` only over dpx (the
 * experts' data-parallel group, dp / ep). */
static double sharded(double all, double expert, double dp, double dpx)
{
	return (all - expert) / dp + expert / dpx;
}

/* Memory of one stage's GPU holding `params` (trainable `train`); `kept`:
 * mem_layer_kept_bytes() of a layer, the same in every stage. */
static double stage_mem(const struct workload *w, const struct plan *pl,
			const struct llm_shape *sh, double kept, double lps,
			double params, double train, double inflight, int last,
			double part[MEM_COUNT])
{
	double e16 = mem_weight_bytes_per_param(sh->e); /* weight and grad bytes */
	/* ZeRO shards over the ranks of one shard set: shard_group (or all
	 * of dp) x cp; an expert's copies over 1/ep of them. */
	double dp = sh->shard;
	double dpx = sh->ep > 1 ? dmax(1, dp / sh->ep) : dp;
	double opt, act, buf, w_b, tot, xw, xt;
	int mixed = sh->e < 4, z = pl->zero, k;
	double T = sh->b * sh->s;

	opt = mem_optimizer_bytes_per_param(w->train.optimizer, mixed);
	if (w->train.finetune == FT_FULL) {
		w_b = params * e16;
	} else {
		double base = params - train;
		double mm = llm_gpu_layer_matmul_params(sh) * lps;
		if (w->train.finetune == FT_QLORA && base > mm)
			/* NF4 0.5 B/param + double-quantised constants
			 * (0.127 bit/param, Dettmers et al. 2023) */
			w_b = mm * (0.5 + 0.127 / 8) + (base - mm) * 2 +
			      train * e16;
		else /* the frozen base in 16 bits or, lora_base_fp8, in fp8 */
			w_b = base * (w->train.lora_base_fp8 ? 1 : 2) +
			      train * e16;
	}
	/* ZeRO shards over the data-parallel ranks holding the same
	 * parameters: dp for shared ones, dp / ep for an expert's. */
	xw = params > 0 ? w_b * lps * sh->expert_params_layer / params : 0;
	xt = lps * sh->expert_trainable_layer;
	part[MEM_WEIGHTS] = z >= 3 ? sharded(w_b, xw, dp, dpx) : w_b;
	part[MEM_GRADS] = z >= 2 ? sharded(train, xt, dp, dpx) * e16 :
				   train * e16;
	part[MEM_OPTIMIZER] = z >= 1 ? sharded(train, xt, dp, dpx) * opt :
				       train * opt;

	act = kept * lps * inflight;
	if (w->train.recompute == RECOMP_FULL ||
	    w->train.recompute == RECOMP_SELECTIVE_OP)
		/* one layer recomputed in full during its backward */
		act += mem_layer_activation_bytes(sh, RECOMP_NONE);
	if (last) /* logits and their fp32 softmax, one micro-batch */
		act += sh->no_lm_head ? 0 :
		       T * sh->head_frac * sh->V / sh->t * (sh->e + 4);
	else
		act += T * sh->h * sh->e * inflight; /* embedding output */
	part[MEM_ACTIVATIONS] = act;

	/* TP/PP communication buffers and gradients of activations (about
	 * two layer outputs), the largest weight gradient in flight;
	 * ZeRO-3 at its peak holds MEM_ZERO3_LAYERS layers. */
	buf = 4 * T * sh->h * sh->e +
	      dmax(sh->h * (sh->gated ? 2 * sh->f : sh->f), sh->V * sh->h) /
		      sh->t * e16;
	if (z >= 3)
		buf += MEM_ZERO3_LAYERS * sh->layer_params / sh->t * e16;
	/* MoE: the all-to-all's send and receive buffers of the busiest
	 * rank's token-expert pairs. */
	if (sh->experts > 1)
		buf += 2 * sh->cf * sh->top_k * T * sh->h * sh->e;
	part[MEM_BUFFERS] = buf;
	part[MEM_RESERVED] = mem_reserved_bytes(act + buf);
	tot = 0;
	for (k = 0; k < MEM_COUNT; k++)
		tot += part[k];
	return tot;
}

double mem_estimate(const struct workload *w, const struct plan *pl,
		    const struct llm_shape *sh, double part[MEM_COUNT])
{
	double first[MEM_COUNT], mid[MEM_COUNT], last[MEM_COUNT];
	enum pp_schedule s = sched_resolve(pl->schedule, pl->interleave);
	double kept = mem_layer_kept_bytes(sh, &w->train);
	double a, b, c;

	a = stage_mem(w, pl, sh, kept, sh->lps_first, sh->stage_params_first,
		      sh->trainable_first,
		      sched_inflight(s, sh->p, sh->m, sh->v, 0), sh->p == 1,
		      first);
	if (sh->p == 1) {
		memcpy(part, first, sizeof(first));
		return a;
	}
	b = stage_mem(w, pl, sh, kept, sh->lps_last, sh->stage_params_last,
		      sh->trainable_last, 1, 1, last);
	if (b > a) {
		a = b;
		memcpy(first, last, sizeof(first));
	}
	/* Uneven stages: the second stage, more layers than the first and
	 * nearly as many micro-batches in flight, may hold the most. */
	if (sh->p > 2 && sh->lps > sh->lps_first) {
		c = stage_mem(w, pl, sh, kept, sh->lps, sh->stage_params_mid,
			      sh->trainable_mid,
			      sched_inflight(s, sh->p, sh->m, sh->v, 1), 0,
			      mid);
		if (c > a) {
			a = c;
			memcpy(first, mid, sizeof(first));
		}
	}
	memcpy(part, first, sizeof(first));
	return a;
}

/* Memory of `w` under plan `pl` (resolved); 0 when the plan is not even
 * shaped right for the change. */
static double try_plan(const struct workload *w, const struct plan *pl)
{
	struct llm_shape sh;
	double part[MEM_COUNT];
	const struct llm_arch *A = &w->llm;
	int kv = A->kv_heads > 0 ? A->kv_heads : A->heads;

	if (pl->tp < 1 || pl->pp < 1 || pl->dp < 1 || pl->micro_batch < 1)
		return 0;
	if (A->heads % pl->tp || kv % pl->tp)
		return 0;
	if (A->layers % pl->pp && !pl->first_stage_layers)
		return 0;
	if (pl->tp > pl->gpus_per_node && pl->gpus_per_node > 0)
		return 0;
	llm_shape_init(w, pl, &sh);
	return mem_estimate(w, pl, &sh, part);
}

/* Whether `w` under plan `pl` fits in cap bytes; its memory into *got. */
static int fits(const struct workload *w, const struct plan *pl, double cap,
		double *got)
{
	*got = try_plan(w, pl);
	return *got > 0 && *got <= cap;
}

void mem_fit_advice(const struct workload *w, const struct gpu *g,
		    const struct plan *pl, double need, char *buf,
		    size_t len)
{
	struct plan c;
	struct workload w2;
	double cap = mem_usable_bytes(g, pl), got;
	char what[96];
	int k, nmb, mbs[MEM_ADVICE_MAX_DIVISORS];
	/* what recomputing every layer takes, unless it is done already */
	const char *rc_fix = train_recompute_share(&w->train) >= 1 ? NULL :
			     w->train.recompute == RECOMP_FULL ?
			     "recompute_frac: 1" : "recompute: full";

	w2 = *w;
	what[0] = '\0';
	got = 0;
	/* Single changes, least disruptive first. */
	if (rc_fix) {
		w2.train.recompute = RECOMP_FULL;
		w2.train.recompute_frac = 0; /* every layer */
		if (fits(&w2, pl, cap, &got)) {
			snprintf(what, sizeof(what), "%s", rc_fix);
			goto found;
		}
		w2.train = w->train;
	}
	for (k = pl->zero + 1; k <= 3 && pl->dp > 1; k++) {
		c = *pl;
		c.zero = k;
		if (fits(w, &c, cap, &got)) {
			snprintf(what, sizeof(what), "zero: %d", k);
			goto found;
		}
	}
	/* A smaller micro-batch, the largest that still divides the rank's
	 * share of the global batch (44 sequences: 22, 11, 4, 2, 1), so that
	 * the plan advised is one the workload can state. */
	nmb = pl->dp < 1 ? 0 :
	      tc_whole_divisors(w->train.global_batch / pl->dp,
				pl->micro_batch - 1, mbs, MEM_ADVICE_MAX_DIVISORS);
	for (int i = nmb - 1; i >= 0; i--) {
		c = *pl;
		c.micro_batch = mbs[i];
		if (fits(w, &c, cap, &got)) {
			snprintf(what, sizeof(what), "micro_batch: %d", mbs[i]);
			goto found;
		}
	}
	for (k = 2; k <= 64; k *= 2) {
		c = *pl;
		c.tp = pl->tp * k;
		if (pl->dp % k == 0) {
			c.dp = pl->dp / k;
			if (fits(w, &c, cap, &got)) {
				snprintf(what, sizeof(what), "tp: %d", c.tp);
				goto found;
			}
		}
		c = *pl;
		c.pp = pl->pp * k;
		c.first_stage_layers = c.last_stage_layers = 0;
		if (pl->dp % k == 0) {
			c.dp = pl->dp / k;
			if (fits(w, &c, cap, &got)) {
				snprintf(what, sizeof(what), "pp: %d", c.pp);
				goto found;
			}
		}
	}
	/* Combined: full recompute, highest ZeRO, micro-batch 1, then more
	 * pipeline stages at the same GPU count. */
	w2.train.recompute = RECOMP_FULL;
	w2.train.recompute_frac = 0;
	for (k = 1; k <= 64; k *= 2) {
		c = *pl;
		c.micro_batch = 1;
		c.zero = pl->dp / k > 1 ? 3 : pl->zero;
		c.pp = pl->pp * k;
		if (k > 1) /* other pp split the layers evenly */
			c.first_stage_layers = c.last_stage_layers = 0;
		if (pl->dp % k)
			break;
		c.dp = pl->dp / k;
		if (fits(&w2, &c, cap, &got)) {
			snprintf(what, sizeof(what),
				 "%s%szero: %d, micro_batch: 1, pp: %d",
				 rc_fix ? rc_fix : "", rc_fix ? ", " : "",
				 c.zero, c.pp);
			goto found;
		}
	}
	snprintf(buf, len,
		 "needs %.1f GB per GPU, %.1f GB more than the %.1f GB "
		 "available; no change of recompute, zero, micro_batch, tp or "
		 "pp at %d GPUs fits: use more GPUs or a GPU with more memory",
		 need / 1e9, (need - cap) / 1e9, cap / 1e9, pl->count);
	return;
found:
	snprintf(buf, len,
		 "needs %.1f GB per GPU, %.1f GB more than the %.1f GB "
		 "available; %s would fit (%.1f GB)",
		 need / 1e9, (need - cap) / 1e9, cap / 1e9, what, got / 1e9);
}
