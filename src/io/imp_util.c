/*
 * imp_util.c - the helpers every config reader of `traincost import`
 * uses (imp_util.h): a key set with its origin, warnings, errors at a
 * position, and YAML values read with OmegaConf interpolation followed.
 */
#include "imp_util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The index of key (sec, key) in r->v, or -1. */
static int find(const struct imp_result *r, enum imp_sec sec, const char *key)
{
	for (int i = 0; i < r->n; i++)
		if (r->v[i].sec == sec && !strcmp(r->v[i].key, key))
			return i;
	return -1;
}

const struct imp_value *imp_get(const struct imp_result *r, enum imp_sec sec, const char *key)
{
	int i = find(r, sec, key);
	return i < 0 ? NULL : &r->v[i];
}

/* The slot of key (sec, key), added when new; NULL when full. */
static struct imp_value *slot(struct imp_result *r, enum imp_sec sec, const char *key)
{
	struct imp_value *v;
	int i = find(r, sec, key);
	if (i >= 0)
		return &r->v[i];
	if (r->n == IMP_MAX_VALUES)
		return NULL;
	v = &r->v[r->n++];
	memset(v, 0, sizeof(*v));
	v->sec = sec;
	snprintf(v->key, sizeof(v->key), "%s", key);
	return v;
}

struct imp_value *imp_from(struct imp_result *r, enum imp_sec sec, const char *key,
			   const char *text, const char *from, int line, int col)
{
	struct imp_value *v = slot(r, sec, key);
	if (!v)
		return NULL;
	snprintf(v->text, sizeof(v->text), "%s", text);
	snprintf(v->note, sizeof(v->note), "%s", from);
	v->line = line;
	v->col = col;
	return v;
}

struct imp_value *imp_chose(struct imp_result *r, enum imp_sec sec, const char *key,
			    const char *text, const char *why)
{
	struct imp_value *v = slot(r, sec, key);
	if (!v)
		return NULL;
	snprintf(v->text, sizeof(v->text), "%s", text);
	snprintf(v->note, sizeof(v->note), "chosen: %s", why);
	v->line = v->col = 0;
	return v;
}

void imp_default(struct imp_result *r, enum imp_sec sec, const char *key, const char *text,
		 const char *why)
{
	if (!imp_get(r, sec, key))
		imp_chose(r, sec, key, text, why);
}

void imp_warn(struct imp_result *r, const char *fmt, ...)
{
	va_list ap;
	if (r->nwarn == IMP_MAX_WARN)
		return;
	va_start(ap, fmt);
	vsnprintf(r->warning[r->nwarn++], IMP_WARN_LEN, fmt, ap);
	va_end(ap);
}

