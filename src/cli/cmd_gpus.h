/*
 * cmd_gpus.h - `traincost gpus`: the GPU catalog (cmd_gpus.c).
 */
#ifndef TC_CMD_GPUS_H
#define TC_CMD_GPUS_H

#include "cli_ctx.h"

int cmd_gpus(int argc, char **argv, struct cli_ctx *ctx);

#endif
