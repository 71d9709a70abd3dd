/*
 * eff_param.h - the registry of efficiency parameters: every achievable-rate
 * figure the model uses, with its unit, bounds, default, source, and whether
 * calibration fits it and --uncertainty varies it.
 *
 * EFF_PARAMS below is the one table.  From it come the fields of struct
 * roof_eff, the `efficiency:` keys of GPU files (io/gpu_load.c), the
 * defaults (eff_default()), the parameters `traincost calibrate` can fit
 * (the first CAL_PARAM_COUNT rows, calibrate.h), the uncertainty draws
 * (uncertainty.c) and the table in docs/model.md (report/eff_table.c; a
 * unit test fails when the document and the table differ).  Adding a
 * parameter is one row here plus the code that uses g->eff.<name>.
 *
 * A value resolves in layers, a higher one winning whatever the order of
 * application: the registry default < the GPU file's `efficiency:` map <
 * a framework profile < a calibration file (eff_set()); a calibration
 * drops the framework layer whole.  eff_resolve() puts the last two
 * layers on a GPU's values: every precedence rule is there and in
 * eff_set().
 */
#ifndef TC_EFF_PARAM_H
#define TC_EFF_PARAM_H

#include <stddef.h>

/* How a parameter is bounded, fitted and drawn. */
enum eff_kind {
	EFF_FRAC,  /* a fraction in [lo, hi]: logistic reparameterisation */
	EFF_SCALE, /* a positive size or time: exponential reparameterisation */
};

/* How a parameter moves when a calibration fits one global time scale. */
enum eff_role {
	EFF_SHAPE, /* unchanged */
	EFF_RATE,  /* a rate fraction: divided by the scale */
	EFF_TIME,  /* a time: multiplied by the scale */
};

/*
 * X(name, unit, kind, lo, hi, default, fit_floor, calibrated, role, rel_sd,
 *   what, source)
 *  - lo, hi: what a GPU file accepts (inclusive);
 *  - fit_floor: EFF_SCALE only, where a fit starts a parameter that is 0;
 *  - calibrated: 1 when `traincost calibrate` may fit it; these rows come
 *    first, in the order of enum cal_param (calibration files name them);
 *  - rel_sd: prior relative spread of --uncertainty draws, 0 = not varied.
 * Sources in full: docs/model.md (section 6) and docs/vision-recsys.md.
 */
