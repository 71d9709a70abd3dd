/*
 * units.c - strict parsing of numbers with SI suffixes and physical units,
 * and short human-readable formatting of sizes and durations.
 */
#include "units.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct suffix {
	const char *text; /* exact, case-sensitive */
	double factor;    /* multiplier to the SI base unit */
};

/* Counts: decimal prefixes; B is a billion ("300B" tokens). */
static const struct suffix count_sfx[] = {
	{"", 1.0},   {"k", 1e3},  {"K", 1e3},   {"M", 1e6},
	{"G", 1e9},  {"B", 1e9},  {"T", 1e12},  {"P", 1e15},
	{NULL, 0.0},
};

/* Bytes: decimal (GB = 1e9) and binary (GiB = 2^30) prefixes. */
static const struct suffix bytes_sfx[] = {
	{"B", 1.0},
	{"kB", 1e3},  {"MB", 1e6},  {"GB", 1e9},  {"TB", 1e12}, {"PB", 1e15},
	{"KiB", 1024.0},
	{"MiB", 1048576.0},
	{"GiB", 1073741824.0},
	{"TiB", 1099511627776.0},
	{"PiB", 1125899906842624.0},
	{NULL, 0.0},
};

/* Byte rates: a byte size per second, or bits per second (b = 1/8 B). */
static const struct suffix rate_sfx[] = {
	{"B/s", 1.0},
	{"kB/s", 1e3},  {"MB/s", 1e6},  {"GB/s", 1e9},  {"TB/s", 1e12},
	{"PB/s", 1e15},
	{"KiB/s", 1024.0},
	{"MiB/s", 1048576.0},
	{"GiB/s", 1073741824.0},
	{"TiB/s", 1099511627776.0},
	{"b/s", 1.0 / 8},
	{"kb/s", 1e3 / 8}, {"Mb/s", 1e6 / 8}, {"Gb/s", 1e9 / 8},
	{"Tb/s", 1e12 / 8},
	{NULL, 0.0},
};

/* Durations: "m" is refused as ambiguous (minutes or months). */
static const struct suffix time_sfx[] = {
	{"ms", 1e-3}, {"s", 1.0},        {"min", 60.0},      {"h", 3600.0},
	{"d", 86400.0}, {"w", 604800.0}, {"y", 31536000.0}, /* 365 d */
	{NULL, 0.0},
};

static const struct suffix flop_sfx[] = {
	{"FLOP/s", 1.0},   {"kFLOP/s", 1e3},  {"MFLOP/s", 1e6},
	{"GFLOP/s", 1e9},  {"TFLOP/s", 1e12}, {"PFLOP/s", 1e15},
	{"EFLOP/s", 1e18},
	{"FLOPS", 1.0},    {"kFLOPS", 1e3},   {"MFLOPS", 1e6},
	{"GFLOPS", 1e9},   {"TFLOPS", 1e12},  {"PFLOPS", 1e15},
	{"EFLOPS", 1e18},
	{NULL, 0.0},
};

/* Amounts take the count prefixes people write for money ("3M", "2.5k";
 * B is a billion, as for counts). */
static const struct suffix usd_sfx[] = {
	{"", 1.0},   {"USD", 1.0}, {"k", 1e3}, {"K", 1e3},
	{"M", 1e6},  {"B", 1e9},   {NULL, 0.0},
};

static const struct suffix usd_h_sfx[] = {
	{"", 1.0},       {"/h", 1.0},      {"/hr", 1.0},
	{"USD/h", 1.0},  {"USD/hr", 1.0},
	{NULL, 0.0},
};

static const struct suffix watt_sfx[] = {
	{"W", 1.0}, {"kW", 1e3}, {"MW", 1e6}, {NULL, 0.0},
};

static const struct suffix hz_sfx[] = {
	{"Hz", 1.0}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}, {NULL, 0.0},
};

/* The suffix table of `unit`. */
static const struct suffix *unit_suffixes(enum tc_unit unit)
{
	switch (unit) {
	case TC_UNIT_COUNT: return count_sfx;
	case TC_UNIT_BYTES: return bytes_sfx;
	case TC_UNIT_BYTE_RATE: return rate_sfx;
	case TC_UNIT_SECONDS: return time_sfx;
	case TC_UNIT_FLOP_RATE: return flop_sfx;
	case TC_UNIT_USD: return usd_sfx;
	case TC_UNIT_USD_PER_H: return usd_h_sfx;
	case TC_UNIT_WATTS: return watt_sfx;
	case TC_UNIT_HZ: return hz_sfx;
	}
	return count_sfx;
}

