/*
 * estimate_types.h - what an estimate holds: where step time goes, the
 * parts of memory, the limiter, the operators behind them, and why a plan
 * cannot run; their names and the helpers that fill them are in
 * estimate_types.c.
 */
#ifndef TC_ESTIMATE_TYPES_H
#define TC_ESTIMATE_TYPES_H

#include <stddef.h>

#include "campaign_types.h"
#include "topology.h"
#include "gpu.h"
#include "workload.h"

/* Where step time goes.  Communication is counted only where exposed. */
enum brk {
	BRK_GEMM,       /* matrix multiplies */
	BRK_ATTN,       /* attention scores/softmax/context */
	BRK_MEMBOUND,   /* norms, activations, residuals, dropout, embeddings */
	BRK_OPTIMIZER,  /* weight update */
	BRK_TP_COMM,    /* tensor-parallel collectives */
	BRK_PP_COMM,    /* pipeline point-to-point */
	BRK_DP_COMM,    /* data-parallel / ZeRO collectives not hidden */
	BRK_EP_COMM,    /* MoE all-to-all */
	BRK_BUBBLE,     /* pipeline fill and drain */
	BRK_LAUNCH,     /* kernel launch overhead not hidden */
	BRK_COUNT
};
extern const char *const brk_names[BRK_COUNT];

enum mem_part {
	MEM_WEIGHTS,
	MEM_GRADS,
	MEM_OPTIMIZER,
	MEM_ACTIVATIONS,
	MEM_BUFFERS,  /* communication and temporary buffers */
	MEM_RESERVED, /* CUDA context and allocator fragmentation */
	MEM_COUNT
};
extern const char *const mem_part_names[MEM_COUNT];

enum limiter { LIM_COMPUTE, LIM_MEMORY_BW, LIM_COMMUNICATION, LIM_BUBBLE,
	       LIM_LAUNCH, LIM_DATA_LOADER, LIM_COUNT };
extern const char *const limiter_names[LIM_COUNT];

enum op_bound { BOUND_COMPUTE, BOUND_MEMORY, BOUND_LATENCY, BOUND_NETWORK };

/* Where an operator runs in the step (its `count` follows from this). */
enum op_stage {
	OPS_LAYER, /* each layer of a pipeline stage, each micro-batch */
	OPS_FIRST, /* first pipeline stage only, each micro-batch */
	OPS_LAST,  /* last pipeline stage only, each micro-batch */
	OPS_STEP,  /* once per optimizer step, after the pipeline */
	OPS_COUNT
};
extern const char *const op_stage_names[OPS_COUNT];

/* One operator as executed on one GPU, for `traincost explain`. */
/* The collective an operator times, for `explain`: grp.n = 0 where the
 * operator is none (or only the exposed rest of one). */
struct op_coll {
	enum comm_coll kind;
	struct comm_group grp;
};

/* Bytes of an operator's name, its NUL included; a longer one is cut. */
#define EST_OP_NAME_LEN 40

struct op {
	const char *name;     /* "layer.qkv.fwd", "lm_head.bwd_w", "dp.allreduce":
				 a string literal, or the text its workspace
				 keeps for the row (est_workspace.names) */
	enum brk category;
	double flop;          /* per execution, on one GPU */
	double bytes;         /* memory traffic (or bytes on the wire) */
	double count;         /* executions per optimizer step on one GPU */
	enum tc_prec prec;
	double time_s;        /* per execution, launch included */
	enum op_bound bound;
	double launch_s;      /* the launch-overhead part of time_s */
	enum op_stage stage;  /* where in the step it runs */
	struct op_coll coll;  /* the collective it times, if any */
};

#define EST_MAX_WARN 8

/* Hardware-FLOP utilisation above which an estimate warns: well above the
 * best measured runs (Korthikanti et al. 2023, 530B on 2,240 A100: about
 * 56 % HFU; tests/validation/megatron-2021.csv), a margin for faster
 * stacks, below what only an implausible efficiency gives. */
