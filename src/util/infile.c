/*
 * infile.c - input files checked before they are read (infile.h).
 */
#include "infile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *tc_file_type_name(mode_t mode)
{
	if (S_ISREG(mode))
		return NULL;
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

int tc_input_open(const char *path, const char *expected, struct tc_diag *d)
{
	struct stat st;
	const char *what;
	int fd, flags;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return tc_diag_at(d, TC_EXIT_IO, path, 0, 0, "cannot open file: %s",
				  strerror(errno));
	if (fstat(fd, &st) != 0) {
		tc_diag_at(d, TC_EXIT_IO, path, 0, 0, "cannot read file: %s",
			   strerror(errno));
		goto fail;
	}
	if ((what = tc_file_type_name(st.st_mode)) != NULL) {
		tc_diag_at(d, TC_EXIT_IO, path, 0, 0, "is %s (expected %s)", what,
			   expected);
		goto fail;
	}
	/* A regular file never blocks; clear the flag for plain reads. */
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		tc_diag_at(d, TC_EXIT_IO, path, 0, 0, "cannot read file: %s",
			   strerror(errno));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}
