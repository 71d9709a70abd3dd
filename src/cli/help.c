/*
 * help.c - the help of a command, made from its row of the command table
 * and its option table (cli.h, opts.h): the usage line names every option
 * the table has, the option list describes each with its choices and
 * default, so help, man page (scripts/man-command) and completion
 * (CLI_LIST_OPTIONS) cannot disagree.
 */
#include <assert.h>
#include <string.h>

#include "help.h"

#include "cli_ctx.h"
#include "opt_table.h"

#define HELP_WIDTH 79 /* columns of a line */
#define HELP_INDENT 24 /* column of an option's description */

/* The options every command's parser knows (cli_parse reads --data
 * itself: data_value only marks the row as taking a value). */
static const char *data_value;
static const struct cli_opt common_opts[] = {
	{ .name = "data", .value = &data_value, .arg = "DIR",
	  .help = "look for models/ and pricing/ in DIR first (repeatable)" },
	{ .name = "help", .short_name = 'h', .help = "this help" },
	{ 0 },
};

const struct cli_opt *cli_common_opts(void)
{
	return common_opts;
}

/* Print `text` from column `col` (already reached) wrapped at HELP_WIDTH,
 * continuation lines at column `indent`; ends the line. */
static void wrap(FILE *f, const char *text, int col, int indent)
{
	const char *p = text;
	while (*p) {
		while (*p == ' ')
			p++;
		size_t len = strcspn(p, " ");
		if (!len)
			break;
		if (col > indent && col + 1 + (int)len > HELP_WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)len, p);
		col += (int)len;
		p += len;
	}
	fputc('\n', f);
}

/* "--name ARG", "--name[=ARG]" or "--name" of row o into buf. */
static void opt_words(char *buf, size_t len, const struct cli_opt *o)
{
	const char *arg = o->arg ? o->arg : "VALUE";
	if (o->value && o->flag)
		snprintf(buf, len, "--%s[=%s]", o->name, arg);
	else if (o->value)
		snprintf(buf, len, "--%s %s", o->name, arg);
	else
		snprintf(buf, len, "--%s", o->name);
}

/* The usage line: the command, its arguments, every described option. */
static void print_usage(FILE *f, const struct cli_cmd *c, const struct cli_opt *opts)
{
	char head[64], word[160];
	int col = snprintf(head, sizeof(head), "usage: traincost %s", c->name);
	int indent = col + 1;
	fputs(head, f);
	if (c->args) {
		fprintf(f, " %s", c->args);
		col += 1 + (int)strlen(c->args);
	}
	for (int i = 0; opts && opts[i].name; i++) {
		if (opts[i].hidden)
			continue;
		char w[128];
		opt_words(w, sizeof(w), &opts[i]);
		snprintf(word, sizeof(word), "[%s]", w);
		if (col + 1 + (int)strlen(word) > HELP_WIDTH) {
			fprintf(f, "\n%*s", indent - 1, "");
			col = indent - 1;
		}
		fprintf(f, " %s", word);
		col += 1 + (int)strlen(word);
	}
	fputc('\n', f);
	for (const char *p = c->forms; p && *p;) {
		size_t len = strcspn(p, "\n");
		fprintf(f, "       %.*s\n", (int)len, p);
		p += len + (p[len] == '\n');
	}
}

/* One option: its words, then its help with its choices and default. */
static void print_option(FILE *f, const struct cli_opt *o)
{
	char words[128], text[1024];
	size_t used;
	assert(o->help); /* every option the parser takes is described */
	opt_words(words, sizeof(words), o);
	int col = o->short_name ? fprintf(f, "  -%c, %s", o->short_name, words)
				: fprintf(f, "  %s", words);
	if (col >= HELP_INDENT - 1) {
		fputc('\n', f);
		col = 0;
	}
	fprintf(f, "%*s", HELP_INDENT - col, "");
	used = (size_t)snprintf(text, sizeof(text), "%s", o->help);
	const char *dflt = o->value && *o->value ? *o->value : NULL;
	for (int k = 0; o->choices && o->choices[k] && used < sizeof(text); k++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s",
					 !k ? " (" : o->choices[k + 1] ? ", " : " or ", o->choices[k]);
	if (dflt && used < sizeof(text))
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%sdefault %s",
					 o->choices ? "; " : " (", dflt);
	if ((dflt || o->choices) && used < sizeof(text))
		snprintf(text + used, sizeof(text) - used, ")");
	wrap(f, text, HELP_INDENT, HELP_INDENT);
}

/* Whether headings a and b (NULL: none) are the same.  By their text: the
 * same heading written in two files may be two strings, or one where the
 * linker merges them (not under ASan), so the addresses say nothing. */
static int same_group(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The options of opts under their headings, in the order each heading
 * first appears, then the options every command knows. */
static void print_options(FILE *f, const struct cli_opt *opts)
{
	const char *groups[CLI_MAX_OPTS + 1];
	int ngroups = 0;
	for (int i = 0; opts[i].name; i++) {
		int seen = 0;
		for (int g = 0; g < ngroups; g++)
			seen |= same_group(groups[g], opts[i].group);
		if (!seen && !opts[i].hidden)
			groups[ngroups++] = opts[i].group;
	}
	for (int g = 0; g < ngroups; g++) {
		wrap(f, groups[g] ? groups[g] : "Options:", 0, 0);
		for (int i = 0; opts[i].name; i++)
			if (same_group(opts[i].group, groups[g]) && !opts[i].hidden)
				print_option(f, &opts[i]);
	}
	fputs("Every command:\n", f);
	for (int i = 0; common_opts[i].name; i++)
		print_option(f, &common_opts[i]);
}

/* The general help: the commands and what every command shares. */
static void print_general(FILE *f, const struct cli_cmd *cmds, size_t n)
{
	fputs("usage: traincost <command> [options] [files]\n"
	      "\n"
	      "Estimate how long a training job takes and what it costs on each GPU.\n"
	      "\n"
	      "Commands:\n", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %-10s %s\n", cmds[i].name, cmds[i].summary);
	fputs("\n"
	      "Options:\n"
	      "  --help, -h   this help; `traincost help COMMAND` for one command\n"
	      "  --version    print the version\n"
	      "\n"
	      "Data: GPU specs and architectures are read from --data DIR, then\n"
	      "$TRAINCOST_PATH (colon-separated), then ./models, then beside the\n"
	      "binary (its folder, its parent, ../share/traincost), then the installed\n"
	      "share/traincost folder.\n"
	      "\n"
	      "Exit codes: 0 success, 1 invalid input, 2 usage error, 3 I/O error,\n"
	      "4 internal error, 5 the plan does not fit in GPU memory.\n", f);
}

void cli_print_help(struct cli_ctx *ctx, const char *cmd, const struct cli_opt *opts)
{
	const struct cli_cmd *cmds = ctx->commands, *c = NULL;
	struct cli_cmd bare = { .name = cmd };
	size_t n = cmds ? ctx->ncommands : 0;
	for (size_t i = 0; cmd && i < n; i++)
		if (!strcmp(cmds[i].name, cmd))
			c = &cmds[i];
	if (!c && cmd && !cmds)
		c = &bare; /* outside cli_main: the usage and options alone */
	if (!c) {
		print_general(ctx->out, cmds, n);
		return;
	}
	print_usage(ctx->out, c, opts);
	if (c->about)
		fprintf(ctx->out, "\n%s", c->about);
	if (opts) {
		fputc('\n', ctx->out);
		print_options(ctx->out, opts);
	}
}
