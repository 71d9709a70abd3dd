/*
 * plan_args.c - shared plan overrides and estimate running (plan_args.h).
 */
#include "plan_args.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../io/calib_file.h"
#include "../io/fw_load.h"
#include "../io/gpu_load.h"
#include "../io/wl_load.h"
#include "../model/core/mem_reserve.h"
#include "../model/core/schedule.h"
#include "../util/units.h"

static const char *const formats[] = { "table", "json", "csv", "md", NULL };

void plan_args_opts(struct plan_args *a, struct cli_opts *t)
{
	const struct cli_opt rows[] = {
		CLI_VALUE("gpu", &a->gpu, "ID", "catalog GPU id (see `traincost gpus`), MIG: ID:PROFILE"),
		CLI_VALUE("count", &a->count, "N", "GPUs in total"),
		CLI_VALUE("gpus-per-node", &a->gpus_per_node, "N", "GPUs per server"),
		CLI_VALUE("tp", &a->tp, "N", "tensor-parallel size"),
		CLI_VALUE("pp", &a->pp, "N", "pipeline-parallel size"),
		CLI_VALUE("dp", &a->dp, "N", "data-parallel size"),
		CLI_VALUE("ep", &a->ep, "N", "expert-parallel size"),
		CLI_VALUE("cp", &a->cp, "N", "context parallel: GPUs splitting each sequence"),
		CLI_VALUE("zero", &a->zero, "N", "ZeRO stage 0..3"),
		CLI_VALUE("shard-group", &a->shard_group, "N",
			  "ZeRO shards inside groups of N data-parallel ranks"),
		CLI_VALUE("micro-batch", &a->micro_batch, "N", "sequences per micro-batch"),
		CLI_VALUE("interleave", &a->interleave, "N", "virtual pipeline stages per GPU"),
		CLI_CHOICE("schedule", &a->schedule, sched_names + 1, "S", "pipeline schedule"),
		CLI_CHOICE("recompute", &a->recompute, recompute_names, "R", "activation recomputation"),
		CLI_CHOICE("precision", &a->precision, tc_llm_train_prec_names, "P", "training precision"),
		CLI_CHOICE("network", &a->network, net_names, "NAME",
			   "between nodes, for the plan and every offer (without it each offer "
			   "of several instances is timed over its own)"),
		CLI_FLAG("cuda-graphs", &a->cuda_graphs, "launch kernels through CUDA graphs"),
		CLI_FLAG("tp-comm-overlap", &a->tp_comm_overlap,
			 "tensor-parallel collectives under the GEMMs"),
		CLI_FLAG("compile", &a->compile,
			 "the model runs under torch.compile (fused element-wise chains)"),
		CLI_VALUE("memory-headroom", &a->memory_headroom, "F", MEMORY_HEADROOM_HELP),
		CLI_VALUE("calibration", &a->calibration, "FILE", CALIBRATION_HELP),
		CLI_VALUE("framework", &a->framework, "ID",
			  "software-stack profile (see `traincost frameworks`; default: the file's)"),
		CLI_CHOICE("format", &a->format, formats, "F", "output format"),
	};
	const struct cli_opt campaign[] = {
		CLI_CHOICE("operation", &a->operation, camp_operation_names, "O",
			   "how restarts are made (default: the workload's, else automated)"),
		CLI_CHOICE("checkpoint-mode", &a->checkpoint_mode, camp_checkpoint_names, "M",
			   "how checkpoints are written (default: the workload's, else async)"),
		CLI_VALUE("checkpoint-interval", &a->checkpoint_interval, "D",
			  "between checkpoints (default: Young's interval)"),
		CLI_VALUE("restart", &a->restart, "D",
			  "from an interruption (a spot preemption too) to training again "
			  "(default: the operation's)"),
		CLI_VALUE("storage-write", &a->storage_write, "R",
			  "checkpoint storage bandwidth, such as 100GB/s"),
	};
	CLI_OPTS_ADD_GROUP(t, "Plan overrides (they replace the file's plan: values):", rows);
	CLI_OPTS_ADD_GROUP(t, "Campaign (the wall clock around the steady state; docs/model.md, "
			   "section 9; each replaces the workload's campaign: key):", campaign);
}

