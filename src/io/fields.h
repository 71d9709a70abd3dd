/*
 * fields.h - typed getters driven by field tables (netplan/redis style).
 *
 * A loader describes a mapping as an array of `struct fd_field` ending with a
 * zeroed entry, and calls fd_parse_map().  Each present key is converted,
 * range-checked and stored at `offset` inside the target struct.  Unknown keys
 * are errors at the key with a "did you mean" suggestion, missing required keys
 * are errors at the enclosing mapping, and every problem is reported (the
 * tc_diag caps the count), not just the first.
 */
#ifndef TC_FIELDS_H
#define TC_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "../util/diag.h"
#include "../util/units.h"
#include "yaml_node.h"

enum fd_type {
	FD_END = 0, /* terminates a table */
	FD_INT,     /* int; whole numbers, "2e3" and "64k" allowed if integral */
	FD_NUM,     /* double; with `unit` as in units.h */
	FD_BOOL,    /* int; only true / false */
	FD_STR,     /* char[size]; plain or quoted scalar, non-empty */
	FD_ENUM,    /* int index into `names` */
	FD_CUSTOM,  /* `parse` handles the node (maps, lists, unions); it gets
		       the value node and (char *)target + offset */
	FD_IGNORE,  /* accepted and skipped (e.g. `kind`, handled elsewhere) */
};

struct fd_ctx {
	const char *file;  /* for messages */
	struct tc_diag *d; /* where problems go */
};

struct fd_field {
	const char *key;
	enum fd_type type;
	int required;
	size_t offset;             /* where in the target struct */
	size_t size;               /* FD_STR: buffer size including NUL */
	enum tc_unit unit;         /* FD_NUM */
	double min, max;           /* FD_INT / FD_NUM, inclusive; both 0 = none */
	const char *const *names;  /* FD_ENUM: NULL-terminated valid values */
	int (*parse)(const struct yn_node *value, void *target,
		     const struct fd_ctx *ctx); /* FD_CUSTOM */
	const char *expect;        /* optional "(expected ...)" override
				      for FD_INT and FD_NUM */
};

/*
 * Parse mapping `map` into `target` according to `fields`.  `what` names the
 * mapping in messages ("plan", "GPU file").  Writes a bitmask of the fields
 * that were present (bit i = fields[i]) to *seen when non-NULL; tables have at
 * most 64 entries.  Returns 0 if no problem was found, else -1 (with the
 * problems appended to ctx->d); fields that did parse are still stored.
 */
int fd_parse_map(const struct yn_node *map, const struct fd_field *fields,
		 void *target, const char *what, const struct fd_ctx *ctx,
		 uint64_t *seen);

/* Single-value getters used by fd_parse_map and by FD_CUSTOM handlers.  Each
 * reports its own error at the node's position and returns -1 on failure. */
int fd_get_int(const struct yn_node *n, const char *key, double min, double max,
	       int *out, const struct fd_ctx *ctx);
int fd_get_num(const struct yn_node *n, const char *key, enum tc_unit unit,
	       double min, double max, double *out, const struct fd_ctx *ctx);
int fd_get_bool(const struct yn_node *n, const char *key, int *out,
		const struct fd_ctx *ctx);
int fd_get_str(const struct yn_node *n, const char *key, char *buf, size_t size,
	       const struct fd_ctx *ctx);
int fd_get_enum(const struct yn_node *n, const char *key,
		const char *const *names, int *out, const struct fd_ctx *ctx);

/* A date YYYY-MM-DD of the Gregorian calendar into buf (size >= 11). */
int fd_get_date(const struct yn_node *n, const char *key, char *buf, size_t size,
		const struct fd_ctx *ctx);

/* Report that `n` has the wrong node type; `expected` e.g. "a mapping". */
int fd_type_error(const struct yn_node *n, const char *key, const char *expected,
		  const struct fd_ctx *ctx);

/* Closest of `names` to `word` by edit distance, or NULL if none is close. */
const char *fd_suggest(const char *word, const char *const *names);

#endif
