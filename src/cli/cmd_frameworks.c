/*
 * cmd_frameworks.c - `traincost frameworks`: the software-stack profiles
 * (models/framework/ID.yaml) a workload can name.
 */
#include <stdio.h>
#include <string.h>

#include "../io/fw_load.h"
#include "../report/json.h"
#include "../report/table.h"
#include "cli.h"
#include "opts.h"

static const char *const formats[] = { "table", "csv", "json", "md", NULL };
static const char *const family_names[] = { "llm", "vision", "recsys" };

static void families_text(unsigned fam, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int k = 0; k < WL_KIND_COUNT; k++)
		if (fam & (1u << k)) {
			int w = snprintf(buf + used, len - used, "%s%s", used ? "," : "",
					 family_names[k]);
			if (w < 0 || (size_t)w >= len - used)
				return;
			used += (size_t)w;
		}
}

/* The stack's fitted rate, or "-" when it has none of its own. */
static void stack_text(const struct framework *f, char *buf, size_t len)
{
	if (f->layer.set & (1ULL << eff_id_stack_frac))
		snprintf(buf, len, "%.3f", f->layer.value[eff_id_stack_frac]);
	else
		snprintf(buf, len, "-");
}

static int print_json(struct cli_ctx *ctx, const struct fw_catalog *cat)
{
	struct rep_json j;
	rep_json_doc_begin(&j, ctx->out, "frameworks");
	rep_json_arr_begin(&j, "frameworks");
	for (size_t i = 0; i < cat->count; i++) {
		const struct framework *f = &cat->fws[i];
		char fam[64];
		families_text(f->families, fam, sizeof(fam));
		rep_json_obj_begin(&j, NULL);
		rep_json_str(&j, "framework", f->layer.id);
		rep_json_str(&j, "name", f->name);
		rep_json_str(&j, "families", fam);
		rep_json_int(&j, "fitted_runs", f->layer.fitted_runs);
		rep_json_obj_begin(&j, "efficiency");
		for (int p = 0; p < EFF_COUNT; p++)
			if (f->layer.set & (1ULL << p))
				rep_json_num(&j, eff_params[p].name, f->layer.value[p]);
		rep_json_obj_end(&j);
		rep_json_str(&j, "source", f->source);
		rep_json_str(&j, "as_of", f->as_of);
		rep_json_obj_end(&j);
	}
	rep_json_arr_end(&j);
	rep_json_obj_end(&j);
	return rep_json_finish(&j);
}

int cmd_frameworks(int argc, char **argv, struct cli_ctx *ctx)
{
	const char *format = "table";
	const struct cli_opt opts[] = {
		{ "format", &format, NULL, formats },
		{ NULL, NULL, NULL, NULL },
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
	if (!strcmp(format, "json")) {
		rc = print_json(ctx, &cat) ? TC_EXIT_INTERNAL : TC_EXIT_OK;
	} else {
		static const char *const head[] = { "id", "families", "stack_frac", "runs", "name" };
		/* CSV: the JSON's names; an empty stack_frac where none is fitted. */
		static const char *const csv_head[] = { "framework", "families", "stack_frac",
							"fitted_runs", "name" };
		int csv = !strcmp(format, "csv");
		static const enum rep_align al[] = { REP_LEFT, REP_LEFT, REP_RIGHT, REP_RIGHT,
						     REP_LEFT };
		struct rep_table t;
		rep_table_init(&t, 5, csv ? csv_head : head, al);
		for (size_t i = 0; i < cat.count; i++) {
			const struct framework *f = &cat.fws[i];
			char fam[64], st[32], runs[24];
			families_text(f->families, fam, sizeof(fam));
			stack_text(f, st, sizeof(st));
			if (csv && !strcmp(st, "-"))
				st[0] = '\0';
			snprintf(runs, sizeof(runs), "%d", f->layer.fitted_runs);
			const char *cells[5] = { f->layer.id, fam, st, runs, f->name };
			rep_table_row(&t, cells);
		}
		rc = rep_table_print(&t, ctx->out, format) ? TC_EXIT_INTERNAL : TC_EXIT_OK;
		rep_table_release(&t);
		if (!strcmp(format, "table"))
			fputs("\nstack_frac: the compute rate the stack sustains against the defaults, "
			      "fitted on `runs` published runs (docs/model.md); '-': none measured, "
			      "the defaults apply.\n", ctx->out);
	}
	fw_catalog_release(&cat);
	return rc;
}
