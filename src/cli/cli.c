/*
 * cli.c - entry point, command table, help and diagnostics printing.
 */
#include "cli.h"

#include <gsl/gsl_errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "../io/fields.h"
#include "../io/price_load.h"
#include "../io/steplog.h"
#include "../model/analyses/uncertainty.h"
#include "cli_ctx.h"
#include "cmd_calibrate.h"
#include "cmd_check.h"
#include "cmd_compare.h"
#include "cmd_completion.h"
#include "cmd_estimate.h"
#include "cmd_frameworks.h"
#include "cmd_gpus.h"
#include "cmd_import.h"
#include "cmd_plan.h"
#include "cmd_prices.h"
#include "cmd_report.h"
#include "cmd_sweep.h"
#include "cmd_validate.h"
#include "help.h"
#include "today.h"

#ifndef TC_VERSION
#define TC_VERSION "0.0.0"
#endif

static int cmd_help(int argc, char **argv, struct cli_ctx *ctx);

static const struct cli_cmd commands[] = {
	{ "estimate", cmd_estimate, "time, GPU-hours, MFU and memory of one training run", "FILE", NULL,
	  "Estimate one training run described by a workload file: step time,\n"
	  "throughput, total time, GPU-hours, MFU and HFU, memory per GPU against\n"
	  "capacity, where the time goes, the limiting resource, the cost on the\n"
	  "cheapest matching cloud offer and across providers, and energy.  Cost\n"
	  "and energy are explained in docs/pricing.md; --uncertainty draws the\n"
	  "efficiency parameters (Monte Carlo) for P10, P50 and P90.\n" },
	{ "compare", cmd_compare, "the same run on each GPU type, side by side with dollars", "FILE", NULL,
	  "For each GPU type (default: every catalog GPU the workload fits on), the\n"
	  "fastest parallel plan that fits memory at the plan's GPU count (or --count,\n"
	  "or the fewest GPUs that finish within --deadline): step time, total time,\n"
	  "GPU-hours, the cheapest offer and its cost, the cost range across\n"
	  "providers, and energy.  Sorted by cost, with the trade-off in words.\n"
	  "--count and --deadline exclude each other.\n" },
	{ "plan", cmd_plan, "cheapest plan under a deadline, fastest under a budget", "FILE", NULL,
	  "Search GPU type x GPU count x tp x pp x dp x ZeRO x micro-batch x recompute\n"
	  "(x interleave, sequence parallel) for plans that fit memory, priced at the\n"
	  "cheapest offer.  Prints the cheapest plan that meets --deadline; with only\n"
	  "--budget the fastest plan within it; with both the cheapest and the fastest\n"
	  "plan meeting both (csv and json: every one); and always the Pareto front of\n"
	  "time against cost.  When nothing meets them, says what comes closest and by\n"
	  "how much.\n" },
	{ "sweep", cmd_sweep, "evaluate every configuration of a what-if sweep file", "SWEEP.yaml", NULL,
	  "One row per configuration of a sweep file (kind: sweep): a base workload and\n"
	  "dotted paths to vary (plan.gpu, plan.count, training.precision, model.preset,\n"
	  "pricing.provider, ...), each a list or a range {from: 8, to: 512, times: 2};\n"
	  "the product of all keys, zip: to pair lists.  Each row: the varied values,\n"
	  "step time, total time, GPU-hours, MFU, memory per GPU, fits, limiting\n"
	  "resource, cheapest offer and cost; invalid rows carry their reason.\n"
	  "A progress line goes to stderr when it is a terminal.\n" },
	{ "explain", cmd_explain, "per-operator roofline of one training step", "FILE", NULL,
	  "One row per operator of a training step on one GPU: FLOPs, bytes moved,\n"
	  "arithmetic intensity, the GPU's ridge point, whether it is compute-,\n"
	  "memory- or latency-bound, the rate achieved and the time.  Takes the\n"
	  "same plan and campaign overrides as `traincost estimate`, and ends with\n"
	  "where the expected wall clock goes (docs/model.md, section 9).\n" },
	{ "validate", cmd_validate, "predicted vs measured on published training runs", NULL,
	  "traincost validate --cross-validate K [--gpu ID] [--cases DIR] [--format F]\n"
	  "traincost validate --fit-frameworks [--cases DIR] [--format F]\n"
	  "traincost validate --campaigns [--cases DIR] [--format F]\n",
	  "Run the model on every measured case under tests/validation/ of the\n"
	  "first data folder that has it (or validation/ of an installation, or\n"
	  "--cases DIR) and print predicted against measured, with the mean absolute\n"
	  "percentage error (MAPE), the median and the worst case.  Each mode prints\n"
	  "in every format (docs/output-format.md); the fitting modes take none of\n"
	  "--family, --verbose, --loo, --plot.\n" },
	{ "calibrate", cmd_calibrate, "fit efficiency parameters to measured training steps",
	  "MEASUREMENTS.yaml",
	  "traincost calibrate --from-log LOG --workload RUN.yaml [--warmup N] [options]\n",
	  "Fit the efficiency parameters (gemm_max_frac, gemm_half_flop, attn_frac,\n"
	  "mem_frac, launch_s, launch_overlap_frac, comm_frac, comm_latency_s,\n"
	  "comm_half_bytes) to measured training steps, by bounded non-linear least\n"
	  "squares on the relative error (GSL trust region).  With one or two\n"
	  "measurements one global time scale is fitted; otherwise only the\n"
	  "parameters the measurements determine, and the others are named as held\n"
	  "fixed.  Prints each parameter before and after with its standard error,\n"
	  "and the error on the measurements before and after.\n"
	  "\n"
	  "The measurements format is in docs/calibration.md; example:\n"
	  "  traincost calibrate examples/measurements-a100.yaml -o calibration.yaml\n" },
	{ "import", cmd_import, "write a workload file from a training config or launch script",
	  "CONFIG", "traincost import [options] -- MEGATRON-LM ARGUMENTS...\n",
	  "Read a training config and write the workload file it describes, each\n"
	  "value with a comment naming the config key (and line) it came from, or\n"
	  "why traincost chose it where the config is silent.  Kinds: a Megatron-LM\n"
	  "or Megatron-DeepSpeed argument list (a launch script, or the arguments\n"
	  "after --), a NeMo 1.x or Megatron-Bridge recipe, an llm-foundry YAML, an\n"
	  "Axolotl YAML, a DeepSpeed JSON.  Values the workload cannot express are\n"
	  "named in warnings; what no one states (GPU, count, tokens) comes from the\n"
	  "options or is left commented out for you.  The result is checked as\n"
	  "`estimate` reads it; nothing is written when the config has a problem.\n"
	  "Examples are in docs/import.md.\n" },
	{ "gpus", cmd_gpus, "list the GPU catalog, or show one GPU", NULL,
	  "traincost gpus show ID [--format F]\n",
	  "List every GPU of the catalog (models/gpu/*.yaml) with its memory,\n"
	  "bandwidth, dense peaks, NVLink, power and MIG support; or show every\n"
	  "field of one GPU with its source and date, sparse peaks apart from dense.\n" },
	{ "frameworks", cmd_frameworks, "list the software-stack profiles a workload can name", NULL, NULL,
	  "List the framework profiles (models/framework/*.yaml): the families each\n"
	  "runs, the compute rate it sustains as fitted on published runs, and how\n"
	  "many runs that fit rests on.  A workload names one with plan.framework,\n"
	  "or --framework ID on the command line.\n" },
	{ "prices", cmd_prices, "list dated cloud GPU prices per offer", NULL,
	  "traincost prices import skypilot FILE.csv --provider NAME\n",
	  "List the offers of the price tables (pricing/*.yaml): provider, instance,\n"
	  "GPU, GPUs per instance, region, price per instance-hour and per GPU-hour,\n"
	  "the date and the source.  `import skypilot` converts a SkyPilot catalog\n"
	  "vms.csv into a traincost price table on standard output.\n" },
	{ "check", cmd_check, "validate traincost YAML files and report every error", "FILE...", NULL,
	  "Load each file as what its top-level `kind:` says (workloads llm, vision\n"
	  "and recsys; gpu, arch, pricing, onprem, measurements, calibration), or as\n"
	  "what its folder holds (models/gpu, models/arch, pricing), and report every\n"
	  "problem as FILE:LINE:COL: message.  A workload's plan is checked as\n"
	  "`estimate` would: GPU id, layout, precision, run length and the fit in\n"
	  "memory.  Exit 1 if any file has a problem (5 if the only one is a plan\n"
	  "that does not fit).\n" },
	{ "report", cmd_report, "one HTML page: estimate, comparison, plan, validation", "FILE", NULL,
	  "Write one self-contained HTML page about the run of a workload file: the\n"
	  "estimate, the comparison of GPU types, the plan and how the model fared on\n"
	  "measured runs of the GPUs involved, each with its table and its chart.\n"
	  "Style and charts are inline and the page has no script: it reads the same\n"
	  "offline.  Each section is what its command prints for the same options\n"
	  "with --format md, its tables as HTML tables: numbers right-aligned, and a\n"
	  "unit every row of a column shares in the column's header.\n" },
	{ "completion", cmd_completion, "shell completion script for bash, zsh or fish", "bash|zsh|fish",
	  NULL,
	  "Print a completion script for the shell, made from the command and option\n"
	  "tables of this traincost: commands, options, and the values of options\n"
	  "that take one of a list; --gpu and --framework ask traincost for the ids\n"
	  "of its catalog.  `make install` installs all three; by hand:\n"
	  "  traincost completion bash > ~/.local/share/bash-completion/completions/traincost\n"
	  "  traincost completion zsh > ~/.zfunc/_traincost   (a folder in $fpath)\n"
	  "  traincost completion fish > ~/.config/fish/completions/traincost.fish\n" },
	{ "help", cmd_help, "show help for a command", "[COMMAND]", NULL, NULL },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

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
	const struct cli_cmd *c = argc == 2 ? find_command(argv[1]) : NULL;
	if (c && c->run != cmd_help && c->run != cmd_completion) {
		/* The command prints its help from its own option table. */
		char *args[] = { argv[1], (char *)(uintptr_t)"--help", NULL };
		return c->run(2, args, ctx);
	}
	cli_print_help(ctx, c ? c->name : NULL, NULL);
	return TC_EXIT_OK;
}


int cli_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct cli_ctx ctx = { .out = out, .err = err, .commands = commands,
			       .ncommands = NCOMMANDS, .main = cli_main };
	struct tc_diag d;

	/* GSL must report through return codes, never abort the process. */
	gsl_set_error_handler_off();
	tc_diag_init(&d);
	if (dp_init(&ctx.data, NULL, 0, &d))
		return cli_report(&ctx, &d);

	if (argc < 2) {
		struct cli_ctx to_err = ctx;
		to_err.out = err; /* a usage error: help goes with the diagnostics */
		cli_print_help(&to_err, NULL, NULL);
		return TC_EXIT_USAGE;
	}
	const char *name = argv[1];
	const struct cli_cmd *c = NULL;
	int rc;
	if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
		cli_print_help(&ctx, NULL, NULL);
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
