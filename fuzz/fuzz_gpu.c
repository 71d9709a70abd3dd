/*
 * fuzz_gpu.c - libFuzzer harness for the GPU file loader (gpu_load.c): a
 * file either loads into a GPU whose figures are finite and positive, or is
 * refused with positioned messages.
 */
#include "fuzz.h"

#include <math.h>

#include "../src/io/gpu_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gpu g;
	struct tc_diag d;
	char path[64];
	int fd = fz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	tc_diag_init(&d);
	if (gpu_load_file(path, &g, &d) == 0) {
		if (!isfinite(g.memory_bytes) || g.memory_bytes <= 0 ||
		    !isfinite(g.mem_bytes_per_s) || g.mem_bytes_per_s <= 0)
			abort();
		if (!memchr(g.id, '\0', sizeof(g.id)) || !isfinite(g.tdp_w))
			abort();
		for (int p = 0; p < PREC_COUNT; p++)
			if (!isfinite(g.peak_flop_per_s[p]) || g.peak_flop_per_s[p] < 0)
				abort();
	} else if (d.count == 0 && d.dropped == 0) {
		abort();
	}
	fz_check_diag(&d);
	close(fd);
	return 0;
}
