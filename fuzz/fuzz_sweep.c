/*
 * fuzz_sweep.c - libFuzzer harness for sweep expansion (sweep_load.c): the
 * bytes as a sweep file (an inline base, presets from ./models).  A sweep
 * that loads must have as many configurations as the product of its
 * dimensions (at most SWEEP_MAX_ROWS), and its first, middle and last
 * configurations must each give a workload, a reason or out of memory, with
 * a printable value for every key.
 */
#include "fuzz.h"

#include "../src/io/sweep_load.h"

/* Build one configuration's workload and check what comes back. */
static void check_row(const struct sweep *sw, const struct tc_datapath *dp, uint64_t row)
{
	size_t di[SWEEP_MAX_KEYS];
	struct workload w;
	struct sweep_pricing pr;
	char reason[512];
	long w_base = -1;

	sweep_row_index(sw, row, di);
	for (int j = 0; j < sw->ndims; j++)
		if (di[j] >= sw->dim[j].len)
			abort();
	for (int k = 0; k < sw->nkeys; k++)
		if (!sweep_value_text(sw, k, di))
			abort();
	reason[0] = '\0';
	int rc = sweep_row_workload(sw, di, dp, &w, &w_base, &pr, reason, sizeof(reason));
	if (rc < -1 || rc > 1 || (rc == 1 && !reason[0]))
		abort();
	if (!memchr(reason, '\0', sizeof(reason)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tc_datapath dp;
	static int ready;
	struct sweep sw;
	struct tc_diag d;
	char path[64];

	if (!ready) {
		fz_datapath(&dp);
		ready = 1;
	}
	int fd = fz_file(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	tc_diag_init(&d);
	if (sweep_load_file(path, &dp, &sw, &d) != 0) {
		if (d.count == 0 && d.dropped == 0)
			abort();
	} else {
		double rows = 1;
		for (int j = 0; j < sw.ndims; j++)
			rows *= (double)sw.dim[j].len;
		if (rows != (double)sw.rows || rows > SWEEP_MAX_ROWS || sw.rows == 0)
			abort();
		check_row(&sw, &dp, 0);
		check_row(&sw, &dp, sw.rows / 2);
		check_row(&sw, &dp, sw.rows - 1);
		sweep_release(&sw);
	}
	fz_check_diag(&d);
	close(fd);
	return 0;
}
