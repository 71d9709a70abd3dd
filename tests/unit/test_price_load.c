/*
 * test_price_load.c - price files: good and bad tables, stale warnings,
 * on-premises inputs, and every pricing/<provider>.yaml of the frozen copy (tests/data) against its
 * GPU catalog's file names.
 *
 * Run from the repository root (tests/run-all.sh does).
 */
#include "tc_test.h"

#include <glob.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../src/model/money/cost.h"
#include "../../src/model/types/network.h"
#include "../../src/io/price_load.h"

#define DATA "tests/unit/data/pricing/"
#define TODAY "2026-11-29"

/* Ids the bad-file tests check against. */
static const char *const test_ids[] = { "a100-40gb-sxm", "a100-80gb-sxm", "l4",
					"l40s", "h100-sxm", NULL };

static void test_good_table(void **state)
{
	(void)state;
	struct price_table t = { 0 };
	struct tc_diag d, warn;
	tc_diag_init(&d);
	tc_diag_init(&warn);

	assert_int_equal(price_load_file(DATA "good.yaml", TODAY, &t, &warn, &d), 0);
	assert_int_equal(d.count, 0);
	assert_string_equal(t.provider, "testcloud");
	assert_string_equal(t.currency, "USD");
	assert_string_equal(t.as_of, "2026-06-01");
	assert_int_equal(t.billing.granularity, COST_PER_MINUTE);
	assert_close(t.billing.minimum_s, 60, TOL_EXACT);
	assert_int_equal(t.count, 4);

	const struct price_offer *o = &t.offers[0];
	assert_string_equal(o->instance, "big.8x");
	assert_string_equal(o->gpu, "a100-80gb-sxm");
	assert_close(o->gpus, 8, TOL_EXACT);
	assert_close(o->price_usd_per_h[COST_ON_DEMAND], 24, TOL_EXACT);
	assert_close(o->price_usd_per_h[COST_SPOT], 8, TOL_EXACT);
	assert_close(price_usd_per_gpu_h(o, COST_ON_DEMAND), 3, TOL_EXACT);
	assert_int_equal(o->verified, 1);
	/* Defaults from the file; positions of the offer and its gpu. */
	assert_string_equal(o->as_of, "2026-06-01");
	assert_string_equal(o->source, "hand-written test table");
	assert_int_equal(o->line, 8);
	assert_int_equal(o->col, 5);
	assert_int_equal(o->gpu_line, 8);
	assert_int_equal(o->gpu_col, 30);
	/* What the offer can host, as written. */
	assert_true(o->fabric_stated);
	assert_int_equal(o->interconnect, COST_LINK_NVLINK);
	assert_string_equal(o->network, "ib-ndr");
	assert_int_equal(o->max_instances, 32);
	assert_string_equal(o->fabric_source, "hand-written fabric");
	/* Not stated: one instance, no network, no source. */
	assert_false(t.offers[1].fabric_stated);
	assert_string_equal(t.offers[1].network, "none");
	assert_int_equal(t.offers[1].max_instances, 1);
	assert_string_equal(t.offers[1].fabric_source, "");

	/* Fractional GPUs: 0.2 / 0.25 = 0.8 USD per GPU-hour. */
	assert_close(t.offers[1].gpus, 0.25, TOL_EXACT);
	assert_close(price_usd_per_gpu_h(&t.offers[1], COST_ON_DEMAND), 0.8, TOL_EXACT);

	/* GCP-style parts, and the offer's own date and source. */
	o = &t.offers[2];
	assert_close(o->gpu_part_usd_per_h + o->host_part_usd_per_h,
		     o->price_usd_per_h[COST_ON_DEMAND], 1e-9);
	assert_string_equal(o->as_of, "2026-01-10");
	assert_string_equal(o->source, "another source");
	assert_int_equal(o->as_of_line, 17);
	assert_int_equal(o->as_of_col, 12);
	assert_int_equal(o->gpu_line, 11);
	assert_int_equal(o->gpu_col, 10);

	/* Spot above on-demand is a warning, not an error. */
	assert_int_equal(t.offers[3].verified, 0);
	assert_int_equal(warn.count, 1);
	assert_int_equal(warn.severity, TC_EXIT_OK);
	assert_string_equal(warn.entry[0].msg,
			    DATA "good.yaml:19:80: warning: spot 1.5 is above on_demand 1 for offer 'dear-spot'");

	assert_int_equal(price_check_gpus(&t, test_ids, &d), 0);
	price_table_release(&t);
	price_table_release(&t); /* released twice: a no-op */
}

