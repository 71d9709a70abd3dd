/*
 * cmd_prices.c - `traincost prices` (list the offers of the price tables)
 * and `traincost prices import skypilot FILE.csv --provider NAME`.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../io/gpu_load.h"
#include "../model/types/network.h"
#include "../io/price_load.h"
#include "../report/json.h"
#include "../report/rows.h"
#include "cmd_prices.h"
#include "cli_ctx.h"
#include "money.h"
#include "opts.h"

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

/*
 * The columns.  The table and Markdown show billing in words and each
 * source as a numbered note under the table; CSV and JSON carry the
 * billing granularity's name and the whole source.  Fields only some
 * offers have (the GPU and host parts of a price, a fabric, notes; none of
 * them for an owned server) are left out of their JSON object.
 */
enum { C_GPU, C_PROVIDER, C_INSTANCE, C_GPUS, C_REGION, C_PRICE, C_PRICE_GPU, C_GPU_PART,
       C_HOST_PART, C_BILLING, C_BILLING_TEXT, C_BILLING_MIN, C_AS_OF, C_VERIFIED, C_SOURCE,
       C_SOURCE_NOTE, C_FILE, C_INTERCONNECT, C_NETWORK, C_ADAPTERS_TEXT, C_ADAPTERS,
       C_ADAPTER_GBPS, C_FABRIC, C_CLUSTER, C_CLUSTER_JSON, C_MAX_INSTANCES, C_MAX_TEXT, C_MAX_UNKNOWN,
       C_FABRIC_ASSUMED, C_FABRIC_SOURCE, C_NOTES, NCOLS };
