/*
 * sweep_load.h - sweep files (kind: sweep): a base workload and the
 * dotted paths to vary, and the workload of each configuration.
 *
 * File format: docs/sweep-and-plan.md.  Every varied value is applied to a
 * copy of the base workload's node tree, which wl_load_doc() then loads, so
 * validation and messages are those of a workload file.  Values of the
 * common plan and training fields are converted once (by loading the base
 * with that value alone) and then set directly in a copy of the loaded base
 * when the combination passes the loader's cross-field checks; any other
 * combination goes through the node tree.  Both routes give the same
 * workload (tests/unit/test_sweep.c compares them).
 */
#ifndef TC_SWEEP_LOAD_H
#define TC_SWEEP_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "../model/types/offer.h"
#include "../model/types/workload.h"
#include "../util/diag.h"
#include "datapath.h"
#include "sweep_types.h"
#include "yaml_node.h"

/* Load a sweep file and its base workload; check each value alone.  Returns 0
 * or -1 (messages in d).  Release with sweep_release. */
int sweep_load_file(const char *path, const struct tc_datapath *dp,
		    struct sweep *sw, struct tc_diag *d);

/* What the command line sets in every row, as if the base workload said
 * it (NULL: nothing). */
struct sweep_overrides {
	const char *framework; /* plan.framework (--framework), or NULL */
};

/* sweep_load_file with the overrides *ov (may be NULL) applied to the base
 * before any value is checked. */
int sweep_load_file_with(const char *path, const struct sweep_overrides *ov,
			 const struct tc_datapath *dp, struct sweep *sw, struct tc_diag *d);

/* The value index of each dimension of configuration `row` (the last
 * dimension varies fastest). */
void sweep_row_index(const struct sweep *sw, uint64_t row, size_t *di);

/* Pricing choices of one configuration. */
struct sweep_pricing {
	enum cost_kind kind;
	const char *provider;        /* borrowed; "" = any */
};

/*
 * The workload of the configuration with dimension indices di[].  Returns
 * 0; or 1 when the configuration is invalid, with the first problem in
 * reason (no position); or -1 when out of memory.  *w_base remembers which
 * cached base *w holds so that the next row can skip copying it: set it to
 * -1 before the first call with a given *w.
 */
int sweep_row_workload(const struct sweep *sw, const size_t *di,
		       const struct tc_datapath *dp, struct workload *w,
		       long *w_base, struct sweep_pricing *pr, char *reason,
		       size_t len);

/* The search path of sweep sw's rows with the framework profiles read
 * once (fw_stack() reads no file then), or dp when they did not load. */
const struct tc_datapath *sweep_datapath(const struct sweep *sw,
					 const struct tc_datapath *dp);

/* The printable value of key k in the configuration di[]. */
const char *sweep_value_text(const struct sweep *sw, int k, const size_t *di);

void sweep_release(struct sweep *sw);

#endif
