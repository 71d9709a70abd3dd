/*
 * test_yaml.c - the YAML node tree: positions, limits and exact messages.
 *
 * Hostile inputs must be refused with bounded work, whatever the machine's
 * speed: linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,
 * --wrap=read,--wrap=qsort,--wrap=memcmp (Makefile), the library's calls
 * go through counters below, and the tests bound allocations, bytes read
 * and key comparisons instead of timing anything.
 */
#include "tc_test.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/io/yaml_load.h"
#include "../../src/io/yaml_node.h"

#define NAME "f.yaml"

static char tmpdir[] = "/tmp/tc-yaml-XXXXXX";

/* ---- work counters ---- */

static struct {
	size_t allocs;     /* malloc, calloc and realloc calls */
	size_t read_bytes; /* bytes returned by read() */
	size_t compares;   /* qsort comparator and memcmp calls */
} work;

static int (*sort_cmp)(const void *, const void *);

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
ssize_t __real_read(int fd, void *buf, size_t n);
void __real_qsort(void *base, size_t n, size_t size,
		  int (*cmp)(const void *, const void *));
int __real_memcmp(const void *a, const void *b, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
ssize_t __wrap_read(int fd, void *buf, size_t n);
void __wrap_qsort(void *base, size_t n, size_t size,
		  int (*cmp)(const void *, const void *));
int __wrap_memcmp(const void *a, const void *b, size_t n);

void *__wrap_malloc(size_t n)
{
	work.allocs++;
	return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	work.allocs++;
	return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	work.allocs++;
	return __real_realloc(p, n);
}

ssize_t __wrap_read(int fd, void *buf, size_t n)
{
	ssize_t got = __real_read(fd, buf, n);

	if (got > 0)
		work.read_bytes += (size_t)got;
	return got;
}

static int counted_cmp(const void *a, const void *b)
{
	work.compares++;
	return sort_cmp(a, b);
}

void __wrap_qsort(void *base, size_t n, size_t size,
		  int (*cmp)(const void *, const void *))
{
	sort_cmp = cmp; /* the tests are single-threaded */
	__real_qsort(base, n, size, counted_cmp);
}

int __wrap_memcmp(const void *a, const void *b, size_t n)
{
	work.compares++;
	return __real_memcmp(a, b, n);
}

/*
 * Bound the work of one load of `len` bytes: every node needs a byte of
 * input except the copies aliases make (at most YN_MAX_ALIAS_NODES), and a
 * node costs a few allocations (itself, its text, its growing lists:
 * ALLOCS_PER_NODE is generous); finding duplicate keys among at most `len`
 * keys sorts them, n log2 n comparisons, with COMPARES_PER_KEY_LOG for
 * the sort's constant and the scan after it.  A quadratic step or an
 * unbounded expansion breaks these by orders of magnitude.
 */
#define ALLOCS_PER_NODE 8
#define COMPARES_PER_KEY_LOG 4
static void assert_bounded_work(size_t len)
{
	double n = (double)len + 2;

	assert_true(work.allocs <= ALLOCS_PER_NODE * (len + YN_MAX_ALIAS_NODES) + 64);
	assert_true((double)work.compares <= COMPARES_PER_KEY_LOG * n * log2(n) + 64);
}

static int setup_dir(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	(void)state;
	return rmdir(tmpdir);
}

/* Write `len` bytes to a new temporary file; its name goes to path. */
static void write_temp(const void *data, size_t len, char *path, size_t size)
{
	const char *p = data;
	ssize_t n;
	int fd;

	snprintf(path, size, "%s/in-XXXXXX", tmpdir);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	while (len > 0) {
		n = write(fd, p, len);
		assert_true(n > 0);
		p += n;
		len -= (size_t)n;
	}
	assert_int_equal(close(fd), 0);
}

/* A growable text buffer for generated inputs. */
struct gen {
	char *s;
	size_t len, cap;
};

static void gen_add(struct gen *g, const char *s)
{
	size_t n = strlen(s);

	if (g->len + n + 1 > g->cap) {
		g->cap = (g->len + n + 1) * 2;
		g->s = realloc(g->s, g->cap);
		assert_non_null(g->s);
	}
	memcpy(g->s + g->len, s, n + 1);
	g->len += n;
}

/* Load `len` bytes; expect failure with exactly `msg` as the only message. */
static void expect_fail(const char *text, size_t len, const char *msg)
{
	struct yn_doc doc;
	struct tc_diag d;

	tc_diag_init(&d);
	memset(&work, 0, sizeof(work));
	assert_int_not_equal(yn_load_buffer(NAME, text, len, &doc, &d), 0);
	assert_bounded_work(len);
	assert_null(doc.root);
	assert_null(doc.file);
	assert_int_equal(d.severity, TC_EXIT_INPUT);
	assert_int_equal(d.count, 1);
	assert_string_equal(d.entry[0].msg, msg);
}

/* Load a NUL-terminated text that must parse; the caller releases doc. */
static void load_ok(const char *text, struct yn_doc *doc)
{
	struct tc_diag d;

	tc_diag_init(&d);
	if (yn_load_buffer(NAME, text, strlen(text), doc, &d) != 0)
		fail_msg("unexpected error: %s", d.entry[0].msg);
	assert_int_equal(d.count, 0);
	assert_non_null(doc->root);
	assert_string_equal(doc->file, NAME);
}

struct bad_case {
	const char *text;
	size_t len;
	const char *msg;
};

#define BAD(t, m) { t, sizeof(t) - 1, m }

static const struct bad_case bad_cases[] = {
	/* syntax errors, converted from libyaml */
	BAD("a: b: c\n",
	    "f.yaml:1:5: mapping values are not allowed in this context"),
	BAD("a:\n  b: 1\n c: 2\n",
	    "f.yaml:3:2: did not find expected key (while parsing a block mapping started at line 1, column 1)"),
	BAD("a: [1, 2]]\n",
	    "f.yaml:1:10: did not find expected key (while parsing a block mapping started at line 1, column 1)"),
	BAD("a: [1\nb: 2\n",
	    "f.yaml:2:2: did not find expected ',' or ']' (while parsing a flow sequence started at line 1, column 4)"),
	BAD("key: \"a\\q\"\n",
	    "f.yaml:1:8: found unknown escape character (while parsing a quoted scalar started at line 1, column 6)"),
	/* unclosed constructs at end of file name where they began */
	BAD("name: x\nlayers: [1, 2,\n  3\n",
	    "f.yaml:4:1: unexpected end of file: '[' at line 2, column 9 is not closed (expected ']')"),
	BAD("a: [1, 2",
	    "f.yaml:2:1: unexpected end of file: '[' at line 1, column 4 is not closed (expected ']')"),
	BAD("a: {x: 1\n",
	    "f.yaml:2:1: unexpected end of file: '{' at line 1, column 4 is not closed (expected '}')"),
	BAD("a:\n  - [\n",
	    "f.yaml:3:1: unexpected end of file: '[' at line 2, column 5 is not closed (expected ']')"),
	BAD("a: {b: [1, {c: 2}\n",
	    "f.yaml:2:1: unexpected end of file: '[' at line 1, column 8 is not closed (expected ']')"),
	BAD("a: \"abc\n",
	    "f.yaml:2:1: unexpected end of file: quoted text started at line 1, column 4 is not closed (expected a closing \")"),
	BAD("a: 1\nb: 'abc\n\n",
	    "f.yaml:4:1: unexpected end of file: quoted text started at line 2, column 4 is not closed (expected a closing ')"),
	/* duplicate keys */
	BAD("name: x\nplan:\n  gpu: a100\n  tp: 2\n  pp: 1\n  count: 8\n  tp: 4\n",
	    "f.yaml:7:3: duplicate key 'tp' (first given at line 4)"),
	BAD("tp: 1\n'tp': 2\n",
	    "f.yaml:2:1: duplicate key 'tp' (first given at line 1)"),
	BAD("{a: 1, b: 2, a: 3}\n",
	    "f.yaml:1:14: duplicate key 'a' (first given at line 1)"),
	/* keys that are not text */
	BAD("? [a]\n: b\n", "f.yaml:1:3: mapping key is a list (expected a text key)"),
	BAD("{a: 1}: b\n", "f.yaml:1:1: mapping key is a mapping (expected a text key)"),
	BAD("a: &x {b: 1}\n? *x\n: 2\n",
	    "f.yaml:2:3: mapping key is a mapping (expected a text key)"),
	/* aliases */
	BAD("a: *x\n", "f.yaml:1:4: undefined alias '*x' (expected an anchor '&x' before it)"),
	BAD("a: &x [*x]\n",
	    "f.yaml:1:8: alias '*x' refers to a node that contains it (expected a complete anchor)"),
	/* documents and emptiness */
	BAD("a: 1\n---\nb: 2\n",
	    "f.yaml:2:1: more than one YAML document (expected a single document)"),
	BAD("a: 1\n...\n---\nb: 1\n",
	    "f.yaml:3:1: more than one YAML document (expected a single document)"),
	BAD("", "f.yaml:1:1: file is empty (expected a YAML mapping)"),
	BAD("# only a comment\n\n   \n", "f.yaml:1:1: file is empty (expected a YAML mapping)"),
	BAD("---\n", "f.yaml:1:1: file is empty (expected a YAML mapping)"),
	BAD("\xEF\xBB\xBF", "f.yaml:1:1: file is empty (expected a YAML mapping)"),
	/* bytes that are not YAML text */
	BAD("a: 1\nb: x\0y\n", "f.yaml:2:5: NUL byte in file (expected text)"),
	BAD("\0\0\0\0", "f.yaml:1:1: NUL byte in file (expected text)"),
	BAD("a: \"x\\0y\"\n", "f.yaml:1:4: NUL character in text (expected text without \\0)"),
	BAD("a: 1\nb: caf\xC3\xA9 \xFF\n",
	    "f.yaml:2:9: invalid UTF-8 byte 0xFF (expected UTF-8 text)"),
	BAD("a: \x80\n", "f.yaml:1:4: invalid UTF-8 byte 0x80 (expected UTF-8 text)"),
	BAD("a: \xC0\xAF\n", "f.yaml:1:4: invalid UTF-8 byte 0xC0 (expected UTF-8 text)"),
	BAD("a: \xED\xA0\x80\n", "f.yaml:1:4: invalid UTF-8 byte 0xED (expected UTF-8 text)"),
	BAD("a: \xE2\x82", "f.yaml:1:4: invalid UTF-8 byte 0xE2 (expected UTF-8 text)"),
	/* a lead byte followed by a non-continuation byte: the message names
	 * the lead byte 0xC3, which is the byte at column 4 (naming the 'x'
	 * after it, 0x78, pointed at a byte that is not at that column) */
	BAD("a: \xC3x\n", "f.yaml:1:4: invalid UTF-8 byte 0xC3 (expected UTF-8 text)"),
	BAD("a: 1\r\nb: \xFF\r\n", "f.yaml:2:4: invalid UTF-8 byte 0xFF (expected UTF-8 text)"),
	BAD("a: \x01\n", "f.yaml:1:4: control character U+0001 is not allowed (expected text)"),
	BAD("a: \xC2\x9B\n", "f.yaml:1:4: control character U+009B is not allowed (expected text)"),
	/* binary garbage: the start of a PNG file */
	BAD("\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
	    "f.yaml:1:1: invalid UTF-8 byte 0x89 (expected UTF-8 text)"),
	BAD("\x7f" "ELF\x02\x01\x01",
	    "f.yaml:1:1: control character U+007F is not allowed (expected text)"),
	/* tabs */
	BAD("a:\n\tb: 1\n", "f.yaml:2:1: tab character used for indentation (expected spaces)"),
	BAD("a: 1\n  \tb: 2\n", "f.yaml:2:3: tab character used for indentation (expected spaces)"),
	BAD("x: |\n\tfoo\n", "f.yaml:2:1: tab character used for indentation (expected spaces)"),
	BAD("plan:\n  tp: 1\n\t pp: 2\n", "f.yaml:3:1: tab character used for indentation (expected spaces)"),
	/* nesting */
	BAD("a: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n",
	    "f.yaml:1:67: nesting deeper than 64 levels (expected at most 64)"),
};

static void test_bad_inputs(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		print_message("case %zu: %s\n", i, bad_cases[i].msg);
		expect_fail(bad_cases[i].text, bad_cases[i].len,
			    bad_cases[i].msg);
	}
}

