/*
 * imp_nemo.c - a NeMo 1.x recipe (megatron_gpt_config.yaml and the
 * fine-tuning configs built on it: `trainer`, `model`, `model.optim`,
 * `model.peft`) or a Megatron-Bridge recipe as its ConfigContainer is
 * written to YAML (`model` with Megatron-Core's TransformerConfig names,
 * `train`, `optimizer`, `ddp`, `mixed_precision`, `dataset`) read into
 * workload keys.  OmegaConf interpolations of the form ${.key} and ${a.b}
 * are followed.
 */
#include "imp_nemo.h"

#include <stdio.h>
#include <string.h>

#include "imp_util.h"

/* model.* numbers that set one workload key. */
static const struct {
	const char *name;
	enum imp_sec sec;
	const char *key;
	long max;
} numbers[] = {
	{ "num_layers", IMP_MODEL, "layers", 10000 },
	{ "hidden_size", IMP_MODEL, "hidden", 1000000 },
	{ "num_attention_heads", IMP_MODEL, "heads", 100000 },
	{ "num_query_groups", IMP_MODEL, "kv_heads", 100000 },
	{ "kv_channels", IMP_MODEL, "head_dim", 65536 },
	{ "ffn_hidden_size", IMP_MODEL, "ffn", 100000000 },
	{ "max_position_embeddings", IMP_MODEL, "max_positions", 100000000 },
	{ "num_moe_experts", IMP_MODEL, "experts", 65536 },
	{ "moe_router_topk", IMP_MODEL, "top_k", 65536 },
	{ "vocab_size", IMP_MODEL, "vocab", 10000000 },
	{ "encoder_seq_length", IMP_TRAINING, "seq_len", 10000000 },
	{ "seq_length", IMP_TRAINING, "seq_len", 10000000 },
	{ "global_batch_size", IMP_TRAINING, "global_batch", 100000000 },
	{ "micro_batch_size", IMP_PLAN, "micro_batch", 1000000 },
	{ "tensor_model_parallel_size", IMP_PLAN, "tp", 65536 },
	{ "pipeline_model_parallel_size", IMP_PLAN, "pp", 65536 },
	{ "virtual_pipeline_model_parallel_size", IMP_PLAN, "interleave", 1024 },
	{ "context_parallel_size", IMP_PLAN, "cp", 65536 },
	{ "expert_model_parallel_size", IMP_PLAN, "ep", 65536 },
};

/* model.* booleans that set one workload key. */
static const struct {
	const char *name;
	enum imp_sec sec;
	const char *key;
} switches[] = {
	{ "sequence_parallel", IMP_PLAN, "sequence_parallel" },
	{ "tp_comm_overlap", IMP_PLAN, "tp_comm_overlap" },
	{ "use_flash_attention", IMP_TRAINING, "flash_attention" },
	{ "bias", IMP_MODEL, "bias" },
	{ "share_embeddings_and_output_weights", IMP_MODEL, "tied_embeddings" },
	{ "add_bias_linear", IMP_MODEL, "bias" },
	{ "activation_func_fp8_input_store", IMP_TRAINING, "mlp_act_input_fp8" },
};

/* model.* words: which word sets which key. */
static const struct {
	const char *name, *word;
	enum imp_sec sec;
	const char *key, *text;
} words[] = {
	{ "normalization", "rmsnorm", IMP_MODEL, "norm", "rmsnorm" },
	{ "normalization", "layernorm", IMP_MODEL, "norm", "layernorm" },
	{ "normalization", "layernorm1p", IMP_MODEL, "norm", "layernorm" },
	{ "activation", "fast-swiglu", IMP_MODEL, "ffn_act", "swiglu" },
	{ "activation", "swiglu", IMP_MODEL, "ffn_act", "swiglu" },
	{ "activation", "gelu", IMP_MODEL, "ffn_act", "gelu" },
	{ "activation", "fast-geglu", IMP_MODEL, "ffn_act", "geglu" },
	{ "activation", "geglu", IMP_MODEL, "ffn_act", "geglu" },
	{ "activation", "relu", IMP_MODEL, "ffn_act", "relu" },
	{ "position_embedding_type", "rope", IMP_MODEL, "positions", "rope" },
	{ "position_embedding_type", "learned_absolute", IMP_MODEL, "positions", "learned" },
	{ "position_embedding_type", "alibi", IMP_MODEL, "positions", "alibi" },
	{ "activations_checkpoint_granularity", "full", IMP_TRAINING, "recompute", "full" },
	{ "activations_checkpoint_granularity", "selective", IMP_TRAINING, "recompute", "selective" },
	/* Megatron-Core's spellings (Megatron-Bridge) */
	{ "normalization", "RMSNorm", IMP_MODEL, "norm", "rmsnorm" },
	{ "normalization", "LayerNorm", IMP_MODEL, "norm", "layernorm" },
	{ "recompute_granularity", "full", IMP_TRAINING, "recompute", "full" },
	{ "recompute_granularity", "selective", IMP_TRAINING, "recompute", "selective" },
};

