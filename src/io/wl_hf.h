/*
 * wl_hf.h - a Hugging Face config.json read as a language-model
 * architecture (wl_hf.c)
 */
#ifndef TC_WL_HF_H
#define TC_WL_HF_H

#include "../model/types/workload.h"
#include "../util/diag.h"
#include "datapath.h"
#include "yaml_node.h"

/* Load a Hugging Face config.json (read as YAML).  Returns 0 or -1. */
int arch_load_hf_config(const char *path, struct llm_arch *out,
			struct tc_diag *d);

#endif
