/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A cost that decays: the migration cost measured at increasing values of what evicts the
 * cache (displaced bytes, or age), fitted by the monotone non-increasing curve closest to it
 * (weighted least squares, the pool-adjacent-violators algorithm), and the point where that
 * curve falls under a fraction of its maximum (docs/design.md, "The decay fit and its
 * intervals").  Pure functions on arrays, so that they are tested on synthetic curves.
 */
#ifndef MIGTRACE_DECAY_H
#define MIGTRACE_DECAY_H

#include "findings.h"

/*
 * The non-increasing fit of y[0..n) (in order of increasing x) with weights w (> 0) into
 * f[0..n): the isotonic regression.  Equal x values should be adjacent; they are pooled like
 * any violators.
 */
void decay_fit(const double *y, const double *w, int n, double *f);
/*
 * Where a fitted curve f over x (ascending, > 0) has fallen 1 - frac of the way from its
 * maximum (f[0]) to floor, the cost no amount of x removes (>= 0): under floor + frac x
 * (f[0] - floor), interpolated on log(x) between the last point at or above that and the
 * next.  CORR_HOT_FOUND (*cross set), CORR_HOT_ABOVE (still above at the last x: *cross =
 * x[n-1]), CORR_HOT_NO_COST (f[0] <= floor: nothing to fall, *cross = x[0]),
 * CORR_HOT_NO_DATA (n == 0).
 */
enum corr_hot_state decay_crossing(const double *x, const double *f, int n, double frac,
				   double floor, double *cross);
/*
 * A rise, the mirror of a fall: where a non-decreasing fitted curve f over x has risen
 * 1 - frac of the way from f[0] to its plateau f[n-1], interpolated on log(x).
 * CORR_HOT_FOUND, CORR_HOT_ABOVE (still rising at the last x by more than frac of the rise:
 * no plateau measured, *cross = x[n-1]), CORR_HOT_NO_COST (no rise, or risen before the
 * first x: *cross = x[0]), CORR_HOT_NO_DATA.
 */
enum corr_hot_state decay_rise(const double *x, const double *f, int n, double frac,
			       double *cross);
/*
 * Where a non-decreasing fitted curve f over x first reaches f[0] + level (level > 0, in f's
 * unit), interpolated on log(x): how long the co-runners take to make a same-CPU wake cost
 * a given amount more.  CORR_HOT_FOUND, CORR_HOT_ABOVE (not reached at the last x: *cross =
 * x[n-1]), CORR_HOT_NO_COST (level <= 0: *cross = x[0]), CORR_HOT_NO_DATA.
 */
enum corr_hot_state decay_reach(const double *x, const double *f, int n, double level,
				double *cross);
/* The fitted value at x, interpolated on log(x), held flat beyond the ends. */
double decay_at(const double *x, const double *f, int n, double at);

#endif
