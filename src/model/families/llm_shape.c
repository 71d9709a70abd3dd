/*
 * llm_shape.c - the shape of a transformer step on one GPU: the sizes the
 * operators of llm.c and the memory of memory.c are computed from (tokens,
 * widths, heads, the layout's degrees and groups, parameter counts per
 * layer and per stage).
 */
#include "llm_shape.h"

#include <math.h>
#include <string.h>

#include "../types/precision.h"

void llm_shape_init(const struct workload *w, const struct plan *pl,
		    struct llm_shape *sh)
{
	llm_shape_of(&w->llm, &w->train, pl, sh);
}

/* The adapter parameters of a layer's MLP, over all its experts: FC1
 * h -> ffn_in (2f gated), FC2 f -> h, where the adapters are. */
static double expert_adapters(const struct llm_shape *sh, double ffn_in)
{
	return sh->experts * sh->lora_r *
	       (!!(sh->lora_on & LORA_FC1) * (sh->h + ffn_in) +
		!!(sh->lora_on & LORA_FC2) * (sh->f + sh->h));
}

/* The sizes, layout and switches of *sh that come straight from the
 * architecture, the training settings and the plan. */
static void dims_of(const struct llm_arch *A, const struct training *tr,
		    const struct plan *pl, struct llm_shape *sh)
{
	memset(sh, 0, sizeof(*sh));
	sh->b = pl->micro_batch;
	sh->skv = tr->packing ? tr->mean_seq_len : tr->seq_len;
	sh->cp = pl->cp > 1 ? pl->cp : 1;
	sh->s = sh->skv / sh->cp;
	sh->h = A->hidden;
	sh->a = A->heads;
	sh->g = A->kv_heads > 0 ? A->kv_heads : A->heads;
	sh->d = A->head_dim > 0 ? A->head_dim : (double)A->hidden / A->heads;
	sh->f = A->ffn > 0 ? A->ffn : 4.0 * A->hidden;
	sh->V = A->vocab;
	sh->L = A->layers;
	sh->t = pl->tp;
	sh->p = pl->pp;
	sh->dp = pl->dp;
	sh->shard = (pl->shard_group > 0 ? pl->shard_group : pl->dp) * sh->cp;
	sh->replicas = pl->shard_group > 0 ? pl->dp / pl->shard_group : 1;
	sh->v = pl->interleave > 0 ? pl->interleave : 1;
	sh->ep = pl->ep > 0 ? pl->ep : 1;
	sh->gpn = pl->gpus_per_node;
	sh->m = tr->global_batch / ((double)pl->dp * pl->micro_batch);
	/* Activations stay in 16 bits under fp8 and fp4 GEMMs; NVFP4 GEMM
	 * inputs carry one E4M3 scale per 16 elements. */
	sh->e = fmax(2, tc_prec_bytes(tr->precision));
	sh->eg = tr->precision == PREC_FP4 ? 0.5 + 1.0 / 16 :
					      tc_prec_bytes(tr->precision);
	sh->gated = A->act == ACT_SWIGLU || A->act == ACT_GEGLU;
	sh->sp = pl->sequence_parallel && pl->tp > 1;
	sh->experts = A->experts > 1 ? A->experts : 1;
	sh->top_k = A->experts > 1 ? (A->top_k > 0 ? A->top_k : 1) : 1;
	sh->cf = A->experts > 1 && tr->capacity_factor > 1 ?
		 tr->capacity_factor : 1;
	sh->lora_r = tr->finetune != FT_FULL ? tr->lora_rank : 0;
	sh->qlora = sh->lora_r > 0 && tr->finetune == FT_QLORA;
	/* float8_e4m3fn whatever the GEMMs' format (megatron/core/fusions/
	 * fused_bias_swiglu.py, fp8_input_store) */
	sh->act_in = tr->mlp_act_input_fp8 ? 1 : sh->e;
	sh->lora_on = sh->lora_r <= 0 ? 0 :
		      tr->lora_targets ? tr->lora_targets : LORA_ALL;
	sh->causal = A->causal;
	sh->rope = A->positions == POS_ROPE;
	sh->rmsnorm = A->norm == NORM_RMSNORM;
	sh->flash = tr->flash_attention;
	sh->no_dropout = A->no_dropout;
	sh->no_lm_head = A->no_lm_head;
	sh->head_frac = tr->lm_head_tokens > 0 && tr->lm_head_tokens < sh->skv ?
			tr->lm_head_tokens / sh->skv : 1;
}

