/*
 * outfile.c - atomic output files (outfile.h).
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkstemp is POSIX.1-2008 with XSI; declare it for -std=c11 builds. */
int mkstemp(char *template);

int outfile_open(struct outfile *o, const char *path, FILE *stream,
		 struct tc_diag *d)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	if (!path || !strcmp(path, "-")) {
		o->f = stream;
		return 0;
	}
	size_t n = strlen(path);
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	o->path = malloc(n + 1);
	o->tmp = malloc(n + 16);
	if (!o->path || !o->tmp) {
		outfile_abort(o);
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
	}
	memcpy(o->path, path, n + 1);
	/* "<dir>/.<name>.XXXXXX": same folder, so rename() is atomic. */
	memcpy(o->tmp, path, dirlen);
	snprintf(o->tmp + dirlen, n + 16 - dirlen, ".%s.XXXXXX", path + dirlen);
	o->fd = mkstemp(o->tmp);
	if (o->fd < 0) {
		int e = errno;
		outfile_abort(o);
		return tc_diag_msg(d, TC_EXIT_IO, "cannot write '%s': %s", path,
				   strerror(e));
	}
	o->created = 1;
	/* mkstemp makes 0600; give the file the usual 0666 less umask. */
	mode_t um = umask(0);
	umask(um);
	(void)fchmod(o->fd, 0666 & ~um);
	return 0;
}

int outfile_write(struct outfile *o, const void *buf, size_t len)
{
	const char *p = buf;
	if (o->err)
		return -1;
	if (o->f) {
		if (len && fwrite(buf, 1, len, o->f) != len) {
			o->err = errno ? errno : EIO;
			return -1;
		}
		return 0;
	}
	while (len) {
		ssize_t w = write(o->fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			o->err = errno;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int outfile_commit(struct outfile *o, struct tc_diag *d)
{
	int e = o->err;
	if (o->f) {
		if (!e && fflush(o->f) != 0)
			e = errno ? errno : EIO;
		o->f = NULL;
		if (e)
			return tc_diag_msg(d, TC_EXIT_IO, "cannot write the output: %s",
					   strerror(e));
		return 0;
	}
	if (o->fd < 0)
		return 0;
	if (!e && fsync(o->fd) != 0 && errno != EINVAL)
		e = errno;
	if (close(o->fd) != 0 && !e)
		e = errno;
	o->fd = -1;
	if (!e && rename(o->tmp, o->path) != 0)
		e = errno;
	if (e) {
		tc_diag_msg(d, TC_EXIT_IO, "cannot write '%s': %s", o->path, strerror(e));
		outfile_abort(o);
		return -1;
	}
	o->created = 0;
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (!o)
		return;
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->created && o->tmp)
		unlink(o->tmp);
	o->created = 0;
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	o->f = NULL;
}
