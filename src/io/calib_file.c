/*
 * calib_file.c - writing and reading the calibration overlay
 * (calib_file.h).
 */
#include "calib_file.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "../util/outfile.h"
#include "yaml_load.h"
#include "yaml_node.h"

/* Write a YAML double-quoted string (escapes quotes, backslashes and
 * control characters). */
static void put_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\x%02x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* A map of all nine parameters of *e, or of those with se > 0. */
static void put_params(FILE *f, const char *key, const struct roof_eff *e, const double *se)
{
	int any = 0;
	for (int p = 0; p < CAL_PARAM_COUNT; p++)
		any |= !se || se[p] > 0;
	if (!any) {
		fprintf(f, "%s: {}\n", key);
		return;
	}
	fprintf(f, "%s:\n", key);
	for (int p = 0; p < CAL_PARAM_COUNT; p++) {
		if (se && !(se[p] > 0))
			continue;
		fprintf(f, "  %s: %.6g\n", eff_params[p].name, se ? se[p] : cal_get(e, p));
	}
}

/* The correlations off the diagonal, each pair once: "a: { b: r, c: r }". */
static void put_corr(FILE *f, const struct cal_overlay *o)
{
	int any = 0;
	for (int p = 0; p < CAL_PARAM_COUNT; p++) {
		int row = 0;
		for (int q = p + 1; q < CAL_PARAM_COUNT; q++) {
			if (o->corr[p][q] == 0)
				continue;
			if (!any++)
				fputs("correlation:\n", f);
			if (!row++)
				fprintf(f, "  %s: { ", eff_params[p].name);
			else
				fputs(", ", f);
			fprintf(f, "%s: %.4g", eff_params[q].name, o->corr[p][q]);
		}
		if (row)
			fputs(" }\n", f);
	}
}

int calib_write(FILE *f, const struct cal_overlay *o)
{
	fputs("# traincost calibration: efficiency parameters fitted to measured steps.\n"
	      "# Apply with: traincost estimate WORKLOAD --calibration THIS_FILE\n", f);
	fputs("kind: calibration\n", f);
	fprintf(f, "format_version: %d\n", CALIB_FORMAT_VERSION);
	fprintf(f, "gpu: %s\n", o->eff.gpu);
	fputs("fitted_from: ", f);
	put_quoted(f, o->eff.fitted_from);
	fprintf(f, "\nmeasurements: %zu\n", o->eff.measurements);
	fprintf(f, "mode: %s\n", o->eff.scale_mode ? "scale" : "parameters");
	fprintf(f, "scale: %.6g\n", o->eff.scale_mode ? o->eff.scale : 1.0);
	fputs("fitted: [", f);
	for (int p = 0, k = 0; p < CAL_PARAM_COUNT; p++)
		if (o->eff.fitted_mask & CAL_BIT(p))
			fprintf(f, "%s%s", k++ ? ", " : "", eff_params[p].name);
	fputs("]\n", f);
	fprintf(f, "error_before: %.6g\n", o->error_before);
	fprintf(f, "error_after: %.6g\n", o->error_after);
	fprintf(f, "residual_sd: %.6g\n", o->residual_sd);
	put_params(f, "efficiency", &o->eff.after, NULL);
	put_params(f, "before", &o->eff.before, NULL);
	put_params(f, "std_error", NULL, o->se);
	put_corr(f, o);
	return ferror(f) ? -1 : 0;
}

int calib_write_file(const char *path, FILE *stream, const struct cal_overlay *o,
		     struct tc_diag *d)
{
	struct outfile of;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int bad;

	/* The overlay is a few kilobytes: format it in memory, then hand it
	 * to the one output writer (temporary file, fsync, rename). */
	if (outfile_open(&of, path, stream, d))
		return -1;
	mem = open_memstream(&text, &len);
	if (!mem) {
		outfile_abort(&of);
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
	}
	bad = calib_write(mem, o);
	bad |= fclose(mem) != 0;
	if (bad) {
		free(text);
		outfile_abort(&of);
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
	}
	outfile_write(&of, text, len);
	free(text);
	return outfile_commit(&of, d);
}

/* --- reading ------------------------------------------------------------ */

struct top_sec {
	char kind[32];
	int format_version;
	char gpu[GPU_ID_LEN];
	char fitted_from[CAL_TEXT_LEN];
	double measurements;
	int mode;
	double scale, error_before, error_after, residual_sd;
	int dummy;
};

static const char *const mode_names[] = { "parameters", "scale", NULL };

/* "unknown parameter 'x' in correlation (did you mean 'y'?)"; returns 1. */
static int unknown_param(const struct yn_node *k, const struct fd_ctx *ctx)
{
	const char *names[CAL_PARAM_COUNT + 1];
	const char *close;
	char shown[64];

	for (int p = 0; p < CAL_PARAM_COUNT; p++)
		names[p] = eff_params[p].name;
	names[CAL_PARAM_COUNT] = NULL;
	close = fd_suggest(k->str, names);
	yn_show_text(k->str, k->len, shown, sizeof(shown));
	if (close)
		tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, k->line, k->col,
			   "unknown parameter '%s' in correlation (did you mean '%s'?)", shown, close);
	else
		tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, k->line, k->col,
			   "unknown parameter '%s' in correlation (expected names such as mem_frac)",
			   shown);
	return 1;
}