void llm_shape_of(const struct llm_arch *A, const struct training *tr,
		  const struct plan *pl, struct llm_shape *sh)
{
	double norm, attn, mlp, router, ffn_in;
	double per_gpu_layer, lin;

	dims_of(A, tr, pl, sh);

	ffn_in = sh->gated ? 2 * sh->f : sh->f;
	norm = A->norm == NORM_RMSNORM ? sh->h : 2 * sh->h;
	attn = sh->h * sh->a * sh->d + 2 * sh->h * sh->g * sh->d +
	       sh->a * sh->d * sh->h;
	mlp = (ffn_in + sh->f) * sh->h;
	lin = attn + sh->experts * mlp;
	sh->attn_matmul_params = attn;
	sh->mlp_matmul_params = mlp;
	if (A->bias) {
		attn += sh->a * sh->d + 2 * sh->g * sh->d + sh->h;
		mlp += ffn_in + sh->h;
	}
	router = sh->experts > 1 ? sh->h * sh->experts : 0;
	sh->layer_params = attn + sh->experts * mlp + router + 2 * norm;
	sh->layer_active_params = attn + sh->top_k * mlp + router + 2 * norm;
	sh->layer_matmul_params = lin;
	sh->layer_tensors = 4.0 * (A->bias ? 2 : 1) +
			    2.0 * (A->norm == NORM_RMSNORM ? 1 : 2) +
			    (sh->experts > 1 ? 1 + 2.0 * (sh->experts - 1) : 0);
	/* an adapter of a linear n -> m holds r (n + m) parameters */
	if (sh->lora_r > 0)
		sh->adapter_params_layer = sh->lora_r *
			(!!(sh->lora_on & LORA_QKV) * (sh->h + (sh->a + 2 * sh->g) * sh->d) +
			 !!(sh->lora_on & LORA_PROJ) * (sh->a * sh->d + sh->h)) +
			expert_adapters(sh, ffn_in);
	sh->embed_params = sh->V * sh->h;
	if (A->positions == POS_LEARNED)
		sh->embed_params += (A->max_positions > 0 ? A->max_positions :
				     tr->seq_len) * sh->h;
	sh->head_params = A->tied_embeddings || A->no_lm_head ? 0 :
			  sh->V * sh->h;
	sh->final_norm_params = norm;
	sh->params = sh->L * sh->layer_params + sh->embed_params +
		     sh->head_params + norm;
	sh->active_params = sh->L * sh->layer_active_params +
			    sh->embed_params + sh->head_params + norm;

	sh->lps = sh->L / sh->p;
	sh->lps_first = pl->first_stage_layers > 0 ? pl->first_stage_layers :
						     sh->lps;
	sh->lps_last = pl->last_stage_layers > 0 ? pl->last_stage_layers :
						   sh->lps;
	if (pl->first_stage_layers > 0 || pl->last_stage_layers > 0)
		sh->lps = sh->p > 2 ? (sh->L - sh->lps_first - sh->lps_last) /
				      (sh->p - 2) : 0;
	per_gpu_layer = (attn + router + 2 * norm) / sh->t +
			sh->experts / sh->ep * mlp / sh->t;
	sh->stage_params_first = sh->lps_first * per_gpu_layer +
				 sh->embed_params / sh->t;
	sh->stage_params_mid = sh->lps * per_gpu_layer;
	sh->stage_params_last = sh->lps_last * per_gpu_layer + norm +
				(A->tied_embeddings && !A->no_lm_head ?
				 sh->V * sh->h : sh->head_params) / sh->t;
	if (sh->p == 1)
		sh->stage_params_first = sh->stage_params_last =
			sh->stage_params_first + norm + sh->head_params / sh->t;
	sh->expert_params_layer = sh->experts > 1 ?
		sh->experts / sh->ep * mlp / sh->t : 0;
	if (sh->lora_r > 0) {
		/* The experts' adapters are spread over the ep ranks too. */
		double exp_lora = expert_adapters(sh, ffn_in);
		double local = sh->adapter_params_layer - exp_lora +
			       exp_lora / sh->ep;
		sh->trainable_first = sh->lps_first * local / sh->t;
		sh->trainable_mid = sh->lps * local / sh->t;
		sh->trainable_last = sh->lps_last * local / sh->t;
		sh->expert_trainable_layer = sh->experts > 1 ?
			exp_lora / sh->ep / sh->t : 0;
	} else {
		sh->trainable_first = sh->stage_params_first;
		sh->trainable_mid = sh->stage_params_mid;
		sh->trainable_last = sh->stage_params_last;
		sh->expert_trainable_layer = sh->expert_params_layer;
	}
}

double llm_busiest_stage_layers(const struct llm_shape *sh)
{
	double n = sh->lps_first > sh->lps_last ? sh->lps_first :
						  sh->lps_last;
	return sh->lps > n ? sh->lps : n;
}

double llm_gpu_layer_matmul_params(const struct llm_shape *sh)
{
	double mlps = sh->experts * sh->mlp_matmul_params;
	return (sh->layer_matmul_params - mlps + mlps / sh->ep) / sh->t;
}
