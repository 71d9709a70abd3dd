/*
 * estimate_words.c - the estimate's fields as people read them
 * (estimate_words.h).
 */
#include "estimate_words.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../util/units.h"
#include "estimate_report.h"
#include "numfmt.h"
#include "table.h"

/* The wordings of the table and Markdown (rep_word_fn): the field column
 * c of row i words, alone or with others of the record.  A line of the
 * table words the field of its own name and group (estimate_record.c,
 * line()), the first
 * column so named; Markdown words that field's column itself. */
#define CELL rep_rows_field(r, i, r->cols[c].group, r->cols[c].name)
#define TABLE (!strcmp(fmt, "table"))
#define FIELD(group, name) rep_rows_field(r, i, group, name)

/* A time in the unit that suits it ("15.3 s", "84.2 d"). */
int rep_est_duration(REP_WORD_ARGS)
{
	tc_fmt_duration(CELL->num, value, REP_WORD_LEN);
	return 0;
}

/* An amount with its digits grouped ("275,013"). */
int rep_est_amount(REP_WORD_ARGS)
{
	rep_fmt_count(CELL->num, value, REP_WORD_LEN);
	return 0;
}

/* Fraction v as a percentage ("63.5 %") in buf of len bytes.  Returns buf. */
static char *percent_text(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.1f %%", 100 * v);
	return buf;
}

/* A fraction as a percentage ("63.5 %"). */
int rep_est_percent(REP_WORD_ARGS)
{
	percent_text(CELL->num, value, REP_WORD_LEN);
	return 0;
}

/* A word of the model's own ("memory_bandwidth"), as it is. */
int rep_est_name(REP_WORD_ARGS)
{
	snprintf(value, REP_WORD_LEN, "%s", CELL->text);
	return 0;
}

/* "69.9 GB of 80.0 GB (fits)"; the table says "does NOT fit". */
int rep_est_memory(REP_WORD_ARGS)
{
	char a[48], b[48];
	snprintf(value, REP_WORD_LEN, "%s of %s (%s)", tc_fmt_bytes(CELL->num, a, sizeof(a)),
		 tc_fmt_bytes(FIELD(NULL, "memory_capacity_bytes")->num, b, sizeof(b)),
		 FIELD(NULL, "fits")->num ? "fits" : TABLE ? "does NOT fit" : "does not fit");
	return 0;
}

/* The cheapest offer with its network, or why the run has no price;
 * nothing without a cost. */
int rep_est_cost(REP_WORD_ARGS)
{
	const struct rep_cell *pricing = FIELD("cost", "pricing");
	char usd[48];
	if (pricing->missing)
		return 1;
	if (CELL->missing) {
		snprintf(title, REP_WORD_LEN, "cost");
		snprintf(value, REP_WORD_LEN, "not priced: %s%s",
			 FIELD(NULL, "fits")->num ? "" : "the plan ",
			 FIELD("cost", "not_priced")->text);
		return 0;
	}
	const struct rep_cell *net = FIELD("cost.cheapest", "network");
	snprintf(title, REP_WORD_LEN, "cheapest %s cost", pricing->text);
	snprintf(value, REP_WORD_LEN, "%s (%s %s%s%s)", rep_fmt_usd(CELL->num, usd, sizeof(usd)),
		 FIELD("cost.cheapest", "provider")->text, FIELD("cost.cheapest", "instance")->text,
		 !net->missing && net->text[0] ? ", timed over " : "", net->missing ? "" : net->text);
	return 0;
}

/* "49,646 kWh, 19.9 t CO2"; nothing without a figure. */
int rep_est_energy(REP_WORD_ARGS)
{
	char kwh[48];
	if (CELL->missing)
		return 1;
	snprintf(value, REP_WORD_LEN, "%s kWh, %.3g t CO2", rep_fmt_count(CELL->num, kwh, sizeof(kwh)),
		 FIELD("energy", "co2_kg")->num / 1000);
	return 0;
}
/* What one sample of a workload of kind `kind` is called. */
static const char *unit_plural(const char *kind)
{
	return !strcmp(kind, "vision") ? "images" : !strcmp(kind, "recsys") ? "samples" : "sequences";
}

/* The throughput in total and per GPU: tokens for a language model,
 * samples for the others. */
