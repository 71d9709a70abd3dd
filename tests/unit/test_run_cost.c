/*
 * test_run_cost.c - one run priced end to end: offers, spot preemptions on
 * the wall clock, on-premises,
 * energy and CO2, with the arithmetic written out.
 */
#include "tc_test.h"

#include "../../src/model/types/estimate_types.h"
#include "../../src/model/money/run_cost.h"

/* One provider, one 8-GPU instance of GPU "x": $16/h on demand, $8/h spot,
 * billed per started hour. */
static void one_table(struct price_table *t, struct price_offer *o)
{
	memset(t, 0, sizeof(*t));
	memset(o, 0, sizeof(*o));
	strcpy(o->instance, "x8");
	strcpy(o->gpu, "x");
	strcpy(o->region, "r1");
	strcpy(o->as_of, "2026-11-01");
	o->gpus = 8;
	o->verified = 1;
	o->fabric_stated = 1;
	o->interconnect = COST_LINK_NVLINK;
	strcpy(o->network, "ib-ndr");
	o->max_instances = 64;
	o->price_usd_per_h[COST_ON_DEMAND] = 16;
	o->price_usd_per_h[COST_SPOT] = 8;
	strcpy(t->provider, "p");
	strcpy(t->currency, "USD");
	t->billing.granularity = COST_PER_HOUR;
	t->billing.minimum_s = 60;
	t->offers = o;
	t->count = 1;
}

static void on_demand_energy_and_co2(void **state)
{
	(void)state;
	struct price_table t;
	struct price_offer o;
	struct run_cost_in in;
	struct run_cost c;
	one_table(&t, &o);
	run_cost_defaults(&in, COST_ON_DEMAND);

	/* 16 GPUs for 1.5 h: 2 instances, billed 2 h each: 2 x 2 x $16 = $64. */
	assert_int_equal(run_cost_compute(&t, 1, "x", 16, 8, 400, 5400, &in, &c), 0);
	assert_true(c.priced);
	assert_close(c.range.cheapest.run.instances, 2, TOL_EXACT);
	assert_close(c.range.cheapest.run.billed_s, 7200, TOL_EXACT);
	assert_close(c.range.cheapest.run.cost_usd, 64, TOL_EXACT);
	/* Energy: 16 x 400 W x 0.8 x 1.5 h x PUE 1.2 = 9,216 Wh = 9.216 kWh;
	 * CO2 at 400 g/kWh: 3.6864 kg. */
	assert_close(c.energy_kwh, 9.216, TOL_TIGHT);
	assert_close(c.co2_kg, 3.6864, TOL_TIGHT);
	assert_false(c.spot_counted);
	assert_false(c.onprem);

	/* A GPU nobody sells: energy still, no price. */
	assert_int_equal(run_cost_compute(&t, 1, "y", 16, 8, 400, 5400, &in, &c), 0);
	assert_false(c.priced);
	assert_close(c.energy_kwh, 9.216, TOL_TIGHT);
}

/* A campaign built by hand: only restarts of 600 s and no checkpoint to
 * write (no interval, no rework), nothing else; `steady_s` steady on
 * `gpus` GPUs of 8 per node. */
static void plain_campaign(struct campaign *c, double steady_s, double gpus)
{
	struct campaign_in in = { 0 };
	struct plan_problem why;
	const enum camp_param given[] = { CAMP_P_NODE_RATE, CAMP_P_JOB_RATE, CAMP_P_RESTART,
					  CAMP_P_CHECKPOINT, CAMP_P_STRAGGLER, CAMP_P_EVAL,
					  CAMP_P_STARTUP, CAMP_P_SPARE };
	in.restart_s = 600;
	in.checkpoint = CAMP_CKPT_SYNC;
	for (size_t k = 0; k < sizeof(given) / sizeof(given[0]); k++)
		in.set |= 1u << given[k];
	struct campaign_job j = { .steady_s = steady_s, .gpus = gpus, .gpus_per_node = 8 };
	assert_int_equal(campaign_compute(&in, &j, c, &why), 0);
	assert_close(c->wall_s, steady_s, TOL_EXACT); /* nothing interrupts it */
}

/*
 * Preemptions strike the running job, not its start-up: the restarts
 * and rework of 0.05 preemptions per instance-hour on 2 instances (lambda
 * = 0.1/h, 600 s lost each) are counted over the wall clock less the 600 s
 * start-up.  The running part is 5,400 x 60 / 59 = 5,491.525 s as without
 * a start-up, and the time lost 91.525 s, the whole of its stretch.
 */
