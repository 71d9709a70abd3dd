/*
 * sweep_axis.c - the axes of a sweep file: the dotted paths of vary: and
 * zip:, their value lists and ranges ({from, to, times} or {from, to,
 * step}), and the count of configurations before any range is expanded
 * (sweep_axis.h; format in docs/sweep-and-plan.md).
 */
#include "sweep_axis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"

char *sweep_dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}

/* Error at node n of the sweep file. */
int sweep_err_at(struct tc_diag *d, const char *file, int line, int col,
		 const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tc_diag_vat(d, TC_EXIT_INPUT, file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

/* Printable form of a value node: the scalar, or a flow rendering. */
static void node_text(const struct yn_node *n, char *buf, size_t size)
{
	size_t used = 0;
	if (n->type == YN_SCALAR) {
		snprintf(buf, size, "%s", n->str);
		return;
	}
	used = (size_t)snprintf(buf, size, "%c", n->type == YN_MAP ? '{' : '[');
	for (size_t i = 0; i < n->count && used < size; i++) {
		char item[256];
		node_text(n->items[i], item, sizeof(item));
		if (n->keys)
			used += (size_t)snprintf(buf + used, size - used, "%s%s: %s",
						 i ? ", " : "", n->keys[i]->str, item);
		else
			used += (size_t)snprintf(buf + used, size - used, "%s%s",
						 i ? ", " : "", item);
	}
	if (used < size)
		snprintf(buf + used, size - used, "%c", n->type == YN_MAP ? '}' : ']');
}

/* Add value v (copied) to key k, growing its arrays geometrically.  0 or
 * -1 (out of memory). */
static int key_add_value(struct sweep_key *k, const struct yn_node *v)
{
	char text[512];
	if (k->count == k->cap) {
		size_t ncap = k->cap ? 2 * k->cap : 16;
		struct yn_node **nv = realloc(k->values, ncap * sizeof(*nv));
		if (!nv)
			return -1;
		k->values = nv;
		char **nt = realloc(k->text, ncap * sizeof(*nt));
		if (!nt)
			return -1;
		k->text = nt;
		k->cap = ncap;
	}
	node_text(v, text, sizeof(text));
	k->values[k->count] = yn_node_copy(v);
	k->text[k->count] = sweep_dup_str(text);
	if (!k->values[k->count] || !k->text[k->count]) {
		yn_node_free(k->values[k->count]);
		free(k->text[k->count]);
		return -1;
	}
	k->count++;
	return 0;
}

/* A range as written: {from, to, times} (geometric) or {from, to, step}. */
struct range {
	double from, to, times, step;
	int geometric;
};

/* Value i of range r. */
static double range_value(const struct range *r, size_t i)
{
	return r->geometric ? r->from * pow(r->times, (double)i) : r->from + r->step * (double)i;
}

/* Read range m into *r and count its values into *n, without making
 * them.  0, or -1 with a message at the range. */
static int range_read(const struct sweep *sw, const struct yn_node *m, struct range *r,
		      size_t *n, struct tc_diag *d)
{
	struct fd_ctx ctx = { sw->file, d };
	struct rng { double from, to, times, step; } v = { 0, 0, 0, 0 };
	static const struct fd_field t[] = {
		{ .key = "from", .type = FD_NUM, .required = 1, .offset = offsetof(struct rng, from),
		  .unit = TC_UNIT_COUNT, .min = -1e15, .max = 1e15 },
		{ .key = "to", .type = FD_NUM, .required = 1, .offset = offsetof(struct rng, to),
		  .unit = TC_UNIT_COUNT, .min = -1e15, .max = 1e15 },
		{ .key = "times", .type = FD_NUM, .offset = offsetof(struct rng, times),
		  .unit = TC_UNIT_COUNT, .min = 1.000001, .max = 1e6 },
		{ .key = "step", .type = FD_NUM, .offset = offsetof(struct rng, step),
		  .unit = TC_UNIT_COUNT, .min = 1e-12, .max = 1e15 },
		{ 0 },
	};
	uint64_t seen = 0;
	if (fd_parse_map(m, t, &v, "range", &ctx, &seen))
		return -1;
	int has_times = (seen >> 2) & 1, has_step = (seen >> 3) & 1;
	if (has_times == has_step)
		return sweep_err_at(d, sw->file, m->line, m->col,
				    "range needs exactly one of times and step (expected {from: 8, to: 512, times: 2} or {from: 1, to: 8, step: 1})");
	if (v.to < v.from)
		return sweep_err_at(d, sw->file, m->line, m->col,
				    "range goes from %g down to %g (expected to >= from)", v.from, v.to);
	if (has_times && !(v.from > 0))
		return sweep_err_at(d, sw->file, m->line, m->col,
				    "range with times starts at %g (expected from > 0)", v.from);
	*r = (struct range){ v.from, v.to, v.times, v.step, has_times };
	/* The number of values from the description alone, then made exact:
	 * value i is in the range while it is at most `to` (plus rounding). */
	double lim = v.to * (1 + 1e-12);
	double span = has_times ? log(v.to / v.from) / log(v.times) : (v.to - v.from) / v.step;
	double count = floor(span) + 1;
	if (count <= SWEEP_MAX_VALUES + 2.0) {
		size_t c = (size_t)count;
		while (c > 1 && range_value(r, c - 1) > lim)
			c--;
		while (range_value(r, c) <= lim && c <= SWEEP_MAX_VALUES)
			c++;
		count = (double)c;
	}
	if (count > SWEEP_MAX_VALUES)
		return sweep_err_at(d, sw->file, m->line, m->col,
				    "range has more than %d values (expected fewer)", SWEEP_MAX_VALUES);
	*n = (size_t)count;
	return 0;
}

/* Add the values of range m to key k.  0 or -1. */
static int read_range(struct sweep *sw, struct sweep_key *k,
		      const struct yn_node *m, struct tc_diag *d)
{
	struct range r;
	size_t n;
	if (range_read(sw, m, &r, &n, d))
		return -1;
	for (size_t i = 0; i < n; i++) {
		double v = range_value(&r, i);
		char buf[64];
		if (fabs(v - nearbyint(v)) < 1e-9 * fmax(1, fabs(v)))
			snprintf(buf, sizeof(buf), "%.0f", nearbyint(v));
		else
			snprintf(buf, sizeof(buf), "%.12g", v);
		struct yn_node *node = yn_scalar_new(buf, YN_PLAIN, m->line, m->col);
		if (!node || key_add_value(k, node)) {
			yn_node_free(node);
			return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
		}
		yn_node_free(node);
	}
	return 0;
}

/*
 * The number of configurations vary: and zip: describe, from the lists'
 * lengths and the ranges' descriptions, before any value is made: a sweep
 * of 1e60 configurations is refused without expanding its ranges.  0, or
 * -1 with a message (a bad range, or too many configurations).
 */
int sweep_count_rows(const struct sweep *sw, const struct yn_node *root,
		     const struct yn_node *vary, const struct yn_node *zip, struct tc_diag *d)
{
	double rows = 1;
	size_t ngroups = zip && zip->type == YN_SEQ ? zip->count : 0;
	for (size_t g = 0; g <= ngroups; g++) {
		/* g == 0: each key of vary is a dimension; else zip group g - 1
		 * is one dimension as long as its first list. */
		const struct yn_node *m = g == 0 ? vary : zip->items[g - 1];
		if (!m || m->type != YN_MAP)
			continue;
		for (size_t i = 0; i < m->count && (g == 0 || i == 0); i++) {
			const struct yn_node *v = m->items[i];
			struct range r;
			size_t n = 1;
			if (v->type == YN_SEQ)
				n = v->count;
			else if (v->type == YN_MAP && range_read(sw, v, &r, &n, d))
				return -1;
			rows *= (double)n;
		}
	}
	if (rows > SWEEP_MAX_ROWS)
		return sweep_err_at(d, sw->file, root->line, root->col,
				    "the sweep has %.3g configurations (expected at most %.0e)", rows,
				    SWEEP_MAX_ROWS);
	return 0;
}

/* Set up key k for dotted path `knode` with values `vnode`.  0 or -1. */
int sweep_read_key(struct sweep *sw, const struct yn_node *knode,
		   const struct yn_node *vnode, int dim, struct tc_diag *d)
{
	if (sw->nkeys == SWEEP_MAX_KEYS)
		return sweep_err_at(d, sw->file, knode->line, knode->col,
				    "more than %d varied keys (expected at most %d)",
				    SWEEP_MAX_KEYS, SWEEP_MAX_KEYS);
	struct sweep_key *k = &sw->key[sw->nkeys];
	memset(k, 0, sizeof(*k));
	k->line = knode->line;
	k->col = knode->col;
	k->dim = dim;
	k->field = -1;
	if (knode->len >= SWEEP_PATH_LEN)
		return sweep_err_at(d, sw->file, k->line, k->col,
				    "path is too long (expected at most %d characters)", SWEEP_PATH_LEN - 1);
	for (int i = 0; i < sw->nkeys; i++)
		if (!strcmp(sw->key[i].path, knode->str))
			return sweep_err_at(d, sw->file, k->line, k->col,
					    "path '%s' is varied twice (expected each path once)", knode->str);
	memcpy(k->path, knode->str, knode->len + 1);
	memcpy(k->segbuf, knode->str, knode->len + 1);
	char *p = k->segbuf;
	for (;;) {
		if (k->nseg == SWEEP_MAX_SEGS)
			return sweep_err_at(d, sw->file, k->line, k->col,
					    "path '%s' has too many parts (expected at most %d)", k->path, SWEEP_MAX_SEGS);
		k->seg[k->nseg++] = p;
		char *dot = strchr(p, '.');
		if (!dot)
			break;
		*dot = '\0';
		p = dot + 1;
	}
	for (int i = 0; i < k->nseg; i++)
		if (!k->seg[i][0])
			return sweep_err_at(d, sw->file, k->line, k->col,
					    "path '%s' has an empty part (expected names joined by '.', as in plan.count)",
					    k->path);
	if (!strcmp(k->seg[0], "pricing")) {
		if (k->nseg == 2 && !strcmp(k->seg[1], "kind"))
			k->target = SWT_PRICING_KIND;
		else if (k->nseg == 2 && !strcmp(k->seg[1], "provider"))
			k->target = SWT_PRICING_PROVIDER;
		else
			return sweep_err_at(d, sw->file, k->line, k->col,
					    "unknown path '%s' (expected pricing.kind or pricing.provider)", k->path);
	}
	sw->nkeys++;
	if (vnode->type == YN_SEQ) {
		if (!vnode->count)
			return sweep_err_at(d, sw->file, vnode->line, vnode->col,
					    "'%s' has an empty list (expected at least one value)", k->path);
		if (vnode->count > SWEEP_MAX_VALUES)
			return sweep_err_at(d, sw->file, vnode->line, vnode->col,
					    "'%s' has more than %d values", k->path, SWEEP_MAX_VALUES);
		for (size_t i = 0; i < vnode->count; i++)
			if (key_add_value(k, vnode->items[i]))
				return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
	} else if (vnode->type == YN_MAP) {
		if (read_range(sw, k, vnode, d))
			return -1;
	} else {
		return sweep_err_at(d, sw->file, vnode->line, vnode->col,
				    "'%s' is %s (expected a list of values or a range {from, to, times})",
				    k->path, yn_type_name(vnode));
	}
	/* Pricing values are checked here; workload values by probes. */
	for (size_t i = 0; i < k->count && k->target != SWT_WORKLOAD; i++) {
		const struct yn_node *v = k->values[i];
		if (v->type != YN_SCALAR || !v->len)
			return sweep_err_at(d, sw->file, v->line, v->col,
					    "'%s' value is %s (expected a name)", k->path, yn_type_name(v));
		if (k->target == SWT_PRICING_KIND && cost_kind_parse(v->str) < 0)
			return sweep_err_at(d, sw->file, v->line, v->col,
					    "pricing kind '%s' is not known (expected on-demand or spot)",
					    v->str);
		if (k->target == SWT_PRICING_PROVIDER && v->len >= PRICE_ID_LEN)
			return sweep_err_at(d, sw->file, v->line, v->col, "provider name is too long");
	}
	return 0;
}
