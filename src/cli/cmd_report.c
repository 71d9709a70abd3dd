/*
 * cmd_report.c - `traincost report FILE -o report.html`: one self-contained
 * page with the estimate, the GPU comparison, the plan and how the model
 * fared on measured runs of the GPUs involved.
 *
 * Each section is the output of its command (its table and its --plot
 * chart), run in-process on the same file with the same options, so the
 * page says exactly what the commands say.  The page is XHTML (it parses
 * as XML and as HTML), with its style sheet and charts inline and no
 * script: it reads the same offline.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../io/gpu_load.h"
#include "../io/val_load.h"
#include "../model/money/cost.h"
#include "../model/analyses/val_groups.h"
#include "../model/analyses/validate.h"
#include "../model/types/network.h"
#include "../report/md_html.h"
#include "../report/svg.h"
#include "../report/xmlbuf.h"
#include "../util/outfile.h"
#include "cmd_report.h"
#include "cli_ctx.h"
#include "val_cases.h"
#include "opts.h"

#ifndef TC_VERSION
#define TC_VERSION "0.0.0"
#endif

#define REPORT_MAX_ARGS 40  /* arguments of one section's command: 3, 7 options
			     * with values, --uncertainty, 8 --data and NULL */
#define REPORT_MAX_DATA 8   /* --data folders passed on */
#define REPORT_MAX_GPUS 128 /* GPU types in the validation section */
#define REPORT_DIR_LEN 4096 /* the scratch folder's path */

/* The page's own style; the charts' classes come from svg_style. */
static const char page_style[] =
	"body{font-family:DejaVu Sans,Liberation Sans,Arial,sans-serif;margin:2em auto;"
	"max-width:1000px;padding:0 1em;color:#111;background:#fff}\n"
	"h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ccc}\n"
	"pre{background:#f6f6f6;padding:0.8em;overflow-x:auto;font-size:12px;line-height:1.35}\n"
	"h3{font-size:1.05em}\n"
	"div.table{overflow-x:auto;margin:0.8em 0}\n"
	"table.data{border-collapse:collapse;font-size:13px}\n"
	"table.data th,table.data td{border:1px solid #ccc;padding:0.25em 0.6em;text-align:left;"
	"vertical-align:top}\n"
	"table.data th{background:#f2f2f2}\n"
	"table.data .num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"nav a{margin-right:1em}\n"
	"figure{margin:1em 0;overflow-x:auto}\n"
	"figure svg{max-width:100%;height:auto}\n"
	"table.status{border-collapse:collapse}\n"
	"table.status th,table.status td{border:1px solid #ccc;padding:0.3em 0.7em;text-align:left}\n"
	"td.num{text-align:right}\n"
	".failed{color:#a00000}\n";

/* One section: a command's output. */
struct section {
	const char *id, *title, *intro;
	char *out; size_t out_len; /* its standard output, owned */
	char *err; size_t err_len; /* its diagnostics, owned */
	char *svg;                 /* its chart, owned; NULL when none */
	int rc;
};

/* The whole of a small file, NUL-terminated (owned), or NULL. */
static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			if (cap >= XMLBUF_MAX_BYTES)
				goto fail; /* larger than any chart of ours */
			cap = cap ? cap * 2 : 65536;
			char *p = realloc(buf, cap);
			if (!p)
				goto fail;
			buf = p;
		}
		size_t n = fread(buf + len, 1, 4096, f);
		len += n;
		if (n < 4096)
			break;
	}
	if (ferror(f))
		goto fail;
	fclose(f);
	buf[len] = '\0';
	return buf;
fail:
	fclose(f);
	free(buf);
	return NULL;
}

/* Run `traincost argv...` in-process, its output and diagnostics kept in
 * s; the chart at svg_path (NULL: none) read in and removed. */
static void run_section(const struct cli_ctx *ctx, struct section *s, char **argv, int argc,
			const char *svg_path)
{
	FILE *out = open_memstream(&s->out, &s->out_len);
	FILE *err = open_memstream(&s->err, &s->err_len);
	if (!out || !err || !ctx->main) {
		if (out)
			fclose(out);
		if (err)
			fclose(err);
		s->rc = TC_EXIT_INTERNAL;
		return;
	}
	s->rc = ctx->main(argc, argv, out, err);
	fclose(out);
	fclose(err);
	if (svg_path) {
		if (!s->rc) {
			s->svg = read_all(svg_path);
			if (!s->svg)
				s->rc = TC_EXIT_IO;
		}
		unlink(svg_path);
	}
}

