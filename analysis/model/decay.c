// SPDX-License-Identifier: GPL-2.0
/*
 * The monotone decay fit (decay.h).  A cost that falls as the cache is displaced has no
 * known shape (a step at a cache size on one machine, a slope over a range on another, a
 * floor where a shared cache keeps some lines), so the fit assumes only that more eviction
 * never makes a migration cheaper to refill after: the isotonic regression, which pools
 * neighbouring points that violate the order into their weighted mean.  Noise at large x
 * cannot extend the hot range by itself: a high point past the fall is pooled with the low
 * ones before it.
 */
#include <math.h>

#include "decay.h"

void decay_fit(const double *y, const double *w, int n, double *f)
{
	/* blocks as a stack: value, weight, and how many points each covers */
	double val[CORR_MAX_CELLS], wt[CORR_MAX_CELLS];
	int len[CORR_MAX_CELLS], nb = 0, k = 0;

	if (n > CORR_MAX_CELLS)
		n = CORR_MAX_CELLS;
	for (int i = 0; i < n; i++) {
		val[nb] = y[i];
		wt[nb] = w[i] > 0 ? w[i] : 1e-12;
		len[nb] = 1;
		nb++;
		/* non-increasing: a block above its predecessor is pooled with it */
		while (nb > 1 && val[nb - 1] > val[nb - 2]) {
			double ws = wt[nb - 2] + wt[nb - 1];

			val[nb - 2] = (val[nb - 2] * wt[nb - 2] + val[nb - 1] * wt[nb - 1]) / ws;
			wt[nb - 2] = ws;
			len[nb - 2] += len[nb - 1];
			nb--;
		}
	}
	for (int b = 0; b < nb; b++)
		for (int j = 0; j < len[b]; j++)
			f[k++] = val[b];
}

enum corr_hot_state decay_crossing(const double *x, const double *f, int n, double frac,
				   double floor, double *cross)
{
	double thr, t, la, lb;
	int last = -1;

	if (n <= 0)
		return CORR_HOT_NO_DATA;
	floor = fmax(floor, 0);
	if (!(f[0] > floor)) {
		*cross = x[0];
		return CORR_HOT_NO_COST;
	}
	thr = floor + frac * (f[0] - floor);
	for (int i = 0; i < n && f[i] >= thr; i++)
		last = i;
	if (last == n - 1) {
		*cross = x[n - 1];
		return CORR_HOT_ABOVE;
	}
	t = f[last] > f[last + 1] ? (f[last] - thr) / (f[last] - f[last + 1]) : 1;
	t = fmin(fmax(t, 0), 1);
	la = log(x[last]);
	lb = log(x[last + 1]);
	*cross = exp(la + t * (lb - la));
	return CORR_HOT_FOUND;
}

/*
 * Where a rising f (f[0] < thr <= f[n - 1]) first reaches thr, interpolated on log x
 * between the two points around it.
 */
static enum corr_hot_state rise_through(const double *x, const double *f, int n, double thr,
					double *cross)
{
	double t, la, lb;
	int k;

	for (k = 1; k < n - 1 && f[k] < thr; k++)
		;
	t = f[k] > f[k - 1] ? (thr - f[k - 1]) / (f[k] - f[k - 1]) : 1;
	t = fmin(fmax(t, 0), 1);
	la = log(x[k - 1]);
	lb = log(x[k]);
	*cross = exp(la + t * (lb - la));
	return CORR_HOT_FOUND;
}

enum corr_hot_state decay_rise(const double *x, const double *f, int n, double frac,
			       double *cross)
{
	double rise;

	if (n <= 0)
		return CORR_HOT_NO_DATA;
	rise = f[n - 1] - f[0];
	if (!(rise > 0) || n < 2) {
		*cross = x[0];
		return CORR_HOT_NO_COST;
	}
	if (f[n - 1] - f[n - 2] > frac * rise) {
		*cross = x[n - 1];
		return CORR_HOT_ABOVE;
	}
	return rise_through(x, f, n, f[0] + (1 - frac) * rise, cross);
}

enum corr_hot_state decay_reach(const double *x, const double *f, int n, double level,
				double *cross)
{
	double thr;

	if (n <= 0)
		return CORR_HOT_NO_DATA;
	if (!(level > 0)) {
		*cross = x[0];
		return CORR_HOT_NO_COST;
	}
	thr = f[0] + level;
	if (f[n - 1] < thr) {
		*cross = x[n - 1];
		return CORR_HOT_ABOVE;
	}
	return rise_through(x, f, n, thr, cross);
}

double decay_at(const double *x, const double *f, int n, double at)
{
	if (n <= 0)
		return NAN;
	if (at <= x[0])
		return f[0];
	for (int i = 0; i + 1 < n; i++) {
		if (at <= x[i + 1]) {
			double t = (log(at) - log(x[i])) / (log(x[i + 1]) - log(x[i]));

			return x[i + 1] > x[i] ? f[i] + t * (f[i + 1] - f[i]) : f[i + 1];
		}
	}
	return f[n - 1];
}
