/*
 * fuzz_valcsv.c - libFuzzer harness for the CSV readers: validation case
 * files (val_load.c), whose loaded cases are then predicted on the GPUs of
 * the frozen test catalog (every prediction finite), and SkyPilot catalog imports
 * (price_import_skypilot).
 */
#include "fuzz.h"

#include <math.h>

#include "../src/io/gpu_load.h"
#include "../src/io/price_load.h"
#include "../src/io/val_load.h"
#include "../src/model/analyses/validate.h"

#define FZ_MAX_PREDICT 4 /* cases predicted per input: keeps runs fast */

/* The GPU a case names, from the frozen catalog (the harness runs from the
 * repository root, as `make fuzz` does). */
static int test_gpu(const char *id, struct gpu *out, void *ctx)
{
	struct tc_diag d;
	(void)ctx;
	tc_diag_init(&d);
	return gpu_load_id("tests/data/models/gpu", id, out, &d) ? -1 : 0;
}

/* Where the networks of vision and recommender cases are found. */
static const struct tc_datapath *test_data(void)
{
	static struct tc_datapath dp;
	static int ready;
	if (!ready) {
		struct tc_diag d;
		static const char *const dirs[] = { "tests/data" };
		tc_diag_init(&d);
		if (dp_init(&dp, dirs, 1, &d))
			abort();
		ready = 1;
	}
	return &dp;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct val_set set;
	struct tc_diag d, warn;
	char path[64];
	int fd = fz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	tc_diag_init(&d);
	val_set_init(&set);
	if (val_load_file(path, test_data(), &set, &d) == 0) {
		struct val_result res[FZ_MAX_PREDICT];
		size_t n = set.count < FZ_MAX_PREDICT ? set.count : FZ_MAX_PREDICT, nres = 0;
		if (val_run(set.cases, n, NULL, 1, 0, test_gpu, NULL, res, &nres) == 0) {
			for (size_t i = 0; i < nres; i++)
				if (res[i].ok && (!isfinite(res[i].predicted) ||
						  !isfinite(res[i].err_frac)))
					abort();
			struct val_stats st;
			if (val_stats_compute(res, nres, &st) == 0 && st.n &&
			    (!isfinite(st.mape) || !isfinite(st.bias)))
				abort();
		}
	} else if (d.count == 0 && d.dropped == 0) {
		abort();
	}
	val_set_release(&set);
	fz_check_diag(&d);

	struct price_table t;
	memset(&t, 0, sizeof(t));
	tc_diag_init(&d);
	tc_diag_init(&warn);
	if (price_import_skypilot(path, "fuzz", "2025-06-01", &t, &warn, &d) != 0 &&
	    d.count == 0 && d.dropped == 0)
		abort();
	price_table_release(&t);
	fz_check_diag(&d);
	fz_check_diag(&warn);
	close(fd);
	return 0;
}