#define EST_HFU_WARN_FRAC 0.75

struct estimate {
	struct plan plan;            /* as resolved (dp, gpus_per_node filled) */
	double params;               /* total parameters */
	double active_params;        /* per token (MoE: top_k experts) */
	double tokens_per_step;
	double steps;
	int micro_batches;           /* per pipeline, per optimizer step */
	int micro_batch_chosen;      /* 1: the plan gave none; plan.micro_batch is
					the fastest that fits */
	double bubble_frac;          /* bubble time / step time */
	double step_time_s;
	double tokens_per_s;         /* all GPUs together */
	double tokens_per_s_per_gpu;
	double total_time_s;
	double gpu_hours;
	double model_flop_per_step;  /* excludes recompute: for MFU */
	double hw_flop_per_step;     /* includes recompute: for HFU */
	double mfu_frac, hfu_frac;
	double breakdown_s[BRK_COUNT];
	double mem_bytes[MEM_COUNT];
	double memory_per_gpu_bytes;
	double memory_capacity_bytes;
	double memory_usable_bytes; /* capacity less the plan's headroom: what
				     * fits is compared with */
	int fits;
	enum limiter limiting;
	char fit_advice[256];        /* when it does not fit: what would */
	int warning_count;           /* of warning[], below */
	/* Samples (sequences, images, recommender samples) for all kinds. */
	double samples_per_step;     /* global batch */
	double samples_per_s;        /* all GPUs together */
	double images_per_s;         /* vision only (= samples_per_s), else 0 */
	double input_wait_s;         /* per step, waiting for the data loader;
					not in breakdown_s (the breakdown adds up
					to step_time_s - input_wait_s) */
	double embedding_bytes_per_gpu; /* recsys: tables (and their optimizer
					   state) on one GPU, inside mem_bytes */
	double host_bytes;           /* recsys offload: tables kept in host memory */
	struct campaign campaign;    /* the wall clock around total_time_s */
	/* Last: the slots past warning_count are never read, so an estimate
	 * is built and copied without them (est_copy()). */
	char warning[EST_MAX_WARN][256];
};

/* Operators a step lists at most (the size of a workspace): the longest
 * list is an encoder-decoder's two stacks and its cross-attention
 * (llm_encdec.c); a vision network folds its repeated blocks. */
#define EST_MAX_OPS 256

/* Operator storage owned by the caller; reused across estimates. */
struct est_workspace {
	struct op *ops; /* owned */
	char (*names)[EST_OP_NAME_LEN]; /* owned: a name's text for each row
					   whose name was not a literal */
	size_t count, cap;
};

/* Allocate room for `cap` operators and their names (0: EST_MAX_OPS); 0,
 * or -1 on allocation failure. */
int est_workspace_init(struct est_workspace *ws, size_t cap);
void est_workspace_release(struct est_workspace *ws);

/* Why a plan cannot run: the field to blame and a message for the CLI. */
struct plan_problem {
	enum wl_field field;
	char msg[256]; /* "tp 3 does not divide 32 attention heads (expected a divisor of 32)" */
};

#define EST_S_PER_YEAR (8760.0 * 3600.0)        /* seconds in 365 days */
#define EST_MAX_RUN_S (100.0 * EST_S_PER_YEAR)   /* longest run estimated */

/* Fill *why (when not NULL) with field f and a message; returns -1, so that
 * builders can `return est_problem(...)`. */
int est_problem(struct plan_problem *why, enum wl_field f, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Copy *src to *dst but for the text of its unused warning slots, two
 * thirds of an estimate's bytes. */
void est_copy(struct estimate *dst, const struct estimate *src);

/* Append a warning to e (silently dropped past EST_MAX_WARN). */
void est_warn(struct estimate *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* -1 with a message in *why when any result, breakdown or operator time of
 * *e is non-finite or negative, or the step takes no time; else 0. */
int est_check_finite(const struct estimate *e, const struct est_workspace *ws,
		     struct plan_problem *why);

#endif
