/*
 * yaml_build.c - the node tree built from libyaml's event stream: nodes
 * counted against YN_MAX_NODES, collections nested at most YN_MAX_DEPTH,
 * scalar keys, tags, anchors and aliases (expanded by a bounded deep copy),
 * keys unique within each mapping, and libyaml's own errors turned into
 * one positioned message.
 */
#include "yaml_build.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/utf8.h"

#define YAML_KEY_MAX 1024 /* libyaml: longest simple (implicit) key */

/* Report a content problem at a libyaml mark; returns -1. */
static int err_mark(struct builder *b, yaml_mark_t m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int err_mark(struct builder *b, yaml_mark_t m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tc_diag_vat(b->d, TC_EXIT_INPUT, b->file, (int)m.line + 1,
		    (int)m.column + 1, fmt, ap);
	va_end(ap);
	b->failed = 1;
	return -1;
}

/* Report that memory ran out; parsing stops.  Returns -1. */
int yn_err_nomem(struct builder *b)
{
	b->failed = 1;
	b->nomem = 1;
	return tc_diag_at(b->d, TC_EXIT_INTERNAL, b->file, 0, 0,
			  "out of memory");
}

/* A new node at mark `m`, counted against YN_MAX_NODES; NULL on error. */
static struct yn_node *node_new(struct builder *b, enum yn_type type,
				yaml_mark_t m)
{
	struct yn_node *n;

	if (b->nodes >= YN_MAX_NODES) {
		err_mark(b, m,
			 "more than %d nodes (expected at most %d values, keys, lists and mappings)",
			 YN_MAX_NODES, YN_MAX_NODES);
		return NULL;
	}
	n = calloc(1, sizeof(*n));
	if (!n) {
		yn_err_nomem(b);
		return NULL;
	}
	n->type = type;
	n->line = (int)m.line + 1;
	n->col = (int)m.column + 1;
	n->style = YN_PLAIN;
	b->nodes++;
	return n;
}

/* True when the next node will be a mapping key. */
static int at_key(const struct builder *b)
{
	const struct frame *f;

	if (b->depth == 0)
		return 0;
	f = &b->stack[b->depth - 1];
	return f->node->type == YN_MAP && !f->key;
}

/* Make room for one more entry in the collection of frame `f`. */
static int frame_grow(struct frame *f)
{
	struct yn_node *n = f->node;
	struct yn_node **p;
	size_t cap;

	if (n->count < f->cap)
		return 0;
	cap = f->cap ? f->cap * 2 : 4;
	p = realloc(n->items, cap * sizeof(*p));
	if (!p)
		return -1;
	n->items = p;
	if (n->type == YN_MAP) {
		p = realloc(n->keys, cap * sizeof(*p));
		if (!p)
			return -1;
		n->keys = p;
	}
	f->cap = cap;
	return 0;
}

/*
 * Give `n` to the innermost collection (or make it the root).  On success
 * the parent owns it; on failure the caller still does.
 */
static int attach(struct builder *b, struct yn_node *n)
{
	struct frame *f;

	if (b->depth == 0) {
		assert(!b->root);
		b->root = n;
		return 0;
	}
	f = &b->stack[b->depth - 1];
	if (f->node->type == YN_MAP && !f->key) {
		assert(n->type == YN_SCALAR);
		f->key = n;
		return 0;
	}
	if (frame_grow(f) != 0)
		return yn_err_nomem(b);
	if (f->node->type == YN_MAP) {
		f->node->keys[f->node->count] = f->key;
		f->key = NULL;
	}
	f->node->items[f->node->count++] = n;
	return 0;
}

/* Record anchor `name` for `n`; done says whether `n` is complete. */
static long anchor_add(struct builder *b, const yaml_char_t *name,
		       struct yn_node *n, int done)
{
	struct anchor *a;
	size_t cap;

	if (b->nanchors == b->anchors_cap) {
		cap = b->anchors_cap ? b->anchors_cap * 2 : 8;
		a = realloc(b->anchors, cap * sizeof(*a));
		if (!a)
			return -1;
		b->anchors = a;
		b->anchors_cap = cap;
	}
	a = &b->anchors[b->nanchors];
	a->name = strdup((const char *)name);
	if (!a->name)
		return -1;
	a->node = n;
	a->nodes = 1;
	a->done = done;
	return (long)b->nanchors++;
}

/* The latest anchor called `name`, or NULL. */
static struct anchor *anchor_find(struct builder *b, const char *name)
{
	size_t i;

	for (i = b->nanchors; i > 0; i--) {
		if (strcmp(b->anchors[i - 1].name, name) == 0)
			return &b->anchors[i - 1];
	}
	return NULL;
}

/* Expand an alias event by a bounded deep copy of its anchor. */
static int on_alias(struct builder *b, const yaml_event_t *e)
{
	const char *name = (const char *)e->data.alias.anchor;
	struct anchor *a;
	struct yn_node *n;
	int why = 0;

	if (++b->alias_uses > YN_MAX_ALIASES)
		return err_mark(b, e->start_mark,
				"more than %d aliases (expected at most %d uses of '*name')",
				YN_MAX_ALIASES, YN_MAX_ALIASES);
	a = anchor_find(b, name);
	if (!a)
		return err_mark(b, e->start_mark,
				"undefined alias '*%s' (expected an anchor '&%s' before it)",
				name, name);
	if (!a->done)
		return err_mark(b, e->start_mark,
				"alias '*%s' refers to a node that contains it (expected a complete anchor)",
				name);
	if (a->nodes > YN_MAX_ALIAS_NODES - b->alias_nodes)
		return err_mark(b, e->start_mark,
				"alias '*%s' expands to too many nodes (expected at most %d nodes from aliases)",
				name, YN_MAX_ALIAS_NODES);
	if (a->nodes > YN_MAX_NODES - b->nodes)
		return err_mark(b, e->start_mark,
				"alias '*%s' makes more than %d nodes (expected at most %d)",
				name, YN_MAX_NODES, YN_MAX_NODES);
	if (at_key(b) && a->node->type != YN_SCALAR)
		return err_mark(b, e->start_mark,
				"mapping key is %s (expected a text key)",
				yn_type_name(a->node));
	n = yn_node_copy_at(a->node, b->depth, &why);
	if (!n) {
		if (why == 1)
			return yn_err_nomem(b);
		return err_mark(b, e->start_mark,
				"alias '*%s' nests deeper than %d levels (expected at most %d)",
				name, YN_MAX_DEPTH, YN_MAX_DEPTH);
	}
	b->nodes += a->nodes;
	b->alias_nodes += a->nodes;
	if (attach(b, n) != 0) {
		yn_node_free(n);
		return -1;
	}
	return 0;
}

/*
 * Tags: a node may carry none, the non-specific "!", or the core tag of
 * its own kind (!!str, !!map, !!seq).  Any other tag (!evil, !!int, a
 * %TAG shorthand) would change what the node means in a way this loader
 * does not implement, so it is an error at the node rather than ignored.
 * Returns 0, or -1 with the message.
 */
static int check_tag(struct builder *b, const yaml_char_t *tag, const char *own,
		     yaml_mark_t m)
{
	static const char core[] = "tag:yaml.org,2002:";
	const char *t = (const char *)tag;
	char shown[64];

	if (!t || !strcmp(t, "!") || !strcmp(t, own))
		return 0;
	if (!strncmp(t, core, sizeof(core) - 1)) {
		snprintf(shown, sizeof(shown), "!!");
		yn_show_text(t + sizeof(core) - 1, strlen(t + sizeof(core) - 1), shown + 2,
			     sizeof(shown) - 2);
	} else {
		yn_show_text(t, strlen(t), shown, sizeof(shown));
	}
	return err_mark(b, m, "unknown tag '%s' (expected a value without a tag)",
			shown);
}

/* A scalar event: a new text node, anchored if asked, attached. */
static int on_scalar(struct builder *b, const yaml_event_t *e)
{
	const char *tag = (const char *)e->data.scalar.tag;
	size_t len = e->data.scalar.length;
	struct yn_node *n;

	if (memchr(e->data.scalar.value, 0, len))
		return err_mark(b, e->start_mark,
				"NUL character in text (expected text without \\0)");
	if (check_tag(b, e->data.scalar.tag, YAML_STR_TAG, e->start_mark))
		return -1;
	n = node_new(b, YN_SCALAR, e->start_mark);
	if (!n)
		return -1;
	if (e->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
	    (tag && (strcmp(tag, "!") == 0 ||
		     strcmp(tag, YAML_STR_TAG) == 0)))
		n->style = YN_QUOTED;
	n->str = malloc(len + 1);
	if (!n->str)
		goto nomem;
	memcpy(n->str, e->data.scalar.value, len);
	n->str[len] = '\0';
	n->len = len;
	if (e->data.scalar.anchor &&
	    anchor_add(b, e->data.scalar.anchor, n, 1) < 0)
		goto nomem;
	if (attach(b, n) != 0)
		goto fail;
	return 0;
nomem:
	yn_err_nomem(b);
fail:
	yn_node_free(n);
	return -1;
}

/* A sequence or mapping starts: check key use and depth, push a frame. */
static int on_start(struct builder *b, const yaml_event_t *e)
{
	int is_map = e->type == YAML_MAPPING_START_EVENT;
	const yaml_char_t *anchor = is_map ? e->data.mapping_start.anchor
					   : e->data.sequence_start.anchor;
	struct yn_node *n;
	struct frame *f;
	long anchor_i = -1;

	if (at_key(b))
		return err_mark(b, e->start_mark,
				"mapping key is %s (expected a text key)",
				is_map ? "a mapping" : "a list");
	if (check_tag(b, is_map ? e->data.mapping_start.tag : e->data.sequence_start.tag,
		      is_map ? YAML_MAP_TAG : YAML_SEQ_TAG, e->start_mark))
		return -1;
	if (b->depth >= YN_MAX_DEPTH)
		return err_mark(b, e->start_mark,
				"nesting deeper than %d levels (expected at most %d)",
				YN_MAX_DEPTH, YN_MAX_DEPTH);
	n = node_new(b, is_map ? YN_MAP : YN_SEQ, e->start_mark);
	if (!n)
		return -1;
	if (anchor) {
		anchor_i = anchor_add(b, anchor, n, 0);
		if (anchor_i < 0) {
			yn_node_free(n);
			return yn_err_nomem(b);
		}
	}
	if (attach(b, n) != 0) {
		yn_node_free(n);
		if (anchor_i >= 0) /* the anchor must not point at freed memory */
			free(b->anchors[--b->nanchors].name);
		return -1;
	}
	f = &b->stack[b->depth++];
	memset(f, 0, sizeof(*f));
	f->node = n;
	f->anchor = anchor_i;
	f->start_nodes = b->nodes - 1;
	if (is_map && e->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE)
		f->flow = '{';
	if (!is_map &&
	    e->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE)
		f->flow = '[';
	return 0;
}

struct key_ref {
	const struct yn_node *key;
	size_t index; /* position in the mapping */
	size_t first; /* index of the first key with the same text */
};

/* Order by key text, then by position. */
static int key_ref_cmp(const void *pa, const void *pb)
{
	const struct key_ref *a = pa, *b = pb;
	size_t n = a->key->len < b->key->len ? a->key->len : b->key->len;
	int c = memcmp(a->key->str, b->key->str, n);

	if (c)
		return c;
	if (a->key->len != b->key->len)
		return a->key->len < b->key->len ? -1 : 1;
	return (a->index > b->index) - (a->index < b->index);
}

/* Order duplicates by position. */
static int dup_cmp(const void *pa, const void *pb)
{
	const struct key_ref *a = pa, *b = pb;

	return (a->index > b->index) - (a->index < b->index);
}

/*
 * Report every repeated key of `map` at the repetition, naming the line of
 * the first.  Sorting keeps this O(n log n) for large mappings.
 */
static int check_duplicates(struct builder *b, const struct yn_node *map)
{
	struct key_ref *refs = NULL;
	size_t i, ndup = 0, first = 0;
	char shown[64];
	int rc = 0;

	if (map->count < 2)
		return 0;
	refs = malloc(map->count * sizeof(*refs));
	if (!refs) {
		rc = yn_err_nomem(b);
		goto out;
	}
	for (i = 0; i < map->count; i++) {
		refs[i].key = map->keys[i];
		refs[i].index = i;
	}
	qsort(refs, map->count, sizeof(*refs), key_ref_cmp);
	for (i = 0; i < map->count; i++) {
		if (i == 0 || refs[i].key->len != refs[i - 1].key->len ||
		    memcmp(refs[i].key->str, refs[i - 1].key->str,
			   refs[i].key->len) != 0) {
			first = refs[i].index;
			continue;
		}
		refs[ndup] = refs[i]; /* ndup < i: entry already consumed */
		refs[ndup].first = first;
		ndup++;
	}
	qsort(refs, ndup, sizeof(*refs), dup_cmp);
	for (i = 0; i < ndup; i++) {
		const struct yn_node *k = refs[i].key;

		tc_diag_at(b->d, TC_EXIT_INPUT, b->file, k->line, k->col,
			   "duplicate key '%s' (first given at line %d)",
			   yn_show_text(k->str, k->len, shown, sizeof(shown)),
			   map->keys[refs[i].first]->line);
		b->failed = 1;
		rc = -1;
	}
out:
	free(refs);
	return rc;
}

/* A collection ends: complete its anchor, check its keys, pop it.
 * Returns -1 only when parsing must stop. */
static int on_end(struct builder *b)
{
	struct frame *f;

	assert(b->depth > 0);
	f = &b->stack[b->depth - 1];
	assert(!f->key);
	if (f->anchor >= 0) {
		b->anchors[f->anchor].done = 1;
		b->anchors[f->anchor].nodes = b->nodes - f->start_nodes;
	}
	b->depth--;
	if (f->node->type == YN_MAP && check_duplicates(b, f->node) != 0 &&
	    b->nomem)
		return -1;
	return 0;
}

/* Free what the builder still owns. */
void yn_builder_release(struct builder *b)
{
	size_t i;
	int k;

	for (k = 0; k < b->depth; k++)
		yn_node_free(b->stack[k].key);
	b->depth = 0;
	yn_node_free(b->root);
	b->root = NULL;
	for (i = 0; i < b->nanchors; i++)
		free(b->anchors[i].name);
	free(b->anchors);
	b->anchors = NULL;
	b->nanchors = b->anchors_cap = 0;
}

/* ---- libyaml's errors -------------------------------------------------- */

/* Byte offset of code point number `index` in the text (clamped). */
static size_t char_offset(const struct builder *b, size_t index)
{
	size_t i = 0, k = 0;

	while (i < b->len && k < index) {
		i++;
		while (i < b->len && (b->text[i] & 0xC0) == 0x80)
			i++;
		k++;
	}
	return i;
}

/* ---- libyaml errors --------------------------------------------------- */

/* Copy libyaml's phrase with a lower-case first letter, no final stop. */
static void tidy_phrase(const char *in, char *out, size_t size)
{
	size_t n;

	snprintf(out, size, "%s", in ? in : "syntax error");
	if (out[0] >= 'A' && out[0] <= 'Z')
		out[0] = (char)(out[0] - 'A' + 'a');
	n = strlen(out);
	if (n > 0 && out[n - 1] == '.')
		out[n - 1] = '\0';
}

/*
 * If the line holding byte `off` is indented with a tab, or `off` is a tab,
 * report it in words and return -1; else return 0.
 */
static int tab_error(struct builder *b, size_t off)
{
	const unsigned char *t = b->text;
	size_t start = off, i;
	int line;

	if (off > b->len)
		return 0;
	while (start > 0 && t[start - 1] != '\n' && t[start - 1] != '\r')
		start--;
	line = 1;
	for (i = 0; i < start; i++) {
		if (t[i] == '\n' || (t[i] == '\r' &&
				     (i + 1 >= b->len || t[i + 1] != '\n')))
			line++;
	}
	for (i = start; i < b->len && (t[i] == ' ' || t[i] == '\t'); i++) {
		if (t[i] == '\t') {
			b->failed = 1;
			return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, line,
					  (int)(i - start) + 1,
					  "tab character used for indentation (expected spaces)");
		}
	}
	if (off < b->len && t[off] == '\t')
		return -2; /* a tab elsewhere: the caller words it */
	return 0;
}

