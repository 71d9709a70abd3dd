/*
 * imp_util.h - the helpers the config readers of `traincost import` share
 * (imp_util.c): setting a workload key with its origin, warnings, errors
 * at a position, and YAML values; and imp_get(), with which the readers
 * and a caller of the import read a key back.
 */
#ifndef TC_IMP_UTIL_H
#define TC_IMP_UTIL_H

#include "../util/diag.h"
#include "imp.h"
#include "yaml_node.h"

/* The value of workload key `key` in section `sec`, or NULL. */
const struct imp_value *imp_get(const struct imp_result *r, enum imp_sec sec,
				const char *key);

/* Set key `key` of `sec` to `text`, from config key `from` at line:col
 * (the note reads "from FROM").  Replaces an earlier value.  Returns the
 * value, or NULL when the table is full (a bug: it holds every key). */
struct imp_value *imp_from(struct imp_result *r, enum imp_sec sec, const char *key,
			   const char *text, const char *from, int line, int col);

/* The same for a value the config did not state: the note reads
 * "chosen: WHY". */
struct imp_value *imp_chose(struct imp_result *r, enum imp_sec sec, const char *key,
			    const char *text, const char *why);

/* Set `key` only when it has no value yet. */
void imp_default(struct imp_result *r, enum imp_sec sec, const char *key,
		 const char *text, const char *why);

/* Add a warning (printed by the CLI, and at the head of the file). */
void imp_warn(struct imp_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* An error at line:col of the config; returns -1. */
int imp_err(struct tc_diag *d, const struct imp_result *r, int line, int col,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Whole-string integer of [min, max] from `s`; 0, or -1. */
int imp_parse_long(const char *s, long min, long max, long *out);

/* Value `name` of map, an OmegaConf interpolation "${.key}" (the same
 * mapping) or "${a.b}" (from the document's root) followed; NULL when
 * absent or null. */
const struct yn_node *imp_yaml_get(const struct yn_node *root, const struct yn_node *map,
				   const char *name);

/* A YAML value read into key `key` of `sec` as an integer of [min, max]
 * (the note names `from`).  0 when absent or set, -1 (reported) when it is
 * not such a number. */
int imp_yaml_int(const struct yn_node *root, const struct yn_node *map, const char *name,
		 const char *from, enum imp_sec sec, const char *key, long min, long max,
		 struct imp_result *r, struct tc_diag *d);

/* A YAML integer `name` of map into *out (0 when absent): 0, or -1
 * (reported). */
int imp_yaml_long(const struct yn_node *root, const struct yn_node *map, const char *name,
		  long max, long *out, struct imp_result *r, struct tc_diag *d);

/* A YAML boolean `name` of map: *out 1 true, 0 false, -1 absent.
 * Returns 0, or -1 (reported). */
int imp_yaml_bool(const struct yn_node *root, const struct yn_node *map, const char *name,
		  int *out, struct imp_result *r, struct tc_diag *d);

/* The modules a config puts LoRA adapters on, YAML value `name` of map (a
 * list of module names, or one), into training key lora_targets: each name
 * is looked up in `modules` (NULL-ended), whose linears are the bits of
 * `sets` (enum lora_target), and `expect` lists them for the error.  0
 * when absent or set, -1 (reported) on a name not in the table. */
int imp_yaml_lora_targets(const struct yn_node *root, const struct yn_node *map, const char *name,
			  const char *from, const char *const *modules, const unsigned *sets,
			  const char *expect, struct imp_result *r, struct tc_diag *d);

/* Set key (sec, key) from YAML boolean `name` of map when present. */
int imp_yaml_flag(const struct yn_node *root, const struct yn_node *map, const char *name,
		  const char *from, enum imp_sec sec, const char *key, struct imp_result *r,
		  struct tc_diag *d);

#endif
