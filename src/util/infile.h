/*
 * infile.h - opening input files without trusting what the name points
 * to.  The file is opened non-blocking, so a FIFO with no writer cannot
 * hang open(), and checked with fstat before anything is read: only a
 * regular file is read, so a FIFO, device, socket or directory named as an
 * input is an I/O error naming it, at once.
 */
#ifndef TC_INFILE_H
#define TC_INFILE_H

#include <sys/types.h>

#include "diag.h"

/*
 * Open `path` for reading.  Returns a blocking file descriptor on a regular
 * file, or -1 with a TC_EXIT_IO message "PATH: what is wrong (expected
 * EXPECTED)" in d; `expected` says what the file should be ("a YAML
 * file").  The caller closes the descriptor.
 */
int tc_input_open(const char *path, const char *expected, struct tc_diag *d);

/* "a directory", "a FIFO", ... for a file type, or NULL for a regular
 * file: the words both input and output messages use. */
const char *tc_file_type_name(mode_t mode);

#endif
