/*
 * outfile.c - atomic output files (outfile.h).
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkstemp is POSIX.1-2008 with XSI; declare it for -std=c11 builds. */
int mkstemp(char *template);

/*
 * Temporary files a terminating signal must not leave behind (Ctrl-C in a
 * long sweep).  The handler may only read: the paths are registered here
 * while they exist, in lock-free atomic slots (safe in a signal handler).
 */
#define PENDING_MAX 4
static _Atomic(const char *) pending[PENDING_MAX];
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int sig)
{
	for (int i = 0; i < PENDING_MAX; i++) {
		const char *p = atomic_load(&pending[i]);
		if (p)
			unlink(p);
	}
	/* Die of the same signal, so the parent sees why. */
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Install on_signal for signals left at their default (an ignored SIGHUP
 * under nohup stays ignored), once per process. */
static void install_handlers(void)
{
	static atomic_flag done = ATOMIC_FLAG_INIT;
	struct sigaction sa, old;

	if (atomic_flag_test_and_set(&done))
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(cleanup_signals) / sizeof(int); i++)
		if (sigaction(cleanup_signals[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_DFL)
			sigaction(cleanup_signals[i], &sa, NULL);
}

/* Watch `tmp`; a full table only loses the clean-up on a signal. */
static void pending_add(const char *tmp)
{
	install_handlers();
	for (int i = 0; i < PENDING_MAX; i++) {
		const char *none = NULL;
		if (atomic_compare_exchange_strong(&pending[i], &none, tmp))
			return;
	}
}

static void pending_remove(const char *tmp)
{
	for (int i = 0; i < PENDING_MAX; i++) {
		const char *p = tmp;
		if (atomic_compare_exchange_strong(&pending[i], &p, NULL))
			return;
	}
}

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
	pending_add(o->tmp);
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
	pending_remove(o->tmp);
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
	if (o->created && o->tmp) {
		unlink(o->tmp);
		pending_remove(o->tmp);
	}
	o->created = 0;
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	o->f = NULL;
}