static void test_stale_warning(void **state)
{
	(void)state;
	struct price_table t = { 0 };
	struct tc_diag d, warn;
	tc_diag_init(&d);
	tc_diag_init(&warn);

	assert_int_equal(price_load_file(DATA "good.yaml", TODAY, &t, NULL, &d), 0);
	/* 2026-06-01 -> 2026-11-29: 30 (rest of June) + 31 + 31 + 30 + 31 + 29
	 * = 181 days: stale at the default 180.  2026-01-10 -> 2026-11-29:
	 * 21 + 28 + 31 + 30 + 31 + 30 + 31 + 31 + 30 + 31 + 29 = 323 days.  One warning per distinct date, at the date's position. */
	assert_int_equal(price_check_stale(&t, TODAY, PRICE_STALE_DAYS, &warn), 2);
	assert_string_equal(warn.entry[0].msg,
			    DATA "good.yaml:4:8: warning: prices of 'testcloud' dated 2026-06-01 are 181 days old (expected at most 180; refresh them or pass --max-age)");
	assert_string_equal(warn.entry[1].msg,
			    DATA "good.yaml:17:12: warning: prices of 'testcloud' dated 2026-01-10 are 323 days old (expected at most 180; refresh them or pass --max-age)");
	assert_int_equal(warn.severity, TC_EXIT_OK);

	/* One day younger: only the older date warns; a year allowed: none. */
	tc_diag_init(&warn);
	assert_int_equal(price_check_stale(&t, "2026-11-28", PRICE_STALE_DAYS, &warn), 1);
	tc_diag_init(&warn);
	assert_int_equal(price_check_stale(&t, TODAY, 365, &warn), 0);
	price_table_release(&t);
}

/*
 * A date a few days after today is a warning, once per distinct date, and
 * the prices load; within the time-zone slack it is nothing.
 */
static void test_future_warning(void **state)
{
	(void)state;
	struct price_table t = { 0 };
	struct tc_diag d, warn;
	tc_diag_init(&d);
	tc_diag_init(&warn);

	/* 2026-11-29 -> 2027-01-01: 1 (rest of November) + 31 + 1 = 33 days;
	 * -> 2026-12-01: 2 days, within PRICE_FUTURE_SLACK_DAYS; -> 2026-12-02:
	 * 3 days, twice. */
	assert_int_equal(price_load_file(DATA "future-dates.yaml", TODAY, &t, &warn, &d), 0);
	assert_int_equal(t.count, 4);
	assert_int_equal(warn.count, 2);
	assert_string_equal(warn.entry[0].msg,
			    DATA "future-dates.yaml:4:8: warning: as_of 2027-01-01 is 33 days after today, 2026-11-29 (expected a date on or before today; check the date and the clock)");
	assert_string_equal(warn.entry[1].msg,
			    DATA "future-dates.yaml:10:71: warning: as_of 2026-12-02 is 3 days after today, 2026-11-29 (expected a date on or before today; check the date and the clock)");
	assert_int_equal(warn.severity, TC_EXIT_OK);
	price_table_release(&t);

	/* A day later the slack covers 2026-12-02 too: only 2027-01-01 warns. */
	tc_diag_init(&warn);
	assert_int_equal(price_load_file(DATA "future-dates.yaml", "2026-11-30", &t, &warn, &d), 0);
	assert_int_equal(warn.count, 1);
	price_table_release(&t);
	/* On 2027-01-01 itself nothing is ahead. */
	tc_diag_init(&warn);
	assert_int_equal(price_load_file(DATA "future-dates.yaml", "2027-01-01", &t, &warn, &d), 0);
	assert_int_equal(warn.count, 0);
	price_table_release(&t);
}

static void test_dates(void **state)
{
	(void)state;
	long days;
	assert_int_equal(price_days_between("2026-06-01", "2026-11-29", &days), 0);
	assert_int_equal(days, 181);
	/* 2024 is a leap year: 366 days. */
	assert_int_equal(price_days_between("2024-01-01", "2025-01-01", &days), 0);
	assert_int_equal(days, 366);
	assert_int_equal(price_days_between("2026-11-29", "2026-11-28", &days), 0);
	assert_int_equal(days, -1);
	assert_int_equal(price_days_between("2026-02-29", "2026-11-28", &days), -1);
	assert_int_equal(price_days_between("2026-1-01", "2026-11-28", &days), -1);
}

/* Load `file` and expect it to fail with exactly `msgs` (NULL-ended). */
static void expect_bad(const char *file, int check_gpus, const char *const *msgs)
{
	struct price_table t = { 0 };
	struct tc_diag d;
	tc_diag_init(&d);

	int rc = price_load_file(file, TODAY, &t, NULL, &d);
	if (check_gpus) {
		assert_int_equal(rc, 0);
		rc = price_check_gpus(&t, test_ids, &d);
	}
	assert_int_equal(rc, -1);
	assert_int_equal(d.severity, TC_EXIT_INPUT);
	int n = 0;
	for (; msgs[n]; n++) {
		assert_true(n < d.count);
		assert_string_equal(d.entry[n].msg, msgs[n]);
	}
	assert_int_equal(d.count, n);
	price_table_release(&t);
}

