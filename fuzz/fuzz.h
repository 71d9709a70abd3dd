/*
 * fuzz.h - what the libFuzzer harnesses share: handing the fuzzer's bytes
 * to a loader that takes a path, and the data path of the working tree.
 *
 * The harnesses are built by `make fuzz` with clang
 * -fsanitize=fuzzer,address,undefined and run from the repository root.
 */
#ifndef TC_FUZZ_H
#define TC_FUZZ_H

#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../src/io/datapath.h"
#include "../src/util/diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Put `size` bytes into an anonymous in-memory file and write a path that
 * opens it ("/proc/self/fd/N") into path.  Returns the descriptor (close it
 * when done) or -1.  Loaders that take a path read the bytes through it.
 */
static inline int fz_file(const uint8_t *data, size_t size, char *path,
			  size_t len)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		return -1;
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);
		if (n <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* The search path of the working tree (./models, ./pricing) only. */
static inline void fz_datapath(struct tc_datapath *dp)
{
	memset(dp, 0, sizeof(*dp));
	snprintf(dp->dir[0], sizeof(dp->dir[0]), ".");
	dp->count = 1;
}

/* Every message must be a complete line and the counts consistent; aborts
 * (a finding) otherwise.  Messages may quote the input, so their text is
 * not inspected further. */
static inline void fz_check_diag(const struct tc_diag *d)
{
	if (d->count < 0 || d->count > TC_DIAG_MAX || d->dropped < 0)
		abort();
	for (int i = 0; i < d->count; i++) {
		const char *m = d->entry[i].msg;
		if (!memchr(m, '\0', sizeof(d->entry[i].msg)))
			abort();
	}
}

#endif