static void spot_loss_excludes_startup(void **state)
{
	(void)state;
	struct price_table t;
	struct price_offer o;
	struct run_cost_in in;
	struct run_cost c;
	struct campaign camp;
	struct campaign_in ci = { 0 };
	struct plan_problem why;
	const enum camp_param given[] = { CAMP_P_NODE_RATE, CAMP_P_JOB_RATE, CAMP_P_RESTART,
					  CAMP_P_CHECKPOINT, CAMP_P_STRAGGLER, CAMP_P_EVAL,
					  CAMP_P_STARTUP, CAMP_P_SPARE };
	ci.restart_s = 600;
	ci.startup_s = 600;
	ci.checkpoint = CAMP_CKPT_SYNC;
	for (size_t k = 0; k < sizeof(given) / sizeof(given[0]); k++)
		ci.set |= 1u << given[k];
	struct campaign_job j = { .steady_s = 5400, .gpus = 16, .gpus_per_node = 8 };
	assert_int_equal(campaign_compute(&ci, &j, &camp, &why), 0);
	one_table(&t, &o);
	run_cost_defaults(&in, COST_SPOT);
	assert_int_equal(run_cost_compute(&t, 1, "x", 16, 8, 400, 5400, &in, &c), 0);
	assert_int_equal(run_cost_campaign(&c, 16, &camp), 0);
	assert_true(c.spot_counted);
	assert_close(c.wall_s, 600 + 5400.0 * 60 / 59, TOL_TIGHT);
	assert_close(c.spot.lost_s, 5400.0 * 60 / 59 - 5400, TOL_TIGHT);
}

/* Spot preemptions are interruptions of the wall clock, not an overhead
 * of the steady run: the steady run is priced as it is. */
static void spot_preemptions_are_interruptions(void **state)
{
	(void)state;
	struct price_table t;
	struct price_offer o;
	struct run_cost_in in;
	struct run_cost c;
	struct campaign camp;
	one_table(&t, &o);
	run_cost_defaults(&in, COST_SPOT);
	plain_campaign(&camp, 5400, 16);

	/* 16 GPUs for 1.5 h steady: 2 instances billed 2 h: 2 x 2 x $8 = $32. */
	assert_int_equal(run_cost_compute(&t, 1, "x", 16, 8, 400, 5400, &in, &c), 0);
	assert_close(c.run_s, 5400, TOL_EXACT);
	assert_close(c.range.cheapest.run.cost_usd, 32, TOL_EXACT);
	assert_close(c.energy_kwh, 9.216, TOL_TIGHT);
	assert_false(c.spot_counted);

	/* 0.05 preemptions per instance-hour on 2 instances: lambda = 0.1/h,
	 * each losing the 600 s restart: loss = 0.1 x 600 / 3,600 = 1/60, so
	 * the wall clock is 5,400 x 60 / 59 = 5,491.525 s, with 0.1 x
	 * 5,491.525 / 3,600 = 0.152542 preemptions costing 0.152542 x 600 =
	 * 91.525 s (the whole difference).  Billed 2 h: $32 again; one
	 * preemption idles 2 instances for 600 s at $8/h = $2.667, all of
	 * them 2 x 91.525 / 3,600 x $8 = $0.40678. */
	assert_int_equal(run_cost_campaign(&c, 16, &camp), 0);
	assert_true(c.spot_counted);
	assert_false(c.campaign_hopeless);
	assert_close(c.spot.instances, 2, TOL_EXACT);
	assert_close(c.campaign.interrupt_per_s * 3600, 0.1, TOL_TIGHT);
	assert_close(c.wall_s, 5400.0 * 60 / 59, TOL_TIGHT);
	assert_close(c.spot.expected, 0.1 * 5400.0 * 60 / 59 / 3600, TOL_TIGHT);
	assert_close(c.spot.lost_s, c.wall_s - 5400, TOL_TIGHT);
	assert_close(c.spot.lost_s_each, 600, TOL_EXACT);
	assert_close(c.wall_usd, 32, TOL_EXACT);
	assert_close(c.spot.each_usd, 2 * 600.0 / 3600 * 8, TOL_TIGHT);
	assert_close(c.spot.lost_usd, 2 * (c.wall_s - 5400) / 3600 * 8, TOL_TIGHT);
	/* the provider states no notice: the shortest documented, said so */
	assert_false(c.spot.notice_known);
	assert_close(c.spot.notice_s, CAMP_SPOT_NOTICE_S, TOL_EXACT);
	double wall_at_005 = c.wall_s;

	/* A provider's documented notice is its own. */
	t.spot_notice_known = 1;
	t.spot_notice_s = 120;
	assert_int_equal(run_cost_compute(&t, 1, "x", 16, 8, 400, 5400, &in, &c), 0);
	assert_int_equal(run_cost_campaign(&c, 16, &camp), 0);
	assert_true(c.spot.notice_known);
	assert_close(c.spot.notice_s, 120, TOL_EXACT);

	/* The workload's own rate and notice win over the provider's. */
	camp.in.preempt_per_h = 0.2;
	camp.in.notice_s = 45;
	camp.in.set |= 1u << CAMP_P_PREEMPT | 1u << CAMP_P_NOTICE;
	assert_int_equal(run_cost_campaign(&c, 16, &camp), 0);
	assert_close(c.spot.preempt_per_h, 0.2, TOL_EXACT);
	assert_close(c.spot.notice_s, 45, TOL_EXACT);
	assert_true(c.spot.notice_given);

	/* More preemptions never shorten the wall clock; enough of them leave
	 * no time to train (0.5/h x 12 instances x 600 s = 1). */
	struct run_cost more;
	plain_campaign(&camp, 5400, 16);
	in.preempt_per_h = 0.1;
	assert_int_equal(run_cost_compute(&t, 1, "x", 16, 8, 400, 5400, &in, &more), 0);
	assert_int_equal(run_cost_campaign(&more, 16, &camp), 0);
	assert_true(more.wall_s > wall_at_005);
	in.preempt_per_h = 0.5;
	plain_campaign(&camp, 5400, 96);
	assert_int_equal(run_cost_compute(&t, 1, "x", 96, 8, 400, 5400, &in, &more), 0);
	assert_int_equal(run_cost_campaign(&more, 96, &camp), 0);
	assert_true(more.campaign_hopeless);
}