static void test_bad_files(void **state)
{
	(void)state;
	static const char *const negative[] = {
		DATA "bad-negative-price.yaml:8:61: 'on_demand' is -0.5 (expected a price above 0 in US dollars per instance-hour)",
		DATA "bad-negative-price.yaml:9:70: 'spot' is 0 (expected a price above 0 in US dollars per instance-hour)",
		NULL
	};
	static const char *const unknown_gpu[] = {
		DATA "bad-unknown-gpu.yaml:9:25: unknown GPU 'a100-80gb-sxm4' (expected a GPU id of models/gpu; did you mean 'a100-80gb-sxm'?)",
		DATA "bad-unknown-gpu.yaml:11:10: unknown GPU 'tpu-v5' (expected a GPU id of models/gpu, see `traincost gpus`)",
		NULL
	};
	static const char *const no_currency[] = {
		DATA "bad-missing-currency.yaml:1:1: missing required key 'currency' in price file",
		NULL
	};
	/* From 2026-11-29: to 2027-11-29 is 365 days (no 29 February between),
	 * so 2027-11-30 is 366 (the most allowed), 2027-12-01 is 367 and
	 * 2028-01-01 is 367 + 31 = 398. */
	static const char *const future[] = {
		DATA "bad-future-date.yaml:4:8: as_of 2028-01-01 is 398 days after today, 2026-11-29 (expected a date at most 366 days ahead)",
		DATA "bad-future-date.yaml:9:71: as_of 2027-12-01 is 367 days after today, 2026-11-29 (expected a date at most 366 days ahead)",
		NULL
	};
	static const char *const unknown_key[] = {
		DATA "bad-unknown-key.yaml:8:50: unknown key 'on_demnd' in offer (did you mean 'on_demand'?)",
		DATA "bad-unknown-key.yaml:8:5: offer 'a' has no price (expected on_demand, spot or both)",
		NULL
	};
	static const char *const parts[] = {
		DATA "bad-parts.yaml:8:93: 'on_demand' is 0.8 but 0.5 + 0.25 = 0.75 (expected the sum of the parts)",
		DATA "bad-parts.yaml:9:60: 'gpu_part' needs 'host_part' and 'on_demand' as well (expected both parts and their sum)",
		DATA "bad-parts.yaml:10:5: offer 'c' has no price (expected on_demand, spot or both)",
		DATA "bad-parts.yaml:11:17: offer 'a' in region 'r1' is listed twice (expected it once, first at line 8)",
		NULL
	};
	static const char *const fabric[] = {
		DATA "bad-fabric.yaml:8:78: 'interconnect' is 'nvlnk' (expected one of: none, pcie, nvlink; did you mean 'nvlink'?)",
		DATA "bad-fabric.yaml:9:93: 'network' is 'ib-nd' (expected one of: none, ib-hdr, ib-ndr, roce-100g, eth-25g, efa-400g, efa-3200g, roce-200g, roce-400g; did you mean 'ib-ndr'?)",
		DATA "bad-fabric.yaml:10:116: 'max_instances' is 0 (expected a whole number from 1 to 100000, or unknown)",
		DATA "bad-fabric.yaml:11:114: offer 'd' has max_instances 4 but network none (expected 1 without a network between instances)",
		DATA "bad-fabric.yaml:12:5: offer 'e' states its fabric without a source (expected fabric_source in the offer or the file)",
		DATA "bad-fabric.yaml:13:78: offer 'f' has 1 GPU per instance and interconnect nvlink (expected none)",
		NULL
	};
	expect_bad(DATA "bad-fabric.yaml", 0, fabric);
	expect_bad(DATA "bad-negative-price.yaml", 0, negative);
	expect_bad(DATA "bad-unknown-gpu.yaml", 1, unknown_gpu);
	expect_bad(DATA "bad-missing-currency.yaml", 0, no_currency);
	expect_bad(DATA "bad-future-date.yaml", 0, future);
	expect_bad(DATA "bad-unknown-key.yaml", 0, unknown_key);
	expect_bad(DATA "bad-parts.yaml", 0, parts);
	static const char *const notice[] = {
		DATA "bad-spot-notice.yaml:7:25: 'seconds' is 2h (expected a duration from 0 s to 1 h)",
		DATA "bad-spot-notice.yaml:7:14: missing required key 'source' in spot_notice",
		NULL
	};
	static const char *const notice_type[] = {
		DATA "bad-spot-notice-type.yaml:7:14: 'spot_notice' must be a mapping such as { seconds: 2min, source: URL, as_of: 2026-12-05 }, or unknown, got '2min'",
		NULL
	};
	expect_bad(DATA "bad-spot-notice.yaml", 0, notice);
	expect_bad(DATA "bad-spot-notice-type.yaml", 0, notice_type);
}

/* A provider's spot notice with its own source and date; none given is
 * unknown, never a default. */
