/*
 * cmd_calibrate.c - `traincost calibrate MEASUREMENTS.yaml`: fit the
 * efficiency parameters to measured steps and write an overlay that
 * `--calibration FILE` applies.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../io/calib_file.h"
#include "../io/gpu_load.h"
#include "../io/meas_load.h"
#include "../io/steplog.h"
#include "../model/analyses/calibrate.h"
#include "../report/json.h"
#include "../report/rows.h"
#include "calib_log.h"
#include "cmd_calibrate.h"
#include "cli_ctx.h"
#include "opts.h"

#define CMD "calibrate"

/* Parse --fit: "scale" or comma-separated parameter names. */
static int parse_fit(struct cli_ctx *ctx, const char *s, struct cal_options *o)
{
	char buf[512], *save = NULL;
	if (!strcmp(s, "scale")) {
		o->scale_only = 1;
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int p = cal_param_find(t);
		if (p < 0)
			return cli_usage_error(ctx, CMD, "--fit '%s' is not a parameter (expected scale or names "
					       "such as gemm_max_frac,mem_frac,launch_s)", t);
		o->fit_mask |= CAL_BIT(p);
	}
	return o->fit_mask ? 0 : cli_usage_error(ctx, CMD, "--fit needs scale or parameter names");
}

static const char *const formats[] = { "table", "csv", "json", "md", NULL };

/* The parameters before and after, one row each: the table, Markdown,
 * CSV and the JSON's "parameters" (a std error of null where none). */
