/*
 * workload.h - what is trained (architecture), how (training settings) and
 * on what (plan).  Built by src/io loaders or directly by tests.
 */
#ifndef TC_WORKLOAD_H
#define TC_WORKLOAD_H

#include "campaign_in.h"
#include "gpu.h"
#include "optimizer.h"
#include "precision.h"
#include "vision_kinds.h"

#define WL_NAME_LEN 128

enum wl_kind { WL_LLM, WL_VISION, WL_RECSYS, WL_KIND_COUNT };
/* "llm", "vision", "recsys", NULL: the family as files name it */
extern const char *const wl_kind_names[WL_KIND_COUNT + 1];

enum llm_act { ACT_GELU, ACT_SWIGLU, ACT_RELU, ACT_GEGLU, ACT_COUNT };
extern const char *const llm_act_names[ACT_COUNT + 1];
enum llm_pos { POS_LEARNED, POS_ROPE, POS_ALIBI, POS_RELATIVE, POS_COUNT };
extern const char *const llm_pos_names[POS_COUNT + 1];
/* One stack of layers, or an encoder and a decoder (T5, BART). */
enum llm_form { FORM_DECODER, FORM_ENCODER_DECODER };
enum llm_norm { NORM_LAYERNORM, NORM_RMSNORM, NORM_COUNT };
extern const char *const llm_norm_names[NORM_COUNT + 1];

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
	int no_dropout;      /* the model trains without dropout (key dropout:
				false): no masks are kept; 0, the default,
				keeps Korthikanti et al.'s masks */
	int no_lm_head;      /* no vocabulary projection (key lm_head: false):
				a task head of a few outputs instead (span or
				class), neither computed nor stored */
	enum llm_form form;  /* arch: decoder (one stack of `layers`, causal or
				not) or encoder-decoder */
	int encoder_layers;  /* encoder-decoder: layers of each stack */
	int decoder_layers;
	int rel_buckets;     /* positions relative: buckets of the learned
				bias, one table per stack (T5) */
	char source[GPU_TEXT_LEN];
};

/* RECOMP_SELECTIVE replays the attention core (Megatron-LM, Korthikanti
 * et al. sec. 5); RECOMP_SELECTIVE_OP keeps the outputs of every other
 * matmul and of attention and replays the rest of each block (torchtitan's
 * selective_ac_option "op", docs/model.md section 4). */
enum recompute { RECOMP_NONE, RECOMP_SELECTIVE, RECOMP_FULL,
		 RECOMP_SELECTIVE_OP, RECOMP_COUNT };
/* "none", "selective", "full", "selective_op", NULL */
extern const char *const recompute_names[RECOMP_COUNT + 1];
enum finetune { FT_FULL, FT_LORA, FT_QLORA, FT_COUNT };
/* "full", "lora", "qlora", NULL */
extern const char *const finetune_names[FT_COUNT + 1];
/* The largest LoRA rank a workload or a validation case may state. */
#define LORA_MAX_RANK 65536
/* The most tokens a sequence (and so a masked LM's head, lm_head_tokens)
 * may have in a workload or a validation case. */
#define SEQ_LEN_MAX 10000000
/* The ranges of two training values a workload or a validation case may
 * state, and the words their errors expect. */
#define RECOMPUTE_FRAC_MIN 0.01
#define RECOMPUTE_FRAC_EXPECT "the share of the layers recomputed, 0.01 to 1"
#define CAPACITY_FACTOR_MAX 65536
#define CAPACITY_FACTOR_EXPECT "the busiest expert-parallel rank's tokens over the mean, 1 to 65536"
/* The linear layers of a block that carry LoRA adapters, a set of these
 * bits; the others stay frozen and adapter-less.  The default is every one
 * (QLoRA's and PEFT's all-linear choice); the MLPerf Llama 2 70B LoRA
 * benchmark adapts QKV and the projection, NeMo's default QKV alone. */
enum lora_target { LORA_QKV = 1, LORA_PROJ = 2, LORA_FC1 = 4, LORA_FC2 = 8,
		   LORA_ALL = 15 };
/* The names a file gives a set ("all", "attention" = QKV and projection,
 * "mlp" = FC1 and FC2, or one layer: "qkv", "proj", "fc1", "fc2"), NULL
 * ended, and the set each stands for. */
