/*
 * sweep_cells.h - the cells of one row of `traincost sweep` output in each
 * format (sweep_cells.c).  Internal to the sweep command.
 */
#ifndef TC_CLI_SWEEP_CELLS_H
#define TC_CLI_SWEEP_CELLS_H

#include <stddef.h>

enum sw_fmt { FMT_CSV, FMT_JSON, FMT_TABLE, FMT_MD };

/* One row being written into p (cap bytes; what does not fit is cut). */
struct rowbuf {
	char *p;
	size_t len, cap;
	int col;        /* cells so far in this row */
	enum sw_fmt fmt;
};

/* Append n bytes of s / the byte c. */
void cells_put(struct rowbuf *r, const char *s, size_t n);
void cells_putc(struct rowbuf *r, char c);
/* A text cell; `name` is the column (JSON key). */
void cells_text(struct rowbuf *r, const char *name, const char *s);
/* A cell of n bytes that needs no quoting or escaping in CSV or a table. */
void cells_plain(struct rowbuf *r, const char *name, const char *s, size_t n);
/* A number / true-false cell, or an empty cell (JSON null) when !have. */
void cells_num(struct rowbuf *r, const char *name, double v, int have);
void cells_bool(struct rowbuf *r, const char *name, int v, int have);

#endif
