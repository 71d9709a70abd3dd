/*
 * cmd_calibrate.h - `traincost calibrate`: efficiency parameters from measured steps (cmd_calibrate.c).
 */
#ifndef TC_CMD_CALIBRATE_H
#define TC_CMD_CALIBRATE_H

#include "cli_ctx.h"

int cmd_calibrate(int argc, char **argv, struct cli_ctx *ctx);

#endif
