/*
 * md_html.h - the Markdown of `--format md` as HTML, for the report page.
 */
#ifndef TC_MD_HTML_H
#define TC_MD_HTML_H

#include "xmlbuf.h"

/*
 * Append to b the HTML of `md`, the Markdown traincost's --format md writes:
 * headings (as <h3>), paragraphs, "- " lists, `code`, **bold**, backslash
 * escapes and pipe tables.  A table becomes <table class="data">; its
 * right-aligned columns (---:) are numbers (<td class="num">), and one whose
 * cells all carry the same unit ("4.2 GB", "$1,200", "12 %") has the unit
 * moved into its header ("free (GB)") and bare numbers in its cells.
 */
void rep_md_html(struct xmlbuf *b, const char *md);

#endif
