/*
 * steplog.c - step figures streamed out of training logs (steplog.h).
 * Each kind is a row: the text that marks its step figure, the unit of
 * that figure and the text before its step number.
 */
#include "steplog.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/infile.h"

#define SLOG_CHUNK (1u << 20) /* bytes read at a time */

const char *const slog_kind_names[] = { "auto", "megatron", "nemo", "torchtitan", "hf-trainer",
					"llm-foundry", "deepspeed", NULL };
const char *const slog_kind_words[] = { "a log", "Megatron-LM", "NeMo", "torchtitan",
					"Hugging Face Trainer", "llm-foundry", "DeepSpeed" };

struct marker {
	enum slog_kind kind;
	const char *text;       /* what precedes the figure */
	enum slog_metric metric;
	double scale;           /* figure x scale = value in the metric's unit */
	const char *step;       /* what precedes the step number, or NULL */
};

/* In the order they are tried; a kind may have several. */
static const struct marker markers[] = {
	/* " iteration  100/ 500000 | ... | elapsed time per iteration (ms): 12345.6 |" */
	{ SLOG_MEGATRON, "elapsed time per iteration (ms):", SLOG_STEP_TIME_S, 1e-3, "iteration" },
	/* Lightning's bar: "global_step=19.0, ..., train_step_timing in s=3.21]" */
	{ SLOG_NEMO, "train_step_timing in s=", SLOG_STEP_TIME_S, 1, "global_step=" },
	{ SLOG_NEMO, "train_step_timing in s:", SLOG_STEP_TIME_S, 1, "global_step:" },
	/* "step: 10  loss:  9.8765  memory: 45.12GiB(47.49%)  tps: 3,521  tflops: ..." */
	{ SLOG_TORCHTITAN, "tps:", SLOG_TOKENS_PER_S_GPU, 1, "step:" },
	/* trainer_state.json / the console summary (a whole-run average) */
	{ SLOG_HF, "\"train_samples_per_second\":", SLOG_SAMPLES_PER_S, 1, NULL },
	{ SLOG_HF, "'train_samples_per_second':", SLOG_SAMPLES_PER_S, 1, NULL },
	/* Composer: "[batch=2/100]:" then "\t Train throughput/tokens_per_sec: 5234.1" */
	{ SLOG_FOUNDRY, "throughput/tokens_per_sec:", SLOG_TOKENS_PER_S, 1, NULL },
	/* "epoch=0/micro_step=10/global_step=10, RunningAvgSamplesPerSec=..., CurrSamplesPerSec=12.5," */
	{ SLOG_DEEPSPEED, "CurrSamplesPerSec=", SLOG_SAMPLES_PER_S, 1, "global_step=" },
	{ SLOG_DEEPSPEED, "samples/sec=", SLOG_SAMPLES_PER_S, 1, "steps:" },
};
#define NMARKERS (sizeof(markers) / sizeof(markers[0]))

void slog_init(struct slog *s)
{
	memset(s, 0, sizeof(*s));
}

void slog_release(struct slog *s)
{
	if (!s)
		return;
	free(s->value);
	slog_init(s);
}

/* The number after `at` (spaces skipped; thousands commas allowed), which
 * must end at a separator.  Returns 0 with *out, or -1 (garbled). */