/* Every duplicate is reported, each at its own position. */
static void test_all_duplicates_reported(void **state)
{
	const char *text = "a: 1\ntp: 2\nb: 3\ntp: 4\ntp: 5\nb: 6\n";
	struct yn_doc doc;
	struct tc_diag d;

	(void)state;
	tc_diag_init(&d);
	assert_int_not_equal(yn_load_buffer(NAME, text, strlen(text), &doc, &d), 0);
	assert_int_equal(d.count, 3);
	assert_string_equal(d.entry[0].msg, "f.yaml:4:1: duplicate key 'tp' (first given at line 2)");
	assert_string_equal(d.entry[1].msg, "f.yaml:5:1: duplicate key 'tp' (first given at line 2)");
	assert_string_equal(d.entry[2].msg, "f.yaml:6:1: duplicate key 'b' (first given at line 3)");
	assert_null(doc.root);
}

/* A long duplicate key is shown shortened, and a map of many keys is fast. */
static void test_duplicates_large_map(void **state)
{
	struct gen g = {0};
	char line[64];
	int i;

	(void)state;
	for (i = 0; i < 200000; i++) {
		snprintf(line, sizeof(line), "k%d: %d\n", i, i);
		gen_add(&g, line);
	}
	gen_add(&g, "k123: 1\n");
	expect_fail(g.s, g.len, "f.yaml:200001:1: duplicate key 'k123' (first given at line 124)");
	free(g.s);
}

