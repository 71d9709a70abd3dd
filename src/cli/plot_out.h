/*
 * plot_out.h - the --plot FILE option of the commands that draw a chart:
 * finishing the SVG document and writing it atomically (outfile.h), so a
 * failed run leaves no partial file behind.
 */
#ifndef TC_CLI_PLOT_OUT_H
#define TC_CLI_PLOT_OUT_H

#include "../report/svg.h"
#include "cli_ctx.h"

/* Check the --plot value before any work: a file name, not "-" or "".
 * Returns 0 or TC_EXIT_USAGE (printed).  NULL (no --plot) is fine. */
int plot_out_check(struct cli_ctx *ctx, const char *cmd, const char *path);

/*
 * End the document s (svg_end) and write it to path; s is released
 * either way.  Returns 0, TC_EXIT_INTERNAL (a non-finite value or out of
 * memory) or TC_EXIT_IO, each printed on ctx->err.
 */
int plot_out_write(struct cli_ctx *ctx, const char *cmd, struct svg *s, const char *path);

#endif
