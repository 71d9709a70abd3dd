/*
 * cli.c - entry point, command table, help and diagnostics printing.
 */
#include "cli.h"

#include <gsl/gsl_errno.h>
#include <stdarg.h>
#include <string.h>

#include "../io/fields.h"
#include "../io/price_load.h"
#include "../io/steplog.h"
#include "../model/uncertainty.h"
#include "today.h"

#ifndef TC_VERSION
#define TC_VERSION "0.0.0"
#endif

static int cmd_help(int argc, char **argv, struct cli_ctx *ctx);

#define FORMAT_HELP "  --format F   table (default), csv, json or md\n"
#define DATA_HELP                                                              \
	"  --data DIR   look for models/ and pricing/ in DIR first (repeatable)\n"

/* The plan overrides of estimate and explain (plan_args.c). */
#define PLAN_OVERRIDES_HELP                                                    \
	"Plan overrides (they replace the file's plan: values):\n"              \
	"  --gpu ID            catalog GPU id (see `traincost gpus`), MIG: ID:PROFILE\n" \
	"  --count N           GPUs in total\n"                                  \
	"  --gpus-per-node N   GPUs per server\n"                                \
	"  --tp N  --pp N  --dp N  --ep N   parallel sizes\n"                    \
	"  --cp N              context parallel: GPUs splitting each sequence\n" \
	"  --zero N            ZeRO stage 0..3\n"                                \
	"  --shard-group N     ZeRO shards inside groups of N data-parallel ranks\n" \
	"  --micro-batch N     sequences per micro-batch\n"                      \
	"  --interleave N      virtual pipeline stages per GPU\n"                \
	"  --schedule S        pipeline schedule: 1f1b, interleaved or zero-bubble\n" \
	"  --recompute R       none, selective or full\n"                        \
	"  --precision P       fp32, tf32, bf16, fp16, fp8 or fp4\n"             \
	"  --network NAME      between nodes, for the plan and every offer (without it\n" \
	"                      each offer of several instances is timed over its own)\n" \
	"  --cuda-graphs       launch kernels through CUDA graphs\n"             \
	"  --tp-comm-overlap   tensor-parallel collectives under the GEMMs\n"    \
	"  --memory-headroom F share of GPU memory kept free in every fit test\n" \
	"                      (0.1 or 10%; default 0: the model's own reserve only)\n" \
	"  --calibration FILE  efficiencies fitted by `traincost calibrate`\n"   \
	"  --framework ID      software-stack profile (see `traincost frameworks`)\n" \
	"Campaign (the wall clock around the steady state; docs/model.md, section 9;\n" \
	"each replaces the workload's campaign: key):\n"                       \
	"  --operation O       restarts automated (default) or manual\n"        \
	"  --checkpoint-mode M async (default) or sync checkpoints\n"           \
	"  --checkpoint-interval D   between checkpoints (default: Young's interval)\n" \
	"  --storage-write R   checkpoint storage bandwidth, such as 100GB/s\n"
#define UNVERIFIED_HELP                                                        \
	"  --include-unverified  also price offers marked verified: false\n"
/* compare, plan and sweep (money_basis_opts) */
#define STEADY_HELP                                                            \
	"  --steady-state    judge deadlines and budgets, and bill the cost, at steady\n" \
	"                    state (default: on the expected wall clock, with the\n" \
	"                    campaign's interruptions, restarts, checkpoints and spare\n" \
	"                    nodes; docs/model.md, section 9)\n"

