/*
 * gpu_load.h - the GPU catalog: models/gpu/<id>.yaml, one GPU per file.
 */
#ifndef TC_GPU_LOAD_H
#define TC_GPU_LOAD_H

#include <stddef.h>

#include "../model/types/gpu.h"
#include "../util/diag.h"
#include "datapath.h"

/* Load and validate one GPU file into *out.  Returns 0 or -1 (messages in d). */
int gpu_load_file(const char *path, struct gpu *out, struct tc_diag *d);

/* Load the GPU `id` from dir/<id>.yaml, the catalog's naming.  An id that
 * could leave the folder ('/' or a leading '.') is refused.  Returns 0 or
 * -1 (messages in d). */
int gpu_load_id(const char *dir, const char *id, struct gpu *out, struct tc_diag *d);

/* Load every models/gpu/<id>.yaml on the search path.  Returns 0 or -1; on
 * failure the catalog is released. */
int gpu_catalog_load(const struct tc_datapath *dp, struct gpu_catalog *cat,
		     struct tc_diag *d);

/*
 * Copy the GPU `id` into *out.  "a100-80gb-sxm:1g.10gb" yields the MIG
 * slice.  Returns 0, or -1 with a message listing close ids when unknown
 * (the message has no position: the caller adds where the id came from).
 */
int gpu_catalog_lookup(const struct gpu_catalog *cat, const char *id,
		       struct gpu *out, char *why, size_t whylen);

void gpu_catalog_release(struct gpu_catalog *cat);

#endif
