/*
 * opts.c - subcommand option parsing (see opts.h).
 */
#include "opts.h"

#include "help.h"

#include <assert.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>


/* "--a, --b, --c" for the unknown-option message. */
static void list_options(char *buf, size_t len, const struct cli_opt *opts)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; opts && opts[i].name; i++) {
		if (opts[i].hidden)
			continue;
		int n = snprintf(buf + used, len - used, "%s--%s", used ? ", " : "",
				 opts[i].name);
		if (n < 0 || (size_t)n >= len - used)
			return;
		used += (size_t)n;
	}
	snprintf(buf + used, len - used, "%s--data, --help", used ? ", " : "");
}

static const struct cli_opt *find_opt(const struct cli_opt *opts, const char *name,
				      size_t len)
{
	for (int i = 0; opts && opts[i].name; i++)
		if (strlen(opts[i].name) == len && !strncmp(opts[i].name, name, len))
			return &opts[i];
	return NULL;
}

static const struct cli_opt *find_short(const struct cli_opt *opts, char c)
{
	for (int i = 0; opts && opts[i].name; i++)
		if (opts[i].short_name == c)
			return &opts[i];
	return NULL;
}

static int check_choice(struct cli_ctx *ctx, const char *cmd,
			const struct cli_opt *o, const char *val)
{
	if (!o->choices)
		return 0;
	char list[256] = "";
	size_t used = 0;
	for (int i = 0; o->choices[i]; i++) {
		if (!strcmp(o->choices[i], val))
			return 0;
		int n = snprintf(list + used, sizeof(list) - used, "%s%s",
				 i ? ", " : "", o->choices[i]);
		if (n > 0 && (size_t)n < sizeof(list) - used)
			used += (size_t)n;
	}
	return cli_usage_error(ctx, cmd, "--%s '%s' is not valid (expected one of: %s)",
			       o->name, val, list);
}

/* The option table on ctx->out, one option a line: its name, "flag",
 * "value" or "optional", then its choices, tab-separated; the options
 * every command knows last.  Hidden switches are left out. */
static void list_table(struct cli_ctx *ctx, const struct cli_opt *opts)
{
	for (int pass = 0; pass < 2; pass++) {
		const struct cli_opt *t = pass ? cli_common_opts() : opts;
		for (int i = 0; t && t[i].name; i++) {
			const struct cli_opt *o = &t[i];
			if (o->hidden)
				continue;
			fprintf(ctx->out, "%s\t%s", o->name,
				o->value && o->flag ? "optional" : o->value ? "value" : "flag");
			for (int k = 0; o->choices && o->choices[k]; k++)
				fprintf(ctx->out, "\t%s", o->choices[k]);
			fputc('\n', ctx->out);
		}
	}
}

void cli_opts_add(struct cli_opts *t, const struct cli_opt *rows, size_t n)
{
	assert(t && (size_t)t->n + n <= CLI_MAX_OPTS);
	memcpy(t->row + t->n, rows, n * sizeof(*rows));
	t->n += (int)n;
	memset(&t->row[t->n], 0, sizeof(t->row[t->n]));
}

void cli_opts_add_group(struct cli_opts *t, const char *group, const struct cli_opt *rows,
			size_t n)
{
	int first = t->n;
	cli_opts_add(t, rows, n);
	for (int i = first; i < t->n; i++)
		t->row[i].group = group;
}

void cli_opts_help(struct cli_opts *t, const char *name, const char *help)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->row[i].name, name)) {
			t->row[i].help = help;
			return;
		}
	assert(!"cli_opts_help: no such option");
}

int cli_parse(struct cli_ctx *ctx, const char *cmd, int argc, char **argv,
	      const struct cli_opt *opts, char **pos, int *npos)
{
	const char *data_dirs[DP_MAX_DIRS];
	int ndata = 0;
	int only_pos = 0;
	*npos = 0;

	if (argc == 2 && !strcmp(argv[1], CLI_LIST_OPTIONS)) {
		list_table(ctx, opts);
		return CLI_HELP_SHOWN;
	}

	/* Help wins over every other argument, and shows the defaults. */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			cli_print_help(ctx, cmd, opts);
			return CLI_HELP_SHOWN;
		}

	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		if (only_pos || a[0] != '-' || !strcmp(a, "-")) {
			if (*npos == CLI_MAX_POS)
				return cli_usage_error(ctx, cmd, "too many arguments (expected at most %d)",
						       CLI_MAX_POS);
			pos[(*npos)++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_pos = 1;
			continue;
		}
		const struct cli_opt *short_opt = a[1] != '-' && !a[2] ? find_short(opts, a[1]) : NULL;
		if (a[1] != '-' && !short_opt) {
			char list[512];
			list_options(list, sizeof(list), opts);
			return cli_usage_error(ctx, cmd, "unknown option '%s' (expected one of: %s)",
					       a, list);
		}
		/* -X is --name of the row whose short name X is. */
		const char *name = short_opt ? short_opt->name : a + 2;
		const char *eq = short_opt ? NULL : strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		const char *val = eq ? eq + 1 : NULL;

		if (len == 4 && !strncmp(name, "data", 4)) {
			if (!val && i + 1 < argc)
				val = argv[++i];
			if (!val || !*val)
				return cli_usage_error(ctx, cmd, "--data needs a folder");
			if (ndata == DP_MAX_DIRS)
				return cli_usage_error(ctx, cmd, "too many --data folders (expected at most %d)",
						       DP_MAX_DIRS);
			data_dirs[ndata++] = val;
			continue;
		}
		const struct cli_opt *o = find_opt(opts, name, len);
		if (!o) {
			char list[512];
			list_options(list, sizeof(list), opts);
			return cli_usage_error(ctx, cmd, "unknown option '--%.*s' (expected one of: %s)",
					       (int)len, name, list);
		}
		if (o->value && o->flag) {
			/* An optional value, given only as --name=value. */
			*o->flag = 1;
			if (val)
				*o->value = val;
		} else if (o->value) {
			if (!val && i + 1 < argc)
				val = argv[++i];
			if (!val)
				return cli_usage_error(ctx, cmd, "--%s needs a value", o->name);
			if (check_choice(ctx, cmd, o, val))
				return TC_EXIT_USAGE;
			*o->value = val;
		} else {
			if (val)
				return cli_usage_error(ctx, cmd, "--%s takes no value", o->name);
			*o->flag = 1;
		}
	}
	if (ndata) {
		struct tc_diag d;
		tc_diag_init(&d);
		if (dp_init(&ctx->data, data_dirs, ndata, &d)) {
			cli_report(ctx, &d);
			return TC_EXIT_USAGE;
		}
	}
	/* Every command with options reads the catalogs: a binary moved away
	 * from its data says where it looked, before any message about a GPU
	 * or preset it could not have found. */
	if (!dp_has_data(&ctx->data)) {
		char searched[2048];
		dp_searched(&ctx->data, searched, sizeof(searched));
		fprintf(ctx->err, "traincost %s: no data folder found (searched: %s; expected "
			"models/ and pricing/ in one of them: give --data DIR or $TRAINCOST_PATH, "
			"or install with `make install`)\n", cmd, searched);
		return TC_EXIT_IO;
	}
	return 0;
}

int cli_int_arg(struct cli_ctx *ctx, const char *cmd, const char *opt,
		const char *val, long min, long max, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(val, &end, 10);
	if (errno || end == val || *end || v < min || v > max)
		return cli_usage_error(ctx, cmd, "--%s '%s' is not valid (expected a whole number from %ld to %ld)",
				       opt, val, min, max);
	*out = (int)v;
	return 0;
}
