/*
 * validate_campaigns_report.h - the campaigns set of `traincost validate`
 * (the campaign model against training campaigns whose wall clock was
 * observed) in every format, and its one-line summary under validate's
 * table (validate_campaigns_report.c).
 */
#ifndef TC_VALIDATE_CAMPAIGNS_REPORT_H
#define TC_VALIDATE_CAMPAIGNS_REPORT_H

#include <stdio.h>

#include "../io/camp_val_load.h"
#include "../model/families/campaign.h"

/* One run of the set as the model sees it. */
struct camp_val_result {
	struct campaign c;
	double error_frac;          /* predicted wall / observed - 1 */
};

/* The set's runs and their results res (set->count of them) written in
 * fmt (table, csv, json, md): JSON as validate's document, CSV one row a
 * run, the table and Markdown under a heading, with the mean and worst
 * absolute error after.  Returns 0, or -1 on a failed allocation or a
 * non-finite number (never printed). */
int rep_validate_campaigns(FILE *out, const char *fmt, const struct camp_val_set *set,
			   const struct camp_val_result *res);

/* The set's one-line summary under validate's table: its mean and worst
 * absolute error of the wall clock. */
void rep_validate_campaigns_line(FILE *out, const struct camp_val_set *set,
				 const struct camp_val_result *res);

#endif
