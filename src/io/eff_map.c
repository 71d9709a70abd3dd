/*
 * eff_map.c - the `efficiency:` mapping, keyed by the parameter registry.
 */
#include "eff_map.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int eff_map_parse(const struct yn_node *v, unsigned long long *set, double value[EFF_COUNT],
		  struct roof_eff *text, const struct fd_ctx *ctx)
{
	/* Keys carry their unit (_s seconds, _flop, _bytes), so values are
	 * plain numbers. */
	struct fd_field t[EFF_COUNT + 3];
	struct roof_eff parsed;
	uint64_t seen = 0;

	if (v->type != YN_MAP)
		return fd_type_error(v, "efficiency", "a mapping", ctx);
	memset(t, 0, sizeof(t));
	for (int p = 0; p < EFF_COUNT; p++) {
		t[p].key = eff_params[p].name;
		t[p].type = FD_NUM;
		t[p].offset = eff_params[p].offset;
		t[p].unit = TC_UNIT_COUNT;
		t[p].min = eff_params[p].lo;
		t[p].max = eff_params[p].hi;
	}
	t[EFF_COUNT].key = "source";
	t[EFF_COUNT].type = FD_STR;
	t[EFF_COUNT].offset = offsetof(struct roof_eff, source);
	t[EFF_COUNT].size = sizeof(parsed.source);
	if (text) {
		t[EFF_COUNT + 1].key = "measured_on";
		t[EFF_COUNT + 1].type = FD_STR;
		t[EFF_COUNT + 1].offset = offsetof(struct roof_eff, measured_on);
		t[EFF_COUNT + 1].size = sizeof(parsed.measured_on);
	}
	memset(&parsed, 0, sizeof(parsed));
	int rc = fd_parse_map(v, t, &parsed, "efficiency", ctx, &seen);
	*set = 0;
	for (int p = 0; p < EFF_COUNT; p++)
		if (seen & (UINT64_C(1) << p)) {
			*set |= 1ULL << p;
			value[p] = eff_get(&parsed, p);
		}
	if (text) {
		if (seen & (UINT64_C(1) << EFF_COUNT))
			snprintf(text->source, sizeof(text->source), "%s", parsed.source);
		snprintf(text->measured_on, sizeof(text->measured_on), "%s",
			 parsed.measured_on);
	}
	return rc;
}
