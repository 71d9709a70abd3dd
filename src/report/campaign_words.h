/*
 * campaign_words.h - how the table and Markdown word the campaign's fields
 * of an estimate's record (estimate_record.c): the expected wall clock,
 * the checkpoints and the wall clock's cost.  Each is a rep_word_fn
 * (rows.h) over the fields of the group "campaign".
 */
#ifndef TC_CAMPAIGN_WORDS_H
#define TC_CAMPAIGN_WORDS_H

#include "estimate_words.h"

/* "96.6 d expected, goodput 86.3 %"; the table adds the interruptions, how
 * often and what each loses; "never" when spot preemptions leave no time. */
int rep_est_wall(REP_WORD_ARGS);
/* How often to checkpoint (Young's interval, or the one given beside it),
 * how big a checkpoint is and how long training stops for it; nothing
 * without a campaign. */
int rep_est_checkpoints(REP_WORD_ARGS);
/* The wall clock's cost on the cheapest offer; the table adds for how
 * long and the spare nodes' share; nothing without a price. */
int rep_est_wall_cost(REP_WORD_ARGS);

#endif