#define EFF_PARAMS(X) \
	X(gemm_max_frac, "fraction of dense peak", EFF_FRAC, 0.01, 1, 0.85, 0, 1, EFF_RATE, 0.05, \
	  "large, well-shaped GEMM", \
	  "prior: cuBLAS FP16 large-GEMM plateau on A100 SXM, about 265 of 312 TFLOP/s " \
	  "(NVIDIA Matrix Multiplication Background guide); not identifiable from vTrain") \
	X(gemm_half_flop, "FLOP", EFF_SCALE, 0, 1e15, 9.33e9, 1e6, 1, EFF_SHAPE, 0.30, \
	  "GEMM size at which GEMM efficiency halves, at 312 TFLOP/s (a fixed time per GEMM: scaled by the GPU's and precision's peak)", \
	  "fit: even half of the vTrain A100 SXM measurements (arXiv:2312.12391), the other kernel values held") \
	X(attn_frac, "fraction of dense peak", EFF_FRAC, 0.01, 1, 0.50, 0, 1, EFF_RATE, 0.20, \
	  "fused (flash) attention kernel", \
	  "FlashAttention-2 on A100: 50-73 % forward, 35-63 % backward (Dao 2023, figs. 4-7); not fitted") \
	X(mem_frac, "fraction of memory bandwidth", EFF_FRAC, 0.01, 1, 0.803, 0, 1, EFF_RATE, 0.05, \
	  "streaming kernels", \
	  "fit: even half of the vTrain A100 SXM measurements") \
	X(launch_s, "s", EFF_SCALE, 0, 1e-3, 28.3e-6, 1e-7, 1, EFF_TIME, 0.30, \
	  "per-kernel launch and scheduling cost", \
	  "fit: even half of the vTrain A100 SXM measurements (Megatron-DeepSpeed dispatch)") \
	X(launch_overlap_frac, "fraction", EFF_FRAC, 0, 1, 0.893, 0, 1, EFF_SHAPE, 0.05, \
	  "share of the shorter of launch and kernel time hidden under the other", \
	  "fit: even half of the vTrain A100 SXM measurements") \
	X(comm_frac, "fraction of link peak", EFF_FRAC, 0.01, 1, 0.708, 0, 1, EFF_RATE, 0.10, \
	  "collective bus bandwidth", \
	  "fit: NCCL all-reduce curves on 2, 4 and 8 A100 SXM (vTrain), 1 MiB to 1 GiB") \
	X(comm_latency_s, "s", EFF_SCALE, 0, 1e-2, 0, 1e-6, 1, EFF_TIME, 0.30, \
	  "collective latency per ring step (alpha)", \
	  "fit: NCCL all-reduce curves (went to 4e-14 s: comm_half_bytes carries the floor)") \
	X(comm_half_bytes, "bytes", EFF_SCALE, 0, 1e12, 9.06e6, 1e3, 1, EFF_SHAPE, 0.30, \
	  "message size at which link efficiency halves", \
	  "fit: NCCL all-reduce curves on 2, 4 and 8 A100 SXM (vTrain)") \
	X(launch_graph_s, "s", EFF_SCALE, 0, 1e-3, 2e-6, 1e-7, 0, EFF_TIME, 0, \
	  "per-kernel launch cost with CUDA graphs", \
	  "NVIDIA CUDA graphs blog (2019): 2.0 us per kernel with graphs; not fitted") \
	X(elem_flop_frac, "fraction of peak", EFF_FRAC, 0.01, 1, 0.50, 0, 0, EFF_RATE, 0, \
	  "arithmetic of element-wise and normalisation kernels", \
	  "assumed, not fitted: such kernels are bound by memory or launch, so the value rarely decides") \
	X(conv_frac, "fraction of GEMM efficiency", EFF_FRAC, 0.01, 1, 0.80, 0, 0, EFF_RATE, 0.10, \
	  "implicit-GEMM convolution with a kernel larger than 1x1", \
	  "set by hand on the four ResNet-50 runs of tests/validation/vision.csv (docs/vision-recsys.md)") \
	X(conv1x1_frac, "fraction of GEMM efficiency", EFF_FRAC, 0.01, 1, 1.0, 0, 0, EFF_RATE, 0, \
	  "1x1 convolution", \
	  "a 1x1 convolution is a plain GEMM: 1 by construction") \
	X(norm_mem_frac, "fraction of mem_frac", EFF_FRAC, 0.01, 1, 0.75, 0, 0, EFF_RATE, 0.10, \
	  "batch-norm, activation and add kernels of vision models", \
	  "set by hand on the four ResNet-50 runs of tests/validation/vision.csv (docs/vision-recsys.md)") \
	X(unfused_frac, "fraction of the separate passes", EFF_FRAC, 0, 1, 1.0, 0, 0, EFF_SHAPE, 0, \
	  "share of element-wise traffic run as separate memory passes rather than fused into the neighbouring kernels: vision normalisation, activations and residual adds; recommender MLP activations and the dot interaction", \
	  "1 = eager frameworks, nothing fused; set per framework profile (models/framework/, docs/vision-recsys.md)") \
	X(fp32_norm_frac, "fraction of the normalisations and softmaxes", EFF_FRAC, 0, 1, 0, 0, 0, EFF_SHAPE, 0, \
	  "share of a 16-bit vision model's layer norms, group norms and explicit softmaxes run in fp32 with casts around them, as PyTorch autocast runs them", \
	  "0 = 16-bit kernels (fused or compiled stacks); set per framework profile (models/framework/pytorch.yaml, docs/vision-recsys.md)") \
	X(dw_frac, "fraction of fp32 peak", EFF_FRAC, 0.01, 1, 0.50, 0, 0, EFF_RATE, 0.20, \
	  "depthwise convolution on CUDA cores", \
	  "assumed, not calibrated: no depthwise measurement in the validation sets") \
	X(skinny_frac, "fraction of fp32 peak", EFF_FRAC, 0.01, 1, 0.50, 0, 0, EFF_RATE, 0, \
	  "degenerate (GEMV-like) GEMM on CUDA cores", \
	  "assumed, not fitted: the alternative to the tiled GEMM, taken when faster") \
	X(gather_max_frac, "fraction of memory bandwidth", EFF_FRAC, 0.01, 1, 0.85, 0, 0, EFF_RATE, 0.10, \
	  "embedding-row gathers of long rows", \
	  "set on the two DLRM runs of tests/validation/recsys.csv (docs/vision-recsys.md)") \
	X(gather_half_bytes, "bytes", EFF_SCALE, 0, 1e6, 128, 1, 0, EFF_SHAPE, 0.30, \
	  "fixed per-row cost of a gather, as bytes of extra traffic", \
	  "set on the two DLRM runs of tests/validation/recsys.csv (docs/vision-recsys.md)") \
	X(host_pcie_frac, "fraction of one PCIe direction", EFF_FRAC, 0.01, 1, 0.80, 0, 0, EFF_RATE, 0.10, \
	  "zero-copy reads of embedding rows in host memory", \
	  "assumed, not measured here: PCIe packet headers and flow control cost about a fifth") \
	X(fp8_gemm_frac, "fraction of the 16-bit GEMM efficiency", EFF_FRAC, 0.01, 1, 0.88, 0, 0, EFF_RATE, 0.05, \
	  "FP8 tensor-core work against its own (doubled) peak", \
	  "measured FP8/BF16 best-shape ceilings, H100 SXM 70.9 %/80.3 % (ml-engineering MAMF table, achievable.md section 1); set per GPU") \
	X(fp32_gemm_frac, "fraction of fp32 peak", EFF_FRAC, 0, 1, 0, 0, 0, EFF_RATE, 0, \
	  "large FP32 GEMM on CUDA cores (no tensor cores: FP32 work with TF32 off), in place of gemm_max_frac; 0 = gemm_max_frac", \
	  "0 where not measured; per GPU 0.85 / 0.869 x the measured SGEMM fraction of the FP32 peak, the A100 anchoring of gemm_max_frac: A100 SXM 98 %, V100 SXM2 90 %, H100 SXM 77 %, L40S and L4 51 % (achievable.md section 1; docs/model.md)") \
	X(attn_lib_fwd_frac, "fraction of dense peak", EFF_FRAC, 0, 1, 0, 0, 0, EFF_RATE, 0.20, \
	  "forward of the vendor library's fused attention kernel (cuDNN, Transformer Engine's FusedAttention) at long sequences, for stacks that run it (lib_attn_share); 0 = not measured: attn_frac", \
	  "0 where not measured; H100 SXM 0.601: cuDNN forward at head dim 128, 595 of 989 TFLOP/s at 16k tokens (Dao-AILab/flash-attention @0251105 flash3_fp16_fwd.png, achievable.md section 6)") \
	X(lib_attn_share, "fraction of the attention forward", EFF_FRAC, 0, 1, 0, 0, 0, EFF_SHAPE, 0, \
	  "share of the fused-attention forward a stack runs with the vendor library's kernel (attn_lib_fwd_frac) rather than FlashAttention-2 (attn_frac)", \
	  "0 = FlashAttention-2; 1 for stacks on Transformer Engine, whose FusedAttention (cuDNN) backend runs attention on Hopper (models/framework/, docs/model.md)") \
	X(composite_elem_frac, "fraction of the chains", EFF_FRAC, 0, 1, 0, 0, 0, EFF_SHAPE, 0, \
	  "share of a language model's RMSNorm, rotary embedding and gated activation that a stack runs as eager PyTorch composite ops, one memory pass and kernel each, rather than one fused kernel; plan.compile: true makes it 0", \
	  "0 = fused kernels (Megatron, Transformer Engine, Inductor, the vTrain defaults); 1 for torchtitan and hf-trainer, whose Llama code (Meta's reference model, Transformers' modeling_llama) runs them op by op (docs/model.md)") \
	X(overlap_slow_frac, "fraction of the clock", EFF_FRAC, 0, 0.5, 0, 0, 0, EFF_SHAPE, 0, \
	  "clock lost by compute that runs under overlapped communication (NCCL kernels take SMs, power and memory bandwidth): a window of overlap W costs W x f / (1 - f) more", \
	  "0 where not measured; H100 and H200 SXM files 0.20: the SM clock falls from 1980 to 1575 MHz on H800/H100 SXM at 700 W when GEMMs overlap communication (achievable.md section 4, S10), a level the maintainers say depends on the part") \
	X(stack_frac, "fraction of the kernel rates", EFF_FRAC, 0.01, 1, 1.0, 0, 0, EFF_RATE, 0.08, \
	  "compute rate a software stack sustains over a whole step (synchronisation, unfused work, kernels sharing SMs with communication)", \
	  "1 for the stack the defaults were fitted on; fitted per framework profile on the published runs (models/framework/, docs/model.md)") \
	X(measured_tdp_w, "W", EFF_SCALE, 0, 5000, 0, 1, 0, EFF_SHAPE, 0, \
	  "power limit of the part the file's compute rates were measured on, when that is a sibling of the same die and SM count run at a higher limit: compute rates scale by the clock ratio (tdp / measured_tdp)^(1/3), at most 1", \
	  "0 = measured on this part; dynamic power goes as clock x voltage^2 with voltage about proportional to clock, so clock goes as power^(1/3); checked on the measured clocks of H100 PCIe and H200 NVL (achievable.md section 4, S13; docs/model.md)")

