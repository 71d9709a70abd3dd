/*
 * fit_defaults.c - reproduce the fitted defaults of eff_default().
 *
 *   cc -std=c11 -O2 -Isrc tools/fit_defaults.c BUILD/libtraincost.a \
 *      $(pkg-config --libs gsl) -lm -o fit_defaults
 *   ./fit_defaults DIR_WITH_NCCL_CSVS tests/validation/vtrain-a100.csv \
 *      [tests/validation/megatron-2021.csv]
 *
 * 1. Collectives: comm_frac, comm_latency_s, comm_half_bytes by non-linear
 *    least squares on log(predicted / measured) all-reduce time, NCCL on 2,
 *    4 and 8 A100 SXM GPUs (vTrain a100_allreduce_{2,4,8}gpu.csv, both runs
 *    averaged), link 300 GB/s per direction (NVLink 3, 600 GB/s both).
 * 2. Kernels: gemm_max_frac, gemm_half_flop, mem_frac, launch_s and
 *    launch_overlap_frac on log(predicted / measured) iteration time of the
 *    even-numbered vTrain rows; the odd rows are held out.  Parameters are
 *    mapped to unbounded variables (logit for fractions, log for scales).
 * Prints the fitted values and the errors (fit half, held-out half, all,
 * and the extra case file when given).  Method: gsl_multifit_nlinear,
 * trust region with Levenberg-Marquardt steps, finite-difference Jacobian.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>

#include "io/gpu_load.h"
#include "io/val_load.h"
#include "model/core/comm.h"
#include "model/core/roofline.h"
#include "model/analyses/validate.h"

#define MAX_PTS 4096

static double logit(double x) { return log(x / (1 - x)); }
static double sigm(double y) { return 1 / (1 + exp(-y)); }

/* --- collectives ------------------------------------------------------ */

struct nccl_pts {
	int n;
	int ranks[MAX_PTS];
	double bytes[MAX_PTS], time_s[MAX_PTS];
};

