/*
 * price_import.c - a price table from a SkyPilot catalog vms.csv: the CSV
 * reader, the deduction of the catalog GPU from SkyPilot's accelerator and
 * instance names, and the merging of zones and GCP accelerator rows into
 * one offer per (instance, region).
 */
#include "price_import.h"

#include "price_check.h"
#include "price_table.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../model/types/gpu_alias.h"
#include "../util/infile.h"

#define CSV_MAX_FIELDS 64
#define IMPORT_MAX_ROWS 1000000 /* records read from one CSV */
#define IMPORT_MAX_SKIPPED 64   /* distinct skipped accelerator names kept */
#define MIB 1048576.0           /* bytes per MiB */

/* One CSV record; fields point into the (unquoted in place) buffer. */
struct csv_rec {
	char *f[CSV_MAX_FIELDS];
	int n;
	int line; /* 1-based line where the record starts */
};

/*
 * Read the next record from *pos (< end), unquoting RFC 4180 fields in
 * place.  *line counts newlines.  Returns 1 for a record, 0 at the end, -1
 * for too many fields or an unclosed quote (r->line says where).
 */
static int csv_next(char **pos, char *end, int *line, struct csv_rec *r)
{
	char *p = *pos, *w = p;

	if (p >= end)
		return 0;
	r->n = 0;
	r->line = *line;
	for (;;) {
		if (r->n == CSV_MAX_FIELDS)
			return -1;
		r->f[r->n++] = w;
		if (p < end && *p == '"') {
			p++;
			for (;;) {
				if (p >= end)
					return -1;
				if (*p == '"') {
					if (p + 1 < end && p[1] == '"') {
						*w++ = '"';
						p += 2;
						continue;
					}
					p++;
					break;
				}
				if (*p == '\n')
					(*line)++;
				*w++ = *p++;
			}
		}
		while (p < end && *p != ',' && *p != '\n' && *p != '\r')
			*w++ = *p++;
		/* w may sit on the terminator: look before writing the NUL. */
		char c = p < end ? *p : '\n';
		if (p < end)
			p++;
		if (c == '\r' && p < end && *p == '\n')
			p++;
		*w++ = '\0';
		if (c == ',')
			continue;
		(*line)++;
		break;
	}
	*pos = p;
	return 1;
}

/* Read a whole file of at most PRICE_IMPORT_MAX_BYTES; NUL-terminated. */
static char *read_file(const char *path, size_t *len, struct tc_diag *d)
{
	int fd = tc_input_open(path, "a CSV file", d);
	FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f) {
		if (fd >= 0) {
			close(fd);
			tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory reading '%s'", path);
		}
		return NULL;
	}
	for (;;) {
		if (n + 65536 + 1 > cap) {
			size_t ncap = cap ? cap * 2 : 1 << 20;
			char *nb = realloc(buf, ncap);
			if (!nb) {
				tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory reading '%s'", path);
				goto fail;
			}
			buf = nb;
			cap = ncap;
		}
		size_t got = fread(buf + n, 1, 65536, f);
		n += got;
		if (n > PRICE_IMPORT_MAX_BYTES) {
			tc_diag_msg(d, TC_EXIT_INPUT, "'%s' is larger than %u MiB (expected a SkyPilot vms.csv)",
				    path, PRICE_IMPORT_MAX_BYTES >> 20);
			goto fail;
		}
		if (got < 65536)
			break;
	}
	if (ferror(f)) {
		tc_diag_msg(d, TC_EXIT_IO, "cannot read '%s'", path);
		goto fail;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	fclose(f);
	free(buf);
	return NULL;
}

/* True if `hay` contains `needle`, ignoring ASCII case. */
static int has(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++) {
		size_t i = 0;
		while (i < n && hay[i] &&
		       (hay[i] | 0x20) == (needle[i] | 0x20))
			i++;
		if (i == n)
			return 1;
	}
	return 0;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Memory in MiB from a GpuInfo text ("... 'SizeInMiB': 40960 ..."), or 0. */