int rep_est_throughput(REP_WORD_ARGS)
{
	const char *kind = FIELD(NULL, "kind")->text;
	char a[48], b[48];
	if (!strcmp(kind, "llm")) {
		snprintf(value, REP_WORD_LEN, "%s tokens/s in total, %s tokens/s per GPU",
			 rep_fmt_count(CELL->num, a, sizeof(a)),
			 rep_fmt_count(FIELD(NULL, "tokens_per_s_per_gpu")->num, b, sizeof(b)));
		return 0;
	}
	double per_s = FIELD(NULL, "samples_per_s")->num;
	const char *unit = unit_plural(kind);
	snprintf(value, REP_WORD_LEN, "%s %s/s in total, %s %s/s per GPU",
		 rep_fmt_count(per_s, a, sizeof(a)), unit,
		 rep_fmt_count(per_s / FIELD("plan", "count")->num, b, sizeof(b)), unit);
	return 0;
}

/* The time a step waits for its input; nothing when it waits none. */
int rep_est_input_wait(REP_WORD_ARGS)
{
	char a[48];
	if (CELL->missing || CELL->num <= 0)
		return 1;
	snprintf(value, REP_WORD_LEN, "%s per step waiting for the data loader",
		 tc_fmt_duration(CELL->num, a, sizeof(a)));
	return 0;
}

/* "5,000 steps in 2.63 d". */
int rep_est_run(REP_WORD_ARGS)
{
	char a[48], b[48];
	snprintf(value, REP_WORD_LEN, "%s steps in %s",
		 rep_fmt_count(FIELD(NULL, "steps")->num, a, sizeof(a)),
		 tc_fmt_duration(CELL->num, b, sizeof(b)));
	return 0;
}

/* GPU-hours as an amount; the table names the unit. */
int rep_est_gpu_hours(REP_WORD_ARGS)
{
	char a[48];
	snprintf(value, REP_WORD_LEN, "%s%s", rep_fmt_count(CELL->num, a, sizeof(a)),
		 TABLE ? " GPU-h" : "");
	return 0;
}

/* "41.2 % / 54.9 % of dense bf16 peak". */
int rep_est_mfu_hfu(REP_WORD_ARGS)
{
	char a[48], b[48];
	snprintf(value, REP_WORD_LEN, "%s / %s of dense %s peak", percent_text(CELL->num, a, sizeof(a)),
		 percent_text(FIELD(NULL, "hfu_frac")->num, b, sizeof(b)),
		 FIELD(NULL, "precision")->text);
	return 0;
}

/* Text from the data, as fmt shows it (rep_show). */
int rep_est_shown(REP_WORD_ARGS)
{
	rep_show(value, REP_WORD_LEN, CELL->text, fmt);
	return 0;
}

/* A size in bytes ("12.6 GB"). */
int rep_est_bytes(REP_WORD_ARGS)
{
	tc_fmt_bytes(CELL->num, value, REP_WORD_LEN);
	return 0;
}

/* What the embedding tables take of the memory, as a note; nothing
 * without any. */
int rep_est_embedding(REP_WORD_ARGS)
{
	char a[48];
	if (CELL->missing || CELL->num <= 0)
		return 1;
	snprintf(title, REP_WORD_LEN, "(embedding tables and their optimizer state: %s of it)",
		 tc_fmt_bytes(CELL->num, a, sizeof(a)));
	return 0;
}

/* The tables kept in host memory; nothing without any. */
int rep_est_host(REP_WORD_ARGS)
{
	char a[48];
	if (CELL->missing || CELL->num <= 0)
		return 1;
	snprintf(value, REP_WORD_LEN, "%10s of tables offloaded", tc_fmt_bytes(CELL->num, a, sizeof(a)));
	return 0;
}

/* The model's advice on a plan that does not fit, as a note of its own. */
int rep_est_advice(REP_WORD_ARGS)
{
	if (CELL->missing || !CELL->text[0])
		return 1;
	snprintf(title, REP_WORD_LEN, "%s", CELL->text);
	return 0;
}

/* A part of the step: its time and its share of the step ("1.2 ms
 * 0.4 %"); nothing when it takes none. */
int rep_est_share(REP_WORD_ARGS)
{
	char a[48], b[48];
	if (CELL->num <= 0)
		return 1;
	snprintf(value, REP_WORD_LEN, "%s %8s", tc_fmt_duration(CELL->num, a, sizeof(a)),
		 percent_text(CELL->num / FIELD(NULL, "step_time_s")->num, b, sizeof(b)));
	return 0;
}

