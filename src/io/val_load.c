/*
 * val_load.c - validation case files: a commented CSV with defaults.
 */
#include "val_load.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/infile.h"
#include "../util/utf8.h"
#include "val_keys.h"

static char *trim(char *s)
{
	char *e;
	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
			 e[-1] == '\n'))
		*--e = '\0';
	return s;
}

/* Split `line` at commas in place; records column starts (1-based). */
static int split(char *line, char **f, int *col, int max)
{
	int n = 0;
	char *p = line;
	for (;;) {
		char *q = strchr(p, ',');
		if (n == max)
			return -1;
		col[n] = (int)(p - line) + 1;
		f[n++] = p;
		if (!q)
			break;
		*q = '\0';
		p = q + 1;
	}
	return n;
}

/*
 * Read one line into buf[0..size) as fgets does (at most size - 1 bytes,
 * the newline kept, NUL-terminated), but also give its length, so that a
 * NUL byte in the file does not cut the line short.  Returns 0 at end of
 * file with nothing read, 1 otherwise.
 */
static int read_line(FILE *fp, char *buf, size_t size, size_t *len)
{
	size_t n = 0;
	int ch;

	assert(size >= 2);
	while (n < size - 1 && (ch = getc(fp)) != EOF) {
		buf[n++] = (char)ch;
		if (ch == '\n')
			break;
	}
	buf[n] = '\0';
	*len = n;
	return n > 0;
}

static const char *base_name(const char *path, char *buf, size_t len)
{
	const char *b = strrchr(path, '/');
	char *dot;
	snprintf(buf, len, "%s", b ? b + 1 : path);
	dot = strrchr(buf, '.');
	if (dot)
		*dot = '\0';
	return buf;
}

/* What a case file's lines share as they are read. */
struct vfile {
	struct vstate st;
	const char *path;
	char stem[64];                  /* the file's name, for ids */
	int hdr[VAL_MAX_COLS], ncol;    /* the header's keys */
	int hdr_col[K_N];               /* column where each key was named,
					   0 = not yet */
};

/* A line as text: not cut short, no NUL, valid UTF-8, a leading byte order
 * mark dropped.  1 when usable, 0 when reported (and skipped). */
static int clean_line(struct vfile *vf, FILE *fp, char *line, size_t len, int lineno)
{
	char *nul;
	size_t badpos;

	if (len == VAL_MAX_LINE - 1 && line[len - 1] != '\n') {
		int ch;
		val_bad(&vf->st, lineno, VAL_MAX_LINE, "line too long "
		    "(expected at most %d bytes)", VAL_MAX_LINE - 2);
		while ((ch = fgetc(fp)) != EOF && ch != '\n')
			;
		return 0;
	}
	/* a UTF-8 byte order mark is allowed; columns count after it */
	if (lineno == 1 && len >= 3 && !memcmp(line, "\xEF\xBB\xBF", 3)) {
		len -= 3;
		memmove(line, line + 3, len + 1);
	}
	nul = memchr(line, '\0', len);
	if (nul) {
		val_bad(&vf->st, lineno, (int)(nul - line) + 1, "NUL byte "
		    "in file (expected text)");
		return 0;
	}
	badpos = tc_utf8_check((const unsigned char *)line, len);
	if (badpos < len) {
		val_bad(&vf->st, lineno, (int)badpos + 1, "invalid UTF-8 "
		    "byte 0x%02X (expected UTF-8 text)",
		    (unsigned)(unsigned char)line[badpos]);
		return 0;
	}
	return 1;
}

/* "#! key = value": a default for the rows below.  0 or -1. */
static int read_directive(struct vfile *vf, char *s, const char *line, int lineno)
{
	char *eq = strchr(s, '=');
	char *key, *val;
	int k;

	if (!eq)
		return val_bad(&vf->st, lineno, 1, "directive without "
			   "'=' (expected '#! key = value')");
	*eq = '\0';
	key = trim(s + 2);
	val = trim(eq + 1);
	k = val_find_key(key);
	if (k < 0)
		return val_bad(&vf->st, lineno, (int)(key - line) + 1,
			   "unknown key '%s' (expected a key "
			   "listed in tests/validation/README.md)", key);
	return val_set_key(&vf->st, &vf->st.dflt, k, val, lineno, (int)(val - line) + 1);
}

/* The header: one known key a column, none twice.  0 or -1 (the file
 * stops there). */
static int read_header(struct vfile *vf, char *s, const char *line, int lineno)
{
	char *f[VAL_MAX_COLS + 1];
	int colpos[VAL_MAX_COLS + 1];
	int n = split(s, f, colpos, VAL_MAX_COLS);

	if (n < 0)
		return val_bad(&vf->st, lineno, 1, "too many columns "
			   "(expected at most %d)", VAL_MAX_COLS);
	for (int i = 0; i < n; i++) {
		char *name = trim(f[i]);
		int at = (int)(f[i] - line) + 1;
		vf->hdr[i] = val_find_key(name);
		if (vf->hdr[i] < 0)
			return val_bad(&vf->st, lineno, at,
				   "unknown column '%s' (expected "
				   "a key listed in "
				   "tests/validation/README.md)", name);
		if (vf->hdr_col[vf->hdr[i]])
			return val_bad(&vf->st, lineno, at,
				   "duplicate column '%s' (first "
				   "given at column %d)", name,
				   vf->hdr_col[vf->hdr[i]]);
		vf->hdr_col[vf->hdr[i]] = at;
	}
	vf->ncol = n;
	return 0;
}

