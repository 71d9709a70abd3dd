/*
 * cli_ctx.c - diagnostics and usage errors on a command's stderr
 * (cli_ctx.h).
 */
#include "cli_ctx.h"

#include <stdarg.h>

int cli_report(struct cli_ctx *ctx, const struct tc_diag *d)
{
	for (int i = 0; i < d->count; i++)
		fprintf(ctx->err, "%s\n", d->entry[i].msg);
	if (d->dropped)
		fprintf(ctx->err, "traincost: %d more error%s not shown\n", d->dropped,
			d->dropped == 1 ? "" : "s");
	return d->severity != TC_EXIT_OK ? (int)d->severity : TC_EXIT_INPUT;
}

int cli_usage_error(struct cli_ctx *ctx, const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(ctx->err, "traincost %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(ctx->err, fmt, ap);
	va_end(ap);
	fputc('\n', ctx->err);
	return TC_EXIT_USAGE;
}
