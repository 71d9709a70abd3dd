/*
 * cmd_report.h - `traincost report`: one HTML page (cmd_report.c).
 */
#ifndef TC_CMD_REPORT_H
#define TC_CMD_REPORT_H

#include "cli_ctx.h"

int cmd_report(int argc, char **argv, struct cli_ctx *ctx);

#endif
