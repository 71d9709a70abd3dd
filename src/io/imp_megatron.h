/*
 * imp_megatron.h - a Megatron-LM / Megatron-DeepSpeed argument list (a
 * launch script, or the arguments after `--`) read into workload keys, for
 * `traincost import` (imp_common.h).
 */
#ifndef TC_IMP_MEGATRON_H
#define TC_IMP_MEGATRON_H

#include <stddef.h>

#include "../util/diag.h"
#include "imp.h"

/* Fill r from the argument list `text` (`len` bytes) and return 0, or -1
 * with messages in d. */
int imp_megatron_read(const char *text, size_t len, struct imp_result *r,
		      struct tc_diag *d);

#endif