/* One row: a case on the file's defaults, checked, added to set.  0, -1
 * for a row reported (the file goes on), -2 when out of memory. */
static int read_row(struct vfile *vf, struct val_set *set, char *s, const char *line,
		    int lineno)
{
	struct val_case c = vf->st.dflt;
	struct vstate rs = vf->st;
	char *f[VAL_MAX_COLS + 1];
	int colpos[VAL_MAX_COLS + 1];
	int n = split(s, f, colpos, VAL_MAX_COLS), bad_row = 0;
	int vcol[K_N] = { 0 }; /* where each key's value is */

	if (n != vf->ncol)
		return val_bad(&vf->st, lineno, 1, "%d fields (expected "
			   "%d, as in the header)", n < 0 ?
			   VAL_MAX_COLS + 1 : n, vf->ncol);
	for (int i = 0; i < n; i++) {
		char *v = trim(f[i]);
		vcol[vf->hdr[i]] = (int)(v - line) + 1;
		if (val_set_key(&rs, &c, vf->hdr[i], v, lineno, (int)(v - line) + 1))
			bad_row = 1;
	}
	if (bad_row || val_check_layout(&vf->st, &c.w, lineno, vcol))
		return -1;
	if (val_finish_case(&vf->st, &rs, &c, lineno))
		return -1;
	if (!c.id[0])
		snprintf(c.id, sizeof(c.id), "%.40s:%d", vf->stem, lineno);
	if (!c.gpu_id[0])
		return val_bad(&vf->st, lineno, 1, "no GPU (expected a "
			   "'gpu' column or '#! gpu = id')");
	snprintf(c.file, sizeof(c.file), "%s", vf->path);
	c.line = lineno;
	if (val_set_add(set, &c)) {
		tc_diag_at(vf->st.d, TC_EXIT_INTERNAL, vf->path, lineno, 1,
			   "out of memory (expected fewer cases)");
		return -2;
	}
	return 0;
}

int val_load_file(const char *path, const struct tc_datapath *dp, struct val_set *set,
		  struct tc_diag *d)
{
	FILE *fp;
	char line[VAL_MAX_LINE];
	int lineno = 0, rc = 0;
	struct vfile vf;

	int fd = tc_input_open(path, "a validation case file", d);
	if (fd < 0)
		return -1;
	fp = fdopen(fd, "r");
	if (!fp) {
		close(fd);
		return tc_diag_at(d, TC_EXIT_INTERNAL, path, 0, 0, "out of memory");
	}
	memset(&vf, 0, sizeof(vf));
	vf.path = path;
	vf.st.file = path;
	vf.st.dp = dp;
	vf.st.d = d;
	vf.st.metric_file = -1;
	val_case_defaults(&vf.st.dflt);
	base_name(path, vf.stem, sizeof(vf.stem));

	for (;;) {
		size_t len;
		char *s;
		if (!read_line(fp, line, sizeof(line), &len))
			break;
		lineno++;
		if (!clean_line(&vf, fp, line, len, lineno)) {
			rc = -1;
			continue;
		}
		s = trim(line);
		if (!strncmp(s, "#!", 2)) {
			if (read_directive(&vf, s, line, lineno))
				rc = -1;
			continue;
		}
		if (!*s || *s == '#')
			continue;
		if (!vf.ncol) {
			if (read_header(&vf, s, line, lineno)) {
				rc = -1;
				break;
			}
			continue;
		}
		int r = read_row(&vf, set, s, line, lineno);
		if (r)
			rc = -1;
		if (r == -2)
			break;
	}
	if (ferror(fp))
		rc = val_bad(&vf.st, lineno, 0, "read error (expected a readable "
			 "file)");
	else if (!vf.ncol && rc == 0)
		rc = val_bad(&vf.st, lineno > 0 ? lineno : 1, 1, "no header line "
			 "(expected column names)");
	fclose(fp);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int val_load_dir(const char *dir, const struct tc_datapath *dp, struct val_set *set,
		 struct tc_diag *d)
{
	DIR *dh = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0;

	if (!dh) {
		tc_diag_at(d, TC_EXIT_IO, dir, 0, 0, "cannot open folder: %s "
			   "(expected a folder of case files)",
			   strerror(errno));
		return -1;
	}
	while ((de = readdir(dh))) {
		size_t len = strlen(de->d_name);
		if (len < 5 || strcmp(de->d_name + len - 4, ".csv"))
			continue;
		if (n == cap) {
			size_t nc = cap ? 2 * cap : 16;
			char **p = realloc(names, nc * sizeof(*p));
			if (!p) {
				rc = -1;
				goto out;
			}
			names = p;
			cap = nc;
		}
		names[n] = malloc(strlen(dir) + len + 2);
		if (!names[n]) {
			rc = -1;
			goto out;
		}
		sprintf(names[n], "%s/%s", dir, de->d_name);
		n++;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++)
		if (val_load_file(names[i], dp, set, d))
			rc = -1;
out:
	if (rc && !tc_diag_total(d))
		tc_diag_at(d, TC_EXIT_INTERNAL, dir, 0, 0,
			   "out of memory (expected fewer files)");
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(dh);
	return rc;
}
