/*
 * opt_table.h - what a command's option table is made of: its rows and
 * the table the parser (opts.h) and the help printer (help.h) both read.
 * Types only, so that the help printer needs nothing of the parser.
 */
#ifndef TC_CLI_OPT_TABLE_H
#define TC_CLI_OPT_TABLE_H

#include <stddef.h>

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

#endif
