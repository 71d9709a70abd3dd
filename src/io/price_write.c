/*
 * price_write.c - a price table written back as a pricing YAML file, the
 * format price_load.c reads.
 */
#include "price_write.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

/* Write `s` as a double-quoted YAML scalar. */
static void yaml_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s < 0x20)
			fprintf(f, "\\x%02x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

int price_table_write_yaml(const struct price_table *t, FILE *f)
{
	static const char *const part_keys[] = { "gpu_part", "host_part",
						 "spot_gpu_part", "spot_host_part" };

	assert(t && f);
	fputs("kind: pricing\nprovider: ", f);
	yaml_str(f, t->provider);
	fprintf(f, "\ncurrency: %s\nas_of: %s\nsource: ", t->currency, t->as_of);
	yaml_str(f, t->source);
	fprintf(f, "\nbilling: { granularity: %s, minimum: %.10gs }\n",
		cost_gran_names[t->billing.granularity], t->billing.minimum_s);
	if (t->spot_notice_known) {
		fprintf(f, "spot_notice: { seconds: %.10gs, source: ", t->spot_notice_s);
		yaml_str(f, t->spot_notice_source);
		fprintf(f, ", as_of: %s }\n", t->spot_notice_as_of);
	}
	if (t->notes[0]) {
		fputs("notes: ", f);
		yaml_str(f, t->notes);
		fputc('\n', f);
	}
	fputs("offers:\n", f);
	for (size_t i = 0; i < t->count; i++) {
		const struct price_offer *o = &t->offers[i];
		const double parts[] = { o->gpu_part_usd_per_h, o->host_part_usd_per_h,
					 o->spot_gpu_part_usd_per_h,
					 o->spot_host_part_usd_per_h };
		fputs("  - { instance: ", f);
		yaml_str(f, o->instance);
		fprintf(f, ", gpu: %s, gpus: %.10g, region: ", o->gpu, o->gpus);
		yaml_str(f, o->region);
		for (int k = 0; k < COST_KIND_COUNT; k++)
			if (o->price_usd_per_h[k] > 0)
				fprintf(f, ", %s: %.10g", cost_kind_keys[k], o->price_usd_per_h[k]);
		for (int k = 0; k < 4; k++)
			if (parts[k] > 0)
				fprintf(f, ", %s: %.10g", part_keys[k], parts[k]);
		if (!o->verified)
			fputs(", verified: false", f);
		if (o->as_of[0] && strcmp(o->as_of, t->as_of))
			fprintf(f, ", as_of: %s", o->as_of);
		if (o->source[0] && strcmp(o->source, t->source)) {
			fputs(", source: ", f);
			yaml_str(f, o->source);
		}
		if (o->notes[0]) {
			fputs(", notes: ", f);
			yaml_str(f, o->notes);
		}
		fputs(" }\n", f);
	}
	return ferror(f) ? -1 : 0;
}