static double gpuinfo_mib(const char *info)
{
	const char *p = info ? strstr(info, "SizeInMiB") : NULL;
	if (!p)
		return 0;
	p += strlen("SizeInMiB");
	while (*p == '\'' || *p == '"' || *p == ':' || *p == ' ')
		p++;
	return strtod(p, NULL);
}

/*
 * The catalog GPU of a SkyPilot row: accelerator name, memory (MiB, 0 if
 * unknown) and instance type.  Returns the id, or NULL with *why set.
 */
static const char *deduce_gpu(const char *acc, double mib, const char *inst,
			      const char **why)
{
	char a[64];

	gpu_name_squash(acc, strlen(acc), a, sizeof(a));
	/* The board of an A100, H100 or V100 depends on the instance; other
	 * names go through the alias table shared with the catalog lookup. */

	/* SXM or PCIe from the name, then from the instance family. */
	int sxm = has(acc, "sxm") || has(inst, "sxm") || starts(inst, "p4d") ||
		  starts(inst, "p4de") || starts(inst, "p5") || starts(inst, "a2-") ||
		  starts(inst, "a3-") || starts(inst, "Standard_ND") ||
		  starts(inst, "BM.GPU4") || starts(inst, "BM.GPU.A100") ||
		  starts(inst, "BM.GPU.H100") || starts(inst, "p3");
	int pcie = has(acc, "pcie") || has(inst, "pcie") ||
		   starts(inst, "Standard_NC");

	if (starts(a, "A100")) {
		int gb80 = has(a, "80GB") || mib >= 70000;
		if (sxm == pcie) {
			*why = "cannot tell A100 SXM from PCIe from the instance name";
			return NULL;
		}
		return gb80 ? (sxm ? "a100-80gb-sxm" : "a100-80gb-pcie")
			    : (sxm ? "a100-40gb-sxm" : "a100-40gb-pcie");
	}
	if (starts(a, "H100")) {
		if (has(a, "NVL") || starts(inst, "Standard_NC") || mib >= 90000)
			return "h100-nvl";
		if (has(a, "MEGA") || (sxm && !pcie))
			return "h100-sxm";
		if (pcie)
			return "h100-pcie";
		*why = "cannot tell H100 SXM, PCIe or NVL from the instance name";
		return NULL;
	}
	if (starts(a, "V100")) {
		int gb32 = has(a, "32GB") || mib >= 30000;
		if (starts(inst, "Standard_NC"))
			return gb32 ? NULL : "v100-pcie";
		if (sxm)
			return gb32 ? "v100-32gb-sxm2" : "v100-16gb-sxm2";
		*why = "cannot tell V100 SXM2 from PCIe from the instance name";
		return NULL;
	}
	const char *id = gpu_alias_id(acc);
	if (!id)
		*why = "no catalog GPU of that name";
	return id;
}

/* GCP host shapes and the accelerators they carry (name as SkyPilot writes
 * it, count); 0 if the host carries no fixed accelerator. */
static int gcp_host_accel(const char *inst, const char **acc)
{
	static const struct {
		const char *prefix;
		const char *acc;
	} fam[] = {
		{ "a2-highgpu-", "A100" }, { "a2-megagpu-", "A100" },
		{ "a2-ultragpu-", "A100-80GB" }, { "a3-highgpu-", "H100" },
		{ "a3-megagpu-", "H100-MEGA" }, { "a3-ultragpu-", "H200" },
		{ "a4-highgpu-", "B200" },
	};
	static const struct {
		const char *inst;
		int n;
	} g2[] = { { "g2-standard-4", 1 }, { "g2-standard-8", 1 },
		   { "g2-standard-12", 1 }, { "g2-standard-16", 1 },
		   { "g2-standard-32", 1 }, { "g2-standard-24", 2 },
		   { "g2-standard-48", 4 }, { "g2-standard-96", 8 } };

	for (size_t i = 0; i < sizeof(g2) / sizeof(g2[0]); i++)
		if (!strcmp(inst, g2[i].inst)) {
			*acc = "L4";
			return g2[i].n;
		}
	for (size_t i = 0; i < sizeof(fam) / sizeof(fam[0]); i++) {
		size_t n = strlen(fam[i].prefix);
		char *endp;
		if (strncmp(inst, fam[i].prefix, n))
			continue;
		long c = strtol(inst + n, &endp, 10);
		if (c > 0 && c <= 64 && !strcmp(endp, "g")) {
			*acc = fam[i].acc;
			return (int)c;
		}
	}
	return 0;
}

