/*
 * wl_util.h - the smallest helpers every workload loader uses (wl_util.c):
 * they use no other loader, so any loader may use them.  Internal to
 * src/io.
 */
#ifndef TC_WL_UTIL_H
#define TC_WL_UTIL_H

#include <stddef.h>

#include "../model/types/workload.h"
#include "../util/diag.h"
#include "yaml_node.h"

/* The file name of `path` without folder and ".yaml", into buf. */
void wlx_stem(const char *path, char *buf, size_t n);
/* Report at node n (its line and column; 0 without one); returns -1. */
int wlx_err(struct tc_diag *d, const char *file, const struct yn_node *n,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Mark field f of w at the node of `key` in map, when it is there. */
void wlx_mark(struct workload *w, enum wl_field f, const struct yn_node *map,
	      const char *key);

#endif
