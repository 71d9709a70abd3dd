/*
 * yaml_node.h - a small owned YAML node tree with 1-based positions.
 *
 * Built from libyaml *events* (never its document API), so that duplicate
 * keys, alias expansion, nesting depth and node count are under our control.
 * This is the only module that includes <yaml.h>.
 */
#ifndef TC_YAML_NODE_H
#define TC_YAML_NODE_H

#include <stddef.h>

#define YN_MAX_FILE_BYTES (16u << 20) /* 16 MiB: larger files are refused */
#define YN_MAX_DEPTH 64               /* nested collections */
#define YN_MAX_NODES 1000000          /* nodes after alias expansion */
#define YN_MAX_ALIASES 64             /* alias uses per document */
#define YN_MAX_ALIAS_NODES 100000     /* nodes created by alias expansion */

enum yn_type { YN_SCALAR, YN_SEQ, YN_MAP };

enum yn_style {
	YN_PLAIN,  /* unquoted scalar: may be a number, boolean or null */
	YN_QUOTED, /* single-, double-quoted, block or !!str: always text */
};

struct yn_node {
	enum yn_type type;
	int line, col;          /* 1-based position of the node's first char */
	enum yn_style style;    /* scalars only */
	char *str;              /* scalars: NUL-terminated text, owned */
	size_t len;             /* scalars: bytes in str */
	struct yn_node **keys;  /* maps: key scalars, owned; NULL for seqs
				   and for empty maps */
	struct yn_node **items; /* maps: values; seqs: items; owned; NULL
				   when count is 0 */
	size_t count;           /* entries in items (and keys) */
};

struct yn_doc {
	char *file;            /* name used in messages, owned */
	struct yn_node *root;  /* owned; never NULL after a successful load */
};

/* Free everything the document owns; safe on a zeroed or released doc. */
void yn_doc_release(struct yn_doc *doc);

/* The value for `key` in a map node, or NULL if absent or not a map. */
const struct yn_node *yn_map_get(const struct yn_node *map, const char *key);

/* The key node for `key` (for positions), or NULL. */
const struct yn_node *yn_map_key(const struct yn_node *map, const char *key);

/* "a mapping" / "a list" / "a text value" for messages. */
const char *yn_type_name(const struct yn_node *n);

/* True for a plain scalar "null", "Null", "NULL", "~" or empty. */
int yn_is_null(const struct yn_node *n);

/*
 * Write a short printable form of text `s` (`len` bytes) for messages into
 * buf (size >= 8): cut after about 40 characters with "...", newlines, tabs
 * and control characters escaped, invisible characters (zero-width spaces,
 * direction marks, soft hyphens, BOM) as \u and four hex digits (\u200B).
 * Returns buf.
 */
char *yn_show_text(const char *s, size_t len, char *buf, size_t size);

/* ---- editing, for sweeps ---- */

/* A deep copy of `n` (positions kept), or NULL when out of memory or deeper
 * than YN_MAX_DEPTH.  Free with yn_node_free. */
struct yn_node *yn_node_copy(const struct yn_node *n);

/* Free `n` and everything below it; NULL is a no-op. */
void yn_node_free(struct yn_node *n);

/* A new scalar holding a copy of `s` at line:col, or NULL (out of memory). */
struct yn_node *yn_scalar_new(const char *s, enum yn_style style, int line,
			      int col);

/*
 * Set the value at the key path seg[0..nseg-1] under map `root` to a copy of
 * `value`, replacing what was there or adding the keys (and mappings on the
 * way) that are missing; added keys get position line:col.  An empty value
 * on the way ("plan:" alone) becomes a mapping.  Returns 0, -1 when out of
 * memory, or -2 when the path crosses a value that is not a mapping (its
 * segment index in *bad_seg when non-NULL).
 */
int yn_set_path(struct yn_node *root, const char *const *seg, int nseg,
		const struct yn_node *value, int line, int col, int *bad_seg);

/*
 * Deep copy of `src` placed at nesting `depth` (collections above it), for
 * the builder's alias expansion.  Returns NULL on failure with *why = 1
 * (out of memory) or 2 (too deep).
 */
struct yn_node *yn_node_copy_at(const struct yn_node *src, int depth,
				int *why);

#endif