/* trainer.precision: the words NeMo 1.x accepts. */
static const char *const prec_words[][2] = {
	{ "bf16", "bf16" }, { "bf16-mixed", "bf16" }, { "16", "fp16" }, { "16-mixed", "fp16" },
	{ "32", "fp32" }, { "32-true", "fp32" },
};

static int read_model(const struct yn_node *root, const struct yn_node *model, struct imp_result *r,
		      struct tc_diag *d)
{
	char from[96];
	int bad = 0;
	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
		snprintf(from, sizeof(from), "model.%s", numbers[i].name);
		if (numbers[i].sec == IMP_TRAINING && !strcmp(numbers[i].key, "seq_len") &&
		    imp_get(r, IMP_TRAINING, "seq_len"))
			continue; /* encoder_seq_length wins over seq_length */
		bad |= imp_yaml_int(root, model, numbers[i].name, from, numbers[i].sec, numbers[i].key, 1,
				    numbers[i].max, r, d);
	}
	for (size_t i = 0; i < sizeof(switches) / sizeof(switches[0]); i++) {
		snprintf(from, sizeof(from), "model.%s", switches[i].name);
		bad |= imp_yaml_flag(root, model, switches[i].name, from, switches[i].sec, switches[i].key, r, d);
	}
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		const struct yn_node *v = imp_yaml_get(root, model, words[i].name);
		if (!v || v->type != YN_SCALAR || strcmp(v->str, words[i].word))
			continue;
		snprintf(from, sizeof(from), "model.%s: %s", words[i].name, words[i].word);
		imp_from(r, words[i].sec, words[i].key, words[i].text, from, v->line, v->col);
	}
	const struct yn_node *fp8 = imp_yaml_get(root, model, "fp8");
	int on;
	if (fp8 && fp8->type == YN_SCALAR && (!strcmp(fp8->str, "hybrid") || !strcmp(fp8->str, "e4m3")))
		on = 1; /* Megatron-Core's fp8 recipe names */
	else if (imp_yaml_bool(root, model, "fp8", &on, r, d))
		bad = 1;
	else if (on == 1)
		imp_from(r, IMP_TRAINING, "precision", "fp8", "model.fp8", fp8->line, fp8->col);
	return bad ? -1 : 0;
}

/* trainer: GPUs, precision and run length. */
static int read_trainer(const struct yn_node *root, const struct yn_node *tr, struct imp_result *r,
			struct tc_diag *d)
{
	long devices, nodes;
	char buf[32];
	if (imp_yaml_long(root, tr, "devices", 1024, &devices, r, d) ||
	    imp_yaml_long(root, tr, "num_nodes", 100000, &nodes, r, d))
		return -1;
	if (devices) {
		const struct yn_node *v = imp_yaml_get(root, tr, "devices");
		snprintf(buf, sizeof(buf), "%ld", devices);
		imp_from(r, IMP_PLAN, "gpus_per_node", buf, "trainer.devices", v->line, v->col);
		snprintf(buf, sizeof(buf), "%ld", devices * (nodes ? nodes : 1));
		imp_from(r, IMP_PLAN, "count", buf, nodes ? "trainer.num_nodes x trainer.devices" :
			 "trainer.devices (no num_nodes: one node)", v->line, v->col);
	}
	const struct yn_node *ms = imp_yaml_get(root, tr, "max_steps");
	if (ms && !(ms->type == YN_SCALAR && !strcmp(ms->str, "-1")) &&
	    imp_yaml_int(root, tr, "max_steps", "trainer.max_steps", IMP_TRAINING, "steps", 1,
			 1000000000000L, r, d))
		return -1;
	const struct yn_node *p = imp_yaml_get(root, tr, "precision");
	if (!p || imp_get(r, IMP_TRAINING, "precision"))
		return 0;
	for (size_t i = 0; i < sizeof(prec_words) / sizeof(prec_words[0]); i++)
		if (p->type == YN_SCALAR && !strcmp(p->str, prec_words[i][0])) {
			imp_from(r, IMP_TRAINING, "precision", prec_words[i][1], "trainer.precision", p->line, p->col);
			return 0;
		}
	return imp_err(d, r, p->line, p->col, "trainer.precision '%s' is not known (expected bf16, bf16-mixed, "
		       "16, 16-mixed or 32)", p->type == YN_SCALAR ? p->str : yn_type_name(p));
}