/* One id per row, eff_id_<name>, in the order of the table. */
enum eff_id {
#define EFF_X_ID(name, ...) eff_id_##name,
	EFF_PARAMS(EFF_X_ID)
#undef EFF_X_ID
	EFF_COUNT
};

/* Which layer set a value; a higher layer wins (see the header comment). */
enum eff_layer {
	EFF_LAYER_DEFAULT,
	EFF_LAYER_GPU,
	EFF_LAYER_FRAMEWORK,
	EFF_LAYER_CALIBRATION,
};
extern const char *const eff_layer_names[]; /* "default", "gpu", ... */

#define EFF_TEXT_LEN 512
#define EFF_ID_LEN 64

/* The values of every parameter for one GPU, and where each came from. */
struct roof_eff {
#define EFF_X_FIELD(name, ...) double name;
	EFF_PARAMS(EFF_X_FIELD)
#undef EFF_X_FIELD
	unsigned char layer[EFF_COUNT]; /* enum eff_layer of each value */
	char source[EFF_TEXT_LEN];      /* where the non-default values came from */
	/* The GPU a GPU file's values were measured on when not on this one
	 * (a proxy of the same die); "" when measured on it. */
	char measured_on[EFF_ID_LEN];
};

#define FW_ID_LEN 32

/* A software stack's layer: the values its framework profile sets
 * (models/framework/<id>.yaml, io/fw_load.h). */
