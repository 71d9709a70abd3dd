/*
 * test_wl_load.c - workload files, architecture presets and Hugging Face
 * config.json files (src/io/wl_load.c, wl_arch.c, wl_hf.c).  Run from the
 * repository root.
 */
#include "tc_test.h"

#include <dirent.h>
#include <stdlib.h>

#include "../../src/io/wl_load.h"
#include "../../src/io/yaml_load.h"

#define DATA "tests/unit/data/wl/"
#define TOL_PARAMS 1e-4 /* derived parameter count vs the preset's `params` */

/* The working tree's catalog only. */
static void dp_here(struct tc_datapath *dp)
{
	memset(dp, 0, sizeof(*dp));
	strcpy(dp->dir[0], ".");
	dp->count = 1;
}

/* Test presets first (tests/unit/data/wl/models/arch), then the catalog. */
static void dp_test(struct tc_datapath *dp)
{
	memset(dp, 0, sizeof(*dp));
	strcpy(dp->dir[0], "tests/unit/data/wl");
	strcpy(dp->dir[1], ".");
	dp->count = 2;
}

/* Print what went wrong, so a failing test says why. */
static void show_diag(const struct tc_diag *d)
{
	for (int i = 0; i < d->count; i++)
		print_message("  diag: %s\n", d->entry[i].msg);
}

static int load(const char *path, struct workload *w, struct tc_diag *d)
{
	struct tc_datapath dp;
	dp_test(&dp);
	tc_diag_init(d);
	memset(w, 0, sizeof(*w));
	return wl_load_file(path, &dp, w, d);
}

/* Load a workload that must be valid. */
static void load_ok(const char *path, struct workload *w)
{
	struct tc_diag d;
	int rc = load(path, w, &d);
	if (rc)
		show_diag(&d);
	assert_int_equal(rc, 0);
	assert_int_equal(d.count, 0);
}

/* Load a workload from text (file name "t.yaml" in messages). */
static int load_text(const char *text, struct workload *w, struct tc_diag *d)
{
	struct tc_datapath dp;
	struct yn_doc doc = { 0 };
	dp_test(&dp);
	tc_diag_init(d);
	memset(w, 0, sizeof(*w));
	if (yn_load_buffer("t.yaml", text, strlen(text), &doc, d))
		return -1;
	int rc = wl_load_doc(&doc, &dp, w, d);
	yn_doc_release(&doc);
	return rc;
}

/*
 * Parameters of an architecture by architectures.md §0.2: attention with
 * GQA, gated (3 matrices) or plain (2) MLP, biases where the model has them,
 * two norms per layer plus a final one, MoE experts with a router, input
 * embedding, untied LM head, learned position table.  Encoders (BERT) also
 * carry a pooler and a two-row token-type table (§1.6).
 */
static double arch_params(const struct llm_arch *a)
{
	double h = a->hidden, q = (double)a->heads * a->head_dim;
	double kv = (double)a->kv_heads * a->head_dim, f = a->ffn, V = a->vocab;
	int gated = a->act == ACT_SWIGLU || a->act == ACT_GEGLU;
	double attn = h * q + 2 * h * kv + q * h;
	double mlp = (gated ? 3 : 2) * h * f;
	if (a->bias) {
		attn += q + 2 * kv + h;
		mlp += (gated ? 2 * f : f) + h;
	}
	if (a->experts > 1)
		mlp = a->experts * mlp + h * a->experts;
	double norm = a->norm == NORM_RMSNORM ? h : 2 * h;
	if (a->form == FORM_ENCODER_DECODER) {
		/* Decoder layers add a cross-attention and its norm; a final
		 * (T5) or embedding (BART) norm and a position table or bias
		 * (buckets x heads) per stack; one shared token table. */
		double per_stack = a->positions == POS_LEARNED ?
					   (double)a->max_positions * h :
					   (double)a->rel_buckets * a->heads;
		double enc = a->encoder_layers * (attn + mlp + 2 * norm);
		double dec = a->decoder_layers * (2 * attn + mlp + 3 * norm);
		return enc + dec + V * h + (a->tied_embeddings ? 0 : V * h) +
		       2 * (per_stack + norm);
	}
	double total = a->layers * (attn + mlp + 2 * norm) + V * h + norm;
	if (!a->tied_embeddings)
		total += V * h;
	if (a->positions == POS_LEARNED)
		total += (double)a->max_positions * h;
	if (!a->causal)
		total += 2 * h + h * h + h;
	return total;
}

/* ---------------------------------------------------------------------- */
/* Presets                                                                 */

/* Every YAML file in models/arch of family llm loads, and its derived parameter
 * count equals the `params` it states. */
static void test_presets_all(void **state)
{
	(void)state;
	DIR *dir = opendir(TC_TEST_DATA "/models/arch");
	assert_non_null(dir);
	struct dirent *e;
	int checked = 0;
	while ((e = readdir(dir)) != NULL) {
		size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".yaml"))
			continue;
		char path[512];
		snprintf(path, sizeof(path), TC_TEST_DATA "/models/arch/%s", e->d_name);
		struct yn_doc doc = { 0 };
		struct tc_diag d;
		tc_diag_init(&d);
		assert_int_equal(yn_load_file(path, &doc, &d), 0);
		const struct yn_node *fam = yn_map_get(doc.root, "family");
		if (!fam || strcmp(fam->str, "llm")) {
			yn_doc_release(&doc); /* another family's preset */
			continue;
		}
		const struct yn_node *pn = yn_map_get(doc.root, "params");
		assert_non_null(pn);
		double stated = strtod(pn->str, NULL);
		assert_non_null(yn_map_get(doc.root, "source"));
		yn_doc_release(&doc);

		struct llm_arch a;
		int rc = arch_load_file(path, &a, &d);
		if (rc) {
			print_message("%s\n", path);
			show_diag(&d);
		}
		assert_int_equal(rc, 0);
		double derived = arch_params(&a);
		if (fabs(derived - stated) > TOL_PARAMS * stated)
			fail_msg("%s: derived %.0f parameters, file says %.0f", path, derived, stated);
		/* The same preset by name. */
		struct tc_datapath dp;
		struct llm_arch b;
		dp_here(&dp);
		e->d_name[n - 5] = '\0';
		assert_int_equal(arch_load_preset(&dp, e->d_name, &b, &d), 0);
		assert_int_equal(b.layers, a.layers);
		assert_string_equal(b.name, e->d_name);
		checked++;
	}
	closedir(dir);
	assert_true(checked >= 40);
}

