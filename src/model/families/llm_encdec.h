/*
 * llm_encdec.h - encoder-decoder language models (T5, BART): an encoder
 * stack over a sample's input_len tokens, a decoder stack over its
 * target_len tokens whose layers also attend to the encoder's output, one
 * LM head over the target (docs/model.md, "Encoder-decoder models").
 */
#ifndef TC_LLM_ENCDEC_H
#define TC_LLM_ENCDEC_H

#include "../core/family.h"
#include "../types/estimate_types.h"
#include "llm.h"

extern const struct est_family encdec_family;

/* The two stacks, each as the single-stack model llm.c builds. */
struct encdec {
	struct workload enc;   /* encoder: bidirectional, input_len tokens */
	struct workload dec;   /* decoder: causal, target_len tokens */
	struct llm_shape se;   /* the encoder's shape */
	struct llm_shape sd;   /* the decoder's, holding the whole model's
				  parameters, tensors and stage sizes (what
				  the step operators and memory need) */
	double cross_params;   /* one decoder layer's cross-attention and its
				  norm */
	double position_params; /* both stacks' position tables */
	double params;         /* whole model */
};

/* Fill *E from an encoder-decoder workload and a resolved plan (tp, dp,
 * micro_batch >= 1). */
void encdec_init(const struct workload *w, const struct plan *pl,
		 struct encdec *E);

/* Model FLOPs of one sample (no recompute; attention over every key, the
 * PaLM convention) and the FLOPs full recompute adds. */
double encdec_model_flop(const struct encdec *E, int lora);
double encdec_recompute_flop(const struct encdec *E, enum recompute rc);

/* Memory per GPU of an LLM plan of either form (resolved), by part. */
double llm_memory_bytes(const struct workload *w, const struct plan *pl,
			double part[MEM_COUNT]);

#endif
