/*
 * cmd_sweep.h - `traincost sweep`: every configuration of a sweep file (cmd_sweep.c).
 */
#ifndef TC_CMD_SWEEP_H
#define TC_CMD_SWEEP_H

#include "cli_ctx.h"

int cmd_sweep(int argc, char **argv, struct cli_ctx *ctx);

#endif
