/*
 * test_import.c - `traincost import` (src/io/imp_*.c): configs of each
 * kind read into workload keys, the written workload loaded and
 * estimated, the megatron-2021 row reproduced from its command line, and
 * bad configs refused at their position.
 */
#include "tc_test.h"

#include "../../src/io/fw_load.h"
#include "../../src/io/imp.h"
#include "../../src/io/imp_common.h"
#include "../../src/io/imp_util.h"
#include "../../src/io/val_load.h"
#include "../../src/io/wl_load.h"
#include "../../src/io/yaml_load.h"
#include "../../src/model/analyses/validate.h"

#define CONF "tests/import/configs/"

/* Import `path` with options o; the import must succeed. */
static void import_ok(const char *path, const struct imp_options *o, struct imp_result *r)
{
	struct tc_diag d;
	tc_diag_init(&d);
	if (imp_load_file(path, o, tc_test_datapath(), r, &d))
		fail_msg("%s: %s", path, d.count ? d.entry[0].msg : "failed");
}

/* The written workload of r, loaded as `estimate` reads it. */
static void load_written(const struct imp_result *r, struct workload *w)
{
	char *text = NULL;
	size_t len = 0;
	struct yn_doc doc = { 0 };
	struct tc_diag d;
	FILE *mem = open_memstream(&text, &len);
	assert_non_null(mem);
	assert_int_equal(imp_write(r, mem), 0);
	assert_int_equal(fclose(mem), 0);
	tc_diag_init(&d);
	if (yn_load_buffer("written.yaml", text, len, &doc, &d) || wl_load_doc(&doc, tc_test_datapath(), w, &d))
		fail_msg("the written workload does not load: %s\n%s", d.count ? d.entry[0].msg : "?", text);
	yn_doc_release(&doc);
	free(text);
}

/* The text of key (sec, key); the key must be there. */
static const char *text_of(const struct imp_result *r, enum imp_sec sec, const char *key)
{
	const struct imp_value *v = imp_get(r, sec, key);
	if (!v)
		fail_msg("no %s", key);
	return v->text;
}

/* The 39B row of Narayanan et al. (tests/validation/megatron-2021.csv)
 * from its command line: every plan and training value the row states,
 * and the same predicted TFLOP/s.  Two things the command line does not
 * say is made the row's before the comparison: the framework (the row
 * names none, the 2021 code predates the profiles; the import names
 * megatron).  The network is the same: the row's bare 50 GB/s and the
 * import's ib-hdr are both 50 GB/s of InfiniBand. */
static void test_megatron_2021_row(void **state)
{
	struct imp_options o = { .gpu = "a100-80gb-sxm" };
	struct imp_result *r = malloc(sizeof(*r));
	struct val_set s;
	struct tc_diag d;
	struct workload w;
	struct gpu g;
	struct est_workspace ws;
	struct plan_problem why;
	double from_row, from_import;
	(void)state;
	assert_non_null(r);
	import_ok(CONF "megatron-2021-39b.sh", &o, r);
	/* GPT-2's 50257 tokens padded to a multiple of 128 x tp 8 = 1024:
	 * 50 x 1024 = 51200, the row's vocabulary. */
	assert_string_equal(text_of(r, IMP_MODEL, "vocab"), "51200");
	assert_string_equal(text_of(r, IMP_PLAN, "count"), "512"); /* 64 nodes x 8 */
	assert_int_equal(imp_get(r, IMP_PLAN, "count")->line, 12);
	load_written(r, &w);
	assert_string_equal(w.plan.framework, "megatron");
	memset(&w.plan.framework, 0, sizeof(w.plan.framework));

	val_set_init(&s);
	tc_diag_init(&d);
	assert_int_equal(val_load_file("tests/validation/megatron-2021.csv", tc_test_datapath(), &s, &d), 0);
	size_t i = 0;
	while (i < s.count && strcmp(s.cases[i].id, "megatron21-gpt-39b"))
		i++;
	assert_true(i < s.count);
	struct val_case imported = s.cases[i];
	imported.w = w;
	/* The row leaves the micro-batch to the tool (0: the fastest that
	 * fits); a Megatron command line must state one, and the row is
	 * compared at the one the config states. */
	assert_int_equal(s.cases[i].w.plan.micro_batch, 0);
	assert_true(w.plan.micro_batch >= 1);
	s.cases[i].w.plan.micro_batch = w.plan.micro_batch;
	assert_int_equal(w.plan.count, s.cases[i].w.plan.count);
	assert_int_equal(w.plan.tp, s.cases[i].w.plan.tp);
	assert_int_equal(w.plan.pp, s.cases[i].w.plan.pp);
	assert_int_equal(w.plan.zero, s.cases[i].w.plan.zero);
	assert_int_equal(w.plan.grad_overlap, s.cases[i].w.plan.grad_overlap);
	assert_int_equal(w.plan.sequence_parallel, s.cases[i].w.plan.sequence_parallel);
	assert_int_equal(w.train.flash_attention, s.cases[i].w.train.flash_attention);
	assert_int_equal(w.llm.vocab, s.cases[i].w.llm.vocab);
	assert_close(w.plan.network_bytes_per_s, s.cases[i].w.plan.network_bytes_per_s, TOL_EXACT);
	assert_int_equal(w.plan.network_fabric, s.cases[i].w.plan.network_fabric);
	tc_test_a100(&g);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	assert_int_equal(val_predict(&s.cases[i], &g, &ws, &from_row, &why), 0);
	assert_int_equal(val_predict(&imported, &g, &ws, &from_import, &why), 0);
	assert_true(from_row > 0);
	assert_close(from_import, from_row, TOL_EXACT);
	est_workspace_release(&ws);
	val_set_release(&s);
	free(r);
}