/* A timer standing for the performance model: 2 h over ib-ndr. */
static int two_hours_over_ib_ndr(void *ctx, const char *network, double *run_s)
{
	(void)ctx;
	if (strcmp(network, "ib-ndr"))
		return -1;
	*run_s = 7200;
	return 0;
}

/* Spot on an offer timed over its own network: the steady time priced
 * and stretched by the campaign is that network's; energy keeps the
 * plan's own. */
static void spot_over_the_offers_network(void **state)
{
	(void)state;
	struct price_table t;
	struct price_offer o;
	struct run_cost_in in;
	struct run_cost c;
	struct campaign camp;
	struct cost_timer timer = { two_hours_over_ib_ndr, NULL };
	one_table(&t, &o);
	run_cost_defaults(&in, COST_SPOT);
	plain_campaign(&camp, 5400, 16);

	/* 16 GPUs on 8-GPU nodes, two instances: 2 h over the offer's ib-ndr,
	 * billed 2 h: 2 x 2 x $8 = $32. */
	assert_int_equal(run_cost_compute_timed(&t, 1, "x", 16, 8, 400, 5400, &timer, &in, &c), 0);
	assert_true(c.priced);
	assert_string_equal(c.range.cheapest.network, "ib-ndr");
	assert_close(c.range.cheapest.run_s, 7200, TOL_EXACT);
	assert_close(c.range.cheapest.run.cost_usd, 32, TOL_EXACT);
	assert_close(c.priced_base_s, 7200, TOL_EXACT);
	/* The plan's own 1.5 h stays the time of energy: 9.216 kWh. */
	assert_close(c.run_s, 5400, TOL_EXACT);
	assert_close(c.energy_kwh, 9.216, TOL_TIGHT);
	/* The wall clock stretches the 7,200 s: 7,200 x 60 / 59 (as in
	 * spot_preemptions_are_interruptions), billed 3 h: 2 x 3 x $8. */
	assert_int_equal(run_cost_campaign(&c, 16, &camp), 0);
	assert_close(c.wall_s, 7200.0 * 60 / 59, TOL_TIGHT);
	assert_close(c.wall_usd, 48, TOL_EXACT);

	/* 8 GPUs, one instance: the timer plays no part, 5,400 s billed 2 h:
	 * 1 x 2 x $8. */
	assert_int_equal(run_cost_compute_timed(&t, 1, "x", 8, 8, 400, 5400, &timer, &in, &c), 0);
	assert_null(c.range.cheapest.network);
	assert_close(c.range.cheapest.run_s, 5400, TOL_EXACT);
	assert_close(c.range.cheapest.run.cost_usd, 16, TOL_EXACT);
}

