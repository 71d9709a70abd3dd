/*
 * yaml_load.c - the way into the YAML reader: a file read under the size
 * cap, its text checked (valid UTF-8, no NUL or control characters) before
 * libyaml sees it, and the two loaders, from memory and from a file.
 */
#include "yaml_load.h"
#include "yaml_build.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../util/infile.h"
#include "../util/utf8.h"

#define READ_CHUNK (64u << 10) /* first buffer for files of unknown size */

/* ---- input checks ---------------------------------------------------- */

/* True for characters YAML allows in a stream (libyaml's printable set). */
static int yaml_printable(uint32_t c)
{
	return c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E) ||
	       c == 0x85 || (c >= 0xA0 && c <= 0xD7FF) ||
	       (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

/* True for line breaks as libyaml counts them (CR LF is one break). */
static int is_break(uint32_t c)
{
	return c == '\n' || c == '\r' || c == 0x85 || c == 0x2028 ||
	       c == 0x2029;
}

/*
 * Check the whole text before libyaml sees it: valid UTF-8, no NUL, no
 * control characters.  Counts code points into b->nchars.  Returns 0 or -1
 * with a message at the first bad character.
 */
static int check_text(struct builder *b)
{
	const unsigned char *t = b->text;
	size_t i = 0, n;
	int line = 1, col = 1;
	uint32_t c = 0, prev = 0;

	b->nchars = 0;
	while (i < b->len) {
		if (t[i] == 0)
			goto nul;
		n = tc_utf8_decode(t + i, b->len - i, &c);
		if (n == 0) {
			/* name the lead byte: it is the one at `col` */
			b->failed = 1;
			return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, line,
					  col,
					  "invalid UTF-8 byte 0x%02X (expected UTF-8 text)",
					  t[i]);
		}
		if (!yaml_printable(c)) {
			b->failed = 1;
			return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, line,
					  col,
					  "control character U+%04X is not allowed (expected text)",
					  (unsigned)c);
		}
		if (c == '\n' && prev == '\r') {
			/* second half of CR LF: the line was already counted */
		} else if (is_break(c)) {
			line++;
			col = 1;
		} else {
			col++;
		}
		prev = c;
		i += n;
		b->nchars++;
	}
	return 0;
nul:
	b->failed = 1;
	return tc_diag_at(b->d, TC_EXIT_INPUT, b->file, line, col,
			  "NUL byte in file (expected text)");
}

/* Load from memory; see yaml_node.h. */
int yn_load_buffer(const char *name, const char *buf, size_t len,
		   struct yn_doc *doc, struct tc_diag *d)
{
	struct builder b;
	const struct yn_node *r;
	int rc = -1;

	assert(name && doc && d && (buf || len == 0));
	memset(doc, 0, sizeof(*doc));
	memset(&b, 0, sizeof(b));
	b.file = name;
	b.d = d;
	b.text = (const unsigned char *)buf;
	b.len = len;
	if (len > YN_MAX_FILE_BYTES) {
		tc_diag_at(d, TC_EXIT_INPUT, name, 0, 0,
			   "file is too large: %zu bytes (expected at most 16 MiB)",
			   len);
		goto out;
	}
	if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
		b.text += 3; /* a UTF-8 byte order mark is allowed */
		b.len -= 3;
	}
	if (check_text(&b) != 0 || yn_build(&b) != 0)
		goto out;
	r = b.root;
	if (!r || (r->type == YN_SCALAR && r->style == YN_PLAIN &&
		   r->len == 0)) {
		tc_diag_at(d, TC_EXIT_INPUT, name, 1, 1,
			   "file is empty (expected a YAML mapping)");
		goto out;
	}
	doc->file = strdup(name);
	if (!doc->file) {
		yn_err_nomem(&b);
		goto out;
	}
	doc->root = b.root;
	b.root = NULL;
	rc = 0;
out:
	yn_builder_release(&b);
	return rc;
}

/* Read all of fd into a new buffer of at most YN_MAX_FILE_BYTES bytes. */
static int read_capped(int fd, const char *path, size_t hint, char **out,
		       size_t *outlen, struct tc_diag *d)
{
	size_t cap = hint + 1, len = 0;
	char *buf = NULL, *p;
	ssize_t n;
	int rc = -1;

	if (cap > YN_MAX_FILE_BYTES + 1u)
		cap = YN_MAX_FILE_BYTES + 1u;
	buf = malloc(cap);
	if (!buf) {
		tc_diag_at(d, TC_EXIT_INTERNAL, path, 0, 0, "out of memory");
		goto out;
	}
	for (;;) {
		if (len == cap) {
			if (cap > YN_MAX_FILE_BYTES) {
				tc_diag_at(d, TC_EXIT_INPUT, path, 0, 0,
					   "file is too large: more than %u bytes (expected at most 16 MiB)",
					   YN_MAX_FILE_BYTES);
				goto out;
			}
			cap = cap * 2 > YN_MAX_FILE_BYTES + 1u
				      ? YN_MAX_FILE_BYTES + 1u
				      : cap * 2;
			p = realloc(buf, cap);
			if (!p) {
				tc_diag_at(d, TC_EXIT_INTERNAL, path, 0, 0,
					   "out of memory");
				goto out;
			}
			buf = p;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			tc_diag_at(d, TC_EXIT_IO, path, 0, 0,
				   "cannot read file: %s", strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > YN_MAX_FILE_BYTES) {
		tc_diag_at(d, TC_EXIT_INPUT, path, 0, 0,
			   "file is too large: more than %u bytes (expected at most 16 MiB)",
			   YN_MAX_FILE_BYTES);
		goto out;
	}
	*out = buf;
	*outlen = len;
	buf = NULL;
	rc = 0;
out:
	free(buf);
	return rc;
}

/* Read and parse a file; see yaml_node.h. */
int yn_load_file(const char *path, struct yn_doc *doc, struct tc_diag *d)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0, hint = READ_CHUNK;
	int fd = -1, rc = -1;

	assert(path && doc && d);
	memset(doc, 0, sizeof(*doc));
	fd = tc_input_open(path, "a YAML file", d);
	if (fd < 0)
		goto out;
	if (fstat(fd, &st) != 0) {
		tc_diag_at(d, TC_EXIT_IO, path, 0, 0, "cannot read file: %s",
			   strerror(errno));
		goto out;
	}
	/* A regular file (tc_input_open): its size is known. */
	if ((uintmax_t)st.st_size > YN_MAX_FILE_BYTES) {
		tc_diag_at(d, TC_EXIT_INPUT, path, 0, 0,
			   "file is too large: %jd bytes (expected at most 16 MiB)",
			   (intmax_t)st.st_size);
		goto out;
	}
	hint = (size_t)st.st_size;
	if (read_capped(fd, path, hint, &buf, &len, d) != 0)
		goto out;
	rc = yn_load_buffer(path, buf, len, doc, d);
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	return rc;
}