static void test_spot_notice(void **state)
{
	(void)state;
	struct price_table t = { 0 };
	struct tc_diag d;
	tc_diag_init(&d);
	assert_int_equal(price_load_file(DATA "spot-notice.yaml", TODAY, &t, NULL, &d), 0);
	assert_true(t.spot_notice_known);
	assert_close(t.spot_notice_s, 120, TOL_EXACT);
	assert_string_equal(t.spot_notice_source, "hand-written notice");
	assert_string_equal(t.spot_notice_as_of, "2026-05-01");
	price_table_release(&t);
	assert_int_equal(price_load_file(DATA "good.yaml", TODAY, &t, NULL, &d), 0);
	assert_false(t.spot_notice_known);
	price_table_release(&t);
}

/* A network stated as adapters x rate per instance becomes the named
 * network of the same fabric and rate per GPU; `unknown` size is the
 * loader's bound, flagged. */
static void test_fabric_adapters(void **state)
{
	(void)state;
	struct price_table t = { 0 };
	struct tc_diag d;
	tc_diag_init(&d);
	assert_int_equal(price_load_file(DATA "fabric-adapters.yaml", TODAY, &t, NULL, &d), 0);
	const struct price_offer *e8 = &t.offers[0], *r8 = &t.offers[1], *e4 = &t.offers[2];
	/* 4 x 100 / 8 = 50 Gb/s per GPU of EFA: efa-400g. */
	assert_true(e8->fabric_stated);
	assert_int_equal(e8->adapters, 4);
	assert_close(e8->adapter_gbps, 100, TOL_EXACT);
	assert_string_equal(net_fabric_names[e8->fabric], "efa");
	assert_int_equal(e8->cluster, COST_CLUSTER_PLACEMENT_GROUP);
	assert_string_equal(e8->network, "efa-400g");
	assert_true(e8->max_unconfirmed);
	assert_true(e8->max_instances >= 100000);
	assert_string_equal(e8->fabric_source, "hand-written fabric page");
	/* 16 x 200 / 8 = 400 Gb/s per GPU of RoCE: roce-400g, 32 instances. */
	assert_string_equal(r8->network, "roce-400g");
	assert_int_equal(r8->cluster, COST_CLUSTER_NETWORK);
	assert_int_equal(r8->max_instances, 32);
	assert_false(r8->max_unconfirmed);
	/* Half the adapters for half the GPUs: the same network. */
	assert_string_equal(e4->network, "efa-400g");
	assert_int_equal(e4->cluster, COST_CLUSTER_CAPACITY_BLOCK);
	price_table_release(&t);
	/* The mapping itself: a rate per GPU within 1 % of a tier, of the
	 * same fabric only. */
	assert_ptr_equal(net_for_adapters(1, 8, 400, 8), net_find("ib-ndr"));
	assert_ptr_equal(net_for_adapters(1, 8, 200, 8), net_find("ib-hdr"));
	assert_null(net_for_adapters(0, 8, 200, 8)); /* 200 Gb/s EFA per GPU: none */
	assert_null(net_for_adapters(1, 3, 100, 8));
	assert_null(net_for_adapters(1, 0, 100, 8));
	assert_null(net_for_adapters(1, 8, 400, 0));
}

/* Spot across zones: a median given is the spot price; without one the
 * `spot` figure stays, with the zones' range kept beside it. */
static void test_spot_zones(void **state)
{
	(void)state;
	struct price_table t = { 0 };
	struct tc_diag d;
	tc_diag_init(&d);
	assert_int_equal(price_load_file(DATA "spot-zones.yaml", TODAY, &t, NULL, &d), 0);
	assert_close(t.offers[0].price_usd_per_h[COST_SPOT], 9, TOL_EXACT);
	assert_close(t.offers[0].spot_low_usd_per_h, 8, TOL_EXACT);
	assert_close(t.offers[0].spot_high_usd_per_h, 20, TOL_EXACT);
	assert_close(t.offers[1].price_usd_per_h[COST_SPOT], 8, TOL_EXACT);
	assert_close(t.offers[1].spot_median_usd_per_h, 0, TOL_EXACT);
	assert_close(t.offers[1].spot_high_usd_per_h, 20, TOL_EXACT);
	price_table_release(&t);
}

/* The file's fabric_source is every stating offer's default. */
static void test_fabric_default(void **state)
{
	(void)state;
	struct price_table t = { 0 };
	struct tc_diag d;
	tc_diag_init(&d);
	assert_int_equal(price_load_file(DATA "fabric-default.yaml", TODAY, &t, NULL, &d), 0);
	assert_true(t.offers[0].fabric_stated);
	assert_int_equal(t.offers[0].interconnect, COST_LINK_PCIE);
	assert_string_equal(t.offers[0].network, "roce-100g");
	assert_int_equal(t.offers[0].max_instances, 16);
	assert_string_equal(t.offers[0].fabric_source, "hand-written fabric page");
	assert_false(t.offers[1].fabric_stated);
	assert_int_equal(t.offers[1].interconnect, COST_LINK_NONE);
	price_table_release(&t);
}

