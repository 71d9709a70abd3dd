/*
 * test_steplog.c - step figures read from training logs (src/io/steplog.c):
 * one fixture per stack (tests/import/logs, each header has the hand
 * computation), warm-up, restarts, unusable figures, and bad logs.
 */
#include "tc_test.h"

#include <fcntl.h>
#include <unistd.h>

#include "../../src/io/steplog.h"
#include "../../src/model/analyses/uncertainty.h"

#define LOGS "tests/import/logs/"

/* Read `path` (auto kind, default warm-up) and return its median. */
static double median_of(const char *path, struct slog *s)
{
	struct tc_diag d;
	struct unc_quantiles q;
	tc_diag_init(&d);
	if (slog_read_file(path, SLOG_AUTO, SLOG_DEFAULT_WARMUP, s, &d))
		fail_msg("%s: %s", path, d.count ? d.entry[0].msg : "?");
	double *copy = malloc(s->n * sizeof(*copy));
	assert_non_null(copy);
	memcpy(copy, s->value, s->n * sizeof(*copy));
	unc_summarise(copy, s->n, &q);
	free(copy);
	return q.p50;
}

static void test_megatron(void **state)
{
	struct slog s;
	(void)state;
	/* median (14458 + 14461) / 2 = 14459.5 ms */
	assert_close(median_of(LOGS "megatron-39b.log", &s), 14.4595, TOL_EXACT);
	assert_int_equal(s.kind, SLOG_MEGATRON);
	assert_int_equal(s.metric, SLOG_STEP_TIME_S);
	assert_int_equal(s.n, 6);
	assert_int_equal(s.warmup_skipped, 6);  /* 3 before and 3 after the restart */
	assert_int_equal(s.segments, 2);
	assert_int_equal(s.restart_line, 26);   /* iteration 6 again */
	assert_int_equal(s.bad, 2);             /* nan, and "144#@!x" */
	assert_int_equal(s.bad_line, 20);       /* iteration 7's nan */
	assert_int_equal(s.cut_last, 0);
	/* P10 and P90 by linear interpolation of the sorted 14447, 14452,
	 * 14458, 14461, 14466, 14470: 14447 + 0.5 x 5, 14466 + 0.5 x 4 */
	struct unc_quantiles q;
	unc_summarise(s.value, s.n, &q);
	assert_close(q.p10, 14.4495, TOL_EXACT);
	assert_close(q.p90, 14.468, TOL_EXACT);
	slog_release(&s);
}

static void test_nemo(void **state)
{
	struct slog s;
	(void)state;
	/* median (29.609 + 29.612) / 2 = 29.6105 s, from bars joined by \r */
	assert_close(median_of(LOGS "nemo-llama2-70b-lora.log", &s), 29.6105, TOL_EXACT);
	assert_int_equal(s.kind, SLOG_NEMO);
	assert_int_equal(s.n, 6);
	assert_int_equal(s.warmup_skipped, 6);
	assert_int_equal(s.segments, 2);
	assert_int_equal(s.bad, 1); /* 29.6x1 */
	slog_release(&s);
}

static void test_other_stacks(void **state)
{
	struct slog s;
	(void)state;
	/* torchtitan: the middle of 6801, 6812, 6819, 6822, 6830 tokens/s per
	 * GPU, across a restart */
	assert_close(median_of(LOGS "torchtitan-llama3-8b.log", &s), 6819, TOL_EXACT);
	assert_int_equal(s.metric, SLOG_TOKENS_PER_S_GPU);
	assert_int_equal(s.bad, 2);      /* nan, 6,8#2 */
	assert_int_equal(s.segments, 2);
	assert_int_equal(s.warmup_skipped, 6);
	slog_release(&s);
	/* the Trainer's summary: one whole-run figure, nothing skipped */
	assert_close(median_of(LOGS "trainer_state.json", &s), 7.878, TOL_EXACT);
	assert_int_equal(s.kind, SLOG_HF);
	assert_int_equal(s.metric, SLOG_SAMPLES_PER_S);
	assert_int_equal(s.warmup_skipped, 0);
	assert_int_equal(s.n, 1);
	slog_release(&s);
	/* the Trainer's console: the resumed call's summary */
	assert_close(median_of(LOGS "hf-trainer-console.log", &s), 7.912, TOL_EXACT);
	assert_int_equal(s.kind, SLOG_HF);
	assert_int_equal(s.n, 1);
	slog_release(&s);
	/* llm-foundry: (26210.4 + 26225.0) / 2, the batch numbers on lines of their own */
	assert_close(median_of(LOGS "llm-foundry-mpt-7b.log", &s), 26217.7, TOL_EXACT);
	assert_int_equal(s.metric, SLOG_TOKENS_PER_S);
	assert_int_equal(s.n, 4);
	assert_int_equal(s.segments, 2);
	assert_int_equal(s.bad, 1);      /* 2624O.9 */
	slog_release(&s);
	/* DeepSpeed: the middle of 5.88, 5.89, 5.90, 5.92, 5.93 samples/s */
	assert_close(median_of(LOGS "deepspeed-7b.log", &s), 5.90, TOL_EXACT);
	assert_int_equal(s.metric, SLOG_SAMPLES_PER_S);
	assert_int_equal(s.segments, 2);
	assert_int_equal(s.bad, 1);      /* 5.9.7 */
	slog_release(&s);
}