static void onprem_rate(void **state)
{
	(void)state;
	struct price_table t;
	struct price_offer o;
	struct run_cost_in in;
	struct run_cost c;
	one_table(&t, &o);
	run_cost_defaults(&in, COST_ON_DEMAND);
	in.have_onprem = 1;
	in.onprem = (struct cost_onprem){ .capex_usd = 10000, .residual_frac = 0.3,
					  .life_years = 3, .util_frac = 0.7,
					  .power_usd_per_kwh = 0.1, .pue = 1.5,
					  .colo_usd_per_kw_month = 200 };
	assert_int_equal(run_cost_compute(&t, 1, "x", 16, 8, 400, 5400, &in, &c), 0);
	assert_true(c.onprem);
	/* capital: 10,000 x 0.7 / (3 x 8,760 h x 0.7) = 0.380518 $/GPU-h;
	 * power: 0.4 kW x 1.5 x $0.1 = 0.06; colocation: 200 x 0.4 x 1.5 / 730
	 * = 0.164384; total 0.604902 $/GPU-h; 16 GPUs x 1.5 h = $14.5176. */
	assert_close(c.onprem_rate.capital_usd_per_gpu_h, 10000 * 0.7 / (3 * 8760 * 0.7), TOL_TIGHT);
	assert_close(c.onprem_rate.power_usd_per_gpu_h, 0.06, TOL_TIGHT);
	assert_close(c.onprem_rate.colo_usd_per_gpu_h, 200 * 0.4 * 1.5 / 730, TOL_TIGHT);
	assert_close(c.onprem_usd, 16 * 1.5 * (10000.0 / 26280 + 0.06 + 120.0 / 730), TOL_TIGHT);
}

static void relations_and_bad_input(void **state)
{
	(void)state;
	struct price_table t;
	struct price_offer o;
	struct run_cost_in in;
	struct run_cost lo, hi;
	one_table(&t, &o);
	run_cost_defaults(&in, COST_ON_DEMAND);
	/* A longer run never costs less; a higher price never costs less. */
	assert_int_equal(run_cost_compute(&t, 1, "x", 16, 8, 400, 3600, &in, &lo), 0);
	assert_int_equal(run_cost_compute(&t, 1, "x", 16, 8, 400, 3601, &in, &hi), 0);
	assert_true(hi.range.cheapest.run.cost_usd >= lo.range.cheapest.run.cost_usd);
	o.price_usd_per_h[COST_ON_DEMAND] = 17;
	assert_int_equal(run_cost_compute(&t, 1, "x", 16, 8, 400, 3600, &in, &hi), 0);
	assert_true(hi.range.cheapest.run.cost_usd > lo.range.cheapest.run.cost_usd);
	/* A plan of 16-GPU nodes cannot run on 8-GPU instances. */
	assert_int_equal(run_cost_compute(&t, 1, "x", 32, 16, 400, 3600, &in, &lo), 0);
	assert_false(lo.priced);
	assert_int_equal(lo.range.skipped_small, 1);
	/* Nonsense never becomes a number. */
	assert_int_equal(run_cost_compute(&t, 1, "x", 16, 8, 400, -1, &in, &lo), -1);
	assert_int_equal(run_cost_compute(&t, 1, "x", 0, 8, 400, 10, &in, &lo), -1);
	assert_int_equal(run_cost_compute(&t, 1, "x", 16, 8, 400, (double)NAN, &in, &lo), -1);
}

/* A plan that cannot run carries no figure that could be read as a price. */
static void unfit_is_never_priced(void **state)
{
	(void)state;
	struct run_cost_in in;
	struct run_cost c;
	run_cost_defaults(&in, COST_SPOT);
	memset(&c, 0xff, sizeof(c));
	run_cost_unfit(&in, &c);
	assert_true(c.unfit);
	assert_false(c.priced);
	assert_false(c.onprem);
	assert_false(c.spot_counted);
	assert_int_equal(c.kind, COST_SPOT);
	assert_true(c.energy_kwh == 0 && c.onprem_usd == 0);
}

/* A layout searched over one network is priced only on offers of that
 * network when it spans instances; one instance is priced anywhere. */
