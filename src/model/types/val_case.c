/*
 * val_case.c - the names of the measured quantities, of the ways a figure
 * averages its run and of where its layout comes from, and the list of
 * measured runs (val_case.h).
 */
#include "val_case.h"

#include <stdlib.h>

const char *const val_metric_names[VAL_METRIC_COUNT] = {
	"iter_time_s", "megatron_flop_per_s_per_gpu", "mfu", "tokens_per_s",
	"samples_per_s", "images_per_s",
};

const char *const val_mean_names[VAL_MEAN_COUNT + 1] = { "time", "rate", NULL };

const char *const val_layout_names[VAL_LAYOUT_COUNT + 1] = { "stated", "fastest", NULL };

void val_set_init(struct val_set *s)
{
	s->cases = NULL;
	s->count = s->cap = 0;
}

int val_set_add(struct val_set *s, const struct val_case *c)
{
	if (s->count == s->cap) {
		size_t ncap = s->cap ? 2 * s->cap : 64;
		struct val_case *p = realloc(s->cases, ncap * sizeof(*p));
		if (!p)
			return -1;
		s->cases = p;
		s->cap = ncap;
	}
	s->cases[s->count++] = *c;
	return 0;
}

void val_set_release(struct val_set *s)
{
	if (!s)
		return;
	free(s->cases);
	val_set_init(s);
}
