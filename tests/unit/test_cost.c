/*
 * test_cost.c - the cost model with hand-computed values and relations.
 */
#include "tc_test.h"

#include "../../src/model/money/cost.h"

static const struct cost_billing per_second_60 = { COST_PER_SECOND, 60 };
static const struct cost_billing per_minute_60 = { COST_PER_MINUTE, 60 };
static const struct cost_billing per_hour_1h = { COST_PER_HOUR, 3600 };

/* An offer built in code: `gpus` per instance at `od` USD/instance-hour. */
static struct price_offer offer(const char *gpu, double gpus, double od,
				double spot)
{
	struct price_offer o;
	memset(&o, 0, sizeof(o));
	snprintf(o.instance, sizeof(o.instance), "test-%g", gpus);
	snprintf(o.gpu, sizeof(o.gpu), "%s", gpu);
	o.gpus = gpus;
	o.price_usd_per_h[COST_ON_DEMAND] = od;
	o.price_usd_per_h[COST_SPOT] = spot;
	/* Joinable without limit unless a test says otherwise. */
	o.fabric_stated = 1;
	o.interconnect = gpus > 1 ? COST_LINK_NVLINK : COST_LINK_NONE;
	snprintf(o.network, sizeof(o.network), "ib-ndr");
	o.max_instances = 100000;
	return o;
}

static void test_billing_rounding(void **state)
{
	(void)state;
	/* per_hour: 1.01 h = 3636 s rounds up to 2 h = 7200 s. */
	assert_close(cost_billed_s(&per_hour_1h, 1.01 * 3600), 7200, TOL_EXACT);
	/* Exactly 1 h stays 1 h; 10 min is lifted to the 1 h minimum. */
	assert_close(cost_billed_s(&per_hour_1h, 3600), 3600, TOL_EXACT);
	assert_close(cost_billed_s(&per_hour_1h, 600), 3600, TOL_EXACT);
	/* per_minute: 61 s -> 2 min = 120 s; 30 s -> the 60 s minimum. */
	assert_close(cost_billed_s(&per_minute_60, 61), 120, TOL_EXACT);
	assert_close(cost_billed_s(&per_minute_60, 30), 60, TOL_EXACT);
	assert_close(cost_billed_s(&per_minute_60, 3599.5), 3600, TOL_EXACT);
	/* per_second with a 60 s minimum: 30 s -> 60 s; 90.2 s -> 91 s. */
	assert_close(cost_billed_s(&per_second_60, 30), 60, TOL_EXACT);
	assert_close(cost_billed_s(&per_second_60, 90.2), 91, TOL_EXACT);
	assert_close(cost_billed_s(&per_second_60, 0), 60, TOL_EXACT);
	/* Floating noise just above a whole unit does not add a unit. */
	assert_close(cost_billed_s(&per_hour_1h, 3600 * (1 + 1e-13)), 3600, TOL_EXACT);
}

static void test_billing_cost(void **state)
{
	(void)state;
	struct price_offer o = offer("l4", 1, 0.8048, 0);
	struct cost_run r;
	const char *why = NULL;

	/* 1 GPU, 1.01 h, per_hour: 1 x 2 h x 0.8048 = 1.6096 USD. */
	assert_int_equal(cost_cloud(&o, &per_hour_1h, COST_ON_DEMAND, 1, 3636, &r, &why), 0);
	assert_close(r.billed_s, 7200, TOL_EXACT);
	assert_close(r.cost_usd, 1.6096, TOL_EXACT);
	/* per_second: 3636 s = 1.01 h; 1.01 x 0.8048 = 0.812848 USD. */
	assert_int_equal(cost_cloud(&o, &per_second_60, COST_ON_DEMAND, 1, 3636, &r, &why), 0);
	assert_close(r.cost_usd, 0.812848, TOL_EXACT);
	/* per_minute: 3636 s -> 61 min = 3660 s; 3660/3600 x 0.8048 = 0.818213333 USD. */
	assert_int_equal(cost_cloud(&o, &per_minute_60, COST_ON_DEMAND, 1, 3636, &r, &why), 0);
	assert_close(r.cost_usd, 3660.0 / 3600.0 * 0.8048, TOL_EXACT);
}