/* Every offer of every price file, shipped (pricing/) and frozen
 * (tests/data/pricing/), states what it can host, with a source. */
static void test_fabric_everywhere(void **state)
{
	(void)state;
	glob_t g;
	assert_int_equal(glob("pricing/*.yaml", 0, NULL, &g), 0);
	assert_int_equal(glob(TC_TEST_DATA "/pricing/*.yaml", GLOB_APPEND, NULL, &g), 0);
	size_t offers = 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct price_table t = { 0 };
		struct tc_diag d;
		tc_diag_init(&d);
		if (strstr(g.gl_pathv[i], "onprem.yaml") || strstr(g.gl_pathv[i], "unjoinable.yaml"))
			continue; /* no offers */
		/* No date check here: only the fabric is under test. */
		int rc = price_load_file(g.gl_pathv[i], "9999-12-31", &t, NULL, &d);
		for (int k = 0; k < d.count; k++)
			print_message("%s\n", d.entry[k].msg);
		assert_int_equal(rc, 0);
		for (size_t j = 0; j < t.count; j++) {
			const struct price_offer *o = &t.offers[j];
			if (!o->fabric_stated || !o->fabric_source[0])
				print_message("%s:%d: offer '%s' states no fabric or no source\n",
					      g.gl_pathv[i], o->line, o->instance);
			assert_true(o->fabric_stated);
			assert_true(o->fabric_source[0] != '\0');
			assert_true(o->max_instances >= 1);
			/* One GPU has nothing inside to link; more need a link. */
			assert_true((o->gpus > 1) == (o->interconnect != COST_LINK_NONE));
			/* Joining instances is claimed only where a source says
			 * so: a page (a URL) or a file of a repository at a
			 * commit ("owner/repo@commit path"). */
			if (o->max_instances > 1)
				assert_true(strstr(o->fabric_source, "https://") ||
					    strchr(o->fabric_source, '@'));
			offers++;
		}
		price_table_release(&t);
	}
	assert_true(g.gl_pathc >= 20);
	assert_true(offers >= 200);
	globfree(&g);
}

/*
 * The products that cannot join instances (the frozen copy) load, each with a
 * source, a fabric and a price text and what it lacks; those the fabric
 * sources name are all there (GCP A4: fabric sourced, no
 * 8-GPU price; CoreWeave H100: an 8-GPU price, no adapters), and none of
 * them is also an offer that joins instances (the one place for the fact).
 */
static void test_unjoinable(void **state)
{
	struct price_unjoin u;
	struct price_table t = { 0 };
	struct tc_diag d;
	int a4 = 0, cw = 0;
	(void)state;
	tc_diag_init(&d);
	assert_int_equal(price_unjoin_load_file(TC_TEST_DATA "/pricing/unjoinable.yaml", "9999-12-31", &u, NULL,
						&d), 0);
	assert_true(u.count >= 13);
	for (size_t i = 0; i < u.count; i++) {
		const struct price_unjoinable *p = &u.items[i];
		assert_true(p->source[0] && p->fabric[0] && p->price[0]);
		assert_in_range(p->lacks, PRICE_LACKS_PRICE, PRICE_LACKS_BOTH);
		a4 |= !strcmp(p->provider, "gcp") && strstr(p->product, "a4-highgpu-8g") &&
		      p->lacks == PRICE_LACKS_PRICE;
		cw |= !strcmp(p->provider, "coreweave") && !strcmp(p->gpu, "h100-sxm") &&
		      p->lacks == PRICE_LACKS_FABRIC;
	}
	assert_true(a4 && cw);
	assert_int_equal(price_load_file(TC_TEST_DATA "/pricing/coreweave.yaml", "9999-12-31", &t, NULL, &d), 0);
	for (size_t i = 0; i < t.count; i++)
		assert_true(t.offers[i].max_instances == 1);
	price_table_release(&t);
	price_unjoin_release(&u);
	price_unjoin_release(&u); /* released twice: a no-op */
}

