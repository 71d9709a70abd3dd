/*
 * fields.c - typed, range-checked getters for YAML nodes, and a table-driven
 * mapping parser that reports every problem at its position.
 */
#include "fields.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHOW_LEN 64   /* buffer for a value shown in a message */
#define LIST_LEN 320  /* buffer for "a, b, c" lists */
#define EXPECT_LEN 200

/* The name used for a value in messages. */
static const char *key_name(const char *key)
{
	return key ? key : "value";
}

/* Report at node `n`; returns -1. */
static int fd_err(const struct yn_node *n, const struct fd_ctx *ctx,
		  const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fd_err(const struct yn_node *n, const struct fd_ctx *ctx,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tc_diag_vat(ctx->d, TC_EXIT_INPUT, ctx->file, n ? n->line : 0,
		    n ? n->col : 0, fmt, ap);
	va_end(ap);
	return -1;
}

/* The scalar's text shortened for a message. */
static const char *show(const struct yn_node *n, char *buf, size_t size)
{
	return yn_show_text(n->str, n->len, buf, size);
}

/*
 * A number for messages: whole numbers below 1e15 in full, others with four
 * significant digits and a plain exponent ("1e15", "2.5e-07").
 */
static char *fmt_num(double v, char *buf, size_t size)
{
	char tmp[48];
	size_t i, o = 0;

	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, size, "%.0f", v);
		return buf;
	}
	snprintf(tmp, sizeof(tmp), "%.4g", v);
	for (i = 0; tmp[i] && o + 1 < size; i++) {
		if (tmp[i] == '+' && i > 0 && tmp[i - 1] == 'e')
			continue;
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

/* "a, b, c" from a NULL-terminated list, cut with "..." when long. */
static char *join_names(const char *const *names, char *buf, size_t size)
{
	size_t o = 0, n;
	int i;

	buf[0] = '\0';
	for (i = 0; names && names[i]; i++) {
		n = strlen(names[i]);
		if (o + n + 2 + 4 >= size) {
			snprintf(buf + o, size - o, "%s...", i ? ", " : "");
			return buf;
		}
		o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? ", " : "",
				      names[i]);
	}
	return buf;
}

/* "got ..." for a node of the wrong kind. */
static const char *got_what(const struct yn_node *n, char *buf, size_t size)
{
	char s[SHOW_LEN];

	if (n->type != YN_SCALAR)
		return yn_type_name(n);
	if (yn_is_null(n))
		return "no value";
	if (n->style == YN_QUOTED)
		snprintf(buf, size, "quoted text \"%s\"", show(n, s, sizeof(s)));
	else
		snprintf(buf, size, "'%s'", show(n, s, sizeof(s)));
	return buf;
}

/* Report that `n` has the wrong node type; returns -1. */
int fd_type_error(const struct yn_node *n, const char *key, const char *expected,
		  const struct fd_ctx *ctx)
{
	char got[SHOW_LEN + 20];

	assert(n && expected && ctx);
	return fd_err(n, ctx, "'%s' must be %s, got %s", key_name(key),
		      expected, got_what(n, got, sizeof(got)));
}

/*
 * Common checks before a scalar is converted: a collection, a null value or
 * quoted text where a plain scalar is needed.  `noun` is "an integer" etc.,
 * `expect` the "(expected ...)" phrase, `parses` whether the quoted text
 * would have been accepted unquoted.  Returns 0 to go on, -1 if reported.
 */
static int need_scalar(const struct yn_node *n, const char *key,
		       const char *noun, const char *expect, int plain_only,
		       int parses, const struct fd_ctx *ctx)
{
	char s[SHOW_LEN];

	if (n->type != YN_SCALAR)
		return fd_err(n, ctx, "'%s' must be %s, got %s (expected %s)",
			      key_name(key), noun, yn_type_name(n), expect);
	if (yn_is_null(n))
		return fd_err(n, ctx, "'%s' has no value (expected %s)",
			      key_name(key), expect);
	if (plain_only && n->style == YN_QUOTED) {
		if (parses)
			return fd_err(n, ctx,
				      "'%s' must be %s, got quoted text \"%s\" (remove the quotes)",
				      key_name(key), noun, show(n, s, sizeof(s)));
		return fd_err(n, ctx,
			      "'%s' must be %s, got quoted text \"%s\" (expected %s)",
			      key_name(key), noun, show(n, s, sizeof(s)), expect);
	}
	return 0;
}