extern const char *const lora_target_names[];
extern const unsigned lora_target_sets[];
/* A set's words ("attention", "qkv+fc1", "all" for 0 and LORA_ALL). */
const char *lora_targets_text(unsigned set);

struct training {
	double seq_len;       /* tokens per sequence (encoder-decoder: the
				 decoder's, = target_len) */
	double input_len;     /* encoder-decoder: tokens of the encoder's
				 input; 0 for a single stack */
	double target_len;    /* encoder-decoder: tokens of the target */
	double global_batch;  /* sequences per optimizer step */
	double tokens;        /* total training tokens; 0 if `steps` given */
	double steps;         /* optimizer steps; 0 if `tokens` given */
	enum tc_prec precision;
	enum optimizer optimizer;
	enum recompute recompute;
	double recompute_frac; /* with RECOMP_FULL, the share of the layers
				  recomputed; the others keep their
				  activations (0 = all of them) */
	int flash_attention;
	enum finetune finetune;
	int lora_rank;
	unsigned lora_targets; /* enum lora_target bits; 0 = LORA_ALL */
	int lora_base_fp8;    /* LoRA: the frozen base held in fp8, one byte
				 a parameter (Transformer Engine's
				 fp8_model_init, NeMo's fp8_params) */
	int mlp_act_input_fp8; /* the MLP activation function's input kept
				  for the backward in fp8 (Megatron-Core's
				  activation_func_fp8_input_store) */
	int packing;          /* samples packed or unpadded: only real
				 tokens are computed */
	double lm_head_tokens; /* tokens of a sample the vocabulary head
				  projects and scores (masked-LM pretraining:
				  its masked positions); 0 = every token */
	double mean_seq_len;  /* mean real tokens per sample (packing) */
	double capacity_factor; /* MoE: token-expert pairs the busiest
				   expert-parallel rank computes over the
				   mean (1 balanced; 0 = 1) */
};

/*
 * NULL, or the fp8 storage key (lora_base_fp8, mlp_act_input_fp8) that the
 * rest of `t` contradicts, with *why the error's words: both store in fp8
 * what an fp8 GEMM consumes, so both need fp8 or fp4 GEMMs, and only a
 * LoRA base is frozen (QLoRA holds its base in NF4).
 */
const char *train_fp8_store_conflict(const struct training *t,
				     const char **why);


/*
 * The software stack a run uses (models/framework/<id>.yaml), resolved when
 * the workload is read: its layer of efficiency values, above the GPU's and
 * below a calibration's (model/types/eff_param.h).
 */
/* The share of the layers recomputed in full: under RECOMP_FULL every
 * layer, unless `frac` (recompute_frac) names fewer; 0 under the others. */
static inline double recompute_share(enum recompute rc, double frac)
{
	if (rc != RECOMP_FULL)
		return 0;
	return frac > 0 && frac < 1 ? frac : 1;
}

static inline double train_recompute_share(const struct training *t)
{
	return recompute_share(t->recompute, t->recompute_frac);
}

/* Pipeline schedules (model/core/schedule.c). */
enum pp_schedule {
	SCHED_DEFAULT,     /* none named: interleaved if interleave > 1,
			      else 1F1B */
	SCHED_1F1B,        /* Narayanan et al. SC'21 sec. 2.2.1 */
	SCHED_INTERLEAVED, /* interleaved 1F1B, ibid. sec. 2.2.2 */
	SCHED_ZERO_BUBBLE, /* ZB-H1, Qi et al. ICLR'24 */
	SCHED_COUNT
};
/* Names as written in plan.schedule and --schedule, by enum value;
 * NULL-terminated (workload.c). */
extern const char *const sched_names[SCHED_COUNT + 1];