static void own_network_only(void **state)
{
	(void)state;
	struct price_table t;
	struct price_offer o[3];
	struct run_cost_in in;
	struct run_cost c;
	const char *nets[4];
	one_table(&t, &o[0]);
	o[1] = o[0];
	strcpy(o[1].instance, "y8");
	strcpy(o[1].network, "efa-400g");
	o[1].price_usd_per_h[COST_ON_DEMAND] = 8; /* half the ib-ndr offer's price */
	o[2] = o[0];
	strcpy(o[2].instance, "z8");
	strcpy(o[2].network, "none");
	o[2].max_instances = 1;
	t.offers = o;
	t.count = 3;
	run_cost_defaults(&in, COST_ON_DEMAND);

	/* The networks that join instances, once each, in table order: not
	 * "none", not another GPU's, not one without a price of the kind. */
	assert_int_equal(run_cost_networks(&t, 1, "x", COST_ON_DEMAND, nets, 4), 2);
	assert_string_equal(nets[0], "ib-ndr");
	assert_string_equal(nets[1], "efa-400g");
	assert_int_equal(run_cost_networks(&t, 1, "x", COST_ON_DEMAND, nets, 1), 1);
	assert_int_equal(run_cost_networks(&t, 1, "w", COST_ON_DEMAND, nets, 4), 0);
	o[1].price_usd_per_h[COST_SPOT] = 0;
	assert_int_equal(run_cost_networks(&t, 1, "x", COST_SPOT, nets, 4), 1);
	/* a network on an offer sold one instance at a time joins none */
	strcpy(o[2].network, "roce-100g");
	assert_int_equal(run_cost_networks(&t, 1, "x", COST_ON_DEMAND, nets, 4), 2);
	strcpy(o[2].network, "none");

	/* 16 GPUs (2 instances) for 1 h searched over ib-ndr: the cheaper
	 * efa-400g offer is left out, so 2 x 1 h x $16 = $32 on x8. */
	struct run_cost_own_net own = { "ib-ndr", 3600 };
	struct cost_timer timer = { run_cost_own_net_time, &own };
	assert_int_equal(run_cost_compute_timed(&t, 1, "x", 16, 8, 400, 3600, &timer, &in, &c), 0);
	assert_true(c.priced);
	assert_string_equal(c.range.cheapest.offer->instance, "x8");
	assert_close(c.range.cheapest.run.cost_usd, 32, TOL_EXACT);
	assert_string_equal(c.range.cheapest.network, "ib-ndr");
	/* Searched over efa-400g: 2 x 1 h x $8 = $16 on y8. */
	own.network = "efa-400g";
	assert_int_equal(run_cost_compute_timed(&t, 1, "x", 16, 8, 400, 3600, &timer, &in, &c), 0);
	assert_string_equal(c.range.cheapest.offer->instance, "y8");
	assert_close(c.range.cheapest.run.cost_usd, 16, TOL_EXACT);
	/* Over a network no offer has: nothing hosts two instances. */
	own.network = "roce-100g";
	assert_int_equal(run_cost_compute_timed(&t, 1, "x", 16, 8, 400, 3600, &timer, &in, &c), 0);
	assert_false(c.priced);
	/* One instance crosses no network: the cheapest offer of all. */
	assert_int_equal(run_cost_compute_timed(&t, 1, "x", 8, 8, 400, 3600, &timer, &in, &c), 0);
	assert_true(c.priced);
	assert_string_equal(c.range.cheapest.offer->instance, "y8");
}

/* The range counts the offers that leave no paid GPU idle; the others
 * are counted apart.  A 1-GPU run of 1 h: provider p sells 1-GPU
 * instances at $2/h ($2), provider q only 8-GPU ones at $16/h ($16 with 7
 * GPUs idle). */
