/*
 * estimate_words.c - the estimate's fields as people read them
 * (estimate_words.h).
 */
#include "estimate_words.h"

#include <string.h>

#include "../util/units.h"
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
