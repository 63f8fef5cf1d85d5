// SPDX-License-Identifier: GPL-2.0
/*
 * The wait side of a pull (wait.h, docs/design.md "The wait side").  A pull is a censored
 * observation of the wait it cut short: the task had waited w and would have waited longer,
 * by an amount nobody saw.  The waits that did end in a run on their own CPU give, with the
 * censored ones, a life-table estimate of how long waits last; the mean of what is left of a
 * wait that has reached w is what a pull at that point saves.  The refused pull has no
 * tracepoint: this is the estimate of what it would have cost.
 *
 * The gain of a pull at age a is G(a) = the wait it saves - the refill it costs there (the
 * fitted migration cost of the run's own pulls).  Where G turns from negative to positive
 * is T*, the threshold at which a pull starts to pay; its interval combines the refill's
 * bootstrap interval with the wait's, resampled (conservative: the ends pair the wait's low
 * end with the refill's high one, and the other way).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decay.h"
#include "hist.h"
#include "wait.h"

/* Resamples of the wait histograms for the wait's interval: Poisson counts, fixed seed. */
#define WAIT_RESAMPLES 400

/* The mean time spent in a slot of length len by what leaves it at a constant rate lam. */
static double mean_exit(double lam, double len)
{
	return lam * len < 1e-9 ? len / 2 : 1 / lam - len / expm1(lam * len);
}

/* The hazard of one slot: n reached it, done ended there, cut were cut short there. */
static double slot_hazard(double n, double done, double cut, double len)
{
	double out = done + cut, stay = n - out, lam = 0, exposure = 0;

	if (n <= 0 || !done)
		return 0;
	/* the rate of leaving the slot and the time spent in it depend on each other */
	for (int it = 0; it < 60; it++) {
		double next;

		exposure = stay * len + out * mean_exit(lam, len);
		next = exposure > 0 ? out / exposure : 0;
		if (fabs(next - lam) <= 1e-12 * next)
			break;
		lam = next;
	}
	exposure = stay * len + out * mean_exit(lam, len);
	return exposure > 0 ? done / exposure : 0;
}

void wait_life(const __u64 *done, const __u64 *cut, struct wait_life *l)
{
	double at_risk = 0;

	memset(l, 0, sizeof(*l));
	l->last = -1;
	for (int k = 0; k < MT_HIST_SLOTS; k++) {
		l->edge_ns[k] = (double)hist_slot_low_us(k) * 1e3;
		l->done += done[k];
		l->cut += cut[k];
		at_risk += (double)(done[k] + cut[k]);
		if (done[k] || cut[k])
			l->last = k;
	}
	l->edge_ns[MT_HIST_SLOTS] = 2 * l->edge_ns[MT_HIST_SLOTS - 1];
	l->surv[0] = 1;
	for (int k = 0; k < MT_HIST_SLOTS; k++) {
		double len = l->edge_ns[k + 1] - l->edge_ns[k];

		l->hazard[k] = slot_hazard(at_risk, (double)done[k], (double)cut[k], len);
		l->surv[k + 1] = l->surv[k] * exp(-l->hazard[k] * len);
		at_risk -= (double)(done[k] + cut[k]);
	}
}

double wait_residual(const struct wait_life *l, double w_ns)
{
	double area = 0, sw = NAN;

	if (!l->done)
		return NAN;
	for (int k = 0; k <= l->last; k++) {
		double a = l->edge_ns[k], b = l->edge_ns[k + 1], h = l->hazard[k];
		double sa = l->surv[k];

		if (b <= w_ns)
			continue;
		if (a < w_ns) {
			/* the slot w lies in: start there */
			sa *= exp(-h * (w_ns - a));
			a = w_ns;
		}
		if (isnan(sw))
			sw = sa;
		/* the survival falls exponentially within a slot */
		area += h > 0 ? sa * -expm1(-h * (b - a)) / h : sa * (b - a);
	}
	return sw > 0 ? area / sw : NAN;
}

