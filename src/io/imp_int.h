/*
 * imp_int.h - the reader of each kind of config `traincost import` reads,
 * which imp_common.c chooses among, and the helpers they share
 * (imp_util.h).  Internal to src/io/imp_*.c.
 */
#ifndef TC_IMP_INT_H
#define TC_IMP_INT_H

#include "imp.h"
#include "imp_util.h"
#include "yaml_node.h"

/* The readers, one a kind.  Each fills r from its config and returns 0,
 * or -1 with messages in d. */
int imp_megatron_read(const char *text, size_t len, struct imp_result *r,
		      struct tc_diag *d);
int imp_nemo_read(const struct yn_doc *doc, struct imp_result *r, struct tc_diag *d);
int imp_bridge_read(const struct yn_doc *doc, struct imp_result *r, struct tc_diag *d);
int imp_foundry_read(const struct yn_doc *doc, struct imp_result *r, struct tc_diag *d);
int imp_axolotl_read(const struct yn_doc *doc, struct imp_result *r, struct tc_diag *d);
int imp_deepspeed_read(const struct yn_doc *doc, struct imp_result *r, struct tc_diag *d);

#endif