/* Every row of megatron-2021.csv from a command line written from the
 * row (the launcher's nodes of 8, the paper's vocabulary of 51,200 as
 * GPT2BPETokenizer padded to a multiple of 1024 = divisor x tp, the
 * 530B rows' interleaving as layers per virtual stage): the same
 * prediction as the hand-written row, with the framework made the row's
 * as in test_megatron_2021_row. */
static void test_megatron_2021_all_rows(void **state)
{
	struct val_set s;
	struct tc_diag d;
	struct gpu g;
	struct est_workspace ws;
	struct imp_result *r = malloc(sizeof(*r));
	(void)state;
	assert_non_null(r);
	val_set_init(&s);
	tc_diag_init(&d);
	assert_int_equal(val_load_file("tests/validation/megatron-2021.csv", tc_test_datapath(), &s, &d), 0);
	assert_int_equal(s.count, 7);
	tc_test_a100(&g);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	for (size_t i = 0; i < s.count; i++) {
		const struct workload *row = &s.cases[i].w;
		/* a row that leaves the micro-batch to the tool (0) is written
		 * with Megatron's smallest, 1, and compared at it */
		if (!s.cases[i].w.plan.micro_batch)
			s.cases[i].w.plan.micro_batch = 1;
		char args[2048];
		struct imp_options o = { .gpu = "a100-80gb-sxm" };
		struct workload w;
		struct plan_problem why;
		double from_row, from_import;
		int layers_per_chunk = row->llm.layers / (row->plan.pp * row->plan.interleave);
		snprintf(args, sizeof(args),
			 "python -m torch.distributed.launch --nproc_per_node 8 --nnodes %d pretrain_gpt.py "
			 "--num-layers %d --hidden-size %d --num-attention-heads %d --seq-length %.0f "
			 "--max-position-embeddings %.0f --global-batch-size %.0f --micro-batch-size %d "
			 "--tensor-model-parallel-size %d --pipeline-model-parallel-size %d %s%d "
			 "--tokenizer-type GPT2BPETokenizer --make-vocab-size-divisible-by %d --fp16 %s %s "
			 "--train-iters 1000\n",
			 row->plan.count / 8, row->llm.layers, row->llm.hidden, row->llm.heads, row->train.seq_len,
			 row->train.seq_len, row->train.global_batch, row->plan.micro_batch, row->plan.tp, row->plan.pp,
			 row->plan.interleave > 1 ? "--num-layers-per-virtual-pipeline-stage " : "--seed ",
			 row->plan.interleave > 1 ? layers_per_chunk : 1234, 1024 / row->plan.tp,
			 row->train.recompute == RECOMP_FULL ? "--recompute-granularity full --recompute-method uniform"
							     : "--recompute-activations",
			 row->plan.sequence_parallel ? "--sequence-parallel" : "");
		tc_diag_init(&d);
		if (imp_load_text("row.sh", args, strlen(args), &o, tc_test_datapath(), r, &d))
			fail_msg("%s: %s", s.cases[i].id, d.count ? d.entry[0].msg : "?");
		load_written(r, &w);
		memset(&w.plan.framework, 0, sizeof(w.plan.framework));
		assert_int_equal(w.plan.network_fabric, row->plan.network_fabric);
		struct val_case imported = s.cases[i];
		imported.w = w;
		assert_int_equal(w.llm.vocab, 51200);
		assert_int_equal(w.plan.interleave, row->plan.interleave);
		assert_int_equal(w.train.recompute, row->train.recompute);
		assert_int_equal(val_predict(&s.cases[i], &g, &ws, &from_row, &why), 0);
		assert_int_equal(val_predict(&imported, &g, &ws, &from_import, &why), 0);
		if (!(fabs(from_import - from_row) <= TOL_EXACT * from_row))
			fail_msg("%s: imported %.12g, row %.12g", s.cases[i].id, from_import, from_row);
	}
	est_workspace_release(&ws);
	val_set_release(&s);
	free(r);
}

