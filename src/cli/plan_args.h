/*
 * plan_args.h - what `estimate` and `explain` share: plan overrides on the
 * command line, loading the workload and its GPU, and running the model with
 * errors pointed at the file position or flag that caused them.
 */
#ifndef TC_CLI_PLAN_ARGS_H
#define TC_CLI_PLAN_ARGS_H

#include "../io/gpu_load.h"
#include "../model/analyses/calibrate.h"
#include "../model/families/estimate.h"
#include "opts.h"

struct plan_args {
	const char *gpu, *count, *gpus_per_node, *tp, *pp, *dp, *ep, *cp, *zero,
		*shard_group, *micro_batch, *interleave, *schedule, *recompute,
		*precision, *network;
	int cuda_graphs, tp_comm_overlap, compile;
	const char *format;
	const char *calibration; /* --calibration FILE */
	const char *framework;   /* --framework ID */
	const char *memory_headroom; /* --memory-headroom F */
	/* the campaign (model/families/campaign.h): replace the workload's */
	const char *operation, *checkpoint_mode, *checkpoint_interval, *storage_write, *restart;
};

/* The help of options several commands take and word alike. */
#define MEMORY_HEADROOM_HELP \
	"share of GPU memory kept free in every fit test (0.1 or 10%; default 0: the " \
	"model's own reserve only)"
#define CALIBRATION_HELP "efficiencies fitted by `traincost calibrate`"
#define NETWORK_SEARCH_HELP \
	"between nodes, for every plan and offer (without it the layouts are searched, " \
	"timed and priced over each network the GPU's offers join instances by, each on " \
	"its offers)"

/* Append the plan overrides, --format, --calibration and --framework bound
 * to *a to *t. */
void plan_args_opts(struct plan_args *a, struct cli_opts *t);

/*
 * --framework ID: the profile's id into plan p, looked up on the data
 * path, as a workload's plan.framework would be.  Returns 0, or an exit
 * code after printing the problem (an unknown id names --framework).
 */
struct plan;
int cli_framework_arg(struct cli_ctx *ctx, const char *id, struct plan *p);

/* The profile of the stack workload w names into *out (fw_stack()), for
 * resolving its GPUs.  Returns 0, or an exit code after printing the
 * problem. */
struct eff_stack;
int cli_stack(struct cli_ctx *ctx, const struct workload *w, struct eff_stack *out);

/*
 * --memory-headroom VAL of `cmd` into *frac: a share of each GPU's memory
 * kept free in every fit test, "10%" or "0.1", 0 to MEM_MAX_HEADROOM_FRAC.
 * NULL leaves *frac alone.  Returns 0, or TC_EXIT_USAGE after printing the
 * problem.
 */
int cli_headroom_arg(struct cli_ctx *ctx, const char *cmd, const char *val, double *frac);

/*
 * Load the GPU catalog and, when `calibration` names a file, read it into
 * *cal (zeroed when none): callers pass its layer, cal_layer(), to
 * gpu_resolve() with each GPU.  Returns 0, or an exit code after printing
 * the problem.
 */
int cli_load_catalog(struct cli_ctx *ctx, const char *calibration,
		     struct gpu_catalog *cat, struct cal_overlay *cal);

/*
 * Load FILE, apply the overrides, find the GPU, read a calibration
 * (written to *cal when given; zeroed otherwise), run step_estimate.  On
 * success returns 0 with *w, *g (resolved for the calibration and the
 * workload's stack: gpu_resolve()), *ws and *est filled (release ws); else
 * prints the problem and returns an exit code.
 */
int plan_args_run(struct cli_ctx *ctx, const char *cmd, const char *file,
		  const struct plan_args *a, struct workload *w, struct gpu *g,
		  struct est_workspace *ws, struct estimate *est,
		  struct cal_overlay *cal);

#endif