/* The presets the project promises exist. */
static void test_presets_named(void **state)
{
	(void)state;
	static const char *const names[] = {
		"gpt2-124m", "gpt2-355m", "gpt2-774m", "gpt2-1.5b", "gpt3-125m", "gpt3-350m",
		"gpt3-760m", "gpt3-1.3b", "gpt3-2.7b", "gpt3-6.7b", "gpt3-13b", "gpt3-175b",
		"llama2-7b", "llama2-13b", "llama2-70b", "llama3-8b", "llama3-70b",
		"llama3.1-8b", "llama3.1-70b", "llama3.1-405b", "mistral-7b", "mixtral-8x7b",
		"qwen2.5-7b", "qwen2.5-72b", "megatron-gpt-1.7b", "megatron-gpt-3.6b",
		"megatron-gpt-7.5b", "megatron-gpt-18b", "megatron-gpt-39b", "megatron-gpt-76b",
		"megatron-gpt-145b", "megatron-gpt-310b", "megatron-gpt-530b", "megatron-gpt-1t",
		"bert-base", "bert-large", "falcon-7b", "falcon-40b", "bloom-176b", "opt-175b",
		"mpt-7b", "mpt-30b", "gemma2-9b", "pythia-6.9b", "pythia-12b", "t5-base",
		"t5-large", "t5-3b", "t5-11b", "flan-t5-xl", "bart-large", NULL
	};
	struct tc_datapath dp;
	dp_here(&dp);
	for (int i = 0; names[i]; i++) {
		struct llm_arch a;
		struct tc_diag d;
		tc_diag_init(&d);
		if (arch_load_preset(&dp, names[i], &a, &d)) {
			show_diag(&d);
			fail_msg("preset %s", names[i]);
		}
	}
}

/* Spot values, including defaults filled by the loader. */
static void test_preset_values(void **state)
{
	(void)state;
	struct tc_datapath dp;
	struct llm_arch a;
	struct tc_diag d;
	dp_here(&dp);
	tc_diag_init(&d);
	assert_int_equal(arch_load_preset(&dp, "llama2-70b", &a, &d), 0);
	assert_int_equal(a.layers, 80);
	assert_int_equal(a.hidden, 8192);
	assert_int_equal(a.heads, 64);
	assert_int_equal(a.kv_heads, 8);
	assert_int_equal(a.head_dim, 128);
	assert_int_equal(a.ffn, 28672);
	assert_int_equal(a.act, ACT_SWIGLU);
	assert_int_equal(a.vocab, 32000);
	assert_int_equal(a.tied_embeddings, 0);
	assert_int_equal(a.experts, 1);
	assert_int_equal(a.top_k, 1);
	assert_int_equal(a.positions, POS_ROPE);
	assert_int_equal(a.norm, NORM_RMSNORM);
	assert_int_equal(a.causal, 1);
	assert_int_equal(a.bias, 0);
	assert_int_equal(a.max_positions, 4096);
	assert_non_null(strstr(a.source, "L9"));

	assert_int_equal(arch_load_preset(&dp, "gpt2-124m", &a, &d), 0);
	assert_int_equal(a.kv_heads, 12); /* defaulted to heads */
	assert_int_equal(a.head_dim, 64); /* defaulted to hidden / heads */
	assert_int_equal(a.positions, POS_LEARNED);
	assert_int_equal(a.tied_embeddings, 1);

	assert_int_equal(arch_load_preset(&dp, "mixtral-8x7b", &a, &d), 0);
	assert_int_equal(a.experts, 8);
	assert_int_equal(a.top_k, 2);

	assert_int_equal(arch_load_preset(&dp, "gemma2-9b", &a, &d), 0);
	assert_int_equal(a.head_dim, 256); /* not hidden / heads */
	assert_int_equal(a.act, ACT_GEGLU);

	assert_int_equal(arch_load_preset(&dp, "bert-base", &a, &d), 0);
	assert_int_equal(a.causal, 0);
	assert_int_equal(d.count, 0);
}

static void test_preset_unknown(void **state)
{
	(void)state;
	struct tc_datapath dp;
	struct llm_arch a;
	struct tc_diag d;
	dp_here(&dp);
	tc_diag_init(&d);
	memset(&a, 0x5a, sizeof(a));
	struct llm_arch before = a;
	assert_int_equal(arch_load_preset(&dp, "llama2-7", &a, &d), -1);
	assert_int_equal(d.count, 1);
	assert_string_equal(d.entry[0].msg, "unknown preset 'llama2-7' (did you mean 'llama2-7b'?)");
	assert_memory_equal(&a, &before, sizeof(a)); /* untouched on failure */
}

/* Architecture files that are wrong as files. */
static void test_arch_file_bad(void **state)
{
	(void)state;
	struct llm_arch a;
	struct tc_diag d;
	tc_diag_init(&d);
	assert_int_equal(arch_load_file(DATA "models/arch/nested.yaml", &a, &d), -1);
	assert_int_equal(d.count, 1);
	assert_string_equal(d.entry[0].msg,
			    DATA "models/arch/nested.yaml:17:9: an architecture file cannot name another model "
			    "(expected the architecture's own fields; presets do not refer to other presets)");
	tc_diag_init(&d);
	assert_int_equal(arch_load_file(DATA "models/arch/misnamed.yaml", &a, &d), -1);
	assert_string_equal(d.entry[0].msg,
			    DATA "models/arch/misnamed.yaml:2:7: name 'something-else' does not match "
			    "the file name 'misnamed' (expected name: misnamed)");
	tc_diag_init(&d);
	assert_int_equal(arch_load_file(DATA "models/arch/tiny.yaml", &a, &d), 0);
	assert_int_equal(a.head_dim, 16);
}

/* ---------------------------------------------------------------------- */
/* Good workloads                                                          */

