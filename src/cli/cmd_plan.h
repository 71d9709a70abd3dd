/*
 * cmd_plan.h - `traincost plan`: the cheapest or fastest plan (cmd_plan.c).
 */
#ifndef TC_CMD_PLAN_H
#define TC_CMD_PLAN_H

#include "cli_ctx.h"

int cmd_plan(int argc, char **argv, struct cli_ctx *ctx);

#endif
