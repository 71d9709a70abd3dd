/*
 * outfile.h - the one writer of output files.  The data goes to a
 * temporary file with a short hidden name (".tcXXXXXX") in the
 * destination's folder, which is flushed to disk and renamed over the
 * destination only when everything was written.  On any error the
 * temporary file is removed and an existing destination is left as it
 * was; so it is when SIGINT, SIGTERM, SIGHUP or SIGQUIT ends the process
 * (handlers are installed on the first open, for signals at their default,
 * and the process then dies of the signal).  SIGXFSZ is ignored, so a file
 * over the size limit is an EFBIG error like a full disk.
 *
 * Destinations: a new file, or an existing regular file, whose mode is
 * kept.  A symbolic link is followed: the file it points to is replaced
 * and the link stays.  A directory, device, FIFO or socket is refused (a
 * usage error), so -o /dev/null cannot replace the device.  Without a path,
 * or with "-", the output goes to a FILE (standard output).
 */
#ifndef TC_OUTFILE_H
#define TC_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

#include "diag.h"

struct outfile {
	FILE *f;     /* the stream when writing to standard output, borrowed */
	int fd;      /* the temporary file, or -1 */
	char *path;  /* destination, owned; NULL for a stream */
	char *tmp;   /* temporary file's path, owned */
	int err;     /* errno of the first failed write, 0 if none */
	int created; /* the temporary file exists */
};

/*
 * Start writing to `path`, or to `stream` when path is NULL or "-".
 * Returns 0, or -1 with a usage error in d for a destination that is not
 * a regular file, an I/O error when the folder is missing or not
 * writable.
 */
int outfile_open(struct outfile *o, const char *path, FILE *stream,
		 struct tc_diag *d);

/* Append len bytes.  Returns 0, or -1 once a write failed (remembered:
 * later writes are skipped and outfile_commit reports it). */
int outfile_write(struct outfile *o, const void *buf, size_t len);

/*
 * Finish: flush, fsync and rename the temporary file over the destination
 * (or flush the stream).  Returns 0, or -1 with an I/O error in d ("no
 * space left on device" and the like); then nothing is left behind.  The
 * struct is released either way.
 */
int outfile_commit(struct outfile *o, struct tc_diag *d);

/* Give up: remove the temporary file, keep the destination as it was.
 * Safe on a zeroed, committed or aborted struct. */
void outfile_abort(struct outfile *o);

#endif
