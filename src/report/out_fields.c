/*
 * out_fields.c - the catalog of shared output fields (out_fields.h).
 */
#include "out_fields.h"

#include <assert.h>
#include <string.h>

#define REP_FIELD_ENTRY(name, title, kind, scale, decimals, suffix, csv, description) \
	{ #name, title, kind, scale, decimals, suffix, csv, description },
static const struct rep_field catalog[] = { REP_FIELDS(REP_FIELD_ENTRY) };
#undef REP_FIELD_ENTRY
#define NFIELDS (int)(sizeof(catalog) / sizeof(catalog[0]))

const struct rep_field *rep_field_find(const char *name)
{
	for (int i = 0; i < NFIELDS; i++)
		if (!strcmp(catalog[i].name, name))
			return &catalog[i];
	return NULL;
}

const struct rep_field *rep_fields(int *n)
{
	*n = NFIELDS;
	return catalog;
}

void rep_field_apply(struct rep_col *col)
{
	if (col->title)
		return;
	const struct rep_field *f = rep_field_find(col->name);
	assert(f && "REP_FIELD_COL names a field of the catalog");
	if (!f)
		return;
	col->title = f->title;
	if (col->kind == REP_COL_FIGURE)
		return;
	col->kind = f->kind;
	col->scale = f->scale;
	col->decimals = f->decimals;
	col->suffix = f->suffix;
	col->csv = f->csv;
}

void rep_fields_apply(struct rep_col *cols, int n)
{
	for (int i = 0; i < n; i++)
		rep_field_apply(&cols[i]);
}

int rep_fields_copy(struct rep_col *dst, const struct rep_col *src, int n)
{
	memcpy(dst, src, (size_t)n * sizeof(*src));
	rep_fields_apply(dst, n);
	return n;
}