static void test_instance_rounding(void **state)
{
	(void)state;
	/* AWS p4d.24xlarge: 8 x A100 40GB at 21.957642 USD/h. */
	struct price_offer o = offer("a100-40gb-sxm", 8, 21.957642, 0);
	struct cost_run r;
	const char *why = NULL;

	/* 20 GPUs: ceil(20/8) = 3 instances, 24 paid, 4 idle;
	 * 10 h: 3 x 10 x 21.957642 = 658.72926 USD. */
	assert_int_equal(cost_cloud(&o, &per_second_60, COST_ON_DEMAND, 20, 36000, &r, &why), 0);
	assert_close(r.instances, 3, TOL_EXACT);
	assert_close(r.gpus_paid, 24, TOL_EXACT);
	assert_close(r.idle_gpus, 4, TOL_EXACT);
	assert_close(r.cost_usd, 658.72926, TOL_EXACT);
	/* Per GPU-hour: 21.957642 / 8 = 2.74470525. */
	assert_close(r.price_usd_per_gpu_h, 2.74470525, TOL_EXACT);
	/* 16 GPUs fill 2 instances exactly: nothing idle. */
	assert_int_equal(cost_cloud(&o, &per_second_60, COST_ON_DEMAND, 16, 36000, &r, &why), 0);
	assert_close(r.instances, 2, TOL_EXACT);
	assert_close(r.idle_gpus, 0, TOL_EXACT);
	/* 1 GPU still rents a whole 8-GPU instance: 7 idle. */
	assert_int_equal(cost_cloud(&o, &per_second_60, COST_ON_DEMAND, 1, 3600, &r, &why), 0);
	assert_close(r.instances, 1, TOL_EXACT);
	assert_close(r.idle_gpus, 7, TOL_EXACT);
	assert_close(r.cost_usd, 21.957642, TOL_EXACT);
}

static void test_fractional_gpus(void **state)
{
	(void)state;
	/* A quarter L4 at 0.20 USD/h (test figure): 0.20 / 0.25 = 0.80 USD per GPU-hour. */
	struct price_offer o = offer("l4", 0.25, 0.20, 0);
	struct cost_run r;
	const char *why = NULL;

	/* A 0.25-GPU job for 2 h: 1 instance x 2 h x 0.20 = 0.40 USD. */
	assert_int_equal(cost_cloud(&o, &per_second_60, COST_ON_DEMAND, 0.25, 7200, &r, &why), 0);
	assert_close(r.instances, 1, TOL_EXACT);
	assert_close(r.idle_gpus, 0, TOL_EXACT);
	assert_close(r.cost_usd, 0.40, TOL_EXACT);
	assert_close(r.price_usd_per_gpu_h, 0.80, TOL_EXACT);
	/* A 0.125-GPU job still pays the quarter: 0.125 idle. */
	assert_int_equal(cost_cloud(&o, &per_second_60, COST_ON_DEMAND, 0.125, 7200, &r, &why), 0);
	assert_close(r.idle_gpus, 0.125, TOL_EXACT);
	/* One whole GPU cannot be built from four quarter-GPU instances. */
	assert_int_equal(cost_cloud(&o, &per_second_60, COST_ON_DEMAND, 1, 7200, &r, &why), -1);
	assert_string_equal(why, "a job cannot span fractional-GPU instances");
	/* 1.5 GPUs on 1-GPU instances: 2 instances, 0.5 idle. */
	struct price_offer whole = offer("l4", 1, 0.8048, 0);
	assert_int_equal(cost_cloud(&whole, &per_second_60, COST_ON_DEMAND, 1.5, 3600, &r, &why), 0);
	assert_close(r.instances, 2, TOL_EXACT);
	assert_close(r.idle_gpus, 0.5, TOL_EXACT);
}

static void test_gcp_host_plus_gpu(void **state)
{
	(void)state;
	/* GCP a2-highgpu-1g, us-central1: GPU row 2.93391 + host row 0.73948
	 * = 3.67339 USD/h; spot 1.4341 + 0.36975 = 1.80385 USD/h. */
	struct price_offer o = offer("a100-40gb-sxm", 1, 2.93391 + 0.73948,
				     1.4341 + 0.36975);
	struct cost_run r;
	const char *why = NULL;

	/* 90 min per second: 1.5 h x 3.67339 = 5.510085 USD. */
	assert_int_equal(cost_cloud(&o, &per_second_60, COST_ON_DEMAND, 1, 5400, &r, &why), 0);
	assert_close(r.cost_usd, 5.510085, TOL_EXACT);
	/* 8 GPUs on 1-GPU shapes: 8 x 1.5 h x 1.80385 = 21.6462 USD (spot). */
	assert_int_equal(cost_cloud(&o, &per_second_60, COST_SPOT, 8, 5400, &r, &why), 0);
	assert_close(r.instances, 8, TOL_EXACT);
	assert_close(r.cost_usd, 21.6462, TOL_EXACT);
}

