/*
 * numfmt.h - numbers as people read them: thousands separators, dollars.
 */
#ifndef TC_NUMFMT_H
#define TC_NUMFMT_H

/* 1234567 -> "1,234,567"; fractions under 100 and huge values in %.3g.
 * Returns buf. */
char *rep_fmt_count(double v, char *buf, int len);

/* "$1,234,567" in whole dollars, or "$12.34" under $100.  Returns buf. */
char *rep_fmt_usd(double v, char *buf, int len);

#endif
