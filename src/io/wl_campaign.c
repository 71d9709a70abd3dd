/*
 * wl_campaign.c - a workload's optional `campaign:` section: failures,
 * restarts, checkpoints and the overheads around the steady state
 * (docs/workload-format.md, "Campaign"; the model in model/families/campaign.h).
 */
#include <stddef.h>

#include "wl_campaign.h"

#include "fields.h"
#include "wl_util.h"

#define COFF(m) offsetof(struct campaign_in, m)

/*
 * The keys, in the order of enum camp_param: fd_parse_map's bit i of
 * `seen` is then the parameter's bit of campaign_in.set.  The bounds keep
 * out what no cluster has (a bandwidth of 1e30 B/s, an interval of 0).
 */
static const struct fd_field campaign_table[] = {
	{ .key = "node_interruptions_per_day", .type = FD_NUM, .offset = COFF(node_rate_per_day),
	  .unit = TC_UNIT_COUNT, .min = 0, .max = 1,
	  .expect = "interruptions per node-day, 0 to 1" },
	{ .key = "job_interruptions_per_day", .type = FD_NUM, .offset = COFF(job_rate_per_day),
	  .unit = TC_UNIT_COUNT, .min = 0, .max = 1440,
	  .expect = "interruptions per day, 0 to 1440" },
	{ .key = "operation", .type = FD_ENUM, .offset = COFF(operation),
	  .names = camp_operation_names },
	{ .key = "restart", .type = FD_NUM, .offset = COFF(restart_s), .unit = TC_UNIT_SECONDS,
	  .min = 0, .max = 30 * 86400.0, .expect = "a duration from 0 s to 30 d" },
	{ .key = "checkpoint", .type = FD_ENUM, .offset = COFF(checkpoint),
	  .names = camp_checkpoint_names },
	{ .key = "checkpoint_interval", .type = FD_NUM, .offset = COFF(interval_s),
	  .unit = TC_UNIT_SECONDS, .min = 1, .max = 365 * 86400.0,
	  .expect = "a duration from 1 s to 1 y" },
	{ .key = "storage_write", .type = FD_NUM, .offset = COFF(write_bytes_per_s),
	  .unit = TC_UNIT_BYTE_RATE, .min = 1e6, .max = 1e15,
	  .expect = "a bandwidth from 1 MB/s to 1 PB/s" },
	{ .key = "async_blocking", .type = FD_NUM, .offset = COFF(async_block_s),
	  .unit = TC_UNIT_SECONDS, .min = 0, .max = 3600, .expect = "a duration from 0 s to 1 h" },
	{ .key = "straggler_frac", .type = FD_NUM, .offset = COFF(straggler_frac),
	  .unit = TC_UNIT_COUNT, .min = 0, .max = 0.9, .expect = "a share from 0 to 0.9" },
	{ .key = "eval_frac", .type = FD_NUM, .offset = COFF(eval_frac), .unit = TC_UNIT_COUNT,
	  .min = 0, .max = 0.9, .expect = "a share from 0 to 0.9" },
	{ .key = "startup", .type = FD_NUM, .offset = COFF(startup_s), .unit = TC_UNIT_SECONDS,
	  .min = 0, .max = 365 * 86400.0, .expect = "a duration from 0 s to 1 y" },
	{ .key = "spare_frac", .type = FD_NUM, .offset = COFF(spare_frac), .unit = TC_UNIT_COUNT,
	  .min = 0, .max = 1, .expect = "a share of the nodes from 0 to 1" },
	{ .key = "spot_preemptions_per_h", .type = FD_NUM, .offset = COFF(preempt_per_h),
	  .unit = TC_UNIT_COUNT, .min = 0, .max = 100,
	  .expect = "preemptions per instance-hour, 0 to 100" },
	{ .key = "spot_notice", .type = FD_NUM, .offset = COFF(notice_s), .unit = TC_UNIT_SECONDS,
	  .min = 0, .max = 3600, .expect = "a duration from 0 s to 1 h" },
	{ 0 },
};
#undef COFF

_Static_assert(sizeof(campaign_table) / sizeof(campaign_table[0]) == CAMP_P_COUNT + 1,
	       "one key per campaign parameter, in enum camp_param's order");

int wl_campaign_parse(const struct yn_node *map, const char *file, struct campaign_in *out,
		      struct tc_diag *d)
{
	struct fd_ctx ctx = { .file = file, .d = d };
	struct campaign_in in = { 0 };
	uint64_t seen = 0;

	if (map->type != YN_MAP)
		return fd_type_error(map, "campaign", "a mapping", &ctx);
	if (fd_parse_map(map, campaign_table, &in, "campaign", &ctx, &seen))
		return -1;
	in.set = (unsigned)seen;
	*out = in;
	return 0;
}

int wl_read_campaign(const struct yn_node *root, const char *file, struct workload *w,
		     struct tc_diag *d)
{
	const struct yn_node *map = yn_map_get(root, "campaign");
	if (!map)
		return 0;
	wlx_mark(w, WLF_CAMPAIGN, root, "campaign");
	wlx_mark(w, WLF_CAMPAIGN_RESTART, map, "restart");
	wlx_mark(w, WLF_CAMPAIGN_INTERVAL, map, "checkpoint_interval");
	return wl_campaign_parse(map, file, &w->campaign, d);
}
