/*
 * cmd_completion.c - `traincost completion bash|zsh|fish`: shell completion
 * scripts made from the command table and each command's option table
 * (asked for with CLI_LIST_OPTIONS), so they cannot drift from the options
 * the commands accept.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_completion.h"
#include "cli_ctx.h"
#include "help.h"
#include "opts.h"

#define COMP_MAX_CMDS 32
#define COMP_MAX_OPTS 64
#define COMP_NAME_LEN 48
#define COMP_CHOICES_LEN 256

static const char *const shells[] = { "bash", "zsh", "fish", NULL };

enum opt_kind { OK_FLAG, OK_VALUE, OK_OPTIONAL };

struct comp_opt {
	char name[COMP_NAME_LEN];
	enum opt_kind kind;
	char choices[COMP_CHOICES_LEN]; /* space-separated, "" for any value */
	const char *lister;             /* the command listing its values, or NULL */
	int list;                       /* the value is a comma-separated list of them */
};

/* Options whose value is an id of the catalog, and the command that lists
 * the ids (first CSV column): the script asks it when completing, so GPUs
 * and profiles added under models/ complete too. */
static const struct {
	const char *option, *lister;
	int list; /* a comma-separated list of ids (--gpus a100-80gb-sxm,h100-sxm) */
} catalog_ids[] = {
	{ "gpu", "gpus", 0 },
	{ "gpus", "gpus", 1 },
	{ "framework", "frameworks", 0 },
};

/* The lister of `option`'s ids, or NULL; *list says whether it takes a
 * comma-separated list of them. */
static const char *lister_of(const char *option, int *list)
{
	for (size_t i = 0; i < sizeof(catalog_ids) / sizeof(catalog_ids[0]); i++)
		if (!strcmp(option, catalog_ids[i].option)) {
			*list = catalog_ids[i].list;
			return catalog_ids[i].lister;
		}
	*list = 0;
	return NULL;
}

/* Commands whose first word is a subcommand that takes an id:
 * `gpus show ID`. */
static const struct { const char *cmd, *sub, *lister; } sub_ids[] = {
	{ "gpus", "show", "gpus" },
};

/* The subcommand of command `name` that takes an id, or -1. */
static int sub_of(const char *name)
{
	for (size_t i = 0; i < sizeof(sub_ids) / sizeof(sub_ids[0]); i++)
		if (!strcmp(name, sub_ids[i].cmd))
			return (int)i;
	return -1;
}

/* The shell words that print the ids `lister` lists, run by `tc`. */
static void ids_command(FILE *f, const char *tc, const char *lister)
{
	fprintf(f, "%s %s --format csv 2>/dev/null | cut -d, -f1 | tail -n +2", tc, lister);
}

struct comp_cmd {
	const struct cli_cmd *cmd;       /* borrowed from the command table */
	struct comp_opt opt[COMP_MAX_OPTS];
	int nopt;
	const char *positional;          /* "files", "commands" or "shells" */
};

/* Ask command c for its option table; fill cc.  Returns 0 or -1. */
static int read_options(struct cli_ctx *ctx, const struct cli_cmd *c, struct comp_cmd *cc)
{
	char *text = NULL;
	size_t len = 0;
	struct cli_ctx sub = *ctx;
	sub.out = open_memstream(&text, &len);
	if (!sub.out)
		return -1;
	char *argv[] = { (char *)(uintptr_t)c->name, (char *)(uintptr_t)CLI_LIST_OPTIONS, NULL };
	c->run(2, argv, &sub);
	fclose(sub.out);
	cc->cmd = c;
	cc->nopt = 0;
	cc->positional = "files";
	for (char *line = text, *next; line && *line && cc->nopt < COMP_MAX_OPTS; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		struct comp_opt *o = &cc->opt[cc->nopt];
		char *f = strtok(line, "\t"), *kind = strtok(NULL, "\t");
		if (!f || !kind)
			continue;
		snprintf(o->name, sizeof(o->name), "%s", f);
		o->kind = !strcmp(kind, "flag") ? OK_FLAG : !strcmp(kind, "optional") ? OK_OPTIONAL : OK_VALUE;
		o->lister = o->kind == OK_VALUE ? lister_of(o->name, &o->list) : NULL;
		o->choices[0] = '\0';
		size_t used = 0;
		for (char *ch; (ch = strtok(NULL, "\t")) && used < sizeof(o->choices);)
			used += (size_t)snprintf(o->choices + used, sizeof(o->choices) - used, "%s%s",
						 used ? " " : "", ch);
		cc->nopt++;
	}
	free(text);
	return 0;
}

/* Every command's options, in the order of the command table. */
static int gather(struct cli_ctx *ctx, struct comp_cmd *cmds, size_t *n)
{
	size_t total = ctx->ncommands;
	const struct cli_cmd *table = ctx->commands;
	*n = 0;
	for (size_t i = 0; i < total && *n < COMP_MAX_CMDS; i++) {
		struct comp_cmd *cc = &cmds[(*n)++];
		if (!strcmp(table[i].name, "help") || !strcmp(table[i].name, "completion")) {
			/* Neither parses options: their argument is a word. */
			memset(cc, 0, sizeof(*cc));
			cc->cmd = &table[i];
			cc->positional = !strcmp(table[i].name, "help") ? "commands" : "shells";
			continue;
		}
		if (read_options(ctx, &table[i], cc))
			return -1;
	}
	return 0;
}

