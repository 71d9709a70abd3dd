/*
 * today.h - the date a run takes as today.
 *
 * Price ages and future dates are judged against it.  It is read once per
 * run, in cli_main, and passed down (struct cli_ctx), so that nothing below
 * the command line asks the clock.  Two environment variables pin it, for
 * tests and for reproducible output:
 *   TRAINCOST_TODAY=YYYY-MM-DD   that date;
 *   SOURCE_DATE_EPOCH=SECONDS    the UTC date of that time, as
 *                                reproducible-builds.org defines it.
 * TRAINCOST_TODAY wins when both are set; an empty value counts as unset.
 */
#ifndef TC_CLI_TODAY_H
#define TC_CLI_TODAY_H

#include <stddef.h>

#include "../util/diag.h"

#define TODAY_ENV "TRAINCOST_TODAY"
#define TODAY_EPOCH_ENV "SOURCE_DATE_EPOCH"

/*
 * Write today's date, YYYY-MM-DD, into buf (size >= 11): from the
 * environment when pinned, else the clock's UTC date.  Returns 0, or -1 with
 * the problem in d (TC_EXIT_USAGE for a bad variable, TC_EXIT_INTERNAL for
 * a clock that cannot be read).
 */
int cli_today(char *buf, size_t size, struct tc_diag *d);

#endif
