/*
 * json.c - streaming JSON writer (see json.h).
 */
#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rep_json_init(struct rep_json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

void rep_json_doc_begin(struct rep_json *j, FILE *f, const char *command)
{
	rep_json_init(j, f);
	rep_json_obj_begin(j, NULL);
	rep_json_int(j, "format_version", REP_FORMAT_VERSION);
	rep_json_str(j, "command", command);
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

/* Comma, newline, indentation and key before a value at the current level. */
static void prefix(struct rep_json *j, const char *key)
{
	if (j->count[j->depth]++)
		fputc(',', j->f);
	if (j->depth > 0) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	if (key) {
		put_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void open_level(struct rep_json *j, const char *key, char c)
{
	prefix(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < REP_JSON_MAX_DEPTH)
		j->depth++;
	j->count[j->depth] = 0;
}

static void close_level(struct rep_json *j, char c)
{
	int had = j->count[j->depth];
	if (j->depth > 0)
		j->depth--;
	if (had) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(c, j->f);
}

void rep_json_obj_begin(struct rep_json *j, const char *key) { open_level(j, key, '{'); }
void rep_json_obj_end(struct rep_json *j) { close_level(j, '}'); }
void rep_json_arr_begin(struct rep_json *j, const char *key) { open_level(j, key, '['); }
void rep_json_arr_end(struct rep_json *j) { close_level(j, ']'); }

void rep_json_str(struct rep_json *j, const char *key, const char *val)
{
	prefix(j, key);
	put_string(j->f, val);
}

void rep_json_num(struct rep_json *j, const char *key, double val)
{
	prefix(j, key);
	if (!isfinite(val)) {
		if (!j->bad_key[0])
			snprintf(j->bad_key, sizeof(j->bad_key), "%s", key ? key : "(array item)");
		fputs("null", j->f);
		return;
	}
	/* Whole numbers print whole (312000000000000, not 3.12e+14); others
	 * as short as round-tripping allows. */
	char buf[40];
	if (val == floor(val) && fabs(val) < 1e16)
		snprintf(buf, sizeof(buf), "%.0f", val);
	else
		snprintf(buf, sizeof(buf), "%.10g", val);
	if (strtod(buf, NULL) != val)
		snprintf(buf, sizeof(buf), "%.17g", val);
	fputs(buf, j->f);
}

void rep_json_int(struct rep_json *j, const char *key, long long val)
{
	prefix(j, key);
	fprintf(j->f, "%lld", val);
}

void rep_json_bool(struct rep_json *j, const char *key, int val)
{
	prefix(j, key);
	fputs(val ? "true" : "false", j->f);
}

void rep_json_null(struct rep_json *j, const char *key)
{
	prefix(j, key);
	fputs("null", j->f);
}

int rep_json_finish(struct rep_json *j)
{
	fputc('\n', j->f);
	return j->bad_key[0] ? -1 : 0;
}
