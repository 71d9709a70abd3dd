/*
 * test_money.c - a run priced on offers of one GPU that differ only by the
 * network between their instances: each offer's time is the model's time
 * of the same layout over that offer's network.
 */
#include "tc_test.h"

#include "../../src/io/fw_load.h"
#include "../../src/cli/money.h"
#include "../../src/model/types/network.h"
#include "../../src/io/wl_load.h"

/* Two providers of the same 8-GPU A100 80GB instance at $20/h, billed per
 * second: "fast" joins instances over ib-ndr, "slow" over eth-25g. */
struct two_nets {
	struct price_offer offer[2];
	struct price_table table[2];
};

/* Fill *t, and *m to price on-demand over its two tables. */
static void two_nets(struct two_nets *t, struct money *m)
{
	static const char *const name[2] = { "fast", "slow" };
	static const char *const net[2] = { "ib-ndr", "eth-25g" };
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < 2; i++) {
		struct price_offer *o = &t->offer[i];
		snprintf(o->instance, sizeof(o->instance), "a100x8-%s", net[i]);
		snprintf(o->gpu, sizeof(o->gpu), "a100-80gb-sxm");
		o->gpus = 8;
		o->price_usd_per_h[COST_ON_DEMAND] = 20;
		o->verified = 1;
		o->fabric_stated = 1;
		o->interconnect = COST_LINK_NVLINK;
		snprintf(o->network, sizeof(o->network), "%s", net[i]);
		o->max_instances = 64;
		snprintf(t->table[i].provider, sizeof(t->table[i].provider), "%s", name[i]);
		t->table[i].billing.granularity = COST_PER_SECOND;
		t->table[i].offers = o;
		t->table[i].count = 1;
	}
	memset(m, 0, sizeof(*m));
	m->tables = t->table;
	m->ntables = 2;
	run_cost_defaults(&m->in, COST_ON_DEMAND);
}

/* The Llama 2 7B example on `count` A100 80GB with pp 2, over `network`
 * (NULL: the file's ib-hdr): its workload, the GPU resolved for its stack
 * from *base, and its estimate. */
static void estimate_7b(int count, const char *network, struct workload *w,
			const struct gpu *base, struct gpu *g, struct estimate *e)
{
	struct tc_diag d;
	struct est_workspace ws = { 0 };
	struct plan_problem why;
	tc_diag_init(&d);
	assert_int_equal(wl_load_file("examples/llama2-7b-a100.yaml", tc_test_datapath(), w, &d), 0);
	w->plan.count = count;
	w->plan.pp = 2;
	w->plan.dp = 0;
	if (network)
		wl_set_network(&w->plan, net_find(network));
	struct eff_stack stack;
	assert_int_equal(fw_stack(tc_test_datapath(), w->plan.framework, &stack, &d), 0);
	gpu_resolve(g, base, &stack, NULL);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	assert_int_equal(step_estimate(w, g, &ws, e, &why), 0);
	est_workspace_release(&ws);
}

/* Two nodes: each offer is timed over its own network, and the slower
 * network makes the same price the dearer run. */
static void two_nodes_take_each_offers_network(void **state)
{
	(void)state;
	struct two_nets t;
	struct money m;
	struct gpu base, g;
	struct workload w, wn;
	struct estimate e, fast, slow;
	struct run_cost c;
	two_nets(&t, &m);
	tc_test_a100(&base);
	estimate_7b(16, NULL, &w, &base, &g, &e);
	estimate_7b(16, "ib-ndr", &wn, &base, &g, &fast);
	estimate_7b(16, "eth-25g", &wn, &base, &g, &slow);
	/* pp 2 sends activations between the two nodes every micro-batch: the
	 * network shows in the step. */
	assert_true(slow.total_time_s > 1.01 * fast.total_time_s);

	assert_int_equal(money_cost(&m, &g, &w, &e, &c), 0);
	assert_true(c.priced);
	assert_string_equal(c.range.cheapest.table->provider, "fast");
	assert_string_equal(c.range.cheapest.network, "ib-ndr");
	assert_close(c.range.cheapest.run_s, fast.total_time_s, TOL_EXACT);
	assert_string_equal(c.range.dearest.table->provider, "slow");
	assert_string_equal(c.range.dearest.network, "eth-25g");
	assert_close(c.range.dearest.run_s, slow.total_time_s, TOL_EXACT);
	/* Two instances x the time rounded up to a second x $20/h. */
	assert_close(c.range.cheapest.run.cost_usd, 2 * ceil(fast.total_time_s - 1e-9) / 3600 * 20,
		     TOL_TIGHT);
	assert_close(c.range.dearest.run.cost_usd, 2 * ceil(slow.total_time_s - 1e-9) / 3600 * 20,
		     TOL_TIGHT);
	/* Energy stays the plan's own run, over the file's ib-hdr. */
	assert_close(c.run_s, e.total_time_s, TOL_EXACT);

	/* --network fixes one network for every offer: the same time on both,
	 * so the same cost; the first provider is the cheapest. */
	m.network_fixed = 1;
	assert_int_equal(money_cost(&m, &g, &w, &e, &c), 0);
	assert_null(c.range.cheapest.network);
	assert_close(c.range.cheapest.run_s, e.total_time_s, TOL_EXACT);
	assert_close(c.range.dearest.run_s, e.total_time_s, TOL_EXACT);
	assert_close(c.range.dearest.run.cost_usd, c.range.cheapest.run.cost_usd, TOL_EXACT);
}

/* One node: no network between instances, the same time on both offers. */
static void one_node_takes_no_network(void **state)
{
	(void)state;
	struct two_nets t;
	struct money m;
	struct gpu base, g;
	struct workload w;
	struct estimate e;
	struct run_cost c;
	two_nets(&t, &m);
	tc_test_a100(&base);
	estimate_7b(8, NULL, &w, &base, &g, &e);
	assert_int_equal(money_cost(&m, &g, &w, &e, &c), 0);
	assert_true(c.priced);
	assert_close(c.range.cheapest.run.instances, 1, TOL_EXACT);
	assert_null(c.range.cheapest.network);
	assert_null(c.range.dearest.network);
	assert_close(c.range.cheapest.run_s, e.total_time_s, TOL_EXACT);
	assert_close(c.range.dearest.run_s, e.total_time_s, TOL_EXACT);
	assert_close(c.range.dearest.run.cost_usd, c.range.cheapest.run.cost_usd, TOL_EXACT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_nodes_take_each_offers_network),
		cmocka_unit_test(one_node_takes_no_network),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
