/*
 * cmd_completion.h - `traincost completion`: a shell completion script (cmd_completion.c).
 */
#ifndef TC_CMD_COMPLETION_H
#define TC_CMD_COMPLETION_H

#include "cli_ctx.h"

int cmd_completion(int argc, char **argv, struct cli_ctx *ctx);

#endif
