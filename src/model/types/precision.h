/*
 * precision.h - numeric formats a GPU computes in and a workload trains in.
 */
#ifndef TC_PRECISION_H
#define TC_PRECISION_H

enum tc_prec {
	PREC_FP64,
	PREC_FP64_TENSOR,
	PREC_FP32,
	PREC_TF32,
	PREC_BF16,
	PREC_FP16,
	PREC_FP8,
	PREC_INT8,
	PREC_FP4,
	PREC_COUNT
};

/* "fp64", "fp64_tensor", "fp32", ... (the catalog's key names). */
extern const char *const tc_prec_names[PREC_COUNT + 1];

/* The formats a language model trains in (its GEMMs' format; fp8 and fp4
 * keep 16-bit activations): NULL-terminated names, and the format of each
 * name at the same index. */
extern const char *const tc_llm_train_prec_names[];
extern const enum tc_prec tc_llm_train_precs[];

/* Bytes per element of a tensor stored in this format. */
double tc_prec_bytes(enum tc_prec p);

#endif