/* A row as read, before offers are formed. */
struct sky_row {
	const char *inst, *acc, *info, *region, *zone;
	double count, price, spot;
	int line;
	int used; /* a GCP accelerator row joined to a host row */
};

/* Skipped accelerator names, reported once each. */
struct skipped {
	char name[PRICE_ID_LEN];
	const char *why;
	int rows, first_line;
};

struct import_ctx {
	const char *file;
	struct price_table *t;
	size_t cap;
	struct skipped skip[IMPORT_MAX_SKIPPED];
	int nskip;
	struct tc_diag *d;
};

static void note_skip(struct import_ctx *ic, const char *acc, const char *why,
		      int line)
{
	for (int i = 0; i < ic->nskip; i++)
		if (!strcmp(ic->skip[i].name, acc)) {
			ic->skip[i].rows++;
			return;
		}
	if (ic->nskip == IMPORT_MAX_SKIPPED)
		return;
	struct skipped *s = &ic->skip[ic->nskip++];
	snprintf(s->name, sizeof(s->name), "%s", acc);
	s->why = why;
	s->rows = 1;
	s->first_line = line;
}

/* Add or merge (cheapest zone) an offer.  Returns 0 or -1 (memory). */
static int add_offer(struct import_ctx *ic, const struct sky_row *r,
		     const char *gpu, double gpu_part, double host_part,
		     double spot_gpu, double spot_host)
{
	struct price_table *t = ic->t;
	double od = gpu_part + host_part > 0 ? gpu_part + host_part : r->price;
	double spot = spot_gpu > 0 && spot_host > 0 ? spot_gpu + spot_host : r->spot;

	for (size_t i = 0; i < t->count; i++) {
		struct price_offer *o = &t->offers[i];
		if (strcmp(o->instance, r->inst) || strcmp(o->region, r->region))
			continue;
		if (od > 0 && (!(o->price_usd_per_h[COST_ON_DEMAND] > 0) ||
			       od < o->price_usd_per_h[COST_ON_DEMAND])) {
			o->price_usd_per_h[COST_ON_DEMAND] = od;
			o->gpu_part_usd_per_h = gpu_part;
			o->host_part_usd_per_h = host_part;
		}
		if (spot > 0 && (!(o->price_usd_per_h[COST_SPOT] > 0) ||
				 spot < o->price_usd_per_h[COST_SPOT])) {
			o->price_usd_per_h[COST_SPOT] = spot;
			o->spot_gpu_part_usd_per_h = spot_gpu > 0 && spot_host > 0 ? spot_gpu : 0;
			o->spot_host_part_usd_per_h = spot_gpu > 0 && spot_host > 0 ? spot_host : 0;
		}
		return 0;
	}
	if (t->count == ic->cap) {
		size_t ncap = ic->cap ? ic->cap * 2 : 64;
		struct price_offer *n = realloc(t->offers, ncap * sizeof(*n));
		if (!n)
			return tc_diag_msg(ic->d, TC_EXIT_INTERNAL, "out of memory importing '%s'",
					   ic->file);
		t->offers = n;
		ic->cap = ncap;
	}
	struct price_offer *o = &t->offers[t->count++];
	memset(o, 0, sizeof(*o));
	snprintf(o->instance, sizeof(o->instance), "%s", r->inst);
	snprintf(o->gpu, sizeof(o->gpu), "%s", gpu);
	snprintf(o->region, sizeof(o->region), "%s", r->region);
	o->gpus = r->count;
	o->price_usd_per_h[COST_ON_DEMAND] = od;
	o->price_usd_per_h[COST_SPOT] = spot;
	o->gpu_part_usd_per_h = gpu_part;
	o->host_part_usd_per_h = host_part;
	if (spot_gpu > 0 && spot_host > 0) {
		o->spot_gpu_part_usd_per_h = spot_gpu;
		o->spot_host_part_usd_per_h = spot_host;
	}
	o->verified = 1;
	o->line = r->line;
	memcpy(o->as_of, t->as_of, sizeof(o->as_of));
	memcpy(o->source, t->source, sizeof(o->source));
	return 0;
}

