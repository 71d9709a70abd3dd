/*
 * estimate_words.c - the estimate's fields as people read them
 * (estimate_words.h).
 */
#include "estimate_words.h"

#include <math.h>
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
 * line()), the first column so named; Markdown words that field's column
 * itself.  Each is found by name on every call: a record has a few
 * hundred fields and a table a few dozen lines, once per run. */
#define CELL rep_rows_field(r, i, r->cols[c].group, r->cols[c].name)
#define TABLE (!strcmp(fmt, "table"))
#define FIELD(group, name) rep_rows_field(r, i, group, name)
/* A fact of the table's own (estimate_record.c, group "sheet"). */
#define FACT(name) FIELD("sheet", name)
/* A field of the plan, and its number. */
#define PLAN_CELL(name) FIELD("plan", name)
#define PLAN(name) PLAN_CELL(name)->num

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

/* "69.9 GB of 80.0 GB (fits)"; the table says "does NOT fit"; with a
 * memory headroom, "69.9 GB of 72.0 GB usable (80.0 GB less 10 % kept
 * free; fits)". */
int rep_est_memory(REP_WORD_ARGS)
{
	char a[48], b[48], whole[48];
	double cap = FIELD(NULL, "memory_capacity_bytes")->num;
	double usable = FIELD(NULL, "memory_usable_bytes")->num;
	const char *fit = FIELD(NULL, "fits")->num ? "fits" : TABLE ? "does NOT fit" : "does not fit";
	if (usable < cap)
		snprintf(value, REP_WORD_LEN, "%s of %s usable (%s less %.3g %% kept free; %s)",
			 tc_fmt_bytes(CELL->num, a, sizeof(a)), tc_fmt_bytes(usable, b, sizeof(b)),
			 tc_fmt_bytes(cap, whole, sizeof(whole)), 100 * (1 - usable / cap), fit);
	else
		snprintf(value, REP_WORD_LEN, "%s of %s (%s)", tc_fmt_bytes(CELL->num, a, sizeof(a)),
			 tc_fmt_bytes(cap, b, sizeof(b)), fit);
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
		 !net->missing && net->text[0] ? ", timed over " : "",
		 net->missing ? "" : net->text);
	return 0;
}

/* "49,646 kWh, 19.9 t CO2"; the table gives small amounts of CO2 in kg
 * and the assumptions; nothing without a figure. */
