/*
 * fw_load.h - the framework profiles: models/framework/<id>.yaml, one
 * software stack per file.
 *
 * A profile is a named layer of efficiency values (launch cost, the compute
 * rate the stack sustains, ...) with its sources; a workload picks one with
 * `plan.framework: ID` or `--framework ID`.
 */
#ifndef TC_FW_LOAD_H
#define TC_FW_LOAD_H

#include <stddef.h>

#include "../model/types/workload.h"
#include "../util/diag.h"
#include "datapath.h"

#define FW_TEXT_LEN 1024

struct framework {
	struct eff_stack layer; /* id and efficiency values */
	char name[GPU_TEXT_LEN];     /* "Megatron-LM (Megatron-Core)" */
	unsigned families;           /* bit k: workload kind k is run with it */
	unsigned default_for;        /* bit k: used when a workload of kind k
					names no framework */
	char source[FW_TEXT_LEN];    /* where the values come from */
	char as_of[16];
	char notes[FW_TEXT_LEN];     /* what the stack does: fusion, overlap, graphs */
};

struct fw_catalog {
	struct framework *fws; /* owned, sorted by id */
	size_t count;
};

/* Load and check one profile.  Returns 0 or -1 (messages in d). */
int fw_load_file(const char *path, struct framework *out, struct tc_diag *d);

/* Load every models/framework/<id>.yaml on the search path (none is an
 * empty catalog).  Returns 0 or -1; on failure the catalog is released. */
int fw_catalog_load(const struct tc_datapath *dp, struct fw_catalog *cat, struct tc_diag *d);

/*
 * The profile `id`, or NULL with "unknown framework 'x' (did you mean ...?
 * known: ...)" in why (no position: the caller adds where the id came from).
 */
const struct framework *fw_catalog_find(const struct fw_catalog *cat, const char *id,
					char *why, size_t whylen);

/* The profile a workload of kind `kind` gets when it names none, or NULL
 * when no profile is the default for that kind. */
const struct framework *fw_catalog_default(const struct fw_catalog *cat, enum wl_kind kind);

void fw_catalog_release(struct fw_catalog *cat);



/*
 * `framework: ID` at node v of `file`: the profile's layer into *out,
 * looked up on the search path.  Returns 0, or -1 with the problem at v's
 * position in d.
 */
struct yn_node;
int fw_resolve(const struct tc_datapath *dp, const char *file, const struct yn_node *v,
	       struct eff_stack *out, struct tc_diag *d);

/*
 * The profile a workload of kind `kind` gets when it names none, into *out
 * (out->id stays "" when no profile is the default for that kind).
 * Returns 0, or -1 when the catalog cannot be loaded (messages in d).
 */
int fw_resolve_default(const struct tc_datapath *dp, enum wl_kind kind,
		       struct eff_stack *out, struct tc_diag *d);

/* The same for an id without a position (a command-line option): the
 * message names `what`, e.g. "--framework".  Returns 0 or -1. */
int fw_resolve_id(const struct tc_datapath *dp, const char *what, const char *id,
		  struct eff_stack *out, struct tc_diag *d);

/*
 * The profile of the stack a workload names (plan.framework) into *out,
 * all zero for "" (no profile: the registry's and the GPU file's values):
 * what its caller resolves each GPU for (gpu_resolve()).  The id was
 * checked when the workload was read; dp's preloaded catalog is used where
 * it has one (a sweep's: no file is read then).  Returns 0, or -1 with the
 * problem in d.
 */
int fw_stack(const struct tc_datapath *dp, const char *id, struct eff_stack *out,
	     struct tc_diag *d);
#endif