struct plan {
	char gpu[GPU_ID_LEN];
	int count;              /* GPUs in total */
	int gpus_per_node;      /* 0 = the GPU's usual server */
	int tp, pp, dp;         /* dp 0 = count / (tp * pp) */
	int ep;                 /* expert parallel (MoE), 1 = none */
	int cp;                 /* context parallel: ranks splitting one
				   sequence (0 or 1 = none) */
	int zero;               /* 0..3 */
	int shard_group;        /* ZeRO/FSDP shards over this many
				   data-parallel ranks, replicated across
				   groups (HSDP, MiCS); 0 = all of dp */
	int micro_batch;        /* sequences per micro-batch per GPU */
	int interleave;         /* virtual pipeline stages per GPU */
	int first_stage_layers; /* layers of the first and last pipeline */
	int last_stage_layers;  /* stage where they differ from the others'
				   (Megatron's decoder_first/last_pipeline_
				   num_layers); 0 = an even split */
	enum pp_schedule schedule;
	int sequence_parallel;
	int cuda_graphs;
	int compile;            /* 1: torch.compile fuses the element-wise
				   chains eager PyTorch runs as composite
				   ops (composite_elem_frac) */
	int grad_overlap;       /* 1: DP gradient reduction overlaps the last
				   backward (bucketed DDP, FSDP); 0: it runs
				   after the backward (no bucketing) */
	int tp_comm_overlap;    /* 1: tensor-parallel collectives run under
				   the layer's GEMMs (Transformer Engine
				   userbuffers, NeMo's tp_comm_overlap) */
	double network_bytes_per_s; /* inter-node, both directions: per GPU,
				       or the node's adapters when
				       network_nics > 0 (net_gpu_bytes_per_s) */
	int network_nics;       /* adapters a node has (`network: {nics:}`);
				   0: network_bytes_per_s is one GPU's */
	enum net_fabric network_fabric; /* topology.h: its latency floor and
					   achieved share; a bare bandwidth
					   is taken as InfiniBand */
	char network[32];       /* its name, or "" for a bare bandwidth */
	/* Share of each GPU's memory kept free on top of the estimate's own
	 * reserve (--memory-headroom, 0..MEM_MAX_HEADROOM_FRAC): every fit
	 * test compares with the rest (mem_usable_bytes). */
	double memory_headroom_frac;
	int embeddings;         /* recsys: enum rec_placement */
	int offload;            /* recsys: enum rec_offload */
	char framework[FW_ID_LEN]; /* the software stack's profile
				      (models/framework/<id>.yaml), "" for
				      none; its values are the caller's to
				      resolve a GPU for (io fw_stack(),
				      gpu_resolve()): estimates read them
				      from the resolved GPU (g->stack) */
};

/* Fields a model-level check can blame, so the CLI can point at them. */
enum wl_field {
	WLF_NONE,
	WLF_MODEL, WLF_SEQ_LEN, WLF_GLOBAL_BATCH, WLF_TOKENS, WLF_STEPS,
	WLF_PRECISION, WLF_RECOMPUTE, WLF_FINETUNE, WLF_LORA_RANK,
	WLF_GPU, WLF_COUNT, WLF_GPUS_PER_NODE, WLF_TP, WLF_PP, WLF_DP, WLF_EP,
	WLF_ZERO, WLF_MICRO_BATCH, WLF_INTERLEAVE, WLF_SEQUENCE_PARALLEL,
	WLF_NETWORK,
	/* vision and recsys (added after the LLM fields) */
	WLF_IMAGE_SIZE, WLF_DATASET_SIZE, WLF_EPOCHS, WLF_SAMPLES,
	WLF_OPTIMIZER, WLF_EMB_PRECISION, WLF_EMBEDDINGS, WLF_OFFLOAD,
	WLF_DATA_LOADER,
	/* context parallelism, sharding groups, packed sequences */
	WLF_CP, WLF_SHARD_GROUP, WLF_PACKING, WLF_MEAN_SEQ_LEN,
	WLF_SCHEDULE, WLF_CAPACITY_FACTOR,
	/* encoder-decoder models */
	WLF_INPUT_LEN, WLF_TARGET_LEN,
	/* uneven pipeline stages */
	WLF_FIRST_STAGE_LAYERS, WLF_LAST_STAGE_LAYERS,
	/* the campaign section */
	WLF_CAMPAIGN, WLF_CAMPAIGN_RESTART, WLF_CAMPAIGN_INTERVAL,
	WLF_FIELD_COUNT
};

struct tc_mark {
	int line, col; /* 1-based; 0 = not from the file */
};

/* ---- Vision (kind: vision) ------------------------------------------- */

/* The kinds of a vision network's entries: vision_kinds.h. */

#define VIS_MAX_LEVELS 8   /* feature pyramid levels */
#define VIS_MAX_SKIPS 32   /* U-Net outputs saved for a later concat */