static const struct cli_cmd commands[] = {
	{ "estimate", cmd_estimate, "time, GPU-hours, MFU and memory of one training run",
	  "usage: traincost estimate FILE [options]\n"
	  "\n"
	  "Estimate one training run described by a workload file: step time,\n"
	  "throughput, total time, GPU-hours, MFU and HFU, memory per GPU against\n"
	  "capacity, where the time goes, the limiting resource, the cost on the\n"
	  "cheapest matching cloud offer and across providers, and energy.\n"
	  "\n"
	  PLAN_OVERRIDES_HELP
	  "Cost and energy (see docs/pricing.md):\n"
	  "  --pricing P         on-demand (default) or spot\n"
	  "  --provider NAME     one provider's offers only\n"
	  "  --assume-fabric P=NET  join provider P's instances over network NET\n"
	  "                      (what a contract gives; the answer says so)\n"
	  "  --pue X --power-frac F --grid G   energy assumptions\n"
	  "  --preempt-per-h R --checkpoint D --restart D   spot assumptions (the\n"
	  "                      preemptions are also interruptions of the wall clock)\n"
	  "  --max-age DAYS      warn about prices older than this (default " CLI_STR(PRICE_STALE_DAYS) ")\n"
	  UNVERIFIED_HELP
	  "Uncertainty (Monte Carlo over the efficiency parameters):\n"
	  "  --uncertainty[=N]   N samples (default " CLI_STR(UNC_DEFAULT_SAMPLES) "): P10, P50, P90\n"
	  "  --seed S            random seed (default " CLI_STR(UNC_DEFAULT_SEED) "; same seed, same output)\n"
	  "  --deadline D        report the probability of finishing within D\n"
	  "  --budget USD        report the probability of costing at most USD\n"
	  "                      (50000, $50,000, 2.5k or 3M)\n"
	  "Output:\n"
	  "  --format F          table (default), json, csv or md\n"
	  "  --plot FILE         also draw where the step time goes and the memory\n"
	  "                      per GPU as an SVG chart into FILE\n" DATA_HELP },
	{ "compare", cmd_compare, "the same run on each GPU type, side by side with dollars",
	  "usage: traincost compare FILE [--gpus ID,ID,...] [--count N | --deadline 14d] [options]\n"
	  "\n"
	  "For each GPU type (default: every catalog GPU the workload fits on), the\n"
	  "fastest parallel plan that fits memory at the plan's GPU count (or --count,\n"
	  "or the fewest GPUs that finish within --deadline): step time, total time,\n"
	  "GPU-hours, the cheapest offer and its cost, the cost range across\n"
	  "providers, and energy.  Sorted by cost, with the trade-off in words.\n"
	  "\n"
	  "  --gpus LIST        catalog ids, comma-separated\n"
	  "  --count N          GPUs per type (default: the file's plan)\n"
	  "  --deadline D       find the fewest GPUs that finish within D (e.g. 14d),\n"
	  "                     or the whole instances they are priced on if cheaper\n"
	  "  --max-gpus N       largest count tried with --deadline (default " CLI_STR(CLI_DEFAULT_MAX_GPUS) ")\n"
	  STEADY_HELP
	  "  --network NAME     between nodes, for every plan and offer (without it the\n"
	  "                     layouts are searched, timed and priced over each network\n"
	  "                     the GPU's offers join instances by, each on its offers)\n"
	  "  --pricing P        on-demand (default) or spot\n"
	  "  --provider NAME    one provider's offers only\n"
	  "  --assume-fabric P=NET  join provider P's instances over network NET\n"
	  "                     (what a contract gives; the answer says so)\n"
	  "  --pue X --power-frac F --grid G   energy assumptions\n"
	  "  --preempt-per-h R --checkpoint D --restart D   spot assumptions\n"
	  "  --max-age DAYS     warn about prices older than this (default " CLI_STR(PRICE_STALE_DAYS) ")\n"
	  UNVERIFIED_HELP
	  "  --memory-headroom F share of GPU memory kept free in every fit test\n"
	  "                     (0.1 or 10%; default 0: the model's own reserve only)\n"
	  "  --calibration FILE efficiencies fitted by `traincost calibrate`\n"
	  "  --framework ID     software-stack profile for every GPU type (see\n"
	  "                     `traincost frameworks`; default: the file's)\n"
	  "  --uncertainty[=N]  Monte Carlo of N samples (default " CLI_STR(UNC_DEFAULT_SAMPLES) ") per GPU type:\n"
	  "                     P10, P50, P90 of total time and cost, and the chance\n"
	  "                     of meeting --deadline\n"
	  "  --seed S           random seed (default " CLI_STR(UNC_DEFAULT_SEED) "; same seed, same output)\n"
	  "  --format F         table (default), csv, json or md\n"
	  "  --plot FILE        also draw total time and cost per GPU type (P10-P90\n"
	  "                     whiskers with --uncertainty) as an SVG chart into FILE\n" DATA_HELP },
	{ "plan", cmd_plan, "cheapest plan under a deadline, fastest under a budget",
	  "usage: traincost plan FILE [--deadline D] [--budget USD] [--gpus ID,...]\n"
	  "                      [--max-gpus N] [--pricing P] [--format F]\n"
	  "                      [--uncertainty[=N]] [--seed S] [--risk p50|p90]\n"
	  "\n"
	  "Search GPU type x GPU count x tp x pp x dp x ZeRO x micro-batch x recompute\n"
	  "(x interleave, sequence parallel) for plans that fit memory, priced at the\n"
	  "cheapest offer.  Prints the cheapest plan that meets --deadline; with only\n"
	  "--budget the fastest plan within it; with both the cheapest and the fastest\n"
	  "plan meeting both (csv and json: every one); and always the Pareto front of\n"
	  "time against cost.  When nothing meets them, says what comes closest and by\n"
	  "how much.\n"
	  "\n"
	  "  --deadline D    a duration such as 14d or 36h\n"
	  "  --budget USD    dollars such as 50000, $50,000, 2.5k or 3M\n"
	  "  --gpus ID,...   GPU types to consider (default: every GPU with an offer)\n"
	  "  --max-gpus N    largest GPU count (default " CLI_STR(CLI_DEFAULT_MAX_GPUS) ")\n"
	  STEADY_HELP
	  "  --network NAME  between nodes, for every plan and offer (without it the\n"
	  "                  layouts are searched, timed and priced over each network\n"
	  "                  the GPU's offers join instances by, each on its offers)\n"
	  "  --pricing P     on-demand (default) or spot\n"
	  "  --preempt-per-h R --checkpoint D --restart D   spot assumptions\n"
	  UNVERIFIED_HELP
	  "  --assume-fabric P=NET  join provider P's instances over network NET\n"
	  "                  (what a contract gives; the answer says so)\n"
	  "  --memory-headroom F  share of GPU memory kept free in every fit test\n"
	  "                    (0.1 or 10%; default 0: the model's own reserve only)\n"
	  "  --calibration FILE  efficiencies fitted by `traincost calibrate`\n"
	  "  --framework ID  software-stack profile of every plan (see `traincost\n"
	  "                  frameworks`; default: the file's)\n"
	  "  --uncertainty[=N]  P10, P50, P90 of time and cost (N samples, default\n"
	  "                  1000) for the plans shown and the Pareto front\n"
	  "  --seed S        random seed (default " CLI_STR(UNC_DEFAULT_SEED) "; same seed, same output)\n"
	  "  --risk R        p50 (default): rank by the point estimate; p90: rank by\n"
	  "                  P90 cost and time, sampling the Pareto front and the plans\n"
	  "                  whose point estimate meets the targets (implies\n"
	  "                  --uncertainty)\n"
	  "  --format F      table (default), csv, json or md\n"
	  "  --plot FILE     also draw every plan's time against cost, the Pareto\n"
	  "                  front and the chosen plans as an SVG chart into FILE\n" DATA_HELP },
	{ "sweep", cmd_sweep, "evaluate every configuration of a what-if sweep file",
	  "usage: traincost sweep SWEEP.yaml [-o OUT] [--format F] [--jobs N] [--shard K/N]\n"
	  "\n"
	  "One row per configuration of a sweep file (kind: sweep): a base workload and\n"
	  "dotted paths to vary (plan.gpu, plan.count, training.precision, model.preset,\n"
	  "pricing.provider, ...), each a list or a range {from: 8, to: 512, times: 2};\n"
	  "the product of all keys, zip: to pair lists.  Each row: the varied values,\n"
	  "step time, total time, expected wall clock, GPU-hours, MFU, memory per GPU,\n"
	  "fits, limiting resource, cheapest offer and cost (billed on the wall clock\n"
	  "unless --steady-state); invalid rows carry their reason.\n"
	  "\n"
	  "  -o, --output OUT  write to OUT (a temporary file renamed at the end)\n"
	  "  --format F        csv (default), json, table or md\n"
	  "  --jobs N          threads (default: the machine's cores); output is the same\n"
	  "  --shard K/N       only configurations K, K+N, K+2N, ... (0 <= K < N);\n"
	  "                    shard 0 writes the CSV header, so the shards concatenate\n"
	  "  --memory-headroom F  share of GPU memory kept free in every fit test\n"
	  "                    (0.1 or 10%; default 0: the model's own reserve only)\n"
	  "  --calibration FILE  efficiencies fitted by `traincost calibrate`\n"
	  "  --framework ID    software-stack profile of every row, as if the base named\n"
	  "                    it (see `traincost frameworks`; not with a varied\n"
	  "                    plan.framework)\n"
	  STEADY_HELP
	  UNVERIFIED_HELP
	  "  --plot FILE       also draw a metric against one varied key as an SVG\n"
	  "                    chart into FILE, a line per combination of the others\n"
	  "  --plot-x PATH     the varied key along x (default: the first)\n"
	  "  --plot-y M        total_time_s (default), step_time_s, gpu_hours,\n"
	  "                    mfu_frac, memory_per_gpu_gb or cost_usd\n"
	  "A progress line goes to stderr when it is a terminal.\n" DATA_HELP },
	{ "explain", cmd_explain, "per-operator roofline of one training step",
	  "usage: traincost explain FILE [options]\n"
	  "\n"
	  "One row per operator of a training step on one GPU: FLOPs, bytes moved,\n"
	  "arithmetic intensity, the GPU's ridge point, whether it is compute-,\n"
	  "memory- or latency-bound, the rate achieved and the time.  Takes the\n"
	  "same plan and campaign overrides as `traincost estimate`, and ends with\n"
	  "where the expected wall clock goes (docs/model.md, section 9).\n"
	  "\n"
	  PLAN_OVERRIDES_HELP
	  "Output:\n"
	  "  --format F   table (default), json, csv or md\n"
	  "  --plot FILE  also draw the operators on the GPU's roofline as an SVG\n"
	  "               chart into FILE\n" DATA_HELP },
	{ "validate", cmd_validate, "predicted vs measured on published training runs",
	  "usage: traincost validate [--family llm] [--cases DIR] [--format F] [--verbose] [--loo]\n"
	  "       traincost validate --cross-validate K [--gpu ID] [--cases DIR] [--format F]\n"
	  "       traincost validate --fit-frameworks [--cases DIR] [--format F]\n"
	  "       traincost validate --campaigns [--cases DIR] [--format F]\n"
	  "\n"
	  "Run the model on every measured case under tests/validation/ of the\n"
	  "first data folder that has it (or validation/ of an installation, or\n"
	  "--cases DIR) and print predicted against measured, with the mean absolute\n"
	  "percentage error (MAPE), the median and the worst case.\n"
	  "\n"
	  "  --family F   only cases of family llm, vision or recsys\n"
	  "  --verbose    one row per case, not only per case file\n"
	  "  --cross-validate K\n"
	  "               calibrate on K-1 folds of one GPU's cases, report the error\n"
	  "               on the fold held out (see `traincost calibrate`)\n"
	  "  --gpu ID     the GPU whose cases are cross-validated (default: the first case's)\n"
	  "  --loo        also cross-validate the framework fit: leave one source out and\n"
	  "               leave one GPU type out, refitting stack_frac each time\n"
	  "  --fit-frameworks\n"
	  "               fit stack_frac of every framework on the runs that name it and\n"
	  "               print the values models/framework/ ships\n"
	  "  --campaigns  the wall clock of training campaigns whose wall clock was\n"
	  "               observed against the campaign model (campaigns/ of the cases\n"
	  "               folder; the table ends with its summary)\n"
	  "  --plot FILE  also draw predicted against measured as an SVG chart into FILE\n"
	  FORMAT_HELP
	  "               (each mode in every format; docs/output-format.md; the fitting\n"
	  "               modes take none of --family, --verbose, --loo, --plot)\n"
	  DATA_HELP },
	{ "calibrate", cmd_calibrate, "fit efficiency parameters to measured training steps",
	  "usage: traincost calibrate MEASUREMENTS.yaml [--gpu ID] [-o FILE] [--fit scale|NAME,...]\n"
	  "       [--format F]\n"
	  "       traincost calibrate --from-log LOG --workload RUN.yaml [--warmup N] [options]\n"
	  "\n"
	  "Fit the efficiency parameters (gemm_max_frac, gemm_half_flop, attn_frac,\n"
	  "mem_frac, launch_s, launch_overlap_frac, comm_frac, comm_latency_s,\n"
	  "comm_half_bytes) to measured training steps, by bounded non-linear least\n"
	  "squares on the relative error (GSL trust region).  With one or two\n"
	  "measurements one global time scale is fitted; otherwise only the\n"
	  "parameters the measurements determine, and the others are named as held\n"
	  "fixed.  Prints each parameter before and after with its standard error,\n"
	  "and the error on the measurements before and after.\n"
	  "\n"
	  "  --gpu ID        calibrate the runs on this GPU (needed when the file has several)\n"
	  "  -o, --output FILE\n"
	  "                  write the calibration for `estimate --calibration FILE`\n"
	  "  --fit LIST      fit exactly these parameters (comma-separated), or 'scale'\n"
	  "  --format F      table (default), csv, json or md (csv: the parameters alone)\n"
	  "  --from-log LOG  the measurement is the median step time (or throughput)\n"
	  "                  of a training log: Megatron-LM, NeMo, torchtitan, Hugging\n"
	  "                  Face Trainer, llm-foundry or DeepSpeed (docs/import.md)\n"
	  "  --workload FILE the run the log is of (with --from-log)\n"
	  "  --warmup N      step lines skipped at the start of each run segment\n"
	  "                  (default " CLI_STR(SLOG_DEFAULT_WARMUP) ")\n"
	  "  --log-kind K    megatron, nemo, torchtitan, hf-trainer, llm-foundry or\n"
	  "                  deepspeed (default: recognised from the log)\n"
	  "\n"
	  "The measurements format is in docs/calibration.md; example:\n"
	  "  traincost calibrate examples/measurements-a100.yaml -o calibration.yaml\n" DATA_HELP },
	{ "import", cmd_import, "write a workload file from a training config or launch script",
	  "usage: traincost import CONFIG [-o workload.yaml] [options]\n"
	  "       traincost import [options] -- MEGATRON-LM ARGUMENTS...\n"
	  "\n"
	  "Read a training config and write the workload file it describes, each\n"
	  "value with a comment naming the config key (and line) it came from, or\n"
	  "why traincost chose it where the config is silent.  Kinds: a Megatron-LM\n"
	  "or Megatron-DeepSpeed argument list (a launch script, or the arguments\n"
	  "after --), a NeMo 1.x or Megatron-Bridge recipe, an llm-foundry YAML, an\n"
	  "Axolotl YAML, a DeepSpeed JSON.  Values the workload cannot express are\n"
	  "named in warnings; what no one states (GPU, count, tokens) comes from the\n"
	  "options or is left commented out for you.  The result is checked as\n"
	  "`estimate` reads it; nothing is written when the config has a problem.\n"
	  "\n"
	  "  -o, --output FILE  write to FILE (a temporary file renamed at the end)\n"
	  "  --kind K           megatron, nemo, megatron-bridge, llm-foundry, axolotl or\n"
	  "                     deepspeed\n"
	  "                     (default: recognised from the content)\n"
	  "  --hf-config FILE   the model's Hugging Face config.json\n"
	  "  --preset NAME      or a preset of models/arch (llama2-70b, ...)\n"
	  "  --gpu ID  --count N  --tokens N  --seq-len N\n"
	  "                     what the config does not state\n"
	  "  --framework ID     the stack profile (default: the config's kind)\n"
	  "  --name TEXT        the workload's name\n"
	  "\n"
	  "Examples are in docs/import.md.\n" DATA_HELP },
	{ "gpus", cmd_gpus, "list the GPU catalog, or show one GPU",
	  "usage: traincost gpus [--format F]\n"
	  "       traincost gpus show ID [--format F]\n"
	  "\n"
	  "List every GPU of the catalog (models/gpu/*.yaml) with its memory,\n"
	  "bandwidth, dense peaks, NVLink, power and MIG support; or show every\n"
	  "field of one GPU with its source and date, sparse peaks apart from dense.\n"
	  "\n" FORMAT_HELP DATA_HELP },
	{ "frameworks", cmd_frameworks, "list the software-stack profiles a workload can name",
	  "usage: traincost frameworks [--format F]\n"
	  "\n"
	  "List the framework profiles (models/framework/*.yaml): the families each\n"
	  "runs, the compute rate it sustains as fitted on published runs, and how\n"
	  "many runs that fit rests on.  A workload names one with plan.framework,\n"
	  "or --framework ID on the command line.\n"
	  "\n" FORMAT_HELP DATA_HELP },
	{ "prices", cmd_prices, "list dated cloud GPU prices per offer",
	  "usage: traincost prices [--gpu ID] [--provider NAME] [--pricing P] [--format F]\n"
	  "       traincost prices import skypilot FILE.csv --provider NAME\n"
	  "\n"
	  "List the offers of the price tables (pricing/*.yaml): provider, instance,\n"
	  "GPU, GPUs per instance, region, price per instance-hour and per GPU-hour,\n"
	  "the date and the source.  `import skypilot` converts a SkyPilot catalog\n"
	  "vms.csv into a traincost price table on standard output.\n"
	  "\n"
	  "  --gpu ID        only offers of this catalog GPU\n"
	  "  --provider P    only this provider (aws, gcp, azure, lambda, ...)\n"
	  "  --pricing P     on-demand (default) or spot\n"
	  "  --max-age D     warn about prices older than D days (default " CLI_STR(PRICE_STALE_DAYS) ")\n"
	  "  --format F      table (default), csv, json or md\n" DATA_HELP },
	{ "check", cmd_check, "validate traincost YAML files and report every error",
	  "usage: traincost check FILE...\n"
	  "\n"
	  "Load each file as what its top-level `kind:` says (workloads llm, vision\n"
	  "and recsys; gpu, arch, pricing, onprem, measurements, calibration), or as\n"
	  "what its folder holds (models/gpu, models/arch, pricing), and report every\n"
	  "problem as FILE:LINE:COL: message.  A workload's plan is checked as\n"
	  "`estimate` would: GPU id, layout, precision, run length and the fit in\n"
	  "memory.  Exit 1 if any file has a problem (5 if the only one is a plan\n"
	  "that does not fit).\n"
	  "\n" DATA_HELP },
	{ "report", cmd_report, "one HTML page: estimate, comparison, plan, validation",
	  "usage: traincost report FILE -o report.html [options]\n"
	  "\n"
	  "Write one self-contained HTML page about the run of a workload file: the\n"
	  "estimate, the comparison of GPU types, the plan and how the model fared on\n"
	  "measured runs of the GPUs involved, each with its table and its chart.\n"
	  "Style and charts are inline and the page has no script: it reads the same\n"
	  "offline.  Each section is what its command prints for the same options.\n"
	  "\n"
	  "  -o, --output FILE  the page (a temporary file renamed at the end)\n"
	  "  --deadline D       the plan: cheapest plan finishing within D\n"
	  "  --budget USD       the plan: fastest plan costing at most USD (50000, 3M)\n"
	  "  --gpus ID,...      GPU types compared and planned over\n"
	  "  --max-gpus N       the plan: largest GPU count (default " CLI_STR(CLI_DEFAULT_MAX_GPUS) ")\n"
	  "  --pricing P        on-demand (default) or spot\n"
	  "  --uncertainty[=N]  P10-P90 of the comparison from N samples (default " CLI_STR(UNC_DEFAULT_SAMPLES) ")\n"
	  "  --framework ID     software-stack profile of every section (see\n"
	  "                     `traincost frameworks`; default: the file's)\n" DATA_HELP },
	{ "completion", cmd_completion, "shell completion script for bash, zsh or fish",
	  "usage: traincost completion bash|zsh|fish\n"
	  "\n"
	  "Print a completion script for the shell, made from the command and option\n"
	  "tables of this traincost: commands, options, and the values of options\n"
	  "that take one of a list; --gpu and --framework ask traincost for the ids\n"
	  "of its catalog.  `make install` installs all three; by hand:\n"
	  "  traincost completion bash > ~/.local/share/bash-completion/completions/traincost\n"
	  "  traincost completion zsh > ~/.zfunc/_traincost   (a folder in $fpath)\n"
	  "  traincost completion fish > ~/.config/fish/completions/traincost.fish\n" },
	{ "help", cmd_help, "show help for a command", "usage: traincost help [COMMAND]\n" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

const struct cli_cmd *cli_commands(size_t *n)
{
	*n = NCOMMANDS;
	return commands;
}

static const struct cli_cmd *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void command_names(char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < NCOMMANDS; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 commands[i].name);
		if (n < 0 || (size_t)n >= len - used)
			return;
		used += (size_t)n;
	}
}

