/*
 * yaml_node.c - the owned node tree with 1-based marks, once read: freeing
 * and copying it, looking keys up, naming node types for messages, and the
 * edits sweeps make.
 *
 * The tree is read by yaml_load.c and yaml_build.c.  On top of libyaml the
 * reader enforces what it does not: a file size cap, valid UTF-8 without NUL
 * or control characters, unique keys, scalar keys, a single document, bounded
 * nesting, node count and alias expansion (aliases are deep-copied so every
 * node has one owner).  Every problem is reported as
 * "file:line:col: what is wrong (what was expected)".
 */
#include "yaml_node.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/utf8.h"

/* Free `n` and everything below it; NULL is a no-op. */
static void node_free(struct yn_node *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->count; i++) {
		if (n->keys)
			node_free(n->keys[i]);
		node_free(n->items[i]);
	}
	free(n->keys);
	free(n->items);
	free(n->str);
	free(n);
}

/* Release everything the document owns and zero it. */
void yn_doc_release(struct yn_doc *doc)
{
	if (!doc)
		return;
	node_free(doc->root);
	free(doc->file);
	doc->root = NULL;
	doc->file = NULL;
}

/*
 * Write a short, printable rendering of `s` (at most about 40 characters,
 * control characters escaped, "..." when cut) into buf.  Returns buf.
 */
char *yn_show_text(const char *s, size_t len, char *buf, size_t size)
{
	size_t i, o = 0, n;
	unsigned char c;
	uint32_t cp;

	assert(buf && size >= 8);
	for (i = 0; i < len && s; i++) {
		c = (unsigned char)s[i];
		if (o + 8 >= size || (o >= 40 && (c & 0xC0) != 0x80)) {
			memcpy(buf + o, "...", 4);
			return buf;
		}
		if (c >= 0x80 &&
		    (n = tc_utf8_decode((const unsigned char *)s + i, len - i,
					&cp)) > 0 &&
		    tc_utf8_invisible(cp)) {
			o += (size_t)snprintf(buf + o, size - o, "\\u%04X",
					      (unsigned)cp);
			i += n - 1;
			continue;
		}
		if (c == '\n') {
			buf[o++] = '\\';
			buf[o++] = 'n';
		} else if (c == '\t') {
			buf[o++] = '\\';
			buf[o++] = 't';
		} else if (c < 0x20 || c == 0x7F) {
			o += (size_t)snprintf(buf + o, size - o, "\\x%02X", c);
		} else {
			buf[o++] = (char)c;
		}
	}
	buf[o] = '\0';
	return buf;
}

/*
 * Deep copy of `src` placed at nesting `depth` (collections above it).
 * Returns NULL on failure with *why = 1 (out of memory) or 2 (too deep).
 */
struct yn_node *yn_node_copy_at(const struct yn_node *src, int depth,
				int *why)
{
	struct yn_node *n;
	size_t i;

	if (src->type != YN_SCALAR && depth >= YN_MAX_DEPTH) {
		*why = 2;
		return NULL;
	}
	n = calloc(1, sizeof(*n));
	if (!n)
		goto nomem;
	n->type = src->type;
	n->line = src->line;
	n->col = src->col;
	n->style = src->style;
	if (src->type == YN_SCALAR) {
		n->str = malloc(src->len + 1);
		if (!n->str)
			goto nomem;
		memcpy(n->str, src->str, src->len + 1);
		n->len = src->len;
		return n;
	}
	if (src->count) {
		n->items = calloc(src->count, sizeof(*n->items));
		if (!n->items)
			goto nomem;
		if (src->keys) {
			n->keys = calloc(src->count, sizeof(*n->keys));
			if (!n->keys)
				goto nomem;
		}
	}
	for (i = 0; i < src->count; i++) {
		n->count = i + 1; /* entries so far, for node_free */
		if (src->keys) {
			n->keys[i] = yn_node_copy_at(src->keys[i], depth + 1, why);
			if (!n->keys[i])
				goto fail;
		}
		n->items[i] = yn_node_copy_at(src->items[i], depth + 1, why);
		if (!n->items[i])
			goto fail;
	}
	n->count = src->count;
	return n;
nomem:
	*why = 1;
fail:
	node_free(n);
	return NULL;
}