/* Parse a price cell: empty = 0 (not sold); else a number from 0 to the
 * loader's PRICE_MAX_USD_PER_H, so that the import writes nothing the price
 * loader would refuse. */
static int price_cell(struct import_ctx *ic, int line, const char *col,
		      const char *s, double *out)
{
	char *endp;
	if (!*s) {
		*out = 0;
		return 0;
	}
	double v = strtod(s, &endp);
	if (endp == s || *endp || !isfinite(v) || v < 0 || v > PRICE_MAX_USD_PER_H)
		return tc_diag_at(ic->d, TC_EXIT_INPUT, ic->file, line, 0,
				  "%s is '%s' (expected a price in US dollars per hour, 0 to %.0f)",
				  col, s, PRICE_MAX_USD_PER_H);
	*out = v;
	return 0;
}

/* The columns of SkyPilot's vms.csv the import reads. */
enum { C_INST, C_ACC, C_COUNT, C_INFO, C_REGION, C_ZONE, C_PRICE, C_SPOT, C_N };
static const char *const sky_names[C_N] = { "InstanceType", "AcceleratorName",
	"AcceleratorCount", "GpuInfo", "Region", "AvailabilityZone",
	"Price", "SpotPrice" };
static const int sky_required[C_N] = { 1, 1, 1, 0, 1, 0, 1, 0 };

/* The table's provider, date, source, billing and notes. */
static void sky_table_init(struct price_table *t, const char *path, const char *provider,
			   const char *today)
{
	snprintf(t->provider, sizeof(t->provider), "%s", provider);
	snprintf(t->currency, sizeof(t->currency), "USD");
	snprintf(t->as_of, sizeof(t->as_of), "%s", today);
	const char *base = strrchr(path, '/');
	snprintf(t->source, sizeof(t->source), "SkyPilot catalog %s", base ? base + 1 : path);
	/* AWS and GCP bill per second with a 1 minute minimum (their documented
	 * rule); other providers are not known here: per hour, conservative. */
	int fine = !strcmp(provider, "aws") || !strcmp(provider, "gcp");
	t->billing.granularity = fine ? COST_PER_SECOND : COST_PER_HOUR;
	t->billing.minimum_s = fine ? 60 : COST_S_PER_H;
	snprintf(t->notes, sizeof(t->notes),
		 "Imported from %s on %s by `traincost prices import skypilot`: the catalog has no date, so as_of is the import date.  One offer per instance and region, the cheapest zone.%s",
		 base ? base + 1 : path, today,
		 fine ? "" : "  Billing granularity is not in the catalog: per_hour is assumed; edit it.");
}

/* The header's position of each column into col (-1: absent); every
 * required one missing is reported.  0 or -1. */