struct vis_layer {
	enum vis_kind kind;
	int out;          /* output channels or features (conv, linear,
			     blocks); 0 = unchanged */
	int kernel;       /* conv, pool, cnblock depthwise kernel */
	int stride;       /* conv, pool, blocks (first copy) */
	int groups;       /* conv: 1 dense, = channels depthwise;
			     bottleneck: of its 3x3 conv (ResNeXt) */
	int width;        /* bottleneck: inner width; cnblock: MLP width */
	int heads, mlp;   /* attention, swin */
	int expand;       /* mbconv: expansion ratio of its 1x1 conv (1 =
			     none) */
	double se;        /* mbconv: squeeze-excitation width over the input
			     channels (0 = no squeeze-excitation) */
	int window;       /* swin: side of the attention windows */
	int repeat;       /* blocks: copies */
	int global;       /* pool over the whole image / sequence */
	int class_token;  /* tokens: prepend a class token */
	int bias;         /* conv: has a bias (linear layers always do) */
	int pyramid;      /* its output feeds the next fpn */
	int frozen;       /* no gradient for its weights (a frozen prefix) */
	int extra;        /* fpn: stride-2 3x3 conv levels above the last */
	int pooled;       /* fpn: stride-2 subsampled levels above those */
	int anchors;      /* retina_head, rpn_head: anchors per position */
	int classes;      /* detection heads: object classes */
	int convs;        /* retina_head: 3x3 convs per tower; roi_mask_head:
			     3x3 convs before the up-sampling */
	int proposals;    /* rpn_head: regions kept per image after NMS */
	int rois;         /* roi heads: regions per image they run on */
	int pool;         /* roi heads: RoIAlign output side */
	int save;         /* its output (each copy's) is kept for a concat */
	int concat;       /* resblock (each copy), conv, convblock: first
			     concatenate the latest saved output to the
			     input */
	int line, col;    /* where it was written (0 = built in code) */
};

#define VIS_MAX_LAYERS 48

struct vision_arch {
	char name[WL_NAME_LEN];
	int in_channels;             /* 3 for RGB */
	int dims;                    /* 2 (images) or 3 (volumes: every
					side is the input's height, crop or
					image_size, kernels are cubes);
					0 = 2 */
	int frozen_bn;               /* batch-norms are fixed affine maps
					(FrozenBatchNorm2d): no statistics,
					no parameters trained */
	int time_embed;              /* U-Net: width of the timestep
					embedding each resblock adds (0 =
					none) */
	struct {
		int layers, width, heads, mlp, tokens;
	} text;                      /* frozen text encoder whose output
					the transformers attend to (layers
					0 = none) */
	int nlayers;
	struct vis_layer layer[VIS_MAX_LAYERS];
	char file[GPU_TEXT_LEN];     /* file the layers were read from */
	char source[GPU_TEXT_LEN];
};

struct vision_training {
	double image_size;           /* pixels per side (height) */
	double image_width;          /* pixels across; 0 = image_size */
	double crop;                 /* pixels per side (height) of the
					crop the network is fed, cut from
					the image; 0 = the whole image */
	double crop_width;           /* pixels across of the crop; 0 =
					crop */
	double dataset_size;         /* images per epoch */
	double epochs;
	int channels_last;           /* NHWC tensors (no layout transposes) */
	double loader_images_per_s_per_node; /* 0 = no input cap */
	int loader_on_gpu;           /* decode on the GPU (DALI mixed) */
};

/* The height and width of the network's input into *h and *w: the crop
 * when there is one, else the image. */
static inline void vtrain_input(const struct vision_training *t, double *h,
				double *w)
{
	if (t->crop > 0) {
		*h = t->crop;
		*w = t->crop_width > 0 ? t->crop_width : t->crop;
	} else {
		*h = t->image_size;
		*w = t->image_width > 0 ? t->image_width : t->image_size;
	}
}

/* ---- Recommenders (kind: recsys) --------------------------------------- */

#define REC_MAX_TABLES 64
#define REC_MAX_MLP 12

/* Which tower of a two-tower model reads a table (REC_TOWER_NONE for the
 * other interactions). */
enum rec_tower { REC_TOWER_NONE, REC_TOWER_QUERY, REC_TOWER_ITEM };