static void test_not_sold(void **state)
{
	(void)state;
	struct price_offer o = offer("h100-sxm", 8, 55.04, 0);
	struct cost_run r;
	const char *why = NULL;

	assert_int_equal(cost_cloud(&o, &per_second_60, COST_SPOT, 8, 3600, &r, &why), -1);
	assert_string_equal(why, "the offer is not sold that way");
	assert_int_equal(cost_kind_parse("spot"), COST_SPOT);
	/* No reserved prices were confirmed: the kinds are not offered. */
	assert_int_equal(cost_kind_parse("reserved-1y"), -1);
	assert_int_equal(cost_kind_parse("reserved-3y"), -1);
	assert_int_equal(cost_kind_parse("ondemand"), -1);
}

static void test_onprem(void **state)
{
	(void)state;
	/* H100: DGX H100 270000 / 8 = 33750 per GPU; + 12.5 % networking
	 * = 37968.75 USD capex. */
	double capex = cost_onprem_capex_usd(33750, 0, 0.125);
	assert_close(capex, 37968.75, TOL_EXACT);

	struct cost_onprem p = { .capex_usd = capex, .residual_frac = 0.30,
				 .life_years = 3, .util_frac = 0.8,
				 .power_usd_per_kwh = 0.09, .pue = 1.4,
				 .colo_usd_per_kw_month = 200 };
	struct cost_onprem_result r;
	/* Capital: 37968.75 x 0.7 / (3 x 8760 x 0.8) = 26578.125 / 21024
	 *          = 1.26418022...
	 * Power:   0.7 kW x 1.4 x 0.09 = 0.0882
	 * Colo:    200 x 0.7 x 1.4 / 730 = 196 / 730 = 0.26849315...
	 * Total:   1.62087337... USD per GPU-hour. */
	assert_int_equal(cost_onprem_per_gpu_h(&p, 700, &r), 0);
	assert_close(r.capital_usd_per_gpu_h, 26578.125 / 21024.0, TOL_EXACT);
	assert_close(r.capital_usd_per_gpu_h, 1.264180222602740, TOL_TIGHT);
	assert_close(r.power_usd_per_gpu_h, 0.0882, TOL_EXACT);
	assert_close(r.colo_usd_per_gpu_h, 196.0 / 730.0, TOL_EXACT);
	assert_close(r.total_usd_per_gpu_h, 26578.125 / 21024.0 + 0.0882 + 196.0 / 730.0,
		     TOL_EXACT);

	/* Card plus server share: (9000 + 2043) x 1.10 = 12147.3 USD. */
	assert_close(cost_onprem_capex_usd(9000, 2043, 0.10), 12147.3, TOL_EXACT);

	/* Out-of-range inputs are refused. */
	p.util_frac = 0;
	assert_int_equal(cost_onprem_per_gpu_h(&p, 700, &r), -1);
	p.util_frac = 0.8;
	p.pue = 0.9;
	assert_int_equal(cost_onprem_per_gpu_h(&p, 700, &r), -1);
	p.pue = 1.4;
	p.residual_frac = 1.5;
	assert_int_equal(cost_onprem_per_gpu_h(&p, 700, &r), -1);
}

static void test_energy_co2(void **state)
{
	(void)state;
	/* 8 GPUs x 400 W x 0.8 x 10 h x PUE 1.2 = 30720 Wh = 30.72 kWh. */
	double e = cost_energy_kwh(8, 400, 0.8, 36000, 1.2);
	assert_close(e, 30.72, TOL_EXACT);
	/* At 400 g/kWh: 30.72 x 400 = 12288 g = 12.288 kg CO2. */
	assert_close(cost_co2_kg(e, 400), 12.288, TOL_EXACT);
	/* Zero-carbon grid: no CO2. */
	assert_close(cost_co2_kg(e, 0), 0, TOL_EXACT);
}

