/*
 * eff_table.h - the registry of efficiency parameters as a Markdown table,
 * the one docs/model.md carries (a unit test keeps the two equal).
 */
#ifndef TC_EFF_TABLE_H
#define TC_EFF_TABLE_H

#include <stdio.h>

/* The markers around the generated table in docs/model.md. */
#define REP_EFF_TABLE_BEGIN "<!-- efficiency parameters: generated from src/model/types/eff_param.h -->"
#define REP_EFF_TABLE_END "<!-- end of efficiency parameters -->"

/* Write the table (header and one row per parameter) to f. */
void rep_eff_table_md(FILE *f);

#endif
