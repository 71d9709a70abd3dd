/*
 * outfile.c - atomic output files (outfile.h).
 */
/* mkstemp and realpath are POSIX with XSI. */
#define _XOPEN_SOURCE 700

#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "infile.h"

/*
 * Temporary files a terminating signal must not leave behind (Ctrl-C in a
 * long sweep).  The handler may only read: the paths are registered here
 * while they exist, in lock-free atomic slots (safe in a signal handler).
 */
#define PENDING_MAX 4
static _Atomic(const char *) pending[PENDING_MAX];
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

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

/*
 * Install on_signal for signals left at their default (an ignored SIGHUP
 * under nohup stays ignored), once per process.  SIGXFSZ is ignored, so a
 * write past the file size limit fails with EFBIG and is reported like a
 * full disk instead of killing the process with the temporary file left.
 */
static void install_handlers(void)
{
	static atomic_flag done = ATOMIC_FLAG_INIT;
	struct sigaction sa, old;

	if (atomic_flag_test_and_set(&done))
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGXFSZ, &sa, NULL);
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

/*
 * Create the temporary file and watch it as one step: a clean-up signal
 * arriving between the two would leave the file behind, so those signals
 * wait (blocked in this thread) until the path is registered.
 */
static int create_watched(struct outfile *o)
{
	sigset_t block, old;
	int e;

	sigemptyset(&block);
	for (size_t i = 0; i < sizeof(cleanup_signals) / sizeof(int); i++)
		sigaddset(&block, cleanup_signals[i]);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	o->fd = mkstemp(o->tmp);
	e = errno;
	if (o->fd >= 0) {
		o->created = 1;
		pending_add(o->tmp);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return o->fd;
}

/*
 * Where output for `path` really goes: `path` itself, or the file a
 * symbolic link points to (the link is followed, and stays a link).  Sets
 * *dest (owned) and *mode to the existing file's permissions, or -1 when
 * there is none yet.  Returns 0, or -1 with a usage error for a
 * destination that is not a regular file, an I/O error for one that
 * cannot be looked at.
 */
static int resolve_dest(const char *path, char **dest, long *mode, struct tc_diag *d)
{
	struct stat st;
	const char *what;

	*dest = NULL;
	*mode = -1;
	if (lstat(path, &st) != 0) {
		if (errno != ENOENT)
			return tc_diag_msg(d, TC_EXIT_IO, "cannot write '%s': %s", path,
					   strerror(errno));
		*dest = strdup(path);
		if (!*dest)
			return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
		return 0;
	}
	if (S_ISLNK(st.st_mode)) {
		*dest = realpath(path, NULL);
		if (!*dest) {
			if (errno == ENOENT)
				return tc_diag_msg(d, TC_EXIT_USAGE,
						   "'%s' is a symbolic link to a missing file "
						   "(expected a regular file, or '-' for standard output)",
						   path);
			return tc_diag_msg(d, TC_EXIT_IO, "cannot write '%s': %s", path,
					   strerror(errno));
		}
		if (stat(*dest, &st) != 0) {
			int e = errno;
			free(*dest);
			*dest = NULL;
			return tc_diag_msg(d, TC_EXIT_IO, "cannot write '%s': %s", path,
					   strerror(e));
		}
	}
	if ((what = tc_file_type_name(st.st_mode)) != NULL) {
		free(*dest);
		*dest = NULL;
		return tc_diag_msg(d, TC_EXIT_USAGE,
				   "'%s' is %s (expected a regular file, or '-' for standard output)",
				   path, what);
	}
	if (!*dest && !(*dest = strdup(path)))
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
	*mode = (long)(st.st_mode & 07777);
	return 0;
}

/* The temporary file's name in the destination's folder: hidden, and
 * short, so that a destination with the longest valid name (255 bytes)
 * works too. */
#define TMP_NAME ".tcXXXXXX"

int outfile_open(struct outfile *o, const char *path, FILE *stream,
		 struct tc_diag *d)
{
	long mode;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	if (!path || !strcmp(path, "-")) {
		o->f = stream;
		return 0;
	}
	install_handlers();
	if (resolve_dest(path, &o->path, &mode, d))
		return -1;
	const char *slash = strrchr(o->path, '/');
	size_t dirlen = slash ? (size_t)(slash - o->path) + 1 : 0;
	o->tmp = malloc(dirlen + sizeof(TMP_NAME));
	if (!o->tmp) {
		outfile_abort(o);
		return tc_diag_msg(d, TC_EXIT_INTERNAL, "out of memory");
	}
	/* Same folder as the destination, so rename() is atomic. */
	memcpy(o->tmp, o->path, dirlen);
	memcpy(o->tmp + dirlen, TMP_NAME, sizeof(TMP_NAME));
	if (create_watched(o) < 0) {
		int e = errno;
		outfile_abort(o);
		return tc_diag_msg(d, TC_EXIT_IO, "cannot write '%s': %s", path,
				   strerror(e));
	}
	/* mkstemp makes 0600: keep an existing file's mode, else the usual
	 * 0666 less umask. */
	if (mode < 0) {
		mode_t um = umask(0);
		umask(um);
		mode = (long)(0666 & ~um);
	}
	if (fchmod(o->fd, (mode_t)mode) != 0) {
		int e = errno;
		outfile_abort(o);
		return tc_diag_msg(d, TC_EXIT_IO, "cannot write '%s': %s", path,
				   strerror(e));
	}
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

/* Flush the folder holding `file` so the rename survives a crash; best
 * effort (some file systems refuse fsync on a folder). */
static void sync_dir(char *file)
{
	char *slash = strrchr(file, '/');
	int fd;

	if (slash)
		*slash = '\0';
	fd = open(slash ? (slash == file ? "/" : file) : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (slash)
		*slash = '/';
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

/*
 * With TRAINCOST_HOLD_OUTPUT_S=N (1 to 600) in the environment, wait N
 * seconds before an output file is put in place, its temporary file
 * complete and watched: the test of a signal during -o
 * (tests/cli/run-cases.sh, `signal:`) then hits that window whatever the
 * machine's speed.  Unset, as in any normal run, it does nothing.
 */
static void hold_before_rename(void)
{
	const char *s = getenv("TRAINCOST_HOLD_OUTPUT_S");
	char *end;
	long n;

	if (!s)
		return;
	n = strtol(s, &end, 10);
	if (end == s || *end || n < 1 || n > 600)
		return;
	for (unsigned left = (unsigned)n; left;)
		left = sleep(left);
}

int outfile_commit(struct outfile *o, struct tc_diag *d)
{
	struct stat st;
	const char *what;
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
	hold_before_rename();
	if (!e && fsync(o->fd) != 0 && errno != EINVAL)
		e = errno;
	if (close(o->fd) != 0 && !e)
		e = errno;
	o->fd = -1;
	/* The destination may have been replaced since the open: never put
	 * a file in place of a device or FIFO. */
	if (!e && lstat(o->path, &st) == 0 && (what = tc_file_type_name(st.st_mode))) {
		tc_diag_msg(d, TC_EXIT_USAGE,
			    "'%s' is %s (expected a regular file, or '-' for standard output)",
			    o->path, what);
		outfile_abort(o);
		return -1;
	}
	if (!e && rename(o->tmp, o->path) != 0)
		e = errno;
	if (e) {
		tc_diag_msg(d, TC_EXIT_IO, "cannot write '%s': %s", o->path, strerror(e));
		outfile_abort(o);
		return -1;
	}
	o->created = 0;
	pending_remove(o->tmp);
	sync_dir(o->tmp);
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