static void test_relations(void **state)
{
	(void)state;
	static const struct cost_billing *rules[] = { &per_second_60, &per_minute_60,
						      &per_hour_1h };
	const char *why = NULL;

	for (size_t b = 0; b < 3; b++) {
		/* A higher price never lowers cost. */
		double prev = -1;
		for (double price = 0.1; price < 100; price *= 1.37) {
			struct price_offer o = offer("h100-sxm", 8, price, 0);
			struct cost_run r;
			assert_int_equal(cost_cloud(&o, rules[b], COST_ON_DEMAND, 20, 5000, &r, &why), 0);
			assert_true(r.cost_usd >= prev);
			prev = r.cost_usd;
		}
		/* More hours never lower cost; more GPUs never lower cost. */
		struct price_offer o = offer("h100-sxm", 8, 55.04, 0);
		prev = -1;
		for (double s = 0; s < 1e6; s = s * 1.3 + 7) {
			struct cost_run r;
			assert_int_equal(cost_cloud(&o, rules[b], COST_ON_DEMAND, 20, s, &r, &why), 0);
			assert_true(r.cost_usd >= prev);
			assert_true(r.billed_s >= s);
			prev = r.cost_usd;
		}
		prev = -1;
		for (double g = 0.5; g <= 100; g += 0.5) {
			struct cost_run r;
			assert_int_equal(cost_cloud(&o, rules[b], COST_ON_DEMAND, g, 7200, &r, &why), 0);
			assert_true(r.cost_usd >= prev);
			assert_true(r.idle_gpus >= 0 && r.idle_gpus < 8);
			prev = r.cost_usd;
		}
	}
	/* Energy grows with every input. */
	assert_true(cost_energy_kwh(9, 400, 0.8, 36000, 1.2) > cost_energy_kwh(8, 400, 0.8, 36000, 1.2));
	assert_true(cost_energy_kwh(8, 400, 0.8, 36001, 1.2) > cost_energy_kwh(8, 400, 0.8, 36000, 1.2));
}

static void test_range(void **state)
{
	(void)state;
	/* Provider A: an 8-GPU offer at 24 (3/GPU-h) and a 1-GPU one at 3.5.
	 * Provider B: a 1-GPU offer at 2.5.  Provider C: another GPU only. */
	struct price_offer a[2] = { offer("x100", 8, 24, 0), offer("x100", 1, 3.5, 0) };
	struct price_offer b[1] = { offer("x100", 1, 2.5, 0) };
	struct price_offer c[1] = { offer("y100", 1, 0.5, 0) };
	struct price_table t[3];
	memset(t, 0, sizeof(t));
	snprintf(t[0].provider, sizeof(t[0].provider), "a");
	snprintf(t[1].provider, sizeof(t[1].provider), "b");
	snprintf(t[2].provider, sizeof(t[2].provider), "c");
	t[0].offers = a, t[0].count = 2, t[0].billing = per_hour_1h;
	t[1].offers = b, t[1].count = 1, t[1].billing = per_hour_1h;
	t[2].offers = c, t[2].count = 1, t[2].billing = per_hour_1h;
	struct cost_range r;

	/* Per GPU-hour: cheapest B at 2.5, dearest provider A (its best 3.0). */
	assert_int_equal(cost_range(t, 3, "x100", COST_ON_DEMAND, 0, 0, &r), 0);
	assert_int_equal(r.providers, 2);
	assert_int_equal(r.offers, 3);
	assert_string_equal(r.cheapest.table->provider, "b");
	assert_close(r.cheapest.run.price_usd_per_gpu_h, 2.5, TOL_EXACT);
	assert_string_equal(r.dearest.table->provider, "a");
	assert_close(r.dearest.run.price_usd_per_gpu_h, 3.0, TOL_EXACT);

	/* 9 GPUs for 10 h: A's 8-GPU offer needs 2 instances, 2 x 10 x 24
	 * = 480, its 1-GPU offer 9 x 10 x 3.5 = 315, so A's best is 315;
	 * B: 9 x 10 x 2.5 = 225. */
	assert_int_equal(cost_range(t, 3, "x100", COST_ON_DEMAND, 9, 36000, &r), 0);
	assert_close(r.cheapest.run.cost_usd, 225, TOL_EXACT);
	assert_close(r.dearest.run.cost_usd, 315, TOL_EXACT);
	assert_ptr_equal(r.dearest.offer, &a[1]);

	/* Nobody sells x100 as spot; nobody sells z100 at all. */
	assert_int_equal(cost_range(t, 3, "x100", COST_SPOT, 1, 3600, &r), -1);
	assert_int_equal(cost_range(t, 3, "z100", COST_ON_DEMAND, 1, 3600, &r), -1);
}

