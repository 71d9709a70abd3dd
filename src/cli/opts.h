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

#include "cli.h"

/*
 * One row of a command's option table: how it parses and how it is
 * described.  The usage line, --help (and from it the man page,
 * scripts/man-command) and the shell completions (`traincost completion`,
 * through CLI_LIST_OPTIONS) are all made from these rows.
 */
struct cli_opt {
	const char *name;           /* without the leading "--" */
	const char **value;         /* set for options that take a value; what it
				       points to on entry is the default shown */
	int *flag;                  /* set to 1 for flags; with `value` too, the
				       value is optional and given as --name=V */
	const char *const *choices; /* NULL-terminated valid values, or NULL;
				       listed after the help */
	const char *arg;            /* the value's name in help (N, FILE), or NULL */
	const char *help;           /* one sentence, wrapped by the help printer */
	const char *group;          /* the help's heading of the row (set by
				       cli_opts_add_group); NULL: "Options:" */
	char short_name;            /* -X the same as --name, or 0 */
	int hidden;                 /* a switch for the tests: in no help or
				       completion */
};

/* Rows of the kinds there are: a value, one of a list of choices, a
 * flag, a flag with an optional =value; and the hidden switch. */
#define CLI_VALUE(n, v, a, h) { .name = (n), .value = (v), .arg = (a), .help = (h) }
#define CLI_CHOICE(n, v, c, a, h) \
	{ .name = (n), .value = (v), .choices = (c), .arg = (a), .help = (h) }
#define CLI_FLAG(n, f, h) { .name = (n), .flag = (f), .help = (h) }
#define CLI_OPTIONAL(n, v, f, a, h) { .name = (n), .value = (v), .flag = (f), .arg = (a), .help = (h) }
#define CLI_HIDDEN_FLAG(n, f) { .name = (n), .flag = (f), .hidden = 1 }

/* The options every command's parser knows (--data, --help), as rows. */
const struct cli_opt *cli_common_opts(void);

#define CLI_MAX_POS 64
#define CLI_MAX_OPTS 64 /* rows of one command's option table */

/*
 * A command's option table built from groups declared once (the pricing
 * options, the uncertainty options, ...): the rows in the order added, then
 * a zeroed terminator, as cli_parse takes them.  Start from { 0 }.
 */
struct cli_opts {
	struct cli_opt row[CLI_MAX_OPTS + 1];
	int n;
};

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
