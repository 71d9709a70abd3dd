/*
 * opts.h - the option parser every subcommand uses.
 *
 * Accepts "--name value", "--name=value", flags without values, positional
 * arguments and "--" (the rest is positional).  "--data DIR" (repeatable) is
 * known to every command and sets the catalog search path; "-h"/"--help"
 * prints the command's help.  An unknown option names the valid ones.
 */
#ifndef TC_CLI_OPTS_H
#define TC_CLI_OPTS_H

#include "cli_ctx.h"
#include "opt_table.h"

/* Append rows[0..n-1] to *t; more than CLI_MAX_OPTS in all is a program
 * error (asserted). */
void cli_opts_add(struct cli_opts *t, const struct cli_opt *rows, size_t n);

/* cli_opts_add of a whole array. */
#define CLI_OPTS_ADD(t, rows) cli_opts_add((t), (rows), sizeof(rows) / sizeof((rows)[0]))

/* cli_opts_add with every row under the help heading `group` ("Cost and
 * energy:"). */
void cli_opts_add_group(struct cli_opts *t, const char *group, const struct cli_opt *rows,
			size_t n);
#define CLI_OPTS_ADD_GROUP(t, group, rows) \
	cli_opts_add_group((t), (group), (rows), sizeof(rows) / sizeof((rows)[0]))

/* Word a shared option for this command: the row `name` of *t gets `help`
 * (a program error, asserted, when there is no such row). */
void cli_opts_help(struct cli_opts *t, const char *name, const char *help);
#define CLI_HELP_SHOWN (-1) /* help was printed: exit 0 */

/* The one argument that makes a command print its option table instead
 * of running (for `traincost completion`; not in any help). */
#define CLI_LIST_OPTIONS "--list-options"

/*
 * Parse argv[1..argc-1] (argv[0] is the command name).  Positional arguments
 * are stored in pos[] (at most CLI_MAX_POS), their number in *npos.
 * Returns 0, CLI_HELP_SHOWN, or TC_EXIT_USAGE after printing the problem.
 */
int cli_parse(struct cli_ctx *ctx, const char *cmd, int argc, char **argv,
	      const struct cli_opt *opts, char **pos, int *npos);

/* Parse a positive integer option value; TC_EXIT_USAGE (printed) on error. */
int cli_int_arg(struct cli_ctx *ctx, const char *cmd, const char *opt,
		const char *val, long min, long max, int *out);

#endif