static int read_number(const char *at, double *out)
{
	char buf[64];
	size_t n = 0;
	while (*at == ' ' || *at == '\t')
		at++;
	for (; *at && strchr("0123456789.,eE+-naNifI", *at) && n < sizeof(buf) - 1; at++)
		if (*at != ',' || !(at[1] >= '0' && at[1] <= '9'))
			buf[n++] = *at;
		else if (n == 0)
			return -1;
	if (n && buf[n - 1] == ',')
		n--;
	buf[n] = '\0';
	if (!n || !(*at == '\0' || strchr(" \t|,]}%'\"\r", *at)))
		return -1;
	char *end;
	errno = 0;
	double v = strtod(buf, &end);
	if (*end || errno || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* Reader state across lines. */
struct reader {
	struct slog *s;
	const struct marker *m;  /* the kind's first marker, once known */
	int warmup;
	double last_step;        /* -1: none yet */
	double pending_step;     /* a step number seen on an earlier line (Composer) */
	size_t seg_seen;         /* values seen in this segment */
};

/* Step number `step` (-1: none) seen at `line`, with or without a usable
 * figure: a number lower than the last starts a new segment (a restart). */
static void note_step(struct reader *rd, double step, int line)
{
	struct slog *s = rd->s;
	if (step < 0)
		return;
	if (rd->last_step >= 0 && step < rd->last_step) {
		s->segments++;
		if (!s->restart_line)
			s->restart_line = line;
		rd->seg_seen = 0;
	}
	rd->last_step = step;
}

/* Take one step value read at `line`.  Returns 0, or -1 when full. */
static int take(struct reader *rd, double v, int line)
{
	struct slog *s = rd->s;
	s->found++;
	if (rd->seg_seen++ < (size_t)rd->warmup) {
		s->warmup_skipped++;
		return 0;
	}
	if (s->n == SLOG_MAX_VALUES)
		return -1;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		double *p = realloc(s->value, cap * sizeof(*p));
		if (!p)
			return -1;
		s->value = p;
		s->cap = cap;
	}
	if (!s->n)
		s->first_line = line;
	s->last_line = line;
	s->value[s->n++] = v;
	return 0;
}

/* The number after the first `text` of line (spaces skipped), or -1. */
static double step_after(const char *line, const char *text)
{
	const char *at = strstr(line, text);
	char *end;
	if (!at)
		return -1;
	at += strlen(text);
	while (*at == ' ')
		at++;
	double v = strtod(at, &end);
	return end != at && isfinite(v) && v >= 0 ? v : -1;
}

/* True when line[0..at) ends in a terminal colour code ("\033[34m"). */
static int after_colour(const char *line, const char *at)
{
	const char *p = at - 1;
	if (p < line || *p != 'm')
		return 0;
	while (--p >= line && (isdigit((unsigned char)*p) || *p == ';'))
		;
	return p > line && *p == '[' && p[-1] == '\033';
}

/* The first `text` in line that does not continue a word ("tps:" in
 * "https:" is not torchtitan's), or NULL. */
static const char *find_marker(const char *line, const char *text)
{
	for (const char *at = line; (at = strstr(at, text)); at++)
		if (at == line || !(isalnum((unsigned char)at[-1]) || at[-1] == '_') || after_colour(line, at))
			return at;
	return NULL;
}

/* One NUL-terminated piece of a line.  Returns 0, or -1 when full. */
static int read_piece(struct reader *rd, const char *line, int lineno)
{
	static const char composer_batch[] = "[batch=";
	const struct marker *m = NULL;
	const char *at = NULL;
	/* Composer names the batch on a line of its own, before the figures. */
	if ((!rd->m || rd->m->kind == SLOG_FOUNDRY) && strstr(line, composer_batch))
		rd->pending_step = step_after(line, composer_batch);
	for (size_t i = 0; i < NMARKERS && !at; i++) {
		if (rd->m && markers[i].kind != rd->m->kind)
			continue;
		if ((at = find_marker(line, markers[i].text)))
			m = &markers[i];
	}
	if (!m)
		return 0;
	if (!rd->m) {
		rd->m = m;
		rd->s->kind = m->kind;
		rd->s->metric = m->metric;
	}
	double v;
	note_step(rd, m->kind == SLOG_FOUNDRY ? rd->pending_step : m->step ? step_after(line, m->step) : -1, lineno);
	if (read_number(at + strlen(m->text), &v) || !(v > 0)) {
		if (!rd->s->bad_line)
			rd->s->bad_line = lineno;
		rd->s->bad++;
		return 0;
	}
	return take(rd, v * m->scale, lineno);
}

/* One NUL-terminated line: a progress bar captured in a file is many
 * pieces joined by carriage returns, each read on its own.  Returns 0,
 * or -1 when the values are full. */
static int read_line(struct reader *rd, char *line, int lineno)
{
	for (char *cr; (cr = strchr(line, '\r')); line = cr + 1) {
		*cr = '\0';
		if (read_piece(rd, line, lineno))
			return -1;
	}
	return read_piece(rd, line, lineno);
}

/* Stream fd through read_line.  Returns 0 or -1 (error in d). */
static int stream(int fd, const char *path, struct reader *rd, struct tc_diag *d)
{
	char *buf = malloc(SLOG_CHUNK + 1), *line = malloc(SLOG_MAX_LINE + 1);
	size_t have = 0;        /* bytes of the current line kept in `line` */
	int too_long = 0, lineno = 1, rc = -1;
	if (!buf || !line) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
		goto out;
	}
	for (;;) {
		ssize_t got = read(fd, buf, SLOG_CHUNK);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			tc_diag_at(d, TC_EXIT_IO, path, 0, 0, "cannot read file: %s", strerror(errno));
			goto out;
		}
		if (got == 0)
			break;
		const char *nul = memchr(buf, '\0', (size_t)got);
		size_t used = nul ? (size_t)(nul - buf) : (size_t)got;
		for (size_t at = 0; at < used;) {
			char *nl = memchr(buf + at, '\n', used - at);
			size_t n = (nl ? (size_t)(nl - buf) : used) - at;
			if (!too_long && have + n <= SLOG_MAX_LINE) {
				memcpy(line + have, buf + at, n);
				have += n;
			} else {
				too_long = 1;
			}
			at += n + (nl != NULL);
			if (!nl)
				break;
			line[have] = '\0';
			rd->s->lines++;
			if (!too_long && read_line(rd, line, lineno)) {
				tc_diag_at(d, TC_EXIT_INPUT, path, lineno, 0, "more than %d step lines (expected "
					   "the log of a short run: cut it, e.g. with head)", SLOG_MAX_VALUES);
				goto out;
			}
			have = 0;
			too_long = 0;
			lineno++;
		}
		if (nul) {
			tc_diag_at(d, TC_EXIT_INPUT, path, lineno, (int)(have + 1), "binary data (expected a "
				   "text log of a training run)");
			goto out;
		}
	}
	if (have || too_long) {
		rd->s->cut_last = 1; /* a truncated last line is not trusted */
		rd->s->lines++;
	}
	rc = 0;