int cli_framework_arg(struct cli_ctx *ctx, const char *id, struct plan *p)
{
	struct tc_diag d;
	struct eff_stack stack;
	tc_diag_init(&d);
	if (fw_resolve_id(&ctx->data, "--framework", id, &stack, &d))
		return cli_report(ctx, &d);
	snprintf(p->framework, sizeof(p->framework), "%s", stack.id);
	return 0;
}

int cli_stack(struct cli_ctx *ctx, const struct workload *w, struct eff_stack *out)
{
	struct tc_diag d;
	tc_diag_init(&d);
	return fw_stack(&ctx->data, w->plan.framework, out, &d) ? cli_report(ctx, &d) : 0;
}

int cli_headroom_arg(struct cli_ctx *ctx, const char *cmd, const char *val, double *frac)
{
	char *end;
	if (!val)
		return 0;
	double v = strtod(val, &end);
	if (end != val && !strcmp(end, "%"))
		v /= 100;
	else if (end == val || *end)
		v = -1;
	if (!isfinite(v) || v < 0 || v > MEM_MAX_HEADROOM_FRAC)
		return cli_usage_error(ctx, cmd, "--memory-headroom '%s' is not valid (expected a share of GPU memory from 0 to %g, such as 0.1 or 10%%)",
				       val, MEM_MAX_HEADROOM_FRAC);
	*frac = v;
	return 0;
}

/* The flag that set a field, for messages about command-line values. */
static const char *const field_flag[WLF_FIELD_COUNT] = {
	[WLF_GPU] = "--gpu", [WLF_COUNT] = "--count",
	[WLF_GPUS_PER_NODE] = "--gpus-per-node", [WLF_TP] = "--tp",
	[WLF_PP] = "--pp", [WLF_DP] = "--dp", [WLF_EP] = "--ep",
	[WLF_ZERO] = "--zero", [WLF_MICRO_BATCH] = "--micro-batch",
	[WLF_INTERLEAVE] = "--interleave", [WLF_RECOMPUTE] = "--recompute",
	[WLF_PRECISION] = "--precision", [WLF_CP] = "--cp",
	[WLF_SHARD_GROUP] = "--shard-group", [WLF_SCHEDULE] = "--schedule",
	[WLF_CAMPAIGN_INTERVAL] = "--checkpoint-interval", [WLF_CAMPAIGN_RESTART] = "--restart",
};

/* Apply one integer override; marks the field as coming from the flag. */
static int override_int(struct cli_ctx *ctx, const char *cmd, const char *val,
			const char *opt, long min, long max, int *field,
			struct workload *w, enum wl_field f)
{
	if (!val)
		return 0;
	if (cli_int_arg(ctx, cmd, opt, val, min, max, field))
		return TC_EXIT_USAGE;
	w->mark[f] = (struct tc_mark){ 0, 0 };
	return 0;
}

static int index_of(const char *const *names, const char *s)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

/*
 * The overrides each family's plan uses (docs/workload-format.md).  A flag
 * outside its family would be silently ignored, so it is refused instead.
 */
#define FAM_LLM (1u << WL_LLM)
#define FAM_VISION (1u << WL_VISION)
#define FAM_ALL (FAM_LLM | FAM_VISION | (1u << WL_RECSYS))