/* The 10,000-deep "[[[[..." file fails at the 65th bracket, fast. */
static void test_deep_nesting(void **state)
{
	struct gen g = {0};
	char path[256], want[400];
	struct yn_doc doc;
	struct tc_diag d;
	int i;

	(void)state;
	for (i = 0; i < 10000; i++)
		gen_add(&g, "[");
	for (i = 0; i < 10000; i++)
		gen_add(&g, "]");
	gen_add(&g, "\n");
	expect_fail(g.s, g.len, "f.yaml:1:65: nesting deeper than 64 levels (expected at most 64)");

	write_temp(g.s, g.len, path, sizeof(path));
	tc_diag_init(&d);
	memset(&work, 0, sizeof(work));
	assert_int_not_equal(yn_load_file(path, &doc, &d), 0);
	assert_int_equal(work.read_bytes, g.len); /* read once, whole */
	assert_bounded_work(g.len);
	snprintf(want, sizeof(want), "%s:1:65: nesting deeper than 64 levels (expected at most 64)", path);
	assert_string_equal(d.entry[0].msg, want);
	unlink(path);
	free(g.s);
}

/* Block mappings nest too: the 65th level fails at its first key. */
static void test_deep_block_nesting(void **state)
{
	struct gen g = {0};
	int i, j;

	(void)state;
	for (i = 0; i < 100; i++) {
		for (j = 0; j < i; j++)
			gen_add(&g, " ");
		gen_add(&g, "k:\n");
	}
	expect_fail(g.s, g.len, "f.yaml:65:65: nesting deeper than 64 levels (expected at most 64)");
	free(g.s);
}