/* Integer getter with an optional "(expected ...)" override. */
static int get_int(const struct yn_node *n, const char *key, double min,
		   double max, const char *override, int *out,
		   const struct fd_ctx *ctx)
{
	char expect[EXPECT_LEN], a[48], b[48], s[SHOW_LEN];
	const char *why;
	double lo = INT_MIN, hi = INT_MAX, v = 0.0;
	int ok;

	assert(n && out && ctx);
	if (min != 0.0 || max != 0.0) {
		assert(min <= max);
		lo = fmax(min, lo);
		hi = fmin(max, hi);
	}
	if (override)
		snprintf(expect, sizeof(expect), "%s", override);
	else
		snprintf(expect, sizeof(expect), "a whole number from %s to %s",
			 fmt_num(lo, a, sizeof(a)), fmt_num(hi, b, sizeof(b)));
	ok = n->type == YN_SCALAR &&
	     tc_parse_quantity(n->str, TC_UNIT_COUNT, &v, &why) == 0 &&
	     v == floor(v);
	if (need_scalar(n, key, "an integer", expect, 1, ok, ctx) != 0)
		return -1;
	if (!ok)
		return fd_err(n, ctx, "'%s' must be an integer, got '%s' (expected %s)",
			      key_name(key), show(n, s, sizeof(s)), expect);
	if (v < lo || v > hi)
		return fd_err(n, ctx, "'%s' is %s (expected %s)", key_name(key),
			      show(n, s, sizeof(s)), expect);
	*out = (int)v;
	return 0;
}

/* A whole number in [min, max] (both 0: any int); see fields.h. */
int fd_get_int(const struct yn_node *n, const char *key, double min, double max,
	       int *out, const struct fd_ctx *ctx)
{
	return get_int(n, key, min, max, NULL, out, ctx);
}

/* Number-with-unit getter with an optional "(expected ...)" override. */
static int get_num(const struct yn_node *n, const char *key, enum tc_unit unit,
		   double min, double max, const char *override, double *out,
		   const struct fd_ctx *ctx)
{
	char expect[EXPECT_LEN], a[48], b[48], s[SHOW_LEN];
	const char *why = tc_unit_expect(unit), *sym = tc_unit_symbol(unit);
	const char *sp = sym[0] ? " " : "";
	int ranged = min != 0.0 || max != 0.0;
	double v = 0.0;
	int ok;

	assert(n && out && ctx);
	assert(!ranged || min <= max);
	if (override)
		snprintf(expect, sizeof(expect), "%s", override);
	else if (ranged)
		snprintf(expect, sizeof(expect), "%s from %s%s%s to %s%s%s",
			 tc_unit_name(unit), fmt_num(min, a, sizeof(a)), sp, sym,
			 fmt_num(max, b, sizeof(b)), sp, sym);
	else
		snprintf(expect, sizeof(expect), "%s", why);
	ok = n->type == YN_SCALAR &&
	     tc_parse_quantity(n->str, unit, &v, &why) == 0;
	if (need_scalar(n, key, tc_unit_name(unit), override ? expect : why, 1,
			ok, ctx) != 0)
		return -1;
	if (!ok)
		return fd_err(n, ctx, "'%s' must be %s, got '%s' (expected %s)",
			      key_name(key), tc_unit_name(unit),
			      show(n, s, sizeof(s)), override ? expect : why);
	if (!isfinite(v) || (ranged && (v < min || v > max)))
		return fd_err(n, ctx, "'%s' is %s (expected %s)", key_name(key),
			      show(n, s, sizeof(s)), expect);
	*out = v;
	return 0;
}

/* A finite quantity of `unit` in [min, max] (both 0: any); see fields.h. */
int fd_get_num(const struct yn_node *n, const char *key, enum tc_unit unit,
	       double min, double max, double *out, const struct fd_ctx *ctx)
{
	return get_num(n, key, unit, min, max, NULL, out, ctx);
}

/* Plain true or false only. */
int fd_get_bool(const struct yn_node *n, const char *key, int *out,
		const struct fd_ctx *ctx)
{
	char s[SHOW_LEN];
	int ok, v;

	assert(n && out && ctx);
	ok = n->type == YN_SCALAR &&
	     (strcmp(n->str, "true") == 0 || strcmp(n->str, "false") == 0);
	if (need_scalar(n, key, "true or false", "true or false", 1, ok,
			ctx) != 0)
		return -1;
	if (!ok)
		return fd_err(n, ctx,
			      "'%s' must be true or false, got '%s' (expected true or false)",
			      key_name(key), show(n, s, sizeof(s)));
	v = n->str[0] == 't';
	*out = v;
	return 0;
}