/* model.optim, model.peft, the sequence length of a fine-tuning dataset,
 * recompute of some layers. */
static int read_extras(const struct yn_node *root, const struct yn_node *model, struct imp_result *r,
		       struct tc_diag *d)
{
	const struct yn_node *optim = yn_map_get(model, "optim");
	const struct yn_node *name = optim ? imp_yaml_get(root, optim, "name") : NULL;
	int overlap;
	if (name && name->type == YN_SCALAR && !strcmp(name->str, "distributed_fused_adam")) {
		imp_from(r, IMP_PLAN, "zero", "1", "model.optim.name: distributed_fused_adam", name->line, name->col);
		if (imp_yaml_bool(root, optim, "overlap_grad_sync", &overlap, r, d))
			return -1;
		const struct yn_node *ov = imp_yaml_get(root, optim, "overlap_grad_sync");
		if (overlap >= 0)
			imp_from(r, IMP_PLAN, "grad_overlap", overlap ? "true" : "false", "model.optim.overlap_grad_sync",
				 ov->line, ov->col);
		else
			imp_chose(r, IMP_PLAN, "grad_overlap", "true",
				  "distributed_fused_adam overlaps the gradient reduce-scatter by default");
	} else if (name && name->type == YN_SCALAR) {
		imp_from(r, IMP_PLAN, "zero", "0", "model.optim.name (not the distributed optimizer)", name->line,
			 name->col);
	}
	const struct yn_node *peft = yn_map_get(model, "peft");
	const struct yn_node *scheme = peft ? imp_yaml_get(root, peft, "peft_scheme") : NULL;
	if (scheme && scheme->type == YN_SCALAR && !strcmp(scheme->str, "lora")) {
		imp_from(r, IMP_TRAINING, "finetune", "lora", "model.peft.peft_scheme", scheme->line, scheme->col);
		const struct yn_node *lt = yn_map_get(peft, "lora_tuning");
		/* NeMo's names of the linears (megatron_gpt_finetuning_config.yaml) */
		static const char *const modules[] = { "attention_qkv", "attention_dense", "mlp_fc1", "mlp_fc2",
						       "attention", "mlp", "all", NULL };
		static const unsigned sets[] = { LORA_QKV, LORA_PROJ, LORA_FC1, LORA_FC2, LORA_QKV | LORA_PROJ,
						 LORA_FC1 | LORA_FC2, LORA_ALL };
		if (lt && (imp_yaml_int(root, lt, "adapter_dim", "model.peft.lora_tuning.adapter_dim", IMP_TRAINING,
					"lora_rank", 1, 65536, r, d) ||
			   imp_yaml_lora_targets(root, lt, "target_modules", "model.peft.lora_tuning.target_modules",
						 modules, sets, "attention_qkv, attention_dense, mlp_fc1, mlp_fc2, "
						 "attention, mlp or all", r, d)))
			return -1;
		/* fp8_params keeps the parameters in fp8 alone: under LoRA,
		 * the frozen base */
		if (imp_yaml_flag(root, model, "fp8_params", "model.fp8_params", IMP_TRAINING, "lora_base_fp8", r, d))
			return -1;
	} else if (scheme && scheme->type == YN_SCALAR && strcmp(scheme->str, "none")) {
		imp_warn(r, "model.peft.peft_scheme '%s' (line %d) is not modelled: the workload trains every "
			 "weight", scheme->str, scheme->line);
	}
	const struct yn_node *data = yn_map_get(model, "data");
	const struct yn_node *train_ds = data ? yn_map_get(data, "train_ds") : NULL;
	if (train_ds && !imp_get(r, IMP_TRAINING, "seq_len") &&
	    imp_yaml_int(root, train_ds, "max_seq_length", "model.data.train_ds.max_seq_length", IMP_TRAINING,
			 "seq_len", 1, 10000000, r, d))
		return -1;
	int packed;
	if (train_ds && imp_yaml_bool(root, train_ds, "packed_sequence", &packed, r, d))
		return -1;
	if (train_ds && packed == 1)
		imp_warn(r, "model.data.train_ds.packed_sequence is true: set training.packing: true and "
			 "mean_seq_len (the mean real tokens per sample), which the recipe does not state");
	return 0;
}

