/*
 * imp.h - the types of `traincost import` (docs/import.md), which reads
 * training configurations of other tools into a workload file:
 * Megatron-LM argument lists, NeMo 1.x recipe YAML, llm-foundry YAML,
 * Axolotl YAML and DeepSpeed JSON with a Hugging Face config.json.
 *
 * A config becomes a list of workload keys, each with the text it is
 * written as and a note saying where it came from (the config's key and
 * line) or why the tool chose it.  imp_write() (imp_common.h) prints that
 * list as a commented workload file; the CLI loads what was printed with
 * the workload loader before it keeps it.  The types are shared by the
 * command (imp_common.c), each kind's reader (imp_megatron.c, imp_nemo.c,
 * imp_hfstack.c) and their helpers (imp_util.c), so no one of them owns
 * them.
 */
#ifndef TC_IMP_H
#define TC_IMP_H

#include "../model/types/workload.h"

enum imp_kind {
	IMP_AUTO, IMP_MEGATRON, IMP_NEMO, IMP_FOUNDRY, IMP_AXOLOTL, IMP_DEEPSPEED,
	IMP_BRIDGE, IMP_KIND_COUNT
};

enum imp_sec { IMP_MODEL, IMP_TRAINING, IMP_PLAN, IMP_SEC_COUNT };

#define IMP_KEY_LEN 24
#define IMP_TEXT_LEN 64
#define IMP_NOTE_LEN 200
#define IMP_MAX_VALUES 64
#define IMP_MAX_WARN 12
#define IMP_WARN_LEN 400
#define IMP_PATH_LEN 512

struct imp_value {
	enum imp_sec sec;
	char key[IMP_KEY_LEN];    /* the workload key */
	char text[IMP_TEXT_LEN];  /* its value as written; "" = left for the user */
	char note[IMP_NOTE_LEN];  /* "from --num-layers" or "chosen: ..." */
	int line, col;            /* in the config; 0 = not from it */
};

/* What the command line adds to the config (NULL / 0 = not given). */
struct imp_options {
	enum imp_kind kind;       /* IMP_AUTO: recognised from the content */
	const char *hf_config;    /* a Hugging Face config.json: the model */
	const char *preset;       /* or a preset of models/arch */
	const char *gpu;          /* plan.gpu */
	int count;                /* plan.count */
	double tokens;            /* training.tokens */
	int seq_len;              /* training.seq_len (a DeepSpeed JSON has none) */
	const char *framework;    /* plan.framework over the kind's */
	const char *name;         /* the workload's name */
};

struct imp_result {
	enum imp_kind kind;
	char file[IMP_PATH_LEN];           /* the config as named */
	char name[WL_NAME_LEN];
	struct imp_value v[IMP_MAX_VALUES];
	int n;
	char warning[IMP_MAX_WARN][IMP_WARN_LEN];
	int nwarn;
	int incomplete;                    /* a required key is left for the user */
	/* A config that states the batch per GPU: global batch = micro x
	 * accum x the GPUs, once the count is known (0 = not so). */
	long batch_micro, batch_accum;
	const char *batch_what;            /* the config's keys, static */
};

#endif
