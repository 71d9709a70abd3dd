/*
 * datapath.h - where catalog data (models/, pricing/) is looked up.
 *
 * Order: --data DIR (repeatable), $TRAINCOST_PATH (colon-separated), the
 * current directory, the folders beside the running binary that hold a
 * models/ folder (its own folder, its parent: build/traincost in a source
 * tree, and ../share/traincost: a moved installation), then the installed
 * share folder TC_DATADIR.  The first folder holding a file wins.
 * With TRAINCOST_PATH_ONLY=1 the last three are left out, so that a run sees
 * exactly the data it names (the test suite's frozen copy, for instance).
 */
#ifndef TC_DATAPATH_H
#define TC_DATAPATH_H

#include <stddef.h>

#include "../util/diag.h"

#define DP_MAX_DIRS 16
#define DP_PATH_LEN 1024

struct fw_catalog;

struct tc_datapath {
	char dir[DP_MAX_DIRS][DP_PATH_LEN]; /* roots, each holding models/ and pricing/ */
	int count;
	/* The framework profiles already read from these roots, borrowed; NULL
	 * (as dp_init leaves it): each lookup reads models/framework.  Set by a
	 * caller that loads thousands of workloads (a sweep). */
	const struct fw_catalog *frameworks;
	char self[DP_PATH_LEN];   /* the binary's folder, "" when unknown or
				     left out (TRAINCOST_PATH_ONLY=1) */
};

/* Build the search path from explicit dirs (may be NULL/0), the environment,
 * ".", the binary's folder (from /proc/self/exe, skipped where the system
 * does not say) and TC_DATADIR (these three unless TRAINCOST_PATH_ONLY is
 * 1).  Returns 0, or -1 with a message if a name is too long or
 * TRAINCOST_PATH_ONLY is neither 0 nor 1. */
int dp_init(struct tc_datapath *dp, const char *const *explicit_dirs, int n,
	    struct tc_diag *d);

/* The same with the binary's folder given: `self_dir` (may be NULL). */
int dp_init_self(struct tc_datapath *dp, const char *const *explicit_dirs, int n,
		 const char *self_dir, struct tc_diag *d);

/* Find the first folder root/sub, trying each of the NULL-ended `subs` in
 * each root in order; writes its path to out.  Returns 0 if found, -1 if not. */
int dp_find_dir(const struct tc_datapath *dp, const char *const *subs, char *out,
		size_t outlen);

/* Find `sub/name` (e.g. "models/arch", "llama2-7b.yaml") in the first root
 * that has it; writes the path to out.  Returns 0 if found, -1 if not. */
int dp_find(const struct tc_datapath *dp, const char *sub, const char *name,
	    char *out, size_t outlen);

/*
 * List the *.yaml files of `sub` across all roots, earlier roots shadowing
 * later ones by file name; sorted by file name.  *paths is an owned array of
 * owned strings; free with dp_list_free.  Returns 0 or -1 (allocation).
 */
int dp_list(const struct tc_datapath *dp, const char *sub, char ***paths,
	    size_t *count);
void dp_list_free(char **paths, size_t count);

/* True if some root holds a models/ or a pricing/ folder. */
int dp_has_data(const struct tc_datapath *dp);

/* The folders searched for data, comma-separated, into buf: the roots in
 * order, then those beside the binary that were skipped for lacking
 * models/ (cut with "..." when buf is short). */
void dp_searched(const struct tc_datapath *dp, char *buf, size_t len);

#endif
