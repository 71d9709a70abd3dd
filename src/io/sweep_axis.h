/*
 * sweep_axis.h - the axes of a sweep file (sweep_axis.c), and the helpers
 * the sweep reader shares.  Internal to src/io: sweep_load.c and
 * sweep_axis.c include it, nothing else does.
 */
#ifndef TC_SWEEP_AXIS_H
#define TC_SWEEP_AXIS_H

#include "../util/diag.h"
#include "sweep_types.h"
#include "yaml_node.h"

/* A copy of s (malloc), or NULL when out of memory. */
char *sweep_dup_str(const char *s);
/* Error at (line, col) of the sweep file; returns -1. */
int sweep_err_at(struct tc_diag *d, const char *file, int line, int col,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Refuse too many configurations before any range is expanded.  0 or -1. */
int sweep_count_rows(const struct sweep *sw, const struct yn_node *root,
		     const struct yn_node *vary, const struct yn_node *zip, struct tc_diag *d);
/* Set up the next key for dotted path `knode` with values `vnode` (a list
 * or a range) in dimension `dim`.  0 or -1. */
int sweep_read_key(struct sweep *sw, const struct yn_node *knode,
		   const struct yn_node *vnode, int dim, struct tc_diag *d);

#endif
