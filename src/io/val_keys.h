/*
 * val_keys.h - the keys of a validation case file (val_keys.c): their
 * ids, the state of the file being read, a value checked and stored into a
 * case, and the checks of a whole case; what val_load.c reads lines with.
 */
#ifndef TC_VAL_KEYS_H
#define TC_VAL_KEYS_H

#include "../model/types/val_case.h"
#include "../util/diag.h"
#include "datapath.h"

enum vk_id {
	K_ID, K_FAMILY, K_SOURCE, K_GPU, K_COUNT, K_GPN, K_LAYERS, K_HIDDEN,
	K_HEADS, K_KV, K_FFN, K_VOCAB, K_ACT, K_POS, K_NORM, K_BIAS, K_TIED,
	K_CAUSAL, K_SEQ, K_GB, K_MB, K_TP, K_PP, K_DP, K_EP, K_EXPERTS,
	K_TOPK, K_INTERLEAVE, K_SP, K_ZERO, K_RECOMPUTE, K_PREC, K_OPT,
	K_FLASH, K_FINETUNE, K_LORA_RANK, K_LORA_TARGETS, K_OVERLAP, K_GRAPHS, K_NET,
	K_METRIC, K_MEASURED,
	K_ITER_MS, K_MTFLOPS, K_MFU, K_TOKS, K_SAMPLES_S, K_IMAGES_S,
	/* vision and recommender cases */
	K_NETWORK, K_IMAGE, K_IMAGE_W, K_CHLAST, K_EMB_ROWS, K_EMB_PREC, K_EMB_PLACE,
	K_UNIQUE,
	/* the stack profile a run names, whether it is left out of the figures,
	 * and the group of runs its speed ratios are taken within */
	K_FRAMEWORK, K_SANITY, K_PAIR,
	/* context parallelism, sharding groups, packed samples */
	K_CP, K_SHARD, K_PACKING, K_MEAN_SEQ, K_HEAD_DIM,
	/* pipeline schedules, expert imbalance */
	K_SCHEDULE, K_CAPACITY,
	/* uneven pipeline stages */
	K_FIRST_STAGE, K_LAST_STAGE,
	/* tensor-parallel collectives under the GEMMs */
	K_TP_OVERLAP,
	/* full recompute of some of the layers */
	K_RECOMPUTE_FRAC,
	/* how the figure averages a short run */
	K_FIG_STEPS, K_FIG_WARMUP, K_FIG_MEAN,
	/* a model trained without dropout, one without a vocabulary head */
	K_DROPOUT, K_LM_HEAD,
	/* a recommender's batch read and assembled on the host each step */
	K_HOST_INPUT,
	/* tensors held in fp8 */
	K_LORA_BASE_FP8, K_MLP_ACT_FP8,
	/* a masked-LM head that scores a sample's masked positions only */
	K_LM_HEAD_TOKENS,
	/* element-wise chains fused by torch.compile */
	K_COMPILE,
	/* a layout the source does not publish */
	K_LAYOUT,
	K_N
};

#define VAL_MAX_COLS K_N

/* Per-file state: defaults so far, raw measured value and its metric. */
struct vstate {
	const char *file;
	const struct tc_datapath *dp; /* where `network` presets are found */
	struct tc_diag *d;
	struct val_case dflt;
	double raw_measured;    /* value of `measured`, file units */
	int metric_file;        /* index into metric_names, -1 unset */
	int have_measured;
};

/* Report an error of st's file at line:col; returns -1. */
int val_bad(struct vstate *st, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The id of key `name`, or -1. */
int val_find_key(const char *name);

/* Check value v of key k (at line:col) and store it in case c (or, for the
 * file's own keys, in st).  0, or -1 with the error. */
int val_set_key(struct vstate *st, struct val_case *c, int k, const char *v, int line, int col);

/* A case's defaults before any directive: a GPT-style decoder in fp16
 * with Adam. */
void val_case_defaults(struct val_case *c);

/* The plan of a row against its counts (vcol: where each key's value is).
 * 0, or -1 with the error. */
int val_check_layout(struct vstate *st, const struct workload *w, int line, const int *vcol);

/* A row's case once its values are set: LoRA with its rank, the measured
 * value and its metric (rs: the row's state).  0, or -1 with the error. */
int val_finish_case(struct vstate *st, const struct vstate *rs, struct val_case *c, int line);

#endif
