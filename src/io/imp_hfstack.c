/*
 * imp_hfstack.c - the configs of the Hugging Face-based stacks read into
 * workload keys: an llm-foundry YAML (Composer, FSDP), an Axolotl YAML
 * (Trainer with DeepSpeed or FSDP) and a DeepSpeed JSON.  The model of
 * the last two is a hub name, so its architecture comes from
 * --hf-config; llm-foundry's own MPT model is read from the YAML.
 */
#include "imp_hfstack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imp_util.h"
#include "yaml_load.h"

/* Word `name` of map (a plain or quoted scalar), or NULL. */
static const char *word(const struct yn_node *root, const struct yn_node *map, const char *name,
			const struct yn_node **at)
{
	const struct yn_node *v = map ? imp_yaml_get(root, map, name) : NULL;
	if (at)
		*at = v;
	return v && v->type == YN_SCALAR ? v->str : NULL;
}

/* Set (sec, key) to `text` from config key `name` at node v. */
static void from_node(struct imp_result *r, enum imp_sec sec, const char *key, const char *text,
		      const char *name, const struct yn_node *v)
{
	imp_from(r, sec, key, text, name, v ? v->line : 0, v ? v->col : 0);
}

/* --- llm-foundry ---------------------------------------------------- */

/* llm-foundry's own MPT model (name: mpt_causal_lm). */
static int foundry_mpt(const struct yn_node *root, const struct yn_node *m, struct imp_result *r,
		       struct tc_diag *d)
{
	long ratio, hidden;
	char buf[32];
	if (imp_yaml_int(root, m, "n_layers", "model.n_layers", IMP_MODEL, "layers", 1, 10000, r, d) ||
	    imp_yaml_int(root, m, "d_model", "model.d_model", IMP_MODEL, "hidden", 1, 1000000, r, d) ||
	    imp_yaml_int(root, m, "n_heads", "model.n_heads", IMP_MODEL, "heads", 1, 100000, r, d) ||
	    imp_yaml_int(root, m, "vocab_size", "model.vocab_size", IMP_MODEL, "vocab", 1, 10000000, r, d) ||
	    imp_yaml_long(root, m, "expansion_ratio", 1000, &ratio, r, d) ||
	    imp_yaml_long(root, m, "d_model", 1000000, &hidden, r, d))
		return -1;
	if (ratio && hidden) {
		snprintf(buf, sizeof(buf), "%ld", ratio * hidden);
		from_node(r, IMP_MODEL, "ffn", buf, "model.expansion_ratio x model.d_model",
			  imp_yaml_get(root, m, "expansion_ratio"));
	}
	/* What MPTConfig (llmfoundry/models/mpt/configuration_mpt.py)
	 * leaves implicit: learned positions unless attn_config.alibi,
	 * biases unless no_bias, tied embeddings. */
	const struct yn_node *at, *attn = yn_map_get(m, "attn_config");
	int alibi = -1, no_bias;
	if ((attn && imp_yaml_bool(root, attn, "alibi", &alibi, r, d)) || imp_yaml_bool(root, m, "no_bias", &no_bias, r, d))
		return -1;
	if (alibi == 1)
		from_node(r, IMP_MODEL, "positions", "alibi", "model.attn_config.alibi", imp_yaml_get(root, attn, "alibi"));
	else
		imp_chose(r, IMP_MODEL, "positions", "learned", "no model.attn_config.alibi: MPTConfig's learned positions");
	if (no_bias == 1)
		from_node(r, IMP_MODEL, "bias", "false", "model.no_bias", imp_yaml_get(root, m, "no_bias"));
	imp_chose(r, IMP_MODEL, "tied_embeddings", "true", "MPTConfig ties the embeddings");
	const char *impl = word(root, attn, "attn_impl", &at);
	if (impl)
		from_node(r, IMP_TRAINING, "flash_attention", strcmp(impl, "torch") ? "true" : "false",
			  "model.attn_config.attn_impl", at);
	return 0;
}