static void test_onprem(void **state)
{
	(void)state;
	struct price_onprem op = { 0 };
	struct tc_diag d;
	struct cost_onprem p;
	struct cost_onprem_result r;
	tc_diag_init(&d);

	assert_int_equal(price_onprem_load_file(DATA "onprem-test.yaml", TODAY, &op, NULL, &d), 0);
	assert_int_equal(op.count, 3);
	assert_int_equal(price_onprem_check_gpus(&op, test_ids, &d), 0);

	/* H100 from a node: 270000 / 8 = 33750; x 1.125 = 37968.75 USD. */
	assert_int_equal(price_onprem_params(&op, "h100-sxm", &p), 0);
	assert_close(p.capex_usd, 37968.75, TOL_EXACT);
	/* Capital 37968.75 x 0.7 / (26280 x 0.8) = 1.26418...; power
	 * 0.7 x 1.4 x 0.09 = 0.0882; colo 200 x 0.7 x 1.4 / 730 = 0.26849... */
	assert_int_equal(cost_onprem_per_gpu_h(&p, 700, &r), 0);
	assert_close(r.total_usd_per_gpu_h, 26578.125 / 21024.0 + 0.0882 + 196.0 / 730.0,
		     TOL_EXACT);
	/* L40S card only: 8000 + 0.2 x 8000 = 9600; x 1.125 = 10800 USD. */
	assert_int_equal(price_onprem_params(&op, "l40s", &p), 0);
	assert_close(p.capex_usd, 10800, TOL_EXACT);
	/* L4 with its own server share: (2500 + 500) x 1.125 = 3375 USD. */
	assert_int_equal(price_onprem_params(&op, "l4", &p), 0);
	assert_close(p.capex_usd, 3375, TOL_EXACT);
	assert_close(p.util_frac, 0.8, TOL_EXACT);
	assert_int_equal(price_onprem_params(&op, "b200", &p), -1);
	price_onprem_release(&op);
}

/* The names of the frozen models/gpu YAML files without ".yaml"; NULL-ended, owned. */
static char **catalog_ids(void)
{
	glob_t g;
	assert_int_equal(glob(TC_TEST_DATA "/models/gpu/*.yaml", 0, NULL, &g), 0);
	assert_true(g.gl_pathc > 10);
	char **ids = calloc(g.gl_pathc + 1, sizeof(*ids));
	assert_non_null(ids);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *base = strrchr(g.gl_pathv[i], '/') + 1;
		ids[i] = strndup(base, strlen(base) - strlen(".yaml"));
		assert_non_null(ids[i]);
	}
	globfree(&g);
	return ids;
}

static void test_frozen_tables(void **state)
{
	(void)state;
	char **ids = catalog_ids();
	const char *const *known = (const char *const *)ids;
	struct tc_datapath dp = { .count = 1 };
	struct price_set set;
	struct tc_diag d, warn;
	tc_diag_init(&d);
	tc_diag_init(&warn);
	snprintf(dp.dir[0], sizeof(dp.dir[0]), "%s", TC_TEST_DATA);

	int rc = price_load_all(&dp, TODAY, &set, &warn, &d);
	for (int i = 0; i < d.count; i++)
		print_message("%s\n", d.entry[i].msg);
	assert_int_equal(rc, 0);
	static const char *const providers[] = { "aws", "azure", "coreweave", "gcp",
						 "lambda", "nebius", "novita", "oci",
						 "paperspace", "runpod", "vast" };
	assert_int_equal(set.count, sizeof(providers) / sizeof(providers[0]));
	for (size_t i = 0; i < set.count; i++) {
		const struct price_table *t = &set.tables[i];
		assert_string_equal(t->provider, providers[i]);
		/* Every offer names a GPU of the catalog... */
		rc = price_check_gpus(t, known, &d);
		for (int k = 0; k < d.count; k++)
			print_message("%s\n", d.entry[k].msg);
		assert_int_equal(rc, 0);
		assert_string_equal(t->currency, "USD");
		for (size_t j = 0; j < t->count; j++) {
			const struct price_offer *o = &t->offers[j];
			/* ... has a price, a date and a source. */
			double any = 0;
			for (int k = 0; k < COST_KIND_COUNT; k++)
				any += o->price_usd_per_h[k];
			assert_true(any > 0);
			assert_int_equal((int)strlen(o->as_of), 10);
			assert_true(o->source[0] != '\0');
		}
	}
	/* The providers' documented spot notices: AWS 2 min, Google Cloud and
	 * Azure 30 s; OCI and CoreWeave state none. */
	assert_true(set.tables[0].spot_notice_known && set.tables[0].spot_notice_s == 120);
	assert_true(set.tables[1].spot_notice_known && set.tables[1].spot_notice_s == 30);
	assert_true(set.tables[3].spot_notice_known && set.tables[3].spot_notice_s == 30);
	assert_false(set.tables[2].spot_notice_known);
	assert_false(set.tables[7].spot_notice_known);
	/* The GCP host-plus-GPU sum as the reference prints it. */
	assert_string_equal(set.tables[3].provider, "gcp");
	assert_string_equal(set.tables[3].offers[0].instance, "a2-highgpu-1g");
	assert_close(set.tables[3].offers[0].price_usd_per_h[COST_ON_DEMAND],
		     2.93391 + 0.73948, 1e-12);
	/* The seed's Novita figure is kept, flagged. */
	assert_int_equal(set.tables[6].offers[0].verified, 0);
	assert_non_null(set.onprem);
	assert_int_equal(price_onprem_check_gpus(set.onprem, known, &d), 0);
	for (size_t i = 0; i < set.onprem->count; i++) {
		struct cost_onprem p;
		assert_int_equal(price_onprem_params(set.onprem, set.onprem->gpus[i].gpu, &p), 0);
		assert_true(p.capex_usd > 1000);
	}

	/* The cheapest H100 SXM per GPU-hour on demand is a marketplace offer,
	 * the dearest provider Azure (98.32 / 8 = 12.29). */
	struct cost_range r;
	assert_int_equal(cost_range(set.tables, set.count, "h100-sxm", COST_ON_DEMAND, 0, 0, &r), 0);
	assert_string_equal(r.dearest.table->provider, "azure");
	assert_close(r.dearest.run.price_usd_per_gpu_h, 12.29, TOL_EXACT);
	assert_true(r.cheapest.run.price_usd_per_gpu_h < 2.0);

	price_set_release(&set);
	for (size_t i = 0; ids[i]; i++)
		free(ids[i]);
	free(ids);
}