int imp_nemo_read(const struct yn_doc *doc, struct imp_result *r, struct tc_diag *d)
{
	const struct yn_node *root = doc->root, *model = yn_map_get(root, "model");
	const struct yn_node *tr = yn_map_get(root, "trainer"), *name = yn_map_get(root, "name");
	if (tr && tr->type != YN_MAP)
		return imp_err(d, r, tr->line, tr->col, "trainer is %s (expected a mapping)", yn_type_name(tr));
	if (read_model(root, model, r, d) || (tr && read_trainer(root, tr, r, d)) ||
	    read_extras(root, model, r, d))
		return -1;
	if (name && name->type == YN_SCALAR && name->str[0])
		snprintf(r->name, sizeof(r->name), "%s", name->str);
	/* NeMo's Megatron-Core models run attention through Transformer
	 * Engine's fused kernels unless the recipe turns them off. */
	static const char *const legacy[] = { "mcore_gpt", "transformer_engine" };
	for (size_t i = 0; i < 2 && !imp_get(r, IMP_TRAINING, "flash_attention"); i++) {
		const struct yn_node *v = imp_yaml_get(root, model, legacy[i]);
		if (v && v->type == YN_SCALAR && (!strcmp(v->str, "false") || !strcmp(v->str, "False")))
			imp_from(r, IMP_TRAINING, "flash_attention", "false", i ? "model.transformer_engine" :
				 "model.mcore_gpt", v->line, v->col);
	}
	imp_default(r, IMP_TRAINING, "precision", "fp32", "no trainer.precision: NeMo trains in fp32");
	imp_default(r, IMP_TRAINING, "optimizer", "adamw", "NeMo's Adam optimizers (decoupled weight decay)");
	imp_default(r, IMP_TRAINING, "recompute", "none", "no model.activations_checkpoint_granularity");
	imp_default(r, IMP_TRAINING, "flash_attention", "true",
		    "no model.use_flash_attention: Megatron-Core models fuse attention (Transformer Engine)");
	imp_default(r, IMP_PLAN, "framework", "nemo", "the config is a NeMo recipe");
	imp_default(r, IMP_PLAN, "tp", "1", "NeMo's default");
	imp_default(r, IMP_PLAN, "pp", "1", "NeMo's default");
	imp_default(r, IMP_PLAN, "zero", "0", "no model.optim.name: every rank holds the optimizer states");
	imp_default(r, IMP_PLAN, "sequence_parallel", "false", "no model.sequence_parallel");
	imp_default(r, IMP_PLAN, "grad_overlap", "false", "no distributed optimizer overlapping the reduction");
	return 0;
}

/* Megatron-Bridge's mixed_precision: a recipe name ("bf16_mixed",
 * "bf16_with_fp8_delayed_scaling_mixed", ...) or a mapping of switches. */
