/*
 * opsink.c - the operator list of an estimate and the sums of its stages.
 */
#include "opsink.h"

#include <stdio.h>
#include <string.h>

void sink_start(struct op_sink *s, struct est_workspace *ws,
		struct op_sums *sums, int merge)
{
	ws->count = 0;
	sink_continue(s, ws, sums, merge);
}

void sink_continue(struct op_sink *s, struct est_workspace *ws,
		   struct op_sums *sums, int merge)
{
	memset(s, 0, sizeof(*s));
	memset(sums, 0, sizeof(*sums));
	s->ws = ws;
	s->sums = sums;
	s->merge = merge;
	s->stage = OPS_LAYER;
	s->count = 1;
	s->mult = 1;
}

/* The text of a name that is not a literal, kept in `text`, a row's slot
 * of the workspace's names; a longer name is cut: it only labels a report
 * row. */
static const char *kept_name(char *text, const char *name)
{
	size_t n = strnlen(name, EST_OP_NAME_LEN - 1);

	memcpy(text, name, n);
	text[n] = '\0';
	return text;
}

/* Row o, its name `name` or, where `text` is not NULL, a copy of it kept
 * there. */
static void fill(struct op *o, char *text, const char *name, enum brk cat,
		 const struct op_cost *c, double count, enum op_stage stage)
{
	sink_fill(o, text ? kept_name(text, name) : name, cat, c, count,
		  stage);
}

static inline __attribute__((always_inline)) struct op *
row(struct op_sink *s, const char *name, enum brk cat, const struct op_cost *c,
    double count);

/*
 * The row of an operator that a sink which renames or merges its rows
 * lists (a prefixed sink's "layer." rows take the prefix in place of
 * "layer.", the rows named as prefix_also says take it in front, a longer
 * name cut: it only labels a report row; a merging sink adds a repeat to
 * the row of the same stage, cost and name).  Apart from row(), so that the
 * common path pays for neither the buffer nor the search.
 */
static __attribute__((noinline)) struct op *
row_special(struct op_sink *s, const char *name, enum brk cat,
	    const struct op_cost *c, double count)
{
	struct est_workspace *ws = s->ws;
	char renamed[EST_OP_NAME_LEN];
	struct op_sink plain = *s;

	if (s->prefix && !strncmp(name, "layer.", 6)) {
		snprintf(renamed, sizeof(renamed), "%.8s.%.30s", s->prefix,
			 name + 6);
		name = renamed;
		plain.literal_names = 0;
	} else if (s->prefix && s->prefix_also &&
		   !strncmp(name, s->prefix_also, strlen(s->prefix_also))) {
		snprintf(renamed, sizeof(renamed), "%.8s.%.30s", s->prefix, name);
		name = renamed;
		plain.literal_names = 0;
	}
	if (s->merge)
		for (size_t i = 0; i < ws->count && i + 1 < ws->cap; i++) {
			struct op *o = &ws->ops[i];
			if (o->stage == s->stage && o->flop == c->flop &&
			    o->bytes == c->bytes && !strcmp(o->name, name)) {
				o->count += count;
				return o;
			}
		}
	plain.prefix = NULL;
	plain.merge = 0;
	return row(&plain, name, cat, c, count);
}

/* The row of an operator executed `count` times per step: sink_list(), and
 * sink_put() where its inline path does not fill the next slot. */
static inline __attribute__((always_inline)) struct op *
row(struct op_sink *s, const char *name, enum brk cat, const struct op_cost *c,
    double count)
{
	struct est_workspace *ws = s->ws;
	struct op *o;

	if (s->prefix || s->merge)
		return row_special(s, name, cat, c, count);
	if (ws->count + 1 < ws->cap) {
		size_t slot = ws->count++;
		o = &ws->ops[slot];
		fill(o, s->literal_names ? NULL : ws->names[slot], name, cat, c,
		     count, s->stage);
		return o;
	}
	if (ws->cap == 0)
		return NULL;
	/* The last slot: everything that did not fit, as one execution. */
	o = &ws->ops[ws->cap - 1];
	if (ws->count < ws->cap) {
		static const struct op_cost none = { 0, 0, 0, 0, PREC_FP32,
						     BOUND_MEMORY };
		ws->count = ws->cap;
		fill(o, NULL, SINK_OVERFLOW_NAME, BRK_MEMBOUND, &none, 1,
		     s->stage);
	}
	o->flop += c->flop * count;
	o->bytes += c->bytes * count;
	o->time_s += c->time_s * count;
	o->launch_s += c->launch_s * count;
	return o;
}

struct op *sink_list(struct op_sink *s, const char *name, enum brk cat,
		     const struct op_cost *c, double count)
{
	return row(s, name, cat, c, count);
}