struct eff_stack {
	char id[FW_ID_LEN];       /* "" = none named: the registry and GPU values */
	unsigned long long set;   /* bit p: value[p] is the profile's */
	double value[EFF_COUNT];
	int fitted_runs;          /* published runs its values were fitted
				     on; 0: none measured */
	char pooled_from[FW_ID_LEN]; /* a stack with no measured run: the
					profile whose pooled stack_frac it
					takes ("" when its own) */
};

/*
 * The rows `traincost calibrate` may fit: those marked calibrated, which
 * come first (a unit test checks the order).  Their enum eff_id values
 * index the calibration arrays and masks (bit CAL_BIT(p)).  A constant
 * expression.
 */
#define CAL_X_COUNT(n, unit, kind, lo, hi, def, floor, cal, ...) + (cal)
#define CAL_PARAM_COUNT (0 EFF_PARAMS(CAL_X_COUNT))
#define CAL_BIT(p) (1u << (p))

#define CAL_TEXT_LEN 256

/*
 * A calibration's layer: the values `traincost calibrate` fitted on one
 * GPU's measurements (a calibration file, io/calib_file.h; the fit's
 * statistics stay beside it in struct cal_overlay, analyses/calibrate.h).
 */
struct eff_calibration {
	char gpu[EFF_ID_LEN];         /* the GPU the measurements ran on */
	char fitted_from[CAL_TEXT_LEN]; /* the measurements file */
	size_t measurements;          /* > 0 */
	int scale_mode;               /* 1: one global time scale was fitted */
	double scale;                 /* scale mode: the time multiplier */
	unsigned fitted_mask;         /* parameter mode: CAL_BIT of each fitted one */
	struct roof_eff before;       /* the catalog values the fit started from */
	struct roof_eff after;        /* the fitted values */
};

