/*
 * imp_nemo.h - a NeMo 1.x recipe or a Megatron-Bridge recipe (its
 * ConfigContainer written to YAML) read into workload keys, for
 * `traincost import` (imp_common.h).
 */
#ifndef TC_IMP_NEMO_H
#define TC_IMP_NEMO_H

#include "../util/diag.h"
#include "imp.h"
#include "yaml_node.h"

/* Each fills r from its config and returns 0, or -1 with messages in d. */
int imp_nemo_read(const struct yn_doc *doc, struct imp_result *r, struct tc_diag *d);
int imp_bridge_read(const struct yn_doc *doc, struct imp_result *r, struct tc_diag *d);

#endif
