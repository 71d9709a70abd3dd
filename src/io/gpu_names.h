/*
 * gpu_names.h - the GPU a name people type means, by its parts: a family
 * ("a100", "l40s", a bare model number such as "4090"), a memory size that
 * states the GPU's own ("80gb") and a form factor ("sxm", "pcie", "nvl").
 *
 * The catalog lookup (gpu_load.c) tries ids, case and punctuation, and the
 * aliases of gpu_alias.h first; these rules come after them, and choose the
 * suggestion when a name is unknown: a GPU of the same family first, then
 * of the same memory, then of the same form factor, never a near spelling
 * of another generation ("a100-pcie" is not "h100-pcie").
 */
#ifndef TC_GPU_NAMES_H
#define TC_GPU_NAMES_H

#include "../model/types/gpu.h"

/*
 * The index of the one catalog GPU whose family, memory and form factor
 * agree with every part `word` states; among several of one family when
 * no form factor is stated, the part its family name alone stands for
 * ("H100-80GB" is h100-sxm, as "H100" is).  -1 when none or several.
 */
long gpu_names_match(const struct gpu_catalog *cat, const char *word);

/*
 * The catalog id to suggest for the unknown `word`: of its family, ranked
 * by memory, then form factor, then the larger memory.  NULL when no
 * catalog GPU is of its family.
 */
const char *gpu_names_suggest(const struct gpu_catalog *cat, const char *word);

#endif
