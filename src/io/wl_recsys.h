/*
 * wl_recsys.h - `kind: recsys` workloads and recommender architecture
 * files (wl_recsys.c; docs/workload-format.md)
 */
#ifndef TC_WL_RECSYS_H
#define TC_WL_RECSYS_H

#include "../model/types/workload.h"
#include "../util/diag.h"
#include "datapath.h"
#include "yaml_node.h"

/* Load a `kind: recsys` workload (wl_load_doc calls it on the kind).
 * Returns 0 or -1 (messages in d). */
int wl_recsys_load_doc(const struct yn_doc *doc, const struct tc_datapath *dp,
		       struct workload *w, struct tc_diag *d);

/* Load a recommender architecture file by path (`traincost check`,
 * tests).  Returns 0 or -1. */
int wl_recsys_arch_load_file(const char *path, struct recsys_arch *out,
			     struct tc_diag *d);

#endif
