/*
 * tc_llm.h - the Llama-style decoder the language-model suites build their
 * workloads on (include after tc_test.h).
 */
#ifndef TC_TEST_LLM_H
#define TC_TEST_LLM_H

#include <string.h>

#include "../../src/model/families/estimate.h"
#include "../../src/model/families/llm.h"
#include "../../src/model/types/workload.h"

/* The suite's operator workspace, made before its tests and released
 * after them (cmocka group setup and teardown). */
static struct est_workspace ws;

static inline int tc_llm_setup(void **state)
{
	(void)state;
	return est_workspace_init(&ws, EST_MAX_OPS);
}

static inline int tc_llm_teardown(void **state)
{
	(void)state;
	est_workspace_release(&ws);
	return 0;
}

/* A Llama-style decoder of the given sizes (SwiGLU, RoPE, RMSNorm, causal,
 * no biases, untied embeddings) trained in bf16 with AdamW and flash
 * attention; every other field 0, for the caller to set. */
static inline void tc_llama(struct workload *w, int layers, int hidden,
			    int heads, int kv_heads, int ffn, int vocab)
{
	memset(w, 0, sizeof(*w));
	w->kind = WL_LLM;
	w->llm.layers = layers;
	w->llm.hidden = hidden;
	w->llm.heads = heads;
	w->llm.kv_heads = kv_heads;
	w->llm.ffn = ffn;
	w->llm.act = ACT_SWIGLU;
	w->llm.vocab = vocab;
	w->llm.positions = POS_ROPE;
	w->llm.norm = NORM_RMSNORM;
	w->llm.causal = 1;
	w->train.precision = PREC_BF16;
	w->train.optimizer = OPT_ADAMW;
	w->train.flash_attention = 1;
}

/* The small decoder of the step suites: tc_llama with 2 layers, h 1024,
 * 8 heads (no GQA), SwiGLU ffn 2048, vocabulary 32000; sequence 1024,
 * global batch 8, 10 steps, on `count` frozen A100 80GB SXM with tp = pp
 * = micro-batch 1 and ZeRO 0. */
static inline void tc_small_decoder(struct workload *w, struct gpu *g,
				    int count)
{
	tc_test_a100(g);
	tc_llama(w, 2, 1024, 8, 8, 2048, 32000);
	w->train.seq_len = 1024;
	w->train.global_batch = 8;
	w->train.steps = 10;
	w->plan.count = count;
	w->plan.tp = w->plan.pp = w->plan.micro_batch = 1;
	w->plan.zero = 0;
}

/* Estimate w on g into *e; fail the test, saying why, if it cannot. */
static inline void tc_estimate_ok(const struct workload *w,
				  const struct gpu *g, struct estimate *e)
{
	struct plan_problem why;
	memset(&why, 0, sizeof(why));
	if (step_estimate(w, g, &ws, e, &why))
		fail_msg("estimate failed: %s", why.msg);
}

#endif