static int cmp_double_asc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/* A Poisson draw of mean m (Knuth's for small means, a normal approximation for large). */
static __u64 poisson(double m, uint64_t *seed)
{
	double u, p = 1, limit = exp(-m);
	__u64 k = 0;

	if (m > 30) {
		double u1 = ((double)(rnd(seed) >> 11) + 1) / 9007199254740993.0;
		double u2 = (double)(rnd(seed) >> 11) / 9007199254740992.0;
		double z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);

		return (__u64)fmax(0, llround(m + z * sqrt(m)));
	}
	do {
		u = (double)(rnd(seed) >> 11) / 9007199254740992.0;
		p *= u;
		k++;
	} while (p > limit);
	return k - 1;
}

/*
 * The mean wait a cell's pulls avoided: each at the wait it had reached.  level >= 0: only
 * the pulls between CPUs of that topology level.  NAN: no pull.
 */
static double cell_wait(const struct run *r, const struct corr_cell *cl,
			const struct wait_life *l, int level)
{
	double sum = 0, hi = cl->age_hi_ns > cl->age_ns ? cl->age_hi_ns : INFINITY;
	int n = 0;

	for (size_t i = 0; i < r->nrecs; i++) {
		const struct mt_migrate *m = &r->recs[i];
		double res;

		if (m->cause != MT_CAUSE_LB_PULL || !(m->flags & MT_RF_WAIT_VALID) ||
		    !(m->flags & MT_RF_KAGE_VALID) || (double)m->kernel_age_ns < cl->age_ns ||
		    (double)m->kernel_age_ns >= hi)
			continue;
		if (level >= 0 && run_topo_level(&r->topo, m->src_cpu, m->dst_cpu) != (unsigned)level)
			continue;
		res = wait_residual(l, (double)m->wait_ns);
		if (isfinite(res)) {
			sum += res;
			n++;
		}
	}
	return n ? sum / n : NAN;
}

/*
 * Where the gain g[0..n) (over ages x) turns from below 0 to 0 or above: interpolated on
 * log(x).  CORR_HOT_FOUND; CORR_HOT_NO_COST when it is never below 0 (a pull pays at every
 * age: any positive threshold costs latency); CORR_HOT_ABOVE when still below 0 at the last
 * age; CORR_HOT_NO_DATA when n is 0.
 */
static enum corr_hot_state gain_turn(const double *x, const double *g, int n, double *at)
{
	int last = -1;

	if (!n)
		return CORR_HOT_NO_DATA;
	for (int i = 0; i < n; i++)
		if (g[i] < 0)
			last = i;
	if (last < 0) {
		*at = x[0];
		return CORR_HOT_NO_COST;
	}
	if (last == n - 1) {
		*at = x[n - 1];
		return CORR_HOT_ABOVE;
	}
	*at = exp(log(x[last]) + (-g[last]) / (g[last + 1] - g[last]) *
		  (log(x[last + 1]) - log(x[last])));
	return CORR_HOT_FOUND;
}

/*
 * A crossing as an end of T*'s interval (upper: the high end) where it lies outside the ages:
 * past the oldest, the lower end is the oldest age (a bound: the truth is above it) and the
 * upper one open (+inf); before the youngest, the lower end is open (0) and the upper one the
 * youngest age.  Never +inf at the lower end, which a run file cannot hold apart from NaN.
 */
static double as_bound(enum corr_hot_state st, double at, const double *x, int n, bool upper)
{
	if (!n)
		return NAN;
	if (st == CORR_HOT_ABOVE)
		return upper ? INFINITY : x[n - 1];
	if (st == CORR_HOT_NO_COST)
		return upper ? x[0] : 0;
	return st == CORR_HOT_FOUND ? at : x[0];
}

