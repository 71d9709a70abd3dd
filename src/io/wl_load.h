/*
 * wl_load.h - workload files (kind: llm), architecture presets
 * (models/arch/<name>.yaml) and Hugging Face config.json files.  It also
 * brings the headers of the architecture, vision, recommender and Hugging
 * Face readers, which wl_load_doc dispatches to.
 */
#ifndef TC_WL_LOAD_H
#define TC_WL_LOAD_H

#include "../model/types/workload.h"
#include "../util/diag.h"
#include "datapath.h"
#include "../model/types/network.h"
#include "wl_arch.h"
#include "wl_hf.h"
#include "wl_recsys.h"
#include "wl_vision.h"
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

/* The family ("llm", "vision", "recsys") an architecture file declares,
 * into buf; "" when it has none.  For dispatch in `traincost check`. */
void wl_arch_family(const struct yn_doc *doc, char *buf, size_t len);

#endif