static void bridge_precision(const struct yn_node *root, struct imp_result *r)
{
	const struct yn_node *mp = yn_map_get(root, "mixed_precision"), *v;
	if (!mp || imp_get(r, IMP_TRAINING, "precision"))
		return;
	if (mp->type == YN_SCALAR) {
		const char *p = strstr(mp->str, "fp8") ? "fp8" : !strncmp(mp->str, "bf16", 4) ? "bf16" :
				!strncmp(mp->str, "fp16", 4) ? "fp16" : NULL;
		if (p)
			imp_from(r, IMP_TRAINING, "precision", p, "mixed_precision", mp->line, mp->col);
		else
			imp_warn(r, "mixed_precision '%s' (line %d) is not known: set training.precision", mp->str, mp->line);
		return;
	}
	static const char *const keys[][2] = { { "fp8", "fp8" }, { "bf16", "bf16" }, { "fp16", "fp16" } };
	for (size_t i = 0; i < 3; i++)
		if ((v = yn_map_get(mp, keys[i][0])) && v->type == YN_SCALAR && !yn_is_null(v) && strcmp(v->str, "false")) {
			imp_from(r, IMP_TRAINING, "precision", keys[i][1], "mixed_precision", v->line, v->col);
			return;
		}
}

int imp_bridge_read(const struct yn_doc *doc, struct imp_result *r, struct tc_diag *d)
{
	const struct yn_node *root = doc->root, *model = yn_map_get(root, "model"), *train = yn_map_get(root, "train");
	const struct yn_node *ddp = yn_map_get(root, "ddp"), *opt = yn_map_get(root, "optimizer");
	const struct yn_node *ds = yn_map_get(root, "dataset"), *v;
	int on;
	if (read_model(root, model, r, d) ||
	    imp_yaml_int(root, train, "global_batch_size", "train.global_batch_size", IMP_TRAINING, "global_batch", 1,
			 100000000, r, d) ||
	    imp_yaml_int(root, train, "micro_batch_size", "train.micro_batch_size", IMP_PLAN, "micro_batch", 1,
			 1000000, r, d) ||
	    imp_yaml_int(root, train, "train_iters", "train.train_iters", IMP_TRAINING, "steps", 1, 1000000000000L, r, d))
		return -1;
	if (ds && !imp_get(r, IMP_TRAINING, "seq_len") &&
	    imp_yaml_int(root, ds, "sequence_length", "dataset.sequence_length", IMP_TRAINING, "seq_len", 1, 10000000, r, d))
		return -1;
	if (imp_yaml_bool(root, model, "gated_linear_unit", &on, r, d))
		return -1;
	if (on == 1 && !imp_get(r, IMP_MODEL, "ffn_act")) {
		v = imp_yaml_get(root, model, "gated_linear_unit");
		imp_from(r, IMP_MODEL, "ffn_act", "swiglu", "model.gated_linear_unit (with SiLU, as the Llama providers)",
			 v->line, v->col);
	}
	bridge_precision(root, r);
	for (const struct yn_node *m = opt; m; m = m == opt ? ddp : NULL)
		if (m->type == YN_MAP && (v = imp_yaml_get(root, m, "use_distributed_optimizer")) && v->type == YN_SCALAR)
			imp_from(r, IMP_PLAN, "zero", strcmp(v->str, "true") ? "0" : "1",
				 m == opt ? "optimizer.use_distributed_optimizer" : "ddp.use_distributed_optimizer",
				 v->line, v->col);
	if (ddp && imp_yaml_flag(root, ddp, "overlap_grad_reduce", "ddp.overlap_grad_reduce", IMP_PLAN, "grad_overlap",
				 r, d))
		return -1;
	imp_default(r, IMP_TRAINING, "precision", "fp32", "no mixed_precision: Megatron-Core trains in fp32");
	imp_default(r, IMP_TRAINING, "recompute", "none", "no model.recompute_granularity");
	imp_default(r, IMP_TRAINING, "flash_attention", "true", "Megatron-Bridge runs attention through Transformer Engine");
	imp_default(r, IMP_PLAN, "framework", "nemo", "the config is a Megatron-Bridge recipe (NeMo's stack)");
	imp_default(r, IMP_PLAN, "tp", "1", "Megatron-Core's default");
	imp_default(r, IMP_PLAN, "pp", "1", "Megatron-Core's default");
	imp_default(r, IMP_PLAN, "zero", "0", "no use_distributed_optimizer");
	imp_default(r, IMP_PLAN, "sequence_parallel", "false", "no model.sequence_parallel");
	imp_default(r, IMP_PLAN, "grad_overlap", "false", "no ddp.overlap_grad_reduce");
	return 0;
}
