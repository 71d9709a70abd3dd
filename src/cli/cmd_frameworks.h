/*
 * cmd_frameworks.h - `traincost frameworks`: the software-stack profiles (cmd_frameworks.c).
 */
#ifndef TC_CMD_FRAMEWORKS_H
#define TC_CMD_FRAMEWORKS_H

#include "cli_ctx.h"

int cmd_frameworks(int argc, char **argv, struct cli_ctx *ctx);

#endif