static int sky_columns(const struct csv_rec *rec, int col[C_N], const char *path,
		       struct tc_diag *d)
{
	int bad = 0;
	for (int c = 0; c < C_N; c++) {
		col[c] = -1;
		for (int i = 0; i < rec->n; i++)
			if (!strcmp(rec->f[i], sky_names[c]))
				col[c] = i;
		if (col[c] < 0 && sky_required[c]) {
			tc_diag_at(d, TC_EXIT_INPUT, path, 1, 0,
				   "no '%s' column (expected a SkyPilot vms.csv header with InstanceType, AcceleratorName, AcceleratorCount, Region and Price)",
				   sky_names[c]);
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

/* One record into *r (its fields point into the record).  0, or -1 with
 * each bad cell reported. */
static int sky_row_read(struct import_ctx *ic, const struct csv_rec *rec, const int col[C_N],
			struct sky_row *r)
{
	r->line = rec->line;
	r->used = 0;
	r->inst = rec->f[col[C_INST]];
	r->acc = rec->f[col[C_ACC]];
	r->info = col[C_INFO] >= 0 ? rec->f[col[C_INFO]] : "";
	r->region = rec->f[col[C_REGION]];
	r->zone = col[C_ZONE] >= 0 ? rec->f[col[C_ZONE]] : "";
	int rowbad = price_cell(ic, rec->line, "Price", rec->f[col[C_PRICE]], &r->price);
	if (col[C_SPOT] >= 0 &&
	    price_cell(ic, rec->line, "SpotPrice", rec->f[col[C_SPOT]], &r->spot))
		rowbad = -1;
	else if (col[C_SPOT] < 0)
		r->spot = 0;
	const char *cs = rec->f[col[C_COUNT]];
	char *endp;
	r->count = *cs ? strtod(cs, &endp) : 0;
	if (*cs && (*endp || !isfinite(r->count) || r->count <= 0 || r->count > 64)) {
		tc_diag_at(ic->d, TC_EXIT_INPUT, ic->file, rec->line, 0,
			   "AcceleratorCount is '%s' (expected a GPU count above 0, at most 64)", cs);
		rowbad = -1;
	}
	if (*r->acc && !*cs) {
		tc_diag_at(ic->d, TC_EXIT_INPUT, ic->file, rec->line, 0,
			   "AcceleratorCount is empty for accelerator '%s' (expected a GPU count)",
			   r->acc);
		rowbad = -1;
	}
	if (!*r->region) {
		tc_diag_at(ic->d, TC_EXIT_INPUT, ic->file, rec->line, 0,
			   "Region is empty (expected a region name)");
		rowbad = -1;
	}
	return rowbad;
}

/* Every record after the header into *rows (*nrows of them, grown as
 * needed).  0; -1 with the errors reported; -2 out of memory. */
static int sky_rows(struct import_ctx *ic, char **pos, char *end, int *line,
		    int ncols, const int col[C_N], struct sky_row **rows, size_t *nrows)
{
	struct csv_rec rec;
	size_t rcap = 0;
	int got, bad = 0;

	while ((got = csv_next(pos, end, line, &rec)) != 0) {
		if (got < 0) {
			tc_diag_at(ic->d, TC_EXIT_INPUT, ic->file, rec.line, 0,
				   "unclosed quote or more than %d fields (expected a CSV record)",
				   CSV_MAX_FIELDS);
			return -1;
		}
		if (rec.n == 1 && !rec.f[0][0])
			continue; /* blank line */
		if (rec.n != ncols) {
			tc_diag_at(ic->d, TC_EXIT_INPUT, ic->file, rec.line, 0,
				   "%d fields (expected %d, as in the header)", rec.n, ncols);
			bad = 1;
			continue;
		}
		if (*nrows == IMPORT_MAX_ROWS) {
			tc_diag_at(ic->d, TC_EXIT_INPUT, ic->file, rec.line, 0,
				   "more than %d rows (expected a SkyPilot vms.csv)", IMPORT_MAX_ROWS);
			return -1;
		}
		if (*nrows == rcap) {
			size_t ncap = rcap ? rcap * 2 : 256;
			struct sky_row *n = realloc(*rows, ncap * sizeof(*n));
			if (!n) {
				tc_diag_msg(ic->d, TC_EXIT_INTERNAL, "out of memory importing '%s'", ic->file);
				return -2;
			}
			*rows = n;
			rcap = ncap;
		}
		if (sky_row_read(ic, &rec, col, &(*rows)[*nrows]))
			bad = 1;
		else
			(*nrows)++;
	}
	return bad ? -1 : 0;
}

/* The offers of the rows: plain rows, then GCP host rows joined with the
 * accelerator row of their zone and count.  0 or -1 (out of memory). */
static int sky_offers(struct import_ctx *ic, struct sky_row *rows, size_t nrows)
{
	/* Plain rows: an instance with its accelerators and one price. */
	for (size_t i = 0; i < nrows; i++) {
		const struct sky_row *r = &rows[i];
		const char *why = NULL, *gpu;
		if (!*r->inst || !*r->acc)
			continue; /* CPU instance, or a GCP row (below) */
		if (!(r->price > 0) && !(r->spot > 0))
			continue;
		if (!(gpu = deduce_gpu(r->acc, gpuinfo_mib(r->info), r->inst, &why))) {
			note_skip(ic, r->acc, why ? why : "no catalog GPU of that size", r->line);
			continue;
		}
		if (add_offer(ic, r, gpu, 0, 0, 0, 0))
			return -1;
	}
	/* GCP: a host row plus the accelerator row of its zone and count. */
	for (size_t i = 0; i < nrows; i++) {
		const struct sky_row *h = &rows[i];
		struct sky_row *a = NULL;
		const char *acc = NULL, *why = NULL, *gpu;
		if (!*h->inst || *h->acc)
			continue;
		int n = gcp_host_accel(h->inst, &acc);
		if (!n)
			continue;
		for (size_t j = 0; j < nrows && !a; j++)
			if (!*rows[j].inst && !strcmp(rows[j].acc, acc) &&
			    rows[j].count == n && !strcmp(rows[j].region, h->region) &&
			    !strcmp(rows[j].zone, h->zone))
				a = &rows[j];
		if (!a)
			continue;
		a->used = 1;
		if (!(gpu = deduce_gpu(a->acc, gpuinfo_mib(a->info), h->inst, &why))) {
			note_skip(ic, a->acc, why ? why : "no catalog GPU of that size", a->line);
			continue;
		}
		if (!(h->price > 0 && a->price > 0))
			continue;
		struct sky_row joined = *h;
		joined.count = n;
		joined.price = 0; /* the parts carry the prices */
		joined.spot = 0;
		if (add_offer(ic, &joined, gpu, a->price, h->price, a->spot, h->spot))
			return -1;
	}
	/* GCP accelerator rows that no host row took (N1 attachments, TPUs). */
	for (size_t j = 0; j < nrows; j++)
		if (!*rows[j].inst && *rows[j].acc && !rows[j].used)
			note_skip(ic, rows[j].acc,
				  "accelerator rows without a matching GCP host shape (N1 attachments are not imported)",
				  rows[j].line);
	return 0;
}

int price_import_skypilot(const char *path, const char *provider,
			  const char *today, struct price_table *out,
			  struct tc_diag *warn, struct tc_diag *d)
{
	struct price_table t = { 0 };
	struct import_ctx ic = { .file = path, .t = &t, .d = d };
	struct sky_row *rows = NULL;
	size_t nrows = 0, len = 0;
	int col[C_N], line = 1, rc = -1;
	struct csv_rec rec;
	char *buf, *pos;

	assert(path && provider && today && out && d);
	if (!(buf = read_file(path, &len, d)))
		return -1;
	pos = buf;
	sky_table_init(&t, path, provider, today);
	if (csv_next(&pos, buf + len, &line, &rec) <= 0) {
		tc_diag_at(d, TC_EXIT_INPUT, path, 1, 0,
			   "no header line (expected a SkyPilot vms.csv header such as InstanceType,AcceleratorName,...)");
		goto out;
	}
	if (sky_columns(&rec, col, path, d) ||
	    sky_rows(&ic, &pos, buf + len, &line, rec.n, col, &rows, &nrows) ||
	    sky_offers(&ic, rows, nrows))
		goto out;
	for (int i = 0; warn && i < ic.nskip; i++)
		tc_diag_at(warn, TC_EXIT_OK, path, ic.skip[i].first_line, 0,
			   "warning: skipped %d row%s of accelerator '%s': %s",
			   ic.skip[i].rows, ic.skip[i].rows == 1 ? "" : "s",
			   ic.skip[i].name, ic.skip[i].why);
	if (t.count == 0) {
		tc_diag_at(d, TC_EXIT_INPUT, path, 1, 0,
			   "no GPU offers found (expected rows whose AcceleratorName is a catalog GPU)");
		goto out;
	}
	if (!(t.file = strdup(path))) {
		tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory importing '%s'", path);
		goto out;
	}
	*out = t;
	memset(&t, 0, sizeof(t));
	rc = 0;
out:
	price_table_release(&t);
	free(rows);
	free(buf);
	return rc;
}