static void section_release(struct section *s)
{
	free(s->out);
	free(s->err);
	free(s->svg);
}

/* A chart inline: the file without its XML declaration. */
static void put_svg(struct xmlbuf *b, const char *svg)
{
	if (!strncmp(svg, "<?xml", 5)) {
		const char *nl = strchr(svg, '\n');
		svg = nl ? nl + 1 : "";
	}
	xmlbuf_raw(b, "<figure>\n");
	xmlbuf_raw(b, svg);
	xmlbuf_raw(b, "</figure>\n");
}

static void put_section(struct xmlbuf *b, const struct section *s)
{
	xmlbuf_printf(b, "<section id=\"%s\">\n<h2>", s->id);
	xmlbuf_text(b, s->title);
	xmlbuf_raw(b, "</h2>\n<p>");
	xmlbuf_text(b, s->intro);
	xmlbuf_raw(b, "</p>\n");
	if (s->rc) {
		xmlbuf_raw(b, "<p class=\"failed\">This section could not be made:</p>\n<pre class=\"failed\">");
		xmlbuf_text(b, s->err && s->err[0] ? s->err : "(no message)\n");
		xmlbuf_raw(b, "</pre>\n</section>\n");
		return;
	}
	if (s->svg)
		put_svg(b, s->svg);
	rep_md_html(b, s->out ? s->out : ""); /* the command's --format md */
	if (s->err && s->err[0]) { /* warnings, such as old prices */
		xmlbuf_raw(b, "<pre class=\"failed\">");
		xmlbuf_text(b, s->err);
		xmlbuf_raw(b, "</pre>\n");
	}
	xmlbuf_raw(b, "</section>\n");
}

/* The GPU ids of compare's CSV: the first field of each row. */
static int csv_gpus(char *csv, char **ids, int max)
{
	int n = 0;
	char *line = strchr(csv, '\n'); /* past the header */
	while (line && *++line && n < max) {
		char *end = strchr(line, ',');
		if (!end)
			break;
		*end = '\0';
		ids[n++] = line;
		line = strchr(end + 1, '\n');
	}
	return n;
}

