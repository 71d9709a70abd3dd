/*
 * cli.h - the command table and what every subcommand receives.
 *
 * Each subcommand lives in src/cli/cmd_<name>.c, parses its own options,
 * calls the model, calls a report, and returns an enum tc_exit.  Only this
 * layer prints diagnostics or chooses exit codes.
 */
#ifndef TC_CLI_H
#define TC_CLI_H

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

struct cli_ctx {
	FILE *out;              /* results */
	FILE *err;              /* diagnostics */
	struct tc_datapath data;/* catalog search path (global --data) */
	char today[PRICE_DATE_LEN]; /* YYYY-MM-DD, read once per run (today.h) */
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

/* Entry point: dispatches argv[1] through the command table. */
int cli_main(int argc, char **argv, FILE *out, FILE *err);

/* Print every message of *d on ctx->err, one per line; return d->severity
 * (or TC_EXIT_INPUT if none was set). */
int cli_report(struct cli_ctx *ctx, const struct tc_diag *d);

/* Usage error: "traincost CMD: message" on err; returns TC_EXIT_USAGE. */
int cli_usage_error(struct cli_ctx *ctx, const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Print on ctx->out the help of command `cmd`, made from its row of the
 * command table and its option table `opts` (NULL for a command without
 * options: usage and description only), or the general help for a NULL
 * cmd (help.c).
 */
struct cli_opt;
void cli_print_help(struct cli_ctx *ctx, const char *cmd, const struct cli_opt *opts);

/* The commands, one file each (src/cli/cmd_<name>.c). */
int cmd_frameworks(int argc, char **argv, struct cli_ctx *ctx);
int cmd_gpus(int argc, char **argv, struct cli_ctx *ctx);
int cmd_check(int argc, char **argv, struct cli_ctx *ctx);
int cmd_estimate(int argc, char **argv, struct cli_ctx *ctx);
int cmd_explain(int argc, char **argv, struct cli_ctx *ctx);
int cmd_validate(int argc, char **argv, struct cli_ctx *ctx);
int cmd_prices(int argc, char **argv, struct cli_ctx *ctx);
int cmd_compare(int argc, char **argv, struct cli_ctx *ctx);
int cmd_sweep(int argc, char **argv, struct cli_ctx *ctx);
int cmd_plan(int argc, char **argv, struct cli_ctx *ctx);
int cmd_calibrate(int argc, char **argv, struct cli_ctx *ctx);
int cmd_import(int argc, char **argv, struct cli_ctx *ctx);
int cmd_report(int argc, char **argv, struct cli_ctx *ctx);
int cmd_completion(int argc, char **argv, struct cli_ctx *ctx);

/* The command table: *n entries (cli.c). */
const struct cli_cmd *cli_commands(size_t *n);

struct gpu;
/* The folder of the measured cases of `traincost validate`: tests/validation
 * or validation in a data root (cmd_validate.c).  Returns 0, or -1 if none. */
int cli_validation_dir(const struct cli_ctx *ctx, char *out, size_t outlen);
struct val_set;
struct tc_diag;
/* Give each case the layer of the framework it names.  Returns 0 or -1. */
int cli_resolve_frameworks(struct cli_ctx *ctx, struct val_set *set, struct tc_diag *d);
/* A val_gpu_fn over a struct gpu_catalog (ctx): 0, or -1 if unknown. */
int cli_catalog_gpu(const char *id, struct gpu *out, void *ctx);
struct val_result;
struct val_case;
/* Copy into kept[] (room for n) the results `validate` counts in its
 * errors: all but those of sanity-only cases, which it shows but never
 * counts.  Returns how many (cmd_validate.c). */
size_t cli_validate_counted(const struct val_set *set, const struct val_result *res, size_t n,
			    struct val_result *kept);
/* The key of `validate`'s per-GPU table: the case's GPU id. */
const char *cli_case_gpu(const struct val_case *c);

#endif
