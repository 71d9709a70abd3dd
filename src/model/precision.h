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
	PREC_COUNT
};

/* "fp64", "fp64_tensor", "fp32", ... (the catalog's key names). */
extern const char *const tc_prec_names[PREC_COUNT + 1];

/* Bytes per element of a tensor stored in this format. */
double tc_prec_bytes(enum tc_prec p);

#endif
