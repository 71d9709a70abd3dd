/*
 * cmd_import.h - `traincost import`: a workload from a training config (cmd_import.c).
 */
#ifndef TC_CMD_IMPORT_H
#define TC_CMD_IMPORT_H

#include "cli_ctx.h"

int cmd_import(int argc, char **argv, struct cli_ctx *ctx);

#endif
