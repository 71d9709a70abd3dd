/*
 * diag.h - diagnostics: positioned error messages that accumulate.
 *
 * Every function that can fail takes a `struct tc_diag *` last, appends one
 * message per problem and returns non-zero.  Only src/cli prints them.
 * Message form: "file:line:col: what is wrong (what was expected)".
 */
#ifndef TC_DIAG_H
#define TC_DIAG_H

#include <stdarg.h>

/* Process exit codes, documented in README.md and traincost.1. */
enum tc_exit {
	TC_EXIT_OK = 0,
	TC_EXIT_INPUT = 1,    /* invalid input file or value */
	TC_EXIT_USAGE = 2,    /* bad command line */
	TC_EXIT_IO = 3,       /* file could not be read or written */
	TC_EXIT_INTERNAL = 4, /* a bug: non-finite number, broken invariant */
	TC_EXIT_NO_FIT = 5,   /* the plan does not fit in GPU memory: reported, not priced */
};

#define TC_DIAG_MAX 20      /* messages kept per context; more are counted */
#define TC_DIAG_MSG_LEN 512 /* bytes per formatted message */

struct tc_diag_entry {
	char msg[TC_DIAG_MSG_LEN]; /* complete line, without newline */
};

struct tc_diag {
	struct tc_diag_entry entry[TC_DIAG_MAX];
	int count;             /* entries stored (<= TC_DIAG_MAX) */
	int dropped;           /* messages beyond TC_DIAG_MAX */
	enum tc_exit severity; /* worst class of error seen, TC_EXIT_OK if none */
};

/* Reset to "no errors". */
void tc_diag_init(struct tc_diag *d);

/*
 * Append "file:line:col: message".  `file` may be NULL (then only the message
 * is stored); line or col <= 0 are left out.  Returns -1 so callers can write
 * `return tc_diag_at(...)`.  `code` raises d->severity.
 */
int tc_diag_at(struct tc_diag *d, enum tc_exit code, const char *file, int line,
	       int col, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
int tc_diag_vat(struct tc_diag *d, enum tc_exit code, const char *file,
		int line, int col, const char *fmt, va_list ap)
	__attribute__((format(printf, 6, 0)));

/* Append a message with no position ("traincost: message" is added by cli). */
int tc_diag_msg(struct tc_diag *d, enum tc_exit code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Total messages reported (stored + dropped). */
int tc_diag_total(const struct tc_diag *d);

#endif