/* Append the printf-style text to buf of REP_WORD_LEN bytes (cut short
 * where it is full). */
__attribute__((format(printf, 2, 3)))
static void append(char *buf, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + n, REP_WORD_LEN - n, fmt, ap);
	va_end(ap);
}

/* A fact of the table's own (estimate_record.c, group "sheet"). */
#define FACT(name) FIELD("sheet", name)
/* A field of the plan, and its number. */
#define PLAN_CELL(name) FIELD("plan", name)
#define PLAN(name) PLAN_CELL(name)->num

/* The workload's name, and what was run when the command line chose the
 * hardware (an override leaves no position in the file): the title of
 * the table. */
int rep_est_title(REP_WORD_ARGS)
{
	char t[REP_TITLE_LEN];
	const struct rep_cell *name = CELL;
	int gpu_flag = FACT("gpu_flag")->num != 0, count_flag = FACT("count_flag")->num != 0;
	snprintf(title, REP_WORD_LEN, "%s", rep_show(t, sizeof(t), name->text[0] ? name->text
						     : FIELD(NULL, "file")->text, fmt));
	if (gpu_flag || count_flag)
		append(title, ": run on %.0f x %s (%s%s%s)", PLAN("count"),
		       rep_show(t, sizeof(t), FACT("gpu_id")->text, fmt), gpu_flag ? "--gpu" : "",
		       gpu_flag && count_flag ? ", " : "", count_flag ? "--count" : "");
	return 0;
}

/* The workload's file. */
int rep_est_file(REP_WORD_ARGS)
{
	char t[REP_TITLE_LEN];
	snprintf(value, REP_WORD_LEN, "%s", rep_show(t, sizeof(t), CELL->text, fmt));
	return 0;
}

/* "llama2-7b, 6,738,415,616 parameters", with the active ones of a
 * mixture of experts. */
int rep_est_model(REP_WORD_ARGS)
{
	char a[48];
	double params = FIELD(NULL, "params")->num, active = FIELD(NULL, "active_params")->num;
	snprintf(value, REP_WORD_LEN, "%s, %s parameters", CELL->text,
		 rep_fmt_count(params, a, sizeof(a)));
	if (active < params)
		append(value, " (%s active per token)", rep_fmt_count(active, a, sizeof(a)));
	return 0;
}

/* "64 x NVIDIA A100 80GB SXM (a100-80gb-sxm), 8 per node". */
int rep_est_gpus(REP_WORD_ARGS)
{
	char t[REP_TITLE_LEN], id[REP_TITLE_LEN];
	snprintf(value, REP_WORD_LEN, "%.0f x %s (%s), %.0f per node", PLAN("count"),
		 rep_show(t, sizeof(t), CELL->text, fmt),
		 rep_show(id, sizeof(id), FACT("gpu_id")->text, fmt), PLAN("gpus_per_node"));
	return 0;
}

/* How a language model's layout splits the work between its GPUs. */
static void llm_layout(const struct rep_rows *r, size_t i, char *value)
{
	const struct rep_cell *first = PLAN_CELL("first_stage_layers");
	append(value, ", ZeRO %.0f, micro-batch %.0f%s, %.0f micro-batches per step", PLAN("zero"),
	       PLAN("micro_batch"), FIELD(NULL, "micro_batch_chosen")->num ?
	       " (none given: the fastest that fits)" : "", FACT("micro_batches")->num);
	if (FACT("shard_group")->num > 0)
		append(value, " (ZeRO shards inside groups of %.0f data-parallel ranks)",
		       FACT("shard_group")->num);
	if (PLAN("interleave") > 1)
		append(value, ", interleave %.0f", PLAN("interleave"));
	if (!first->missing)
		append(value, ", %.0f layers on the first stage and %.0f on the last", first->num,
		       PLAN("last_stage_layers"));
	if (FACT("zero_bubble")->num)
		append(value, ", zero-bubble schedule (ZB-H1)");
}

