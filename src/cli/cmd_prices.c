/*
 * cmd_prices.c - `traincost prices` (list the offers of the price tables)
 * and `traincost prices import skypilot FILE.csv --provider NAME`.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../io/gpu_load.h"
#include "../io/price_load.h"
#include "../report/json.h"
#include "../report/table.h"
#include "cli.h"
#include "opts.h"

#define NCOLS 14
#define ONPREM "onprem"

static const char *const formats[] = { "table", "csv", "json", "md", NULL };

/* One listed offer: a cloud offer or an on-premises GPU. */
struct row {
	const struct price_table *t;      /* borrowed; NULL for on-premises */
	const struct price_offer *o;      /* borrowed; NULL for on-premises */
	const struct price_onprem_gpu *g; /* borrowed; on-premises only */
	double usd_per_h;                 /* per instance-hour */
	double usd_per_gpu_h;
};

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	const char *gx = x->o ? x->o->gpu : x->g->gpu;
	const char *gy = y->o ? y->o->gpu : y->g->gpu;
	int c = strcmp(gx, gy);
	if (c)
		return c;
	if (x->usd_per_gpu_h != y->usd_per_gpu_h)
		return x->usd_per_gpu_h < y->usd_per_gpu_h ? -1 : 1;
	return 0;
}

/* "per second, min 1 min" etc. into buf. */
static const char *billing_text(const struct cost_billing *b, char *buf, size_t len)
{
	static const char *const unit[] = { "per second", "per minute", "per hour" };
	double m = b->minimum_s;
	if (m >= 3600 && fmod(m, 3600) == 0)
		snprintf(buf, len, "%s, min %g h", unit[b->granularity], m / 3600);
	else if (m >= 60 && fmod(m, 60) == 0)
		snprintf(buf, len, "%s, min %g min", unit[b->granularity], m / 60);
	else
		snprintf(buf, len, "%s, min %g s", unit[b->granularity], m);
	return buf;
}

/* The catalog's GPU ids, NULL-terminated (pointers into cat). */
static const char **catalog_ids(const struct gpu_catalog *cat)
{
	const char **ids = calloc(cat->count + 1, sizeof(*ids));
	for (size_t i = 0; ids && i < cat->count; i++)
		ids[i] = cat->gpus[i].id;
	return ids;
}

static double tdp_of(const struct gpu_catalog *cat, const char *id)
{
	for (size_t i = 0; i < cat->count; i++)
		if (!strcmp(cat->gpus[i].id, id))
			return cat->gpus[i].tdp_w;
	return 0;
}

static int print_json(struct cli_ctx *ctx, const struct row *rows, size_t n,
		       const char *pricing, int max_age, const char *today)
{
	struct rep_json j;
	rep_json_doc_begin(&j, ctx->out, "prices");
	rep_json_str(&j, "today", today);
	rep_json_str(&j, "pricing", pricing);
	rep_json_int(&j, "max_age_days", max_age);
	rep_json_arr_begin(&j, "offers");
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		rep_json_obj_begin(&j, NULL);
		if (r->o) {
			rep_json_str(&j, "provider", r->t->provider);
			rep_json_str(&j, "instance", r->o->instance);
			rep_json_str(&j, "gpu", r->o->gpu);
			rep_json_num(&j, "gpus_per_instance", r->o->gpus);
			rep_json_str(&j, "region", r->o->region);
			rep_json_num(&j, "price_usd_per_instance_h", r->usd_per_h);
			rep_json_num(&j, "price_usd_per_gpu_h", r->usd_per_gpu_h);
			if (r->o->gpu_part_usd_per_h > 0) {
				rep_json_num(&j, "gpu_part_price_usd_per_h", r->o->gpu_part_usd_per_h);
				rep_json_num(&j, "host_part_price_usd_per_h", r->o->host_part_usd_per_h);
			}
			rep_json_str(&j, "billing", cost_gran_names[r->t->billing.granularity]);
			rep_json_num(&j, "billing_minimum_s", r->t->billing.minimum_s);
			rep_json_str(&j, "as_of", r->o->as_of);
			rep_json_bool(&j, "verified", r->o->verified);
			rep_json_str(&j, "source", r->o->source);
			rep_json_str(&j, "file", r->t->file);
			rep_json_str(&j, "interconnect", cost_link_names[r->o->interconnect]);
			rep_json_str(&j, "network", r->o->network);
			rep_json_int(&j, "max_instances", r->o->max_instances);
			rep_json_str(&j, "fabric_source", r->o->fabric_source);
			if (r->o->notes[0])
				rep_json_str(&j, "notes", r->o->notes);
		} else {
			rep_json_str(&j, "provider", ONPREM);
			rep_json_str(&j, "instance", "owned server");
			rep_json_str(&j, "gpu", r->g->gpu);
			rep_json_num(&j, "gpus_per_instance", 1);
			rep_json_str(&j, "region", "own site");
			rep_json_num(&j, "price_usd_per_instance_h", r->usd_per_h);
			rep_json_num(&j, "price_usd_per_gpu_h", r->usd_per_gpu_h);
			rep_json_bool(&j, "verified", r->g->verified);
			rep_json_str(&j, "source", r->g->source);
		}
		rep_json_obj_end(&j);
	}
	rep_json_arr_end(&j);
	rep_json_obj_end(&j);
	if (rep_json_finish(&j)) {
		fprintf(ctx->err, "traincost prices: internal error: non-finite value in '%s'\n",
			j.bad_key);
		return TC_EXIT_INTERNAL;
	}
	return TC_EXIT_OK;
}