/* The measured cases of each GPU involved, and the model's error on them. */
static void put_validation(struct xmlbuf *b, struct cli_ctx *ctx, char **ids, int nids)
{
	struct tc_diag d;
	struct val_set set;
	struct gpu_catalog cat = { 0 };
	struct val_result *res = NULL, *counted = NULL;
	struct val_group *groups = NULL;
	size_t n = 0;
	tc_diag_init(&d);
	val_set_init(&set);
	xmlbuf_raw(b, "<section id=\"validation\">\n<h2>Validation of the GPUs involved</h2>\n"
		      "<p>How far the model's predictions were from measured training runs on each "
		      "GPU type of the comparison: the figures of <code>traincost validate</code>, "
		      "its sanity-only cases shown there but not counted.  A GPU without "
		      "measured runs has estimates that are not checked against measurements.</p>\n");
	char dir[DP_PATH_LEN + 32];
	if (cli_validation_dir(ctx, dir, sizeof(dir)))
		tc_diag_msg(&d, TC_EXIT_IO, "no validation cases found (expected tests/validation "
			    "or validation in a data folder)");
	else if (val_load_dir(dir, &ctx->data, &set, &d) == 0 && gpu_catalog_load(&ctx->data, &cat, &d) == 0)
		cli_resolve_frameworks(ctx, &set, &d);
	if (d.count) {
		xmlbuf_raw(b, "<p class=\"failed\">The measured cases could not be read:</p>\n<pre class=\"failed\">");
		for (int i = 0; i < d.count; i++) {
			xmlbuf_text(b, d.entry[i].msg);
			xmlbuf_raw(b, "\n");
		}
		xmlbuf_raw(b, "</pre>\n");
		goto out;
	}
	res = malloc((set.count ? set.count : 1) * sizeof(*res));
	counted = malloc((set.count ? set.count : 1) * sizeof(*counted));
	if (!res || !counted || val_run(set.cases, set.count, NULL, 1, 0, cli_catalog_gpu, &cat, res, &n)) {
		b->oom = 1;
		goto out;
	}
	/* The figures of `validate`'s per-GPU table, computed the same way:
	 * the sanity-only cases are shown there but never counted. */
	int ngroups = val_group_by(set.cases, counted, cli_validate_counted(&set, res, n, counted),
				   cli_case_gpu, &groups);
	if (ngroups < 0) {
		b->oom = 1;
		goto out;
	}
	/* Units in the headers, numbers in the cells, as the other tables. */
	xmlbuf_raw(b, "<table class=\"status\">\n<tr><th>GPU</th><th class=\"num\">cases</th>"
		      "<th class=\"num\">mean error, MAPE (%)</th><th class=\"num\">median error (%)</th>"
		      "<th class=\"num\">worst error (%)</th><th class=\"num\">bias (%)</th></tr>\n");
	for (int g = 0; g < nids; g++) {
		const struct val_stats *st = NULL;
		for (int k = 0; k < ngroups && !st; k++)
			if (!strcmp(groups[k].key, ids[g]))
				st = &groups[k].st;
		xmlbuf_raw(b, "<tr><td>");
		xmlbuf_text(b, ids[g]);
		if (!st || !st->n) {
			xmlbuf_raw(b, "</td><td class=\"num\">0</td><td colspan=\"4\">none: not checked "
				      "against measurements</td></tr>\n");
			continue;
		}
		xmlbuf_printf(b, "</td><td class=\"num\">%zu</td><td class=\"num\">%.2f</td>"
			      "<td class=\"num\">%.2f</td><td class=\"num\">%.1f</td>"
			      "<td class=\"num\">%+.1f</td></tr>\n",
			      st->n, 100 * st->mape, 100 * st->median_ape, 100 * st->worst_ape,
			      100 * st->bias);
	}
	xmlbuf_raw(b, "</table>\n");
	if (!nids)
		xmlbuf_raw(b, "<p>No GPU type was compared (see the comparison above).</p>\n");
out:
	xmlbuf_raw(b, "</section>\n");
	free(res);
	free(counted);
	free(groups);
	val_set_release(&set);
	gpu_catalog_release(&cat);
}

/* Append "--name value" to args when value is set. */
/* Where scratch files go: $TMPDIR as POSIX asks, else /tmp. */
static const char *scratch_parent(void)
{
	const char *t = getenv("TMPDIR");
	return t && t[0] ? t : "/tmp";
}