int imp_err(struct tc_diag *d, const struct imp_result *r, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tc_diag_vat(d, TC_EXIT_INPUT, r->file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

int imp_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!s[0] || *end || errno || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

const struct yn_node *imp_yaml_get(const struct yn_node *root, const struct yn_node *map,
				   const char *name)
{
	const struct yn_node *v = yn_map_get(map, name);
	for (int hops = 0; v && v->type == YN_SCALAR && hops < 8; hops++) {
		size_t n = strlen(v->str);
		if (n < 4 || strncmp(v->str, "${", 2) || v->str[n - 1] != '}')
			break;
		char path[128];
		snprintf(path, sizeof(path), "%.*s", (int)(n - 3), v->str + 2);
		const struct yn_node *at = path[0] == '.' ? map : root;
		char *save = NULL;
		for (char *seg = strtok_r(path[0] == '.' ? path + 1 : path, ".", &save); seg && at;
		     seg = strtok_r(NULL, ".", &save))
			at = yn_map_get(at, seg);
		if (!at)
			return v; /* left as written: reported as not a number */
		v = at;
	}
	return v && !yn_is_null(v) ? v : NULL;
}

int imp_yaml_long(const struct yn_node *root, const struct yn_node *map, const char *name, long max,
		  long *out, struct imp_result *r, struct tc_diag *d)
{
	const struct yn_node *v = imp_yaml_get(root, map, name);
	*out = 0;
	if (!v)
		return 0;
	if (v->type != YN_SCALAR || v->style != YN_PLAIN || imp_parse_long(v->str, 1, max, out))
		return imp_err(d, r, v->line, v->col, "'%s' is %s (expected a whole number from 1 to %ld)",
			       name, v->type == YN_SCALAR ? v->str : yn_type_name(v), max);
	return 0;
}

int imp_yaml_int(const struct yn_node *root, const struct yn_node *map, const char *name,
		 const char *from, enum imp_sec sec, const char *key, long min, long max,
		 struct imp_result *r, struct tc_diag *d)
{
	const struct yn_node *v = imp_yaml_get(root, map, name);
	long x;
	char buf[32];
	if (!v)
		return 0;
	if (v->type != YN_SCALAR || v->style != YN_PLAIN || imp_parse_long(v->str, min, max, &x))
		return imp_err(d, r, v->line, v->col, "'%s' is %s (expected a whole number from %ld to %ld)",
			       name, v->type == YN_SCALAR ? v->str : yn_type_name(v), min, max);
	snprintf(buf, sizeof(buf), "%ld", x);
	imp_from(r, sec, key, buf, from, v->line, v->col);
	return 0;
}

int imp_yaml_bool(const struct yn_node *root, const struct yn_node *map, const char *name, int *out,
		  struct imp_result *r, struct tc_diag *d)
{
	const struct yn_node *v = imp_yaml_get(root, map, name);
	*out = -1;
	if (!v)
		return 0;
	if (v->type == YN_SCALAR && v->style == YN_PLAIN && (!strcmp(v->str, "true") || !strcmp(v->str, "True")))
		*out = 1;
	else if (v->type == YN_SCALAR && v->style == YN_PLAIN && (!strcmp(v->str, "false") || !strcmp(v->str, "False")))
		*out = 0;
	else
		return imp_err(d, r, v->line, v->col, "'%s' is %s (expected true or false)", name,
			       v->type == YN_SCALAR ? v->str : yn_type_name(v));
	return 0;
}

int imp_yaml_flag(const struct yn_node *root, const struct yn_node *map, const char *name,
		  const char *from, enum imp_sec sec, const char *key, struct imp_result *r,
		  struct tc_diag *d)
{
	int on;
	if (imp_yaml_bool(root, map, name, &on, r, d))
		return -1;
	if (on >= 0) {
		const struct yn_node *v = imp_yaml_get(root, map, name);
		imp_from(r, sec, key, on ? "true" : "false", from, v->line, v->col);
	}
	return 0;
}

int imp_yaml_lora_targets(const struct yn_node *root, const struct yn_node *map, const char *name,
			  const char *from, const char *const *modules, const unsigned *sets,
			  const char *expect, struct imp_result *r, struct tc_diag *d)
{
	const struct yn_node *v = imp_yaml_get(root, map, name);
	unsigned set = 0;
	size_t n;
	if (!v)
		return 0;
	n = v->type == YN_SEQ ? v->count : 1;
	for (size_t i = 0; i < n; i++) {
		const struct yn_node *x = v->type == YN_SEQ ? v->items[i] : v;
		size_t k = 0;
		while (modules[k] && !(x->type == YN_SCALAR && !strcmp(modules[k], x->str)))
			k++;
		if (!modules[k])
			return imp_err(d, r, x->line, x->col, "'%s' holds %s, not a module the model knows (expected %s)",
				       name, x->type == YN_SCALAR ? x->str : yn_type_name(x), expect);
		set |= sets[k];
	}
	if (set)
		imp_from(r, IMP_TRAINING, "lora_targets", lora_targets_text(set), from, v->line, v->col);
	return 0;
}