void wait_decide(const struct run *r, struct corr_result *c, struct verdict *v, int level)
{
	double x[CORR_MAX_CELLS], g[CORR_MAX_CELLS], glo[CORR_MAX_CELLS], ghi[CORR_MAX_CELLS];
	double wlo[CORR_MAX_CELLS], whi[CORR_MAX_CELLS], boot[WAIT_RESAMPLES];
	int idx[CORR_MAX_CELLS], n = 0;
	struct wait_life l, lb;
	uint64_t seed = 0x2545f4914f6cdd1dULL;
	__u64 done[MT_HIST_SLOTS], cut[MT_HIST_SLOTS];
	enum corr_hot_state st;

	v->tstar_state = CORR_HOT_NO_DATA;
	v->tstar_ns = v->tstar_lo_ns = v->tstar_hi_ns = NAN;
	v->wait_at_kernel_ns = v->refill_at_kernel_ns = NAN;
	for (int k = 0; k < c->ncells; k++)
		c->cells[k].wait_avoided_ns = c->cells[k].gain_ns = c->cells[k].gain_lo_ns =
			c->cells[k].gain_hi_ns = NAN;
	/* natural or probed: the pulls' waits against a refill measured by age */
	if (c->mode != CORR_NATURAL && c->mode != CORR_PROBED)
		return;
	wait_life(r->hists.runwait, r->hists.runwait_pulled, &l);
	if (!l.done)
		return;
	/* the cells where both sides are known: the pulls' refill (the fit) and their wait */
	for (int k = 0; k < c->ncells; k++) {
		struct corr_cell *cl = &c->cells[k];

		cl->wait_avoided_ns = cell_wait(r, cl, &l, level);
		if (!isfinite(cl->wait_avoided_ns) || !isfinite(cl->fit_cost_ns))
			continue;
		cl->gain_ns = cl->wait_avoided_ns - cl->fit_cost_ns;
		idx[n] = k;
		x[n] = fmax(corr_cell_age(c, k), 1);
		g[n++] = cl->gain_ns;
	}
	st = gain_turn(x, g, n, &v->tstar_ns);
	v->tstar_state = st;
	if (st == CORR_HOT_NO_DATA)
		return;
	/* the wait's interval, per cell, from Poisson resamples of the two histograms */
	for (int i = 0; i < n; i++) {
		for (int b = 0; b < WAIT_RESAMPLES; b++) {
			for (int k = 0; k < MT_HIST_SLOTS; k++) {
				done[k] = poisson((double)r->hists.runwait[k], &seed);
				cut[k] = poisson((double)r->hists.runwait_pulled[k], &seed);
			}
			wait_life(done, cut, &lb);
			boot[b] = cell_wait(r, &c->cells[idx[i]], &lb, level);
		}
		qsort(boot, WAIT_RESAMPLES, sizeof(boot[0]), cmp_double_asc);
		wlo[i] = boot[(int)(0.025 * WAIT_RESAMPLES)];
		whi[i] = boot[(int)(0.975 * WAIT_RESAMPLES) - 1];
		/* the gain's ends pair the wait's ends with the refill's opposite ends */
		glo[i] = wlo[i] - c->cells[idx[i]].cost_hi_ns;
		ghi[i] = whi[i] - c->cells[idx[i]].cost_lo_ns;
		c->cells[idx[i]].gain_lo_ns = glo[i];
		c->cells[idx[i]].gain_hi_ns = ghi[i];
	}
	/* T* at its earliest where the gain is at its highest, at its latest where lowest */
	st = gain_turn(x, ghi, n, &v->tstar_lo_ns);
	v->tstar_lo_ns = as_bound(st, v->tstar_lo_ns, x, n, false);
	st = gain_turn(x, glo, n, &v->tstar_hi_ns);
	v->tstar_hi_ns = as_bound(st, v->tstar_hi_ns, x, n, true);
	/* at the kernel's value: what a pull saves and what it costs there */
	if (v->kernel_ns > 0) {
		double xs[CORR_MAX_CELLS], ws[CORR_MAX_CELLS], cs[CORR_MAX_CELLS];

		for (int i = 0; i < n; i++) {
			xs[i] = x[i];
			ws[i] = c->cells[idx[i]].wait_avoided_ns;
			cs[i] = c->cells[idx[i]].fit_cost_ns;
		}
		v->wait_at_kernel_ns = decay_at(xs, ws, n, v->kernel_ns);
		v->refill_at_kernel_ns = decay_at(xs, cs, n, v->kernel_ns);
	}
}

void wait_judge(struct run *r)
{
	if (r->has_corr && r->has_verdict)
		wait_decide(r, &r->corr, &r->verdict, -1);
}