out:
	free(buf);
	free(line);
	return rc;
}

int slog_read_file(const char *path, enum slog_kind kind, int warmup, struct slog *s,
		   struct tc_diag *d)
{
	struct reader rd = { .s = s, .warmup = warmup, .last_step = -1, .pending_step = -1 };
	assert(path && s && d && warmup >= 0);
	slog_init(s);
	s->segments = 1;
	if (kind != SLOG_AUTO)
		for (size_t i = 0; i < NMARKERS && !rd.m; i++)
			if (markers[i].kind == kind)
				rd.m = &markers[i];
	if (rd.m) {
		s->kind = rd.m->kind;
		s->metric = rd.m->metric;
	}
	/* A Trainer's figure is already the run's average: nothing to skip. */
	if (kind == SLOG_HF)
		rd.warmup = 0;
	int fd = tc_input_open(path, "a training log", d);
	if (fd < 0)
		return -1;
	int rc = stream(fd, path, &rd, d);
	close(fd);
	if (!rc && s->kind == SLOG_HF && s->warmup_skipped) {
		/* recognised only now: its values were skipped as warm-up */
		slog_release(s);
		return slog_read_file(path, SLOG_HF, 0, s, d);
	}
	if (!rc && s->found == 0)
		rc = tc_diag_at(d, TC_EXIT_INPUT, path, s->bad_line ? s->bad_line : 0, 0, "%s (expected lines with "
				"a step time or throughput: %s)", s->bad ? "no step line has a usable figure" :
				"no step lines", kind == SLOG_AUTO ? "Megatron-LM, NeMo, torchtitan, Hugging Face "
				"Trainer, llm-foundry or DeepSpeed" : slog_kind_words[kind]);
	else if (!rc && s->n == 0)
		rc = tc_diag_at(d, TC_EXIT_INPUT, path, 0, 0, "all %zu step lines are warm-up (expected more than "
				"%d in a segment, or a smaller --warmup)", s->found, warmup);
	if (rc)
		slog_release(s);
	return rc;
}
