// SPDX-License-Identifier: GPL-2.0
/* The sweep's summary per value (sweep.h): medians over repetitions, the best value. */
#include <string.h>

#include "stats.h"
#include "sweep_summary.h"

/* The value with the highest median throughput, and the runner-up.  -1: none. */
static void best_of(struct sweep *s)
{
	const struct sweep_value *sv = s->sv;

	s->best = s->second = -1;
	for (int i = 0; i < s->nvalues; i++) {
		if (!sv[i].n)
			continue;
		if (s->best < 0 || sv[i].tmed > sv[s->best].tmed) {
			s->second = s->best;
			s->best = i;
		} else if (s->second < 0 || sv[i].tmed > sv[s->second].tmed) {
			s->second = i;
		}
	}
}

/* The median over v[0..n) that are >= 0 (-1: unknown); v is reordered. */
static double median_known(double *v, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		if (v[i] >= 0)
			v[k++] = v[i];
	return k ? median_inplace(v, (size_t)k) : -1;
}

/*
 * T* against the sweep: the median of the runs' own T*, and whether it lies between the
 * best values, those whose best run reaches the best value's worst (within its noise).
 */
static void tstar_of(struct sweep *s)
{
	double ts[SWEEP_MAX_VALUES * SWEEP_MAX_REPS];
	const struct sweep_value *b;
	int n = 0;

	s->tstar_ns = -1;
	s->tstar_runs = 0;
	s->tstar_in_best = -1;
	s->best_lo = s->best_hi = 0;
	for (int i = 0; i < s->nruns && n < (int)(sizeof(ts) / sizeof(ts[0])); i++)
		if (s->runs[i].tstar_ns >= 0)
			ts[n++] = s->runs[i].tstar_ns;
	s->tstar_runs = n;
	if (n)
		s->tstar_ns = median_inplace(ts, (size_t)n);
	if (s->best < 0)
		return;
	b = &s->sv[s->best];
	s->best_lo = s->best_hi = b->value;
	for (int v = 0; v < s->nvalues; v++) {
		const struct sweep_value *x = &s->sv[v];

		if (!x->n || x->tmax < b->tmin)
			continue;
		s->best_lo = x->value < s->best_lo ? x->value : s->best_lo;
		s->best_hi = x->value > s->best_hi ? x->value : s->best_hi;
	}
	/* T* is a time: against the values only when they are the migration cost's */
	if (s->tstar_ns >= 0 && s->in_ns)
		s->tstar_in_best = s->tstar_ns >= (double)s->best_lo &&
				   s->tstar_ns <= (double)s->best_hi;
}

void sweep_summarize(struct sweep *s)
{
	double t[SWEEP_MAX_REPS], idle[SWEEP_MAX_REPS], base;
	double w50[SWEEP_MAX_REPS], w99[SWEEP_MAX_REPS], q50[SWEEP_MAX_REPS], q99[SWEEP_MAX_REPS];

	s->schedstats = s->schedstats_orig >= 0;
	/* the kernel's per-task counts mean nothing on a kernel without schedstats */
	for (int i = 0; i < s->nruns; i++) {
		s->runs[i].witness = s->runs[i].witness && s->schedstats;
		s->runs[i].in_ns = s->in_ns;
	}
	for (int v = 0; v < s->nvalues; v++) {
		struct sweep_value *x = &s->sv[v];
		int ni = 0;

		memset(x, 0, sizeof(*x));
		x->value = s->values[v];
		x->in_ns = s->in_ns;
		x->unit = s->nruns ? s->runs[0].tput.unit : "";
		x->source = s->nruns ? s->runs[0].tput.source : "";
		for (int i = 0; i < s->nruns; i++) {
			const struct sweep_run *sr = &s->runs[i];

			if (sr->value != x->value || x->n == SWEEP_MAX_REPS)
				continue;
			w50[x->n] = sr->wake_p50_us;
			w99[x->n] = sr->wake_p99_us;
			q50[x->n] = sr->wait_p50_us;
			q99[x->n] = sr->wait_p99_us;
			t[x->n++] = sr->tput.value;
			if (sr->idle_pct >= 0)
				idle[ni++] = sr->idle_pct;
			x->lb_judged += sr->lb_judged;
			x->lb_hot += sr->lb_hot;
			x->failed_hot += sr->failed_hot;
			x->forced += sr->forced;
			x->lb_hot_gained += sr->lb_hot_gained;
			x->witness = x->witness || sr->witness;
			x->has_gained = x->has_gained || sr->has_lb_hot_gained;
			for (int c = 0; c < MT_NR_CAUSES; c++) {
				x->by_cause[c] += sr->migrations[c];
				x->migrations += sr->migrations[c];
			}
		}
		if (x->n) {
			x->tmed = median_inplace(t, (size_t)x->n);	/* sorts t */
			x->tmin = t[0];
			x->tmax = t[x->n - 1];
		}
		x->idle_med = ni ? median_inplace(idle, (size_t)ni) : -1;
		x->wake_p50_us = median_known(w50, x->n);
		x->wake_p99_us = median_known(w99, x->n);
		x->wait_p50_us = median_known(q50, x->n);
		x->wait_p99_us = median_known(q99, x->n);
	}
	base = s->nvalues ? s->sv[0].tmed : 0;
	for (int v = 0; v < s->nvalues; v++) {
		s->sv[v].normalised = base > 0 ? s->sv[v].tmed / base : 0;
		s->sv[v].has_normalised = s->sv[v].n && base > 0;
	}
	for (int i = 0; i < s->nruns; i++) {
		s->runs[i].has_normalised = base > 0;
		s->runs[i].normalised = base > 0 ? s->runs[i].tput.value / base : 0;
	}
	best_of(s);
	tstar_of(s);
}

bool sweep_best_beyond_noise(const struct sweep *s)
{
	return s->best >= 0 && s->second >= 0 && s->sv[s->best].n > 1 &&
	       s->sv[s->best].tmin > s->sv[s->second].tmax;
}
