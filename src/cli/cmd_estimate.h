/*
 * cmd_estimate.h - `traincost estimate` and `traincost explain`: one training run (cmd_estimate.c).
 */
#ifndef TC_CMD_ESTIMATE_H
#define TC_CMD_ESTIMATE_H

#include "cli_ctx.h"

int cmd_estimate(int argc, char **argv, struct cli_ctx *ctx);
int cmd_explain(int argc, char **argv, struct cli_ctx *ctx);

#endif
