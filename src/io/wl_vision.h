/*
 * wl_vision.h - `kind: vision` workloads and vision architecture files
 * (wl_vision.c; docs/workload-format.md)
 */
#ifndef TC_WL_VISION_H
#define TC_WL_VISION_H

#include "../model/types/workload.h"
#include "../util/diag.h"
#include "datapath.h"
#include "yaml_node.h"

/* Load a `kind: vision` workload (wl_load_doc calls it on the kind).
 * Returns 0 or -1 (messages in d). */
int wl_vision_load_doc(const struct yn_doc *doc, const struct tc_datapath *dp,
		       struct workload *w, struct tc_diag *d);

/* Load a vision architecture file by path (`traincost check`, tests).
 * Returns 0 or -1. */
int wl_vision_arch_load_file(const char *path, struct vision_arch *out,
			     struct tc_diag *d);

#endif