/* A Megatron-Core Llama 3 8B script with its config.json: the arguments'
 * values, the vocabulary from config.json, flash attention from
 * Transformer Engine, and the workload loads. */
static void test_megatron_llama3(void **state)
{
	struct imp_options o = { .gpu = "h100-sxm", .hf_config = CONF "llama3-8b-config.json" };
	struct imp_result *r = malloc(sizeof(*r));
	struct workload w;
	(void)state;
	assert_non_null(r);
	import_ok(CONF "llama3-8b-megatron.sh", &o, r);
	assert_string_equal(text_of(r, IMP_MODEL, "vocab"), "128256");
	assert_string_equal(text_of(r, IMP_MODEL, "kv_heads"), "8");
	assert_string_equal(text_of(r, IMP_TRAINING, "flash_attention"), "true");
	assert_string_equal(text_of(r, IMP_TRAINING, "recompute"), "selective");
	assert_string_equal(text_of(r, IMP_PLAN, "zero"), "1");
	assert_string_equal(text_of(r, IMP_PLAN, "count"), "32");
	assert_string_equal(imp_get(r, IMP_PLAN, "tp")->note, "--tensor-model-parallel-size");
	assert_int_equal(imp_get(r, IMP_PLAN, "tp")->line, 32);
	assert_int_equal(r->nwarn, 0);
	load_written(r, &w);
	assert_int_equal(w.llm.layers, 32);
	assert_int_equal(w.llm.act, ACT_SWIGLU);
	assert_int_equal(w.plan.tp, 2);
	assert_int_equal(w.plan.dp, 0); /* = 32 / 2, derived */
	assert_true(w.plan.sequence_parallel && w.plan.grad_overlap);

	/* No --global-batch-size: Megatron-LM's micro-batch 2 x dp (16 GPUs /
	 * tp 2 = 8) = 16. */
	static const char args[] = "--num-layers 24 --hidden-size 2048 --num-attention-heads 16 --vocab-size 51200 "
				   "--seq-length 2048 --micro-batch-size 2 --tensor-model-parallel-size 2\n";
	struct imp_options co = { .count = 16 };
	struct tc_diag d;
	tc_diag_init(&d);
	assert_int_equal(imp_load_text("args", args, strlen(args), &co, tc_test_datapath(), r, &d), 0);
	assert_string_equal(text_of(r, IMP_TRAINING, "global_batch"), "16");
	free(r);
}

static double step_of(const struct workload *w);

/* NeMo: the pretraining recipe with interpolations, the LoRA recipe, and
 * a Megatron-Bridge recipe. */
