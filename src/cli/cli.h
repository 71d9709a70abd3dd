/*
 * cli.h - the command line's entry point (cli.c): the command table and
 * the dispatch of argv[1] to its command.
 */
#ifndef TC_CLI_H
#define TC_CLI_H

#include <stdio.h>

/* Entry point: dispatches argv[1] through the command table. */
int cli_main(int argc, char **argv, FILE *out, FILE *err);

#endif