/* Write `t` as YAML to a temporary file, load it back; returns the path. */
static void round_trip(const struct price_table *t, struct price_table *back)
{
	char path[] = "/tmp/tc-price-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(price_table_write_yaml(t, f), 0);
	assert_int_equal(fclose(f), 0);
	struct tc_diag d;
	tc_diag_init(&d);
	int rc = price_load_file(path, TODAY, back, NULL, &d);
	for (int i = 0; i < d.count; i++)
		print_message("%s\n", d.entry[i].msg);
	remove(path);
	assert_int_equal(rc, 0);
}

static void test_import_aws(void **state)
{
	(void)state;
	struct price_table t = { 0 }, back = { 0 };
	struct tc_diag d, warn;
	tc_diag_init(&d);
	tc_diag_init(&warn);

	assert_int_equal(price_import_skypilot(DATA "skypilot-aws.csv", "aws", TODAY,
					       &t, &warn, &d), 0);
	assert_int_equal(d.count, 0);
	assert_string_equal(t.provider, "aws");
	assert_string_equal(t.as_of, TODAY);
	assert_string_equal(t.source, "SkyPilot catalog skypilot-aws.csv");
	assert_int_equal(t.billing.granularity, COST_PER_SECOND);
	assert_int_equal(t.count, 3);
	/* p4d: A100 with 40960 MiB on a p4d = A100 40GB SXM; two zones, the
	 * cheaper spot kept. */
	assert_string_equal(t.offers[0].instance, "p4d.24xlarge");
	assert_string_equal(t.offers[0].gpu, "a100-40gb-sxm");
	assert_close(t.offers[0].gpus, 8, TOL_EXACT);
	assert_close(t.offers[0].price_usd_per_h[COST_ON_DEMAND], 21.957642, TOL_EXACT);
	assert_close(t.offers[0].price_usd_per_h[COST_SPOT], 2.4655, TOL_EXACT);
	assert_string_equal(t.offers[1].gpu, "a100-80gb-sxm");
	/* A quarter L4, no spot. */
	assert_string_equal(t.offers[2].gpu, "l4");
	assert_close(t.offers[2].gpus, 0.25, TOL_EXACT);
	assert_close(t.offers[2].price_usd_per_h[COST_SPOT], 0, TOL_EXACT);
	/* The CPU instance is ignored; Trainium is skipped, said once. */
	assert_int_equal(warn.count, 1);
	assert_string_equal(warn.entry[0].msg,
			    DATA "skypilot-aws.csv:7: warning: skipped 2 rows of accelerator 'Trainium': no catalog GPU of that name");

	round_trip(&t, &back);
	assert_int_equal(back.count, 3);
	assert_close(back.offers[0].price_usd_per_h[COST_SPOT], 2.4655, TOL_EXACT);
	assert_close(back.offers[2].gpus, 0.25, TOL_EXACT);
	price_table_release(&back);
	price_table_release(&t);
}

static void test_import_gcp(void **state)
{
	(void)state;
	struct price_table t = { 0 }, back = { 0 };
	struct tc_diag d, warn;
	tc_diag_init(&d);
	tc_diag_init(&warn);

	assert_int_equal(price_import_skypilot(DATA "skypilot-gcp.csv", "gcp", TODAY,
					       &t, &warn, &d), 0);
	assert_int_equal(t.count, 2);
	/* Host 0.73948 + GPU 2.93391 = 3.67339; spot 0.36975 + 1.4341 = 1.80385. */
	const struct price_offer *o = &t.offers[0];
	assert_string_equal(o->instance, "a2-highgpu-1g");
	assert_string_equal(o->gpu, "a100-40gb-sxm");
	assert_close(o->gpus, 1, TOL_EXACT);
	assert_close(o->gpu_part_usd_per_h, 2.93391, TOL_EXACT);
	assert_close(o->host_part_usd_per_h, 0.73948, TOL_EXACT);
	assert_close(o->price_usd_per_h[COST_ON_DEMAND], 3.67339, TOL_EXACT);
	assert_close(o->price_usd_per_h[COST_SPOT], 1.80385, TOL_EXACT);
	/* 8g: 5.91582 + 23.47128 = 29.3871; the host has no spot price, so
	 * the VM has none. */
	o = &t.offers[1];
	assert_close(o->gpus, 8, TOL_EXACT);
	assert_close(o->price_usd_per_h[COST_ON_DEMAND], 29.3871, TOL_EXACT);
	assert_close(o->price_usd_per_h[COST_SPOT], 0, TOL_EXACT);
	assert_int_equal(warn.count, 1);
	assert_string_equal(warn.entry[0].msg,
			    DATA "skypilot-gcp.csv:6: warning: skipped 1 row of accelerator 'T4': accelerator rows without a matching GCP host shape (N1 attachments are not imported)");

	round_trip(&t, &back);
	assert_close(back.offers[0].gpu_part_usd_per_h + back.offers[0].host_part_usd_per_h,
		     3.67339, TOL_EXACT);
	price_table_release(&back);
	price_table_release(&t);
}