static void test_nemo(void **state)
{
	struct imp_options o = { .gpu = "a100-80gb-sxm", .preset = "llama2-7b", .tokens = 1e11 };
	struct imp_result *r = malloc(sizeof(*r));
	struct workload w;
	(void)state;
	assert_non_null(r);
	import_ok(CONF "nemo-gpt-pretrain.yaml", &o, r);
	/* max_position_embeddings: ${.encoder_seq_length} */
	assert_string_equal(text_of(r, IMP_MODEL, "max_positions"), "4096");
	assert_string_equal(text_of(r, IMP_PLAN, "count"), "32"); /* 4 nodes x 8 */
	assert_string_equal(text_of(r, IMP_PLAN, "interleave"), "2");
	assert_string_equal(text_of(r, IMP_PLAN, "zero"), "1");
	assert_string_equal(text_of(r, IMP_PLAN, "grad_overlap"), "true");
	assert_string_equal(text_of(r, IMP_TRAINING, "precision"), "bf16"); /* bf16-mixed */
	assert_null(imp_get(r, IMP_TRAINING, "steps")); /* --tokens replaced max_steps */
	load_written(r, &w);
	assert_int_equal(w.plan.pp, 2);
	assert_int_equal(w.train.recompute, RECOMP_SELECTIVE);

	struct imp_options lo = { .gpu = "h100-sxm", .preset = "llama2-70b" };
	import_ok(CONF "nemo-llama2-70b-lora.yaml", &lo, r);
	assert_string_equal(text_of(r, IMP_TRAINING, "finetune"), "lora");
	assert_string_equal(text_of(r, IMP_TRAINING, "lora_rank"), "16");
	/* target_modules: ['attention_qkv'] */
	assert_string_equal(text_of(r, IMP_TRAINING, "lora_targets"), "qkv");
	assert_string_equal(text_of(r, IMP_TRAINING, "seq_len"), "4096");
	assert_string_equal(text_of(r, IMP_PLAN, "zero"), "0"); /* fused_adam */
	assert_string_equal(r->name, "megatron_gpt_peft_lora_tuning");
	load_written(r, &w);
	assert_int_equal(w.train.finetune, FT_LORA);
	assert_int_equal(w.llm.layers, 80);
	assert_int_equal(w.train.lora_base_fp8, 0);
	assert_int_equal(w.train.mlp_act_input_fp8, 0);

	/* fp8_params under LoRA holds the frozen base in fp8 */
	import_ok(CONF "nemo-llama2-70b-lora-fp8.yaml", &lo, r);
	assert_string_equal(text_of(r, IMP_TRAINING, "precision"), "fp8");
	assert_string_equal(text_of(r, IMP_TRAINING, "lora_targets"), "attention");
	assert_string_equal(text_of(r, IMP_TRAINING, "lora_base_fp8"), "true");
	assert_string_equal(text_of(r, IMP_TRAINING, "mlp_act_input_fp8"), "true");
	load_written(r, &w);
	assert_int_equal(w.train.lora_base_fp8, 1);
	assert_int_equal(w.train.mlp_act_input_fp8, 1);

	/* Megatron-Bridge: Megatron-Core's field names, train:, ddp: */
	struct imp_options bo = { .gpu = "h100-sxm", .count = 16 };
	import_ok(CONF "megatron-bridge-llama3-8b.yaml", &bo, r);
	assert_int_equal(r->kind, IMP_BRIDGE);
	assert_string_equal(text_of(r, IMP_MODEL, "norm"), "rmsnorm");      /* RMSNorm */
	assert_string_equal(text_of(r, IMP_MODEL, "ffn_act"), "swiglu");    /* gated_linear_unit */
	assert_string_equal(text_of(r, IMP_MODEL, "bias"), "false");        /* add_bias_linear */
	assert_string_equal(text_of(r, IMP_TRAINING, "global_batch"), "512");
	assert_string_equal(text_of(r, IMP_TRAINING, "precision"), "bf16"); /* bf16_mixed */
	assert_string_equal(text_of(r, IMP_PLAN, "cp"), "2");
	assert_string_equal(text_of(r, IMP_PLAN, "zero"), "1");
	assert_string_equal(text_of(r, IMP_PLAN, "grad_overlap"), "true");
	assert_string_equal(text_of(r, IMP_PLAN, "framework"), "nemo");
	load_written(r, &w);
	assert_int_equal(w.plan.cp, 2);
	assert_int_equal(w.llm.vocab, 128256);
	step_of(&w);
	free(r);
}