static int print_table(struct cli_ctx *ctx, const struct row *rows, size_t n,
		       const char *fmt, const struct price_onprem *op)
{
	int csv = !strcmp(fmt, "csv");
	static const char *const text_head[NCOLS] = {
		"GPU", "provider", "instance", "GPUs", "region", "$/h", "$/GPU-h",
		"billing", "as of", "checked", "source", "inside", "between", "instances"
	};
	/* CSV is a contract: units in the column names, one fixed header. */
	static const char *const csv_head[NCOLS] = {
		"gpu", "provider", "instance", "gpus_per_instance", "region",
		"price_usd_per_instance_h", "price_usd_per_gpu_h", "billing", "as_of",
		"verified", "source", "interconnect", "network", "max_instances"
	};
	static const enum rep_align align[NCOLS] = { REP_LEFT, REP_LEFT, REP_LEFT,
		REP_RIGHT, REP_LEFT, REP_RIGHT, REP_RIGHT, REP_LEFT, REP_LEFT,
		REP_LEFT, REP_LEFT, REP_LEFT, REP_LEFT, REP_RIGHT };
	struct rep_table t;
	char src_ref[64][8];
	const char *srcs[64];
	int nsrc = 0;

	rep_table_init(&t, NCOLS, csv ? csv_head : text_head, align);
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		char gpus[32], ph[32], pg[32], bill[64], most[32];
		const char *cells[NCOLS];
		const char *source = r->o ? r->o->source : r->g->source;
		const char *srccell = source;

		if (!csv) {
			/* Text: sources as numbered notes under the table. */
			int k;
			for (k = 0; k < nsrc; k++)
				if (!strcmp(srcs[k], source))
					break;
			if (k == nsrc && nsrc < 64)
				srcs[nsrc++] = source;
			snprintf(src_ref[k < 64 ? k : 63], sizeof(src_ref[0]), "[%d]", k + 1);
			srccell = src_ref[k < 64 ? k : 63];
		}
		snprintf(gpus, sizeof(gpus), "%g", r->o ? r->o->gpus : 1.0);
		snprintf(ph, sizeof(ph), csv ? "%.10g" : "%.2f", r->usd_per_h);
		snprintf(pg, sizeof(pg), csv ? "%.10g" : "%.3f", r->usd_per_gpu_h);
		if (r->o) {
			if (csv)
				snprintf(bill, sizeof(bill), "%s",
					 cost_gran_names[r->t->billing.granularity]);
			else
				billing_text(&r->t->billing, bill, sizeof(bill));
		} else {
			snprintf(bill, sizeof(bill), "%s", csv ? "" : "-");
		}
		cells[0] = r->o ? r->o->gpu : r->g->gpu;
		cells[1] = r->o ? r->t->provider : ONPREM;
		cells[2] = r->o ? r->o->instance : "owned server";
		cells[3] = gpus;
		cells[4] = r->o ? r->o->region : "own site";
		cells[5] = ph;
		cells[6] = pg;
		cells[7] = bill;
		cells[8] = r->o ? r->o->as_of : op->as_of;
		cells[9] = (r->o ? r->o->verified : r->g->verified) ? (csv ? "true" : "yes")
								     : (csv ? "false" : "no");
		cells[10] = srccell;
		/* What one order can host (owned servers: not stated). */
		snprintf(most, sizeof(most), "%d", r->o ? r->o->max_instances : 1);
		cells[11] = r->o ? cost_link_names[r->o->interconnect] : csv ? "" : "-";
		cells[12] = r->o ? r->o->network : csv ? "" : "-";
		cells[13] = r->o ? most : csv ? "" : "-";
		rep_table_row(&t, cells);
	}
	int rc = rep_table_print(&t, ctx->out, fmt);
	rep_table_release(&t);
	if (!csv && nsrc) {
		fputs("\nUSD per instance-hour and per GPU-hour; checked \"no\" marks a recalled,\n"
		      "assumed or suspect figure (see the file's notes).  What one order can\n"
		      "host: the link inside an instance, the network between instances and\n"
		      "the most instances it joins (docs/pricing.md, \"Fabric\"; the sources\n"
		      "of those are in `traincost prices --format json`).\n\nSources:\n", ctx->out);
		for (int k = 0; k < nsrc; k++) {
			char shown[2048];
			fprintf(ctx->out, "  [%d] %s\n", k + 1,
				rep_show(shown, sizeof(shown), srcs[k], fmt));
		}
		int owned = 0;
		for (size_t i = 0; i < n; i++)
			owned |= rows[i].o == NULL;
		if (owned && op)
			fputs("\nonprem: cost of ownership per GPU-hour from pricing/onprem.yaml"
			      " (docs/pricing.md)\n", ctx->out);
	}
	return rc;
}

