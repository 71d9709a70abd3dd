/*
 * campaign_words.c - the campaign's fields of an estimate's record as
 * people read them (campaign_words.h; the model in model/families/campaign.h).
 */
#include "campaign_words.h"

#include <stdio.h>
#include <string.h>

#include "../util/units.h"
#include "numfmt.h"

#define CELL rep_rows_field(r, i, r->cols[c].group, r->cols[c].name)
#define TABLE (!strcmp(fmt, "table"))
#define CAMP(name) rep_rows_field(r, i, "campaign", name)

/* "s" after a count other than one. */
static const char *plural(double n)
{
	return n == 1 ? "" : "s";
}

int rep_est_wall(REP_WORD_ARGS)
{
	char wall[48], mtbi[48], lost[48], n[48];
	if (CELL->missing) {
		snprintf(value, REP_WORD_LEN, "never: the spot preemptions leave no time to train");
		return 0;
	}
	tc_fmt_duration(CELL->num, wall, sizeof(wall));
	double count = CAMP("interruptions")->num;
	snprintf(value, REP_WORD_LEN, "%s expected, goodput %.1f %%", wall,
		 100 * CAMP("goodput_frac")->num);
	if (!TABLE)
		return 0;
	size_t used = strlen(value);
	if (CAMP("mtbi_s")->missing)
		snprintf(value + used, REP_WORD_LEN - used, " (nothing interrupts the job)");
	else
		snprintf(value + used, REP_WORD_LEN - used,
			 "\n%s interruption%s, one every %s, each losing %s", rep_fmt_count(count, n,
			 sizeof(n)), plural(count), tc_fmt_duration(CAMP("mtbi_s")->num, mtbi,
			 sizeof(mtbi)), tc_fmt_duration(CAMP("lost_per_interruption_s")->num, lost,
			 sizeof(lost)));
	return 0;
}

int rep_est_checkpoints(REP_WORD_ARGS)
{
	char every[48], rec[48], size[48], block[48];
	if (CELL->missing)
		return 1;
	const char *kind = CAMP("checkpoint")->text;
	tc_fmt_bytes(CAMP("checkpoint_bytes")->num, size, sizeof(size));
	tc_fmt_duration(CAMP("checkpoint_block_s")->num, block, sizeof(block));
	if (CAMP("recommended_interval_s")->missing) {
		snprintf(value, REP_WORD_LEN, "none needed: nothing interrupts the job");
		return 0;
	}
	tc_fmt_duration(CELL->num, rec, sizeof(rec));
	tc_fmt_duration(CAMP("interval_s")->num, every, sizeof(every));
	if (CAMP("interval_given")->num)
		snprintf(value, REP_WORD_LEN, "every %s as given (recommended: every %s); %s %s, "
			 "training stops %s each", every, rec, size, kind, block);
	else
		snprintf(value, REP_WORD_LEN, "every %s (recommended); %s %s, "
			 "training stops %s each", rec, size, kind, block);
	return 0;
}

int rep_est_wall_cost(REP_WORD_ARGS)
{
	char usd[48], spare[48], dur[48];
	if (CELL->missing)
		return 1;
	rep_fmt_usd(CELL->num, usd, sizeof(usd));
	if (!TABLE) {
		snprintf(value, REP_WORD_LEN, "%s", usd);
		return 0;
	}
	snprintf(value, REP_WORD_LEN, "%s expected on the same offer for %s, %s of it for "
		 "%.0f %% spare nodes", usd,
		 tc_fmt_duration(rep_rows_field(r, i, "cost", "wall_run_s")->num, dur,
				 sizeof(dur)),
		 rep_fmt_usd(rep_rows_field(r, i, "cost", "spare_cost_usd")->num, spare,
			     sizeof(spare)),
		 100 * CAMP("spare_frac")->num);
	if (CAMP("spot_preemptions_per_h")->num > 0) {
		size_t used = strlen(value);
		snprintf(value + used, REP_WORD_LEN - used, "\nthe spot preemptions counted as "
			 "interruptions, checkpoints at the interval above (the spot line)");
	}
	return 0;
}
