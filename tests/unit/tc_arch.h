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

/* models/arch/<name>.yaml of the frozen catalog through `load` (a vision or
 * recommender architecture loader); fails the test when it does not load. */
#define TC_ARCH_PRESET(load, name, a)                                           \
	do {                                                                    \
		char tc_path_[256];                                             \
		struct tc_diag tc_d_;                                           \
		snprintf(tc_path_, sizeof(tc_path_),                            \
			 TC_TEST_DATA "/models/arch/%s.yaml", (name));          \
		tc_diag_init(&tc_d_);                                           \
		if (load(tc_path_, (a), &tc_d_)) {                              \
			tc_show_diag(&tc_d_);                                   \
			fail_msg("%s does not load", tc_path_);                 \
		}                                                               \
	} while (0)

static inline void tc_vision_preset(const char *name, struct vision_arch *a)
{
	TC_ARCH_PRESET(wl_vision_arch_load_file, name, a);
}

static inline void tc_recsys_preset(const char *name, struct recsys_arch *a)
{
	TC_ARCH_PRESET(wl_recsys_arch_load_file, name, a);
}

#endif