static const struct rep_col cols[NCOLS] = {
	[C_GPU] = REP_TEXT_COL("gpu", "GPU", REP_VIEW_ALL, 0),
	[C_PROVIDER] = REP_TEXT_COL("provider", "provider", REP_VIEW_ALL, 0),
	[C_INSTANCE] = REP_TEXT_COL("instance", "instance", REP_VIEW_ALL, 0),
	[C_GPUS] = { "gpus_per_instance", "GPUs", REP_COL_SIG, 0, 6, NULL, NULL, NULL, 0, 0, 0 },
	[C_REGION] = REP_TEXT_COL("region", "region", REP_VIEW_ALL, 0),
	[C_PRICE] = { "price_usd_per_instance_h", "$/h", REP_COL_NUM, 0, 2, NULL, NULL, NULL,
		      REP_CSV_SIG10, 0, 0 },
	[C_PRICE_GPU] = { "price_usd_per_gpu_h", "$/GPU-h", REP_COL_NUM, 0, 3, NULL, NULL, NULL,
			  REP_CSV_SIG10, 0, 0 },
	[C_GPU_PART] = { "gpu_part_price_usd_per_h", "", REP_COL_NUM, 0, 3, NULL, NULL, NULL, 0,
			 REP_VIEW_JSON, 1 },
	[C_HOST_PART] = { "host_part_price_usd_per_h", "", REP_COL_NUM, 0, 3, NULL, NULL, NULL, 0,
			  REP_VIEW_JSON, 1 },
	[C_BILLING] = REP_TEXT_COL("billing", "billing", REP_VIEW_DATA, 1),
	[C_BILLING_TEXT] = REP_TEXT_COL("billing", "billing", REP_VIEW_TEXT, 0),
	[C_BILLING_MIN] = { "billing_minimum_s", "", REP_COL_SIG, 0, 6, NULL, NULL, NULL, 0,
			    REP_VIEW_JSON, 1 },
	[C_AS_OF] = REP_TEXT_COL("as_of", "as of", REP_VIEW_ALL, 0),
	[C_VERIFIED] = { "verified", "checked", REP_COL_BOOL, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	[C_SOURCE] = REP_TEXT_COL("source", "source", REP_VIEW_DATA, 0),
	[C_SOURCE_NOTE] = REP_TEXT_COL("source", "source", REP_VIEW_TEXT, 0),
	[C_FILE] = REP_TEXT_COL("file", "", REP_VIEW_JSON, 1),
	[C_INTERCONNECT] = REP_TEXT_COL("interconnect", "inside", REP_VIEW_ALL, 1),
	[C_NETWORK] = REP_TEXT_COL("network", "between", REP_VIEW_ALL, 1),
	/* The network as the source states it: adapters x rate per instance,
	 * its fabric and the product that joins instances; a size the
	 * sources do not state is "unknown" (max_instances left out). */
	[C_ADAPTERS_TEXT] = REP_TEXT_COL("adapters", "adapters", REP_VIEW_TEXT, 0),
	[C_ADAPTERS] = { "adapters", "", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_JSON, 1 },
	[C_ADAPTER_GBPS] = { "adapter_bytes_per_s", "", REP_COL_SIG, 0, 6, NULL, NULL, NULL, 0,
			     REP_VIEW_JSON, 1 },
	[C_FABRIC] = REP_TEXT_COL("fabric", "", REP_VIEW_JSON, 1),
	[C_CLUSTER] = REP_TEXT_COL("cluster", "cluster", REP_VIEW_TEXT, 0),
	[C_CLUSTER_JSON] = REP_TEXT_COL("cluster", "", REP_VIEW_JSON, 1),
	[C_MAX_INSTANCES] = { "max_instances", "", REP_COL_COUNT, 0, 0, NULL, NULL, NULL,
			      0, REP_VIEW_DATA, 1 },
	[C_MAX_TEXT] = REP_TEXT_COL("max_instances", "instances", REP_VIEW_TEXT, 0),
	[C_MAX_UNKNOWN] = { "max_instances_unknown", "", REP_COL_BOOL, 0, 0, NULL, NULL, NULL, 0,
			    REP_VIEW_JSON, 1 },
	[C_FABRIC_ASSUMED] = { "fabric_assumed", "", REP_COL_BOOL, 0, 0, NULL, NULL, NULL, 0,
			       REP_VIEW_JSON, 1 },
	[C_FABRIC_SOURCE] = REP_TEXT_COL("fabric_source", "", REP_VIEW_JSON, 1),
	[C_NOTES] = REP_TEXT_COL("notes", "", REP_VIEW_JSON, 1),
};

/* The distinct sources of the listed offers, numbered in order of first
 * use for the notes under the table. */
struct source_notes {
	const char *src[64]; /* borrowed */
	int n;
};

/* "[k]", the note of `source` (added when new) into buf. */
static const char *source_note(struct source_notes *sn, const char *source, char *buf,
			       size_t len)
{
	int k;
	for (k = 0; k < sn->n; k++)
		if (!strcmp(sn->src[k], source))
			break;
	if (k == sn->n && sn->n < 64)
		sn->src[sn->n++] = source;
	snprintf(buf, len, "[%d]", (k < 64 ? k : 63) + 1);
	return buf;
}

/* One listed offer as a row of cells (texts point into buf and the row). */
static void offer_cells(const struct row *r, const struct price_onprem *op,
			struct source_notes *sn, struct rep_cell *c, char (*buf)[64])
{
	const struct price_offer *o = r->o;
	memset(c, 0, NCOLS * sizeof(*c));
	for (int k = 0; k < NCOLS; k++)
		c[k].missing = 1;
#define TEXT(k, v) (c[k].text = (v), c[k].missing = 0)
#define NUM(k, v) (c[k].num = (v), c[k].missing = 0)
	TEXT(C_GPU, o ? o->gpu : r->g->gpu);
	TEXT(C_PROVIDER, o ? r->t->provider : ONPREM);
	TEXT(C_INSTANCE, o ? o->instance : "owned server");
	NUM(C_GPUS, o ? o->gpus : 1.0);
	TEXT(C_REGION, o ? o->region : "own site");
	NUM(C_PRICE, r->usd_per_h);
	NUM(C_PRICE_GPU, r->usd_per_gpu_h);
	TEXT(C_AS_OF, o ? o->as_of : op->as_of);
	NUM(C_VERIFIED, o ? o->verified : r->g->verified);
	TEXT(C_SOURCE, o ? o->source : r->g->source);
	TEXT(C_SOURCE_NOTE, source_note(sn, c[C_SOURCE].text, buf[0], sizeof(buf[0])));
	if (!o)
		return; /* an owned server: no billing, fabric or file */
	if (o->gpu_part_usd_per_h > 0) {
		NUM(C_GPU_PART, o->gpu_part_usd_per_h);
		NUM(C_HOST_PART, o->host_part_usd_per_h);
	}
	TEXT(C_BILLING, cost_gran_names[r->t->billing.granularity]);
	TEXT(C_BILLING_TEXT, billing_text(&r->t->billing, buf[1], sizeof(buf[1])));
	NUM(C_BILLING_MIN, r->t->billing.minimum_s);
	TEXT(C_FILE, r->t->file);
	TEXT(C_INTERCONNECT, cost_link_names[o->interconnect]);
	TEXT(C_NETWORK, o->network);
	TEXT(C_ADAPTERS_TEXT, "-");
	if (o->adapters) {
		snprintf(buf[2], sizeof(buf[2]), "%d x %g Gb/s %s", o->adapters, o->adapter_gbps,
			 net_fabric_names[o->fabric]);
		TEXT(C_ADAPTERS_TEXT, buf[2]);
		NUM(C_ADAPTERS, o->adapters);
		NUM(C_ADAPTER_GBPS, o->adapter_gbps * 1e9 / 8); /* one way, bytes/s */
		TEXT(C_FABRIC, net_fabric_names[o->fabric]);
	}
	TEXT(C_CLUSTER, "-");
	if (o->cluster) {
		TEXT(C_CLUSTER, cost_cluster_names[o->cluster]);
		TEXT(C_CLUSTER_JSON, cost_cluster_names[o->cluster]);
	}
	snprintf(buf[3], sizeof(buf[3]), "%d", o->max_instances);
	TEXT(C_MAX_TEXT, o->max_unconfirmed ? "unknown" : buf[3]);
	if (!o->max_unconfirmed)
		NUM(C_MAX_INSTANCES, o->max_instances);
	NUM(C_MAX_UNKNOWN, o->max_unconfirmed);
	NUM(C_FABRIC_ASSUMED, o->fabric_assumed);
	TEXT(C_FABRIC_SOURCE, o->fabric_source);
	if (o->notes[0])
		TEXT(C_NOTES, o->notes);
#undef TEXT
#undef NUM
}

/* The explanation and the numbered sources under a table. */
static void print_notes(struct cli_ctx *ctx, const struct source_notes *sn, const struct row *rows,
			size_t n, const char *fmt, const struct price_onprem *op)
{
	fputs("\nUSD per instance-hour and per GPU-hour; checked \"no\" marks a recalled,\n"
	      "assumed or suspect figure (see the file's notes).  What one order can\n"
	      "host: the link inside an instance, the network between instances and\n"
	      "the most instances it joins (docs/pricing.md, \"Fabric\"; the sources\n"
	      "of those are in `traincost prices --format json`).\n\nSources:\n", ctx->out);
	for (int k = 0; k < sn->n; k++) {
		char shown[2048];
		fprintf(ctx->out, "  [%d] %s\n", k + 1, rep_show(shown, sizeof(shown), sn->src[k], fmt));
	}
	int owned = 0;
	for (size_t i = 0; i < n; i++)
		owned |= rows[i].o == NULL;
	if (owned && op)
		fputs("\nonprem: cost of ownership per GPU-hour from pricing/onprem.yaml"
		      " (docs/pricing.md)\n", ctx->out);
}

/* The products of u that cannot join instances, as the JSON array
 * "not_joinable" (only those of `gpu` and `provider` when not NULL). */
static void unjoin_json(struct rep_json *j, const struct price_unjoin *u, const char *gpu,
			const char *provider)
{
	rep_json_arr_begin(j, "not_joinable");
	for (size_t i = 0; u && i < u->count; i++) {
		const struct price_unjoinable *p = &u->items[i];
		if (!rep_unjoin_wanted(p, gpu ? &gpu : NULL, 1, provider))
			continue;
		rep_json_obj_begin(j, NULL);
		rep_json_str(j, "provider", p->provider);
		rep_json_str(j, "product", p->product);
		if (p->gpu[0])
			rep_json_str(j, "gpu", p->gpu);
		rep_json_str(j, "lacks", price_lack_names[p->lacks]);
		rep_json_str(j, "fabric", p->fabric);
		rep_json_str(j, "price", p->price);
		rep_json_str(j, "source", p->source);
		rep_json_str(j, "as_of", u->as_of);
		rep_json_obj_end(j);
	}
	rep_json_arr_end(j);
}

/* The offers in `fmt`, and after them the products that cannot join
 * instances (set->unjoin) of `gpu` and `provider` (NULL: all).  Returns 0,
 * or -1 (out of memory, or a value that cannot be written: said on
 * stderr). */
static int print_offers(struct cli_ctx *ctx, const struct row *rows, size_t n, const char *fmt,
			const char *pricing, int max_age, const struct price_set *set,
			const char *gpu, const char *provider)
{
	const struct price_onprem *op = set->onprem;
	struct rep_rows rr;
	struct source_notes sn = { { 0 }, 0 };
	int rc;

	rep_rows_init(&rr, cols, NCOLS);
	for (size_t i = 0; i < n; i++) {
		struct rep_cell c[NCOLS];
		char buf[4][64];
		offer_cells(&rows[i], op, &sn, c, buf);
		rep_rows_add(&rr, c);
	}
	if (!strcmp(fmt, "json")) {
		struct rep_json j;
		rep_json_doc_begin(&j, ctx->out, "prices");
		rep_json_str(&j, "today", ctx->today);
		rep_json_str(&j, "pricing", pricing);
		rep_json_int(&j, "max_age_days", max_age);
		rc = rep_rows_json(&rr, &j, "offers");
		unjoin_json(&j, set->unjoin, gpu, provider);
		rep_json_obj_end(&j);
		if (rep_json_finish(&j)) {
			fprintf(ctx->err, "traincost prices: internal error: non-finite value in '%s'\n",
				j.bad_key);
			rc = -1;
		}
	} else {
		rc = rep_rows_print(&rr, ctx->out, fmt);
		if (!rc && strcmp(fmt, "csv") && sn.n)
			print_notes(ctx, &sn, rows, n, fmt, op);
		if (!rc && strcmp(fmt, "csv"))
			rep_print_unjoinable(ctx->out, set->unjoin, gpu ? &gpu : NULL, 1, provider);
	}
	if (rc && rr.failed)
		fputs("traincost prices: out of memory\n", ctx->err);
	rep_rows_release(&rr);
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

/* A --provider that is neither a price table's nor on-premises: the
 * providers there are.  Returns 0, or TC_EXIT_USAGE after printing it. */
static int check_provider(struct cli_ctx *ctx, const struct price_set *set, const char *provider)
{
	if (!strcmp(provider, ONPREM))
		return 0;
	for (size_t i = 0; i < set->count; i++)
		if (!strcmp(set->tables[i].provider, provider))
			return 0;
	/* a provider with no offer but a product that cannot join */
	for (size_t i = 0; set->unjoin && i < set->unjoin->count; i++)
		if (!strcmp(set->unjoin->items[i].provider, provider))
			return 0;
	char list[512];
	size_t used = 0;
	list[0] = '\0';
	for (size_t k = 0; k < set->count && used + 1 < sizeof(list); k++) {
		int w = snprintf(list + used, sizeof(list) - used, "%s%s", k ? ", " : "",
				 set->tables[k].provider);
		if (w < 0 || (size_t)w >= sizeof(list) - used)
			break;
		used += (size_t)w;
	}
	return cli_usage_error(ctx, "prices", "unknown provider '%s' (expected one of: %s%s)",
			       provider, list, set->onprem ? ", " ONPREM : "");
}

/* Append to rows[n..] the cost of owning each GPU of `onprem` (only `gpu`
 * when not NULL) per GPU-hour.  Returns the new count. */
static size_t add_onprem_rows(const struct price_onprem *onprem, const struct gpu_catalog *cat,
			      const char *gpu, struct row *rows, size_t n)
{
	for (size_t k = 0; k < onprem->count; k++) {
		const struct price_onprem_gpu *g = &onprem->gpus[k];
		struct cost_onprem p;
		struct cost_onprem_result r;
		if (gpu && strcmp(gpu, g->gpu))
			continue;
		if (price_onprem_params(onprem, g->gpu, &p) ||
		    cost_onprem_per_gpu_h(&p, tdp_of(cat, g->gpu), &r))
			continue;
		rows[n].g = g;
		rows[n].usd_per_h = r.total_usd_per_gpu_h;
		rows[n].usd_per_gpu_h = r.total_usd_per_gpu_h;
		n++;
	}
	return n;
}

/* The GPU catalog and the price tables into *cat and *set, each offer's
 * GPU checked against the catalog; the catalog's ids into *ids (owned);
 * the tables' warnings into warn.  Returns 0, or an exit code after
 * printing the problem. */
static int load_checked(struct cli_ctx *ctx, struct gpu_catalog *cat, struct price_set *set,
			const char ***ids, struct tc_diag *warn)
{
	struct tc_diag d;
	int bad = 0;
	tc_diag_init(&d);
	if (gpu_catalog_load(&ctx->data, cat, &d) ||
	    price_load_all(&ctx->data, ctx->today, set, warn, &d))
		return cli_report(ctx, &d);
	if (!(*ids = catalog_ids(cat))) {
		fputs("traincost prices: out of memory\n", ctx->err);
		return TC_EXIT_INTERNAL;
	}
	for (size_t i = 0; i < set->count; i++)
		if (price_check_gpus(&set->tables[i], *ids, &d))
			bad = 1;
	if (set->onprem && price_onprem_check_gpus(set->onprem, *ids, &d))
		bad = 1;
	if (set->unjoin && price_unjoin_check_gpus(set->unjoin, *ids, &d))
		bad = 1;
	return bad ? cli_report(ctx, &d) : 0;
}

int cmd_prices(int argc, char **argv, struct cli_ctx *ctx)
{
	const char *gpu = NULL, *provider = NULL, *pricing = "on-demand";
	const char *max_age_arg = NULL, *format = "table";
	const struct cli_opt opts[] = {
		CLI_VALUE("gpu", &gpu, "ID", "only offers of this catalog GPU"),
		CLI_VALUE("provider", &provider, "NAME",
			  "only this provider (aws, gcp, azure, lambda, ...)"),
		CLI_CHOICE("pricing", &pricing, cost_kind_names, "P", "the kind of price"),
		CLI_VALUE("max-age", &max_age_arg, "DAYS",
			  "warn about prices older than this (default " CLI_STR(PRICE_STALE_DAYS) ")"),
		CLI_CHOICE("format", &format, formats, "F", "output format"),
		{ 0 },
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
	struct tc_diag warn;
	size_t n = 0;
	tc_diag_init(&warn);

	if ((rc = load_checked(ctx, &cat, &set, &ids, &warn)))
		goto out;
	struct gpu wanted;
	if (gpu) {
		char why[1024];
		if (gpu_catalog_lookup(&cat, gpu, &wanted, why, sizeof(why))) {
			fprintf(ctx->err, "traincost prices: %s\n", why);
			rc = TC_EXIT_INPUT;
			goto out;
		}
		gpu = wanted.id; /* the catalog id of a name such as "4090" */
	}
	if (provider && (rc = check_provider(ctx, &set, provider)))
		goto out;

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
	if (set.onprem && kind == COST_ON_DEMAND && (!provider || !strcmp(provider, ONPREM)))
		n = add_onprem_rows(set.onprem, &cat, gpu, rows, n);
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
	if (n == 0 && strcmp(format, "csv") && strcmp(format, "json")) {
		fprintf(ctx->out, "no %s offers%s%s%s%s\n", pricing,
			gpu ? " of " : "", gpu ? gpu : "",
			provider ? " from " : "", provider ? provider : "");
		rep_print_unjoinable(ctx->out, set.unjoin, gpu ? &gpu : NULL, 1, provider);
	} else if (print_offers(ctx, rows, n, format, pricing, max_age, &set, gpu, provider)) {
		rc = TC_EXIT_INTERNAL;
	}
out:
	free(rows);
	free(ids);
	price_set_release(&set);
	gpu_catalog_release(&cat);
	return rc;
}
