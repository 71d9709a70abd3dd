/*
 * diag.c - positioned error messages that accumulate in a struct tc_diag.
 */
#include "diag.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

/* Reset *d to "no errors". */
void tc_diag_init(struct tc_diag *d)
{
	assert(d);
	memset(d, 0, sizeof(*d));
	d->severity = TC_EXIT_OK;
}

/* Raise d->severity to `code` if that is worse (a larger exit code). */
static void raise_severity(struct tc_diag *d, enum tc_exit code)
{
	if (code > d->severity)
		d->severity = code;
}

/*
 * Format "file:line:col: " + message into the next free entry, or count it
 * as dropped when the context is full.  A message longer than the entry is
 * cut and ends with "...".  Always returns -1.
 */
int tc_diag_vat(struct tc_diag *d, enum tc_exit code, const char *file,
		int line, int col, const char *fmt, va_list ap)
{
	char *buf;
	size_t cap = TC_DIAG_MSG_LEN;
	int n = 0;
	int m;

	assert(d && fmt);
	raise_severity(d, code);
	if (d->count >= TC_DIAG_MAX) {
		d->dropped++;
		return -1;
	}
	buf = d->entry[d->count].msg;
	buf[0] = '\0';
	if (file && line > 0 && col > 0)
		n = snprintf(buf, cap, "%s:%d:%d: ", file, line, col);
	else if (file && line > 0)
		n = snprintf(buf, cap, "%s:%d: ", file, line);
	else if (file)
		n = snprintf(buf, cap, "%s: ", file);
	if (n < 0)
		n = 0;
	if ((size_t)n < cap) {
		m = vsnprintf(buf + n, cap - (size_t)n, fmt, ap);
		if (m < 0)
			buf[n] = '\0';
		else
			n += m;
	}
	if ((size_t)n >= cap)
		memcpy(buf + cap - 4, "...", 4);
	d->count++;
	return -1;
}

/* Append "file:line:col: message"; returns -1. */
int tc_diag_at(struct tc_diag *d, enum tc_exit code, const char *file, int line,
	       int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tc_diag_vat(d, code, file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

/* Append a message with no position; returns -1. */
int tc_diag_msg(struct tc_diag *d, enum tc_exit code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tc_diag_vat(d, code, NULL, 0, 0, fmt, ap);
	va_end(ap);
	return -1;
}

/* Total messages reported, stored and dropped. */
int tc_diag_total(const struct tc_diag *d)
{
	assert(d);
	return d->count + d->dropped;
}
