/*
 * cmd_check.h - `traincost check`: every error of traincost YAML files (cmd_check.c).
 */
#ifndef TC_CMD_CHECK_H
#define TC_CMD_CHECK_H

#include "cli_ctx.h"

int cmd_check(int argc, char **argv, struct cli_ctx *ctx);

#endif