static int read_nccl(const char *path, int ranks, struct nccl_pts *P)
{
	FILE *f = fopen(path, "r");
	char line[512];
	if (!f) {
		fprintf(stderr, "%s: cannot read\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		double sz, cnt, t1, bw1, t2, bw2;
		char type[32];
		if (sscanf(line, "%lf,%lf,%31[^,],%lf,%lf,%lf,%lf", &sz, &cnt,
			   type, &t1, &bw1, &t2, &bw2) != 7 || P->n >= MAX_PTS)
			continue;
		P->ranks[P->n] = ranks;
		P->bytes[P->n] = sz;
		P->time_s[P->n] = 0.5 * (t1 + t2) * 1e-9;
		P->n++;
	}
	fclose(f);
	return 0;
}

static void comm_params(const gsl_vector *x, struct roof_eff *e)
{
	eff_default(e);
	e->comm_frac = sigm(gsl_vector_get(x, 0));
	e->comm_latency_s = exp(gsl_vector_get(x, 1));
	e->comm_half_bytes = exp(gsl_vector_get(x, 2));
}

#define NVLINK_DIR 300e9

static int comm_f(const gsl_vector *x, void *data, gsl_vector *f)
{
	const struct nccl_pts *P = data;
	struct roof_eff e;
	int i;
	comm_params(x, &e);
	for (i = 0; i < P->n; i++) {
		double t = comm_flat_s(&e, NVLINK_DIR, 0, COLL_ALLREDUCE,
				       P->ranks[i], P->bytes[i]);
		gsl_vector_set(f, i, log(t / P->time_s[i]));
	}
	return GSL_SUCCESS;
}

/* --- iteration times -------------------------------------------------- */

struct vt_data {
	const struct val_set *set;
	size_t stride, phase;
	struct roof_eff comm;   /* fitted collectives, kept fixed */
	struct val_result *res;
	size_t nres;
};

/* The kernel values of step 2: a fraction (fitted as its logit) or a
 * scale (as its log), from a fixed starting point; a value held keeps
 * its shipped default (--hold) or the one given (--gemm-max). */
static struct kparam {
	const char *name;
	size_t off;
	int frac;
	double start;
	int held;
	double value;
} kpar[] = {
	{ "gemm_max_frac", offsetof(struct roof_eff, gemm_max_frac), 1, 0.8, 0, 0 },
	{ "gemm_half_flop", offsetof(struct roof_eff, gemm_half_flop), 0, 2e8, 0, 0 },
	{ "mem_frac", offsetof(struct roof_eff, mem_frac), 1, 0.8, 0, 0 },
	{ "launch_s", offsetof(struct roof_eff, launch_s), 0, 1e-5, 0, 0 },
	{ "launch_overlap_frac", offsetof(struct roof_eff, launch_overlap_frac), 1, 0.1, 0, 0 },
};
#define NKPAR (sizeof(kpar) / sizeof(kpar[0]))

static double *kslot(struct roof_eff *e, size_t i)
{
	return (double *)((char *)e + kpar[i].off);
}

static void kern_params(const gsl_vector *x, const struct roof_eff *comm,
			struct roof_eff *e)
{
	size_t i, j = 0;
	*e = *comm;
	for (i = 0; i < NKPAR; i++) {
		double y = kpar[i].held ? 0 : gsl_vector_get(x, j++);
		*kslot(e, i) = kpar[i].held ? kpar[i].value :
			       kpar[i].frac ? sigm(y) : exp(y);
	}
}

/* Hold the named kernel value ("all" but one is not offered: name each). */
static int hold(const char *name, double value, int use_default)
{
	struct roof_eff def;
	size_t i;
	eff_default(&def);
	for (i = 0; i < NKPAR; i++)
		if (!strcmp(kpar[i].name, name)) {
			kpar[i].held = 1;
			kpar[i].value = use_default ? *kslot(&def, i) : value;
			return 0;
		}
	fprintf(stderr, "fit_defaults: no kernel value '%s'\n", name);
	return -1;
}

static struct roof_eff g_eff; /* what gpu_fit() hands out */

/* The case's GPU from the shipped catalog (run from the repository root),
 * with the efficiencies being fitted. */
static int gpu_fit(const char *id, struct gpu *out, void *ctx)
{
	struct tc_diag d;
	(void)ctx;
	tc_diag_init(&d);
	if (gpu_load_id("models/gpu", id, out, &d))
		return -1;
	out->eff = g_eff;
	return 0;
}

static int vt_f(const gsl_vector *x, void *data, gsl_vector *f)
{
	struct vt_data *D = data;
	size_t i;
	kern_params(x, &D->comm, &g_eff);
	if (val_run(D->set->cases, D->set->count, NULL, D->stride, D->phase,
		    gpu_fit, NULL, D->res, &D->nres))
		return GSL_ENOMEM;
	for (i = 0; i < D->nres; i++)
		gsl_vector_set(f, i, D->res[i].ok ?
			       log(D->res[i].predicted / D->res[i].measured) :
			       10.0);
	return GSL_SUCCESS;
}

static int fit(gsl_multifit_nlinear_fdf *fdf, gsl_vector *x0, size_t n)
{
	const gsl_multifit_nlinear_type *T = gsl_multifit_nlinear_trust;
	gsl_multifit_nlinear_parameters par =
		gsl_multifit_nlinear_default_parameters();
	gsl_multifit_nlinear_workspace *w;
	int info, st;

	fdf->n = n;
	w = gsl_multifit_nlinear_alloc(T, &par, n, fdf->p);
	if (!w)
		return -1;
	st = gsl_multifit_nlinear_init(x0, fdf, w);
	if (st == GSL_SUCCESS)
		st = gsl_multifit_nlinear_driver(200, 1e-8, 1e-8, 1e-8, NULL,
						 NULL, &info, w);
	if (st == GSL_SUCCESS || st == GSL_EMAXITER)
		gsl_vector_memcpy(x0, w->x);
	fprintf(stderr, "fit: status %s after %zu iterations\n",
		gsl_strerror(st), gsl_multifit_nlinear_niter(w));
	gsl_multifit_nlinear_free(w);
	return st == GSL_SUCCESS || st == GSL_EMAXITER ? 0 : -1;
}

static void report(const char *what, const struct val_set *s, size_t stride,
		   size_t phase, struct val_result *res)
{
	size_t n;
	struct val_stats st;
	if (val_run(s->cases, s->count, NULL, stride, phase, gpu_fit, NULL,
		    res, &n) || val_stats_compute(res, n, &st)) {
		printf("%s: failed\n", what);
		return;
	}
	printf("%-22s n %4zu  MAPE %6.2f%%  median %6.2f%%  worst %6.2f%% "
	       "(%s)  bias %+6.2f%%  failed %zu\n", what, st.n, 100 * st.mape,
	       100 * st.median_ape, 100 * st.worst_ape,
	       st.n ? s->cases[res[st.worst].index].id : "-", 100 * st.bias,
	       st.failed);
}

int main(int argc, char **argv)
{
	static struct nccl_pts P;
	struct val_set set, extra;
	struct tc_diag d;
	struct vt_data D;
	gsl_multifit_nlinear_fdf fdf;
	gsl_vector *x;
	char path[1024];
	int k, i, check = 0;
	size_t j;

	gsl_set_error_handler_off();
	for (;;) {
		if (argc > 1 && !strcmp(argv[1], "--check")) {
			check = 1;
			argv++;
			argc--;
		} else if (argc > 2 && !strcmp(argv[1], "--gemm-max")) {
			hold("gemm_max_frac", atof(argv[2]), 0);
			argv += 2;
			argc -= 2;
		} else if (argc > 2 && !strcmp(argv[1], "--hold")) {
			if (hold(argv[2], 0, 1))
				return 2;
			argv += 2;
			argc -= 2;
		} else {
			break;
		}
	}
	if (argc < 3) {
		fprintf(stderr, "usage: fit_defaults [--check] [--gemm-max F] [--hold NAME]... NCCL_DIR "
			"VTRAIN_CSV [EXTRA_CSV]\n");
		return 2;
	}
	for (k = 2; k <= 8; k *= 2) {
		snprintf(path, sizeof(path), "%s/a100_allreduce_%dgpu.csv",
			 argv[1], k);
		if (read_nccl(path, k, &P))
			return 3;
	}
	tc_diag_init(&d);
	val_set_init(&set);
	val_set_init(&extra);
	if (val_load_file(argv[2], NULL, &set, &d) ||
	    (argc > 3 && val_load_file(argv[3], NULL, &extra, &d))) {
		for (i = 0; i < d.count; i++)
			fprintf(stderr, "%s\n", d.entry[i].msg);
		return 1;
	}

	/* 1. collectives */
	/* Fixed starting point, so the fit does not depend on the defaults
	 * it produces. */
	eff_default(&D.comm);
	x = gsl_vector_alloc(3);
	gsl_vector_set(x, 0, logit(0.77));
	gsl_vector_set(x, 1, log(5e-6));
	gsl_vector_set(x, 2, log(1e6));
	memset(&fdf, 0, sizeof(fdf));
	fdf.f = comm_f;
	fdf.p = 3;
	fdf.params = &P;
	if (!check && fit(&fdf, x, (size_t)P.n))
		return 4;
	comm_params(x, &D.comm);
	if (check)
		eff_default(&D.comm);
	{
		double s = 0, w = 0, r;
		for (i = 0; i < P.n; i++) {
			double t = comm_flat_s(&D.comm, NVLINK_DIR, 0,
					       COLL_ALLREDUCE, P.ranks[i],
					       P.bytes[i]);
			r = fabs(t / P.time_s[i] - 1);
			s += r;
			if (r > w)
				w = r;
		}
		printf("collectives: comm_frac %.4f comm_latency_s %.3e "
		       "comm_half_bytes %.4e  (%d points: MAPE %.2f%%, worst "
		       "%.2f%%)\n", D.comm.comm_frac, D.comm.comm_latency_s,
		       D.comm.comm_half_bytes, P.n, 100 * s / P.n, 100 * w);
	}
	gsl_vector_free(x);

	/* 2. kernels, on the even half */
	D.set = &set;
	D.stride = 2;
	D.phase = 0;
	D.res = calloc(set.count + extra.count + 1, sizeof(*D.res));
	if (!D.res)
		return 4;
	for (j = 0, k = 0; j < NKPAR; j++)
		k += !kpar[j].held;
	if (k == 0) {
		fprintf(stderr, "fit_defaults: every kernel value is held\n");
		return 2;
	}
	x = gsl_vector_alloc((size_t)k);
	for (j = 0, k = 0; j < NKPAR; j++)
		if (!kpar[j].held)
			gsl_vector_set(x, (size_t)k++, kpar[j].frac ?
				       logit(kpar[j].start) :
				       log(kpar[j].start));
	fdf.f = vt_f;
	fdf.p = x->size;
	fdf.params = &D;
	if (!check && fit(&fdf, x, (set.count + 1) / 2))
		return 4;
	kern_params(x, &D.comm, &g_eff);
	if (check)
		eff_default(&g_eff);
	printf("kernels: gemm_max_frac %.4f gemm_half_flop %.4e mem_frac %.4f "
	       "launch_s %.4e launch_overlap_frac %.4f\n", g_eff.gemm_max_frac,
	       g_eff.gemm_half_flop, g_eff.mem_frac, g_eff.launch_s,
	       g_eff.launch_overlap_frac);
	report("vtrain fit (even)", &set, 2, 0, D.res);
	report("vtrain held-out (odd)", &set, 2, 1, D.res);
	report("vtrain all", &set, 1, 0, D.res);
	if (extra.count) {
		report(argv[3], &extra, 1, 0, D.res);
		val_run(extra.cases, extra.count, NULL, 1, 0, gpu_fit, NULL,
			D.res, &j);
		for (j = 0; j < extra.count; j++)
			printf("  %-34s measured %10.4g predicted %10.4g "
			       "error %+6.1f%% %s\n",
			       extra.cases[D.res[j].index].id,
			       D.res[j].measured, D.res[j].predicted,
			       100 * D.res[j].err_frac, D.res[j].msg);
	}
	gsl_vector_free(x);
	free(D.res);
	val_set_release(&set);
	val_set_release(&extra);
	return 0;
}
