/*
 * step.h - the language-model family's row (family.h): one training step
 * of a single-stack LLM, its plan resolved and checked, its operators
 * (llm.h) timed and composed, its memory and fit search; and the plan
 * check and work field the encoder-decoder row (llm_encdec.c) shares.
 */
#ifndef TC_STEP_H
#define TC_STEP_H

#include "../core/family.h"
#include "../types/estimate_types.h"
#include "../types/gpu.h"
#include "../types/workload.h"

extern const struct est_family llm_family;

/* Resolve the plan of w on g into *pl (defaults filled, the schedule
 * resolved) and check it; warn of plan choices into E.  0, or -1 with *why.
 * The first hook of the language-model family. */
int llm_plan(const struct workload *w, const struct gpu *g, struct plan *pl,
	     struct estimate *E, struct plan_problem *why);

/* The field that sets a language model's amount of work: steps or tokens. */
enum wl_field llm_work_field(const struct workload *w, const char **what);

#endif