void cli_print_help(struct cli_ctx *ctx, const char *cmd)
{
	const struct cli_cmd *c = cmd ? find_command(cmd) : NULL;
	if (c) {
		fputs(c->usage, ctx->out);
		return;
	}
	fputs("usage: traincost <command> [options] [files]\n"
	      "\n"
	      "Estimate how long a training job takes and what it costs on each GPU.\n"
	      "\n"
	      "Commands:\n", ctx->out);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(ctx->out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\n"
	      "Options:\n"
	      "  --help, -h   this help; `traincost help COMMAND` for one command\n"
	      "  --version    print the version\n"
	      "\n"
	      "Data: GPU specs and architectures are read from --data DIR, then\n"
	      "$TRAINCOST_PATH (colon-separated), then ./models, then beside the\n"
	      "binary (its folder, its parent, ../share/traincost), then the installed\n"
	      "share/traincost folder.\n"
	      "\n"
	      "Exit codes: 0 success, 1 invalid input, 2 usage error, 3 I/O error,\n"
	      "4 internal error, 5 the plan does not fit in GPU memory.\n", ctx->out);
}

static int cmd_help(int argc, char **argv, struct cli_ctx *ctx)
{
	if (argc > 2)
		return cli_usage_error(ctx, "help", "too many arguments (expected at most one command)");
	if (argc == 2 && !find_command(argv[1])) {
		char names[256];
		command_names(names, sizeof(names));
		return cli_usage_error(ctx, "help", "unknown command '%s' (expected one of: %s)",
				       argv[1], names);
	}
	cli_print_help(ctx, argc == 2 ? argv[1] : NULL);
	return TC_EXIT_OK;
}

