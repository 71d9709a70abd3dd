/*
 * fuzz_estimate.c - libFuzzer harness for a whole estimate: the bytes as a
 * workload file (llm, vision or recsys), its GPU from the catalog of
 * ./models, step_estimate(), and every report format of `estimate` and
 * `explain`.  Every number of a successful estimate is finite, and no report
 * spells NaN or Inf.
 */
#include "fuzz.h"

#include <ctype.h>
#include <math.h>
#include <strings.h>

#include "../src/io/fw_load.h"
#include "../src/io/gpu_load.h"
#include "../src/io/wl_load.h"
#include "../src/io/yaml_load.h"
#include "../src/io/yaml_node.h"
#include "../src/model/families/estimate.h"
#include "../src/report/estimate_record.h"
#include "../src/report/estimate_report.h"
#include "../src/report/explain_report.h"

static const char *const formats[] = { "table", "json", "csv", "md" };

/* Abort unless every result and every operator is finite. */
static void check_finite(const struct estimate *e, const struct est_workspace *ws)
{
	const double v[] = { e->params, e->active_params, e->tokens_per_step, e->steps,
			     e->bubble_frac, e->step_time_s, e->tokens_per_s,
			     e->tokens_per_s_per_gpu, e->total_time_s, e->gpu_hours,
			     e->model_flop_per_step, e->hw_flop_per_step, e->mfu_frac,
			     e->hfu_frac, e->memory_per_gpu_bytes, e->memory_capacity_bytes };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!isfinite(v[i]))
			abort();
	for (int i = 0; i < BRK_COUNT; i++)
		if (!isfinite(e->breakdown_s[i]))
			abort();
	for (int i = 0; i < MEM_COUNT; i++)
		if (!isfinite(e->mem_bytes[i]))
			abort();
	for (size_t i = 0; i < ws->count; i++) {
		const struct op *o = &ws->ops[i];
		if (!isfinite(o->flop) || !isfinite(o->bytes) || !isfinite(o->count) ||
		    !isfinite(o->time_s) || !isfinite(o->launch_s))
			abort();
	}
}

/* Abort if a report holds "nan" or "inf" as a word. */
static void check_text(const char *s, size_t len)
{
	for (size_t i = 0; i + 3 <= len; i++) {
		if ((strncasecmp(s + i, "nan", 3) && strncasecmp(s + i, "inf", 3)) ||
		    (i > 0 && isalpha((unsigned char)s[i - 1])) ||
		    (i + 3 < len && isalpha((unsigned char)s[i + 3])))
			continue;
		abort();
	}
}

static void report(int explain, const char *fmt, const struct workload *w,
		   const struct gpu *g, const struct estimate *e,
		   const struct est_workspace *ws)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return;
	rc = explain ? rep_explain(f, fmt, w, g, e, ws) : rep_estimate(f, fmt, w, g, e, NULL, NULL);
	fclose(f);
	if (rc != 0)
		abort(); /* a non-finite number reached a report */
	check_text(buf, len);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tc_datapath dp;
	static struct gpu_catalog cat;
	static struct est_workspace ws;
	static int ready;
	struct yn_doc doc;
	struct workload w;
	struct gpu found, g;
	struct estimate est;
	struct plan_problem why;
	struct tc_diag d;
	char msg[1024];

	if (!ready) {
		fz_datapath(&dp);
		tc_diag_init(&d);
		if (gpu_catalog_load(&dp, &cat, &d) || est_workspace_init(&ws, EST_MAX_OPS)) {
			fprintf(stderr, "fuzz_estimate: run from the repository root\n");
			abort();
		}
		ready = 1;
	}
	tc_diag_init(&d);
	if (yn_load_buffer("fuzz.yaml", (const char *)data, size, &doc, &d))
		return 0;
	int rc = wl_load_doc(&doc, &dp, &w, &d);
	yn_doc_release(&doc);
	if (rc || !w.plan.gpu[0])
		return 0;
	if (gpu_catalog_lookup(&cat, w.plan.gpu, &found, msg, sizeof(msg)))
		return 0;
	struct eff_stack stack;
	if (fw_stack(&dp, w.plan.framework, &stack, &d))
		abort(); /* the id was checked when the workload loaded */
	gpu_resolve(&g, &found, &stack, NULL); /* as every caller does */
	why.field = WLF_NONE;
	why.msg[0] = '\0';
	if (step_estimate(&w, &g, &ws, &est, &why)) {
		if (!why.msg[0])
			abort(); /* a refusal must say why */
		return 0;
	}
	check_finite(&est, &ws);
	/* Names are echoed verbatim ("8inf1" is a fine name): blank them so
	 * that check_text() sees only numbers and fixed words. */
	snprintf(w.name, sizeof(w.name), "fuzz");
	if (w.kind == WL_VISION) /* the family's part alone (workload.h) */
		snprintf(w.vis.name, sizeof(w.vis.name), "fuzz");
	else if (w.kind == WL_RECSYS)
		snprintf(w.rec.name, sizeof(w.rec.name), "fuzz");
	else
		snprintf(w.llm.name, sizeof(w.llm.name), "fuzz");
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		report(0, formats[i], &w, &g, &est, &ws);
		report(1, formats[i], &w, &g, &est, &ws);
	}
	return 0;
}