/* Index of `key` among the keys of `map`, or -1. */
static long map_find(const struct yn_node *map, const char *key)
{
	size_t i, n;

	if (!map || map->type != YN_MAP || !key)
		return -1;
	n = strlen(key);
	for (i = 0; i < map->count; i++) {
		if (map->keys[i]->len == n &&
		    memcmp(map->keys[i]->str, key, n) == 0)
			return (long)i;
	}
	return -1;
}

/* The value for `key` in `map`, or NULL. */
const struct yn_node *yn_map_get(const struct yn_node *map, const char *key)
{
	long i = map_find(map, key);

	return i < 0 ? NULL : map->items[i];
}

/* The key node for `key` in `map`, or NULL. */
const struct yn_node *yn_map_key(const struct yn_node *map, const char *key)
{
	long i = map_find(map, key);

	return i < 0 ? NULL : map->keys[i];
}

/* "a mapping", "a list" or "a text value" for messages. */
const char *yn_type_name(const struct yn_node *n)
{
	if (!n)
		return "nothing";
	switch (n->type) {
	case YN_MAP: return "a mapping";
	case YN_SEQ: return "a list";
	case YN_SCALAR: return "a text value";
	}
	return "a value";
}

/* True for a plain null scalar: empty, "~", "null", "Null", "NULL". */
int yn_is_null(const struct yn_node *n)
{
	if (!n || n->type != YN_SCALAR || n->style != YN_PLAIN)
		return 0;
	return n->len == 0 || strcmp(n->str, "~") == 0 ||
	       strcmp(n->str, "null") == 0 || strcmp(n->str, "Null") == 0 ||
	       strcmp(n->str, "NULL") == 0;
}

/* ---- editing (sweeps) ------------------------------------------------- */

struct yn_node *yn_node_copy(const struct yn_node *n)
{
	int why = 0;
	return n ? yn_node_copy_at(n, 0, &why) : NULL;
}

void yn_node_free(struct yn_node *n)
{
	node_free(n);
}

struct yn_node *yn_scalar_new(const char *s, enum yn_style style, int line,
			      int col)
{
	struct yn_node *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->len = strlen(s);
	n->str = malloc(n->len + 1);
	if (!n->str) {
		free(n);
		return NULL;
	}
	memcpy(n->str, s, n->len + 1);
	n->type = YN_SCALAR;
	n->style = style;
	n->line = line;
	n->col = col;
	return n;
}

/* Append key `k` (copied) with value `v` (taken over) to `map`.  0 or -1. */
static int map_append(struct yn_node *map, const char *k, int line, int col,
		      struct yn_node *v)
{
	struct yn_node *key = yn_scalar_new(k, YN_PLAIN, line, col);
	struct yn_node **keys, **items;
	if (!key)
		return -1;
	keys = realloc(map->keys, (map->count + 1) * sizeof(*keys));
	if (!keys) {
		node_free(key);
		return -1;
	}
	map->keys = keys;
	items = realloc(map->items, (map->count + 1) * sizeof(*items));
	if (!items) {
		node_free(key);
		return -1;
	}
	map->items = items;
	map->keys[map->count] = key;
	map->items[map->count] = v;
	map->count++;
	return 0;
}

int yn_set_path(struct yn_node *root, const char *const *seg, int nseg,
		const struct yn_node *value, int line, int col, int *bad_seg)
{
	struct yn_node *map = root;
	assert(root && seg && nseg > 0 && value);
	for (int i = 0; i < nseg; i++) {
		if (map->type != YN_MAP && !(map->type == YN_SCALAR && yn_is_null(map))) {
			if (bad_seg)
				*bad_seg = i;
			return -2;
		}
		if (map->type == YN_SCALAR) { /* "key:" with no value: a map */
			free(map->str);
			map->str = NULL;
			map->len = 0;
			map->type = YN_MAP;
		}
		long at = map_find(map, seg[i]);
		if (i == nseg - 1) {
			struct yn_node *v = yn_node_copy(value);
			if (!v)
				return -1;
			if (at >= 0) {
				node_free(map->items[at]);
				map->items[at] = v;
				return 0;
			}
			if (map_append(map, seg[i], line, col, v)) {
				node_free(v);
				return -1;
			}
			return 0;
		}
		if (at < 0) {
			struct yn_node *m = calloc(1, sizeof(*m));
			if (!m)
				return -1;
			m->type = YN_MAP;
			m->line = line;
			m->col = col;
			if (map_append(map, seg[i], line, col, m)) {
				free(m);
				return -1;
			}
			at = (long)map->count - 1;
		}
		map = map->items[at];
	}
	return 0;
}
