/*
 * tc_arch.h - architecture presets of the frozen catalog, for the vision
 * and recommender suites (include after tc_test.h).
 */
#ifndef TC_ARCH_H
#define TC_ARCH_H

#include "../../src/io/wl_load.h"

/* Print every diagnostic, so a failing load says why. */
static inline void tc_show_diag(const struct tc_diag *d)
{
	for (int i = 0; i < d->count; i++)
		print_message("%s\n", d->entry[i].msg);
}

/* models/arch/<name>.yaml of the frozen catalog; fails the test when it
 * does not load. */
static inline void tc_vision_preset(const char *name, struct vision_arch *a)
{
	char path[256];
	struct tc_diag d;
	snprintf(path, sizeof(path), TC_TEST_DATA "/models/arch/%s.yaml", name);
	tc_diag_init(&d);
	if (wl_vision_arch_load_file(path, a, &d)) {
		tc_show_diag(&d);
		fail_msg("%s does not load", path);
	}
}

static inline void tc_recsys_preset(const char *name, struct recsys_arch *a)
{
	char path[256];
	struct tc_diag d;
	snprintf(path, sizeof(path), TC_TEST_DATA "/models/arch/%s.yaml", name);
	tc_diag_init(&d);
	if (wl_recsys_arch_load_file(path, a, &d)) {
		tc_show_diag(&d);
		fail_msg("%s does not load", path);
	}
}

#endif
