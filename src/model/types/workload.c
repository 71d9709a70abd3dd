/*
 * workload.c - the names of workload.h's enums as written in files and on
 * the command line, next to the enums they name, so that a loader reads
 * them without depending on the computation that uses the values; and
 * the change of a workload's family (wl_set_kind()) and the choices of a
 * GPT-style decoder (llm_arch_gpt_style()).
 */
#include "workload.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* The optimizer registry names families by bit (optimizer.h). */
_Static_assert(OPT_FOR_LLM == 1u << WL_LLM && OPT_FOR_VISION == 1u << WL_VISION &&
	       OPT_FOR_RECSYS == 1u << WL_RECSYS,
	       "OPT_FOR_* bits follow enum wl_kind");

const char *const wl_kind_names[WL_KIND_COUNT + 1] = {
	[WL_LLM] = "llm", [WL_VISION] = "vision", [WL_RECSYS] = "recsys",
	[WL_KIND_COUNT] = NULL,
};
const char *const llm_act_names[ACT_COUNT + 1] = {
	[ACT_GELU] = "gelu", [ACT_SWIGLU] = "swiglu", [ACT_RELU] = "relu",
	[ACT_GEGLU] = "geglu", [ACT_COUNT] = NULL,
};
const char *const llm_pos_names[POS_COUNT + 1] = {
	[POS_LEARNED] = "learned", [POS_ROPE] = "rope", [POS_ALIBI] = "alibi",
	[POS_RELATIVE] = "relative", [POS_COUNT] = NULL,
};
const char *const llm_norm_names[NORM_COUNT + 1] = {
	[NORM_LAYERNORM] = "layernorm", [NORM_RMSNORM] = "rmsnorm",
	[NORM_COUNT] = NULL,
};
const char *const finetune_names[FT_COUNT + 1] = {
	[FT_FULL] = "full", [FT_LORA] = "lora", [FT_QLORA] = "qlora",
	[FT_COUNT] = NULL,
};

const char *const lora_target_names[] = {
	"all", "attention", "mlp", "qkv", "proj", "fc1", "fc2", NULL
};
const unsigned lora_target_sets[] = {
	LORA_ALL, LORA_QKV | LORA_PROJ, LORA_FC1 | LORA_FC2, LORA_QKV,
	LORA_PROJ, LORA_FC1, LORA_FC2,
};

const char *lora_targets_text(unsigned set)
{
	/* indexed by the set's bits: QKV 1, projection 2, FC1 4, FC2 8 */
	static const char *const text[16] = {
		"all", "qkv", "proj", "attention", "fc1", "qkv+fc1",
		"proj+fc1", "attention+fc1", "fc2", "qkv+fc2", "proj+fc2",
		"attention+fc2", "mlp", "qkv+mlp", "proj+mlp", "all",
	};
	return text[set & LORA_ALL];
}

const char *train_fp8_store_conflict(const struct training *t,
				     const char **why)
{
	int fp8_gemms = t->precision == PREC_FP8 || t->precision == PREC_FP4;

	if (t->lora_base_fp8 && t->finetune != FT_LORA) {
		*why = "lora_base_fp8 needs a frozen 16-bit base (expected "
		       "finetune: lora; qlora holds its base in nf4)";
		return "lora_base_fp8";
	}
	if (t->lora_base_fp8 && !fp8_gemms) {
		*why = "lora_base_fp8 needs GEMMs that read fp8 (expected "
		       "precision: fp8 or fp4)";
		return "lora_base_fp8";
	}
	if (t->mlp_act_input_fp8 && !fp8_gemms) {
		*why = "mlp_act_input_fp8 needs fp8 training (expected "
		       "precision: fp8 or fp4)";
		return "mlp_act_input_fp8";
	}
	return NULL;
}

int wl_head_tokens_conflict(const struct workload *w, char *why, size_t n)
{
	const struct training *t = &w->train;
	double sample = t->packing ? t->mean_seq_len : t->seq_len;

	if (t->lm_head_tokens <= 0)
		return 0;
	if (w->llm.no_lm_head)
		snprintf(why, n, "lm_head_tokens is set but the model has no "
			 "vocabulary head (expected lm_head: true, or no "
			 "lm_head_tokens)");
	else if (w->llm.form == FORM_ENCODER_DECODER)
		snprintf(why, n, "lm_head_tokens does not apply to an "
			 "encoder-decoder model (expected none: its decoder "
			 "scores every target token)");
	else if (t->lm_head_tokens > sample)
		snprintf(why, n, "lm_head_tokens %.0f is more than the %.0f "
			 "tokens of a sample (expected at most %s)",
			 t->lm_head_tokens, sample,
			 t->packing ? "mean_seq_len" : "seq_len");
	else
		return 0;
	return -1;
}

const char *const sched_names[SCHED_COUNT + 1] = {
	[SCHED_DEFAULT] = "default", [SCHED_1F1B] = "1f1b",
	[SCHED_INTERLEAVED] = "interleaved",
	[SCHED_ZERO_BUBBLE] = "zero-bubble", [SCHED_COUNT] = NULL,
};

const char *const recompute_names[RECOMP_COUNT + 1] = {
	"none", "selective", "full", "selective_op", NULL
};
const char *const rec_placement_names[] = { "auto", "replicated",
	"table_wise", "row_wise", "column_wise", "balanced", NULL };
const char *const rec_offload_names[] = { "none", "uvm", "host", NULL };

void llm_arch_gpt_style(struct llm_arch *a)
{
	a->act = ACT_GELU;
	a->positions = POS_LEARNED;
	a->norm = NORM_LAYERNORM;
	a->bias = 1;
	a->tied_embeddings = 1;
	a->causal = 1;
}

/* The family part is the struct's last member (workload.h). */
void wl_set_kind(struct workload *w, enum wl_kind kind)
{
	size_t part = offsetof(struct workload, llm);

	if (w->kind == kind)
		return;
	w->kind = kind;
	memset((char *)w + part, 0, sizeof(*w) - part);
}
