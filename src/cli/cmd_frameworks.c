/*
 * cmd_frameworks.c - `traincost frameworks`: the software-stack profiles
 * (models/framework/ID.yaml) a workload can name.
 */
#include <stdio.h>
#include <string.h>

#include "../io/fw_load.h"
#include "../report/rows.h"
#include "cmd_frameworks.h"
#include "cli_ctx.h"
#include "opts.h"

static const char *const formats[] = { "table", "csv", "json", "md", NULL };

static void families_text(unsigned fam, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int k = 0; k < WL_KIND_COUNT; k++)
		if (fam & (1u << k)) {
			int w = snprintf(buf + used, len - used, "%s%s", used ? "," : "",
					 wl_kind_names[k]);
			if (w < 0 || (size_t)w >= len - used)
				return;
			used += (size_t)w;
		}
}

/*
 * The columns.  JSON gives each profile's every efficiency value, in the
 * object "efficiency"; the flat formats give the one that tells stacks
 * apart, stack_frac, to the precision it was fitted to.
 */
#define EFF_COL(id, ...) \
	{ #id "_efficiency", #id, REP_COL_NUM, 1, 3, NULL, NULL, "efficiency", 0, REP_VIEW_JSON, 1 },
static const struct rep_col fw_cols[] = {
	{ "framework", "id", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "name", "name", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_JSON, 0 },
	{ "families", "families", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	{ "stack_frac", "stack_frac", REP_COL_NUM, 1, 3, NULL, NULL, NULL, REP_CSV_DECIMALS,
	  REP_VIEW_FLAT, 0 },
	{ "fitted_runs", "runs", REP_COL_COUNT, 0, 0, NULL, NULL, NULL, 0, 0, 0 },
	EFF_PARAMS(EFF_COL)
	{ "source", "source", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_JSON, 0 },
	{ "as_of", "as of", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_JSON, 0 },
	{ "name", "name", REP_COL_TEXT, 0, 0, NULL, NULL, NULL, 0, REP_VIEW_FLAT, 0 },
};
#undef EFF_COL
/* The columns' positions in fw_cols. */
enum { COL_ID, COL_NAME, COL_FAMILIES, COL_STACK, COL_RUNS, COL_EFF,
       COL_SOURCE = COL_EFF + EFF_COUNT, COL_AS_OF, COL_NAME_FLAT, FW_COLS };
_Static_assert(sizeof(fw_cols) / sizeof(fw_cols[0]) == FW_COLS, "fw_cols and its positions");

/* The catalog as rows of fw_cols; a value the profile leaves to the
 * other layers is missing. */
static void fw_rows(struct rep_rows *rows, const struct fw_catalog *cat)
{
	rep_rows_init(rows, fw_cols, FW_COLS);
	for (size_t i = 0; i < cat->count; i++) {
		const struct framework *f = &cat->fws[i];
		char fam[64];
		struct rep_cell c[FW_COLS];
		families_text(f->families, fam, sizeof(fam));
		for (int p = 0; p < EFF_COUNT; p++)
			c[COL_EFF + p] = (struct rep_cell){ .num = f->layer.value[p],
							    .missing = !(f->layer.set & (1ULL << p)) };
		c[COL_ID] = (struct rep_cell){ .text = f->layer.id };
		c[COL_NAME] = c[COL_NAME_FLAT] = (struct rep_cell){ .text = f->name };
		c[COL_FAMILIES] = (struct rep_cell){ .text = fam };
		c[COL_STACK] = c[COL_EFF + eff_id_stack_frac];
		c[COL_RUNS] = (struct rep_cell){ .num = f->layer.fitted_runs };
		c[COL_SOURCE] = (struct rep_cell){ .text = f->source };
		c[COL_AS_OF] = (struct rep_cell){ .text = f->as_of };
		rep_rows_add(rows, c);
	}
}

/* Prints the catalog in `fmt`; returns the exit code. */
static int fw_print(struct cli_ctx *ctx, const struct fw_catalog *cat, const char *fmt)
{
	struct rep_rows rows;
	fw_rows(&rows, cat);
	int rc = rep_rows_write(&rows, ctx->out, fmt, "frameworks", "frameworks");
	if (!rc && !strcmp(fmt, "table"))
		fputs("\nstack_frac: the compute rate the stack sustains against the defaults, "
		      "fitted on `runs` published runs (docs/model.md); '-': none measured, "
		      "the defaults apply.\n", ctx->out);
	rep_rows_release(&rows);
	if (!rc)
		return TC_EXIT_OK;
	fputs("traincost frameworks: internal error: out of memory or a non-finite value\n",
	      ctx->err);
	return TC_EXIT_INTERNAL;
}

int cmd_frameworks(int argc, char **argv, struct cli_ctx *ctx)
{
	const char *format = "table";
	const struct cli_opt opts[] = {
		CLI_CHOICE("format", &format, formats, "F", "output format"),
		{ 0 },
	};
	char *pos[CLI_MAX_POS];
	int npos;
	int rc = cli_parse(ctx, "frameworks", argc, argv, opts, pos, &npos);
	if (rc)
		return rc == CLI_HELP_SHOWN ? TC_EXIT_OK : rc;
	if (npos)
		return cli_usage_error(ctx, "frameworks", "unexpected argument '%s' (expected options only)",
				       pos[0]);
	struct fw_catalog cat;
	struct tc_diag d;
	tc_diag_init(&d);
	if (fw_catalog_load(&ctx->data, &cat, &d))
		return cli_report(ctx, &d);
	rc = fw_print(ctx, &cat, format);
	fw_catalog_release(&cat);
	return rc;
}