/* The step time of workload w on its GPU: positive and finite. */
static double step_of(const struct workload *w)
{
	struct val_case c;
	struct gpu g;
	struct est_workspace ws;
	struct plan_problem why;
	struct tc_diag d;
	double t = 0;
	memset(&c, 0, sizeof(c));
	c.w = *w;
	tc_diag_init(&d);
	/* a case owns the profile of the stack it is run on */
	assert_int_equal(fw_stack(tc_test_datapath(), w->plan.framework, &c.stack, &d), 0);
	c.metric = VAL_ITER_TIME;
	tc_test_gpu(w->plan.gpu, &g);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	if (val_predict(&c, &g, &ws, &t, &why))
		fail_msg("the imported plan is refused: %s", why.msg);
	est_workspace_release(&ws);
	assert_true(t > 0 && isfinite(t));
	return t;
}

/* llm-foundry, Axolotl (with the DeepSpeed JSON it names) and DeepSpeed
 * with config.json: imported, loaded and estimated. */
static void test_hf_stacks(void **state)
{
	struct imp_result *r = malloc(sizeof(*r));
	struct workload w;
	(void)state;
	assert_non_null(r);
	struct imp_options fo = { .gpu = "a100-80gb-sxm", .count = 8 };
	import_ok(CONF "llm-foundry-mpt-7b.yaml", &fo, r);
	assert_string_equal(text_of(r, IMP_MODEL, "ffn"), "16384"); /* expansion_ratio 4 x d_model 4096 */
	assert_string_equal(text_of(r, IMP_TRAINING, "seq_len"), "2048"); /* ${variables.max_seq_len} */
	assert_string_equal(text_of(r, IMP_TRAINING, "steps"), "63900");  /* max_duration: 63900ba */
	assert_string_equal(text_of(r, IMP_PLAN, "zero"), "3");           /* FULL_SHARD */
	assert_string_equal(text_of(r, IMP_MODEL, "positions"), "alibi");
	load_written(r, &w);
	step_of(&w);

	struct imp_options ao = { .gpu = "a100-80gb-sxm", .count = 8, .hf_config = CONF "llama2-7b-config.json" };
	import_ok(CONF "axolotl-llama2-7b-qlora.yaml", &ao, r);
	/* micro_batch_size 2 x gradient_accumulation_steps 4 x 8 GPUs */
	assert_string_equal(text_of(r, IMP_TRAINING, "global_batch"), "64");
	assert_string_equal(text_of(r, IMP_TRAINING, "finetune"), "qlora");
	assert_string_equal(text_of(r, IMP_TRAINING, "lora_rank"), "32");
	/* lora_target_linear: true */
	assert_string_equal(text_of(r, IMP_TRAINING, "lora_targets"), "all");
	assert_string_equal(text_of(r, IMP_TRAINING, "recompute"), "full");
	assert_string_equal(text_of(r, IMP_PLAN, "zero"), "2"); /* from deepspeed_configs/zero2.json */
	assert_string_equal(text_of(r, IMP_PLAN, "framework"), "deepspeed");
	assert_int_equal(r->nwarn, 1); /* sample_packing without a mean length */
	load_written(r, &w);
	step_of(&w);

	struct imp_options dso = { .gpu = "a100-80gb-sxm", .count = 8, .seq_len = 4096, .tokens = 1e9,
				   .hf_config = CONF "llama2-7b-config.json" };
	import_ok(CONF "deepspeed-7b.json", &dso, r);
	assert_string_equal(text_of(r, IMP_TRAINING, "global_batch"), "256");
	assert_string_equal(text_of(r, IMP_PLAN, "micro_batch"), "4");
	assert_string_equal(text_of(r, IMP_PLAN, "zero"), "3");
	assert_string_equal(text_of(r, IMP_TRAINING, "precision"), "bf16");
	load_written(r, &w);
	double t8 = step_of(&w);
	/* A relation: the same run on 16 GPUs (global batch 256 = 4 x 4 x
	 * 16) takes less time per step. */
	dso.count = 16;
	import_ok(CONF "deepspeed-7b.json", &dso, r);
	load_written(r, &w);
	assert_true(step_of(&w) < t8);
	free(r);
}

