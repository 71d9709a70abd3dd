/*
 * llm.h - a decoder (or encoder) transformer as a compact operator list.
 *
 * One layer's operators are built once, their `count` set to layers per
 * stage times micro-batches; the first stage adds the embedding, the last
 * stage the final norm, LM head and loss, and the step adds gradient
 * reduction and the optimizer.  Per-operator FLOPs and bytes follow
 * Narayanan et al. SC'21 and Korthikanti et al. MLSys'23 (docs/model.md).
 */
#ifndef TC_LLM_H
#define TC_LLM_H

#include "estimate.h"
#include "gpu.h"
#include "opsink.h"
#include "workload.h"

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
	int causal;                       /* causal attention mask */
	int rope;                         /* rotary position embeddings */
	int flash;                        /* fused (flash) attention */
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

/*
 * Build the operators of one training step of an LLM on GPU g into ws
 * (ws->count reset first; past ws->cap they are listed as one row) and
 * fill *sums, per execution of each stage; no allocation.
 */
void llm_build_ops(const struct workload *w, const struct gpu *g,
		  const struct plan *pl, const struct llm_shape *sh,
		  struct est_workspace *ws, struct op_sums *sums);

/*
 * The operators of one layer of shape sh, its forward or (out->bwd) its
 * backward without recompute, into `out` at its stage, count, mult and
 * prefix: the transformer blocks of other families (vision).
 */
void llm_layer_ops(struct op_sink *out, const struct gpu *g,
		   const struct plan *pl, const struct llm_shape *sh,
		   enum tc_prec prec);

/*
 * Build the cross-attention operators of one decoder layer of an
 * encoder-decoder model (forward, recompute, backward; stage OPS_LAYER) into
 * ws (ws->count reset first; past ws->cap they are listed as one row) and
 * fill *sums.  enc_s: the encoder's tokens a sample.
 */
void llm_build_cross_ops(const struct workload *w, const struct gpu *g,
			 const struct plan *pl, const struct llm_shape *sh,
			 double enc_s, struct est_workspace *ws,
			 struct op_sums *sums);

/* Resolve the plan of w on g into *pl (defaults filled, the schedule
 * resolved) and check it; warn of plan choices into E.  0, or -1 with *why.
 * The first hook of the language-model family (step.c). */
int llm_plan(const struct workload *w, const struct gpu *g, struct plan *pl,
	     struct estimate *E, struct plan_problem *why);

/* The field that sets a language model's amount of work: steps or tokens. */
enum wl_field llm_work_field(const struct workload *w, const char **what);

#endif
