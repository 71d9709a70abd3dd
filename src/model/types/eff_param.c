/*
 * eff_param.c - the registry table, built from EFF_PARAMS, the layered
 * setting of values and the resolution of a GPU's efficiencies under a
 * calibration and a stack.
 */
#include "eff_param.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

const char *const eff_layer_names[] = { "default", "gpu", "framework",
					"calibration", NULL };

const struct eff_param eff_params[EFF_COUNT] = {
#define EFF_X_ROW(n, unit_, kind_, lo_, hi_, def_, floor_, cal_, role_, sd_, what_, src_) \
	[eff_id_##n] = { .name = #n, .unit = unit_, \
			 .offset = offsetof(struct roof_eff, n), .kind = kind_, \
			 .lo = lo_, .hi = hi_, .def = def_, .fit_floor = floor_, \
			 .calibrated = cal_, .role = role_, .default_rel_sd = sd_, \
			 .what = what_, .source = src_ },
	EFF_PARAMS(EFF_X_ROW)
#undef EFF_X_ROW
};

int eff_find(const char *name)
{
	for (int p = 0; p < EFF_COUNT; p++)
		if (!strcmp(name, eff_params[p].name))
			return p;
	return -1;
}

double eff_get(const struct roof_eff *e, enum eff_id p)
{
	assert((int)p >= 0 && p < EFF_COUNT);
	return *(const double *)(const void *)((const char *)e + eff_params[p].offset);
}

double *eff_ref(struct roof_eff *e, enum eff_id p)
{
	assert((int)p >= 0 && p < EFF_COUNT);
	return (double *)(void *)((char *)e + eff_params[p].offset);
}

int eff_set(struct roof_eff *e, enum eff_id p, double v, enum eff_layer from)
{
	assert((int)p >= 0 && p < EFF_COUNT);
	if (e->layer[p] > from)
		return 0;
	*eff_ref(e, p) = v;
	e->layer[p] = (unsigned char)from;
	return 1;
}

void eff_default(struct roof_eff *e)
{
	memset(e, 0, sizeof(*e));
	for (int p = 0; p < EFF_COUNT; p++)
		eff_set(e, p, eff_params[p].def, EFF_LAYER_DEFAULT);
	strcpy(e->source, "traincost defaults: fitted to vTrain A100 SXM "
	       "measurements and NCCL all-reduce curves (docs/model.md)");
}

int eff_measured(const struct roof_eff *e, enum eff_id p)
{
	assert((int)p >= 0 && p < EFF_COUNT);
	return e->layer[p] == EFF_LAYER_GPU || e->layer[p] == EFF_LAYER_CALIBRATION;
}

int eff_stack_same(const struct eff_stack *a, const struct eff_stack *b)
{
	if (strcmp(a->id, b->id) || a->set != b->set || a->fitted_runs != b->fitted_runs ||
	    strcmp(a->pooled_from, b->pooled_from))
		return 0;
	/* up to the highest value set: every estimate asserts this */
	for (int p = 0; p < EFF_COUNT && (a->set >> p); p++)
		if ((a->set & (1ULL << p)) && a->value[p] != b->value[p])
			return 0;
	return 1;
}

int eff_calibrated(const struct roof_eff *e)
{
	for (int p = 0; p < EFF_COUNT; p++)
		if (e->layer[p] == EFF_LAYER_CALIBRATION)
			return 1;
	return 0;
}

void eff_scaled(const struct roof_eff *base, double s, struct roof_eff *out)
{
	*out = *base;
	for (int p = 0; p < EFF_COUNT; p++) {
		double *x = eff_ref(out, p);
		if (eff_params[p].role == EFF_RATE && p < CAL_PARAM_COUNT)
			*x /= s;
		else if (eff_params[p].role == EFF_TIME)
			*x *= s;
	}
}

/* The calibration layer of eff_resolve(). */
static void eff_calibrate(struct roof_eff *e, const char *gpu_id, const struct eff_calibration *c)
{
	int transfer = strcmp(c->gpu, gpu_id) != 0;
	struct roof_eff s = *e;

	if (c->scale_mode) /* what the fit did not name moves with the scale */
		eff_scaled(e, c->scale, &s);
	for (int p = 0; p < EFF_COUNT; p++) {
		double v = eff_get(&s, p);
		if (p < CAL_PARAM_COUNT && !transfer) {
			v = eff_get(&c->after, p);
		} else if (p < CAL_PARAM_COUNT && !c->scale_mode) {
			if (!(c->fitted_mask & CAL_BIT(p)))
				continue;
			double b = eff_get(&c->before, p), a = eff_get(&c->after, p);
			v = b > 0 ? eff_get(e, p) * a / b : a;
		}
		if (transfer && eff_params[p].kind == EFF_FRAC && v > eff_params[p].hi)
			v = eff_params[p].hi;
		if (v != eff_get(e, p))
			eff_set(e, p, v, EFF_LAYER_CALIBRATION);
	}
	snprintf(e->source, sizeof(e->source), "calibrated from %s (%zu measurement%s on %s%s)",
		 c->fitted_from, c->measurements, c->measurements == 1 ? "" : "s", c->gpu,
		 transfer ? ", carried over as ratios to the defaults" : "");
}

void eff_resolve(struct roof_eff *e, const char *gpu_id, const struct eff_stack *stack,
		 const struct eff_calibration *cal)
{
	assert(e && gpu_id);
	if (cal)
		eff_calibrate(e, gpu_id, cal);
	if (!stack || eff_calibrated(e)) /* the framework layer drops whole */
		return;
	for (int p = 0; p < EFF_COUNT; p++)
		if (stack->set & (1ULL << p))
			eff_set(e, p, stack->value[p], EFF_LAYER_FRAMEWORK);
}

/* GPU files parse the keys with one 64-bit mask (io/fields.h), `source`
 * included. */
_Static_assert(EFF_COUNT + 1 <= 64, "too many efficiency parameters for one key table");
