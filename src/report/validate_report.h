/*
 * validate_report.h - the summary of `traincost validate` in every format
 * (validate_report.c).
 */
#ifndef TC_VALIDATE_REPORT_H
#define TC_VALIDATE_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "rows.h"
#include "../model/types/val_case.h"
#include "../model/analyses/val_groups.h"
#include "../model/analyses/validate.h"

/* Everything the summary shows, computed once for every format. */
struct rep_validate_summary {
	struct val_result *kept; /* the results counted: sanity-only cases left out */
	size_t nkept, nsanity;
	struct val_stats all;
	struct val_group *files, *gpus, *frameworks, *families;
	int nfiles, ngpus, nframeworks, nfamilies;
	struct val_ratio *ratios;
	size_t nratios;
	struct val_stats ratio_st;
	struct val_stats loso, logo; /* held-out errors of the framework fit */
	/* each case's held-out error (by its index in the set; NaN where it
	 * has none), leaving its source and its GPU type out; NULL without
	 * --loo */
	double *held_source, *held_gpu;
	struct val_stats loso_llm, logo_llm; /* the same, language models only */
	size_t band_n, band_in;    /* runs whose measurement the P10-P90 band holds */
	size_t band_llm_n, band_llm_in; /* the same, language models only */
};

/* The summary s of the results res (n of them) of the cases of set,
 * written in fmt: JSON as the command's document, CSV one row per case,
 * the table and Markdown the summary tables (after one row per case with
 * verbose).  Returns 0, or -1 on a failed allocation or a non-finite
 * number (never printed). */
int rep_validate_report(FILE *out, const char *fmt, const struct val_set *set,
			const struct val_result *res, size_t n,
			const struct rep_validate_summary *s, int verbose);

/* The columns validate writes, each of the catalog (out_fields.h) as it
 * describes it, into cols (REP_ROWS_MAX_COLS at most): for a test that
 * they take the catalog's words.  Returns how many. */
int rep_validate_cols(struct rep_col *cols);

#endif
