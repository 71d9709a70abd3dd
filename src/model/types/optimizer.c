/*
 * optimizer.c - the names and state of the optimizers, from the rows of
 * optimizer.h.
 */
#include "optimizer.h"

#include <stddef.h>

struct opt_def {
	double state_bytes, table_state_bytes;
	unsigned families;
};

const char *const opt_names[OPT_COUNT + 1] = {
#define OPT_NAME(id, name, ...) name,
	OPTIMIZERS(OPT_NAME)
#undef OPT_NAME
	NULL,
};

static const struct opt_def opt_defs[OPT_COUNT] = {
#define OPT_DEF(id, name, state, table, fams, source) \
	[OPT_##id] = { .state_bytes = state, .table_state_bytes = table, .families = fams },
	OPTIMIZERS(OPT_DEF)
#undef OPT_DEF
};

/* The row of o; an out-of-range value (a struct built in code) reads as
 * AdamW, the default of every loader that accepts it. */
static const struct opt_def *def_of(enum optimizer o)
{
	return &opt_defs[(unsigned)o < OPT_COUNT ? o : OPT_ADAMW];
}

double opt_state_bytes(enum optimizer o)
{
	return def_of(o)->state_bytes;
}

double opt_table_state_bytes(enum optimizer o)
{
	return def_of(o)->table_state_bytes;
}

const char *opt_name(enum optimizer o)
{
	return (unsigned)o < OPT_COUNT ? opt_names[o] : "optimizer";
}

int opt_names_of_family(int kind, const char *names[OPT_COUNT + 1],
			enum optimizer ids[OPT_COUNT])
{
	int n = 0;

	for (int o = 0; o < OPT_COUNT; o++)
		if (opt_defs[o].families & 1u << kind) {
			names[n] = opt_names[o];
			ids[n++] = (enum optimizer)o;
		}
	names[n] = NULL;
	return n;
}
