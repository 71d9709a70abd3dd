/*
 * json.h - a small streaming JSON writer: formats, never computes.
 *
 * Keys are given with each value (NULL inside arrays and at the top).  A
 * non-finite number is written as null and remembered in `bad_key`, so the
 * caller can turn it into an internal error: NaN and Inf are never printed.
 */
#ifndef TC_REP_JSON_H
#define TC_REP_JSON_H

#include <stdio.h>

#define REP_JSON_MAX_DEPTH 32

/*
 * The version of the output contract: every command's JSON fields and CSV
 * columns (docs/output-format.md, docs/schema/).  One number for all of
 * them; it changes whenever a field is renamed, removed or changes meaning.
 */
#define REP_FORMAT_VERSION 6

struct rep_json {
	FILE *f;
	int depth;
	int count[REP_JSON_MAX_DEPTH]; /* values written at each level */
	char bad_key[64];              /* first key holding a non-finite value */
};

void rep_json_init(struct rep_json *j, FILE *f);
/* Start a command's document: the top-level object with "format_version"
 * and "command" (the command's name) as its first two fields. */
void rep_json_doc_begin(struct rep_json *j, FILE *f, const char *command);
void rep_json_obj_begin(struct rep_json *j, const char *key);
void rep_json_obj_end(struct rep_json *j);
void rep_json_arr_begin(struct rep_json *j, const char *key);
void rep_json_arr_end(struct rep_json *j);
void rep_json_str(struct rep_json *j, const char *key, const char *val);
void rep_json_num(struct rep_json *j, const char *key, double val);
void rep_json_int(struct rep_json *j, const char *key, long long val);
void rep_json_bool(struct rep_json *j, const char *key, int val);
/* An explicit null: a value that does not exist (not a non-finite one). */
void rep_json_null(struct rep_json *j, const char *key);
/* Ends the document with a newline; returns 0, or -1 if a number was bad. */
int rep_json_finish(struct rep_json *j);

#endif