static void command_words(FILE *f, const struct comp_cmd *cmds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", cmds[i].cmd->name);
}

static void emit_bash(FILE *f, const struct comp_cmd *cmds, size_t n)
{
	fputs("# bash completion for traincost, made by `traincost completion bash`\n"
	      "_traincost() {\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tlocal cmd=${COMP_WORDS[1]} opts=\"\" words=\"\"\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"", f);
	command_words(f, cmds, n);
	fputs(" --help --version\" -- \"$cur\"))\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\tcase \"$cmd\" in\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct comp_cmd *c = &cmds[i];
		fprintf(f, "\t%s)\n\t\topts=\"", c->cmd->name);
		for (int k = 0; k < c->nopt; k++)
			fprintf(f, "%s--%s", k ? " " : "", c->opt[k].name);
		fputs("\"\n", f);
		for (int k = 0; k < c->nopt; k++) {
			const struct comp_opt *o = &c->opt[k];
			if (o->choices[0] && o->kind == OK_VALUE)
				fprintf(f, "\t\t[ \"$prev\" = --%s ] && words=\"%s\"\n", o->name,
					o->choices);
			if (o->lister && o->list) {
				/* Each id after the ones already typed, commas kept. */
				fprintf(f, "\t\t[ \"$prev\" = --%s ] && { pre=; case $cur in *,*) "
					"pre=${cur%%,*},;; esac; words=$(", o->name);
				ids_command(f, "\"${COMP_WORDS[0]}\"", o->lister);
				fputs(" | sed \"s|^|$pre|\"); }\n", f);
			} else if (o->lister) {
				fprintf(f, "\t\t[ \"$prev\" = --%s ] && words=$(", o->name);
				ids_command(f, "\"${COMP_WORDS[0]}\"", o->lister);
				fputs(")\n", f);
			}
		}
		/* a value that is not one of a list: a file name */
		fputs("\t\tcase \"$prev\" in", f);
		int any = 0;
		for (int k = 0; k < c->nopt; k++)
			if (c->opt[k].kind == OK_VALUE && !c->opt[k].choices[0] && !c->opt[k].lister)
				fprintf(f, "%s--%s", any++ ? "|" : " ", c->opt[k].name);
		if (!strcmp(c->positional, "files") && any)
			fputs(") COMPREPLY=($(compgen -f -- \"$cur\")); return ;; esac\n", f);
		else
			fputs(" --) ;; esac\n", f);
		if (!strcmp(c->positional, "commands")) {
			fputs("\t\twords=\"", f);
			command_words(f, cmds, n);
			fputs("\"\n", f);
		} else if (!strcmp(c->positional, "shells")) {
			fputs("\t\twords=\"bash zsh fish\"\n", f);
		} else if (sub_of(c->cmd->name) >= 0 && c->nopt) {
			int s = sub_of(c->cmd->name);
			fprintf(f, "\t\tif [ -z \"$words\" ] && [ \"${cur#-}\" = \"$cur\" ]; then\n"
				"\t\t\t[ \"$COMP_CWORD\" -eq 2 ] && words=%s\n"
				"\t\t\t[ \"$COMP_CWORD\" -eq 3 ] && [ \"${COMP_WORDS[2]}\" = %s ] && words=$(",
				sub_ids[s].sub, sub_ids[s].sub);
			ids_command(f, "\"${COMP_WORDS[0]}\"", sub_ids[s].lister);
			fputs(")\n\t\tfi\n", f);
		}
		fputs("\t\t;;\n", f);
	}
	fputs("\tesac\n"
	      "\tif [ -n \"$words\" ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
	      "\telif [ \"${cur#-}\" != \"$cur\" ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	      "\telse\n"
	      "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	      "\tfi\n"
	      "}\n"
	      "complete -o filenames -F _traincost traincost\n", f);
}

/* The summary in single quotes for zsh and fish: quotes and colons out. */
static void quoted_summary(FILE *f, const char *s, int zsh)
{
	for (; *s; s++) {
		if (*s == '\'')
			fputs(zsh ? "'\\''" : "\\'", f);
		else if (zsh && *s == ':')
			fputs("\\:", f);
		else
			fputc(*s, f);
	}
}

static void emit_zsh(FILE *f, const struct comp_cmd *cmds, size_t n)
{
	fputs("#compdef traincost\n"
	      "# zsh completion for traincost, made by `traincost completion zsh`\n"
	      "_traincost_ids() {\n"
	      "\tlocal -a ids\n"
	      "\tids=(${(f)\"$(", f);
	ids_command(f, "$tc", "$1");
	fputs(")\"})\n"
	      "\tcompadd -a ids\n"
	      "}\n"
	      "_traincost() {\n"
	      "\tlocal tc=$words[1]\n"
	      "\tlocal -a cmds\n"
	      "\tcmds=(\n", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "\t\t'%s:", cmds[i].cmd->name);
		quoted_summary(f, cmds[i].cmd->summary, 1);
		fputs("'\n", f);
	}
	fputs("\t)\n"
	      "\tif (( CURRENT == 2 )); then\n"
	      "\t\t_describe 'command' cmds\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\tlocal cmd=$words[2]\n"
	      "\tshift words\n" /* _arguments sees the command's own words */
	      "\t(( CURRENT-- ))\n"
	      "\tcase $cmd in\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct comp_cmd *c = &cmds[i];
		fprintf(f, "\t%s)\n", c->cmd->name);
		if (!strcmp(c->positional, "commands")) {
			fputs("\t\t_describe 'command' cmds ;;\n", f);
			continue;
		}
		if (!strcmp(c->positional, "shells")) {
			fputs("\t\t_values 'shell' bash zsh fish ;;\n", f);
			continue;
		}
		fputs("\t\t_arguments -s", f);
		for (int k = 0; k < c->nopt; k++) {
			const struct comp_opt *o = &c->opt[k];
			if (o->kind == OK_FLAG)
				fprintf(f, " '*--%s'", o->name);
			else if (o->kind == OK_OPTIONAL)
				fprintf(f, " '*--%s=-::value'", o->name);
			else if (o->choices[0])
				fprintf(f, " '*--%s:%s:(%s)'", o->name, o->name, o->choices);
			else if (o->lister && o->list)
				fprintf(f, " '*--%s:%s:_sequence _traincost_ids %s'", o->name, o->name,
					o->lister);
			else if (o->lister)
				fprintf(f, " '*--%s:%s:_traincost_ids %s'", o->name, o->name, o->lister);
			else
				fprintf(f, " '*--%s:%s:_files'", o->name, o->name);
		}
		int s = sub_of(c->cmd->name);
		if (s >= 0)
			fprintf(f, " '1:subcommand:(%s)' '2:id:_traincost_ids %s' ;;\n", sub_ids[s].sub,
				sub_ids[s].lister);
		else
			fputs(" '*:file:_files' ;;\n", f);
	}
	fputs("\tesac\n"
	      "}\n"
	      "_traincost \"$@\"\n", f);
}