/* The correlation map into c (identity first): parameter names, values
 * from -1 to 1, never a parameter with itself. */
static int read_corr(const struct yn_node *v, double c[CAL_PARAM_COUNT][CAL_PARAM_COUNT],
		     const struct fd_ctx *ctx)
{
	int bad = 0;
	cal_corr_identity(c);
	if (v->type != YN_MAP)
		return fd_type_error(v, "correlation", "a mapping of parameter names to mappings", ctx);
	for (size_t i = 0; i < v->count; i++) {
		const struct yn_node *k = v->keys[i], *row = v->items[i];
		int p = cal_param_find(k->str);
		if (p < 0) {
			bad |= unknown_param(k, ctx);
			continue;
		}
		if (row->type != YN_MAP) {
			bad |= fd_type_error(row, k->str, "a mapping of parameter names to correlations", ctx);
			continue;
		}
		for (size_t j = 0; j < row->count; j++) {
			const struct yn_node *k2 = row->keys[j], *val = row->items[j];
			int q = cal_param_find(k2->str);
			double r;
			if (q < 0) {
				bad |= unknown_param(k2, ctx);
				continue;
			}
			if (q == p) {
				bad |= tc_diag_at(ctx->d, TC_EXIT_INPUT, ctx->file, k2->line, k2->col,
						  "a parameter with itself in correlation (expected "
						  "another parameter than %s)", k->str);
				continue;
			}
			if (fd_get_num(val, k2->str, TC_UNIT_COUNT, -1, 1, &r, ctx)) {
				bad = 1;
				continue;
			}
			c[p][q] = c[q][p] = r;
		}
	}
	return bad ? -1 : 0;
}

/* A map of parameter values into *e (mask of those present to *seen). */
static int read_params(const struct yn_node *v, const char *key, struct roof_eff *e, double min_all,
		       uint64_t *seen, const struct fd_ctx *ctx)
{
	struct fd_field t[CAL_PARAM_COUNT + 1];
	if (v->type != YN_MAP)
		return fd_type_error(v, key, "a mapping of parameter values", ctx);
	memset(t, 0, sizeof(t));
	for (int p = 0; p < CAL_PARAM_COUNT; p++) {
		t[p].key = eff_params[p].name;
		t[p].type = FD_NUM;
		t[p].offset = eff_params[p].offset;
		t[p].unit = TC_UNIT_COUNT;
		t[p].min = min_all >= 0 ? min_all : eff_params[p].kind == EFF_FRAC ? eff_params[p].lo : 0;
		t[p].max = eff_params[p].kind == EFF_FRAC ? eff_params[p].hi : 1e15;
	}
	return fd_parse_map(v, t, e, key, ctx, seen);
}