static void test_import_bad(void **state)
{
	(void)state;
	struct price_table t = { 0 };
	struct tc_diag d;
	tc_diag_init(&d);

	assert_int_equal(price_import_skypilot(DATA "skypilot-bad.csv", "aws", TODAY,
					       &t, NULL, &d), -1);
	assert_int_equal(d.severity, TC_EXIT_INPUT);
	assert_int_equal(d.count, 4);
	assert_string_equal(d.entry[0].msg,
			    DATA "skypilot-bad.csv:2: SpotPrice is 'abc' (expected a price in US dollars per hour, 0 to 100000)");
	assert_string_equal(d.entry[1].msg,
			    DATA "skypilot-bad.csv:3: AcceleratorCount is '-8' (expected a GPU count above 0, at most 64)");
	assert_string_equal(d.entry[2].msg,
			    DATA "skypilot-bad.csv:4: 9 fields (expected 11, as in the header)");
	assert_string_equal(d.entry[3].msg,
			    DATA "skypilot-bad.csv:5: Price is '-1.861' (expected a price in US dollars per hour, 0 to 100000)");

	tc_diag_init(&d);
	assert_int_equal(price_import_skypilot(DATA "skypilot-nocol.csv", "aws", TODAY,
					       &t, NULL, &d), -1);
	assert_int_equal(d.count, 1);
	assert_string_equal(d.entry[0].msg,
			    DATA "skypilot-nocol.csv:1: no 'AcceleratorCount' column (expected a SkyPilot vms.csv header with InstanceType, AcceleratorName, AcceleratorCount, Region and Price)");

	tc_diag_init(&d);
	assert_int_equal(price_import_skypilot(DATA "no-such-file.csv", "aws", TODAY,
					       &t, NULL, &d), -1);
	assert_int_equal(d.severity, TC_EXIT_IO);
	price_table_release(&t);
}

/* Offers with an unverified price are set aside after the others, both
 * in file order: U1 V1 U2 V2 V3 becomes V1 V2 V3 | U1 U2. */
static void test_set_aside_unverified(void **state)
{
	(void)state;
	static const char *const names[] = { "U1", "V1", "U2", "V2", "V3" };
	static const char *const order[] = { "V1", "V2", "V3", "U1", "U2" };
	struct price_offer o[5];
	struct price_table t;
	struct price_set set = { &t, 1, NULL, NULL };
	memset(o, 0, sizeof(o));
	memset(&t, 0, sizeof(t));
	for (int i = 0; i < 5; i++) {
		strcpy(o[i].instance, names[i]);
		o[i].verified = names[i][0] == 'V';
	}
	t.offers = o;
	t.count = 5;
	assert_int_equal(price_set_set_aside_unverified(&set), 2);
	assert_int_equal(t.count, 3);
	assert_int_equal(t.aside, 2);
	for (int i = 0; i < 5; i++)
		assert_string_equal(o[i].instance, order[i]);
	/* Again: nothing more to set aside, and the set-aside ones stay. */
	assert_int_equal(price_set_set_aside_unverified(&set), 0);
	assert_int_equal(t.count, 3);
	assert_int_equal(t.aside, 2);
	assert_string_equal(o[3].instance, "U1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_table),
		cmocka_unit_test(test_stale_warning),
		cmocka_unit_test(test_future_warning),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_spot_notice),
		cmocka_unit_test(test_fabric_default),
		cmocka_unit_test(test_fabric_adapters),
		cmocka_unit_test(test_spot_zones),
		cmocka_unit_test(test_fabric_everywhere),
		cmocka_unit_test(test_unjoinable),
		cmocka_unit_test(test_onprem),
		cmocka_unit_test(test_frozen_tables),
		cmocka_unit_test(test_import_aws),
		cmocka_unit_test(test_import_gcp),
		cmocka_unit_test(test_import_bad),
		cmocka_unit_test(test_set_aside_unverified),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
