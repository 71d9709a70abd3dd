/*
 * precision.c - names and storage sizes of the numeric formats.
 */
#include "precision.h"

#include <assert.h>
#include <stddef.h>

/* Catalog key names, in enum order; NULL-terminated for fd_suggest(). */
const char *const tc_prec_names[PREC_COUNT + 1] = {
	[PREC_FP64] = "fp64",
	[PREC_FP64_TENSOR] = "fp64_tensor",
	[PREC_FP32] = "fp32",
	[PREC_TF32] = "tf32",
	[PREC_BF16] = "bf16",
	[PREC_FP16] = "fp16",
	[PREC_FP8] = "fp8",
	[PREC_INT8] = "int8",
	[PREC_FP4] = "fp4",
	[PREC_COUNT] = 0,
};

const char *const tc_llm_train_prec_names[] = {
	"fp32", "tf32", "bf16", "fp16", "fp8", "fp4", NULL
};
const enum tc_prec tc_llm_train_precs[] = {
	PREC_FP32, PREC_TF32, PREC_BF16, PREC_FP16, PREC_FP8, PREC_FP4
};

/*
 * Bytes per element of a tensor held in format `p`.  TF32 is a compute
 * format: its tensors are stored as 32-bit floats.
 */
double tc_prec_bytes(enum tc_prec p)
{
	switch (p) {
	case PREC_FP64:
	case PREC_FP64_TENSOR:
		return 8;
	case PREC_FP32:
	case PREC_TF32:
		return 4;
	case PREC_BF16:
	case PREC_FP16:
		return 2;
	case PREC_FP8:
	case PREC_INT8:
		return 1;
	case PREC_FP4:
		return 0.5;
	case PREC_COUNT:
		break;
	}
	assert(!"tc_prec_bytes: not a precision");
	return 0;
}