static void idle_offers_apart(void **state)
{
	(void)state;
	struct price_table t[2];
	struct price_offer a, b;
	struct cost_range r;
	one_table(&t[0], &a);
	one_table(&t[1], &b);
	strcpy(a.instance, "x1");
	a.gpus = 1;
	a.interconnect = COST_LINK_NONE;
	a.price_usd_per_h[COST_ON_DEMAND] = 2;
	strcpy(t[1].provider, "q");
	assert_int_equal(cost_range_shaped(t, 2, "x", COST_ON_DEMAND, 1, 1, 3600, &r), 0);
	assert_string_equal(r.cheapest.offer->instance, "x1");
	assert_close(r.cheapest.run.cost_usd, 2, TOL_EXACT);
	/* The range is p's alone: $2 to $2 over 1 provider and 1 offer. */
	assert_ptr_equal(r.dearest.offer, &a);
	assert_int_equal(r.providers, 1);
	assert_int_equal(r.offers, 1);
	/* q's 8-GPU instance: 1 x 1 h x $16 = $16, listed apart. */
	assert_int_equal(r.offers_idle, 1);
	assert_int_equal(r.providers_idle, 1);
	assert_close(r.dearest_idle.run.cost_usd, 16, TOL_EXACT);
	assert_close(r.dearest_idle.run.idle_gpus, 7, TOL_EXACT);
	/* 8 GPUs leave none idle on either: both providers in the range,
	 * 8 x $2 = $16 on p to 1 x $16 = $16 on q, nothing apart. */
	assert_int_equal(cost_range_shaped(t, 2, "x", COST_ON_DEMAND, 8, 1, 3600, &r), 0);
	assert_int_equal(r.providers, 2);
	assert_int_equal(r.offers_idle, 0);
	/* Only q: every offer leaves GPUs idle, the range is the cheapest alone. */
	assert_int_equal(cost_range_shaped(&t[1], 1, "x", COST_ON_DEMAND, 1, 1, 3600, &r), 0);
	assert_int_equal(r.providers, 0);
	assert_ptr_equal(r.dearest.offer, r.cheapest.offer);
	assert_close(r.dearest.run.cost_usd, 16, TOL_EXACT);
}

/* The offers set aside (an unverified price) priced as the run was:
 * one verified 1-GPU offer at $1/h, too small for an 8-GPU node, and
 * aside two 8-GPU offers at $16/h and $8/h.  16 GPUs for 1.5 h: on the
 * $8 one 2 instances billed 2 h each, 2 x 2 x $8 = $32; both would host. */
static void aside_offers_priced_apart(void **state)
{
	(void)state;
	struct price_table t, aside;
	struct price_offer o, set_aside[2];
	struct run_cost_in in;
	struct run_cost c;
	one_table(&t, &o);
	strcpy(o.instance, "x1");
	o.gpus = 1;
	o.interconnect = COST_LINK_NONE;
	o.price_usd_per_h[COST_ON_DEMAND] = 1;
	one_table(&aside, &set_aside[0]);
	one_table(&aside, &set_aside[1]);
	set_aside[0].verified = set_aside[1].verified = 0;
	strcpy(set_aside[1].instance, "x8-cheap");
	set_aside[1].price_usd_per_h[COST_ON_DEMAND] = 8;
	aside.offers = set_aside;
	aside.count = 2;
	run_cost_defaults(&in, COST_ON_DEMAND);
	assert_int_equal(run_cost_compute(&t, 1, "x", 16, 8, 400, 5400, &in, &c), 0);
	assert_false(c.priced);
	assert_int_equal(c.range.skipped_small, 1);
	run_cost_aside(&aside, 1, "x", 16, 8, NULL, &c);
	assert_true(c.aside_priced);
	assert_string_equal(c.aside.cheapest.offer->instance, "x8-cheap");
	assert_close(c.aside.cheapest.run.cost_usd, 32, TOL_EXACT);
	assert_int_equal(c.aside.offers + c.aside.offers_idle, 2);
	/* What the run itself was priced at is left as it was. */
	assert_false(c.priced);
	/* A GPU the offers set aside do not sell: nothing would host it. */
	assert_int_equal(run_cost_compute(&t, 1, "y", 16, 8, 400, 5400, &in, &c), 0);
	run_cost_aside(&aside, 1, "y", 16, 8, NULL, &c);
	assert_false(c.aside_priced);
	/* A plan that does not fit is never priced, not even aside. */
	run_cost_unfit(&in, &c);
	run_cost_aside(&aside, 1, "x", 16, 8, NULL, &c);
	assert_false(c.aside_priced);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(on_demand_energy_and_co2),
		cmocka_unit_test(spot_preemptions_are_interruptions),
		cmocka_unit_test(spot_loss_excludes_startup),
		cmocka_unit_test(spot_over_the_offers_network),
		cmocka_unit_test(onprem_rate),
		cmocka_unit_test(relations_and_bad_input),
		cmocka_unit_test(unfit_is_never_priced),
		cmocka_unit_test(own_network_only),
		cmocka_unit_test(idle_offers_apart),
		cmocka_unit_test(aside_offers_priced_apart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
