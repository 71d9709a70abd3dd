/*
 * fuzz_yaml.c - libFuzzer harness for the YAML node layer (yaml_node.c):
 * any bytes either load into a well-formed tree or give positioned errors.
 */
#include "fuzz.h"

#include "../src/io/yaml_load.h"
#include "../src/io/yaml_node.h"

/* Walk the tree, checking its invariants and using every accessor. */
static size_t walk(const struct yn_node *n, int depth)
{
	char show[64];
	size_t count = 1;

	if (!n || depth > YN_MAX_DEPTH + 1 || n->line < 1 || n->col < 1)
		abort();
	(void)yn_type_name(n);
	switch (n->type) {
	case YN_SCALAR:
		if (!n->str || n->str[n->len] != '\0')
			abort();
		yn_show_text(n->str, n->len, show, sizeof(show));
		if (!memchr(show, '\0', sizeof(show)))
			abort();
		(void)yn_is_null(n);
		break;
	case YN_SEQ:
		if (n->keys || (n->count && !n->items))
			abort();
		for (size_t i = 0; i < n->count; i++)
			count += walk(n->items[i], depth + 1);
		break;
	case YN_MAP:
		if (n->count && (!n->keys || !n->items))
			abort();
		for (size_t i = 0; i < n->count; i++) {
			if (n->keys[i]->type != YN_SCALAR)
				abort();
			/* keys are unique: the first match is this one */
			if (yn_map_key(n, n->keys[i]->str) != n->keys[i] &&
			    strlen(n->keys[i]->str) == n->keys[i]->len)
				abort();
			count += walk(n->keys[i], depth + 1);
			count += walk(n->items[i], depth + 1);
		}
		(void)yn_map_get(n, "kind");
		break;
	default:
		abort();
	}
	return count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct yn_doc doc;
	struct tc_diag d;

	tc_diag_init(&d);
	if (yn_load_buffer("fuzz.yaml", (const char *)data, size, &doc, &d) == 0) {
		if (!doc.root || d.count)
			abort();
		if (walk(doc.root, 0) > 2 * (size_t)YN_MAX_NODES + 1)
			abort();
	} else if (d.count == 0 && d.dropped == 0) {
		abort(); /* a failure must say why */
	}
	fz_check_diag(&d);
	yn_doc_release(&doc);
	yn_doc_release(&doc); /* releasing twice is a no-op */
	return 0;
}
