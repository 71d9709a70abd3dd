/*
 * wl_load.h - workload files (kind: llm), architecture presets
 * (models/arch/<name>.yaml) and Hugging Face config.json files.
 */
#ifndef TC_WL_LOAD_H
#define TC_WL_LOAD_H

#include "../model/types/workload.h"
#include "../util/diag.h"
#include "datapath.h"
#include "../model/types/network.h"
#include "yaml_node.h"

/*
 * Load a workload file.  Presets are looked up on `dp`; an `hf_config` path
 * is relative to the workload file's folder.  Fills w->mark[] with the
 * position of each field that was set.  Returns 0 or -1 (messages in d).
 */
int wl_load_file(const char *path, const struct tc_datapath *dp,
		 struct workload *w, struct tc_diag *d);

/* The same from an already parsed document (used by `check` and sweeps). */
int wl_load_doc(const struct yn_doc *doc, const struct tc_datapath *dp,
		struct workload *w, struct tc_diag *d);

/* Load models/arch/<name>.yaml.  Returns 0 or -1. */
int arch_load_preset(const struct tc_datapath *dp, const char *name,
		     struct llm_arch *out, struct tc_diag *d);

/* Load an architecture file by path (used by `traincost check`). */
int arch_load_file(const char *path, struct llm_arch *out, struct tc_diag *d);

/* Load a Hugging Face config.json (read as YAML).  Returns 0 or -1. */
int arch_load_hf_config(const char *path, struct llm_arch *out,
			struct tc_diag *d);

/* --- vision and recommender workloads (wl_vision.c, wl_recsys.c) --- */

/* Load a `kind: vision` / `kind: recsys` workload (wl_load_doc calls them
 * on the kind).  Returns 0 or -1 (messages in d). */
int wl_vision_load_doc(const struct yn_doc *doc, const struct tc_datapath *dp,
		       struct workload *w, struct tc_diag *d);
int wl_recsys_load_doc(const struct yn_doc *doc, const struct tc_datapath *dp,
		       struct workload *w, struct tc_diag *d);

/* Load a vision / recommender architecture file by path (`traincost
 * check`, tests).  Returns 0 or -1. */
int wl_vision_arch_load_file(const char *path, struct vision_arch *out,
			     struct tc_diag *d);
int wl_recsys_arch_load_file(const char *path, struct recsys_arch *out,
			     struct tc_diag *d);

/* The family ("llm", "vision", "recsys") an architecture file declares,
 * into buf; "" when it has none.  For dispatch in `traincost check`. */
void wl_arch_family(const struct yn_doc *doc, char *buf, size_t len);

#endif