int rep_est_energy(REP_WORD_ARGS)
{
	char kwh[48], co2[48];
	double kg = FIELD("energy", "co2_kg")->num;
	if (CELL->missing)
		return 1;
	rep_fmt_count(CELL->num, kwh, sizeof(kwh));
	if (kg >= 1000)
		snprintf(co2, sizeof(co2), "%.3g t", kg / 1000);
	else
		snprintf(co2, sizeof(co2), "%.3g kg", kg);
	if (!TABLE) {
		snprintf(value, REP_WORD_LEN, "%s kWh, %s CO2", kwh, co2);
		return 0;
	}
	snprintf(value, REP_WORD_LEN, "%s kWh and %s CO2 (assumed: average power %.0f %% of the "
		 "%.0f W TDP, PUE %.2f, %.0f g CO2 per kWh)", kwh, co2,
		 100 * FIELD("energy", "power_frac")->num, FACT("tdp_w")->num,
		 FIELD("energy", "pue")->num, FIELD("energy", "grid_g_per_kwh")->num);
	return 0;
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
	const char *unit = rep_sample_unit(kind);
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

/* "5,000 steps in 2.63 d (steady state)": no interruption counted, spot
 * preemptions included (the wall clock counts them). */
int rep_est_run(REP_WORD_ARGS)
{
	char a[48], b[48];
	snprintf(value, REP_WORD_LEN, "%s steps in %s (steady state)",
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
	snprintf(value, REP_WORD_LEN, "%s / %s of dense %s peak",
		 percent_text(CELL->num, a, sizeof(a)),
		 percent_text(FIELD(NULL, "hfu_frac")->num, b, sizeof(b)),
		 FIELD(NULL, "precision")->text);
	return 0;
}

/* Text from the data, as fmt shows it (rep_show), cut as a title is
 * (REP_TITLE_LEN). */
int rep_est_shown(REP_WORD_ARGS)
{
	char t[REP_TITLE_LEN];
	snprintf(value, REP_WORD_LEN, "%s", rep_show(t, sizeof(t), CELL->text, fmt));
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
	snprintf(value, REP_WORD_LEN, "%10s of tables offloaded",
		 tc_fmt_bytes(CELL->num, a, sizeof(a)));
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
	double m = FACT("micro_batches")->num;
	append(value, ", ZeRO %.0f, micro-batch %.0f %s%s, %.0f micro-batch%s per step", PLAN("zero"),
	       PLAN("micro_batch"), PLAN("micro_batch") == 1 ? "sequence" : rep_sample_unit("llm"),
	       FIELD(NULL, "micro_batch_chosen")->num ?
	       " (none given: the fastest that fits)" : "", m, m == 1 ? "" : "es");
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
		       rep_sample_unit(FIELD(NULL, "kind")->text));
	if (!llm && PLAN("interleave") > 1)
		append(value, ", interleave %.0f", PLAN("interleave"));
	if (PLAN("sequence_parallel"))
		append(value, ", sequence parallel");
	if (FACT("tp_comm_overlap")->num)
		append(value, ", tensor-parallel communication under the GEMMs");
	if (PLAN("cuda_graphs"))
		append(value, ", CUDA graphs");
	if (PLAN("compile"))
		append(value, ", torch.compile");
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
		append(value, "input %.0f tokens, target %.0f tokens", FACT("input_len")->num,
		       FACT("target_len")->num);
	else
		append(value, "sequence %.0f tokens", FACT("seq_len")->num);
	append(value, ", global batch %.0f %s (%s tokens per step), %s, %s, recompute %s",
	       FACT("global_batch")->num, rep_sample_unit("llm"),
	       rep_fmt_count(per_step, b, sizeof(b)),
	       FIELD(NULL, "precision")->text, FACT("optimizer")->text,
	       PLAN_CELL("recompute")->text);
	double share = FACT("recompute_share")->num;
	if (share > 0 && share < 1)
		append(value, " (%.3g %% of the layers)", 100 * share);
	if (!FACT("finetune")->missing)
		append(value, ", %s rank %.0f%s%s", FACT("finetune")->text, FACT("lora_rank")->num,
		       strcmp(FACT("lora_targets")->text, "all") ? " on " : "",
		       strcmp(FACT("lora_targets")->text, "all") ? FACT("lora_targets")->text : "");
	if (FACT("lora_base_fp8")->num)
		append(value, " (frozen base in fp8)");
	if (FACT("mlp_act_input_fp8")->num)
		append(value, ", MLP activation inputs kept in fp8");
	if (FACT("lm_head_tokens")->num > 0)
		append(value, ", vocabulary head on %.0f tokens a sample", FACT("lm_head_tokens")->num);
}

/* What a vision or recommender model trains on: samples, batch, steps,
 * numbers and an image's size. */
static void sample_training(const struct rep_rows *r, size_t i, char *value)
{
	char a[48], b[48];
	double per_step = FIELD(NULL, "samples_per_step")->num, steps = FIELD(NULL, "steps")->num;
	const char *unit = rep_sample_unit(FIELD(NULL, "kind")->text);
	snprintf(value, REP_WORD_LEN, "%s %s, global batch %.0f %s, %s steps, %s, %s",
		 rep_fmt_count(per_step * steps, a, sizeof(a)), unit, per_step, unit,
		 rep_fmt_count(steps, b, sizeof(b)), FIELD(NULL, "precision")->text,
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
	if (!stack->missing && runs <= 0)
		append(value, ", no measured run: sustains %.0f %% of the kernel rates, the rate "
		       "pooled over the measured stacks", 100 * stack->num);
	else if (!stack->missing)
		append(value, ", sustains %.0f %% of the kernel rates (fitted on %.0f published "
		       "run%s)", 100 * stack->num, runs, runs == 1 ? "" : "s");
	else if (runs > 0)
		append(value, ", sustains the kernel rates of the defaults (checked on %.0f "
		       "published runs)", runs);
	else
		append(value, ", no measured run: the defaults apply");
	return 0;
}

/* "s" after a count other than one. */
static const char *plural(double n)
{
	return n == 1 ? "" : "s";
}

/* The heading of the cost: which prices; nothing without a cost. */
int rep_est_cost_heading(REP_WORD_ARGS)
{
	if (CELL->missing)
		return 1;
	snprintf(title, REP_WORD_LEN, "Cost (%s prices):", CELL->text);
	return 0;
}

/* A field of the cheapest offer. */
#define OFFER(name) FIELD("cost.cheapest", name)

/* The cheapest offer: what it costs, where, on how many instances for
 * how long at what rate, and the GPUs paid for but idle; nothing
 * without an offer. */
int rep_est_offer(REP_WORD_ARGS)
{
	char usd[48], inst[48], dur[48], rate[48];
	double gpus = OFFER("gpus_per_instance")->num, idle = OFFER("idle_gpus")->num;
	const char *region = OFFER("region")->text;
	if (CELL->missing)
		return 1;
	snprintf(value, REP_WORD_LEN,
		 "%s on %s %s (%s): %s x %.4g GPU%s billed for %s (%s) at %s/h, as of %s%s",
		 rep_fmt_usd(CELL->num, usd, sizeof(usd)), OFFER("provider")->text,
		 OFFER("instance")->text, region[0] ? region : "any region",
		 rep_fmt_count(OFFER("instances")->num, inst, sizeof(inst)), gpus, plural(gpus),
		 tc_fmt_duration(OFFER("billed_s")->num, dur, sizeof(dur)),
		 "the steady run",
		 rep_fmt_usd(OFFER("price_usd_per_instance_h")->num, rate, sizeof(rate)),
		 OFFER("as_of")->text, OFFER("verified")->num ? "" : " (unverified price)");
	if (idle > 0)
		append(value, "\n%.4g GPU%s paid for but idle in the last instance", idle,
		       plural(idle));
	return 0;
}

/* The cheapest and the dearest offer, across how many providers and
 * offers; nothing without an offer. */
int rep_est_range(REP_WORD_ARGS)
{
	char a[48], b[48];
	double providers = FIELD("cost", "providers")->num, offers = FIELD("cost", "offers")->num;
	if (CELL->missing)
		return 1;
	double idle = FIELD("cost", "offers_idle")->num;
	const struct rep_cell *idle_max = FIELD("cost", "idle_max_usd");
	char most[48];
	snprintf(value, REP_WORD_LEN, "%s to %s across %.0f provider%s (%.0f offer%s)",
		 rep_fmt_usd(OFFER("steady_cost_usd")->num, a, sizeof(a)),
		 rep_fmt_usd(CELL->num, b, sizeof(b)),
		 providers, plural(providers), offers, plural(offers));
	/* Offers that leave paid GPUs idle are listed apart. */
	if (idle > 0)
		append(value, "; %.0f more leave paid GPUs idle%s%s", idle,
		       idle_max->missing ? "" : ", up to ",
		       idle_max->missing ? "" : rep_fmt_usd(idle_max->num, most, sizeof(most)));
	/* Each end is timed over its own offer's network: name the dearest's
	 * (the cheapest's has the network line). */
	const struct rep_cell *net = FIELD("cost.dearest", "network");
	if (!net->missing && net->text[0] && providers > 1) {
		char t[48];
		append(value, "; the dearest, %s %s, timed over %s: %s",
		       FIELD("cost.dearest", "provider")->text, FIELD("cost.dearest", "instance")->text,
		       net->text, tc_fmt_duration(FIELD("cost.dearest", "run_s")->num, t, sizeof(t)));
	}
	return 0;
}

/* Which network the cheapest offer's time was taken over, and the plan's
 * own time beside it when that differs; nothing when the run takes one
 * instance. */
int rep_est_network(REP_WORD_ARGS)
{
	const char *net = CELL->text, *plan_net = FACT("plan_network")->text;
	const char *provider = OFFER("provider")->text, *instance = OFFER("instance")->text;
	char a[48], b[48];
	if (CELL->missing)
		return 1;
	if (!FACT("offer_own_network")->num) {
		snprintf(value, REP_WORD_LEN, "every offer timed over %s, the plan's network "
			 "between instances (%s %s's own is %s)",
			 net[0] ? net : "the plan's bandwidth",
			 provider, instance, FACT("offer_network")->text);
		return 0;
	}
	snprintf(value, REP_WORD_LEN, "timed over %s, the network of %s %s between instances", net,
		 provider, instance);
	if (strcmp(net, plan_net)) {
		tc_fmt_duration(FIELD("cost", "billed_run_s")->num, a, sizeof(a));
		tc_fmt_duration(OFFER("run_s")->num, b, sizeof(b));
		append(value, "; over the plan's %s the run takes %s%s", plan_net[0] ? plan_net
		       : "bandwidth", strcmp(a, b) ? "" : "the same ", a);
	}
	append(value, " (`--network NAME` times every offer over one network)");
	return 0;
}

/* Why the run has no cloud price: it does not fit, or no offer hosts
 * it; nothing when it has one. */
int rep_est_unpriced(REP_WORD_ARGS)
{
	if (CELL->missing)
		return 1;
	if (FACT("unfit")->num) {
		snprintf(title, REP_WORD_LEN, "not priced");
		snprintf(value, REP_WORD_LEN, "the plan does not fit in GPU memory: no offer, "
			 "on-premises or energy figure");
	} else {
		snprintf(value, REP_WORD_LEN, "%s", CELL->text);
	}
	return 0;
}

/* The offers left out because their instances are smaller than the
 * plan's nodes; nothing when none is. */
int rep_est_skipped_small(REP_WORD_ARGS)
{
	double n = CELL->num;
	if (n <= 0 || FACT("unfit")->num)
		return 1;
	snprintf(value, REP_WORD_LEN, "%.0f offer%s with fewer GPUs per instance than the plan's "
		 "nodes left out", n, plural(n));
	return 0;
}

/* The offers left out because one order cannot join the instances the
 * plan needs; nothing when none is. */
int rep_est_skipped_fabric(REP_WORD_ARGS)
{
	double n = CELL->num;
	if (n <= 0 || FACT("unfit")->num)
		return 1;
	snprintf(value, REP_WORD_LEN, "%.0f offer%s left out: one order cannot join the instances "
		 "the plan needs (its network or max_instances; `traincost prices`)", n, plural(n));
	return 0;
}

/* The offers with an unverified price that were set aside but could
 * host the run, and what the cheapest would cost; nothing when none
 * could. */
int rep_est_unverified(REP_WORD_ARGS)
{
	char usd[48], rate[48];
	double n = CELL->num;
#define ASIDE(name) FIELD("cost.unverified", name)
	if (CELL->missing || !(n > 0) || ASIDE("provider")->missing)
		return 1;
	snprintf(value, REP_WORD_LEN, "%.0f offer%s with an unverified price left out: %s %s "
		 "would cost %s for the steady run at %s/h, as of %s (`--include-unverified` "
		 "prices %s)", n, plural(n), ASIDE("provider")->text, ASIDE("instance")->text,
		 rep_fmt_usd(ASIDE("steady_cost_usd")->num, usd, sizeof(usd)),
		 rep_fmt_usd(ASIDE("price_usd_per_instance_h")->num, rate, sizeof(rate)),
		 ASIDE("as_of")->text, n == 1 ? "it" : "them");
#undef ASIDE
	return 0;
}

/* A field of the spot assumptions and what the restarts cost. */
#define SPOT(name) FIELD("cost.spot", name)->num

/* Where the spot notice comes from, appended to value. */
static void notice_words(const struct rep_rows *r, size_t i, char *value)
{
	char a[48], b[48];
	const char *provider = FACT("notice_provider")->text;
	tc_fmt_duration(SPOT("notice_s"), a, sizeof(a));
	if (FACT("notice_given")->num)
		append(value, "; notice %s (the workload's spot_notice)", a);
	else if (provider && provider[0])
		append(value, "; notice %s, %s's documented (pricing/%s.yaml)", a, provider, provider);
	else
		append(value, "; notice unknown%s%s: %s assumed, the shortest a provider documents",
		       FIELD("cost.cheapest", "provider")->missing ? "" : " for ",
		       FIELD("cost.cheapest", "provider")->missing ? "" :
		       FIELD("cost.cheapest", "provider")->text, tc_fmt_duration(SPOT("notice_s"), b,
										 sizeof(b)));
}

/* The spot assumptions and the wall clock the expected preemptions cost
 * among its interruptions; nothing without spot prices. */
int rep_est_spot(REP_WORD_ARGS)
{
	char x[48], k[48];
	double instances = SPOT("instances");
	if (CELL->missing)
		return 1;
	snprintf(value, REP_WORD_LEN, "assumed %.3g preemptions per instance-hour on each of "
		 "%.0f instance%s (any one stops the job), counted among the interruptions of the "
		 "wall clock: ", CELL->num, instances, plural(instances));
	if (FACT("spot_hopeless")->num)
		append(value, "each losing a restart and half a checkpoint interval, they leave "
		       "no time to train: spot cannot finish this run");
	else
		append(value, "%s expected, costing %s of it",
		       rep_fmt_count(round(SPOT("expected_restarts")), k, sizeof(k)),
		       tc_fmt_duration(SPOT("overhead_s"), x, sizeof(x)));
	append(value, "; the steady state has none");
	notice_words(r, i, value);
	return 0;
}

/* What one spot preemption costs; nothing without a priced spot run. */
int rep_est_restart(REP_WORD_ARGS)
{
	char a[48], b[48], x[48], y[48], z[48], n[48], w[48], k[48], t[48];
	double ckpt = SPOT("checkpoint_interval_s"), lost = SPOT("lost_s_per_restart");
	double instances = OFFER("instances")->num;
	if (CELL->missing)
		return 1;
	snprintf(value, REP_WORD_LEN, "each preemption costs %s to get training again plus on "
		 "average %s of work lost since the last checkpoint (half the %s interval): %s on %s "
		 "instance%s at %s/h, %s; all %s expected: %s, in the wall-clock cost",
		 tc_fmt_duration(SPOT("restart_s"), a, sizeof(a)),
		 tc_fmt_duration(ckpt / 2, b, sizeof(b)), tc_fmt_duration(ckpt, x, sizeof(x)),
		 tc_fmt_duration(lost, y, sizeof(y)), rep_fmt_count(instances, n, sizeof(n)),
		 plural(instances),
		 rep_fmt_usd(OFFER("price_usd_per_instance_h")->num, z, sizeof(z)),
		 rep_fmt_usd(CELL->num, w, sizeof(w)),
		 rep_fmt_count(round(SPOT("expected_restarts")), k, sizeof(k)),
		 rep_fmt_usd(SPOT("overhead_cost_usd"), t, sizeof(t)));
	return 0;
}

/* The cost of the run on premises and its rate by part; nothing without
 * one. */
int rep_est_onprem(REP_WORD_ARGS)
{
	char a[48], b[48], x[48], y[48], z[48];
	if (CELL->missing)
		return 1;
	snprintf(value, REP_WORD_LEN, "%s at %s per GPU-hour (capital %s, power %s, colocation %s)",
		 rep_fmt_usd(CELL->num, a, sizeof(a)),
		 rep_fmt_usd(FIELD("cost", "onprem_usd_per_gpu_h")->num, b, sizeof(b)),
		 rep_fmt_usd(FACT("capital_usd_per_gpu_h")->num, x, sizeof(x)),
		 rep_fmt_usd(FACT("power_usd_per_gpu_h")->num, y, sizeof(y)),
		 rep_fmt_usd(FACT("colo_usd_per_gpu_h")->num, z, sizeof(z)));
	return 0;
}

/* The heading of the uncertainty: how many samples, which seed, and the
 * percentiles of the lines after it. */
int rep_est_unc_heading(REP_WORD_ARGS)
{
	snprintf(title, REP_WORD_LEN, "Uncertainty (%.0f samples, seed %s):      P10         P50"
		 "         P90", CELL->num, FIELD("uncertainty", "seed")->text);
	return 0;
}

/* The P10, P50 and P90 of the quantity whose group holds the column's
 * field, each written by `text`.  Returns 1 without them, else 0. */
static int percentiles(const struct rep_rows *r, size_t i, int c, char *value,
		       char *(*text)(double, char *, int))
{
	static const char *const name[] = { "p10", "p50", "p90" };
	char v[3][48];
	for (int k = 0; k < 3; k++) {
		const struct rep_cell *q = FIELD(r->cols[c].group, name[k]);
		if (q->missing)
			return 1;
		text(q->num, v[k], (int)sizeof(v[k]));
	}
	snprintf(value, REP_WORD_LEN, "%s %11s %11s", v[0], v[1], v[2]);
	return 0;
}

/* The percentiles of a time, in the unit that suits each. */
int rep_est_unc_time(REP_WORD_ARGS)
{
	return percentiles(r, i, c, value, tc_fmt_duration);
}

/* The percentiles of the run's time at steady state: no interruption
 * drawn, spot or not (the wall clock's line draws them). */
int rep_est_unc_total(REP_WORD_ARGS)
{
	snprintf(title, REP_WORD_LEN, "%s", "total time, steady");
	return percentiles(r, i, c, value, tc_fmt_duration);
}

/* The percentiles of a cost; nothing without one. */
int rep_est_unc_cost(REP_WORD_ARGS)
{
	return percentiles(r, i, c, value, rep_fmt_usd);
}

/* The spot price the costs above drew per sample: split uniform around
 * the zones' median, or uniform when the source gives none (docs/pricing.md,
 * "Spot across zones"); nothing when the price was not drawn. */
int rep_est_unc_price(REP_WORD_ARGS)
{
	char lo[48], med[48], hi[48];
	if (CELL->missing)
		return 1;
	rep_fmt_usd(CELL->num, lo, sizeof(lo));
	rep_fmt_usd(FIELD("uncertainty", "price_median")->num, med, sizeof(med));
	rep_fmt_usd(FIELD("uncertainty", "price_high")->num, hi, sizeof(hi));
	if (FIELD("uncertainty", "price_median_sourced")->num)
		snprintf(value, REP_WORD_LEN, "across its zones, for the costs above: half uniform "
			 "from %s to the median %s, half from there to %s per instance-hour",
			 lo, med, hi);
	else
		snprintf(value, REP_WORD_LEN, "across its zones, for the costs above: uniform from "
			 "%s to %s per instance-hour (the source gives no median)",
			 lo, hi);
	return 0;
}

/* A chance (of meeting the deadline, of staying within the budget) after
 * the line's title, as a note; nothing without one. */
int rep_est_unc_chance(REP_WORD_ARGS)
{
	if (CELL->missing)
		return 1;
	append(title, ": %.0f %%", 100 * CELL->num);
	return 0;
}