/* Offers that cannot join the instances a run needs are never chosen. */
static void test_hosting(void **state)
{
	(void)state;
	/* A: 8 GPUs, $24/h, ib-ndr, at most 4 instances.  B: 8 GPUs, $16/h,
	 * no network.  C: 1 GPU, $2/h, no network. */
	struct price_offer o[3] = { offer("x100", 8, 24, 0), offer("x100", 8, 16, 0),
				    offer("x100", 1, 2, 0) };
	o[0].max_instances = 4;
	for (int i = 1; i < 3; i++) {
		snprintf(o[i].network, sizeof(o[i].network), "%s", COST_NETWORK_NONE);
		o[i].max_instances = 1;
	}
	struct price_table t;
	memset(&t, 0, sizeof(t));
	snprintf(t.provider, sizeof(t.provider), "a");
	t.offers = o, t.count = 3, t.billing = per_hour_1h;
	struct cost_range r;

	assert_true(cost_offer_hosts(&o[0], 4));
	assert_false(cost_offer_hosts(&o[0], 5));
	assert_true(cost_offer_hosts(&o[1], 1));
	assert_false(cost_offer_hosts(&o[1], 2));

	/* 8 GPUs for 1 h: A 1 x 24 = $24, B 1 x 16 = $16; C would need 8
	 * instances without a network. */
	assert_int_equal(cost_range(&t, 1, "x100", COST_ON_DEMAND, 8, 3600, &r), 0);
	assert_ptr_equal(r.cheapest.offer, &o[1]);
	assert_close(r.cheapest.run.cost_usd, 16, TOL_EXACT);
	assert_int_equal(r.skipped_fabric, 1);
	/* 16 GPUs: only A joins 2 instances, 2 x 24 = $48, although B's
	 * 2 x 16 = $32 and C's 16 x 2 = $32 would be cheaper. */
	assert_int_equal(cost_range(&t, 1, "x100", COST_ON_DEMAND, 16, 3600, &r), 0);
	assert_ptr_equal(r.cheapest.offer, &o[0]);
	assert_close(r.cheapest.run.cost_usd, 48, TOL_EXACT);
	assert_int_equal(r.skipped_fabric, 2);
	/* 40 GPUs: A would need 5 instances; nothing hosts the run.  The
	 * largest order on sale is A's: 4 x 8 = 32 GPUs, against B's 8 x 1 and
	 * C's 1 x 1 (no network: one instance, whatever max_instances says). */
	assert_int_equal(cost_range(&t, 1, "x100", COST_ON_DEMAND, 40, 3600, &r), -1);
	assert_int_equal(r.skipped_fabric, 3);
	assert_ptr_equal(r.largest.offer, &o[0]);
	assert_ptr_equal(r.largest.table, &t);
	assert_close(cost_offer_capacity(&o[0]), 32, TOL_EXACT);
	assert_close(cost_offer_capacity(&o[1]), 8, TOL_EXACT);
	assert_close(cost_offer_capacity(&o[2]), 1, TOL_EXACT);
	/* Not sold as spot: no largest offer of that kind either. */
	assert_int_equal(cost_range(&t, 1, "x100", COST_SPOT, 40, 3600, &r), -1);
	assert_null(r.largest.offer);
	/* Per GPU-hour comparisons host one instance: all three count. */
	assert_int_equal(cost_range(&t, 1, "x100", COST_ON_DEMAND, 0, 0, &r), 0);
	assert_int_equal(r.offers, 3);
}

/* A timer standing for the performance model: 1 h over ib-ndr, 3 h over
 * eth-25g, nothing else; it counts its calls. */
struct fake_timer {
	int calls;
};

static int fake_time(void *ctx, const char *network, double *run_s)
{
	struct fake_timer *f = ctx;
	f->calls++;
	if (!strcmp(network, "ib-ndr"))
		*run_s = 3600;
	else if (!strcmp(network, "eth-25g"))
		*run_s = 3 * 3600;
	else
		return -1;
	return 0;
}

/* Two offers of one GPU that differ only by their network: a run of two
 * instances is timed over each one's own, a run of one instance is not. */