/* 1 when stacks a and b are the same profile with the same values. */
int eff_stack_same(const struct eff_stack *a, const struct eff_stack *b);

/* One row of the registry. */
struct eff_param {
	const char *name;      /* key in GPU files and calibration files */
	const char *unit;      /* for documentation: "s", "FLOP", "fraction of ..." */
	size_t offset;         /* of the double in struct roof_eff */
	enum eff_kind kind;
	double lo, hi;         /* accepted values, inclusive */
	double def;            /* the default */
	double fit_floor;      /* EFF_SCALE: a fit's start for a value of 0 */
	int calibrated;        /* 1: calibrate may fit it */
	enum eff_role role;
	double default_rel_sd; /* prior spread of --uncertainty; 0: not varied */
	const char *what;      /* what it is the efficiency of */
	const char *source;    /* where the default comes from */
};
extern const struct eff_param eff_params[EFF_COUNT];

/* Index of parameter `name`, or -1. */
int eff_find(const char *name);

/* Read parameter p of *e. */
double eff_get(const struct roof_eff *e, enum eff_id p);

/* Where parameter p of *e is stored, for code that rewrites values without
 * changing their layer (fits, uncertainty draws). */
double *eff_ref(struct roof_eff *e, enum eff_id p);

/*
 * Set parameter p of *e to v from layer `from`, unless a higher layer set
 * it already.  Returns 1 when the value was written, 0 when kept.
 */
int eff_set(struct roof_eff *e, enum eff_id p, double v, enum eff_layer from);

/* Every parameter at its registry default, layer EFF_LAYER_DEFAULT. */
void eff_default(struct roof_eff *e);

/* 1 when parameter p of *e was measured on the GPU: set by its file or a
 * calibration, not a default or a stack profile's value. */
int eff_measured(const struct roof_eff *e, enum eff_id p);

/* 1 when a calibration file set any value of *e. */
int eff_calibrated(const struct roof_eff *e);

/*
 * *out = *base with every time scaled by s (a one-scale calibration):
 * rate fractions calibrate can fit divided by s, times multiplied; sizes
 * (half-efficiency points) and the overlap share kept.  Exact for the
 * roofline and the collectives: each term is a time over a rate fraction,
 * or a time.  The rates of the other families (gathers, depthwise
 * convolutions, ...) stay: a scale fitted on measured steps says nothing
 * about kernels those steps did not run.
 */
void eff_scaled(const struct roof_eff *base, double s, struct roof_eff *out);

/*
 * The efficiencies an estimate runs with, for the GPU `gpu_id` whose *e
 * holds the registry defaults and its file's values.  A calibration (cal,
 * NULL: none) goes in as EFF_LAYER_CALIBRATION: on the GPU it was measured
 * on the fitted values replace the file's; on another GPU what was learned
 * is carried as a ratio, each fitted parameter file value x after / before
 * (fractions capped at their bound), and a one-scale fit scales every rate
 * and time; e->source then names the calibration.  The stack profile's
 * values (stack, NULL: none) go in as EFF_LAYER_FRAMEWORK after that,
 * unless a calibration set a value: it measured the user's own stack, so
 * values fitted on other people's runs no longer apply and the whole
 * framework layer drops.  Every precedence rule between the layers is here
 * and in eff_set() (a higher layer's value is kept).
 */
void eff_resolve(struct roof_eff *e, const char *gpu_id, const struct eff_stack *stack,
		 const struct eff_calibration *cal);

#endif
