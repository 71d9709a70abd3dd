/*
 * llm_shape.h - the sizes of a transformer under a resolved plan, as
 * doubles: what a layer's operators (llm.c), memory (memory.c) and the
 * transformer blocks of other families are computed from.
 */
#ifndef TC_LLM_SHAPE_H
#define TC_LLM_SHAPE_H

#include "../types/workload.h"

/* Sizes derived from a workload and a resolved plan, as doubles. */
struct llm_shape {
	double b, s, h, a, g, d, f, V, L; /* micro-batch, tokens of a sample
					     on this GPU (real length / cp),
					     hidden, heads, kv heads, head
					     dim, ffn, vocab, layers */
	double skv;                       /* keys each query attends to: the
					     sample's real length */
	int t, p, dp, v, ep, gpn;         /* tp, pp, dp, interleave, ep,
					     GPUs per node */
	int cp;                           /* context parallel ranks */
	int shard;                        /* ranks one ZeRO shard set spans:
					     shard_group (or dp) x cp */
	int replicas;                     /* shard sets holding the same
					     weights: dp / shard_group */
	double m;                         /* micro-batches per step */
	double e;                         /* bytes per activation element */
	double eg;                        /* bytes per GEMM input element */
	int gated;                        /* SwiGLU / GeGLU */
	int sp;                           /* sequence parallel (t > 1) */
	double experts, top_k;            /* experts 1 for a dense model */
	double cf;                        /* capacity factor: the busiest
					     rank's token-expert pairs over
					     the mean (1 for dense models) */
	double lora_r;                    /* 0 unless LoRA/QLoRA */
	int qlora;                        /* 4-bit frozen weights (QLoRA) */
	double act_in;                    /* bytes a kept element of the MLP
					     activation's input takes: e, or 1
					     (mlp_act_input_fp8) */
	unsigned lora_on;                 /* the linears with adapters (enum
					     lora_target bits; 0 without
					     LoRA) */
	int causal;                       /* causal attention mask */
	int rope;                         /* rotary position embeddings */
	int rmsnorm;                      /* RMSNorm (else LayerNorm) */
	int flash;                        /* fused (flash) attention */
	int no_dropout;                   /* no dropout masks kept */
	int no_lm_head;                   /* no vocabulary projection */
	double head_frac;                 /* share of the tokens the head
					     projects and scores
					     (lm_head_tokens / skv; 1) */
	double layer_params;              /* one layer, whole (all experts) */
	double layer_active_params;       /* one layer, per token */
	double layer_matmul_params;       /* one layer's linear weights */
	double attn_matmul_params;        /* QKV and output projection */
	double mlp_matmul_params;         /* one expert's MLP weights */
	double layer_tensors;             /* parameter tensors per layer */
	double adapter_params_layer;      /* LoRA A and B per layer */
	double embed_params;              /* token (+ learned position) table */
	double head_params;               /* LM head, 0 when tied */
	double final_norm_params;
	double params, active_params;     /* whole model */
	double lps;                       /* layers on one GPU of a middle
					     stage (every stage when even) */
	double lps_first, lps_last;       /* ... of the first and last */
	double stage_params_first;        /* on one GPU of the first stage */
	double stage_params_mid;          /* ... of a middle stage */
	double stage_params_last;         /* ... and of the last stage */
	double trainable_first, trainable_mid, trainable_last; /* the same,
					     trainable only */
	/* Of those, the experts' share on one GPU per layer (0 for dense
	 * models): replicated over dp / ep ranks only, so ZeRO shards it over
	 * that many. */
	double expert_params_layer, expert_trainable_layer;
};

/* Fill *sh.  The plan must be resolved (tp, pp, dp, micro_batch >= 1). */
void llm_shape_init(const struct workload *w, const struct plan *pl,
		    struct llm_shape *sh);

/* The same from an architecture and its training alone (a transformer
 * block of another family: ViT, a diffusion UNet's attention). */
void llm_shape_of(const struct llm_arch *A, const struct training *tr,
		  const struct plan *pl, struct llm_shape *sh);

/* Layers on one GPU of the stage that holds the most. */
double llm_busiest_stage_layers(const struct llm_shape *sh);

/* The linear weights of one layer that one GPU holds: 1/tp of the
 * attention's (a decoder's cross-attention included) and of the MLPs of
 * its experts / ep local experts. */
double llm_gpu_layer_matmul_params(const struct llm_shape *sh);

#endif
