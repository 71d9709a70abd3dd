/*
 * wl_common.h - what the workload loaders share (wl_common.c).  Internal to
 * src/io: the family loaders include it, nothing else does.
 */
#ifndef TC_WL_COMMON_H
#define TC_WL_COMMON_H

#include <stddef.h>

#include "../model/types/optimizer.h"
#include "../model/types/workload.h"
#include "../util/diag.h"
#include "datapath.h"
#include "wl_util.h"
#include "yaml_node.h"

/* Shared plan pieces: plan.network (a name or a bandwidth) at node v and
 * the catalog-id check.  Return 0 or -1 / truth. */
int wl_read_network(const struct yn_node *v, const char *file, struct plan *p,
		    struct tc_diag *d);
int wl_gpu_id_ok(const char *id);

/* Shared by the vision and recommender loaders. */
/* The preset of models/arch closest to `name` into buf; 1 if there is one. */
int wlx_closest_preset(const struct tc_datapath *dp, const char *name, char *buf, size_t len);
int wlx_open_preset(const struct tc_datapath *dp, const char *name,
		    const char *file, const struct yn_node *at,
		    struct yn_doc *doc, struct tc_diag *d);
int wlx_arch_head(const struct yn_doc *doc, const char *want,
		  const char *family, struct tc_diag *d);
int wlx_read_plan(const char *file, const struct tc_datapath *dp, const struct yn_node *map,
		  int recsys, struct workload *w, struct tc_diag *d);
/* The optimizer named at node v, one of those the registry lets family
 * `kind` use (model/types/optimizer.h), into *out: 0, or -1 with the problem
 * reported as fd_get_enum() does. */
struct fd_ctx;
int wlx_get_optimizer(const struct yn_node *v, enum wl_kind kind,
		      enum optimizer *out, const struct fd_ctx *ctx);

/* What a vision or recommender workload file holds beyond the sections
 * every family shares: how its model and training sections read, and the
 * checks (or NULL) that need the whole workload. */
struct wlx_family {
	enum wl_kind kind;
	int (*model)(const char *file, const struct yn_node *map,
		     const struct tc_datapath *dp, struct workload *w,
		     struct tc_diag *d);
	int (*training)(const char *file, const struct yn_node *map,
			struct workload *w, struct tc_diag *d);
	int (*check)(const struct yn_doc *doc, const struct yn_node *training,
		     const struct yn_node *plan, struct workload *w,
		     struct tc_diag *d);
};

/* Read the workload of family f from doc into *out: 0, or -1 with every
 * problem found reported. */
int wlx_load_family(const struct yn_doc *doc, const struct tc_datapath *dp,
		    const struct wlx_family *f, struct workload *out,
		    struct tc_diag *d);

#endif