/* The innermost open flow collection, or NULL. */
static const struct frame *open_flow(const struct builder *b)
{
	int i;

	for (i = b->depth - 1; i >= 0; i--) {
		if (b->stack[i].flow)
			return &b->stack[i];
	}
	return NULL;
}

/* Turn the parser's error into one positioned message; returns -1. */
static int report_yaml_error(struct builder *b, const yaml_parser_t *p)
{
	char problem[200], context[200];
	const struct frame *f;
	size_t off;
	int line = (int)p->problem_mark.line + 1;
	int col = (int)p->problem_mark.column + 1;
	int cl = (int)p->context_mark.line + 1;
	int cc = (int)p->context_mark.column + 1;
	int rc;
	char q;

	b->failed = 1;
	if (p->error == YAML_MEMORY_ERROR)
		return yn_err_nomem(b);
	tidy_phrase(p->problem, problem, sizeof(problem));
	if (p->error == YAML_READER_ERROR) {
		/* check_text normally catches these first */
		return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, 0, 0,
				  "%s (at byte %zu)", problem,
				  p->problem_offset);
	}
	if (p->error != YAML_SCANNER_ERROR && p->error != YAML_PARSER_ERROR)
		return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, line, col,
				  "%s", problem);
	tidy_phrase(p->context, context, sizeof(context));

	if (p->problem_mark.index >= b->nchars) {
		/* end of file inside something still open */
		if (p->context && strstr(p->context, "quoted scalar")) {
			off = char_offset(b, p->context_mark.index);
			q = off < b->len ? (char)b->text[off] : '"';
			return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, line,
					  col,
					  "unexpected end of file: quoted text started at line %d, column %d is not closed (expected a closing %c)",
					  cl, cc, q);
		}
		f = open_flow(b);
		if (f)
			return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, line,
					  col,
					  "unexpected end of file: '%c' at line %d, column %d is not closed (expected '%c')",
					  f->flow, f->node->line, f->node->col,
					  f->flow == '[' ? ']' : '}');
		if (p->context)
			return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, line,
					  col,
					  "unexpected end of file: %s (%s started at line %d, column %d)",
					  problem, context, cl, cc);
		return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, line, col,
				  "unexpected end of file: %s", problem);
	}

	off = char_offset(b, p->problem_mark.index);
	rc = tab_error(b, off);
	if (rc == -1)
		return -1;
	if (rc == -2)
		return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, line, col,
				  "tab character is not allowed here (expected spaces)");
	if (!p->context)
		return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, line, col,
				  "%s", problem);
	/* libyaml gives up on a key of more than 1024 characters with "could
	 * not find expected ':'" although the ':' is there. */
	if (strstr(p->context, "simple key") && cl == line &&
	    p->problem_mark.index - p->context_mark.index > YAML_KEY_MAX)
		return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, cl, cc,
				  "key is longer than %d characters (expected a "
				  "key of at most %d characters)", YAML_KEY_MAX,
				  YAML_KEY_MAX);
	if (cl == line && cc == col)
		return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, line, col,
				  "%s (%s)", problem, context);
	return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, line, col,
			  "%s (%s started at line %d, column %d)", problem,
			  context, cl, cc);
}

