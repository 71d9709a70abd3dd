/*
 * gpu_alias.h - the names people and catalogs give GPUs ("A100", "H100",
 * SkyPilot's "A100-80GB"), mapped to catalog ids.  One table, used by the
 * catalog lookup and by `prices import skypilot`.
 */
#ifndef TC_GPU_ALIAS_H
#define TC_GPU_ALIAS_H

#include <stddef.h>

struct gpu_alias {
	const char *name; /* squashed: upper case, no '-', '_' or ' ' */
	const char *id;   /* catalog id */
};

/* The table, ended by a NULL name; documented in docs/workload-format.md. */
extern const struct gpu_alias gpu_alias_table[];

/*
 * Write `s` upper-cased without '-', '_' and ' ' into buf (always
 * NUL-terminated; cut to size - 1 bytes), so "a100-80gb" and "A100 80GB"
 * compare equal.
 */
void gpu_name_squash(const char *s, size_t len, char *buf, size_t size);

/* The catalog id that the name `name` stands for, ignoring case, '-', '_'
 * and ' '; NULL if it is no alias. */
const char *gpu_alias_id(const char *name);

#endif
