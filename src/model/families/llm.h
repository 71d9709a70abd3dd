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

#include "../types/estimate_types.h"
#include "../types/gpu.h"
#include "llm_shape.h"
#include "../core/opsink.h"
#include "../types/workload.h"

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

/* The parts of a step llm_build_stack() builds. */
enum llm_part {
	LLM_PART_LAYERS = 1 << 0, /* every layer: forward, recompute, backward */
	LLM_PART_FIRST = 1 << 1,  /* the first stage's own: the embedding */
	LLM_PART_LAST = 1 << 2,   /* the last stage's own: final norm, head, loss */
	LLM_PART_STEP = 1 << 3,   /* once a step: gradient reduction, optimizer */
	/* instead of LLM_PART_LAST, the final norm alone, with the first
	 * stage's work: an encoder's, whose output the decoder reads */
	LLM_PART_FINAL_NORM_FIRST = 1 << 4,
	LLM_PART_ALL = LLM_PART_LAYERS | LLM_PART_FIRST | LLM_PART_LAST |
		       LLM_PART_STEP,
};

/*
 * The operators of `parts` (enum llm_part) of one training step of a
 * single-stack model w of shape sh into `out`, which sums them at their
 * stages and names them with its prefix: llm_build_ops() builds them all;
 * an encoder-decoder builds each stack's into a sink of its own.
 */
void llm_build_stack(struct op_sink *out, const struct workload *w,
		     const struct gpu *g, const struct plan *pl,
		     const struct llm_shape *sh, unsigned parts);

/*
 * The cross-attention operators of one decoder layer of an encoder-decoder
 * model (forward, recompute, backward; stage OPS_LAYER) into `out`.
 * enc_s: the encoder's tokens a sample.
 */
void llm_build_cross_ops(struct op_sink *out, const struct workload *w,
			 const struct gpu *g, const struct plan *pl,
			 const struct llm_shape *sh, double enc_s);

#endif
