/*
 * camp_val_load.c - the validation set of training campaigns
 * (camp_val_load.h), read over the YAML node tree with field tables.
 */
#include "camp_val_load.h"

#include <stddef.h>
#include <string.h>

#include "fields.h"
#include "wl_campaign.h"
#include "yaml_load.h"

static int parse_as_of(const struct yn_node *v, void *target, const struct fd_ctx *ctx)
{
	return fd_get_date(v, "as_of", target, sizeof(((struct camp_val_set *)0)->as_of), ctx);
}

static int need_seq(const struct yn_node *v, void *target, const struct fd_ctx *ctx)
{
	(void)target;
	return v->type == YN_SEQ ? 0 : fd_type_error(v, "runs", "a list of runs", ctx);
}

#define SOFF(m) offsetof(struct camp_val_set, m)
static const struct fd_field set_table[] = {
	{ .key = "source", .type = FD_STR, .required = 1, .offset = SOFF(source),
	  .size = CAMP_VAL_TEXT_LEN },
	{ .key = "as_of", .type = FD_CUSTOM, .required = 1, .offset = SOFF(as_of),
	  .parse = parse_as_of },
	{ .key = "runs", .type = FD_CUSTOM, .required = 1, .offset = 0, .parse = need_seq },
	{ 0 },
};
#undef SOFF

#define ROFF(m) offsetof(struct camp_val_run, m)
static const struct fd_field run_table[] = {
	{ .key = "id", .type = FD_STR, .required = 1, .offset = ROFF(id), .size = 64 },
	{ .key = "gpu", .type = FD_STR, .required = 1, .offset = ROFF(gpu), .size = GPU_ID_LEN },
	{ .key = "gpus", .type = FD_INT, .required = 1, .offset = ROFF(gpus), .min = 1,
	  .max = 1000000 },
	{ .key = "gpus_per_node", .type = FD_INT, .required = 1, .offset = ROFF(gpus_per_node),
	  .min = 1, .max = 1024 },
	{ .key = "params", .type = FD_NUM, .required = 1, .offset = ROFF(params),
	  .unit = TC_UNIT_COUNT, .min = 1, .max = 1e15 },
	{ .key = "steady", .type = FD_NUM, .required = 1, .offset = ROFF(steady_s),
	  .unit = TC_UNIT_SECONDS, .min = 1, .max = 100 * 365 * 86400.0,
	  .expect = "a duration from 1 s to 100 y" },
	{ .key = "wall", .type = FD_NUM, .required = 1, .offset = ROFF(wall_s),
	  .unit = TC_UNIT_SECONDS, .min = 1, .max = 100 * 365 * 86400.0,
	  .expect = "a duration from 1 s to 100 y" },
	{ .key = "campaign", .type = FD_IGNORE, .offset = 0 },
	{ .key = "source", .type = FD_STR, .required = 1, .offset = ROFF(source),
	  .size = CAMP_VAL_TEXT_LEN },
	{ .key = "note", .type = FD_STR, .offset = ROFF(note), .size = CAMP_VAL_TEXT_LEN },
	{ 0 },
};
#undef ROFF

/* One run of the list at node v into *r.  Returns 0 or -1. */
static int read_run(const struct yn_node *v, const char *file, struct camp_val_run *r,
		    struct tc_diag *d)
{
	struct fd_ctx ctx = { .file = file, .d = d };
	memset(r, 0, sizeof(*r));
	r->line = v->line;
	r->col = v->col;
	if (v->type != YN_MAP)
		return fd_type_error(v, "runs", "a mapping per run", &ctx);
	int bad = fd_parse_map(v, run_table, r, "run", &ctx, NULL) != 0;
	const struct yn_node *c = yn_map_get(v, "campaign");
	if (c && wl_campaign_parse(c, file, &r->campaign, d))
		bad = 1;
	const struct yn_node *w = yn_map_get(v, "wall");
	if (!bad && r->wall_s < r->steady_s)
		bad = tc_diag_at(d, TC_EXIT_INPUT, file, w->line, w->col,
				 "wall %.6g s is shorter than steady %.6g s (expected the wall "
				 "clock at least the steady state)", r->wall_s, r->steady_s) != 0;
	return bad ? -1 : 0;
}

int camp_val_load(const char *path, struct camp_val_set *out, struct tc_diag *d)
{
	struct yn_doc doc = { 0 };
	struct fd_ctx ctx = { .file = path, .d = d };
	int bad = 0;

	memset(out, 0, sizeof(*out));
	if (yn_load_file(path, &doc, d))
		return -1;
	const struct yn_node *root = doc.root;
	if (!root || root->type != YN_MAP) {
		tc_diag_at(d, TC_EXIT_INPUT, path, root ? root->line : 1, root ? root->col : 1,
			   "the file holds %s (expected a mapping with source, as_of and runs)",
			   root ? yn_type_name(root) : "nothing");
		yn_doc_release(&doc);
		return -1;
	}
	bad = fd_parse_map(root, set_table, out, "campaign set", &ctx, NULL) != 0;
	const struct yn_node *runs = yn_map_get(root, "runs");
	if (runs && runs->type == YN_SEQ) {
		if (runs->count > CAMP_VAL_MAX_RUNS)
			bad |= tc_diag_at(d, TC_EXIT_INPUT, path, runs->line, runs->col,
					  "%zu runs (expected at most %d)", runs->count,
					  CAMP_VAL_MAX_RUNS) != 0;
		for (size_t i = 0; i < runs->count && i < CAMP_VAL_MAX_RUNS; i++)
			bad |= read_run(runs->items[i], path, &out->run[i], d) != 0;
		out->count = runs->count < CAMP_VAL_MAX_RUNS ? runs->count : CAMP_VAL_MAX_RUNS;
	}
	yn_doc_release(&doc);
	return bad ? -1 : 0;
}