static void test_good_full(void **state)
{
	(void)state;
	struct workload w;
	load_ok(DATA "good-full.yaml", &w);
	assert_int_equal(w.kind, WL_LLM);
	assert_string_equal(w.name, "Inline test model");
	assert_string_equal(w.file, DATA "good-full.yaml");
	const struct llm_arch *a = &w.llm;
	assert_int_equal(a->layers, 24);
	assert_int_equal(a->hidden, 2048);
	assert_int_equal(a->heads, 16);
	assert_int_equal(a->kv_heads, 4);
	assert_int_equal(a->head_dim, 128);
	assert_int_equal(a->ffn, 5632);
	assert_int_equal(a->act, ACT_SWIGLU);
	assert_int_equal(a->vocab, 32000);
	assert_int_equal(a->tied_embeddings, 0);
	assert_int_equal(a->experts, 8);
	assert_int_equal(a->top_k, 2);
	assert_int_equal(a->positions, POS_ROPE);
	assert_int_equal(a->norm, NORM_RMSNORM);
	assert_int_equal(a->causal, 1);
	assert_int_equal(a->bias, 0);
	assert_int_equal(a->max_positions, 8192);
	const struct training *t = &w.train;
	assert_close(t->seq_len, 2048, TOL_EXACT);
	assert_close(t->global_batch, 256, TOL_EXACT);
	assert_close(t->tokens, 0, TOL_EXACT);
	assert_close(t->steps, 5000, TOL_EXACT);
	assert_int_equal(t->precision, PREC_FP8);
	assert_int_equal(t->optimizer, OPT_ADAFACTOR);
	assert_int_equal(t->recompute, RECOMP_FULL);
	assert_int_equal(t->flash_attention, 0);
	assert_int_equal(t->finetune, FT_QLORA);
	assert_int_equal(t->lora_rank, 64);
	const struct plan *p = &w.plan;
	assert_string_equal(p->gpu, "a100-80gb-sxm:1g.10gb");
	assert_int_equal(p->count, 16);
	assert_int_equal(p->gpus_per_node, 4);
	assert_int_equal(p->tp, 2);
	assert_int_equal(p->pp, 2);
	assert_int_equal(p->dp, 4);
	assert_int_equal(p->ep, 4);
	assert_int_equal(p->zero, 2);
	assert_int_equal(p->micro_batch, 4);
	assert_int_equal(p->interleave, 2);
	assert_int_equal(p->sequence_parallel, 0);
	assert_int_equal(p->cuda_graphs, 1);
	assert_string_equal(p->network, "roce-100g");
	assert_close(p->network_bytes_per_s, 25e9, TOL_EXACT); /* 12.5 GB/s each way */
	assert_int_equal(p->network_fabric, FABRIC_ROCE);
	/* Positions of the values (line, column). */
	assert_int_equal(w.mark[WLF_MODEL].line, 5);
	assert_int_equal(w.mark[WLF_MODEL].col, 3);
	assert_int_equal(w.mark[WLF_SEQ_LEN].line, 22);
	assert_int_equal(w.mark[WLF_SEQ_LEN].col, 12);
	assert_int_equal(w.mark[WLF_STEPS].line, 24);
	assert_int_equal(w.mark[WLF_TOKENS].line, 0);
	assert_int_equal(w.mark[WLF_LORA_RANK].line, 30);
	assert_int_equal(w.mark[WLF_GPU].line, 32);
	assert_int_equal(w.mark[WLF_GPU].col, 8);
	assert_int_equal(w.mark[WLF_COUNT].line, 33);
	assert_int_equal(w.mark[WLF_TP].line, 35);
	assert_int_equal(w.mark[WLF_DP].line, 37);
	assert_int_equal(w.mark[WLF_EP].line, 38);
	assert_int_equal(w.mark[WLF_NETWORK].line, 44);
	assert_int_equal(w.mark[WLF_NETWORK].col, 12);
}

static void test_good_defaults(void **state)
{
	(void)state;
	struct workload w;
	load_ok(DATA "good-defaults.yaml", &w);
	assert_string_equal(w.name, "test");
	assert_string_equal(w.llm.name, "gpt2-124m");
	assert_int_equal(w.llm.layers, 12);
	assert_close(w.train.tokens, 1e9, TOL_EXACT);
	assert_close(w.train.steps, 0, TOL_EXACT);
	assert_int_equal(w.train.precision, PREC_BF16);
	assert_int_equal(w.train.optimizer, OPT_ADAMW);
	assert_int_equal(w.train.recompute, RECOMP_NONE);
	assert_int_equal(w.train.flash_attention, 1);
	assert_int_equal(w.train.finetune, FT_FULL);
	assert_int_equal(w.train.lora_rank, 0);
	assert_int_equal(w.plan.gpus_per_node, 0);
	assert_int_equal(w.plan.tp, 1);
	assert_int_equal(w.plan.pp, 1);
	assert_int_equal(w.plan.dp, 0);
	assert_int_equal(w.plan.ep, 1);
	assert_int_equal(w.plan.zero, 1);
	assert_int_equal(w.plan.micro_batch, 0); /* none given: the model picks the fastest that fits */
	assert_int_equal(w.plan.interleave, 1);
	assert_int_equal(w.plan.sequence_parallel, 0); /* tp 1 */
	assert_int_equal(w.plan.cuda_graphs, 0);
	assert_string_equal(w.plan.network, "ib-hdr");
	assert_close(w.plan.network_bytes_per_s, 50e9, TOL_EXACT);
	assert_int_equal(w.plan.network_fabric, FABRIC_IB);
	/* Fields not in the file have no position. */
	assert_int_equal(w.mark[WLF_TP].line, 0);
	assert_int_equal(w.mark[WLF_NETWORK].line, 0);
	assert_int_equal(w.mark[WLF_COUNT].line, 11);
	assert_int_equal(w.mark[WLF_COUNT].col, 10);
}

/* A preset with overrides: head_dim and a 4h ffn follow the new width. */
static void test_good_override(void **state)
{
	(void)state;
	struct workload w;
	load_ok(DATA "good-override.yaml", &w);
	assert_int_equal(w.llm.layers, 6);
	assert_int_equal(w.llm.hidden, 512);
	assert_int_equal(w.llm.heads, 8);
	assert_int_equal(w.llm.kv_heads, 8);
	assert_int_equal(w.llm.head_dim, 64);
	assert_int_equal(w.llm.ffn, 2048);
	assert_int_equal(w.llm.vocab, 50257); /* from the preset */
	assert_int_equal(w.plan.tp, 2);
	assert_int_equal(w.plan.sequence_parallel, 1); /* default with tp > 1 */
	assert_string_equal(w.plan.network, "");
	assert_close(w.plan.network_bytes_per_s, 25e9, TOL_EXACT);
}

