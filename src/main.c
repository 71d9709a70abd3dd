/*
 * main.c - traincost: training time and cost estimates for GPUs.
 */
#include <stdio.h>

#include "cli/cli.h"

int main(int argc, char **argv)
{
	return cli_main(argc, argv, stdout, stderr);
}
