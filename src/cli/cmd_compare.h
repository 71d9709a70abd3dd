/*
 * cmd_compare.h - `traincost compare`: one run on each GPU type (cmd_compare.c).
 */
#ifndef TC_CMD_COMPARE_H
#define TC_CMD_COMPARE_H

#include "cli_ctx.h"

int cmd_compare(int argc, char **argv, struct cli_ctx *ctx);

#endif
