/*
 * yaml_node.c - read a YAML file into an owned node tree with 1-based marks.
 *
 * The tree is built from libyaml's event stream.  On top of libyaml this
 * module enforces what it does not: a file size cap, valid UTF-8 without NUL
 * or control characters, unique keys, scalar keys, a single document, bounded
 * nesting, node count and alias expansion (aliases are deep-copied so every
 * node has one owner).  Every problem is reported as
 * "file:line:col: what is wrong (what was expected)".
 */
#include "yaml_node.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

#include "../util/infile.h"
#include "../util/utf8.h"

#define READ_CHUNK (64u << 10) /* first buffer for files of unknown size */
#define YAML_KEY_MAX 1024      /* libyaml: longest simple (implicit) key */

/* An anchor seen in the current document. */
struct anchor {
	char *name;            /* owned */
	struct yn_node *node;  /* borrowed from the tree */
	size_t nodes;          /* nodes in the anchored subtree, once done */
	int done;              /* the anchored node is complete */
};

/* A collection being filled. */
struct frame {
	struct yn_node *node; /* borrowed: already attached to its parent */
	struct yn_node *key;  /* owned: a map key waiting for its value */
	size_t cap;           /* capacity of node->items (and node->keys) */
	long anchor;          /* index in b->anchors, -1 for none */
	size_t start_nodes;   /* b->nodes when the collection started */
	char flow;            /* '[' or '{' for flow style, else 0 */
};

struct builder {
	const char *file;          /* borrowed: name for messages */
	const unsigned char *text; /* borrowed: input without BOM */
	size_t len;                /* bytes in text */
	size_t nchars;             /* code points in text */
	struct tc_diag *d;         /* borrowed */
	struct yn_node *root;      /* owned until handed to the doc */
	struct frame stack[YN_MAX_DEPTH];
	int depth;                 /* frames in use */
	struct anchor *anchors;    /* owned */
	size_t nanchors, anchors_cap;
	size_t nodes;              /* nodes created, aliases expanded */
	size_t alias_uses;
	size_t alias_nodes;        /* nodes created by alias expansion */
	int docs;                  /* documents started */
	int failed;                /* a problem was reported; keep going */
	int nomem;                 /* an allocation failed: stop */
};

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
static int err_nomem(struct builder *b)
{
	b->failed = 1;
	b->nomem = 1;
	return tc_diag_at(b->d, TC_EXIT_INTERNAL, b->file, 0, 0,
			  "out of memory");
}

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

/* ---- input checks ---------------------------------------------------- */

/* True for characters YAML allows in a stream (libyaml's printable set). */
static int yaml_printable(uint32_t c)
{
	return c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E) ||
	       c == 0x85 || (c >= 0xA0 && c <= 0xD7FF) ||
	       (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

/* True for line breaks as libyaml counts them (CR LF is one break). */
static int is_break(uint32_t c)
{
	return c == '\n' || c == '\r' || c == 0x85 || c == 0x2028 ||
	       c == 0x2029;
}

/*
 * Check the whole text before libyaml sees it: valid UTF-8, no NUL, no
 * control characters.  Counts code points into b->nchars.  Returns 0 or -1
 * with a message at the first bad character.
 */
static int check_text(struct builder *b)
{
	const unsigned char *t = b->text;
	size_t i = 0, n;
	int line = 1, col = 1;
	uint32_t c = 0, prev = 0;

	b->nchars = 0;
	while (i < b->len) {
		if (t[i] == 0)
			goto nul;
		n = tc_utf8_decode(t + i, b->len - i, &c);
		if (n == 0) {
			/* name the lead byte: it is the one at `col` */
			b->failed = 1;
			return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, line,
					  col,
					  "invalid UTF-8 byte 0x%02X (expected UTF-8 text)",
					  t[i]);
		}
		if (!yaml_printable(c)) {
			b->failed = 1;
			return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, line,
					  col,
					  "control character U+%04X is not allowed (expected text)",
					  (unsigned)c);
		}
		if (c == '\n' && prev == '\r') {
			/* second half of CR LF: the line was already counted */
		} else if (is_break(c)) {
			line++;
			col = 1;
		} else {
			col++;
		}
		prev = c;
		i += n;
		b->nchars++;
	}
	return 0;
nul:
	b->failed = 1;
	return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, line, col,
			  "NUL byte in file (expected text)");
}

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
		return err_nomem(b);
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

/* ---- tree building ---------------------------------------------------- */

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
		err_nomem(b);
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
		return err_nomem(b);
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

/*
 * Deep copy of `src` placed at nesting `depth` (collections above it).
 * Returns NULL on failure with *why = 1 (out of memory) or 2 (too deep).
 */
