/*
 * planner.c - search over GPU types and counts (planner.h).
 *
 * Pruning: counts that no layout can use are never tried (planner_counts);
 * per count, search_best_at prunes by memory and dominance (search.c).  The
 * result equals the search over every count 1..max (tests/unit/test_search.c).
 */
#include "planner.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>

#include "../../util/intmath.h"
#include "../../util/pool.h"
#include "../types/network.h"
#include "../families/llm.h"

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int planner_counts(const struct workload *w, int gpus_per_node, int max,
		   int *out, int cap)
{
	int tps[64], pps[256], dps[2048], ntp = 1, npp = 1, ndp, n = 0;
	tps[0] = pps[0] = 1;
	if (w->kind == WL_LLM) {
		long a = w->llm.heads, kv = w->llm.kv_heads > 0 ? w->llm.kv_heads : a;
		/* tensor parallelism splits both the heads and the KV heads */
		ntp = tc_divisors(tc_gcd(a, kv), gpus_per_node, tps, 64);
		npp = tc_divisors(w->llm.layers, max, pps, 256);
	}
	ndp = tc_divisors((long)w->train.global_batch, max, dps, 2048);
	char *seen = calloc((size_t)max + 1, 1);
	if (!seen)
		return 0;
	for (int i = 0; i < ntp; i++)
		for (int j = 0; j < npp; j++)
			for (int k = 0; k < ndp; k++) {
				long c = (long)tps[i] * pps[j] * dps[k];
				if (c <= max)
					seen[c] = 1;
			}
	for (int c = 1; c <= max && n < cap; c++)
		if (seen[c])
			out[n++] = c;
	free(seen);
	qsort(out, (size_t)n, sizeof(*out), cmp_int);
	return n;
}

/* One (GPU type, network, count) to search, and its result. */
struct pitem {
	int gpu, count;
	const char *net;          /* a network of in->nets; NULL: the plan's own */
	int ok;
	struct plan_point pt;
	struct plan_problem why;
};

/* The indices 0 .. n-1 handed to the worker threads one at a time, and
 * whether one of them ran out of memory. */
struct work_queue {
	pthread_mutex_t mu;
	size_t n, next;
	int oom;
};

/* The next index to work on into *k: 1, or 0 when none is left. */
static int queue_take(struct work_queue *q, size_t *k)
{
	pthread_mutex_lock(&q->mu);
	*k = q->next++;
	pthread_mutex_unlock(&q->mu);
	return *k < q->n;
}

static void queue_oom(struct work_queue *q)
{
	pthread_mutex_lock(&q->mu);
	q->oom = 1;
	pthread_mutex_unlock(&q->mu);
}

struct pshared {
	const struct planner_in *in;
	struct pitem *items;
	size_t *order;            /* items by descending count */
	struct work_queue q;      /* of items */
};

/* Search items until none is left. */
static void *pworker(void *arg)
{
	struct pshared *S = arg;
	const struct planner_in *in = S->in;
	struct est_workspace ws = { 0 };
	struct workload *w = malloc(sizeof(*w));
	struct workload *bw = malloc(sizeof(*bw));
	struct estimate *be = malloc(sizeof(*be));
	int last_gpu = -1;
	const char *last_net = NULL;
	if (!w || !bw || !be || est_workspace_init(&ws, EST_MAX_OPS)) {
		queue_oom(&S->q);
		goto out;
	}
	for (size_t k; queue_take(&S->q, &k);) {
		/* Largest counts first: they take longest, so the threads end
		 * together.  Results stay at their index. */
		size_t i = S->order[k];
		struct pitem *it = &S->items[i];
		const struct gpu *g = &in->gpus[it->gpu];
		if (it->gpu != last_gpu || it->net != last_net) {
			*w = *in->w;
			snprintf(w->plan.gpu, sizeof(w->plan.gpu), "%s", g->id);
			w->plan.gpus_per_node = in->w->plan.gpus_per_node > 0 ?
				in->w->plan.gpus_per_node : gpu_node_size(g);
			if (it->net)
				wl_set_network(&w->plan, net_find(it->net));
			last_gpu = it->gpu;
			last_net = it->net;
		}
		if (search_best_at(w, g, it->count, &in->knobs, &ws, bw, be, &it->why))
			continue;
		struct plan_priced pr = { 0, be->total_time_s, be->total_time_s, "", "", NULL, NULL, 0 };
		if (in->price(in->price_ctx, g, bw, be, &pr))
			continue;
		struct plan_point *q = &it->pt;
		/* Over the offer's network the steps are as many and do as much
		 * work, each in time / steps: step time and MFU scale with it
		 * (interruptions redo steps; they do not slow them). */
		double scale = be->total_time_s > 0 ? pr.net_time_s / be->total_time_s : 1;
		q->gpu = it->gpu;
		q->plan = be->plan;
		q->recompute = bw->train.recompute;
		q->step_time_s = be->step_time_s * scale;
		q->total_time_s = pr.total_time_s;
		q->memory_per_gpu_bytes = be->memory_per_gpu_bytes;
		q->mfu_frac = be->mfu_frac / scale;
		q->cost_usd = pr.cost_usd;
		q->provider = pr.provider;
		q->instance = pr.instance;
		q->network = pr.network;
		q->caveat = pr.caveat;
		q->idle_gpus = pr.idle_gpus;
		it->ok = 1;
	}
out:
	est_workspace_release(&ws);
	free(w);
	free(bw);
	free(be);
	return NULL;
}

