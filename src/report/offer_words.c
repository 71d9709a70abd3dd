/*
 * offer_words.c - the basis, caveat and unjoinable products as the outputs
 * word them (offer_words.h).
 */
#include "offer_words.h"

#include <string.h>

const char *rep_basis_name(int steady_state)
{
	return steady_state ? "steady_state" : "wall_clock";
}

const char *rep_offer_caveat(const struct cost_choice *ch)
{
	if (!ch->offer || !(ch->run.instances > 1))
		return NULL;
	if (ch->offer->fabric_assumed)
		return "fabric assumed (--assume-fabric)";
	if (ch->offer->max_unconfirmed)
		return "cluster size unconfirmed (the provider states none)";
	return NULL;
}

int rep_unjoin_wanted(const struct price_unjoinable *p, const char *const *gpus, int ngpus,
		      const char *provider)
{
	if (provider && strcmp(provider, p->provider))
		return 0;
	if (!gpus || !p->gpu[0])
		return 1;
	for (int k = 0; k < ngpus; k++)
		if (!strcmp(gpus[k], p->gpu))
			return 1;
	return 0;
}

int rep_print_unjoinable(FILE *out, const struct price_unjoin *u, const char *const *gpus,
			 int ngpus, const char *provider)
{
	static const char *const lack[] = {
		[PRICE_LACKS_PRICE] = "no sourced price of an instance",
		[PRICE_LACKS_FABRIC] = "no sourced fabric the model can time",
		[PRICE_LACKS_BOTH] = "neither a sourced price nor a fabric the model can time",
	};
	int shown = 0;
	for (size_t i = 0; u && i < u->count; i++) {
		const struct price_unjoinable *p = &u->items[i];
		if (!rep_unjoin_wanted(p, gpus, ngpus, provider))
			continue;
		if (!shown++)
			fprintf(out, "\nNot joinable into clusters (pricing/unjoinable.yaml, as of %s; "
				"docs/pricing.md):\n", u->as_of);
		fprintf(out, "  %s %s%s%s%s: %s (fabric: %s; price: %s)\n", p->provider, p->product,
			p->gpu[0] ? " [" : "", p->gpu, p->gpu[0] ? "]" : "", lack[p->lacks],
			p->fabric, p->price);
	}
	return shown;
}
