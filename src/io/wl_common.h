/*
 * wl_common.h - what the workload loaders share (wl_common.c).  Internal to
 * src/io: the family loaders include it, nothing else does.
 */
#ifndef TC_WL_COMMON_H
#define TC_WL_COMMON_H

#include "wl_load.h"

/* Shared plan pieces: plan.network (a name or a bandwidth) at node v, the
 * default network, and the catalog-id check.  Return 0 or -1 / truth. */
int wl_read_network(const struct yn_node *v, const char *file, struct plan *p,
		    struct tc_diag *d);
void wl_default_network(struct plan *p);
int wl_gpu_id_ok(const char *id);

/* Shared by the vision and recommender loaders. */
/* The file name of `path` without folder and ".yaml", into buf. */
void wlx_stem(const char *path, char *buf, size_t n);
int wlx_err(struct tc_diag *d, const char *file, const struct yn_node *n,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The preset of models/arch closest to `name` into buf; 1 if there is one. */
int wlx_closest_preset(const struct tc_datapath *dp, const char *name, char *buf, size_t len);
int wlx_open_preset(const struct tc_datapath *dp, const char *name,
		    const char *file, const struct yn_node *at,
		    struct yn_doc *doc, struct tc_diag *d);
int wlx_arch_head(const struct yn_doc *doc, const char *want,
		  const char *family, struct tc_diag *d);
int wlx_read_plan(const char *file, const struct tc_datapath *dp, const struct yn_node *map,
		  int recsys, struct workload *w, struct tc_diag *d);
int wlx_top(const struct yn_doc *doc, struct workload *w, struct tc_diag *d);

#endif