/* Inline model with only the required sizes: GPT-style defaults. */
static void test_good_inline_min(void **state)
{
	(void)state;
	struct workload w;
	load_ok(DATA "good-inline-min.yaml", &w);
	assert_int_equal(w.llm.ffn, 4 * 512);
	assert_int_equal(w.llm.kv_heads, 8);
	assert_int_equal(w.llm.head_dim, 64);
	assert_int_equal(w.llm.act, ACT_GELU);
	assert_int_equal(w.llm.positions, POS_LEARNED);
	assert_int_equal(w.llm.norm, NORM_LAYERNORM);
	assert_int_equal(w.llm.tied_embeddings, 1);
	assert_int_equal(w.llm.bias, 1);
	assert_int_equal(w.llm.causal, 1);
	assert_int_equal(w.llm.experts, 1);
	assert_int_equal(w.llm.max_positions, 1024); /* = seq_len */
}

/* The campaign section: each key given sets its value and its bit; the
 * others stay unset for the model's defaults. */
static void test_campaign_section(void **state)
{
	(void)state;
	static const char text[] =
		"kind: llm\n"
		"model: { preset: llama2-7b }\n"
		"training: { seq_len: 4096, global_batch: 1024, tokens: 2e12 }\n"
		"plan: { gpu: a100-80gb-sxm, count: 64 }\n"
		"campaign:\n"
		"  operation: manual\n"
		"  checkpoint: sync\n"
		"  storage_write: 2TB/s\n"
		"  checkpoint_interval: 30min\n"
		"  node_interruptions_per_day: 0.0065\n";
	struct workload w;
	struct tc_diag d;
	int rc = load_text(text, &w, &d);
	if (rc)
		show_diag(&d);
	assert_int_equal(rc, 0);
	const struct campaign_in *c = &w.campaign;
	assert_int_equal(c->set, (1u << CAMP_P_OPERATION) | (1u << CAMP_P_CHECKPOINT) |
				 (1u << CAMP_P_WRITE) | (1u << CAMP_P_INTERVAL) |
				 (1u << CAMP_P_NODE_RATE));
	assert_int_equal(c->operation, CAMP_MANUAL);
	assert_int_equal(c->checkpoint, CAMP_CKPT_SYNC);
	assert_close(c->write_bytes_per_s, 2e12, TOL_EXACT);
	assert_close(c->interval_s, 1800, TOL_EXACT);
	assert_close(c->node_rate_per_day, 0.0065, TOL_EXACT);
	assert_int_equal(w.mark[WLF_CAMPAIGN_INTERVAL].line, 9);
	assert_int_equal(w.mark[WLF_CAMPAIGN_INTERVAL].col, 24);
}

static void test_good_hf(void **state)
{
	(void)state;
	struct workload w;
	load_ok(DATA "good-hf.yaml", &w);
	assert_string_equal(w.llm.name, "meta-llama/Llama-2-7b-hf");
	assert_int_equal(w.llm.layers, 16); /* overridden */
	assert_int_equal(w.llm.hidden, 4096);
	assert_int_equal(w.llm.kv_heads, 32);
	assert_int_equal(w.llm.ffn, 11008);
	assert_int_equal(w.llm.act, ACT_SWIGLU);
	assert_int_equal(w.llm.norm, NORM_RMSNORM);
	assert_int_equal(w.llm.positions, POS_ROPE);
	assert_int_equal(w.llm.tied_embeddings, 0);
	assert_int_equal(w.llm.bias, 0);
	assert_int_equal(w.llm.max_positions, 4096);
	assert_string_equal(w.llm.source, DATA "hf-llama.json");

	load_ok(DATA "good-hf-gpt2.yaml", &w);
	assert_int_equal(w.llm.layers, 12);
	assert_int_equal(w.llm.hidden, 768);
	assert_int_equal(w.llm.heads, 12);
	assert_int_equal(w.llm.ffn, 3072); /* n_inner null = 4h */
	assert_int_equal(w.llm.act, ACT_GELU);
	assert_int_equal(w.llm.positions, POS_LEARNED);
	assert_int_equal(w.llm.norm, NORM_LAYERNORM);
	assert_int_equal(w.llm.tied_embeddings, 1);
	assert_int_equal(w.llm.bias, 1);
	assert_int_equal(w.llm.max_positions, 1024);
	assert_close(arch_params(&w.llm), 124439808, TOL_EXACT);

	load_ok(DATA "good-hf-mixtral.yaml", &w);
	assert_int_equal(w.llm.experts, 8);
	assert_int_equal(w.llm.top_k, 2);
	assert_int_equal(w.llm.kv_heads, 8);
	assert_close(arch_params(&w.llm), 46702792704.0, TOL_EXACT);
	assert_int_equal(w.plan.ep, 8);
}

/* The example config.json is Mistral 7B: the same as the preset. */
static void test_hf_example(void **state)
{
	(void)state;
	struct llm_arch a, b;
	struct tc_diag d;
	struct tc_datapath dp;
	tc_diag_init(&d);
	dp_here(&dp);
	assert_int_equal(arch_load_hf_config("examples/data/config.json", &a, &d), 0);
	assert_int_equal(arch_load_preset(&dp, "mistral-7b", &b, &d), 0);
	assert_int_equal(a.layers, b.layers);
	assert_int_equal(a.hidden, b.hidden);
	assert_int_equal(a.heads, b.heads);
	assert_int_equal(a.kv_heads, b.kv_heads);
	assert_int_equal(a.head_dim, b.head_dim);
	assert_int_equal(a.ffn, b.ffn);
	assert_int_equal(a.act, b.act);
	assert_int_equal(a.vocab, b.vocab);
	assert_int_equal(a.tied_embeddings, b.tied_embeddings);
	assert_int_equal(a.positions, b.positions);
	assert_int_equal(a.norm, b.norm);
	assert_int_equal(a.max_positions, b.max_positions);
	assert_string_equal(a.name, "mistral");
}

