/*
 * gpu_names.c - typed GPU names by their parts (gpu_names.h).
 */
#include "gpu_names.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../model/types/gpu_alias.h"

/* The parts of a name: "H100 80GB SXM5" is family "H100", 80 GB, "SXM". */
struct name_parts {
	char family[GPU_ID_LEN]; /* squashed (gpu_name_squash): "H100", "RTX4090" */
	long memory_gb;          /* 0: not stated */
	char form[8];            /* "sxm", "pcie", "nvl"; "": not stated */
	char form_gen[8];        /* the form word with its generation
				    ("sxm5"), "" when it has none */
};

/* The form factor a word names ("sxm5" is SXM), or NULL. */
static const char *form_word(const char *w, size_t n)
{
	static const char *const forms[] = { "sxm", "pcie", "nvl", "oam", NULL };
	for (size_t i = 0; forms[i]; i++) {
		size_t f = strlen(forms[i]);
		if (n < f || strncasecmp(w, forms[i], f))
			continue;
		size_t k = f;
		while (k < n && isdigit((unsigned char)w[k]))
			k++;
		if (k == n)
			return forms[i];
	}
	return NULL;
}

/* The gigabytes a word states ("80gb", "48GB"), or 0. */
static long memory_word(const char *w, size_t n)
{
	size_t k = 0;
	while (k < n && isdigit((unsigned char)w[k]))
		k++;
	if (k == 0 || k > 4 || n != k + 2 || strncasecmp(w + k, "gb", 2))
		return 0;
	return strtol(w, NULL, 10);
}

/* Split `name` at '-', '_' and ' ' into its parts.  A word that is
 * neither a memory size nor a form factor belongs to the family. */
static void name_parts(const char *name, struct name_parts *p)
{
	char fam[GPU_ID_LEN] = "";
	size_t used = 0;
	memset(p, 0, sizeof(*p));
	for (const char *s = name; *s;) {
		size_t n = strcspn(s, "-_ ");
		const char *form = form_word(s, n);
		long gb = memory_word(s, n);
		if (form) {
			snprintf(p->form, sizeof(p->form), "%s", form);
			if (n > strlen(form) && n < sizeof(p->form_gen))
				snprintf(p->form_gen, sizeof(p->form_gen), "%.*s", (int)n, s);
		}
		else if (gb)
			p->memory_gb = gb;
		else if (n && used + n < sizeof(fam)) {
			memcpy(fam + used, s, n);
			used += n;
			fam[used] = '\0';
		}
		s += n;
		if (*s)
			s++;
	}
	gpu_name_squash(fam, strlen(fam), p->family, sizeof(p->family));
}

/* The digits of a squashed family ("RTX4090": "4090"), or "" when it has
 * none or two runs of them. */
static void family_digits(const char *family, char *buf, size_t size)
{
	size_t start = strcspn(family, "0123456789");
	size_t len = strspn(family + start, "0123456789");
	buf[0] = '\0';
	if (!len || strpbrk(family + start + len, "0123456789"))
		return;
	snprintf(buf, size, "%.*s", (int)len, family + start);
}

/* True if a typed family means catalog family `have`: the same, or a bare
 * model number that is the family's number ("4090" of "RTX4090"). */
static int same_family(const char *typed, const char *have)
{
	char digits[GPU_ID_LEN];
	if (!strcmp(typed, have))
		return 1;
	if (!typed[0] || strspn(typed, "0123456789") != strlen(typed))
		return 0;
	family_digits(have, digits, sizeof(digits));
	return !strcmp(typed, digits);
}

/* True if `word` is one of the words of `text` (split at ' ', '-', '_'),
 * ignoring case. */
static int has_word(const char *text, const char *word)
{
	size_t len = strlen(word);
	for (const char *s = text; *s;) {
		size_t n = strcspn(s, "-_ ");
		if (n == len && !strncasecmp(s, word, len))
			return 1;
		s += n;
		if (*s)
			s++;
	}
	return 0;
}

/* True if catalog GPU g, whose own parts are `have`, has the form factor
 * of the typed parts t: its id's form word, else its form_factor field
 * ("h100-nvl" is NVL, "l40s" PCIe); a generation ("sxm5") must be the
 * one its id or name gives. */
static int same_form(const struct gpu *g, const struct name_parts *have,
		     const struct name_parts *t)
{
	const char *own = have->form[0] ? have->form : g->form_factor;
	if (strcasecmp(own, t->form))
		return 0;
	return !t->form_gen[0] || has_word(g->id, t->form_gen) || has_word(g->name, t->form_gen);
}

/* How well catalog GPU g fits the typed parts t, of its family: 2 for
 * its own memory, 1 for its form factor.  -1 when of another family. */
static int fit_score(const struct gpu *g, const struct name_parts *t)
{
	struct name_parts have;
	name_parts(g->id, &have);
	if (!same_family(t->family, have.family))
		return -1;
	long own_gb = lround(g->memory_bytes / 1e9);
	return 2 * (t->memory_gb && t->memory_gb == own_gb) + (t->form[0] && same_form(g, &have, t));
}

long gpu_names_match(const struct gpu_catalog *cat, const char *word)
{
	struct name_parts t;
	long found = -1;
	int n = 0;
	name_parts(word, &t);
	if (!t.family[0])
		return -1;
	int want = 2 * (t.memory_gb != 0) + (t.form[0] != 0);
	for (size_t i = 0; i < cat->count; i++)
		if (fit_score(&cat->gpus[i], &t) == want) {
			found = (long)i;
			n++;
		}
	if (n == 1)
		return found;
	if (n == 0 || t.form[0])
		return -1;
	/* Several of the family and no form factor: the family name alone. */
	const char *alias = gpu_alias_id(t.family);
	for (size_t i = 0; alias && i < cat->count; i++)
		if (!strcmp(cat->gpus[i].id, alias) && fit_score(&cat->gpus[i], &t) == want)
			return (long)i;
	return -1;
}

const char *gpu_names_suggest(const struct gpu_catalog *cat, const char *word)
{
	struct name_parts t;
	const struct gpu *best = NULL;
	int best_score = -1;
	name_parts(word, &t);
	if (!t.family[0])
		return NULL;
	/* Ties: the part the family name alone stands for, else the larger
	 * memory. */
	const char *alias = gpu_alias_id(t.family);
	for (size_t i = 0; i < cat->count; i++) {
		const struct gpu *g = &cat->gpus[i];
		int s = 2 * fit_score(g, &t);
		if (s >= 0 && alias && !strcmp(g->id, alias))
			s++;
		if (s > best_score || (s >= 0 && s == best_score && g->memory_bytes > best->memory_bytes)) {
			best = g;
			best_score = s;
		}
	}
	return best_score >= 0 ? best->id : NULL;
}