int calib_read_file(const char *path, struct cal_overlay *o, struct tc_diag *d)
{
	enum { K_KIND, K_VER, K_GPU, K_FROM, K_N, K_MODE, K_SCALE, K_FITTED, K_EB, K_EA, K_RSD, K_EFF, K_BEFORE, K_SE,
	       K_CORR };
#define TOFF(f) offsetof(struct top_sec, f)
	static const struct fd_field top[] = {
		[K_KIND] = { .key = "kind", .type = FD_STR, .required = 1, .offset = TOFF(kind), .size = 32 },
		[K_VER] = { .key = "format_version", .type = FD_INT, .required = 1, .offset = TOFF(format_version),
			    .min = 1, .max = CALIB_FORMAT_VERSION },
		[K_GPU] = { .key = "gpu", .type = FD_STR, .required = 1, .offset = TOFF(gpu), .size = GPU_ID_LEN },
		[K_FROM] = { .key = "fitted_from", .type = FD_STR, .required = 1, .offset = TOFF(fitted_from),
			     .size = CAL_TEXT_LEN },
		[K_N] = { .key = "measurements", .type = FD_NUM, .required = 1, .offset = TOFF(measurements),
			  .unit = TC_UNIT_COUNT, .min = 1, .max = 1e9 },
		[K_MODE] = { .key = "mode", .type = FD_ENUM, .required = 1, .offset = TOFF(mode), .names = mode_names },
		[K_SCALE] = { .key = "scale", .type = FD_NUM, .offset = TOFF(scale), .unit = TC_UNIT_COUNT,
			      .min = 1e-3, .max = 1e3 },
		[K_FITTED] = { .key = "fitted", .type = FD_IGNORE, .offset = TOFF(dummy) },
		[K_EB] = { .key = "error_before", .type = FD_NUM, .offset = TOFF(error_before), .unit = TC_UNIT_COUNT,
			   .min = 0, .max = 1e6 },
		[K_EA] = { .key = "error_after", .type = FD_NUM, .offset = TOFF(error_after), .unit = TC_UNIT_COUNT,
			   .min = 0, .max = 1e6 },
		[K_RSD] = { .key = "residual_sd", .type = FD_NUM, .offset = TOFF(residual_sd), .unit = TC_UNIT_COUNT,
			    .min = 0, .max = 10 },
		[K_EFF] = { .key = "efficiency", .type = FD_IGNORE, .required = 1, .offset = TOFF(dummy) },
		[K_BEFORE] = { .key = "before", .type = FD_IGNORE, .required = 1, .offset = TOFF(dummy) },
		[K_SE] = { .key = "std_error", .type = FD_IGNORE, .offset = TOFF(dummy) },
		[K_CORR] = { .key = "correlation", .type = FD_IGNORE, .offset = TOFF(dummy) },
		{ 0 },
	};
#undef TOFF
	struct yn_doc doc = { 0 };
	struct top_sec ts;
	struct cal_overlay r;
	uint64_t seen_e = 0, seen_b = 0;
	int bad = 0;

	assert(path && o && d);
	if (yn_load_file(path, &doc, d))
		return -1;
	struct fd_ctx ctx = { .file = doc.file, .d = d };
	const struct yn_node *root = doc.root;
	memset(&ts, 0, sizeof(ts));
	memset(&r, 0, sizeof(r));
	ts.scale = 1;
	if (root->type != YN_MAP) {
		bad = fd_type_error(root, "calibration file", "a mapping with kind: calibration", &ctx);
		goto out;
	}
	if (fd_parse_map(root, top, &ts, "calibration file", &ctx, NULL)) {
		bad = 1;
		goto out;
	}
	if (strcmp(ts.kind, "calibration")) {
		bad = tc_diag_at(d, TC_EXIT_INPUT, doc.file, yn_map_get(root, "kind")->line,
				 yn_map_get(root, "kind")->col,
				 "kind '%s' is not a calibration (expected kind: calibration)", ts.kind);
		goto out;
	}
	eff_default(&r.eff.after);
	eff_default(&r.eff.before);
	if (read_params(yn_map_get(root, "efficiency"), "efficiency", &r.eff.after, -1, &seen_e, &ctx) ||
	    read_params(yn_map_get(root, "before"), "before", &r.eff.before, -1, &seen_b, &ctx))
		bad = 1;
	const struct yn_node *sn = yn_map_get(root, "std_error");
	struct roof_eff se;
	memset(&se, 0, sizeof(se));
	if (sn && read_params(sn, "std_error", &se, 0, NULL, &ctx))
		bad = 1;
	const struct yn_node *cn = yn_map_get(root, "correlation");
	cal_corr_identity(r.corr);
	if (cn && read_corr(cn, r.corr, &ctx))
		bad = 1;
	const struct yn_node *fn = yn_map_get(root, "fitted");
	if (fn && fn->type != YN_SEQ)
		bad |= fd_type_error(fn, "fitted", "a list of parameter names", &ctx);
	for (size_t i = 0; fn && fn->type == YN_SEQ && i < fn->count; i++) {
		const struct yn_node *it = fn->items[i];
		int p = it->type == YN_SCALAR ? cal_param_find(it->str) : -1;
		if (p < 0)
			bad |= tc_diag_at(d, TC_EXIT_INPUT, doc.file, it->line, it->col,
					  "unknown parameter in fitted (expected names such as mem_frac)");
		else
			r.eff.fitted_mask |= CAL_BIT(p);
	}
	if (!bad && (seen_e != ((UINT64_C(1) << CAL_PARAM_COUNT) - 1) ||
		     seen_b != ((UINT64_C(1) << CAL_PARAM_COUNT) - 1))) {
		const struct yn_node *at = yn_map_get(root, seen_e != ((UINT64_C(1) << CAL_PARAM_COUNT) - 1) ?
							    "efficiency" : "before");
		bad = tc_diag_at(d, TC_EXIT_INPUT, doc.file, at->line, at->col,
				 "a parameter is missing (expected all of gemm_max_frac, gemm_half_flop, attn_frac, "
				 "mem_frac, launch_s, launch_overlap_frac, comm_frac, comm_latency_s, comm_half_bytes)");
	}
	if (bad)
		goto out;
	for (int p = 0; p < CAL_PARAM_COUNT; p++)
		r.se[p] = cal_get(&se, p);
	snprintf(r.eff.gpu, sizeof(r.eff.gpu), "%s", ts.gpu);
	snprintf(r.eff.fitted_from, sizeof(r.eff.fitted_from), "%s", ts.fitted_from);
	r.eff.measurements = (size_t)ts.measurements;
	r.eff.scale_mode = ts.mode == 1;
	r.eff.scale = ts.scale;
	r.error_before = ts.error_before;
	r.error_after = ts.error_after;
	r.residual_sd = ts.residual_sd;
	{
		struct roof_eff def;
		eff_default(&def);
		r.eff.before.launch_graph_s = def.launch_graph_s;
		r.eff.after.launch_graph_s = def.launch_graph_s;
	}
	*o = r;
out:
	yn_doc_release(&doc);
	return bad ? -1 : 0;
}
