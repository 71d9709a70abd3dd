/*
 * fuzz_workload.c - libFuzzer harness for the workload loader: the bytes as
 * a workload file (kind: llm, presets from ./models), as an architecture
 * file and as a Hugging Face config.json.
 */
#include "fuzz.h"

#include "../src/io/wl_load.h"
#include "../src/io/yaml_load.h"
#include "../src/io/yaml_node.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tc_datapath dp;
	static int ready;
	struct yn_doc doc;
	struct workload w;
	struct llm_arch a;
	struct tc_diag d;
	char path[64];

	if (!ready) {
		fz_datapath(&dp);
		ready = 1;
	}
	tc_diag_init(&d);
	if (yn_load_buffer("fuzz.yaml", (const char *)data, size, &doc, &d) == 0) {
		if (wl_load_doc(&doc, &dp, &w, &d) != 0 && d.count == 0 && d.dropped == 0)
			abort();
		yn_doc_release(&doc);
	}
	fz_check_diag(&d);

	int fd = fz_file(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	tc_diag_init(&d);
	if (arch_load_file(path, &a, &d) != 0 && d.count == 0 && d.dropped == 0)
		abort();
	fz_check_diag(&d);
	tc_diag_init(&d);
	if (arch_load_hf_config(path, &a, &d) != 0 && d.count == 0 && d.dropped == 0)
		abort();
	fz_check_diag(&d);
	close(fd);
	return 0;
}