/* Each network name and a bare bandwidth. */
static void test_networks(void **state)
{
	(void)state;
	static const struct {
		const char *value;
		double bytes_per_s; /* both directions */
		enum net_fabric fabric;
		const char *name;
	} cases[] = {
		{ "ib-hdr", 50e9, FABRIC_IB, "ib-hdr" },
		{ "ib-ndr", 100e9, FABRIC_IB, "ib-ndr" },
		{ "roce-100g", 25e9, FABRIC_ROCE, "roce-100g" },
		{ "eth-25g", 6.25e9, FABRIC_TCP, "eth-25g" },
		{ "25GB/s", 50e9, FABRIC_IB, "" }, /* a bare bandwidth: InfiniBand */
		{ "400Gb/s", 100e9, FABRIC_IB, "" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[512];
		struct workload w;
		struct tc_diag d;
		snprintf(text, sizeof(text),
			 "kind: llm\nmodel: {preset: gpt2-124m}\n"
			 "training: {seq_len: 1024, global_batch: 8, tokens: 1e9}\n"
			 "plan: {count: 16, network: %s}\n", cases[i].value);
		int rc = load_text(text, &w, &d);
		if (rc)
			show_diag(&d);
		assert_int_equal(rc, 0);
		assert_close(w.plan.network_bytes_per_s, cases[i].bytes_per_s, TOL_EXACT);
		assert_int_equal(w.plan.network_fabric, cases[i].fabric);
		assert_string_equal(w.plan.network, cases[i].name);
		assert_string_equal(w.plan.gpu, ""); /* optional: the CLI may give it */
		assert_string_equal(w.name, "t");
	}
}

/* Every LLM example in examples/ loads. */
static void test_examples(void **state)
{
	(void)state;
	DIR *dir = opendir("examples");
	assert_non_null(dir);
	struct dirent *e;
	int loaded = 0;
	struct tc_datapath dp;
	dp_here(&dp);
	while ((e = readdir(dir)) != NULL) {
		size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".yaml"))
			continue;
		char path[512];
		snprintf(path, sizeof(path), "examples/%s", e->d_name);
		struct yn_doc doc = { 0 };
		struct tc_diag d;
		tc_diag_init(&d);
		assert_int_equal(yn_load_file(path, &doc, &d), 0);
		const struct yn_node *kind = yn_map_get(doc.root, "kind");
		if (kind && !strcmp(kind->str, "llm")) {
			struct workload w;
			int rc = wl_load_doc(&doc, &dp, &w, &d);
			if (rc) {
				print_message("%s\n", path);
				show_diag(&d);
			}
			assert_int_equal(rc, 0);
			loaded++;
		}
		yn_doc_release(&doc);
	}
	closedir(dir);
	assert_true(loaded >= 6);
}

/* The `make demo` example says what its comments say. */
static void test_demo_example(void **state)
{
	(void)state;
	struct workload w;
	struct tc_diag d;
	struct tc_datapath dp;
	dp_here(&dp);
	tc_diag_init(&d);
	assert_int_equal(wl_load_file("examples/llama2-7b-a100.yaml", &dp, &w, &d), 0);
	assert_string_equal(w.llm.name, "llama2-7b");
	assert_close(w.train.tokens, 2e12, TOL_EXACT);
	assert_close(w.train.seq_len * w.train.global_batch, 4194304, TOL_EXACT);
	assert_string_equal(w.plan.gpu, "a100-80gb-sxm");
	assert_int_equal(w.plan.count, 64);
	assert_int_equal(w.plan.micro_batch, 2);
	assert_int_equal(w.train.recompute, RECOMP_SELECTIVE);
}

/* recompute_frac: the share of the layers full recompute recomputes. */
static void test_recompute_frac(void **state)
{
	(void)state;
	struct workload w;
	struct tc_diag d;
	struct tc_datapath dp;
	dp_test(&dp);
	tc_diag_init(&d);
	assert_int_equal(wl_load_file(DATA "recompute-frac.yaml", &dp, &w, &d), 0);
	assert_int_equal(w.train.recompute, RECOMP_FULL);
	assert_close(w.train.recompute_frac, 0.5, TOL_EXACT);
	assert_close(train_recompute_share(&w.train), 0.5, TOL_EXACT);
}

/* ---------------------------------------------------------------------- */
/* Bad workloads: exact first message                                      */

