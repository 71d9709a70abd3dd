/*
 * eff_table.c - the efficiency-parameter registry as Markdown.
 */
#include "eff_table.h"

#include "../model/types/eff_param.h"

void rep_eff_table_md(FILE *f)
{
	fprintf(f, "| Parameter | Unit | Default | Accepted | Calibrated | "
		   "Uncertainty (rel. sd) | Efficiency of | Source |\n");
	fprintf(f, "|---|---|---|---|---|---|---|---|\n");
	for (int p = 0; p < EFF_COUNT; p++) {
		const struct eff_param *e = &eff_params[p];
		fprintf(f, "| %s | %s | %g | %g to %g | %s | ", e->name, e->unit,
			e->def, e->lo, e->hi, e->calibrated ? "yes" : "no");
		if (e->default_rel_sd > 0)
			fprintf(f, "%g", e->default_rel_sd);
		else
			fprintf(f, "not varied");
		fprintf(f, " | %s | %s |\n", e->what, e->source);
	}
}