static const struct override_use {
	const char *flag;
	size_t offset;     /* of the option's value in struct plan_args */
	int is_switch;     /* an int set by the flag, not a string value */
	unsigned families; /* bit (1 << enum wl_kind) per family using it */
} override_uses[] = {
	{ "--gpu", offsetof(struct plan_args, gpu), 0, FAM_ALL },
	{ "--count", offsetof(struct plan_args, count), 0, FAM_ALL },
	{ "--gpus-per-node", offsetof(struct plan_args, gpus_per_node), 0, FAM_ALL },
	{ "--tp", offsetof(struct plan_args, tp), 0, FAM_LLM },
	{ "--pp", offsetof(struct plan_args, pp), 0, FAM_LLM },
	{ "--dp", offsetof(struct plan_args, dp), 0, FAM_LLM },
	{ "--ep", offsetof(struct plan_args, ep), 0, FAM_LLM },
	{ "--cp", offsetof(struct plan_args, cp), 0, FAM_LLM },
	{ "--zero", offsetof(struct plan_args, zero), 0, FAM_LLM },
	{ "--shard-group", offsetof(struct plan_args, shard_group), 0, FAM_LLM },
	{ "--micro-batch", offsetof(struct plan_args, micro_batch), 0, FAM_LLM | FAM_VISION },
	{ "--interleave", offsetof(struct plan_args, interleave), 0, FAM_LLM },
	{ "--schedule", offsetof(struct plan_args, schedule), 0, FAM_LLM },
	{ "--recompute", offsetof(struct plan_args, recompute), 0, FAM_LLM },
	{ "--precision", offsetof(struct plan_args, precision), 0, FAM_ALL },
	{ "--network", offsetof(struct plan_args, network), 0, FAM_ALL },
	{ "--tp-comm-overlap", offsetof(struct plan_args, tp_comm_overlap), 1, FAM_LLM },
	{ "--compile", offsetof(struct plan_args, compile), 1, FAM_LLM },
	{ "--cuda-graphs", offsetof(struct plan_args, cuda_graphs), 1, FAM_ALL },
};

/* TC_EXIT_USAGE, after saying so, if an override does not apply to w's family. */
static int check_overrides_apply(struct cli_ctx *ctx, const char *cmd,
				 const struct plan_args *a, const struct workload *w)
{
	static const char *const family[] = { [WL_LLM] = "an LLM", [WL_VISION] = "a vision",
					      [WL_RECSYS] = "a recommender" };
	const size_t n = sizeof(override_uses) / sizeof(override_uses[0]);
	unsigned mine = 1u << w->kind;
	for (size_t i = 0; i < n; i++) {
		const struct override_use *u = &override_uses[i];
		const char *at = (const char *)a + u->offset;
		int given = u->is_switch ? *(const int *)at : *(const char *const *)at != NULL;
		if (!given || u->families & mine)
			continue;
		char list[256] = "";
		size_t used = 0;
		for (size_t k = 0; k < n && used < sizeof(list); k++)
			if (override_uses[k].families & mine)
				used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
							 used ? ", " : "", override_uses[k].flag);
		return cli_usage_error(ctx, cmd, "%s does not apply to %s workload (expected only the "
				       "options %s plan uses: %s)", u->flag, family[w->kind],
				       family[w->kind], list);
	}
	return 0;
}

/* A quantity option in [min, max] of `unit` into *out, marking parameter
 * p of the campaign as given; TC_EXIT_USAGE (printed) when it is not
 * valid. */
static int campaign_quantity(struct cli_ctx *ctx, const char *cmd, const char *opt,
			     const char *val, enum tc_unit unit, double min, double max,
			     const char *expect, double *out, struct campaign_in *in,
			     enum camp_param p)
{
	const char *bad;
	double v;
	if (!val)
		return 0;
	if (tc_parse_quantity(val, unit, &v, &bad) || !(v >= min && v <= max))
		return cli_usage_error(ctx, cmd, "--%s '%s' is not valid (expected %s)", opt, val,
				       expect);
	*out = v;
	in->set |= 1u << p;
	return 0;
}

/* The campaign options over the workload's campaign: section (the same
 * bounds as docs/workload-format.md gives its keys). */
