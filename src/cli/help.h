/*
 * help.h - the help of a command (help.c), made from its row of the
 * command table and its option table.
 */
#ifndef TC_HELP_H
#define TC_HELP_H

#include "cli_ctx.h"
#include "opt_table.h"

/*
 * Print on ctx->out the help of command `cmd`, made from its row of the
 * command table and its option table `opts` (NULL for a command without
 * options: usage and description only), or the general help for a NULL
 * cmd (help.c).
 */
void cli_print_help(struct cli_ctx *ctx, const char *cmd, const struct cli_opt *opts);

/* The options every command's parser knows (--data, --help), as rows. */
const struct cli_opt *cli_common_opts(void);

#endif