/* Non-empty text that fits buf (size bytes with the NUL). */
int fd_get_str(const struct yn_node *n, const char *key, char *buf, size_t size,
	       const struct fd_ctx *ctx)
{
	assert(n && buf && size > 0 && ctx);
	if (need_scalar(n, key, "text", "text", 0, 0, ctx) != 0)
		return -1;
	if (n->len == 0)
		return fd_err(n, ctx, "'%s' is empty (expected text)",
			      key_name(key));
	if (n->len >= size)
		return fd_err(n, ctx,
			      "'%s' is too long: %zu bytes (expected at most %zu)",
			      key_name(key), n->len, size - 1);
	memcpy(buf, n->str, n->len + 1);
	return 0;
}

/* The index of the text in `names`, with a suggestion when close. */
int fd_get_enum(const struct yn_node *n, const char *key,
		const char *const *names, int *out, const struct fd_ctx *ctx)
{
	char list[LIST_LEN], expect[LIST_LEN + 20], s[SHOW_LEN];
	const char *close;
	int i;

	assert(n && names && out && ctx);
	snprintf(expect, sizeof(expect), "one of: %s",
		 join_names(names, list, sizeof(list)));
	if (need_scalar(n, key, "text", expect, 0, 0, ctx) != 0)
		return -1;
	for (i = 0; names[i]; i++) {
		if (strcmp(n->str, names[i]) == 0) {
			*out = i;
			return 0;
		}
	}
	close = fd_suggest(n->str, names);
	if (close)
		return fd_err(n, ctx, "'%s' is '%s' (expected %s; did you mean '%s'?)",
			      key_name(key), show(n, s, sizeof(s)), expect, close);
	return fd_err(n, ctx, "'%s' is '%s' (expected %s)", key_name(key),
		      show(n, s, sizeof(s)), expect);
}

/* Index of the field named by key node `k`, or -1. */
static int field_index(const struct fd_field *fields, const struct yn_node *k)
{
	int i;

	for (i = 0; fields[i].type != FD_END; i++) {
		if (strlen(fields[i].key) == k->len &&
		    memcmp(fields[i].key, k->str, k->len) == 0)
			return i;
	}
	return -1;
}

/* Report an unknown key with a suggestion or the list of known keys. */
static int unknown_key(const struct yn_node *k, const struct fd_field *fields,
		       const char *what, const struct fd_ctx *ctx)
{
	const char *names[65];
	char list[LIST_LEN], s[SHOW_LEN];
	const char *close;
	int i;

	for (i = 0; fields[i].type != FD_END && i < 64; i++)
		names[i] = fields[i].key;
	names[i] = NULL;
	close = fd_suggest(k->str, names);
	if (close)
		return fd_err(k, ctx, "unknown key '%s' in %s (did you mean '%s'?)",
			      show(k, s, sizeof(s)), what, close);
	return fd_err(k, ctx, "unknown key '%s' in %s (expected one of: %s)",
		      show(k, s, sizeof(s)), what,
		      join_names(names, list, sizeof(list)));
}

/* Convert one present field; returns 0 or -1 (reported). */
static int parse_field(const struct fd_field *f, const struct yn_node *v,
		       void *target, const struct fd_ctx *ctx)
{
	char *at = (char *)target + f->offset;
	double num;
	int i;

	switch (f->type) {
	case FD_INT:
		if (get_int(v, f->key, f->min, f->max, f->expect, &i, ctx))
			return -1;
		memcpy(at, &i, sizeof(i));
		return 0;
	case FD_NUM:
		if (get_num(v, f->key, f->unit, f->min, f->max, f->expect, &num,
			    ctx))
			return -1;
		memcpy(at, &num, sizeof(num));
		return 0;
	case FD_BOOL:
		if (fd_get_bool(v, f->key, &i, ctx))
			return -1;
		memcpy(at, &i, sizeof(i));
		return 0;
	case FD_STR:
		return fd_get_str(v, f->key, at, f->size, ctx);
	case FD_ENUM:
		if (fd_get_enum(v, f->key, f->names, &i, ctx))
			return -1;
		memcpy(at, &i, sizeof(i));
		return 0;
	case FD_CUSTOM:
		assert(f->parse);
		return f->parse(v, at, ctx) ? -1 : 0;
	case FD_IGNORE:
	case FD_END:
		break;
	}
	return 0;
}

