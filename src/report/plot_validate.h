/*
 * plot_validate.h - the chart of `validate`, drawn from the same results
 * its table prints: predicted against measured.
 * It starts the SVG document (standalone: a file of its own, or inlined in
 * the HTML report) and draws it whole; the caller ends it with svg_end()
 * (svg.h), which reports a non-finite value or a lack of memory.
 */
#ifndef TC_PLOT_VALIDATE_H
#define TC_PLOT_VALIDATE_H

#include <stddef.h>

#include "../model/analyses/validate.h"
#include "../model/types/val_case.h"
#include "svg.h"

/* validate: predicted against measured, log-log, one panel per metric,
 * coloured by GPU, with the line where they agree. */
void plot_validate(struct svg *s, int standalone, const struct val_case *cases,
		   const struct val_result *res, size_t n);

#endif