static void test_bad_table(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		const char *msg; /* after "tests/unit/data/wl/" */
	} cases[] = {
		{ "bad-missing-count.yaml",
		  "bad-missing-count.yaml:10:3: missing required key 'count' in plan" },
		{ "bad-unknown-key.yaml",
		  "bad-unknown-key.yaml:7:3: unknown key 'global_bach' in training (did you mean 'global_batch'?)" },
		{ "bad-unknown-top.yaml",
		  "bad-unknown-top.yaml:5:1: unknown key 'trainig' in workload (did you mean 'training'?)" },
		{ "bad-wrong-type.yaml",
		  "bad-wrong-type.yaml:6:12: 'seq_len' must be an integer, got a list (expected a whole number from 1 to 10000000)" },
		{ "bad-bool.yaml",
		  "bad-bool.yaml:12:16: 'cuda_graphs' must be true or false, got 'yes' (expected true or false)" },
		{ "bad-model-scalar.yaml",
		  "bad-model-scalar.yaml:3:8: 'model' must be a mapping, got 'llama2-7b'" },
		{ "bad-tokens-steps.yaml",
		  "bad-tokens-steps.yaml:9:10: training has both tokens and steps (expected one of them)" },
		{ "bad-no-tokens.yaml",
		  "bad-no-tokens.yaml:6:3: missing required key 'tokens' in training (expected tokens or steps)" },
		{ "bad-steps-fraction.yaml",
		  "bad-steps-fraction.yaml:8:10: steps 10.5 is not a whole number (expected an integer)" },
		{ "bad-preset.yaml",
		  "bad-preset.yaml:4:11: unknown preset 'llama2-7' (did you mean 'llama2-7b'?)" },
		{ "bad-preset-far.yaml",
		  "bad-preset-far.yaml:4:11: unknown preset 'nothing-like-it' (expected the name of a file in models/arch, such as llama2-7b)" },
		{ "bad-preset-path.yaml",
		  "bad-preset-path.yaml:4:11: preset name '../gpu/l4' is not a file name (expected letters, digits, '.', '-' or '_')" },
		{ "bad-preset-hf.yaml",
		  "bad-preset-hf.yaml:5:14: model has both preset and hf_config (expected one of them)" },
		{ "bad-nested-preset.yaml",
		  "models/arch/nested.yaml:17:9: an architecture file cannot name another model (expected the architecture's own fields; presets do not refer to other presets)" },
		{ "bad-preset-name.yaml",
		  "models/arch/misnamed.yaml:2:7: name 'something-else' does not match the file name 'misnamed' (expected name: misnamed)" },
		{ "bad-kv-heads.yaml",
		  "bad-kv-heads.yaml:7:13: kv_heads 3 does not divide heads 8 (expected a divisor of 8)" },
		{ "bad-kv-more.yaml",
		  "bad-kv-more.yaml:7:13: kv_heads 16 is more than heads 8 (expected at most the number of query heads)" },
		{ "bad-hidden-heads.yaml",
		  "bad-hidden-heads.yaml:6:10: heads 3 does not divide hidden 1000 (expected a divisor, or head_dim set explicitly)" },
		{ "bad-inline-missing.yaml",
		  "bad-inline-missing.yaml:4:3: missing required key 'heads' in model (expected preset, hf_config, or inline layers, hidden, heads and vocab)" },
		{ "bad-top-k.yaml",
		  "bad-top-k.yaml:5:10: top_k 9 is more than experts 8 (expected at most 8)" },
		{ "bad-lora-rank.yaml",
		  "bad-lora-rank.yaml:9:13: finetune lora needs lora_rank (expected lora_rank: 1 to 65536 in training)" },
		{ "bad-rank-full.yaml",
		  "bad-rank-full.yaml:9:14: lora_rank is set but finetune is full (expected finetune: lora or qlora)" },
		{ "bad-recompute-frac.yaml",
		  "bad-recompute-frac.yaml:10:19: recompute_frac is set but recompute is selective (expected recompute: full, of which it is the share of the layers)" },
		{ "bad-recompute-frac-range.yaml",
		  "bad-recompute-frac-range.yaml:10:19: 'recompute_frac' is 1.5 (expected the share of the layers recomputed, 0.01 to 1)" },
		{ "bad-zero-gpus.yaml",
		  "bad-zero-gpus.yaml:11:10: 'count' is 0 (expected a whole number of GPUs from 1 to 1000000)" },
		{ "bad-10m-gpus.yaml",
		  "bad-10m-gpus.yaml:11:10: 'count' is 10000000 (expected a whole number of GPUs from 1 to 1000000)" },
		{ "bad-tokens-huge.yaml",
		  "bad-tokens-huge.yaml:8:11: 'tokens' is 1e300 (expected a number from 1 to 1e16)" },
		{ "bad-quoted-number.yaml",
		  "bad-quoted-number.yaml:6:12: 'seq_len' must be an integer, got quoted text \"1024\" (remove the quotes)" },
		{ "bad-dp-mismatch.yaml",
		  "bad-dp-mismatch.yaml:13:7: dp 8 x tp 2 x pp 1 = 16 GPUs does not match count 8 (expected dp: auto or a product equal to count)" },
		{ "bad-dp-word.yaml",
		  "bad-dp-word.yaml:12:7: dp 'many' is not valid (expected auto or an integer from 1 to 65536)" },
		{ "bad-count-multiple.yaml",
		  "bad-count-multiple.yaml:11:10: count 12 is not a multiple of tp x pp = 8 (expected a multiple, so data parallelism is a whole number)" },
		{ "bad-ep-dense.yaml",
		  "bad-ep-dense.yaml:12:7: ep 2 needs a mixture-of-experts model (expected ep: 1 for a dense model)" },
		{ "bad-micro-batch.yaml",
		  "bad-micro-batch.yaml:12:16: micro_batch 16 is larger than global_batch 8 (expected at most 8)" },
		{ "bad-network.yaml",
		  "bad-network.yaml:12:12: unknown network 'ib-hrd' (did you mean 'ib-hdr'?)" },
		{ "bad-network-bare.yaml",
		  "bad-network-bare.yaml:12:12: 'network' must be a byte rate, got '25' (expected a rate such as 2039GB/s or 200Gb/s)" },
		{ "bad-gpu-id.yaml",
		  "bad-gpu-id.yaml:10:8: gpu 'A100 80GB' is not a catalog id (expected letters, digits, '.', '-', '_', and ':PROFILE' for a MIG slice, as in a100-80gb-sxm:1g.10gb)" },
		{ "bad-seq-learned.yaml",
		  "bad-seq-learned.yaml:6:12: seq_len 2048 is longer than the model's 1024 learned positions (expected at most 1024, or model: max_positions: 2048)" },
		{ "bad-kind.yaml",
		  "bad-kind.yaml:1:7: kind 'speech' is not a workload kind (expected kind: llm, vision or recsys)" },
		{ "bad-hf-missing.yaml",
		  "hf-missing.json:1:1: missing required key 'num_hidden_layers' in Hugging Face config (expected the layer count as num_hidden_layers or n_layer)" },
		{ "bad-hf-act.yaml",
		  "hf-bad-act.json:2:17: activation 'tanh' is not supported (expected silu, gelu, gelu_new, gelu_pytorch_tanh or relu)" },
	};
	int failed = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[256], want[600];
		struct workload w, before;
		struct tc_diag d;
		snprintf(path, sizeof(path), DATA "%s", cases[i].file);
		snprintf(want, sizeof(want), DATA "%s", cases[i].msg);
		struct tc_datapath dp;
		dp_test(&dp);
		tc_diag_init(&d);
		memset(&w, 0x5a, sizeof(w));
		before = w;
		int rc = wl_load_file(path, &dp, &w, &d);
		if (rc != -1 || d.count < 1 || strcmp(d.entry[0].msg, want) ||
		    d.severity != TC_EXIT_INPUT || memcmp(&w, &before, sizeof(w))) {
			print_message("%s: rc %d, severity %d, got:\n", cases[i].file, rc, d.severity);
			show_diag(&d);
			print_message("  want: %s\n", want);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

/* The file that names a bad hf_config also points at the workload key. */
static void test_bad_hf_context(void **state)
{
	(void)state;
	struct workload w;
	struct tc_diag d;
	assert_int_equal(load(DATA "bad-hf-act.yaml", &w, &d), -1);
	assert_int_equal(d.count, 2);
	assert_string_equal(d.entry[1].msg,
			    DATA "bad-hf-act.yaml:4:14: hf_config 'hf-bad-act.json' could not be loaded");
	assert_int_equal(load(DATA "bad-nested-preset.yaml", &w, &d), -1);
	assert_int_equal(d.count, 2);
	assert_string_equal(d.entry[1].msg,
			    DATA "bad-nested-preset.yaml:4:11: preset 'nested' could not be loaded");
}

/* A missing hf_config file is an I/O error. */
static void test_bad_hf_absent(void **state)
{
	(void)state;
	struct workload w;
	struct tc_diag d;
	int rc = load_text("kind: llm\nmodel:\n  hf_config: no/such/config.json\n"
			   "training: {seq_len: 1024, global_batch: 8, tokens: 1e9}\n"
			   "plan: {count: 8}\n", &w, &d);
	assert_int_equal(rc, -1);
	assert_int_equal(d.severity, TC_EXIT_IO);
	assert_int_equal(d.count, 2);
	assert_string_equal(d.entry[1].msg, "t.yaml:3:14: hf_config 'no/such/config.json' could not be loaded");
}

/* Every problem is reported, not just the first. */
static void test_bad_many(void **state)
{
	(void)state;
	struct workload w;
	struct tc_diag d;
	int rc = load_text("kind: llm\nmodel: {preset: gpt2-124m, layerz: 2}\n"
			   "training: {seq_len: 0, global_batch: 8, tokens: 1e9}\n"
			   "plan: {count: 8, zero: 4}\n", &w, &d);
	assert_int_equal(rc, -1);
	assert_int_equal(d.count, 3);
	assert_string_equal(d.entry[0].msg, "t.yaml:2:28: unknown key 'layerz' in model (did you mean 'layers'?)");
	assert_string_equal(d.entry[1].msg, "t.yaml:3:21: 'seq_len' is 0 (expected a whole number from 1 to 10000000)");
	assert_string_equal(d.entry[2].msg, "t.yaml:4:24: 'zero' is 4 (expected a whole number from 0 to 3)");
}

/* More relations checked at load time. */
static void test_bad_relations(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		const char *msg;
	} cases[] = {
		{ "kind: llm\nmodel: {preset: mixtral-8x7b}\n"
		  "training: {seq_len: 1024, global_batch: 8, tokens: 1e9}\nplan: {count: 6, ep: 3}\n",
		  "t.yaml:4:22: ep 3 does not divide 8 experts (expected a divisor of 8)" },
		{ "kind: llm\nmodel: {preset: gpt2-124m, experts: 4}\n"
		  "training: {seq_len: 1024, global_batch: 8, tokens: 1e9}\nplan: {count: 8}\n",
		  "t.yaml:2:37: experts 4 without top_k (expected top_k: experts used per token)" },
		{ "kind: llm\nmodel: {preset: gpt2-124m, top_k: 2}\n"
		  "training: {seq_len: 1024, global_batch: 8, tokens: 1e9}\nplan: {count: 8}\n",
		  "t.yaml:2:35: top_k 2 needs a mixture of experts (expected experts greater than 1)" },
		{ "kind: llm\nmodel: {preset: llama2-7b, heads: 16}\n"
		  "training: {seq_len: 1024, global_batch: 8, tokens: 1e9}\nplan: {count: 8}\n",
		  NULL }, /* kv_heads follows heads (no GQA in the preset) */
		{ "kind: llm\nmodel: {preset: llama3-8b, heads: 4}\n"
		  "training: {seq_len: 1024, global_batch: 8, tokens: 1e9}\nplan: {count: 8}\n",
		  "t.yaml:2:17: kv_heads 8 is more than heads 4 (expected at most the number of query heads)" },
		{ "kind: llm\nmodel: {preset: llama2-70b, heads: 12}\n"
		  "training: {seq_len: 1024, global_batch: 8, tokens: 1e9}\nplan: {count: 8}\n",
		  "t.yaml:2:36: heads 12 does not divide hidden 8192 (expected a divisor, or head_dim set explicitly)" },
		{ "kind: llm\nmodel: {preset: gpt2-124m}\n"
		  "training: {seq_len: 1024, global_batch: 1e6, steps: 1e10}\nplan: {count: 8}\n",
		  "t.yaml:3:53: steps 10000000000 x global_batch 1000000 x seq_len 1024 = 1.02e+19 tokens is out of range (expected at most 1e16 tokens)" },
		{ "kind: llm\nmodel: {preset: gpt2-124m}\n"
		  "training: {seq_len: 1024, global_batch: 8, tokens: 1e9}\nplan: {count: 8, dp: [1]}\n",
		  "t.yaml:4:22: 'dp' must be auto or an integer from 1 to 65536, got a list" },
		{ "kind: llm\nmodel: {preset: gpt2-124m}\n"
		  "training: {seq_len: 1024, global_batch: 8, tokens: 1e9}\nplan: {count: 8, dp: 0}\n",
		  "t.yaml:4:22: 'dp' is 0 (expected a whole number from 1 to 65536)" },
		{ "kind: llm\nmodel: {preset: gpt2-124m}\n"
		  "training: {seq_len: 1024, global_batch: 8, tokens: 1e9}\nplan: {count: 8, gpu: a100:1g:2}\n",
		  "t.yaml:4:23: gpu 'a100:1g:2' is not a catalog id (expected letters, digits, '.', '-', '_', and ':PROFILE' for a MIG slice, as in a100-80gb-sxm:1g.10gb)" },
		{ "- a list\n", "t.yaml:1:1: the file holds a list (expected a mapping with kind, model, training and plan)" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct workload w;
		struct tc_diag d;
		int rc = load_text(cases[i].text, &w, &d);
		if (!cases[i].msg) {
			if (rc)
				show_diag(&d);
			assert_int_equal(rc, 0);
			assert_int_equal(w.llm.kv_heads, 16);
			continue;
		}
		if (rc != -1 || d.count < 1 || strcmp(d.entry[0].msg, cases[i].msg)) {
			print_message("case %zu: rc %d\n", i, rc);
			show_diag(&d);
			fail_msg("want: %s", cases[i].msg);
		}
	}
}

/* HF configs: GPT-2 names, Falcon multi-query, unsupported types. */
static void test_hf_variants(void **state)
{
	(void)state;
	static const char *const falcon =
		"{\"model_type\": \"falcon\", \"hidden_size\": 4544, \"n_head\": 71, \"n_layer\": 32,"
		" \"multi_query\": true, \"new_decoder_architecture\": false, \"vocab_size\": 65024,"
		" \"bias\": false, \"alibi\": false, \"parallel_attn\": true}\n";
	static const char *const deepseek =
		"{\"model_type\": \"deepseek_v3\", \"hidden_size\": 7168, \"num_hidden_layers\": 61,"
		" \"num_attention_heads\": 128, \"vocab_size\": 129280}\n";
	static const char *const quoted =
		"{\"model_type\": \"llama\", \"hidden_size\": \"4096\", \"num_hidden_layers\": 32,"
		" \"num_attention_heads\": 32, \"vocab_size\": 32000, \"hidden_act\": \"silu\"}\n";
	char path[] = TC_TEMP_FILE;
	struct llm_arch a;
	struct tc_diag d;

	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(falcon, f);
	fclose(f);
	tc_diag_init(&d);
	assert_int_equal(arch_load_hf_config(path, &a, &d), 0);
	assert_int_equal(a.kv_heads, 1);
	assert_int_equal(a.head_dim, 64);
	assert_int_equal(a.ffn, 4 * 4544);
	assert_int_equal(a.act, ACT_GELU);
	assert_int_equal(a.norm, NORM_LAYERNORM);
	assert_int_equal(a.positions, POS_ROPE);
	assert_int_equal(a.bias, 0);
	assert_int_equal(a.max_positions, 2048);
	assert_close(arch_params(&a), 6922011520.0, TOL_EXACT); /* tied, §1.9 */

	f = fopen(path, "w");
	fputs(deepseek, f);
	fclose(f);
	tc_diag_init(&d);
	assert_int_equal(arch_load_hf_config(path, &a, &d), -1);
	assert_non_null(strstr(d.entry[0].msg, ":1:16: model_type 'deepseek_v3' is not supported"));

	f = fopen(path, "w");
	fputs(quoted, f);
	fclose(f);
	tc_diag_init(&d);
	assert_int_equal(arch_load_hf_config(path, &a, &d), -1);
	assert_non_null(strstr(d.entry[0].msg,
			       ":1:40: 'hidden_size' must be an integer, got quoted text \"4096\" (remove the quotes)"));
	remove(path);
}

/* T5 and BART config.json files give the presets' shapes and counts
 * (models/arch/flan-t5-xl.yaml, t5-3b.yaml, bart-large.yaml); a BART whose
 * stacks differ in width is refused. */
static void test_hf_encoder_decoder(void **state)
{
	static const struct {
		const char *json;
		double params;
		enum llm_act act;
		enum llm_pos pos;
		int enc, dec, tied, maxpos;
	} ok[] = {
		{ "{\"model_type\": \"t5\", \"d_model\": 2048, \"d_ff\": 5120, \"num_layers\": 24,"
		  " \"num_decoder_layers\": 24, \"num_heads\": 32, \"d_kv\": 64, \"vocab_size\": 32128,"
		  " \"feed_forward_proj\": \"gated-gelu\", \"tie_word_embeddings\": false,"
		  " \"relative_attention_num_buckets\": 32}\n",
		  2849757184.0, ACT_GEGLU, POS_RELATIVE, 24, 24, 0, 0 },
		{ "{\"model_type\": \"t5\", \"d_model\": 1024, \"d_ff\": 16384, \"num_layers\": 24,"
		  " \"num_heads\": 32, \"d_kv\": 128, \"vocab_size\": 32128, \"n_positions\": 512}\n",
		  2851598336.0, ACT_RELU, POS_RELATIVE, 24, 24, 1, 512 },
		{ "{\"model_type\": \"bart\", \"d_model\": 1024, \"encoder_layers\": 12,"
		  " \"decoder_layers\": 12, \"encoder_attention_heads\": 16,"
		  " \"decoder_attention_heads\": 16, \"encoder_ffn_dim\": 4096,"
		  " \"decoder_ffn_dim\": 4096, \"vocab_size\": 50265,"
		  " \"max_position_embeddings\": 1024, \"activation_function\": \"gelu\"}\n",
		  406291456.0, ACT_GELU, POS_LEARNED, 12, 12, 1, 1026 },
	};
	static const char *const unequal =
		"{\"model_type\": \"bart\", \"d_model\": 1024, \"encoder_layers\": 12,"
		" \"decoder_layers\": 12, \"encoder_attention_heads\": 16,"
		" \"decoder_attention_heads\": 8, \"encoder_ffn_dim\": 4096,"
		" \"vocab_size\": 50265, \"max_position_embeddings\": 1024}\n";
	static const char *const no_width =
		"{\"model_type\": \"t5\", \"d_ff\": 3072, \"num_layers\": 12, \"num_heads\": 12,"
		" \"d_kv\": 64, \"vocab_size\": 32128}\n";
	struct llm_arch a;
	struct tc_diag d;
	(void)state;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		char path[] = TC_TEMP_FILE;
		tc_write_temp(path, ok[i].json);
		tc_diag_init(&d);
		int rc = arch_load_hf_config(path, &a, &d);
		if (rc)
			show_diag(&d);
		assert_int_equal(rc, 0);
		assert_int_equal(a.form, FORM_ENCODER_DECODER);
		assert_int_equal(a.encoder_layers, ok[i].enc);
		assert_int_equal(a.decoder_layers, ok[i].dec);
		assert_int_equal(a.layers, ok[i].enc + ok[i].dec);
		assert_int_equal(a.act, ok[i].act);
		assert_int_equal(a.positions, ok[i].pos);
		assert_int_equal(a.tied_embeddings, ok[i].tied);
		assert_int_equal(a.max_positions, ok[i].maxpos);
		assert_close(arch_params(&a), ok[i].params, TOL_EXACT);
		remove(path);
	}
	char path[] = TC_TEMP_FILE;
	tc_write_temp(path, unequal);
	tc_diag_init(&d);
	assert_int_equal(arch_load_hf_config(path, &a, &d), -1);
	assert_non_null(strstr(d.entry[0].msg, ":1:143: decoder_attention_heads 8 differs from "
					       "encoder_attention_heads 16 (expected the same in both stacks)"));
	remove(path);
	char path2[] = TC_TEMP_FILE;
	tc_write_temp(path2, no_width);
	tc_diag_init(&d);
	assert_int_equal(arch_load_hf_config(path2, &a, &d), -1);
	assert_non_null(strstr(d.entry[0].msg, ":1:1: missing required key 'd_model' in Hugging Face "
					       "config (expected the model width)"));
	remove(path2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_presets_all),
		cmocka_unit_test(test_presets_named),
		cmocka_unit_test(test_preset_values),
		cmocka_unit_test(test_preset_unknown),
		cmocka_unit_test(test_arch_file_bad),
		cmocka_unit_test(test_good_full),
		cmocka_unit_test(test_good_defaults),
		cmocka_unit_test(test_good_override),
		cmocka_unit_test(test_good_inline_min),
		cmocka_unit_test(test_campaign_section),
		cmocka_unit_test(test_good_hf),
		cmocka_unit_test(test_hf_example),
		cmocka_unit_test(test_networks),
		cmocka_unit_test(test_examples),
		cmocka_unit_test(test_demo_example),
		cmocka_unit_test(test_recompute_frac),
		cmocka_unit_test(test_bad_table),
		cmocka_unit_test(test_bad_hf_context),
		cmocka_unit_test(test_bad_hf_absent),
		cmocka_unit_test(test_bad_many),
		cmocka_unit_test(test_bad_relations),
		cmocka_unit_test(test_hf_variants),
		cmocka_unit_test(test_hf_encoder_decoder),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