static void test_timed_by_network(void **state)
{
	(void)state;
	/* A: 8 GPUs at $24/h over ib-ndr.  B: 8 GPUs at $12/h over eth-25g. */
	struct price_offer a[1] = { offer("x100", 8, 24, 0) };
	struct price_offer b[1] = { offer("x100", 8, 12, 0) };
	snprintf(b[0].network, sizeof(b[0].network), "eth-25g");
	struct price_table t[2];
	memset(t, 0, sizeof(t));
	snprintf(t[0].provider, sizeof(t[0].provider), "a");
	snprintf(t[1].provider, sizeof(t[1].provider), "b");
	t[0].offers = a, t[0].count = 1, t[0].billing = per_hour_1h;
	t[1].offers = b, t[1].count = 1, t[1].billing = per_hour_1h;
	struct fake_timer f = { 0 };
	struct cost_timer timer = { fake_time, &f };
	struct cost_range r;

	/* 16 GPUs, two instances.  A: 1 h over ib-ndr, 2 x 1 x $24 = $48.
	 * B: 3 h over eth-25g, 2 x 3 x $12 = $72.  Without its network B
	 * would have cost 2 x 2 x $12 = $48 for the 2 h passed in, no more
	 * than A: the network makes A the cheapest. */
	assert_int_equal(cost_range_timed(t, 2, "x100", COST_ON_DEMAND, 16, 8, 7200, &timer, &r), 0);
	assert_ptr_equal(r.cheapest.offer, &a[0]);
	assert_close(r.cheapest.run_s, 3600, TOL_EXACT);
	assert_close(r.cheapest.run.cost_usd, 48, TOL_EXACT);
	assert_string_equal(r.cheapest.network, "ib-ndr");
	assert_ptr_equal(r.dearest.offer, &b[0]);
	assert_close(r.dearest.run_s, 10800, TOL_EXACT);
	assert_close(r.dearest.run.cost_usd, 72, TOL_EXACT);
	assert_string_equal(r.dearest.network, "eth-25g");
	assert_int_equal(f.calls, 2);

	/* 8 GPUs, one instance: no network plays a part, both offers keep the
	 * 2 h passed in and the timer is not asked.  A 1 x 2 x $24 = $48, B
	 * 1 x 2 x $12 = $24. */
	f.calls = 0;
	assert_int_equal(cost_range_timed(t, 2, "x100", COST_ON_DEMAND, 8, 8, 7200, &timer, &r), 0);
	assert_ptr_equal(r.cheapest.offer, &b[0]);
	assert_close(r.cheapest.run_s, 7200, TOL_EXACT);
	assert_close(r.dearest.run_s, 7200, TOL_EXACT);
	assert_close(r.cheapest.run.cost_usd, 24, TOL_EXACT);
	assert_null(r.cheapest.network);
	assert_int_equal(f.calls, 0);

	/* Without a timer (a network the user fixed) every offer keeps the
	 * 2 h passed in: B 2 x 2 x $12 = $48, A 2 x 2 x $24 = $96. */
	assert_int_equal(cost_range_timed(t, 2, "x100", COST_ON_DEMAND, 16, 8, 7200, NULL, &r), 0);
	assert_ptr_equal(r.cheapest.offer, &b[0]);
	assert_close(r.cheapest.run.cost_usd, 48, TOL_EXACT);
	assert_close(r.dearest.run.cost_usd, 96, TOL_EXACT);
	assert_null(r.cheapest.network);

	/* An offer whose network cannot be timed is left out. */
	snprintf(b[0].network, sizeof(b[0].network), "roce-100g");
	assert_int_equal(cost_range_timed(t, 2, "x100", COST_ON_DEMAND, 16, 8, 7200, &timer, &r), 0);
	assert_int_equal(r.offers, 1);
	assert_ptr_equal(r.cheapest.offer, &a[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_billing_rounding),
		cmocka_unit_test(test_billing_cost),
		cmocka_unit_test(test_instance_rounding),
		cmocka_unit_test(test_fractional_gpus),
		cmocka_unit_test(test_gcp_host_plus_gpu),
		cmocka_unit_test(test_not_sold),
		cmocka_unit_test(test_onprem),
		cmocka_unit_test(test_energy_co2),
		cmocka_unit_test(test_relations),
		cmocka_unit_test(test_range),
		cmocka_unit_test(test_hosting),
		cmocka_unit_test(test_timed_by_network),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
