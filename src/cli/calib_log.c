/*
 * calib_log.c - a training log as the measurement of a calibration
 * (calib_log.h).
 */
#include "calib_log.h"
#include "opts.h"

#include <stdlib.h>
#include <string.h>

#include "../io/steplog.h"
#include "../io/wl_load.h"
#include "../model/analyses/uncertainty.h"

#define CMD "calibrate"

static const char *const metric_words[] = {
	[SLOG_STEP_TIME_S] = "step time",
	[SLOG_TOKENS_PER_S] = "tokens/s",
	[SLOG_TOKENS_PER_S_GPU] = "tokens/s per GPU",
	[SLOG_SAMPLES_PER_S] = "samples/s",
	[SLOG_MFU] = "MFU",
};

/* A figure of metric `m` in words into buf: "14.5 s", "6,818 tokens/s". */
static const char *figure(enum slog_metric m, double v, char *buf, int len)
{
	if (m == SLOG_STEP_TIME_S)
		snprintf(buf, (size_t)len, "%.5g s", v);
	else
		snprintf(buf, (size_t)len, "%.6g %s", m == SLOG_MFU ? 100 * v : v, m == SLOG_MFU ? "%" : metric_words[m]);
	return buf;
}

/* What was read, in words, and the median, P10 and P90. */
static void describe(struct cli_ctx *ctx, const char *log, const struct slog *s, int warmup,
		     const struct unc_quantiles *q)
{
	char a[48], b[48], c[48];
	fprintf(ctx->out, "Read %s (%s): %zu step line%s, %zu used", log, slog_kind_words[s->kind], s->found,
		s->found == 1 ? "" : "s", s->n);
	if (s->kind == SLOG_HF)
		fputs(" (the Trainer's figure is a whole-run average: no warm-up to skip)", ctx->out);
	else
		fprintf(ctx->out, " (warm-up: the first %d of each run segment skipped, %zu in all)", warmup,
			s->warmup_skipped);
	fputs("\n", ctx->out);
	if (s->segments > 1)
		fprintf(ctx->out, "  %zu restart%s: the first at line %d (the step number went back)\n", s->segments - 1,
			s->segments > 2 ? "s" : "", s->restart_line);
	if (s->bad)
		fprintf(ctx->out, "  %zu step line%s with no usable figure (not a finite positive number), the first "
			"at line %d\n", s->bad, s->bad == 1 ? "" : "s", s->bad_line);
	if (s->cut_last)
		fputs("  the last line is cut off (no newline): not used\n", ctx->out);
	fprintf(ctx->out, "  %s: median %s, P10 %s, P90 %s (spread %.1f %% of the median)\n\n", metric_words[s->metric],
		figure(s->metric, q->p50, a, sizeof(a)), figure(s->metric, q->p10, b, sizeof(b)),
		figure(s->metric, q->p90, c, sizeof(c)), 100 * (q->p90 - q->p10) / q->p50);
}

