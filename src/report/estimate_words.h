/*
 * estimate_words.h - how the table and Markdown word the fields of an
 * estimate's record (estimate_record.c) for people: each is a rep_word_fn
 * (rows.h) that reads the field its column names, the first of that name
 * and group (a line of the table names the field it shows), and any
 * others of the record it needs.  A wording says what a field is in one
 * place, whichever view shows it.
 */
#ifndef TC_ESTIMATE_WORDS_H
#define TC_ESTIMATE_WORDS_H

#include <stddef.h>

#include "rows.h"

/* The arguments of a rep_word_fn. */
#define REP_WORD_ARGS const struct rep_rows *r, size_t i, int c, const char *fmt, char *title, \
		      char *value

/* A time in the unit that suits it ("15.3 s", "84.2 d"). */
int rep_est_duration(REP_WORD_ARGS);
/* An amount with its digits grouped ("275,013"). */
int rep_est_amount(REP_WORD_ARGS);
/* A fraction as a percentage ("63.5 %"). */
int rep_est_percent(REP_WORD_ARGS);
/* A word of the model's own ("memory_bandwidth"), as it is. */
int rep_est_name(REP_WORD_ARGS);
/* "69.9 GB of 80.0 GB (fits)"; the table says "does NOT fit". */
int rep_est_memory(REP_WORD_ARGS);
/* The cheapest offer with its network, or why the run has no price;
 * nothing without a cost. */
int rep_est_cost(REP_WORD_ARGS);
/* "49,646 kWh, 19.9 t CO2"; the table gives small amounts of CO2 in kg
 * and the assumptions; nothing without a figure. */
int rep_est_energy(REP_WORD_ARGS);
/* The throughput in total and per GPU: tokens for a language model,
 * samples for the others. */
int rep_est_throughput(REP_WORD_ARGS);
/* The time a step waits for its input; nothing when it waits none. */
int rep_est_input_wait(REP_WORD_ARGS);
/* "5,000 steps in 2.63 d"; the table adds "at steady state". */
int rep_est_run(REP_WORD_ARGS);
/* GPU-hours as an amount; the table names the unit. */
int rep_est_gpu_hours(REP_WORD_ARGS);
/* "41.2 % / 54.9 % of dense bf16 peak". */
int rep_est_mfu_hfu(REP_WORD_ARGS);
/* Text from the data, as fmt shows it (rep_show), cut as a title is
 * (REP_TITLE_LEN). */
int rep_est_shown(REP_WORD_ARGS);
/* A size in bytes ("12.6 GB"). */
int rep_est_bytes(REP_WORD_ARGS);
/* What the embedding tables take of the memory, as a note; nothing
 * without any. */
int rep_est_embedding(REP_WORD_ARGS);
/* The tables kept in host memory; nothing without any. */
int rep_est_host(REP_WORD_ARGS);
/* The model's advice on a plan that does not fit, as a note of its own. */
int rep_est_advice(REP_WORD_ARGS);
/* A part of the step: its time and its share of the step ("1.2 ms
 * 0.4 %"); nothing when it takes none. */
int rep_est_share(REP_WORD_ARGS);

/* The workload's name, and what was run when the command line chose the
 * hardware: the table's title. */
int rep_est_title(REP_WORD_ARGS);
/* The model and its parameters. */
int rep_est_model(REP_WORD_ARGS);
/* The GPUs: how many, which, how many per node. */
int rep_est_gpus(REP_WORD_ARGS);
/* The parallel layout and the options of the plan. */
int rep_est_layout(REP_WORD_ARGS);
/* What the run trains on, and how. */
int rep_est_training(REP_WORD_ARGS);
/* The software stack and the compute rate its profile sets. */
int rep_est_framework(REP_WORD_ARGS);

/* The heading of the cost: which prices. */
int rep_est_cost_heading(REP_WORD_ARGS);
/* The cheapest offer: what, where, how many, how long, at what rate. */
int rep_est_offer(REP_WORD_ARGS);
/* The cheapest and the dearest offer, across providers and offers. */
int rep_est_range(REP_WORD_ARGS);
/* Which network the cheapest offer's time was taken over. */
int rep_est_network(REP_WORD_ARGS);
/* Why the run has no cloud price. */
int rep_est_unpriced(REP_WORD_ARGS);
/* The offers left out for their small instances. */
int rep_est_skipped_small(REP_WORD_ARGS);
/* The offers left out for their network or order size. */
int rep_est_skipped_fabric(REP_WORD_ARGS);
/* The offers with an unverified price, set aside, that could host the run. */
int rep_est_unverified(REP_WORD_ARGS);
/* The spot assumptions and the time the restarts add. */
int rep_est_spot(REP_WORD_ARGS);
/* What one spot restart costs; whether spot can finish the run. */
int rep_est_restart(REP_WORD_ARGS);
/* The cost on premises and its rate by part. */
int rep_est_onprem(REP_WORD_ARGS);

/* The heading of the uncertainty: samples, seed, percentiles. */
int rep_est_unc_heading(REP_WORD_ARGS);
/* The P10, P50 and P90 of a time. */
int rep_est_unc_time(REP_WORD_ARGS);
/* The P10, P50 and P90 of a cost. */
int rep_est_unc_cost(REP_WORD_ARGS);
/* How the costs drew the spot price across zones; nothing when they did
 * not. */
int rep_est_unc_price(REP_WORD_ARGS);
/* The chance of meeting the deadline or the budget. */
int rep_est_unc_chance(REP_WORD_ARGS);

/* The P10, P50 and P90 of the run's time, titled steady or with the spot
 * restarts the samples drew. */
int rep_est_unc_total(REP_WORD_ARGS);

#endif
