/*
 * cmd_validate.h - `traincost validate`: the model against published runs (cmd_validate.c).
 */
#ifndef TC_CMD_VALIDATE_H
#define TC_CMD_VALIDATE_H

#include "cli_ctx.h"

int cmd_validate(int argc, char **argv, struct cli_ctx *ctx);

#endif