/* Parse a mapping by its field table; see fields.h. */
int fd_parse_map(const struct yn_node *map, const struct fd_field *fields,
		 void *target, const char *what, const struct fd_ctx *ctx,
		 uint64_t *seen)
{
	uint64_t present = 0;
	size_t i;
	int fi, rc = 0;

	assert(map && fields && target && ctx && ctx->d);
	if (!what)
		what = "mapping";
	if (map->type != YN_MAP) {
		fd_type_error(map, what, "a mapping", ctx);
		goto out;
	}
	for (i = 0; i < map->count; i++) {
		fi = field_index(fields, map->keys[i]);
		if (fi < 0) {
			rc = unknown_key(map->keys[i], fields, what, ctx);
			continue;
		}
		assert(fi < 64);
		present |= UINT64_C(1) << fi;
		if (parse_field(&fields[fi], map->items[i], target, ctx) != 0)
			rc = -1;
	}
	for (fi = 0; fields[fi].type != FD_END; fi++) {
		if (fields[fi].required && !(present & (UINT64_C(1) << fi)))
			rc = fd_err(map, ctx, "missing required key '%s' in %s",
				    fields[fi].key, what);
	}
	if (seen)
		*seen = present;
	return rc;
out:
	if (seen)
		*seen = 0;
	return -1;
}

/* ASCII lower case. */
static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Levenshtein distance ignoring ASCII case; -1 if a word exceeds 64 bytes. */
static int edit_distance(const char *a, const char *b)
{
	int prev[65], cur[65];
	size_t la = strlen(a), lb = strlen(b), i, j;
	int sub, best;

	if (la > 64 || lb > 64)
		return -1;
	for (j = 0; j <= lb; j++)
		prev[j] = (int)j;
	for (i = 1; i <= la; i++) {
		cur[0] = (int)i;
		for (j = 1; j <= lb; j++) {
			sub = prev[j - 1] + (lower(a[i - 1]) != lower(b[j - 1]));
			best = prev[j] + 1 < cur[j - 1] + 1 ? prev[j] + 1
							     : cur[j - 1] + 1;
			cur[j] = sub < best ? sub : best;
		}
		memcpy(prev, cur, (lb + 1) * sizeof(int));
	}
	return prev[lb];
}

/* The closest name within max(1, strlen(word) / 3) edits, or NULL. */
const char *fd_suggest(const char *word, const char *const *names)
{
	const char *best = NULL;
	int limit, bestd = INT_MAX, dist, i;

	if (!word || !names)
		return NULL;
	limit = (int)(strlen(word) / 3);
	if (limit < 1)
		limit = 1;
	for (i = 0; names[i]; i++) {
		dist = edit_distance(word, names[i]);
		if (dist >= 0 && dist <= limit && dist < bestd) {
			best = names[i];
			bestd = dist;
		}
	}
	return best;
}

/* True if y-m-d is a date of the Gregorian calendar. */
static int real_date(int y, int m, int d)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	if (y < 1 || m < 1 || m > 12 || d < 1)
		return 0;
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return d <= mdays[m - 1] + (m == 2 && leap);
}

int fd_get_date(const struct yn_node *v, const char *key, char *buf, size_t size,
		const struct fd_ctx *ctx)
{
	static const char pattern[] = "dddd-dd-dd";

	if (v->type != YN_SCALAR)
		return fd_type_error(v, key, "a date such as 2026-11-29", ctx);
	int shape = v->len == sizeof(pattern) - 1 && size > v->len;
	for (size_t i = 0; shape && i < v->len; i++)
		shape = pattern[i] == 'd' ? (v->str[i] >= '0' && v->str[i] <= '9')
					  : v->str[i] == '-';
	if (!shape)
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, v->line, v->col,
				  "%s '%s' is not a date (expected YYYY-MM-DD, e.g. 2026-11-29)",
				  key, v->str);
	int y = atoi(v->str), m = atoi(v->str + 5), d = atoi(v->str + 8);
	if (!real_date(y, m, d))
		return tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, v->line, v->col,
				  "%s '%s' is not a real date (expected YYYY-MM-DD, e.g. 2026-11-29)",
				  key, v->str);
	memcpy(buf, v->str, v->len + 1);
	return 0;
}