/* Order of work: descending count, then index (qsort is not stable). */
struct porder {
	int count;
	size_t index;
};

static int by_count_desc(const void *a, const void *b)
{
	const struct porder *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return (x->index > y->index) - (x->index < y->index);
}

/*
 * Run worker(arg), which takes its work from queue q, on the planner's
 * --jobs threads (tc_pool_size(): 0 is one per online processor), at most
 * `most`, this thread one of them; return when all are done.  A thread
 * that fails to start leaves its share of the items to the others.
 */
static void run_workers(const struct planner_in *in, int most,
			void *(*worker)(void *), void *arg,
			struct work_queue *q)
{
	struct tc_pool pool;

	pthread_mutex_init(&q->mu, NULL);
	tc_pool_start(&pool, tc_pool_size(in->jobs, most) - 1, worker, arg);
	worker(arg);
	tc_pool_join(&pool);
	pthread_mutex_destroy(&q->mu);
}

int planner_run(const struct planner_in *in, struct plan_point **pts,
		size_t *npts, struct plan_problem *closest)
{
	struct pshared S;
	int *counts = NULL;
	int rc = -1;

	memset(&S, 0, sizeof(S));
	S.in = in;
	*pts = NULL;
	*npts = 0;
	counts = malloc(sizeof(int) * ((size_t)in->max_gpus + 1));
	S.items = calloc((size_t)in->ngpus * ((size_t)in->max_gpus + 1) * (PLANNER_MAX_NETS + 1) + 1,
			 sizeof(*S.items));
	if (!counts || !S.items)
		goto out;
	for (int gi = 0; gi < in->ngpus; gi++) {
		const struct gpu *g = &in->gpus[gi];
		int gpn = in->w->plan.gpus_per_node > 0 ? in->w->plan.gpus_per_node
							   : gpu_node_size(g);
		int nc;
		if (in->all_counts) {
			for (nc = 0; nc < in->max_gpus; nc++)
				counts[nc] = nc + 1;
		} else {
			nc = planner_counts(in->w, gpn, in->max_gpus, counts, in->max_gpus + 1);
		}
		int nn = in->nets ? in->nnets[gi] : 0;
		for (int ci = 0; ci < nc; ci++)
			for (int k = -1; k < nn; k++) {
				const char *net = k < 0 ? NULL : in->nets[gi][k];
				/* One node's plan does not cross a network; the plan's
				 * own is searched anyway. */
				if (net && (counts[ci] <= gpn || !strcmp(net, in->w->plan.network) ||
					    !net_find(net)))
					continue;
				S.items[S.q.n++] = (struct pitem){ .gpu = gi, .count = counts[ci],
								   .net = net };
			}
	}
	S.order = malloc((S.q.n + 1) * sizeof(*S.order));
	struct porder *po = malloc((S.q.n + 1) * sizeof(*po));
	if (!S.order || !po) {
		free(po);
		goto out;
	}
	for (size_t i = 0; i < S.q.n; i++)
		po[i] = (struct porder){ S.items[i].count, i };
	qsort(po, S.q.n, sizeof(*po), by_count_desc);
	for (size_t i = 0; i < S.q.n; i++)
		S.order[i] = po[i].index;
	free(po);
	run_workers(in, TC_POOL_MAX, pworker, &S, &S.q);
	if (S.q.oom)
		goto out;
	size_t n = 0;
	for (size_t i = 0; i < S.q.n; i++)
		n += S.items[i].ok;
	struct plan_point *p = malloc((n ? n : 1) * sizeof(*p));
	if (!p)
		goto out;
	n = 0;
	int have = 0;
	for (size_t i = 0; i < S.q.n; i++) {
		if (S.items[i].ok)
			p[n++] = S.items[i].pt;
		/* The largest count of the first GPU type that did not fit. */
		else if (closest && !have && strstr(S.items[i].why.msg, "fits memory") &&
			 (i + 1 == S.q.n || S.items[i + 1].gpu != S.items[i].gpu)) {
			*closest = S.items[i].why;
			have = 1;
		}
	}
	*pts = p;
	*npts = n;
	rc = 0;
out:
	free(counts);
	free(S.order);
	free(S.items);
	return rc;
}

void planner_pareto(const struct plan_point *p, size_t n, int *front)
{
	planner_pareto_ranked(p, n, PLAN_RISK_P50, front);
}