static const struct rep_col param_cols[] = {
	{ "name", "parameter", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "before", "before", REP_COL_SIG, 0, 4, NULL, NULL, NULL, 0, 0, 0 },
	{ "after", "after", REP_COL_SIG, 0, 4, NULL, NULL, NULL, 0, 0, 0 },
	{ "std_error", "std error", REP_COL_SIG, 0, 4, NULL, NULL, NULL, 0, 0, 0 },
	{ "status", "status", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
};
#define PARAM_COLS (int)(sizeof(param_cols) / sizeof(param_cols[0]))

static void param_rows(const struct cal_result *r, struct rep_rows *rows)
{
	rep_rows_init(rows, param_cols, PARAM_COLS);
	for (int p = 0; p < CAL_PARAM_COUNT; p++) {
		const struct rep_cell cells[PARAM_COLS] = {
			{ .text = eff_params[p].name },
			{ .num = cal_get(&r->before, p) },
			{ .num = cal_get(&r->after, p) },
			{ .num = r->se[p], .missing = !(r->se[p] > 0) },
			{ .text = cal_held_names[r->held[p]] },
		};
		rep_rows_add(rows, cells);
	}
}

/* The result for people ("table", "md") or its rows alone ("csv"). */
static int print_result(struct cli_ctx *ctx, const char *fmt, const char *file, const char *gpu,
			const struct cal_result *r, const struct rep_rows *rows)
{
	int rc;

	if (r->warning[0])
		fprintf(ctx->err, "traincost calibrate: warning: %s\n", r->warning);
	if (!strcmp(fmt, "csv"))
		return rep_rows_print(rows, ctx->out, fmt);
	fprintf(ctx->out, "Calibration of %s from %s: %zu measurement%s\n", gpu, file, r->n,
		r->n == 1 ? "" : "s");
	if (r->scale_mode && r->se_available)
		fprintf(ctx->out, "Fitted one global time scale: %.4g x the predicted time (std error %.2g)\n",
			r->scale, r->scale_se);
	else if (r->scale_mode)
		fprintf(ctx->out, "Fitted one global time scale: %.4g x the predicted time "
			"(no std error from one measurement)\n", r->scale);
	else
		fprintf(ctx->out, "Fitted %zu parameter%s (trust region, %zu iterations)\n", r->p,
			r->p == 1 ? "" : "s", r->iterations);
	fputc('\n', ctx->out);
	rc = rep_rows_print(rows, ctx->out, fmt);
	for (int p = 0, any = 0; p < CAL_PARAM_COUNT && !r->scale_mode; p++)
		for (int q = p + 1; q < CAL_PARAM_COUNT; q++)
			if (r->corr[p][q] != 0)
				fprintf(ctx->out, "%s %s and %s %+.2f", any++ ? "," :
					"\nCorrelation of the fitted estimates (uncertainty draws keep it):",
					eff_params[p].name, eff_params[q].name, r->corr[p][q]);
	fprintf(ctx->out, "\nError on the measurements (mean absolute): before %.2f %%, after %.2f %% "
		"(worst %.1f %% -> %.1f %%)\n", 100 * r->err_before.mape, 100 * r->err_after.mape,
		100 * r->err_before.worst_ape, 100 * r->err_after.worst_ape);
	return rc;
}

/* The result for scripts: the same figures as the table, errors as
 * fractions, a std error of null where there is none. */
static int print_json(struct cli_ctx *ctx, const char *file, const char *gpu,
		      const struct cal_result *r, const struct rep_rows *rows, const char *output,
		      const struct calib_log_summary *log)
{
	struct rep_json j;

	rep_json_doc_begin(&j, ctx->out, "calibrate");
	rep_json_str(&j, "gpu", gpu);
	rep_json_str(&j, "measurements_file", file);
	rep_json_int(&j, "measurements", (long long)r->n);
	rep_json_str(&j, "mode", r->scale_mode ? "scale" : "parameters");
	if (r->scale_mode) {
		rep_json_num(&j, "scale", r->scale);
		if (r->se_available)
			rep_json_num(&j, "scale_std_error", r->scale_se);
		else
			rep_json_null(&j, "scale_std_error");
	} else {
		rep_json_int(&j, "fitted", (long long)r->p);
		rep_json_int(&j, "iterations", (long long)r->iterations);
	}
	int rc = rep_rows_json(rows, &j, "parameters");
	rep_json_arr_begin(&j, "correlation");
	for (int p = 0; p < CAL_PARAM_COUNT; p++)
		for (int q = p + 1; q < CAL_PARAM_COUNT; q++)
			if (r->corr[p][q] != 0) {
				rep_json_obj_begin(&j, NULL);
				rep_json_str(&j, "a", eff_params[p].name);
				rep_json_str(&j, "b", eff_params[q].name);
				rep_json_num(&j, "r", r->corr[p][q]);
				rep_json_obj_end(&j);
			}
	rep_json_arr_end(&j);
	rep_json_obj_begin(&j, "error_before");
	rep_json_num(&j, "mape_frac", r->err_before.mape);
	rep_json_num(&j, "worst_ape_frac", r->err_before.worst_ape);
	rep_json_obj_end(&j);
	rep_json_obj_begin(&j, "error_after");
	rep_json_num(&j, "mape_frac", r->err_after.mape);
	rep_json_num(&j, "worst_ape_frac", r->err_after.worst_ape);
	rep_json_obj_end(&j);
	rep_json_bool(&j, "ill_conditioned", r->ill_conditioned);
	rep_json_arr_begin(&j, "warnings");
	if (r->warning[0])
		rep_json_str(&j, NULL, r->warning);
	rep_json_arr_end(&j);
	if (output)
		rep_json_str(&j, "calibration_file", output);
	else
		rep_json_null(&j, "calibration_file");
	if (log && log->kind) { /* --from-log: what the measurement is */
		rep_json_obj_begin(&j, "log");
		rep_json_str(&j, "kind", log->kind);
		rep_json_str(&j, "metric", log->metric);
		rep_json_int(&j, "step_lines", (long long)log->step_lines);
		rep_json_int(&j, "used", (long long)log->used);
		rep_json_int(&j, "warmup_skipped", (long long)log->warmup_skipped);
		rep_json_int(&j, "restarts", (long long)log->restarts);
		rep_json_int(&j, "unusable", (long long)log->unusable);
		rep_json_num(&j, "p50", log->median);
		rep_json_num(&j, "p10", log->p10);
		rep_json_num(&j, "p90", log->p90);
		rep_json_obj_end(&j);
	}
	rep_json_obj_end(&j);
	return rep_json_finish(&j) | rc;
}

/* Write the overlay to `output` (when given) and print the result of fit
 * r of the measurements in `file`.  Returns an exit code. */
static int emit(struct cli_ctx *ctx, const struct cal_result *r, const char *gpu_id, const char *file,
		const char *output, const char *format, const struct calib_log_summary *log)
{
	struct tc_diag d;
	tc_diag_init(&d);
	if (output) {
		struct cal_overlay ov;
		cal_overlay_from_result(&ov, r, gpu_id, file);
		if (calib_write_file(output, ctx->out, &ov, &d))
			return cli_report(ctx, &d);
		if (!strcmp(output, "-")) /* the overlay is the output */
			return TC_EXIT_OK;
	}
	struct rep_rows rows;
	param_rows(r, &rows);
	int bad = !strcmp(format, "json") ? print_json(ctx, file, gpu_id, r, &rows, output, log)
					  : print_result(ctx, format, file, gpu_id, r, &rows);
	rep_rows_release(&rows);
	if (bad) {
		fputs("traincost calibrate: internal error: a non-finite value in the report or out "
		      "of memory\n", ctx->err);
		return TC_EXIT_INTERNAL;
	}
	if (output && (!strcmp(format, "table") || !strcmp(format, "md")))
		fprintf(ctx->out, "Wrote %s (use it with --calibration %s)\n", output, output);
	return TC_EXIT_OK;
}

/* The one GPU of the measurements, or NULL (reported) when they cover
 * several. */
static const char *only_gpu(struct cli_ctx *ctx, const struct meas_set *m)
{
	const char *gpu_id = m->cases.cases[0].gpu_id;
	for (size_t i = 1; i < m->cases.count; i++)
		if (strcmp(m->cases.cases[i].gpu_id, gpu_id)) {
			cli_usage_error(ctx, CMD, "the measurements cover several GPUs (%s, %s) (expected --gpu ID "
					"to choose one)", gpu_id, m->cases.cases[i].gpu_id);
			return NULL;
		}
	return gpu_id;
}

/* Every case's plan is valid on g: TC_EXIT_OK, or an exit code after the
 * problems were reported at the cases' positions. */
static int check_plans(struct cli_ctx *ctx, const struct val_case *cases, size_t n, const struct gpu *g)
{
	struct est_workspace ws;
	struct tc_diag d;
	int bad = 0;
	tc_diag_init(&d);
	if (est_workspace_init(&ws, EST_MAX_OPS))
		return TC_EXIT_INTERNAL;
	for (size_t i = 0; i < n; i++) {
		struct plan_problem pp;
		double pred;
		if (val_predict(&cases[i], g, &ws, &pred, &pp)) {
			tc_diag_at(&d, TC_EXIT_INPUT, cases[i].file, cases[i].line, 0, "%s: %s", cases[i].id, pp.msg);
			bad = 1;
		}
	}
	est_workspace_release(&ws);
	return bad ? cli_report(ctx, &d) : TC_EXIT_OK;
}

int cmd_calibrate(int argc, char **argv, struct cli_ctx *ctx)
{
	const char *gpu_id = NULL, *output = NULL, *fit = NULL, *format = "table";
	struct calib_log_args la = { 0 };
	struct calib_log_summary sum = { 0 };
	const struct cli_opt opts[] = {
		CLI_VALUE("gpu", &gpu_id, "ID",
			  "calibrate the runs on this GPU (needed when the file has several)"),
		{ .name = "output", .value = &output, .short_name = 'o', .arg = "FILE",
		  .help = "write the calibration for `estimate --calibration FILE`" },
		CLI_VALUE("fit", &fit, "LIST",
			  "fit exactly these parameters (comma-separated), or 'scale'"),
		CLI_CHOICE("format", &format, formats, "F", "output format (csv: the parameters alone)"),
		CLI_VALUE("from-log", &la.log, "LOG",
			  "the measurement is the median step time (or throughput) of a training "
			  "log: Megatron-LM, NeMo, torchtitan, Hugging Face Trainer, llm-foundry or "
			  "DeepSpeed (docs/import.md)"),
		CLI_VALUE("workload", &la.workload, "FILE", "the run the log is of (with --from-log)"),
		CLI_VALUE("warmup", &la.warmup, "N",
			  "step lines skipped at the start of each run segment (default "
			  CLI_STR(SLOG_DEFAULT_WARMUP) ")"),
		CLI_CHOICE("log-kind", &la.kind, slog_kind_names, "K",
			   "the log's kind (default: recognised from the log)"),
		{ 0 },
	};
	char *pos[CLI_MAX_POS];
	int npos, rc;
	struct meas_set m;
	struct gpu_catalog cat = { 0 };
	struct tc_diag d;
	struct val_case *cases = NULL;
	double *w = NULL;
	struct cal_options o;

	rc = cli_parse(ctx, CMD, argc, argv, opts, pos, &npos);
	meas_set_init(&m);
	tc_diag_init(&d);
	memset(&o, 0, sizeof(o));
	if (rc) {
		rc = rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;
		goto out;
	}
	if (npos != !la.log) {
		rc = cli_usage_error(ctx, CMD, "%s", la.log ? "--from-log takes no measurements file" : npos ?
				     "too many files (expected one measurements file)" :
				     "no measurements file given (expected MEASUREMENTS.yaml, or --from-log LOG)");
		goto out;
	}
	if (la.log)
		pos[0] = (char *)(uintptr_t)la.log;
	if (fit && (rc = parse_fit(ctx, fit, &o)))
		goto out;
	if (la.log && (rc = calib_log_load(ctx, &la, !strcmp(format, "table") || !strcmp(format, "md"), &m, &sum)))
		goto out;
	if ((!la.log && meas_load_file(pos[0], &ctx->data, &m, &d)) || gpu_catalog_load(&ctx->data, &cat, &d)) {
		rc = cli_report(ctx, &d);
		goto out;
	}
	if (!fit) {
		o.scale_only = m.scale_only;
		o.fit_mask = m.fit_mask;
	}
	/* One GPU per calibration. */
	if (!gpu_id && !(gpu_id = only_gpu(ctx, &m))) {
		rc = TC_EXIT_USAGE;
		goto out;
	}
	struct gpu g;
	char why[512];
	if (gpu_catalog_lookup(&cat, gpu_id, &g, why, sizeof(why))) {
		fprintf(ctx->err, "traincost calibrate: %s\n", why);
		rc = TC_EXIT_INPUT;
		goto out;
	}
	cases = malloc(m.cases.count * sizeof(*cases));
	w = malloc(m.cases.count * sizeof(*w));
	if (!cases || !w) {
		rc = TC_EXIT_INTERNAL;
		goto out;
	}
	size_t n = 0;
	for (size_t i = 0; i < m.cases.count; i++)
		if (!strcmp(m.cases.cases[i].gpu_id, gpu_id)) {
			cases[n] = m.cases.cases[i];
			w[n++] = m.weight[i];
		}
	if (n == 0) {
		fprintf(ctx->err, "traincost calibrate: no measurement ran on '%s'\n", gpu_id);
		rc = TC_EXIT_INPUT;
		goto out;
	}
	struct roof_eff start = g.eff;
	for (int p = 0; p < CAL_PARAM_COUNT; p++)
		if (m.start_mask & CAL_BIT(p))
			cal_set(&start, p, cal_get(&m.start, p));
	o.start = &start;
	/* Plans are checked first, so a bad one is reported where it was written. */
	if ((rc = check_plans(ctx, cases, n, &g)))
		goto out;
	struct cal_result r;
	if (cal_fit(cases, w, n, &g, &o, &r, &d)) {
		fprintf(ctx->err, "traincost calibrate: ");
		rc = cli_report(ctx, &d);
		goto out;
	}
	rc = emit(ctx, &r, gpu_id, pos[0], output, format, &sum);
out:
	free(cases);
	free(w);
	meas_set_release(&m);
	gpu_catalog_release(&cat);
	return rc;
}
