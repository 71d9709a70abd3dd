/*
 * eff_map.h - the `efficiency:` mapping of GPU files and framework profiles:
 * one key per row of the parameter registry (model/types/eff_param.h), plus
 * `source`, and in GPU files `measured_on`.
 */
#ifndef TC_EFF_MAP_H
#define TC_EFF_MAP_H

#include "../model/types/eff_param.h"
#include "fields.h"

/*
 * Parse mapping v into the values it names: bit p of *set marks value[p]
 * as given.  `text` (a GPU file's; NULL for a framework profile, which
 * then refuses `measured_on`) receives the map's `source` and
 * `measured_on`.  Bounds are the registry's.  Returns 0, or -1 with the
 * problems in ctx->d.
 */
int eff_map_parse(const struct yn_node *v, unsigned long long *set, double value[EFF_COUNT],
		  struct roof_eff *text, const struct fd_ctx *ctx);

#endif