/* Bad configs: one message at the position of the value to blame. */
static void test_bad(void **state)
{
	static const struct {
		const char *text, *msg;
		int count;
	} cases[] = {
		{ "{\"optimizer\": {\"type\": \"AdamW\"}}\n",
		  "bad.conf:1:1: unknown config kind (expected Megatron-LM arguments, a NeMo or Megatron-Bridge "
		  "recipe, an llm-foundry or Axolotl YAML or a DeepSpeed JSON, or --kind)", 0 },
		/* 24 GPUs, tp 8 x pp 2 = 16 */
		{ "--num-layers 24 --hidden-size 2048 --num-attention-heads 16 --vocab-size 51200\n"
		  "--seq-length 2048 --global-batch-size 64 --micro-batch-size 1\n"
		  "--tensor-model-parallel-size 8 --pipeline-model-parallel-size 2\n",
		  "bad.conf:3:1: tp 8 x pp 2 x cp 1 = 16 does not divide the 24 GPUs (expected a GPU count that is "
		  "a multiple of 16)", 24 },
		/* 16 GPUs, tp 2: dp 8 x micro-batch 4 = 32 does not divide 48 */
		{ "--num-layers 24 --hidden-size 2048 --num-attention-heads 16 --vocab-size 51200\n"
		  "--seq-length 2048 --global-batch-size 48 --micro-batch-size 4 --tensor-model-parallel-size 2\n",
		  "bad.conf:2:19: global batch 48 is not divisible by micro-batch 4 x dp 8 = 32 (expected a multiple "
		  "of 32)", 16 },
		{ "--num-layers $NUM_LAYERS --hidden-size 2048\n",
		  "bad.conf:1:1: --num-layers is '$NUM_LAYERS', a shell variable (expected a number: expand the "
		  "script's variables first)", 0 },
		{ "--num-layers 24 --hidden-size 20x48\n",
		  "bad.conf:1:17: --hidden-size is '20x48' (expected a whole number from 1 to 1000000)", 0 },
		{ "--num-layers 24 --hidden\xff-size 2048\n",
		  "bad.conf:1:25: binary data (expected Megatron-LM arguments as UTF-8 text)", 0 },
		{ "--num-layers 24 --hidden-size 2048 --num-attention-heads 16\n--seq-length 2048 --global-batch-size 8\n",
		  "bad.conf:1:1: the config does not state the model's vocab (expected it in the config, --hf-config "
		  "config.json or --preset NAME)", 0 },
		/* no --global-batch-size and no GPU count: micro-batch x dp unknown */
		{ "--num-layers 24 --hidden-size 2048 --num-attention-heads 16 --vocab-size 51200 --seq-length 2048 "
		  "--micro-batch-size 2\n",
		  "bad.conf:1:1: the global batch is --micro-batch-size (Megatron-LM's default global batch) x the "
		  "data-parallel GPUs (expected --count N)", 0 },
		/* Megatron-DeepSpeed's ZeRO stage */
		{ "--num-layers 24 --zero-stage 4\n", "bad.conf:1:17: --zero-stage is '4' (expected 0 to 3)", 0 },
		{ "trainer: {devices: 8}\nmodel:\n  num_layers: 32\n  tensor_model_parallel_size: two\n",
		  "bad.conf:4:31: 'tensor_model_parallel_size' is two (expected a whole number from 1 to 65536)", 0 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct imp_options o = { .count = cases[i].count };
		struct imp_result *r = malloc(sizeof(*r));
		struct tc_diag d;
		assert_non_null(r);
		tc_diag_init(&d);
		int rc = imp_load_text("bad.conf", cases[i].text, strlen(cases[i].text), &o, tc_test_datapath(), r, &d);
		if (rc != -1 || d.count < 1 || strcmp(d.entry[0].msg, cases[i].msg))
			fail_msg("case %zu: rc %d, got '%s'", i, rc, d.count ? d.entry[0].msg : "");
		free(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_megatron_2021_row),
		cmocka_unit_test(test_megatron_2021_all_rows),
		cmocka_unit_test(test_megatron_llama3),
		cmocka_unit_test(test_nemo),
		cmocka_unit_test(test_hf_stacks),
		cmocka_unit_test(test_bad),
	};
	tc_use_test_data();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