int cli_report(struct cli_ctx *ctx, const struct tc_diag *d)
{
	for (int i = 0; i < d->count; i++)
		fprintf(ctx->err, "%s\n", d->entry[i].msg);
	if (d->dropped)
		fprintf(ctx->err, "traincost: %d more error%s not shown\n", d->dropped,
			d->dropped == 1 ? "" : "s");
	return d->severity != TC_EXIT_OK ? (int)d->severity : TC_EXIT_INPUT;
}

int cli_usage_error(struct cli_ctx *ctx, const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(ctx->err, "traincost %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(ctx->err, fmt, ap);
	va_end(ap);
	fputc('\n', ctx->err);
	return TC_EXIT_USAGE;
}

int cli_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct cli_ctx ctx = { .out = out, .err = err };
	struct tc_diag d;

	/* GSL must report through return codes, never abort the process. */
	gsl_set_error_handler_off();
	tc_diag_init(&d);
	if (dp_init(&ctx.data, NULL, 0, &d))
		return cli_report(&ctx, &d);

	if (argc < 2) {
		struct cli_ctx to_err = ctx;
		to_err.out = err; /* a usage error: help goes with the diagnostics */
		cli_print_help(&to_err, NULL);
		return TC_EXIT_USAGE;
	}
	const char *name = argv[1];
	const struct cli_cmd *c = NULL;
	int rc;
	if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
		cli_print_help(&ctx, NULL);
		rc = TC_EXIT_OK;
	} else if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		fprintf(out, "traincost %s\n", TC_VERSION);
		rc = TC_EXIT_OK;
	} else if (!(c = find_command(name))) {
		char names[256];
		const char *names_list[NCOMMANDS + 1];
		for (size_t i = 0; i < NCOMMANDS; i++)
			names_list[i] = commands[i].name;
		names_list[NCOMMANDS] = NULL;
		command_names(names, sizeof(names));
		const char *close = name[0] != '-' ? fd_suggest(name, names_list) : NULL;
		if (close)
			fprintf(err, "traincost: unknown command '%s' (did you mean '%s'? commands: %s)\n",
				name, close, names);
		else
			fprintf(err, "traincost: unknown %s '%s' (expected one of: %s, --help, --version)\n",
				name[0] == '-' ? "option" : "command", name, names);
		return TC_EXIT_USAGE;
	} else if (cli_today(ctx.today, sizeof(ctx.today), &d)) {
		fprintf(err, "traincost: %s\n", d.entry[0].msg);
		return (int)d.severity;
	} else {
		rc = c->run(argc - 1, argv + 1, &ctx);
	}
	if (fflush(out) != 0 || ferror(out)) {
		fprintf(err, "traincost: cannot write the output\n");
		return TC_EXIT_IO;
	}
	return rc;
}