/* `prices import skypilot FILE --provider NAME`. */
static int run_import(struct cli_ctx *ctx, char **pos, int npos, const char *provider)
{
	if (npos != 3 || strcmp(pos[1], "skypilot"))
		return cli_usage_error(ctx, "prices",
				       "usage: traincost prices import skypilot FILE.csv --provider NAME");
	if (!provider)
		return cli_usage_error(ctx, "prices",
				       "import needs --provider NAME (expected e.g. --provider aws)");
	for (const char *p = provider; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
			return cli_usage_error(ctx, "prices",
					       "provider '%s' has characters other than a-z, 0-9 and '-' (expected a name such as aws)",
					       provider);
	const char *today = ctx->today;
	struct price_table t = { 0 };
	struct tc_diag d, warn;
	tc_diag_init(&d);
	tc_diag_init(&warn);
	int rc = price_import_skypilot(pos[2], provider, today, &t, &warn, &d);
	for (int i = 0; i < warn.count; i++)
		fprintf(ctx->err, "%s\n", warn.entry[i].msg);
	if (rc)
		return cli_report(ctx, &d);
	rc = price_table_write_yaml(&t, ctx->out) ? TC_EXIT_IO : TC_EXIT_OK;
	price_table_release(&t);
	return rc;
}

int cmd_prices(int argc, char **argv, struct cli_ctx *ctx)
{
	const char *gpu = NULL, *provider = NULL, *pricing = "on-demand";
	const char *max_age_arg = NULL, *format = "table";
	const struct cli_opt opts[] = {
		{ "gpu", &gpu, NULL, NULL },
		{ "provider", &provider, NULL, NULL },
		{ "pricing", &pricing, NULL, cost_kind_names },
		{ "max-age", &max_age_arg, NULL, NULL },
		{ "format", &format, NULL, formats },
		{ NULL, NULL, NULL, NULL },
	};
	char *pos[CLI_MAX_POS];
	int npos, max_age = PRICE_STALE_DAYS;
	int rc = cli_parse(ctx, "prices", argc, argv, opts, pos, &npos);
	if (rc)
		return rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;
	if (npos >= 1 && !strcmp(pos[0], "import"))
		return run_import(ctx, pos, npos, provider);
	if (npos)
		return cli_usage_error(ctx, "prices",
				       "unknown argument '%s' (expected options, or 'import skypilot FILE.csv')",
				       pos[0]);
	if (max_age_arg &&
	    (rc = cli_int_arg(ctx, "prices", "max-age", max_age_arg, 0, 100000, &max_age)))
		return rc;
	enum cost_kind kind = (enum cost_kind)cost_kind_parse(pricing);

	const char *today = ctx->today;
	struct gpu_catalog cat = { 0 };
	struct price_set set = { 0 };
	struct row *rows = NULL;
	const char **ids = NULL;
	struct tc_diag d, warn;
	size_t n = 0;
	tc_diag_init(&d);
	tc_diag_init(&warn);

	if (gpu_catalog_load(&ctx->data, &cat, &d) ||
	    price_load_all(&ctx->data, today, &set, &warn, &d)) {
		rc = cli_report(ctx, &d);
		goto out;
	}
	if (!(ids = catalog_ids(&cat))) {
		fputs("traincost prices: out of memory\n", ctx->err);
		rc = TC_EXIT_INTERNAL;
		goto out;
	}
	int bad = 0;
	for (size_t i = 0; i < set.count; i++)
		if (price_check_gpus(&set.tables[i], ids, &d))
			bad = 1;
	if (set.onprem && price_onprem_check_gpus(set.onprem, ids, &d))
		bad = 1;
	if (bad) {
		rc = cli_report(ctx, &d);
		goto out;
	}
	if (gpu) {
		struct gpu g;
		char why[1024];
		if (gpu_catalog_lookup(&cat, gpu, &g, why, sizeof(why))) {
			fprintf(ctx->err, "traincost prices: %s\n", why);
			rc = TC_EXIT_INPUT;
			goto out;
		}
	}
	if (provider && strcmp(provider, ONPREM)) {
		size_t i;
		for (i = 0; i < set.count && strcmp(set.tables[i].provider, provider); i++)
			;
		if (i == set.count) {
			char list[512];
			size_t used = 0;
			list[0] = '\0';
			for (size_t k = 0; k < set.count && used + 1 < sizeof(list); k++) {
				int w = snprintf(list + used, sizeof(list) - used, "%s%s",
						 k ? ", " : "", set.tables[k].provider);
				if (w < 0 || (size_t)w >= sizeof(list) - used)
					break;
				used += (size_t)w;
			}
			rc = cli_usage_error(ctx, "prices",
					     "unknown provider '%s' (expected one of: %s%s)",
					     provider, list, set.onprem ? ", " ONPREM : "");
			goto out;
		}
	}

	size_t cap = set.onprem ? set.onprem->count : 0;
	for (size_t i = 0; i < set.count; i++)
		cap += set.tables[i].count;
	rows = calloc(cap ? cap : 1, sizeof(*rows));
	if (!rows) {
		fputs("traincost prices: out of memory\n", ctx->err);
		rc = TC_EXIT_INTERNAL;
		goto out;
	}
	for (size_t i = 0; i < set.count; i++) {
		const struct price_table *t = &set.tables[i];
		if (provider && strcmp(provider, t->provider))
			continue;
		int listed = 0;
		for (size_t k = 0; k < t->count; k++) {
			const struct price_offer *o = &t->offers[k];
			if ((gpu && strcmp(gpu, o->gpu)) || !(o->price_usd_per_h[kind] > 0))
				continue;
			rows[n].t = t;
			rows[n].o = o;
			rows[n].usd_per_h = o->price_usd_per_h[kind];
			rows[n].usd_per_gpu_h = price_usd_per_gpu_h(o, kind);
			n++;
			listed = 1;
		}
		if (listed)
			price_check_stale(t, today, max_age, &warn);
	}
	/* Owning has no spot price: list it with on-demand. */
	if (set.onprem && kind == COST_ON_DEMAND && (!provider || !strcmp(provider, ONPREM))) {
		for (size_t k = 0; k < set.onprem->count; k++) {
			const struct price_onprem_gpu *g = &set.onprem->gpus[k];
			struct cost_onprem p;
			struct cost_onprem_result r;
			if (gpu && strcmp(gpu, g->gpu))
				continue;
			if (price_onprem_params(set.onprem, g->gpu, &p) ||
			    cost_onprem_per_gpu_h(&p, tdp_of(&cat, g->gpu), &r))
				continue;
			rows[n].g = g;
			rows[n].usd_per_h = r.total_usd_per_gpu_h;
			rows[n].usd_per_gpu_h = r.total_usd_per_gpu_h;
			n++;
		}
	}
	qsort(rows, n, sizeof(*rows), cmp_row);
	for (int i = 0; i < warn.count; i++)
		fprintf(ctx->err, "%s\n", warn.entry[i].msg);
	if (warn.dropped)
		fprintf(ctx->err, "traincost prices: %d more warnings not shown\n", warn.dropped);

	for (size_t i = 0; i < n; i++)
		if (!isfinite(rows[i].usd_per_h) || !isfinite(rows[i].usd_per_gpu_h)) {
			fputs("traincost prices: internal error: non-finite price\n", ctx->err);
			rc = TC_EXIT_INTERNAL;
			goto out;
		}
	if (!strcmp(format, "json")) {
		rc = print_json(ctx, rows, n, pricing, max_age, today);
	} else if (n == 0 && strcmp(format, "csv")) {
		fprintf(ctx->out, "no %s offers%s%s%s%s\n", pricing,
			gpu ? " of " : "", gpu ? gpu : "",
			provider ? " from " : "", provider ? provider : "");
		rc = TC_EXIT_OK;
	} else {
		rc = print_table(ctx, rows, n, format, set.onprem) ? TC_EXIT_INTERNAL : TC_EXIT_OK;
		if (rc)
			fputs("traincost prices: out of memory\n", ctx->err);
	}
out:
	free(rows);
	free(ids);
	price_set_release(&set);
	gpu_catalog_release(&cat);
	return rc;
}
