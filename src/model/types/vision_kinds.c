/*
 * vision_kinds.c - the names and requirements of the vision entry kinds,
 * from the rows of vision_kinds.h.
 */
#include "vision_kinds.h"

#include <stddef.h>

const char *const vis_kind_names[VL_KIND_COUNT + 1] = {
#define VIS_KIND_NAME(id, name, ...) name,
	VIS_KINDS(VIS_KIND_NAME)
#undef VIS_KIND_NAME
	NULL,
};

const struct vis_kind_def vis_kind_defs[VL_KIND_COUNT] = {
#define VIS_KIND_DEF(id, name, needs_, meaning_, own_) \
	[VL_##id] = { .needs = needs_, .meaning = meaning_, .own = own_ },
	VIS_KINDS(VIS_KIND_DEF)
#undef VIS_KIND_DEF
};
