/*
 * fuzz_price.c - libFuzzer harness for the price loaders (price_load.c):
 * the bytes as a `kind: pricing` file (with the staleness check) and as a
 * `kind: onprem` file.  A loaded table holds only finite, non-negative
 * prices.
 */
#include "fuzz.h"

#include <math.h>

#include "../src/io/price_load.h"

#define FZ_TODAY "2025-06-01"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct price_table t;
	struct price_onprem op;
	struct tc_diag d, warn;
	char path[64];
	int fd = fz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	tc_diag_init(&d);
	tc_diag_init(&warn);
	memset(&t, 0, sizeof(t));
	if (price_load_file(path, FZ_TODAY, &t, &warn, &d) == 0) {
		for (size_t i = 0; i < t.count; i++) {
			const struct price_offer *o = &t.offers[i];
			if (!isfinite(o->gpus) || o->gpus <= 0)
				abort();
			for (int k = 0; k < COST_KIND_COUNT; k++) {
				double p = price_usd_per_gpu_h(o, (enum cost_kind)k);
				if (!isfinite(p) || p < 0)
					abort();
			}
		}
		price_check_stale(&t, FZ_TODAY, PRICE_STALE_DAYS, &warn);
		price_table_release(&t);
	} else if (d.count == 0 && d.dropped == 0) {
		abort();
	}
	price_table_release(&t);
	fz_check_diag(&d);
	fz_check_diag(&warn);

	tc_diag_init(&d);
	tc_diag_init(&warn);
	memset(&op, 0, sizeof(op));
	if (price_onprem_load_file(path, FZ_TODAY, &op, &warn, &d) == 0) {
		struct cost_onprem c;
		for (size_t i = 0; i < op.count; i++)
			if (price_onprem_params(&op, op.gpus[i].gpu, &c) != 0)
				abort();
		price_onprem_release(&op);
	} else if (d.count == 0 && d.dropped == 0) {
		abort();
	}
	price_onprem_release(&op);
	fz_check_diag(&d);
	fz_check_diag(&warn);
	close(fd);
	return 0;
}
