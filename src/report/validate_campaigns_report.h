/*
 * validate_campaigns_report.h - the campaigns set of `traincost validate`
 * (the campaign model against training campaigns whose wall clock was
 * observed) in every format, and its one-line summary under validate's
 * table (validate_campaigns_report.c).
 */
#ifndef TC_VALIDATE_CAMPAIGNS_REPORT_H
#define TC_VALIDATE_CAMPAIGNS_REPORT_H

#include <stdio.h>

#include <stddef.h>

#include "../model/families/campaign.h"

/* One run of the set: what its source states, and the campaign the model
 * predicts for it. */
struct rep_campaign_run {
	const char *id;              /* borrowed, as the rest */
	int gpus;
	double steady_s;             /* the source's steady state */
	double wall_s;               /* the wall clock observed */
	const char *source, *note;
	const struct campaign *c;    /* the model's campaign */
	double error_frac;           /* predicted wall / observed - 1 */
};

/* The set (whose figures come from `source`, read on `as_of`) and its runs
 * r[0..n) written in fmt (table, csv, json, md): JSON as validate's
 * document, CSV one row a run, the table and Markdown under a heading,
 * with the mean and worst absolute error after.  Returns 0, or -1 on a
 * failed allocation or a non-finite number (never printed). */
int rep_validate_campaigns(FILE *out, const char *fmt, const char *source, const char *as_of,
			   const struct rep_campaign_run *r, size_t n);

/* The set's one-line summary under validate's table: its mean and worst
 * absolute error of the wall clock over the runs r[0..n). */
void rep_validate_campaigns_line(FILE *out, const struct rep_campaign_run *r, size_t n);

#endif