struct rec_table {
	double rows;                 /* rows of each table */
	int dim;                     /* embedding width */
	double pooling;              /* lookups per sample (multi-hot size) */
	int count;                   /* identical tables */
	enum rec_tower tower;        /* two_tower: query or item side */
	int line, col;
};

/* RI_NEUMF: neural collaborative filtering (He et al., WWW 2017,
 * arXiv:1708.05031): tables 1 and 2 (one user and one item table of the
 * same width g) multiplied element-wise (GMF), the other tables
 * concatenated into the top MLP tower; the last top layer reads the GMF
 * product and the tower's output. */
/* RI_TWO_TOWER: a retrieval model ("Sampling-bias-corrected neural
 * modeling for large corpus item recommendations", Yi et al., RecSys
 * 2019): the query tables (and the dense features) feed the query tower,
 * the item tables the item tower; the towers' last widths are equal and
 * the loss is a softmax over the local batch's query x item dot products
 * (in-batch negatives). */
enum rec_interaction { RI_DOT, RI_DCNV2, RI_NEUMF, RI_TWO_TOWER };
enum rec_placement { EMB_AUTO, EMB_REPLICATED, EMB_TABLE_WISE, EMB_ROW_WISE,
		     EMB_COLUMN_WISE, EMB_BALANCED };
enum rec_offload { OFFLOAD_NONE, OFFLOAD_UVM, OFFLOAD_HOST };
/* Names of the placements and offload modes as written in files (workload.c). */
extern const char *const rec_placement_names[];
extern const char *const rec_offload_names[];

struct recsys_arch {
	char name[WL_NAME_LEN];
	int ntables;
	struct rec_table table[REC_MAX_TABLES];
	int dense_features;
	int nbottom, bottom[REC_MAX_MLP];
	int ntop, top[REC_MAX_MLP];
	int nquery, query[REC_MAX_MLP]; /* two_tower: the towers' widths */
	int nitem, item[REC_MAX_MLP];
	enum rec_interaction interaction;
	int cross_layers, cross_rank;  /* DCNv2 low-rank cross network */
	char file[GPU_TEXT_LEN];
	char source[GPU_TEXT_LEN];
};

struct recsys_training {
	double samples;              /* training samples in total */
	double dataset_size, epochs; /* alternative to samples */
	enum tc_prec emb_precision;  /* storage of the tables */
	double unique_rows;          /* share of a step's lookups that hit
				      * distinct rows (0: every lookup, 1) */
	int input_on_host;           /* the training loop reads and assembles
				      * each batch on the host and waits for
				      * it (recsys.c, REC_HOST_INPUT_S) */
};

struct workload {
	enum wl_kind kind;         /* selects the family's part below */
	char name[WL_NAME_LEN];
	char file[GPU_TEXT_LEN];   /* where it was loaded from, for messages */
	struct training train;
	struct plan plan;
	struct tc_mark mark[WLF_FIELD_COUNT]; /* where each field was set */
	struct campaign_in campaign; /* failures, checkpoints, overheads */
	/*
	 * The family's own part: only the member of `kind` is ever read or
	 * written (the others share its bytes), so a workload is the size of
	 * its largest family, not of all three.  Whoever sets `kind` to
	 * another family clears the part (wl_set_kind()).
	 */
	union {
		struct llm_arch llm;                 /* kind llm */
		struct {
			struct vision_arch vis;      /* kind vision */
			struct vision_training vtrain;
		};
		struct {
			struct recsys_arch rec;      /* kind recsys */
			struct recsys_training rtrain;
		};
	};
};

/* The architecture choices of a GPT-style decoder (GPT-2, GPT-3, Megatron's
 * GPT): GELU, learned positions, LayerNorm, biases, tied embeddings, causal
 * attention; the sizes are left as they are. */
void llm_arch_gpt_style(struct llm_arch *a);

/* Make w a workload of family `kind`, its family part cleared (zero, as a
 * workload of that family starts); nothing when it is one already. */
void wl_set_kind(struct workload *w, enum wl_kind kind);

/*
 * 0, or -1 with the words of the error into why[n]: lm_head_tokens of a
 * workload whose model has no vocabulary head, or is an encoder-decoder
 * (its decoder scores every target token), or more than the tokens a
 * sample computes (seq_len, or mean_seq_len when packed).
 */
int wl_head_tokens_conflict(const struct workload *w, char *why, size_t n);

#endif