/* max_duration: "NNNba" steps or "NNNtok" tokens. */
static int foundry_duration(const struct yn_node *root, struct imp_result *r, struct tc_diag *d)
{
	const struct yn_node *at;
	const char *s = word(root, root, "max_duration", &at);
	char *end, buf[32];
	if (!s)
		return 0;
	double x = strtod(s, &end);
	if (x >= 1 && (!strcmp(end, "ba") || !strcmp(end, "tok"))) {
		snprintf(buf, sizeof(buf), "%.15g", x);
		from_node(r, IMP_TRAINING, !strcmp(end, "ba") ? "steps" : "tokens", buf, "max_duration", at);
		return 0;
	}
	if (x > 0 && !strcmp(end, "ep")) {
		imp_warn(r, "max_duration '%s' (line %d) counts epochs, and the dataset's size is not in the "
			 "config: give --tokens", s, at->line);
		return 0;
	}
	return imp_err(d, r, at->line, at->col, "max_duration '%s' is not a duration (expected a number with "
		       "ba, tok or ep)", s);
}

int imp_foundry_read(const struct yn_doc *doc, struct imp_result *r, struct tc_diag *d)
{
	const struct yn_node *root = doc->root, *m = yn_map_get(root, "model"), *at;
	const struct yn_node *fsdp = yn_map_get(root, "fsdp_config");
	if (imp_yaml_int(root, root, "max_seq_len", "max_seq_len", IMP_TRAINING, "seq_len", 1, 10000000, r, d) ||
	    imp_yaml_int(root, root, "global_train_batch_size", "global_train_batch_size", IMP_TRAINING,
			 "global_batch", 1, 100000000, r, d) ||
	    imp_yaml_int(root, root, "device_train_microbatch_size", "device_train_microbatch_size", IMP_PLAN,
			 "micro_batch", 1, 1000000, r, d) || foundry_duration(root, r, d))
		return -1;
	const char *name = word(root, m, "name", &at);
	if (name && !strcmp(name, "mpt_causal_lm") && foundry_mpt(root, m, r, d))
		return -1;
	if (name && strcmp(name, "mpt_causal_lm"))
		imp_warn(r, "model.name '%s' (line %d): the architecture comes from --hf-config", name, at->line);
	static const char *const prec[][2] = { { "amp_bf16", "bf16" }, { "amp_fp16", "fp16" },
					       { "amp_fp8", "fp8" }, { "fp32", "fp32" } };
	const char *p = word(root, root, "precision", &at);
	for (size_t i = 0; p && i < sizeof(prec) / sizeof(prec[0]); i++)
		if (!strcmp(p, prec[i][0]))
			from_node(r, IMP_TRAINING, "precision", prec[i][1], "precision", at);
	static const char *const shard[][2] = { { "FULL_SHARD", "3" }, { "SHARD_GRAD_OP", "2" },
						{ "HYBRID_SHARD", "3" }, { "NO_SHARD", "0" } };
	const char *s = word(root, fsdp, "sharding_strategy", &at);
	for (size_t i = 0; s && i < sizeof(shard) / sizeof(shard[0]); i++)
		if (!strcmp(s, shard[i][0]))
			from_node(r, IMP_PLAN, "zero", shard[i][1], "fsdp_config.sharding_strategy", at);
	if (s && !strcmp(s, "HYBRID_SHARD"))
		imp_warn(r, "HYBRID_SHARD shards inside each node: set plan.shard_group to the GPUs per node");
	int ckpt;
	if (fsdp && imp_yaml_bool(root, fsdp, "activation_checkpointing", &ckpt, r, d))
		return -1;
	if (fsdp && ckpt >= 0)
		from_node(r, IMP_TRAINING, "recompute", ckpt ? "full" : "none",
			  "fsdp_config.activation_checkpointing", imp_yaml_get(root, fsdp, "activation_checkpointing"));
	imp_default(r, IMP_TRAINING, "precision", "fp32", "no precision: Composer trains in fp32");
	imp_default(r, IMP_TRAINING, "recompute", "none", "no fsdp_config.activation_checkpointing");
	imp_default(r, IMP_PLAN, "zero", "3", "FSDP's default FULL_SHARD");
	imp_chose(r, IMP_PLAN, "grad_overlap", "true", "FSDP reduce-scatters gradients during the backward");
	imp_default(r, IMP_PLAN, "framework", "composer", "the config is an llm-foundry YAML (Composer)");
	return 0;
}

