/*
 * wl_util.c - the smallest helpers of the workload loaders (wl_util.h):
 * an error at a node, a file's stem, a field's position.
 */
#include "wl_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Report at node n; returns -1. */
int wlx_err(struct tc_diag *d, const char *file, const struct yn_node *n,
	    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tc_diag_vat(d, TC_EXIT_INPUT, file, n ? n->line : 0, n ? n->col : 0,
		    fmt, ap);
	va_end(ap);
	return -1;
}

/* The file name of `path` without folder and ".yaml". */
void wlx_stem(const char *path, char *buf, size_t n)
{
	const char *slash = strrchr(path, '/');
	snprintf(buf, n, "%s", slash ? slash + 1 : path);
	char *dot = strrchr(buf, '.');
	if (dot && (!strcmp(dot, ".yaml") || !strcmp(dot, ".yml")))
		*dot = '\0';
}

void wlx_mark(struct workload *w, enum wl_field f, const struct yn_node *map,
	      const char *key)
{
	const struct yn_node *x = yn_map_get(map, key);
	if (x)
		w->mark[f] = (struct tc_mark){ x->line, x->col };
}