static void emit_fish(FILE *f, const struct comp_cmd *cmds, size_t n)
{
	fputs("# fish completion for traincost, made by `traincost completion fish`\n"
	      "complete -c traincost -f\n", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "complete -c traincost -n __fish_use_subcommand -a %s -d '",
			cmds[i].cmd->name);
		quoted_summary(f, cmds[i].cmd->summary, 0);
		fputs("'\n", f);
	}
	for (size_t i = 0; i < n; i++) {
		const struct comp_cmd *c = &cmds[i];
		const char *name = c->cmd->name;
		if (!strcmp(c->positional, "commands")) {
			fprintf(f, "complete -c traincost -n '__fish_seen_subcommand_from %s' -a '", name);
			command_words(f, cmds, n);
			fputs("'\n", f);
			continue;
		}
		if (!strcmp(c->positional, "shells")) {
			fprintf(f, "complete -c traincost -n '__fish_seen_subcommand_from %s' -a 'bash zsh fish'\n",
				name);
			continue;
		}
		fprintf(f, "complete -c traincost -n '__fish_seen_subcommand_from %s' -F\n", name);
		for (int k = 0; k < c->nopt; k++) {
			const struct comp_opt *o = &c->opt[k];
			fprintf(f, "complete -c traincost -n '__fish_seen_subcommand_from %s' -l %s", name,
				o->name);
			if (o->kind == OK_VALUE && o->choices[0]) {
				fprintf(f, " -x -a '%s'", o->choices);
			} else if (o->lister) {
				fputs(" -x -a '(", f);
				ids_command(f, "traincost", o->lister);
				fputs(")'", f);
			} else if (o->kind == OK_VALUE)
				fputs(" -r -F", f);
			fputc('\n', f);
		}
	}
}

int cmd_completion(int argc, char **argv, struct cli_ctx *ctx)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		cli_print_help(ctx, "completion", NULL);
		return TC_EXIT_OK;
	}
	if (argc != 2 || (strcmp(argv[1], shells[0]) && strcmp(argv[1], shells[1]) &&
			  strcmp(argv[1], shells[2])))
		return cli_usage_error(ctx, "completion", "%s (expected one of: bash, zsh, fish)",
				       argc < 2 ? "no shell given" : argc > 2 ? "too many arguments"
								       : "unknown shell");
	struct comp_cmd *cmds = calloc(COMP_MAX_CMDS, sizeof(*cmds));
	size_t n;
	if (!cmds || gather(ctx, cmds, &n)) {
		free(cmds);
		fputs("traincost completion: out of memory\n", ctx->err);
		return TC_EXIT_INTERNAL;
	}
	if (!strcmp(argv[1], "bash"))
		emit_bash(ctx->out, cmds, n);
	else if (!strcmp(argv[1], "zsh"))
		emit_zsh(ctx->out, cmds, n);
	else
		emit_fish(ctx->out, cmds, n);
	free(cmds);
	return TC_EXIT_OK;
}