/* The case: the workload, and the median in a metric calibrate fits. */
static int make_case(struct cli_ctx *ctx, const struct calib_log_args *a, const struct slog *s, double median,
		     struct val_case *c)
{
	struct tc_diag d;
	tc_diag_init(&d);
	memset(c, 0, sizeof(*c));
	if (wl_load_file(a->workload, &ctx->data, &c->w, &d))
		return cli_report(ctx, &d);
	if (c->w.kind != WL_LLM)
		return cli_usage_error(ctx, CMD, "--workload '%s' is not a language model (expected kind: llm)",
				       a->workload);
	if (!c->w.plan.gpu[0])
		return cli_usage_error(ctx, CMD, "--workload '%s' names no GPU (expected plan.gpu: the GPU the "
				       "logged run used)", a->workload);
	/* A log is of the user's own stack, which the calibration fits: no
	 * framework profile goes under it (as in a measurements file). */
	memset(&c->w.plan.framework, 0, sizeof(c->w.plan.framework));
	snprintf(c->gpu_id, sizeof(c->gpu_id), "%s", c->w.plan.gpu);
	snprintf(c->id, sizeof(c->id), "median of %s", a->log);
	snprintf(c->family, sizeof(c->family), "llm");
	snprintf(c->source, sizeof(c->source), "%s", a->log);
	snprintf(c->file, sizeof(c->file), "%s", a->log);
	c->line = s->first_line;
	switch (s->metric) {
	case SLOG_STEP_TIME_S:
		c->metric = VAL_ITER_TIME;
		c->measured = median;
		break;
	case SLOG_TOKENS_PER_S:
		c->metric = VAL_TOKENS_PER_S;
		c->measured = median;
		break;
	case SLOG_TOKENS_PER_S_GPU:
		c->metric = VAL_TOKENS_PER_S;
		c->measured = median * c->w.plan.count;
		break;
	case SLOG_SAMPLES_PER_S:
		c->metric = VAL_TOKENS_PER_S;
		c->measured = median * c->w.train.seq_len;
		break;
	case SLOG_MFU:
		c->metric = VAL_MFU;
		c->measured = median;
		break;
	}
	return TC_EXIT_OK;
}

/* The metric's name with its unit, for scripts. */
static const char *const metric_keys[] = {
	[SLOG_STEP_TIME_S] = "step_time_s",
	[SLOG_TOKENS_PER_S] = "tokens_per_s",
	[SLOG_TOKENS_PER_S_GPU] = "tokens_per_s_per_gpu",
	[SLOG_SAMPLES_PER_S] = "samples_per_s",
	[SLOG_MFU] = "mfu_frac",
};

int calib_log_load(struct cli_ctx *ctx, const struct calib_log_args *a, int for_people, struct meas_set *m,
		   struct calib_log_summary *sum)
{
	int warmup = SLOG_DEFAULT_WARMUP, kind = SLOG_AUTO, rc;
	struct slog s;
	struct tc_diag d;
	struct unc_quantiles q;
	struct val_case *c = NULL;

	if (!a->workload)
		return cli_usage_error(ctx, CMD, "--from-log needs --workload RUN.yaml (the run the log is of)");
	if (a->warmup && cli_int_arg(ctx, CMD, "--warmup", a->warmup, 0, 1000000, &warmup))
		return TC_EXIT_USAGE;
	while (a->kind && slog_kind_names[kind] && strcmp(slog_kind_names[kind], a->kind))
		kind++;
	if (a->kind && !slog_kind_names[kind])
		return cli_usage_error(ctx, CMD, "--log-kind '%s' is not known (expected megatron, nemo, torchtitan, "
				       "hf-trainer, llm-foundry or deepspeed)", a->kind);
	tc_diag_init(&d);
	if (slog_read_file(a->log, (enum slog_kind)kind, warmup, &s, &d))
		return cli_report(ctx, &d);
	unc_summarise(s.value, s.n, &q);
	if (!(c = malloc(sizeof(*c)))) {
		rc = TC_EXIT_INTERNAL;
		goto out;
	}
	if ((rc = make_case(ctx, a, &s, q.p50, c)))
		goto out;
	if (for_people)
		describe(ctx, a->log, &s, warmup, &q);
	*sum = (struct calib_log_summary){
		.kind = slog_kind_names[s.kind], .metric = metric_keys[s.metric], .step_lines = s.found,
		.used = s.n, .warmup_skipped = s.warmup_skipped, .restarts = s.segments - 1, .unusable = s.bad,
		.median = q.p50, .p10 = q.p10, .p90 = q.p90,
	};
	meas_set_init(m);
	snprintf(m->file, sizeof(m->file), "%s", a->log);
	snprintf(m->source, sizeof(m->source), "%s", a->log);
	rc = meas_set_add(m, c, 1) ? TC_EXIT_INTERNAL : TC_EXIT_OK;
out:
	free(c);
	slog_release(&s);
	return rc;
}