/* --- DeepSpeed ------------------------------------------------------- */

/* The keys of a DeepSpeed config mapping `ds` ("auto" values skipped: the
 * Hugging Face integration fills them).  `where` prefixes notes. */
static int deepspeed_keys(const struct yn_node *root, const struct yn_node *ds, const char *where,
			  struct imp_result *r, long *mb, long *ga, struct tc_diag *d)
{
	char from[IMP_NOTE_LEN];
	const struct yn_node *at;
	*mb = *ga = 0;
	if (!((at = imp_yaml_get(root, ds, "train_batch_size")) && at->type == YN_SCALAR && !strcmp(at->str, "auto"))) {
		snprintf(from, sizeof(from), "%strain_batch_size", where);
		if (imp_yaml_int(root, ds, "train_batch_size", from, IMP_TRAINING, "global_batch", 1, 100000000, r, d))
			return -1;
	}
	const char *mbw = word(root, ds, "train_micro_batch_size_per_gpu", NULL);
	const char *gaw = word(root, ds, "gradient_accumulation_steps", NULL);
	if (mbw && strcmp(mbw, "auto")) {
		snprintf(from, sizeof(from), "%strain_micro_batch_size_per_gpu", where);
		if (imp_yaml_int(root, ds, "train_micro_batch_size_per_gpu", from, IMP_PLAN, "micro_batch", 1,
				 1000000, r, d) ||
		    imp_yaml_long(root, ds, "train_micro_batch_size_per_gpu", 1000000, mb, r, d))
			return -1;
	}
	if (gaw && strcmp(gaw, "auto") && imp_yaml_long(root, ds, "gradient_accumulation_steps", 1000000, ga, r, d))
		return -1;
	const struct yn_node *z = yn_map_get(ds, "zero_optimization");
	const char *stage = word(root, z, "stage", &at);
	if (stage) {
		long st;
		if (imp_parse_long(stage, 0, 3, &st))
			return imp_err(d, r, at->line, at->col, "zero_optimization.stage is '%s' (expected 0 to 3)", stage);
		snprintf(from, sizeof(from), "%szero_optimization.stage", where);
		from_node(r, IMP_PLAN, "zero", stage, from, at);
		int overlap;
		if (imp_yaml_bool(root, z, "overlap_comm", &overlap, r, d))
			return -1;
		snprintf(from, sizeof(from), "%szero_optimization.overlap_comm", where);
		if (overlap >= 0)
			from_node(r, IMP_PLAN, "grad_overlap", overlap ? "true" : "false", from,
				  imp_yaml_get(root, z, "overlap_comm"));
	}
	static const char *const precs[][2] = { { "bf16", "bf16" }, { "fp16", "fp16" } };
	for (size_t i = 0; i < 2; i++) {
		const struct yn_node *p = yn_map_get(ds, precs[i][0]);
		const char *en = word(root, p, "enabled", &at);
		if (en && !strcmp(en, "true")) {
			snprintf(from, sizeof(from), "%s%s.enabled", where, precs[i][0]);
			from_node(r, IMP_TRAINING, "precision", precs[i][1], from, at);
		}
	}
	imp_default(r, IMP_PLAN, "grad_overlap", "false", "DeepSpeed's default overlap_comm: false");
	return 0;
}

