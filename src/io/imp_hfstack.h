/*
 * imp_hfstack.h - the configs of the Hugging Face-based stacks read into
 * workload keys, for `traincost import` (imp_common.h): an llm-foundry
 * YAML, an Axolotl YAML and a DeepSpeed JSON.
 */
#ifndef TC_IMP_HFSTACK_H
#define TC_IMP_HFSTACK_H

#include "../util/diag.h"
#include "imp.h"
#include "yaml_node.h"

/* Each fills r from its config and returns 0, or -1 with messages in d. */
int imp_foundry_read(const struct yn_doc *doc, struct imp_result *r, struct tc_diag *d);
int imp_axolotl_read(const struct yn_doc *doc, struct imp_result *r, struct tc_diag *d);
int imp_deepspeed_read(const struct yn_doc *doc, struct imp_result *r, struct tc_diag *d);

#endif