/* The parallel layout and the options of the plan. */
int rep_est_layout(REP_WORD_ARGS)
{
	int llm = !strcmp(FIELD(NULL, "kind")->text, "llm");
	if (llm)
		snprintf(value, REP_WORD_LEN, "tp %.0f x pp %.0f x dp %.0f", PLAN("tp"), PLAN("pp"),
			 PLAN("dp"));
	else
		snprintf(value, REP_WORD_LEN, "data parallel %.0f", PLAN("dp"));
	if (FACT("experts")->num > 1)
		append(value, ", ep %.0f", PLAN("ep"));
	if (llm && FACT("cp")->num > 1)
		append(value, " x cp %.0f", FACT("cp")->num);
	if (llm)
		llm_layout(r, i, value);
	else
		append(value, ", %.0f %s per GPU per step",
		       FIELD(NULL, "samples_per_step")->num / PLAN("dp"),
		       unit_plural(FIELD(NULL, "kind")->text));
	if (!llm && PLAN("interleave") > 1)
		append(value, ", interleave %.0f", PLAN("interleave"));
	if (PLAN("sequence_parallel"))
		append(value, ", sequence parallel");
	if (FACT("tp_comm_overlap")->num)
		append(value, ", tensor-parallel communication under the GEMMs");
	if (PLAN("cuda_graphs"))
		append(value, ", CUDA graphs");
	return 0;
}

/* What a language model trains on: tokens, sequences, batch, numbers,
 * recompute and fine-tuning. */
static void llm_training(const struct rep_rows *r, size_t i, char *value)
{
	char a[48], b[48];
	double per_step = FIELD(NULL, "tokens_per_step")->num;
	snprintf(value, REP_WORD_LEN, "%s tokens, ",
		 rep_fmt_count(per_step * FIELD(NULL, "steps")->num, a, sizeof(a)));
	if (FACT("encoder_decoder")->num) /* tokens are the inputs' */
		append(value, "input %.0f, target %.0f", FACT("input_len")->num,
		       FACT("target_len")->num);
	else
		append(value, "sequence %.0f", FACT("seq_len")->num);
	append(value, ", global batch %.0f (%s tokens per step), %s, %s, recompute %s",
	       FACT("global_batch")->num, rep_fmt_count(per_step, b, sizeof(b)),
	       FIELD(NULL, "precision")->text, FACT("optimizer")->text,
	       PLAN_CELL("recompute")->text);
	double share = FACT("recompute_share")->num;
	if (share > 0 && share < 1)
		append(value, " (%.3g %% of the layers)", 100 * share);
	if (!FACT("finetune")->missing)
		append(value, ", %s rank %.0f", FACT("finetune")->text, FACT("lora_rank")->num);
}

/* What a vision or recommender model trains on: samples, batch, steps,
 * numbers and an image's size. */
static void sample_training(const struct rep_rows *r, size_t i, char *value)
{
	char a[48], b[48];
	double per_step = FIELD(NULL, "samples_per_step")->num, steps = FIELD(NULL, "steps")->num;
	snprintf(value, REP_WORD_LEN, "%s %s, global batch %.0f, %s steps, %s, %s",
		 rep_fmt_count(per_step * steps, a, sizeof(a)), unit_plural(FIELD(NULL, "kind")->text),
		 per_step, rep_fmt_count(steps, b, sizeof(b)), FIELD(NULL, "precision")->text,
		 FACT("optimizer")->text);
	if (FACT("image_size")->missing)
		return;
	if (FACT("crop")->num)
		append(value, ", %.0f x %.0f crops of", FACT("input_h")->num, FACT("input_w")->num);
	append(value, "%s %.0f x %.0f pixels", FACT("crop")->num ? "" : ",",
	       FACT("image_size")->num, FACT("image_width")->num);
}

/* What the run trains on, and how. */
int rep_est_training(REP_WORD_ARGS)
{
	if (!strcmp(FIELD(NULL, "kind")->text, "llm"))
		llm_training(r, i, value);
	else
		sample_training(r, i, value);
	return 0;
}

/* The software stack and the compute rate its profile sets. */
int rep_est_framework(REP_WORD_ARGS)
{
	const struct rep_cell *stack = FACT("stack_frac");
	double runs = FACT("fitted_runs")->num;
	if (!CELL->text[0]) {
		snprintf(value, REP_WORD_LEN, "none named: the registry defaults (docs/model.md)");
		return 0;
	}
	snprintf(value, REP_WORD_LEN, "%s", CELL->text);
	if (!stack->missing)
		append(value, ", sustains %.0f %% of the kernel rates (fitted on published runs)",
		       100 * stack->num);
	else if (runs > 0)
		append(value, ", sustains the kernel rates of the defaults (checked on %.0f published "
		       "runs)", runs);
	else
		append(value, ", no measured run: the defaults apply");
	return 0;
}