int imp_deepspeed_read(const struct yn_doc *doc, struct imp_result *r, struct tc_diag *d)
{
	long mb, ga;
	if (deepspeed_keys(doc->root, doc->root, "", r, &mb, &ga, d))
		return -1;
	if (yn_map_get(doc->root, "activation_checkpointing"))
		imp_warn(r, "activation_checkpointing only configures checkpointing; whether the model uses it is "
			 "in the training script: set training.recompute");
	imp_default(r, IMP_TRAINING, "precision", "fp32", "neither bf16 nor fp16 enabled: DeepSpeed trains in fp32");
	imp_default(r, IMP_TRAINING, "recompute", "none", "the config does not say the model checkpoints activations");
	imp_default(r, IMP_PLAN, "zero", "0", "no zero_optimization.stage");
	imp_default(r, IMP_PLAN, "framework", "deepspeed", "the config is a DeepSpeed JSON");
	r->batch_micro = mb;
	r->batch_accum = ga;
	r->batch_what = "train_micro_batch_size_per_gpu x gradient_accumulation_steps";
	return 0;
}

/* --- Axolotl --------------------------------------------------------- */

/* The DeepSpeed JSON an Axolotl YAML names (relative to the YAML's
 * folder): its ZeRO stage, overlap and precision.  One that cannot be
 * read is named in a warning.  Returns 0, or -1 for a broken one. */
static int axolotl_deepspeed(struct imp_result *r, const char *ds, int line, struct tc_diag *d)
{
	char path[IMP_PATH_LEN], where[IMP_PATH_LEN + 4];
	const char *slash = strrchr(r->file, '/');
	int dir = ds[0] == '/' || !slash ? 0 : (int)(slash - r->file) + 1;
	struct yn_doc doc = { 0 };
	struct tc_diag quiet;
	long mb, ga;
	if (snprintf(path, sizeof(path), "%.*s%s", dir, r->file, ds) >= (int)sizeof(path))
		return imp_err(d, r, line, 1, "deepspeed path is too long");
	tc_diag_init(&quiet);
	if (yn_load_file(path, &doc, &quiet)) {
		imp_warn(r, "deepspeed '%s' (line %d) could not be read (%s): set plan.zero to its "
			 "zero_optimization.stage", ds, line, quiet.count ? quiet.entry[0].msg : "unreadable");
		yn_doc_release(&doc);
		return 0;
	}
	snprintf(where, sizeof(where), "%s: ", ds);
	int rc = doc.root->type == YN_MAP ? deepspeed_keys(doc.root, doc.root, where, r, &mb, &ga, d) :
		 tc_diag_at(d, TC_EXIT_INPUT, path, doc.root->line, doc.root->col, "the DeepSpeed config holds %s "
			    "(expected a mapping)", yn_type_name(doc.root));
	yn_doc_release(&doc);
	if (!rc && !imp_get(r, IMP_PLAN, "zero"))
		imp_warn(r, "deepspeed '%s' (line %d) names no zero_optimization.stage", ds, line);
	return rc;
}

