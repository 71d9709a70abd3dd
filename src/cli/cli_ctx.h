/*
 * cli_ctx.h - what every subcommand receives (struct cli_ctx) and the two
 * ways it reports: diagnostics and usage errors (cli_ctx.c).
 *
 * Each subcommand lives in src/cli/cmd_<name>.c, parses its own options,
 * calls the model, calls a report, and returns an enum tc_exit.  Only this
 * layer prints diagnostics or chooses exit codes.
 */
#ifndef TC_CLI_CTX_H
#define TC_CLI_CTX_H

#include <stddef.h>
#include <stdio.h>

#include "../io/datapath.h"
#include "../model/money/cost.h"
#include "../util/diag.h"

/* The largest GPU count plan and compare try unless --max-gpus says. */
#define CLI_DEFAULT_MAX_GPUS 4096

/* A macro's value as a string literal, for help texts that state a
 * default: the text then follows the constant. */
#define CLI_STR_(x) #x
#define CLI_STR(x) CLI_STR_(x)

struct cli_cmd;

struct cli_ctx {
	FILE *out;              /* results */
	FILE *err;              /* diagnostics */
	struct tc_datapath data;/* catalog search path (global --data) */
	char today[PRICE_DATE_LEN]; /* YYYY-MM-DD, read once per run (today.h) */
	/* The command table (cli.c), handed down so that help and completion
	 * read and run the commands without depending on the dispatcher;
	 * NULL outside cli_main (a test calling a command). */
	const struct cli_cmd *commands;
	size_t ncommands;
	/* The whole command line in-process (cli_main), for a command that
	 * runs others as a user would (report); NULL outside cli_main. */
	int (*main)(int argc, char **argv, FILE *out, FILE *err);
};

/*
 * A row of the command table.  The help of a command is made from it and
 * the command's option table (help.c): the usage line (the arguments, then
 * every option), the other forms, the description, then the options.
 */
struct cli_cmd {
	const char *name;
	int (*run)(int argc, char **argv, struct cli_ctx *ctx); /* enum tc_exit */
	const char *summary;    /* one line for `traincost --help` */
	const char *args;       /* the positional arguments of the usage line, or NULL */
	const char *forms;      /* other whole usage lines ("traincost gpus show ID\n"), or NULL */
	const char *about;      /* the description, paragraphs ending in "\n" */
};

/* Print every message of *d on ctx->err, one per line; return d->severity
 * (or TC_EXIT_INPUT if none was set). */
int cli_report(struct cli_ctx *ctx, const struct tc_diag *d);

/* Usage error: "traincost CMD: message" on err; returns TC_EXIT_USAGE. */
int cli_usage_error(struct cli_ctx *ctx, const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