void planner_point_workload(const struct planner_in *in, const struct plan_point *p,
			    struct workload *out)
{
	const struct net_def *n = p->network ? net_find(p->network) : NULL;
	*out = *in->w;
	out->plan = p->plan;
	out->train.recompute = p->recompute;
	if (n)
		wl_set_network(&out->plan, n);
}

/* Points to sample, shared by the threads. */
struct sshared {
	const struct planner_in *in;
	struct plan_point *p;
	const char *want;
	const struct unc_spec *s;
	struct work_queue q;      /* of points */
};

/* Sample points until none is left. */
static void *sworker(void *arg)
{
	struct sshared *S = arg;
	const struct planner_in *in = S->in;
	struct unc_workspace ws;
	struct workload *w = malloc(sizeof(*w));
	if (!w || unc_workspace_init(&ws, S->s->samples)) {
		queue_oom(&S->q);
		free(w);
		return NULL;
	}
	for (size_t i; queue_take(&S->q, &i);) {
		struct plan_point *q = &S->p[i];
		if (!S->want[i])
			continue;
		const struct gpu *g = &in->gpus[q->gpu];
		struct unc_spec s = *S->s;
		struct plan_problem why;
		s.offer = NULL;
		s.billing = NULL;
		if (in->offer && in->offer(in->price_ctx, g, q, &s.offer, &s.billing)) {
			s.offer = NULL;
			s.billing = NULL;
		}
		planner_point_workload(in, q, w);
		q->sampled = unc_run(w, g, &s, &ws, &q->unc, &why) == 0;
	}
	unc_workspace_release(&ws);
	free(w);
	return NULL;
}

int planner_sample(const struct planner_in *in, struct plan_point *p, size_t n,
		   const char *want, const struct unc_spec *s)
{
	struct sshared S = { .in = in, .p = p, .want = want, .s = s,
			     .q = { .n = n } };
	size_t nwant = 0;

	assert(in && s && (n == 0 || (p && want)));
	for (size_t i = 0; i < n; i++) {
		p[i].sampled = 0;
		nwant += want[i] != 0;
	}
	if (!nwant)
		return 0;
	run_workers(in, nwant < TC_POOL_MAX ? (int)nwant : TC_POOL_MAX,
		    sworker, &S, &S.q);
	return S.q.oom ? -1 : 0;
}

int planner_ranked(const struct plan_point *p, enum plan_risk risk, double *time_s,
		   double *cost_usd)
{
	if (risk == PLAN_RISK_P50) {
		*time_s = p->total_time_s;
		*cost_usd = p->cost_usd;
		return 0;
	}
	if (!p->sampled || !p->unc.has_cost)
		return -1;
	/* the wall clock's when it was drawn: the run is judged on it */
	const struct unc_result *u = &p->unc;
	*time_s = u->has_wall ? u->wall_s.p90 : u->total_s.p90;
	*cost_usd = u->has_wall ? u->wall_usd.p90 : u->cost_usd.p90;
	return 0;
}

int planner_meets(const struct plan_point *p, enum plan_risk risk, double deadline_s,
		  double budget_usd)
{
	double t, c;
	if (planner_ranked(p, risk, &t, &c))
		return 0;
	return (!(deadline_s > 0) || t <= deadline_s) && (!(budget_usd > 0) || c <= budget_usd);
}

long planner_select(const struct plan_point *p, size_t n, enum plan_risk risk,
		    double deadline_s, double budget_usd, size_t *nmeets)
{
	int by_cost = deadline_s > 0 && !(budget_usd > 0);
	int by_time = budget_usd > 0 && !(deadline_s > 0);
	double bt = 0, bc = 0;
	long best = -1;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		double t = 0, c = 0;
		if (!planner_meets(&p[i], risk, deadline_s, budget_usd))
			continue;
		planner_ranked(&p[i], risk, &t, &c);
		k++;
		if (best < 0 || (by_cost && c < bc) || (by_time && t < bt)) {
			best = (long)i;
			bt = t;
			bc = c;
		}
	}
	if (nmeets)
		*nmeets = k;
	return best;
}

void planner_pareto_ranked(const struct plan_point *p, size_t n, enum plan_risk risk,
			   int *front)
{
	for (size_t i = 0; i < n; i++) {
		double ti = 0, ci = 0;
		front[i] = planner_ranked(&p[i], risk, &ti, &ci) == 0;
		for (size_t j = 0; j < n && front[i]; j++) {
			double tj = 0, cj = 0;
			if (j == i || planner_ranked(&p[j], risk, &tj, &cj))
				continue;
			int le = tj <= ti && cj <= ci;
			int lt = tj < ti || cj < ci;
			/* equal points: keep the first */
			int same = tj == ti && cj == ci;
			/* cheaper and barely slower: i's speed is not worth showing */
			int near = cj < ci && tj <= ti * (1 + PLAN_PARETO_TOL);
			if ((le && lt) || (same && j < i) || near)
				front[i] = 0;
		}
	}
}
