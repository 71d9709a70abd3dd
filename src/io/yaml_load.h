/*
 * yaml_load.h - the way into the YAML reader: a file read under the size
 * cap (YN_MAX_FILE_BYTES), or text from memory, checked (valid UTF-8, no
 * NUL or control characters) and parsed into a node tree (yaml_node.h).
 */
#ifndef TC_YAML_LOAD_H
#define TC_YAML_LOAD_H

#include <stddef.h>

#include "../util/diag.h"
#include "yaml_node.h"

/*
 * Read and parse `path`.  On success returns 0 and fills *doc (release with
 * yn_doc_release).  On failure appends positioned messages to *d and returns
 * non-zero; *doc is left released.  An unreadable file is TC_EXIT_IO, every
 * content problem TC_EXIT_INPUT (a file over YN_MAX_FILE_BYTES included: it
 * is refused by its size before it is read), running out of memory
 * TC_EXIT_INTERNAL.  An empty file is an error ("file is empty (expected a
 * YAML mapping)"), and so is a document that is only "---".  A UTF-8 byte
 * order mark and CR LF line ends are accepted.  Alias nodes are deep copies.
 */
int yn_load_file(const char *path, struct yn_doc *doc, struct tc_diag *d);

/* Same, from memory (`buf` need not end in NUL); `name` is used in
 * messages. */
int yn_load_buffer(const char *name, const char *buf, size_t len,
		   struct yn_doc *doc, struct tc_diag *d);

#endif