static struct yn_node *node_copy(const struct yn_node *src, int depth,
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
			n->keys[i] = node_copy(src->keys[i], depth + 1, why);
			if (!n->keys[i])
				goto fail;
		}
		n->items[i] = node_copy(src->items[i], depth + 1, why);
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
	n = node_copy(a->node, b->depth, &why);
	if (!n) {
		if (why == 1)
			return err_nomem(b);
		return err_mark(b, e->start_mark,
				"alias '*%s' nests deeper than %d levels (expected at most %d)",
				name, YN_MAX_DEPTH, YN_MAX_DEPTH);
	}
	b->nodes += a->nodes;
	b->alias_nodes += a->nodes;
	if (attach(b, n) != 0) {
		node_free(n);
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
	err_nomem(b);
fail:
	node_free(n);
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
			node_free(n);
			return err_nomem(b);
		}
	}
	if (attach(b, n) != 0) {
		node_free(n);
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
		rc = err_nomem(b);
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
static void builder_release(struct builder *b)
{
	size_t i;
	int k;

	for (k = 0; k < b->depth; k++)
		node_free(b->stack[k].key);
	b->depth = 0;
	node_free(b->root);
	b->root = NULL;
	for (i = 0; i < b->nanchors; i++)
		free(b->anchors[i].name);
	free(b->anchors);
	b->anchors = NULL;
	b->nanchors = b->anchors_cap = 0;
}

/* Run the libyaml event loop over b->text; returns 0 or -1. */
static int build(struct builder *b)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	int rc = -1, done = 0;

	if (!yaml_parser_initialize(&parser))
		return err_nomem(b);
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

/* Load from memory; see yaml_node.h. */
int yn_load_buffer(const char *name, const char *buf, size_t len,
		   struct yn_doc *doc, struct tc_diag *d)
{
	struct builder b;
	const struct yn_node *r;
	int rc = -1;

	assert(name && doc && d && (buf || len == 0));
	memset(doc, 0, sizeof(*doc));
	memset(&b, 0, sizeof(b));
	b.file = name;
	b.d = d;
	b.text = (const unsigned char *)buf;
	b.len = len;
	if (len > YN_MAX_FILE_BYTES) {
		tc_diag_at(d, TC_EXIT_INPUT, name, 0, 0,
			   "file is too large: %zu bytes (expected at most 16 MiB)",
			   len);
		goto out;
	}
	if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
		b.text += 3; /* a UTF-8 byte order mark is allowed */
		b.len -= 3;
	}
	if (check_text(&b) != 0 || build(&b) != 0)
		goto out;
	r = b.root;
	if (!r || (r->type == YN_SCALAR && r->style == YN_PLAIN &&
		   r->len == 0)) {
		tc_diag_at(d, TC_EXIT_INPUT, name, 1, 1,
			   "file is empty (expected a YAML mapping)");
		goto out;
	}
	doc->file = strdup(name);
	if (!doc->file) {
		err_nomem(&b);
		goto out;
	}
	doc->root = b.root;
	b.root = NULL;
	rc = 0;
out:
	builder_release(&b);
	return rc;
}

/* Read all of fd into a new buffer of at most YN_MAX_FILE_BYTES bytes. */
static int read_capped(int fd, const char *path, size_t hint, char **out,
		       size_t *outlen, struct tc_diag *d)
{
	size_t cap = hint + 1, len = 0;
	char *buf = NULL, *p;
	ssize_t n;
	int rc = -1;

	if (cap > YN_MAX_FILE_BYTES + 1u)
		cap = YN_MAX_FILE_BYTES + 1u;
	buf = malloc(cap);
	if (!buf) {
		tc_diag_at(d, TC_EXIT_INTERNAL, path, 0, 0, "out of memory");
		goto out;
	}
	for (;;) {
		if (len == cap) {
			if (cap > YN_MAX_FILE_BYTES) {
				tc_diag_at(d, TC_EXIT_INPUT, path, 0, 0,
					   "file is too large: more than %u bytes (expected at most 16 MiB)",
					   YN_MAX_FILE_BYTES);
				goto out;
			}
			cap = cap * 2 > YN_MAX_FILE_BYTES + 1u
				      ? YN_MAX_FILE_BYTES + 1u
				      : cap * 2;
			p = realloc(buf, cap);
			if (!p) {
				tc_diag_at(d, TC_EXIT_INTERNAL, path, 0, 0,
					   "out of memory");
				goto out;
			}
			buf = p;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			tc_diag_at(d, TC_EXIT_IO, path, 0, 0,
				   "cannot read file: %s", strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > YN_MAX_FILE_BYTES) {
		tc_diag_at(d, TC_EXIT_INPUT, path, 0, 0,
			   "file is too large: more than %u bytes (expected at most 16 MiB)",
			   YN_MAX_FILE_BYTES);
		goto out;
	}
	*out = buf;
	*outlen = len;
	buf = NULL;
	rc = 0;
out:
	free(buf);
	return rc;
}

/* Read and parse a file; see yaml_node.h. */
int yn_load_file(const char *path, struct yn_doc *doc, struct tc_diag *d)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0, hint = READ_CHUNK;
	int fd = -1, rc = -1;

	assert(path && doc && d);
	memset(doc, 0, sizeof(*doc));
	fd = tc_input_open(path, "a YAML file", d);
	if (fd < 0)
		goto out;
	if (fstat(fd, &st) != 0) {
		tc_diag_at(d, TC_EXIT_IO, path, 0, 0, "cannot read file: %s",
			   strerror(errno));
		goto out;
	}
	/* A regular file (tc_input_open): its size is known. */
	if ((uintmax_t)st.st_size > YN_MAX_FILE_BYTES) {
		tc_diag_at(d, TC_EXIT_INPUT, path, 0, 0,
			   "file is too large: %jd bytes (expected at most 16 MiB)",
			   (intmax_t)st.st_size);
		goto out;
	}
	hint = (size_t)st.st_size;
	if (read_capped(fd, path, hint, &buf, &len, d) != 0)
		goto out;
	rc = yn_load_buffer(path, buf, len, doc, d);
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	return rc;
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
	return n ? node_copy(n, 0, &why) : NULL;
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
