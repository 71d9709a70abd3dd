/*
 * estimate_report.h - what the reports of an estimate share: the names and
 * title of its workload, the network a priced choice assumes, the spot
 * assumptions and why a run got no price.  The estimate itself is written
 * by estimate_record.h, the operator rows of explain by explain_report.h.
 * Formats only; every number comes computed from the model.
 */
#ifndef TC_ESTIMATE_REPORT_H
#define TC_ESTIMATE_REPORT_H

#include <stdio.h>

#include "../model/families/estimate.h"
#include "../model/money/run_cost.h"
#include "../model/analyses/uncertainty.h"

/* The workload's kind as the JSON and CSV outputs name it: "llm",
 * "vision" or "recsys". */
const char *rep_kind_name(const struct workload *w);

/* What one sample of a workload of kind `kind` (rep_kind_name's word) is
 * called, in the plural: "sequences", "images" or "samples". */
const char *rep_sample_unit(const char *kind);

/* The model's name (its architecture's), whatever the workload kind. */
const char *rep_model_name(const struct workload *w);

/* Room for a rep_title(): a name of WL_NAME_LEN bytes, escaped. */
#define REP_TITLE_LEN 800

/* The workload's name (its file when it has none) as a text or Markdown
 * report shows it (rep_show), in buf of REP_TITLE_LEN bytes.  Returns buf. */
const char *rep_title(char *buf, const struct workload *w, const char *fmt);

/*
 * The network the time priced on choice *ch assumes between its instances:
 * the offer's own when it was timed over it, else the plan's (a network
 * the user fixed, or a bare bandwidth: ""); NULL when the run takes one
 * instance and no network plays a part.
 */
const char *rep_choice_network(const struct cost_choice *ch, const struct plan *p);

/* The spot assumptions of compare and plan, as a paragraph: preempt_per_h
 * preemptions per instance-hour among the wall clock's interruptions, and
 * what the steady state (steady_state: the basis) counts of them. */
void rep_spot_assumptions(FILE *f, double preempt_per_h, int steady_state);

/* Room for a rep_unpriced() line. */
#define REP_UNPRICED_LEN 640

/*
 * Why a run of `gpus` GPUs of `gpu_id` that fits got no `kind` price (*r
 * the failed cost_range), in buf of REP_UNPRICED_LEN bytes: no offer of
 * the GPU is sold that way, or none can host the run, with the largest
 * order on sale.  Returns buf.
 */
const char *rep_unpriced(char *buf, const struct cost_range *r, enum cost_kind kind,
			 const char *gpu_id, double gpus);

#endif
