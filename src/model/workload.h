/*
 * workload.h - what is trained (architecture), how (training settings) and
 * on what (plan).  Built by src/io loaders or directly by tests.
 */
#ifndef TC_WORKLOAD_H
#define TC_WORKLOAD_H

#include "gpu.h"
#include "precision.h"

#define WL_NAME_LEN 128

enum wl_kind { WL_LLM, WL_VISION, WL_RECSYS };

enum llm_act { ACT_GELU, ACT_SWIGLU, ACT_RELU, ACT_GEGLU };
enum llm_pos { POS_LEARNED, POS_ROPE, POS_ALIBI };
enum llm_norm { NORM_LAYERNORM, NORM_RMSNORM };

struct llm_arch {
	char name[WL_NAME_LEN];
	int layers;
	int hidden;
	int heads;
	int kv_heads;        /* = heads without GQA/MQA */
	int head_dim;        /* = hidden / heads unless the model says otherwise */
	int ffn;             /* MLP inner size (per expert for MoE) */
	enum llm_act act;
	int vocab;
	int tied_embeddings; /* LM head shares the embedding matrix */
	int experts;         /* 0 or 1 = dense */
	int top_k;           /* experts per token (MoE) */
	enum llm_pos positions;
	enum llm_norm norm;
	int causal;          /* decoder (1) or encoder (0) */
	int bias;            /* linear layers carry biases */
	int max_positions;   /* learned position table size */
	char source[GPU_TEXT_LEN];
};

enum optimizer { OPT_ADAMW, OPT_SGD, OPT_ADAFACTOR };
enum recompute { RECOMP_NONE, RECOMP_SELECTIVE, RECOMP_FULL };
enum finetune { FT_FULL, FT_LORA, FT_QLORA };

struct training {
	double seq_len;       /* tokens per sequence */
	double global_batch;  /* sequences per optimizer step */
	double tokens;        /* total training tokens; 0 if `steps` given */
	double steps;         /* optimizer steps; 0 if `tokens` given */
	enum tc_prec precision;
	enum optimizer optimizer;
	enum recompute recompute;
	int flash_attention;
	enum finetune finetune;
	int lora_rank;
};

struct plan {
	char gpu[GPU_ID_LEN];
	int count;              /* GPUs in total */
	int gpus_per_node;      /* 0 = the GPU's usual server */
	int tp, pp, dp;         /* dp 0 = count / (tp * pp) */
	int ep;                 /* expert parallel (MoE), 1 = none */
	int zero;               /* 0..3 */
	int micro_batch;        /* sequences per micro-batch per GPU */
	int interleave;         /* virtual pipeline stages per GPU */
	int sequence_parallel;
	int cuda_graphs;
	int grad_overlap;       /* 1: DP gradient reduction overlaps the last
				   backward (bucketed DDP, FSDP); 0: it runs
				   after the backward (no bucketing) */
	double network_bytes_per_s; /* inter-node, per GPU, both directions */
	double network_latency_s;
	char network[32];       /* its name, or "" for a bare bandwidth */
};

/* Fields a model-level check can blame, so the CLI can point at them. */
enum wl_field {
	WLF_NONE,
	WLF_MODEL, WLF_SEQ_LEN, WLF_GLOBAL_BATCH, WLF_TOKENS, WLF_STEPS,
	WLF_PRECISION, WLF_RECOMPUTE, WLF_FINETUNE, WLF_LORA_RANK,
	WLF_GPU, WLF_COUNT, WLF_GPUS_PER_NODE, WLF_TP, WLF_PP, WLF_DP, WLF_EP,
	WLF_ZERO, WLF_MICRO_BATCH, WLF_INTERLEAVE, WLF_SEQUENCE_PARALLEL,
	WLF_NETWORK,
	WLF_FIELD_COUNT
};

struct tc_mark {
	int line, col; /* 1-based; 0 = not from the file */
};

struct workload {
	enum wl_kind kind;
	char name[WL_NAME_LEN];
	char file[GPU_TEXT_LEN];   /* where it was loaded from, for messages */
	struct llm_arch llm;
	struct training train;
	struct plan plan;
	struct tc_mark mark[WLF_FIELD_COUNT]; /* where each field was set */
};

#endif