/* Exactly 64 levels is allowed. */
static void test_nesting_limit_ok(void **state)
{
	struct gen g = {0};
	const struct yn_node *n;
	struct yn_doc doc;
	int i;

	(void)state;
	gen_add(&g, "a: ");
	for (i = 0; i < 63; i++)
		gen_add(&g, "[");
	gen_add(&g, "x");
	for (i = 0; i < 63; i++)
		gen_add(&g, "]");
	load_ok(g.s, &doc);
	n = yn_map_get(doc.root, "a");
	for (i = 0; i < 63; i++) {
		assert_non_null(n);
		assert_int_equal(n->type, YN_SEQ);
		assert_int_equal(n->count, 1);
		n = n->items[0];
	}
	assert_int_equal(n->type, YN_SCALAR);
	assert_string_equal(n->str, "x");
	yn_doc_release(&doc);
	free(g.s);
}

/* A billion-laughs file stops at the alias expansion limit, fast. */
static void test_alias_bomb(void **state)
{
	static const char *const lv = "abcdefghi";
	struct gen g = {0};
	char line[128];
	int i, j;

	(void)state;
	gen_add(&g, "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
	for (i = 1; i < 9; i++) {
		snprintf(line, sizeof(line), "%c: &%c [", lv[i], lv[i]);
		gen_add(&g, line);
		for (j = 0; j < 9; j++) {
			snprintf(line, sizeof(line), "%s*%c", j ? ", " : "", lv[i - 1]);
			gen_add(&g, line);
		}
		gen_add(&g, "]\n");
	}
	/* a: 10 nodes, b: 91, c: 820, d: 7381, e: 66430; the first *e in f
	 * would take the alias-made nodes past 100000 */
	expect_fail(g.s, g.len,
		    "f.yaml:6:8: alias '*e' expands to too many nodes (expected at most 100000 nodes from aliases)");
	free(g.s);
}

/* More than YN_MAX_ALIASES uses of even a tiny anchor are refused. */
static void test_alias_count(void **state)
{
	struct gen g = {0};
	int i;

	(void)state;
	gen_add(&g, "a: &a 1\nb: [");
	for (i = 0; i < 65; i++)
		gen_add(&g, i ? ", *a" : "*a");
	gen_add(&g, "]\n");
	/* the 65th alias starts at column 5 + 4 * 64 */
	expect_fail(g.s, g.len,
		    "f.yaml:2:261: more than 64 aliases (expected at most 64 uses of '*name')");
	free(g.s);
}

/* An alias that would take the whole tree past YN_MAX_NODES. */
static void test_alias_total_nodes(void **state)
{
	struct gen g = {0};
	char want[200];
	size_t col;
	int i;

	(void)state;
	gen_add(&g, "[&a [0, 0, 0, 0, 0, 0, 0, 0, 0]");
	for (i = 0; i < 999980; i++)
		gen_add(&g, ",0");
	col = g.len + 3;
	gen_add(&g, ", *a]\n");
	snprintf(want, sizeof(want),
		 "f.yaml:1:%zu: alias '*a' makes more than 1000000 nodes (expected at most 1000000)", col);
	expect_fail(g.s, g.len, want);
	free(g.s);
}

/* More than YN_MAX_NODES nodes without aliases. */
static void test_too_many_nodes(void **state)
{
	struct gen g = {0};
	int i;

	(void)state;
	gen_add(&g, "[0");
	for (i = 1; i < 1000000; i++)
		gen_add(&g, ",0");
	gen_add(&g, "]\n");
	/* node 1,000,001 is the last item, at column 2 + 2 * 999999 */
	expect_fail(g.s, g.len,
		    "f.yaml:1:2000000: more than 1000000 nodes (expected at most 1000000 values, keys, lists and mappings)");
	free(g.s);
}

/* Aliases within the limits are deep copies with their own memory. */
static void test_alias_copy(void **state)
{
	const char *text = "base: &b {x: 1, y: [2, 3]}\ncopy: *b\nname: &n hi\nkeys:\n  *n : 5\n";
	const struct yn_node *base, *copy, *keys;
	struct yn_doc doc;

	(void)state;
	load_ok(text, &doc);
	base = yn_map_get(doc.root, "base");
	copy = yn_map_get(doc.root, "copy");
	assert_non_null(base);
	assert_non_null(copy);
	assert_ptr_not_equal(base, copy);
	assert_int_equal(copy->type, YN_MAP);
	assert_int_equal(copy->count, 2);
	assert_string_equal(yn_map_get(copy, "x")->str, "1");
	assert_ptr_not_equal(yn_map_get(copy, "y"), yn_map_get(base, "y"));
	assert_string_equal(yn_map_get(copy, "y")->items[1]->str, "3");
	keys = yn_map_get(doc.root, "keys");
	assert_string_equal(yn_map_get(keys, "hi")->str, "5");
	yn_doc_release(&doc);
}

/* Positions are 1-based; styles and lookups behave as documented. */
static void test_tree_and_positions(void **state)
{
	const char *text =
		"name: \"Llama\"\n"
		"kind: llm\n"
		"model:\n"
		"  layers: 32\n"
		"  list: [1, two, '3']\n"
		"text: |\n"
		"  hello\n"
		"empty:\n"
		"tilde: ~\n"
		"nul: null\n"
		"str: !!str 8\n";
	const struct yn_node *root, *model, *list, *n;
	struct yn_doc doc;

	(void)state;
	load_ok(text, &doc);
	root = doc.root;
	assert_int_equal(root->type, YN_MAP);
	assert_int_equal(root->line, 1);
	assert_int_equal(root->col, 1);
	assert_int_equal(root->count, 8);
	assert_string_equal(yn_type_name(root), "a mapping");

	n = yn_map_get(root, "name");
	assert_string_equal(n->str, "Llama");
	assert_int_equal(n->len, 5);
	assert_int_equal(n->style, YN_QUOTED);
	assert_int_equal(n->line, 1);
	assert_int_equal(n->col, 7);
	assert_int_equal(yn_map_get(root, "kind")->style, YN_PLAIN);

	model = yn_map_get(root, "model");
	assert_int_equal(model->line, 4);
	assert_int_equal(model->col, 3);
	n = yn_map_key(model, "layers");
	assert_int_equal(n->line, 4);
	assert_int_equal(n->col, 3);
	n = yn_map_get(model, "layers");
	assert_int_equal(n->col, 11);
	list = yn_map_get(model, "list");
	assert_int_equal(list->type, YN_SEQ);
	assert_null(list->keys);
	assert_string_equal(yn_type_name(list), "a list");
	assert_int_equal(list->count, 3);
	assert_int_equal(list->col, 9);
	assert_int_equal(list->items[1]->col, 13);
	assert_int_equal(list->items[2]->style, YN_QUOTED);
	assert_string_equal(yn_type_name(list->items[0]), "a text value");

	n = yn_map_get(root, "text");
	assert_string_equal(n->str, "hello\n");
	assert_int_equal(n->style, YN_QUOTED);
	assert_true(yn_is_null(yn_map_get(root, "empty")));
	assert_true(yn_is_null(yn_map_get(root, "tilde")));
	assert_true(yn_is_null(yn_map_get(root, "nul")));
	assert_false(yn_is_null(yn_map_get(root, "kind")));
	assert_false(yn_is_null(list));
	assert_false(yn_is_null(NULL));
	assert_int_equal(yn_map_get(root, "str")->style, YN_QUOTED);

	assert_null(yn_map_get(root, "absent"));
	assert_null(yn_map_key(root, "absent"));
	assert_null(yn_map_get(list, "x"));
	assert_null(yn_map_get(NULL, "x"));
	assert_string_equal(yn_type_name(NULL), "nothing");
	yn_doc_release(&doc);
	yn_doc_release(&doc); /* released twice is a no-op */
}

/* A byte order mark is skipped and does not shift columns. */
static void test_bom_ok(void **state)
{
	struct yn_doc doc;

	(void)state;
	load_ok("\xEF\xBB\xBF" "a: 1\nb: 2\n", &doc);
	assert_int_equal(yn_map_key(doc.root, "a")->col, 1);
	assert_int_equal(yn_map_get(doc.root, "a")->col, 4);
	assert_int_equal(yn_map_key(doc.root, "b")->line, 2);
	yn_doc_release(&doc);
	expect_fail("\xEF\xBB\xBF" "a: [1\n", 9,
		    "f.yaml:2:1: unexpected end of file: '[' at line 1, column 4 is not closed (expected ']')");
}

/* CR LF line ends are accepted and count as one line break. */
static void test_crlf_ok(void **state)
{
	struct yn_doc doc;
	const struct yn_node *c;

	(void)state;
	load_ok("a: 1\r\nb:\r\n  c: [1, 2]\r\n", &doc);
	assert_string_equal(yn_map_get(doc.root, "a")->str, "1");
	c = yn_map_get(yn_map_get(doc.root, "b"), "c");
	assert_int_equal(c->line, 3);
	assert_int_equal(c->col, 6);
	assert_int_equal(c->items[1]->col, 10);
	yn_doc_release(&doc);
	expect_fail("a: 1\r\nb: x\r\nb: y\r\n", 18,
		    "f.yaml:3:1: duplicate key 'b' (first given at line 2)");
}

/* Columns count characters, not bytes. */
static void test_utf8_columns(void **state)
{
	struct yn_doc doc;

	(void)state;
	load_ok("caf\xC3\xA9: [\xE2\x82\xAC, x]\n", &doc);
	assert_int_equal(yn_map_get(doc.root, "caf\xC3\xA9")->col, 7);
	assert_int_equal(yn_map_get(doc.root, "caf\xC3\xA9")->items[1]->col, 11);
	yn_doc_release(&doc);
}

/* A document end marker is fine; so are 64 aliases. */
static void test_limits_ok(void **state)
{
	struct gen g = {0};
	struct yn_doc doc;
	int i;

	(void)state;
	load_ok("a: 1\n...\n", &doc);
	yn_doc_release(&doc);
	gen_add(&g, "a: &a [1, 2]\nb: [");
	for (i = 0; i < 64; i++)
		gen_add(&g, i ? ", *a" : "*a");
	gen_add(&g, "]\n");
	load_ok(g.s, &doc);
	assert_int_equal(yn_map_get(doc.root, "b")->count, 64);
	yn_doc_release(&doc);
	free(g.s);
}

/* Messages show long or multi-line text shortened and escaped. */
static void test_show_text(void **state)
{
	char buf[64];
	const char *longer = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz";

	(void)state;
	assert_string_equal(yn_show_text("a\nb\tc\x01", 6, buf, sizeof(buf)), "a\\nb\\tc\\x01");
	assert_string_equal(yn_show_text(longer, strlen(longer), buf, sizeof(buf)),
			    "abcdefghijklmnopqrstuvwxyzabcdefghijklmn...");
	assert_string_equal(yn_show_text("", 0, buf, sizeof(buf)), "");
	/* Invisible characters are named, visible non-ASCII kept as it is:
	 * U+200B is E2 80 8B, U+FEFF EF BB BF, U+00E9 (e acute) C3 A9. */
	assert_string_equal(yn_show_text("count\xE2\x80\x8B", 8, buf, sizeof(buf)),
			    "count\\u200B");
	assert_string_equal(yn_show_text("\xEF\xBB\xBFgpu", 6, buf, sizeof(buf)),
			    "\\uFEFFgpu");
	assert_string_equal(yn_show_text("caf\xC3\xA9", 5, buf, sizeof(buf)),
			    "caf\xC3\xA9");
}

/* ---- files ---- */

static void test_file_ok(void **state)
{
	const char *text = "name: x\nplan:\n  tp: 2\n";
	char path[256];
	struct yn_doc doc;
	struct tc_diag d;

	(void)state;
	write_temp(text, strlen(text), path, sizeof(path));
	tc_diag_init(&d);
	assert_int_equal(yn_load_file(path, &doc, &d), 0);
	assert_string_equal(doc.file, path);
	assert_string_equal(yn_map_get(yn_map_get(doc.root, "plan"), "tp")->str, "2");
	yn_doc_release(&doc);
	unlink(path);
}

static void test_file_missing(void **state)
{
	char path[256], want[400];
	struct yn_doc doc;
	struct tc_diag d;

	(void)state;
	snprintf(path, sizeof(path), "%s/absent.yaml", tmpdir);
	tc_diag_init(&d);
	assert_int_not_equal(yn_load_file(path, &doc, &d), 0);
	assert_int_equal(d.severity, TC_EXIT_IO);
	snprintf(want, sizeof(want), "%s: cannot open file: %s", path, strerror(ENOENT));
	assert_string_equal(d.entry[0].msg, want);
	assert_null(doc.root);

	tc_diag_init(&d);
	assert_int_not_equal(yn_load_file(tmpdir, &doc, &d), 0);
	assert_int_equal(d.severity, TC_EXIT_IO);
	snprintf(want, sizeof(want), "%s: is a directory (expected a YAML file)", tmpdir);
	assert_string_equal(d.entry[0].msg, want);
}

/* Refuse a file of `size` bytes (sparse, made by ftruncate) by its size. */
static void refuse_big_file(off_t size)
{
	const char *head = "a: 1\nb: [";
	char path[256], want[400];
	struct yn_doc doc;
	struct tc_diag d;
	int fd;

	write_temp(head, strlen(head), path, sizeof(path));
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, size), 0);
	close(fd);
	tc_diag_init(&d);
	memset(&work, 0, sizeof(work));
	assert_int_not_equal(yn_load_file(path, &doc, &d), 0);
	assert_int_equal(work.read_bytes, 0); /* refused by its size alone */
	assert_int_equal(d.severity, TC_EXIT_INPUT);
	snprintf(want, sizeof(want), "%s: file is too large: %jd bytes (expected at most 16 MiB)",
		 path, (intmax_t)size);
	assert_string_equal(d.entry[0].msg, want);
	unlink(path);
}

