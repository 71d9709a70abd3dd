/*
 * memory.h - memory per GPU: model states, activations, buffers, reserve.
 *
 * Model states after Rajbhandari et al. (ZeRO, SC'20); activations after
 * Korthikanti et al. (MLSys'23, sec. 4, Table 2) generalised to GQA, gated
 * MLPs and MoE; pipeline in-flight micro-batches of 1F1B (docs/model.md).
 */
#ifndef TC_MEMORY_H
#define TC_MEMORY_H

#include <stddef.h>

#include "../types/estimate_types.h"
#include "../types/gpu.h"
#include "llm.h"
#include "../core/mem_reserve.h"
#include "../types/workload.h"

/* Bytes of each weight (and of its gradient) per parameter for elements
 * of `elem_bytes`: 16-bit below 4 bytes (1-byte formats keep 16-bit master
 * copies of the weights), else 32-bit. */
double mem_weight_bytes_per_param(double elem_bytes);
/* Bytes of optimizer state per trainable parameter: the registry's state
 * (optimizer.h), plus an fp32 master copy of the weights under mixed
 * precision (`mixed` 1). */
double mem_optimizer_bytes_per_param(enum optimizer o, int mixed);

/* Layers' worth of weights and gradients ZeRO-3 holds whole at the peak
 * of the backward: the current unit's gathered weights, the next unit's
 * (prefetched) and the current unit's unsharded gradients.  PyTorch FSDP,
 * BackwardPrefetch.BACKWARD_PRE: "at the peak, it holds the current set
 * of parameters, next set of parameters, and current set of gradients in
 * memory"; its limit_all_gathers keeps "only two consecutive FSDP
 * instances" gathered (torch/distributed/fsdp/api.py, fully_sharded_
 * data_parallel.py). */
#define MEM_ZERO3_LAYERS 3

/* Bytes a linear layer keeps of each element of its input for the weight
 * gradient: the GEMM's input format under fp8 or fp4 (Transformer Engine
 * saves the cast input), else the activations' 16 or 32 bits. */
double mem_saved_input_bytes(const struct llm_shape *sh);

/* Bytes the block's linear `linear` (an enum lora_target bit) keeps of each
 * element of its input: as above, but under LoRA none for a frozen base
 * without an adapter, and the 16-bit input for one with an adapter. */
double mem_linear_input_bytes(const struct llm_shape *sh, unsigned linear);

/* Activation bytes one layer keeps under RECOMP_SELECTIVE_OP. */
double mem_layer_op_saved_bytes(const struct llm_shape *sh);

/* Activation bytes one layer stores for one micro-batch on one GPU. */
double mem_layer_activation_bytes(const struct llm_shape *sh,
				  enum recompute rc);
/* The same, averaged over the layers of a run recomputing as `tr` says:
 * under full recompute of a share of them, the others keep everything. */
double mem_layer_kept_bytes(const struct llm_shape *sh,
			    const struct training *tr);

/*
 * Memory per GPU of the fuller of the first and last pipeline stage,
 * broken down into part[MEM_COUNT]; returns the total in bytes.
 */
double mem_estimate(const struct workload *w, const struct plan *pl,
		    const struct llm_shape *sh, double part[MEM_COUNT]);

/*
 * When `need` bytes exceed the GPU's capacity, try the usual remedies with
 * the memory model (full recompute, higher ZeRO stage, smaller micro-batch,
 * more tensor or pipeline parallelism, and then combinations) and write
 * advice naming the first that fits into buf.
 */
void mem_fit_advice(const struct workload *w, const struct gpu *g,
		    const struct plan *pl, double need, char *buf,
		    size_t len);

#endif