/* A short example of the unit for "(expected ...)". */
const char *tc_unit_expect(enum tc_unit unit)
{
	switch (unit) {
	case TC_UNIT_COUNT: return "a number such as 7, 2e12, 64k or 300B";
	case TC_UNIT_BYTES: return "a size such as 80GB or 80GiB";
	case TC_UNIT_BYTE_RATE: return "a rate such as 2039GB/s or 200Gb/s";
	case TC_UNIT_SECONDS: return "a duration such as 30s, 90min, 3h or 14d";
	case TC_UNIT_FLOP_RATE: return "a rate such as 312TFLOP/s";
	case TC_UNIT_USD: return "an amount such as $1.60, 1600 USD, 2.5k, 3M or $3,000,000";
	case TC_UNIT_USD_PER_H: return "a price such as $1.60/h";
	case TC_UNIT_WATTS: return "a power such as 350W or 0.35kW";
	case TC_UNIT_HZ: return "a frequency such as 1410MHz";
	}
	return "a number";
}

/* A noun phrase for the kind of quantity, e.g. "a size". */
const char *tc_unit_name(enum tc_unit unit)
{
	switch (unit) {
	case TC_UNIT_COUNT: return "a number";
	case TC_UNIT_BYTES: return "a size";
	case TC_UNIT_BYTE_RATE: return "a byte rate";
	case TC_UNIT_SECONDS: return "a duration";
	case TC_UNIT_FLOP_RATE: return "a FLOP rate";
	case TC_UNIT_USD: return "an amount in USD";
	case TC_UNIT_USD_PER_H: return "a price per hour";
	case TC_UNIT_WATTS: return "a power";
	case TC_UNIT_HZ: return "a frequency";
	}
	return "a number";
}

/* The SI base unit's symbol ("" for plain counts). */
const char *tc_unit_symbol(enum tc_unit unit)
{
	switch (unit) {
	case TC_UNIT_COUNT: return "";
	case TC_UNIT_BYTES: return "B";
	case TC_UNIT_BYTE_RATE: return "B/s";
	case TC_UNIT_SECONDS: return "s";
	case TC_UNIT_FLOP_RATE: return "FLOP/s";
	case TC_UNIT_USD: return "USD";
	case TC_UNIT_USD_PER_H: return "USD/h";
	case TC_UNIT_WATTS: return "W";
	case TC_UNIT_HZ: return "Hz";
	}
	return "";
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Length of the decimal number at the start of `s`: [+-]digits[.digits]
 * [(e|E)[+-]digits], with at least one mantissa digit.  0 if none.  Hex,
 * "nan" and "inf" never match.
 */
static size_t number_span(const char *s)
{
	size_t i = 0, digits = 0, j;

	if (s[i] == '+' || s[i] == '-')
		i++;
	while (is_digit(s[i])) {
		i++;
		digits++;
	}
	if (s[i] == '.') {
		i++;
		while (is_digit(s[i])) {
			i++;
			digits++;
		}
	}
	if (digits == 0)
		return 0;
	if (s[i] == 'e' || s[i] == 'E') {
		j = i + 1;
		if (s[j] == '+' || s[j] == '-')
			j++;
		if (is_digit(s[j])) {
			while (is_digit(s[j]))
				j++;
			i = j;
		}
	}
	return i;
}

/* True for a bit unit: b kb Mb Gb Tb Pb. */
static int is_bits(const char *u)
{
	static const char *const bits[] = {"b", "kb", "Mb", "Gb", "Tb", "Pb"};
	size_t i;

	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		if (strcmp(u, bits[i]) == 0)
			return 1;
	}
	return 0;
}

#define WHY_RANGE "a number of at most about 1.8e308"
#define WHY_GROUPS "an amount such as $3,000,000 (commas between groups of three digits)"

/*
 * Copy `s` into buf without the commas of its whole part ("3,000,000.50"
 * is "3000000.50"), which must separate groups of three digits after a
 * first group of one to three.  Returns 0, or -1 when the commas are
 * misplaced or buf is too small.
 */
static int drop_thousands(const char *s, char *buf, size_t size)
{
	size_t o = 0, group = 0;
	int commas = 0, whole = 1;
	for (const char *p = s; *p; p++) {
		if (o + 1 >= size)
			return -1;
		if (whole && *p == ',') {
			if (group == 0 || group > 3 || (commas && group != 3))
				return -1;
			commas = 1;
			group = 0;
			continue;
		}
		if (whole && !is_digit(*p)) {
			if (commas && group != 3)
				return -1;
			whole = *p == '$' || *p == '+' || *p == '-';
		} else if (whole) {
			group++;
		}
		buf[o++] = *p;
	}
	if (whole && commas && group != 3)
		return -1;
	buf[o] = '\0';
	return 0;
}
#define WHY_MINUTES "a duration such as 90min ('m' is ambiguous: write 'min')"
#define WHY_BITS "a size in bytes such as 80GB; lower-case 'b' means bits"

/*
 * Parse all of `s` as a quantity of `unit` in SI base units.  Returns 0 and
 * sets *out, or -1 with *why set to a static "(expected ...)" phrase.
 */
