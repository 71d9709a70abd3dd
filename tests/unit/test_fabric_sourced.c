/*
 * test_fabric_sourced.c - every offer of every price file states what it
 * can host (GPUs per instance, the interconnect inside an instance, the
 * network between instances, the most instances one order gets) and where
 * that was read, and the four agree with each other.
 *
 * It walks the frozen tables of tests/data by default; tests/shipped-data.sh
 * runs it with TC_FABRIC_DATA=. over the shipped pricing/ as well, where
 * every offer that joins instances also states its network as the source
 * does: adapters x rate per instance, the fabric and the cluster product
 * (the frozen tables name networks, an older form the loader still reads).
 */
#include "tc_test.h"

#include "../../src/model/types/network.h"
#include "../../src/io/price_load.h"

/* The offers the walk saw, for the relation "at least one per file". */
static size_t walked;

/* One offer: its fabric is stated, sourced and consistent.  Failures name
 * the file and line of the offer. */
static void check_offer(const struct price_table *t, const struct price_offer *o,
			int shipped)
{
	char at[1100];
	snprintf(at, sizeof(at), "%s:%d: %s", t->file, o->line, o->instance);
	if (!o->fabric_stated)
		fail_msg("%s: interconnect, network and max_instances are not all stated", at);
	if (!o->fabric_source[0])
		fail_msg("%s: no fabric_source, in the offer or the file", at);
	if (!(o->gpus > 0))
		fail_msg("%s: no GPUs per instance", at);
	if (o->interconnect < COST_LINK_NONE || o->interconnect > COST_LINK_NVLINK)
		fail_msg("%s: interconnect %d is not a link", at, o->interconnect);
	/* One GPU has nothing to link inside its instance. */
	if (o->gpus <= 1 && o->interconnect != COST_LINK_NONE)
		fail_msg("%s: %g GPU per instance with interconnect %s", at, o->gpus,
			 cost_link_names[o->interconnect]);
	if (strcmp(o->network, COST_NETWORK_NONE) && !net_find(o->network))
		fail_msg("%s: network '%s' is not a known network", at, o->network);
	if (o->max_instances < 1)
		fail_msg("%s: max_instances %d", at, o->max_instances);
	/* Instances are joined only over a network. */
	if (!strcmp(o->network, COST_NETWORK_NONE) && o->max_instances != 1)
		fail_msg("%s: max_instances %d without a network", at, o->max_instances);
	if (shipped && strcmp(o->network, COST_NETWORK_NONE) &&
	    (o->adapters < 1 || !(o->adapter_gbps > 0) || o->cluster == COST_CLUSTER_NONE))
		fail_msg("%s: joins instances over %s without adapters, adapter_gbps and cluster", at,
			 o->network);
	if (o->adapters &&
	    net_for_adapters(o->fabric, o->adapters, o->adapter_gbps, o->gpus) != net_find(o->network))
		fail_msg("%s: %d x %g Gb/s is not network %s", at, o->adapters, o->adapter_gbps,
			 o->network);
	walked++;
}

static void every_offer_states_a_sourced_fabric(void **state)
{
	(void)state;
	const char *dir = getenv("TC_FABRIC_DATA");
	struct tc_datapath dp;
	struct tc_diag d, warn;
	struct price_set set = { 0 };
	tc_diag_init(&d);
	tc_diag_init(&warn);
	setenv("TRAINCOST_PATH", dir && dir[0] ? dir : TC_TEST_DATA, 1);
	setenv("TRAINCOST_PATH_ONLY", "1", 1);
	assert_int_equal(dp_init(&dp, NULL, 0, &d), 0);
	if (price_load_all(&dp, TC_TEST_TODAY, &set, &warn, &d))
		fail_msg("the price files do not load: %s", d.count ? d.entry[0].msg : "?");
	assert_true(set.count > 0);
	for (size_t t = 0; t < set.count; t++) {
		size_t before = walked;
		for (size_t i = 0; i < set.tables[t].count; i++)
			check_offer(&set.tables[t], &set.tables[t].offers[i], dir && dir[0]);
		if (walked == before)
			fail_msg("%s: no offer", set.tables[t].file);
	}
	price_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_offer_states_a_sourced_fabric),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
