/*
 * cmd_prices.h - `traincost prices`: dated cloud prices (cmd_prices.c).
 */
#ifndef TC_CMD_PRICES_H
#define TC_CMD_PRICES_H

#include "cli_ctx.h"

int cmd_prices(int argc, char **argv, struct cli_ctx *ctx);

#endif