static void test_file_100mb(void **state)
{
	(void)state;
	refuse_big_file((off_t)100 << 20);
	refuse_big_file((off_t)(16 << 20) + 1);
}

/* A device is refused before anything is read (an endless stream such as
 * /dev/zero would otherwise be read up to the size limit). */
static void test_device_refused(void **state)
{
	struct yn_doc doc;
	struct tc_diag d;

	(void)state;
	tc_diag_init(&d);
	memset(&work, 0, sizeof(work));
	assert_int_not_equal(yn_load_file("/dev/zero", &doc, &d), 0);
	/* Refused on its type: not one byte read. */
	assert_int_equal(work.read_bytes, 0);
	assert_string_equal(d.entry[0].msg,
			    "/dev/zero: is a character device (expected a YAML file)");
}

/* Exactly 16 MiB of real YAML is accepted. */
static void test_file_at_limit(void **state)
{
	const size_t size = (size_t)16 << 20;
	char *text = malloc(size);
	char path[256];
	struct yn_doc doc;
	struct tc_diag d;

	(void)state;
	assert_non_null(text);
	memcpy(text, "a: 1\n#", 6);
	memset(text + 6, 'x', size - 7);
	text[size - 1] = '\n';
	write_temp(text, size, path, sizeof(path));
	tc_diag_init(&d);
	assert_int_equal(yn_load_file(path, &doc, &d), 0);
	assert_int_equal(doc.root->count, 1);
	yn_doc_release(&doc);
	unlink(path);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_all_duplicates_reported),
		cmocka_unit_test(test_duplicates_large_map),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_deep_block_nesting),
		cmocka_unit_test(test_nesting_limit_ok),
		cmocka_unit_test(test_alias_bomb),
		cmocka_unit_test(test_alias_count),
		cmocka_unit_test(test_alias_total_nodes),
		cmocka_unit_test(test_too_many_nodes),
		cmocka_unit_test(test_alias_copy),
		cmocka_unit_test(test_tree_and_positions),
		cmocka_unit_test(test_bom_ok),
		cmocka_unit_test(test_crlf_ok),
		cmocka_unit_test(test_utf8_columns),
		cmocka_unit_test(test_limits_ok),
		cmocka_unit_test(test_show_text),
		cmocka_unit_test(test_file_ok),
		cmocka_unit_test(test_file_missing),
		cmocka_unit_test(test_file_100mb),
		cmocka_unit_test(test_device_refused),
		cmocka_unit_test(test_file_at_limit),
	};

	return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
