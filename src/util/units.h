/*
 * units.h - strict parsing of numbers with SI suffixes and physical units.
 *
 * Accepted forms (whitespace between number and unit allowed):
 *   TC_UNIT_COUNT      "2e12", "1.5T", "300B" (billion), "64k", "7"   -> plain count
 *   TC_UNIT_BYTES      "80GB", "80 GiB", "40MB", "512KiB", "1TB"      -> bytes
 *   TC_UNIT_BYTE_RATE  "25GB/s", "2039 GB/s", "200Gb/s" (bits), "3.35TB/s" -> bytes/s
 *   TC_UNIT_SECONDS    "14d", "3h", "90min", "30s", "2w", "1.5y"       -> seconds
 *   TC_UNIT_FLOP_RATE  "312TFLOP/s", "19.5 TFLOPS", "1.98PFLOP/s"     -> FLOP/s
 *   TC_UNIT_USD        "$1.60", "1600 USD", "2.5k", "3M", "$3,000,000" -> US dollars
 *   TC_UNIT_USD_PER_H  "$1.60/h", "1.60", "$32.77/hr"                 -> US dollars/hour
 *   TC_UNIT_WATTS      "350W", "0.35kW"                               -> watts
 *   TC_UNIT_HZ         "1410MHz", "1.98GHz"                           -> hertz
 * Decimal prefixes are powers of 1000 (GB = 1e9); binary ones (GiB) of 1024.
 * Physical quantities other than USD require a unit: a bare "80" for a byte
 * size is an error, never a silent guess.
 *
 * The exact lists (case-sensitive: "b" is bits, "B" bytes):
 *   count     none, k K (1e3), M (1e6), G B (1e9), T (1e12), P (1e15)
 *   bytes     B kB MB GB TB PB, KiB MiB GiB TiB PiB
 *   rate      any byte unit + "/s" (not PiB/s), b/s kb/s Mb/s Gb/s Tb/s (/8)
 *   seconds   ms s min h d w y (y = 365 d); "m" is refused as ambiguous
 *   FLOP/s    [k M G T P E] + "FLOP/s" or "FLOPS"; "312T" is a count only
 *   USD       optional "$" before the number, or " USD" after it (not both);
 *             or k K (1e3), M (1e6), B (1e9) after it; commas between
 *             groups of three digits of the whole part
 *   USD/h     as USD, then optionally "/h" or "/hr" ("USD/h" without "$")
 *   watts     W kW MW;  hertz  Hz kHz MHz GHz
 * The number is decimal: [+-]digits[.digits][e[+-]digits]; no hex, "nan",
 * "inf", leading or trailing blanks; blanks (spaces) are allowed only between
 * number and unit.  Overflow and non-finite results are errors.
 */
#ifndef TC_UNITS_H
#define TC_UNITS_H

enum tc_unit {
	TC_UNIT_COUNT,
	TC_UNIT_BYTES,
	TC_UNIT_BYTE_RATE,
	TC_UNIT_SECONDS,
	TC_UNIT_FLOP_RATE,
	TC_UNIT_USD,
	TC_UNIT_USD_PER_H,
	TC_UNIT_WATTS,
	TC_UNIT_HZ,
};

/*
 * Parse the whole string `s` as a quantity of `unit`, in SI base units.
 * Returns 0 and writes *out on success; on failure returns -1 and points
 * *why at a static phrase for the "(expected ...)" part of an error message,
 * e.g. "a size such as 80GB".  Non-finite results are errors.
 */
int tc_parse_quantity(const char *s, enum tc_unit unit, double *out,
		      const char **why);

/* A short example of the unit for messages, e.g. "a size such as 80GB". */
const char *tc_unit_expect(enum tc_unit unit);

/* The kind of quantity for messages, e.g. "a size", "a duration". */
const char *tc_unit_name(enum tc_unit unit);

/* The SI base unit's symbol: "B", "B/s", "s", ...; "" for counts. */
const char *tc_unit_symbol(enum tc_unit unit);

/* Format bytes as "79.2 GB" (B, kB ... EB, decimal) / seconds as "850 ms",
 * "4.51 ms", "12.3 s", "45.0 min", "5.50 h", "3.20 d", "1.20 y" into buf
 * (len > 0): three significant figures, whole bytes under 1 kB; returns
 * buf.  Non-finite input gives "n/a". */
char *tc_fmt_bytes(double bytes, char *buf, int len);
char *tc_fmt_duration(double seconds, char *buf, int len);

#endif
