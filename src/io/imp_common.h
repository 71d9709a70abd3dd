/*
 * imp_common.h - `traincost import`: a config of another tool (its kind
 * recognised or given) read into workload keys with their origin, what the
 * command line adds, the checks between values, and the commented workload
 * file.  The types are in imp.h.
 */
#ifndef TC_IMP_COMMON_H
#define TC_IMP_COMMON_H

#include <stddef.h>
#include <stdio.h>

#include "../util/diag.h"
#include "datapath.h"
#include "imp.h"

/* "auto", "megatron", "nemo", "llm-foundry", "axolotl", "deepspeed",
 * "megatron-bridge", NULL. */
extern const char *const imp_kind_names[];

/*
 * Read config `path` (Megatron-LM arguments as text, or YAML/JSON) into *r.
 * Returns 0, or -1 with positioned messages in d: an unknown kind, a
 * value that is not a number, a layout that does not divide the GPUs, a
 * global batch that micro-batch x dp does not divide.
 */
int imp_load_file(const char *path, const struct imp_options *o,
		  const struct tc_datapath *dp, struct imp_result *r,
		  struct tc_diag *d);

/* The same from text in memory (`len` bytes and a NUL after them); `name`
 * stands for the file in messages. */
int imp_load_text(const char *name, const char *text, size_t len,
		  const struct imp_options *o, const struct tc_datapath *dp,
		  struct imp_result *r, struct tc_diag *d);

/* Print r as a workload file with a comment per value.  Returns 0, or -1
 * when a write failed. */
int imp_write(const struct imp_result *r, FILE *f);

#endif
