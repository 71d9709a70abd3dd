/*
 * wl_arch.h - what the language-model loaders share (wl_arch.c): the
 * architecture field table, the checks between its fields, preset lookup
 * and small text helpers.  Internal to src/io: wl_load.c and wl_hf.c
 * include it, nothing else does.
 */
#ifndef TC_WL_ARCH_H
#define TC_WL_ARCH_H

#include <stddef.h>
#include <stdint.h>

#include "../model/types/workload.h"
#include "../util/diag.h"
#include "datapath.h"
#include "fields.h"
#include "yaml_node.h"

/* Keys of an architecture, in this order in every table built from it. */
enum arch_key {
	AK_LAYERS, AK_HIDDEN, AK_HEADS, AK_KV_HEADS, AK_HEAD_DIM, AK_FFN,
	AK_FFN_ACT, AK_VOCAB, AK_TIED, AK_EXPERTS, AK_TOP_K, AK_POSITIONS,
	AK_NORM, AK_CAUSAL, AK_BIAS, AK_MAX_POSITIONS, AK_FORM, AK_ENC_LAYERS,
	AK_DEC_LAYERS, AK_REL_BUCKETS, AK_DROPOUT, AK_LM_HEAD, AK_COUNT
};

/* Where each architecture field came from, for cross-field messages. */
struct arch_marks {
	const char *file;               /* file the nodes belong to */
	const struct yn_node *at[AK_COUNT]; /* the value node, or NULL */
	const struct yn_node *fallback; /* used for fields without a node */
};

/* The rows of an architecture, indexed by enum arch_key. */
extern const struct fd_field wla_fields[AK_COUNT];
/* Names of enum llm_form, for messages and the `arch` key. */
extern const char *const wla_form_names[];

/* Copy `s` into buf (size n), truncating; returns buf. */
char *wla_copy_str(char *buf, size_t n, const char *s);
/* The file name of `path` without folder and ".yaml"/".json", into buf. */
void wla_stem(const char *path, char *buf, size_t n);

/* Append the architecture rows to table t at t[at..]; the next free index. */
size_t wla_put_fields(struct fd_field *t, size_t at, size_t base, uint32_t required);
/* The node to blame for field k. */
const struct yn_node *wla_mark(const struct arch_marks *m, enum arch_key k);
/* Record the value nodes of the arch keys present in `map`. */
void wla_marks_from(struct arch_marks *m, const struct yn_node *map);
/* Defaults and checks between fields; then those of the form.  0 or -1. */
int wla_finish(struct llm_arch *a, uint32_t has, const struct arch_marks *m,
	       struct tc_diag *d);
int wla_form_finish(struct llm_arch *a, uint32_t has, const struct arch_marks *m,
		    const char *what, struct tc_diag *d);
/* Find and load preset `name`, an unknown name reported at (file, at).
 * 0, -1 (unusable or unknown name) or -2 (the preset file has problems). */
int wla_preset_at(const struct tc_datapath *dp, const char *name,
		  const char *file, const struct yn_node *at,
		  struct llm_arch *out, struct tc_diag *d);

/* Load models/arch/<name>.yaml.  Returns 0 or -1. */
int arch_load_preset(const struct tc_datapath *dp, const char *name,
		     struct llm_arch *out, struct tc_diag *d);

/* Load an architecture file by path (used by `traincost check`). */
int arch_load_file(const char *path, struct llm_arch *out, struct tc_diag *d);

#endif