int imp_axolotl_read(const struct yn_doc *doc, struct imp_result *r, struct tc_diag *d)
{
	const struct yn_node *root = doc->root, *at;
	if (imp_yaml_int(root, root, "sequence_len", "sequence_len", IMP_TRAINING, "seq_len", 1, 10000000, r, d) ||
	    imp_yaml_int(root, root, "micro_batch_size", "micro_batch_size", IMP_PLAN, "micro_batch", 1, 1000000,
			 r, d) ||
	    imp_yaml_int(root, root, "max_steps", "max_steps", IMP_TRAINING, "steps", 1, 1000000000000L, r, d))
		return -1;
	if (imp_yaml_long(root, root, "micro_batch_size", 1000000, &r->batch_micro, r, d) ||
	    imp_yaml_long(root, root, "gradient_accumulation_steps", 1000000, &r->batch_accum, r, d))
		return -1;
	r->batch_what = "micro_batch_size x gradient_accumulation_steps";
	const char *adapter = word(root, root, "adapter", &at);
	if (adapter && (!strcmp(adapter, "lora") || !strcmp(adapter, "qlora"))) {
		from_node(r, IMP_TRAINING, "finetune", adapter, "adapter", at);
		/* PEFT's names of a Llama-style block's linears; q, k and v are
		 * one adapter on the fused QKV here */
		static const char *const modules[] = { "q_proj", "k_proj", "v_proj", "qkv_proj", "o_proj",
						       "gate_proj", "up_proj", "down_proj", NULL };
		static const unsigned sets[] = { LORA_QKV, LORA_QKV, LORA_QKV, LORA_QKV, LORA_PROJ, LORA_FC1,
						 LORA_FC1, LORA_FC2 };
		int linear;
		if (imp_yaml_int(root, root, "lora_r", "lora_r", IMP_TRAINING, "lora_rank", 1, 65536, r, d) ||
		    imp_yaml_bool(root, root, "lora_target_linear", &linear, r, d))
			return -1;
		if (linear == 1)
			from_node(r, IMP_TRAINING, "lora_targets", "all", "lora_target_linear",
				  imp_yaml_get(root, root, "lora_target_linear"));
		else if (imp_yaml_lora_targets(root, root, "lora_target_modules", "lora_target_modules", modules,
					       sets, "q_proj, k_proj, v_proj, qkv_proj, o_proj, gate_proj, up_proj or "
					       "down_proj", r, d))
			return -1;
	} else if (adapter && adapter[0]) {
		return imp_err(d, r, at->line, at->col, "adapter '%s' is not modelled (expected lora or qlora)", adapter);
	}
	const char *bm = word(root, root, "base_model", &at);
	if (bm)
		snprintf(r->name, sizeof(r->name), "%s", bm);
	int on;
	if (imp_yaml_flag(root, root, "flash_attention", "flash_attention", IMP_TRAINING, "flash_attention", r, d) ||
	    imp_yaml_flag(root, root, "torch_compile", "torch_compile", IMP_PLAN, "compile", r, d) ||
	    imp_yaml_bool(root, root, "gradient_checkpointing", &on, r, d))
		return -1;
	if (on >= 0)
		from_node(r, IMP_TRAINING, "recompute", on ? "full" : "none", "gradient_checkpointing",
			  imp_yaml_get(root, root, "gradient_checkpointing"));
	static const char *const precs[][2] = { { "bf16", "bf16" }, { "fp16", "fp16" } };
	for (size_t i = 0; i < 2; i++) {
		const char *w = word(root, root, precs[i][0], &at);
		if (w && (!strcmp(w, "true") || !strcmp(w, "auto")))
			from_node(r, IMP_TRAINING, "precision", precs[i][1], precs[i][0], at);
	}
	if (imp_yaml_bool(root, root, "sample_packing", &on, r, d))
		return -1;
	if (on == 1)
		imp_warn(r, "sample_packing is true: set training.packing: true and mean_seq_len (the mean real "
			 "tokens per sample), which the config does not state");
	const char *ds = word(root, root, "deepspeed", &at);
	const struct yn_node *fsdp = yn_map_get(root, "fsdp");
	if (ds && ds[0]) {
		imp_chose(r, IMP_PLAN, "framework", "deepspeed", "the config names a DeepSpeed config");
		if (axolotl_deepspeed(r, ds, at->line, d))
			return -1;
		imp_default(r, IMP_PLAN, "zero", "0", "no ZeRO stage read from the DeepSpeed config (see the warnings)");
	} else if (fsdp && !yn_is_null(fsdp)) {
		imp_chose(r, IMP_PLAN, "framework", "fsdp", "the config sets fsdp");
		imp_chose(r, IMP_PLAN, "zero", "3", "fsdp: full_shard");
		imp_chose(r, IMP_PLAN, "grad_overlap", "true", "FSDP reduce-scatters gradients during the backward");
	}
	imp_default(r, IMP_TRAINING, "precision", "fp32", "neither bf16 nor fp16: the Trainer runs in fp32");
	imp_default(r, IMP_TRAINING, "recompute", "none", "no gradient_checkpointing");
	imp_default(r, IMP_TRAINING, "flash_attention", "false", "no flash_attention");
	imp_default(r, IMP_PLAN, "framework", "hf-trainer", "the config is an Axolotl YAML (Hugging Face Trainer)");
	imp_default(r, IMP_PLAN, "zero", "0", "neither deepspeed nor fsdp: DDP");
	imp_default(r, IMP_PLAN, "grad_overlap", "true", "DDP overlaps the all-reduce with the backward");
	return 0;
}
