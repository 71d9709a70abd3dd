/*
 * plot_out.c - writing --plot files (see plot_out.h).
 */
#include "plot_out.h"

#include <string.h>

#include "../util/outfile.h"

int plot_out_check(struct cli_ctx *ctx, const char *cmd, const char *path)
{
	if (path && (!path[0] || !strcmp(path, "-")))
		return cli_usage_error(ctx, cmd, "--plot '%s' is not valid (expected a file name such as chart.svg)",
				       path);
	return 0;
}

int plot_out_write(struct cli_ctx *ctx, const char *cmd, struct svg *s, const char *path)
{
	struct outfile of;
	struct tc_diag d;
	int rc = 0;
	tc_diag_init(&d);
	if (svg_end(s)) {
		fprintf(ctx->err, "traincost %s: internal error: %s in the chart\n", cmd,
			s->nonfinite ? "a non-finite value" : "out of memory");
		rc = TC_EXIT_INTERNAL;
	} else if (outfile_open(&of, path, NULL, &d)) {
		rc = cli_report(ctx, &d);
	} else {
		/* A failed write is remembered and reported by the commit. */
		(void)outfile_write(&of, s->x.buf, s->x.len);
		if (outfile_commit(&of, &d))
			rc = cli_report(ctx, &d);
	}
	svg_release(s);
	return rc;
}