/* Run the libyaml event loop over b->text; returns 0 or -1. */
int yn_build(struct builder *b)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	int rc = -1, done = 0;

	if (!yaml_parser_initialize(&parser))
		return yn_err_nomem(b);
	yaml_parser_set_input_string(&parser, b->text, b->len);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	while (!done) {
		if (!yaml_parser_parse(&parser, &ev)) {
			report_yaml_error(b, &parser);
			goto out;
		}
		switch (ev.type) {
		case YAML_DOCUMENT_START_EVENT:
			if (++b->docs > 1) {
				err_mark(b, ev.start_mark,
					 "more than one YAML document (expected a single document)");
				goto fail;
			}
			if (ev.data.document_start.tag_directives.start !=
			    ev.data.document_start.tag_directives.end) {
				err_mark(b, ev.start_mark,
					 "%%TAG directive (expected no tag shorthands)");
				goto fail;
			}
			break;
		case YAML_SCALAR_EVENT:
			if (on_scalar(b, &ev) != 0)
				goto fail;
			break;
		case YAML_ALIAS_EVENT:
			if (on_alias(b, &ev) != 0)
				goto fail;
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (on_start(b, &ev) != 0)
				goto fail;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			if (on_end(b) != 0)
				goto fail;
			break;
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	rc = b->failed ? -1 : 0;
	goto out;
fail:
	yaml_event_delete(&ev);
out:
	yaml_parser_delete(&parser);
	return rc;
}