static int apply_campaign(struct cli_ctx *ctx, const char *cmd, const struct plan_args *a,
			  struct workload *w)
{
	struct campaign_in *in = &w->campaign;
	if (a->operation) {
		in->operation = index_of(camp_operation_names, a->operation);
		in->set |= 1u << CAMP_P_OPERATION;
	}
	if (a->checkpoint_mode) {
		in->checkpoint = index_of(camp_checkpoint_names, a->checkpoint_mode);
		in->set |= 1u << CAMP_P_CHECKPOINT;
	}
	if (a->checkpoint_interval)
		w->mark[WLF_CAMPAIGN_INTERVAL] = (struct tc_mark){ 0, 0 };
	if (a->restart)
		w->mark[WLF_CAMPAIGN_RESTART] = (struct tc_mark){ 0, 0 };
	return campaign_quantity(ctx, cmd, "checkpoint-interval", a->checkpoint_interval,
				 TC_UNIT_SECONDS, 1, 365 * 86400.0, "a duration from 1 s to 1 y",
				 &in->interval_s, in, CAMP_P_INTERVAL) ||
	       campaign_quantity(ctx, cmd, "restart", a->restart, TC_UNIT_SECONDS, 0,
				 30 * 86400.0, "a duration from 0 s to 30 d such as 10min",
				 &in->restart_s, in, CAMP_P_RESTART) ||
	       campaign_quantity(ctx, cmd, "storage-write", a->storage_write, TC_UNIT_BYTE_RATE,
				 1e6, 1e15, "a bandwidth from 1 MB/s to 1 PB/s such as 100GB/s",
				 &in->write_bytes_per_s, in, CAMP_P_WRITE) ? TC_EXIT_USAGE : 0;
}

static int apply_overrides(struct cli_ctx *ctx, const char *cmd,
			   const struct plan_args *a, struct workload *w)
{
	struct plan *p = &w->plan;
	int rc = check_overrides_apply(ctx, cmd, a, w);
	if (rc)
		return rc;
	if (a->network)
		wl_set_network(p, net_find(a->network)); /* a choice of net_names */
	if (a->gpu) {
		if (strlen(a->gpu) >= sizeof(p->gpu))
			return cli_usage_error(ctx, cmd, "--gpu '%s' is too long (expected a catalog id)", a->gpu);
		strcpy(p->gpu, a->gpu);
		w->mark[WLF_GPU] = (struct tc_mark){ 0, 0 };
	}
	if (override_int(ctx, cmd, a->count, "count", 1, 1000000, &p->count, w, WLF_COUNT) ||
	    override_int(ctx, cmd, a->gpus_per_node, "gpus-per-node", 1, 1024, &p->gpus_per_node, w, WLF_GPUS_PER_NODE) ||
	    override_int(ctx, cmd, a->tp, "tp", 1, 65536, &p->tp, w, WLF_TP) ||
	    override_int(ctx, cmd, a->pp, "pp", 1, 65536, &p->pp, w, WLF_PP) ||
	    override_int(ctx, cmd, a->dp, "dp", 1, 1000000, &p->dp, w, WLF_DP) ||
	    override_int(ctx, cmd, a->ep, "ep", 1, 65536, &p->ep, w, WLF_EP) ||
	    override_int(ctx, cmd, a->cp, "cp", 1, 65536, &p->cp, w, WLF_CP) ||
	    override_int(ctx, cmd, a->zero, "zero", 0, 3, &p->zero, w, WLF_ZERO) ||
	    override_int(ctx, cmd, a->shard_group, "shard-group", 1, 1000000, &p->shard_group, w,
			 WLF_SHARD_GROUP) ||
	    override_int(ctx, cmd, a->micro_batch, "micro-batch", 1, 1000000, &p->micro_batch, w, WLF_MICRO_BATCH) ||
	    override_int(ctx, cmd, a->interleave, "interleave", 1, 1024, &p->interleave, w, WLF_INTERLEAVE))
		return TC_EXIT_USAGE;
	if (a->schedule) {
		p->schedule = (enum pp_schedule)(index_of(sched_names + 1, a->schedule) + 1);
		w->mark[WLF_SCHEDULE] = (struct tc_mark){ 0, 0 };
	}
	if (a->recompute) {
		w->train.recompute = (enum recompute)index_of(recompute_names, a->recompute);
		w->mark[WLF_RECOMPUTE] = (struct tc_mark){ 0, 0 };
	}
	if (a->precision) {
		w->train.precision = tc_llm_train_precs[index_of(tc_llm_train_prec_names, a->precision)];
		w->mark[WLF_PRECISION] = (struct tc_mark){ 0, 0 };
	}
	if (cli_headroom_arg(ctx, cmd, a->memory_headroom, &p->memory_headroom_frac))
		return TC_EXIT_USAGE;
	if (a->cuda_graphs)
		p->cuda_graphs = 1;
	if (a->tp_comm_overlap)
		p->tp_comm_overlap = 1;
	if (a->compile)
		p->compile = 1;
	if (a->framework && (rc = cli_framework_arg(ctx, a->framework, p)))
		return rc;
	if ((rc = apply_campaign(ctx, cmd, a, w)))
		return rc;
	/* A new layout on the command line makes the file's dp stale. */
	if ((a->count || a->tp || a->pp || a->cp) && !a->dp)
		p->dp = 0;
	return 0;
}