int tc_parse_quantity(const char *s, enum tc_unit unit, double *out,
		      const char **why)
{
	const struct suffix *sfx;
	const char *p = s, *u;
	char *end = NULL;
	size_t n;
	int dollar = 0;
	double v;

	assert(s && out && why);
	*why = tc_unit_expect(unit);
	char plain[64];
	if (unit == TC_UNIT_USD && strchr(s, ',')) {
		if (drop_thousands(s, plain, sizeof(plain))) {
			*why = WHY_GROUPS;
			return -1;
		}
		p = plain;
	}
	if ((unit == TC_UNIT_USD || unit == TC_UNIT_USD_PER_H) && *p == '$') {
		dollar = 1;
		p++;
	}
	n = number_span(p);
	if (n == 0)
		return -1;
	errno = 0;
	v = strtod(p, &end);
	if (end != p + n)
		return -1;
	if (errno == ERANGE && fabs(v) > 1.0) {
		*why = WHY_RANGE;
		return -1;
	}
	u = p + n;
	while (*u == ' ')
		u++;
	if (u != p + n && *u == '\0')
		return -1; /* trailing blanks */
	if (dollar && strncmp(u, "USD", 3) == 0)
		return -1; /* "$5 USD": one currency mark */
	for (sfx = unit_suffixes(unit); sfx->text; sfx++) {
		if (strcmp(u, sfx->text) == 0)
			break;
	}
	if (!sfx->text) {
		if (unit == TC_UNIT_SECONDS && strcmp(u, "m") == 0)
			*why = WHY_MINUTES;
		else if (unit == TC_UNIT_BYTES && is_bits(u))
			*why = WHY_BITS;
		return -1;
	}
	v *= sfx->factor;
	if (!isfinite(v)) {
		*why = WHY_RANGE;
		return -1;
	}
	*out = v;
	return 0;
}

struct fmt_unit {
	const char *name;
	double scale;  /* seconds or bytes per unit */
	int whole;     /* shown in whole numbers only (bytes) */
	double limit;  /* switch to the next unit at this value */
};

/* Digits after the point that show x (>= 0) with three significant
 * figures once rounded: 2 under 10, 1 under 100, 0 from there. */
static int sig3_decimals(double x)
{
	return x < 9.995 ? 2 : x < 99.95 ? 1 : 0;
}

/*
 * Print |v| with three significant figures (4.51 ms, 12.3 s, 235 MB) in the
 * first unit of `units` in which the rounded value stays under its limit;
 * the sign is kept.  Non-finite values print "n/a".
 */
static char *fmt_scaled(double v, const struct fmt_unit *units, size_t nunits,
			char *buf, int len)
{
	double a = fabs(v), x = 0.0;
	int decimals = 0;
	size_t i;

	assert(buf && len > 0);
	if (!isfinite(v)) {
		snprintf(buf, (size_t)len, "n/a");
		return buf;
	}
	for (i = 0; i < nunits; i++) {
		x = a / units[i].scale;
		decimals = units[i].whole ? 0 : sig3_decimals(x);
		double p = pow(10.0, decimals);
		if (round(x * p) / p < units[i].limit || i + 1 == nunits)
			break;
	}
	snprintf(buf, (size_t)len, "%s%.*f %s", v < 0 ? "-" : "", decimals, x, units[i].name);
	return buf;
}

/* "512 B", "79.2 GB", "1.50 PB". */
char *tc_fmt_bytes(double bytes, char *buf, int len)
{
	static const struct fmt_unit u[] = {
		{"B", 1.0, 1, 1000.0},   {"kB", 1e3, 0, 1000.0},
		{"MB", 1e6, 0, 1000.0},  {"GB", 1e9, 0, 1000.0},
		{"TB", 1e12, 0, 1000.0}, {"PB", 1e15, 0, 1000.0},
		{"EB", 1e18, 0, HUGE_VAL},
	};
	return fmt_scaled(bytes, u, sizeof(u) / sizeof(u[0]), buf, len);
}

/* "850 ms", "4.51 ms", "12.3 s", "45.0 min", "5.50 h", "3.20 d", "1.20 y". */
char *tc_fmt_duration(double seconds, char *buf, int len)
{
	static const struct fmt_unit u[] = {
		{"us", 1e-6, 0, 1000.0},  {"ms", 1e-3, 0, 1000.0},
		{"s", 1.0, 0, 60.0},      {"min", 60.0, 0, 60.0},
		{"h", 3600.0, 0, 24.0},   {"d", 86400.0, 0, 365.0},
		{"y", 31536000.0, 0, HUGE_VAL},
	};
	if (seconds == 0.0) {
		snprintf(buf, (size_t)len, "0 s");
		return buf;
	}
	return fmt_scaled(seconds, u, sizeof(u) / sizeof(u[0]), buf, len);
}