/* Write `len` bytes of text to a temporary file named into path. */
static void write_bytes(char *path, const char *text, size_t len)
{
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
}

/* Bad logs: the message, at its line where there is one. */
static void test_bad(void **state)
{
	static const struct {
		const char *text;
		size_t len; /* 0: strlen(text) */
		int warmup;
		const char *msg; /* after "PATH:" */
	} cases[] = {
		{ "loading...\ndone\n", 0, 3, " no step lines (expected lines with a step time or throughput: "
		  "Megatron-LM, NeMo, torchtitan, Hugging Face Trainer, llm-foundry or DeepSpeed)" },
		{ " iteration 1/ 5 | elapsed time per iteration (ms): nan |\n", 0, 3,
		  "1: no step line has a usable figure (expected lines with a step time or throughput: Megatron-LM, "
		  "NeMo, torchtitan, Hugging Face Trainer, llm-foundry or DeepSpeed)" },
		{ " iteration 1/ 5 | elapsed time per iteration (ms): 12.5 |\n"
		  " iteration 2/ 5 | elapsed time per iteration (ms): 12.5 |\n", 0, 3,
		  " all 2 step lines are warm-up (expected more than 3 in a segment, or a smaller --warmup)" },
		{ "step 1\nab\0cd\n", 14, 0, "2:3: binary data (expected a text log of a training run)" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[] = TC_TEMP_FILE, want[512];
		struct slog s;
		struct tc_diag d;
		write_bytes(path, cases[i].text, cases[i].len ? cases[i].len : strlen(cases[i].text));
		tc_diag_init(&d);
		int rc = slog_read_file(path, SLOG_AUTO, cases[i].warmup, &s, &d);
		snprintf(want, sizeof(want), "%s:%s", path, cases[i].msg);
		if (rc != -1 || d.count != 1 || strcmp(d.entry[0].msg, want))
			fail_msg("case %zu: rc %d, got '%s'", i, rc, d.count ? d.entry[0].msg : "");
		unlink(path);
	}
}

/* A cut-off last line is not used; a line longer than SLOG_MAX_LINE is
 * read past, and the lines after it are still read. */
static void test_truncated_and_long(void **state)
{
	char path[] = TC_TEMP_FILE;
	size_t big = SLOG_MAX_LINE + 100, n = 0;
	char *text = malloc(big + 512);
	struct slog s;
	struct tc_diag d;
	(void)state;
	assert_non_null(text);
	memset(text, 'x', big);
	n = big;
	n += (size_t)sprintf(text + n, "\n iteration 1/ 5 | elapsed time per iteration (ms): 20.0 |\n"
			     " iteration 2/ 5 | elapsed time per iteration (ms): 30.0 |\n"
			     " iteration 3/ 5 | elapsed time per iteration (ms): 4");
	write_bytes(path, text, n);
	tc_diag_init(&d);
	assert_int_equal(slog_read_file(path, SLOG_MEGATRON, 0, &s, &d), 0);
	assert_int_equal(s.n, 2); /* 20 and 30 ms; "4" is cut off */
	assert_int_equal(s.cut_last, 1);
	assert_close(s.value[1], 0.030, TOL_EXACT);
	slog_release(&s);
	unlink(path);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_megatron),
		cmocka_unit_test(test_nemo),
		cmocka_unit_test(test_other_stacks),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_truncated_and_long),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