/* Print `msg` at the position of field f, or name the flag that set it. */
static int report_field(struct cli_ctx *ctx, const char *cmd, const struct workload *w,
			enum wl_field f, const char *msg)
{
	const struct tc_mark *m = f > WLF_NONE && f < WLF_FIELD_COUNT ? &w->mark[f] : NULL;
	if (m && m->line > 0)
		fprintf(ctx->err, "%s:%d:%d: %s\n", w->file, m->line, m->col, msg);
	else if (f > WLF_NONE && f < WLF_FIELD_COUNT && field_flag[f])
		fprintf(ctx->err, "traincost %s: %s: %s\n", cmd, field_flag[f], msg);
	else
		fprintf(ctx->err, "%s: %s\n", w->file, msg);
	return TC_EXIT_INPUT;
}

/* A non-finite number must never reach a report: name where it came from. */
static int check_finite(struct cli_ctx *ctx, const char *cmd, const struct estimate *e,
			const struct est_workspace *ws)
{
	for (size_t i = 0; i < ws->count; i++) {
		const struct op *o = &ws->ops[i];
		if (!isfinite(o->flop) || !isfinite(o->bytes) || !isfinite(o->time_s) ||
		    !isfinite(o->count)) {
			fprintf(ctx->err, "traincost %s: internal error: operator '%s' has a non-finite value\n",
				cmd, o->name);
			return TC_EXIT_INTERNAL;
		}
	}
	const double v[] = { e->step_time_s, e->tokens_per_s, e->total_time_s, e->gpu_hours,
			     e->mfu_frac, e->hfu_frac, e->memory_per_gpu_bytes, e->params };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!isfinite(v[i])) {
			fprintf(ctx->err, "traincost %s: internal error: non-finite result (item %zu)\n",
				cmd, i);
			return TC_EXIT_INTERNAL;
		}
	return 0;
}

int cli_load_catalog(struct cli_ctx *ctx, const char *calibration,
		     struct gpu_catalog *cat, struct cal_overlay *cal)
{
	struct tc_diag d;
	tc_diag_init(&d);
	memset(cal, 0, sizeof(*cal));
	if (gpu_catalog_load(&ctx->data, cat, &d))
		return cli_report(ctx, &d);
	if (!calibration)
		return 0;
	if (calib_read_file(calibration, cal, &d)) {
		gpu_catalog_release(cat);
		return cli_report(ctx, &d);
	}
	return 0;
}