/* A private scratch folder under `parent` in `dir`; -1 with errno set. */
static int make_scratch(const char *parent, char *dir, size_t size)
{
	int n = snprintf(dir, size, "%s/traincost-report.XXXXXX", parent);
	if (n < 0 || (size_t)n >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return mkdtemp(dir) ? 0 : -1;
}

static void add_opt(char **args, int *n, const char *name, const char *value)
{
	if (!value || *n + 2 >= REPORT_MAX_ARGS)
		return;
	args[(*n)++] = (char *)(uintptr_t)name;
	args[(*n)++] = (char *)(uintptr_t)value;
}

/* The GPU types `compare` lists for the same options, into ids[] (at
 * most REPORT_MAX_GPUS, pointing into run->out).  Returns how many. */
static int compared_gpus(const struct cli_ctx *ctx, char *file, const char *pricing,
			 const char *framework, const char *network, const char *gpus,
			 const char *const *data, int ndata, struct section *run, char **ids)
{
	char *args[REPORT_MAX_ARGS];
	int n = 0;
	args[n++] = (char *)(uintptr_t)"traincost";
	args[n++] = (char *)(uintptr_t)"compare";
	args[n++] = file;
	add_opt(args, &n, "--format", "csv");
	add_opt(args, &n, "--pricing", pricing);
	add_opt(args, &n, "--gpus", gpus);
	add_opt(args, &n, "--framework", framework);
	add_opt(args, &n, "--network", network);
	for (int i = 0; i < ndata; i++)
		add_opt(args, &n, "--data", data[i]);
	args[n] = NULL;
	run_section(ctx, run, args, n, NULL);
	return !run->rc && run->out ? csv_gpus(run->out, ids, REPORT_MAX_GPUS) : 0;
}

/* The whole page of workload file `name` into b: head, the three
 * sections, the validation of the GPUs ids[0..nids-1]. */
static void put_page(struct xmlbuf *b, struct cli_ctx *ctx, const char *name,
		     const struct section *sec, char **ids, int nids)
{
	xmlbuf_raw(b, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
		      "<head>\n<meta charset=\"utf-8\"/>\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>");
	xmlbuf_raw(b, "traincost report: ");
	xmlbuf_text(b, name);
	xmlbuf_raw(b, "</title>\n<style>\n");
	xmlbuf_raw(b, page_style);
	xmlbuf_raw(b, svg_style);
	xmlbuf_raw(b, "</style>\n</head>\n<body>\n<h1>Training run report: ");
	xmlbuf_text(b, name);
	xmlbuf_raw(b, "</h1>\n<p>Made by traincost " TC_VERSION " from <code>");
	xmlbuf_text(b, name);
	xmlbuf_raw(b, "</code>.  Prices carry the date of their source; every figure is an "
		      "estimate of the model described in the documentation (docs/model.md).</p>\n"
		      "<nav><a href=\"#estimate\">Estimate</a><a href=\"#compare\">GPU comparison</a>"
		      "<a href=\"#plan\">Plan</a><a href=\"#validation\">Validation</a></nav>\n");
	for (int k = 0; k < 3; k++)
		put_section(b, &sec[k]);
	put_validation(b, ctx, ids, nids);
	xmlbuf_raw(b, "</body>\n</html>\n");
}

/* Write the page b to `path` through a temporary file renamed at the end.
 * Returns 0 or an exit code after printing the problem. */
static int write_page(struct cli_ctx *ctx, const char *path, const struct xmlbuf *b)
{
	struct outfile of;
	struct tc_diag d;
	if (b->oom) {
		fputs("traincost report: out of memory\n", ctx->err);
		return TC_EXIT_INTERNAL;
	}
	tc_diag_init(&d);
	if (outfile_open(&of, path, NULL, &d))
		return cli_report(ctx, &d);
	(void)outfile_write(&of, b->buf, b->len); /* a failure is reported by the commit */
	return outfile_commit(&of, &d) ? cli_report(ctx, &d) : TC_EXIT_OK;
}

/* The --data folders of argv into data[] (at most REPORT_MAX_DATA), to go
 * on to each section.  Returns how many. */
static int data_folders(int argc, char **argv, const char **data)
{
	int n = 0;
	for (int i = 0; i < argc && n < REPORT_MAX_DATA; i++) {
		if (!strcmp(argv[i], "--data") && i + 1 < argc)
			data[n++] = argv[i + 1];
		else if (!strncmp(argv[i], "--data=", 7))
			data[n++] = argv[i] + 7;
	}
	return n;
}

int cmd_report(int argc, char **argv, struct cli_ctx *ctx)
{
	const char *output = NULL, *deadline = NULL, *budget = NULL, *gpus = NULL,
		   *max_gpus = NULL, *pricing = NULL, *unc = NULL, *framework = NULL,
		   *network = NULL;
	int unc_on = 0;
	struct cli_opt opts[] = {
		{ .name = "output", .value = &output, .short_name = 'o', .arg = "FILE",
		  .help = "the page (a temporary file renamed at the end)" },
		CLI_VALUE("deadline", &deadline, "D", "the plan: cheapest plan finishing within D"),
		CLI_VALUE("budget", &budget, "USD",
			  "the plan: fastest plan costing at most USD (50000, 3M)"),
		CLI_VALUE("gpus", &gpus, "LIST", "GPU types compared and planned over, comma-separated"),
		CLI_VALUE("max-gpus", &max_gpus, "N",
			  "the plan: largest GPU count (default " CLI_STR(CLI_DEFAULT_MAX_GPUS) ")"),
		CLI_CHOICE("pricing", &pricing, cost_kind_names, "P",
			   "the kind of price, on-demand unless given"),
		CLI_OPTIONAL("uncertainty", &unc, &unc_on, "N",
			     "P10-P90 of the comparison from N samples (default "
			     CLI_STR(UNC_DEFAULT_SAMPLES) ")"),
		CLI_VALUE("framework", &framework, "ID",
			  "software-stack profile of every section (see `traincost frameworks`; "
			  "default: the file's)"),
		CLI_CHOICE("network", &network, net_names, "NAME",
			   "between nodes in every section, for the plan and every offer (default: "
			   "the file's, and each offer of several instances over its own)"),
		{ 0 },
	};
	char *pos[CLI_MAX_POS];
	int npos, rc;
	const char *data[REPORT_MAX_DATA];
	int ndata = data_folders(argc, argv, data);
	rc = cli_parse(ctx, "report", argc, argv, opts, pos, &npos);
	if (rc)
		return rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;
	if (npos != 1)
		return cli_usage_error(ctx, "report", "%s", npos ? "too many files (expected one workload file)"
								 : "no workload file given (expected FILE)");
	if (!output || !output[0] || !strcmp(output, "-"))
		return cli_usage_error(ctx, "report", "no output file given (expected -o report.html)");

	char dir[REPORT_DIR_LEN];
	const char *tmp = scratch_parent();
	if (make_scratch(tmp, dir, sizeof(dir))) {
		fprintf(ctx->err, "traincost report: cannot make a scratch folder in '%s': %s\n",
			tmp, strerror(errno));
		return TC_EXIT_IO;
	}
	char unc_opt[64];
	snprintf(unc_opt, sizeof(unc_opt), "--uncertainty%s%s", unc ? "=" : "", unc ? unc : "");
	struct section sec[3] = {
		{ .id = "estimate", .title = "Estimate",
		  .intro = "The run as the workload file plans it: step time, total time, "
			   "cost, memory per GPU and where the time goes." },
		{ .id = "compare", .title = "GPU comparison",
		  .intro = "The same run on each GPU type, with its fastest plan that fits "
			   "memory at the file's GPU count, priced at the cheapest offer." },
		{ .id = "plan", .title = "Plan",
		  .intro = "Every GPU type and count with its fastest layout: the plans no "
			   "other plan beats in both time and cost, and the chosen ones." },
	};
	static const char *const cmds[] = { "estimate", "compare", "plan" };
	char svg_path[3][sizeof(dir) + 16];
	for (int k = 0; k < 3; k++) {
		char *args[REPORT_MAX_ARGS];
		int n = 0;
		args[n++] = (char *)(uintptr_t)"traincost";
		args[n++] = (char *)(uintptr_t)cmds[k];
		args[n++] = pos[0];
		snprintf(svg_path[k], sizeof(svg_path[k]), "%s/%s.svg", dir, cmds[k]);
		add_opt(args, &n, "--plot", svg_path[k]);
		add_opt(args, &n, "--format", "md");
		add_opt(args, &n, "--pricing", pricing);
		add_opt(args, &n, "--framework", framework);
		add_opt(args, &n, "--network", network);
		if (k > 0)
			add_opt(args, &n, "--gpus", gpus);
		if (k == 1 && unc_on)
			args[n++] = unc_opt;
		if (k == 2) {
			add_opt(args, &n, "--deadline", deadline);
			add_opt(args, &n, "--budget", budget);
			add_opt(args, &n, "--max-gpus", max_gpus);
		}
		for (int i = 0; i < ndata; i++)
			add_opt(args, &n, "--data", data[i]);
		args[n] = NULL;
		run_section(ctx, &sec[k], args, n, svg_path[k]);
		if (k == 0 && sec[0].rc) {
			/* The workload itself is wrong: no page, its diagnostics. */
			fputs(sec[0].err ? sec[0].err : "", ctx->err);
			rc = sec[0].rc;
			goto out;
		}
	}

	/* The GPU types of the comparison, for the validation section. */
	struct section ids_run = { 0 };
	char *ids[REPORT_MAX_GPUS];
	int nids = compared_gpus(ctx, pos[0], pricing, framework, network, gpus, data, ndata,
				  &ids_run, ids);

	struct xmlbuf b = { 0 };
	put_page(&b, ctx, pos[0], sec, ids, nids);
	section_release(&ids_run);

	rc = write_page(ctx, output, &b);
	xmlbuf_release(&b);
out:
	for (int k = 0; k < 3; k++)
		section_release(&sec[k]);
	rmdir(dir);
	return rc;
}
