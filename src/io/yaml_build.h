/*
 * yaml_build.h - what the YAML reader's parts share: the builder that turns
 * libyaml's events into a node tree (yaml_build.c), fed by the loaders
 * (yaml_load.c).
 * Internal to src/io: only yaml_*.c include it.
 */
#ifndef TC_YAML_BUILD_H
#define TC_YAML_BUILD_H

#include <yaml.h>

#include "../util/diag.h"
#include "yaml_node.h"

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

/* Report that memory ran out; parsing stops.  Returns -1. */
int yn_err_nomem(struct builder *b);

/* Run the libyaml event loop over b->text; returns 0 or -1. */
int yn_build(struct builder *b);

/* Free what the builder still owns. */
void yn_builder_release(struct builder *b);

#endif