/*
 * One GPU by its file, models/gpu/<id>.yaml (or the parent's for a MIG
 * slice "id:profile"), and the calibration file read into *cal: the whole
 * catalog costs more than the rest of an estimate.  Returns 0, -1 when the file or
 * profile is not there (the caller falls back to the catalog), or an exit
 * code after printing a problem.
 */
static int load_one_gpu(struct cli_ctx *ctx, const char *id, const char *calibration,
			struct gpu *g, struct cal_overlay *cal)
{
	char base[GPU_ID_LEN], name[GPU_ID_LEN + 8], path[DP_PATH_LEN + 64];
	struct tc_diag d;
	struct gpu parent;
	const char *colon = strchr(id, ':');
	size_t n = colon ? (size_t)(colon - id) : strlen(id);

	memset(cal, 0, sizeof(*cal));
	if (n == 0 || n >= sizeof(base) || strchr(id, '/'))
		return -1;
	memcpy(base, id, n);
	base[n] = '\0';
	snprintf(name, sizeof(name), "%s.yaml", base);
	if (dp_find(&ctx->data, "models/gpu", name, path, sizeof(path)))
		return -1;
	tc_diag_init(&d);
	if (gpu_load_file(path, &parent, &d))
		return cli_report(ctx, &d);
	if (colon ? gpu_mig_slice(&parent, colon + 1, g) : (*g = parent, 0))
		return -1;
	if (calibration && calib_read_file(calibration, cal, &d))
		return cli_report(ctx, &d);
	return 0;
}

int plan_args_run(struct cli_ctx *ctx, const char *cmd, const char *file,
		  const struct plan_args *a, struct workload *w, struct gpu *g,
		  struct est_workspace *ws, struct estimate *est,
		  struct cal_overlay *cal)
{
	struct tc_diag d;
	struct gpu_catalog cat = { 0 };
	int rc;

	tc_diag_init(&d);
	if (wl_load_file(file, &ctx->data, w, &d))
		return cli_report(ctx, &d);
	if ((rc = apply_overrides(ctx, cmd, a, w)))
		return rc;
	if (!w->plan.gpu[0])
		return report_field(ctx, cmd, w, WLF_GPU,
				    "no GPU chosen (expected plan: gpu: ID in the file, or --gpu ID)");
	if ((rc = load_one_gpu(ctx, w->plan.gpu, a->calibration, g, cal)) < 0) {
		/* Not found by its file name: the whole catalog, for suggestions. */
		if ((rc = cli_load_catalog(ctx, a->calibration, &cat, cal)))
			return rc;
		char why[1024];
		if (gpu_catalog_lookup(&cat, w->plan.gpu, g, why, sizeof(why))) {
			gpu_catalog_release(&cat);
			return report_field(ctx, cmd, w, WLF_GPU, why);
		}
		gpu_catalog_release(&cat);
		/* An alias or another spelling: the plan names the catalog id. */
		snprintf(w->plan.gpu, sizeof(w->plan.gpu), "%s", g->id);
	} else if (rc) {
		return rc;
	}

	/* every estimate of this run takes the one GPU with its stack */
	struct eff_stack stack;
	if ((rc = cli_stack(ctx, w, &stack)))
		return rc;
	gpu_resolve(g, g, &stack, cal_layer(cal));
	if (est_workspace_init(ws, EST_MAX_OPS)) {
		fprintf(ctx->err, "traincost %s: out of memory\n", cmd);
		return TC_EXIT_INTERNAL;
	}
	struct plan_problem prob = { WLF_NONE, "" };
	if (step_estimate(w, g, ws, est, &prob)) {
		est_workspace_release(ws);
		return report_field(ctx, cmd, w, prob.field, prob.msg);
	}
	if ((rc = check_finite(ctx, cmd, est, ws))) {
		est_workspace_release(ws);
		return rc;
	}
	return 0;
}
