// SPDX-License-Identifier: GPL-2.0
/* The monotone decay fit and where it falls (analysis/model/decay.c), on synthetic curves. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "decay.h"

/* A logistic fall on log(x): max at small x, max / 2 at x50, steepness k. */
static double logistic(double x, double max, double x50, double k)
{
	return max / (1 + pow(x / x50, k));
}

/* Deterministic noise in [-1, 1]. */
static double noise(int i)
{
	return (double)((i * 7919) % 2001 - 1000) / 1000;
}

static void fit_is_monotone_and_pools(void **state)
{
	const double y[] = { 10, 12, 8, 8, 9, 1, 3 }, w[] = { 1, 1, 1, 1, 1, 1, 1 };
	double f[7];

	(void)state;
	decay_fit(y, w, 7, f);
	for (int i = 1; i < 7; i++)
		assert_true(f[i] <= f[i - 1]);
	/* 10 and 12 pool to 11; 8, 8, 9 to 8.33; 1 and 3 to 2 */
	assert_true(fabs(f[0] - 11) < 1e-9 && fabs(f[1] - 11) < 1e-9);
	assert_true(fabs(f[2] - 25.0 / 3) < 1e-9 && fabs(f[4] - 25.0 / 3) < 1e-9);
	assert_true(fabs(f[5] - 2) < 1e-9 && fabs(f[6] - 2) < 1e-9);
}

/* A known decay with noise: the fall read from the fit is the curve's own, within 15 %. */
static void recovers_a_known_curve(void **state)
{
	double x[24], y[24], w[24], f[24], cross, truth = 1000 * cbrt(9.0);

	(void)state;
	for (int i = 0; i < 24; i++) {
		x[i] = 50 * pow(1.4, i);			/* 50 .. ~1.2e5 */
		y[i] = logistic(x[i], 60, 1000, 3) + 2 * noise(i);
		w[i] = 30;
	}
	decay_fit(y, w, 24, f);
	assert_int_equal(decay_crossing(x, f, 24, 0.1, 0, &cross), CORR_HOT_FOUND);
	assert_true(fabs(cross - truth) / truth < 0.15);
	/* toward a floor of 10: 90 % of the way from 70 to 10 is 16 */
	for (int i = 0; i < 24; i++)
		y[i] = 10 + logistic(x[i], 60, 1000, 3) + noise(i);
	decay_fit(y, w, 24, f);
	assert_int_equal(decay_crossing(x, f, 24, 0.1, 10, &cross), CORR_HOT_FOUND);
	assert_true(fabs(cross - truth) / truth < 0.15);
	/* read against 0 instead, the residual keeps it above: 10 % of 70 is never reached */
	assert_int_equal(decay_crossing(x, f, 24, 0.1, 0, &cross), CORR_HOT_ABOVE);
}

static void flat_and_empty(void **state)
{
	double x[8], y[8], w[8], f[8], cross;

	(void)state;
	for (int i = 0; i < 8; i++) {
		x[i] = 100 << i;
		y[i] = 40 + noise(i);
		w[i] = 10;
	}
	decay_fit(y, w, 8, f);
	assert_int_equal(decay_crossing(x, f, 8, 0.1, 0, &cross), CORR_HOT_ABOVE);
	assert_true(cross == x[7]);
	for (int i = 0; i < 8; i++)
		y[i] = noise(i) - 2;		/* at or under 0: no cost */
	decay_fit(y, w, 8, f);
	assert_int_equal(decay_crossing(x, f, 8, 0.1, 0, &cross), CORR_HOT_NO_COST);
	assert_true(cross == x[0]);
	assert_int_equal(decay_crossing(x, f, 0, 0.1, 0, &cross), CORR_HOT_NO_DATA);
}

/* The mirror: a penalty rising to a plateau, read where it has risen 90 % of the way. */
static void rise_to_a_plateau(void **state)
{
	const double x[] = { 1, 2, 4, 8, 16, 32 };
	const double f[] = { 0, 10, 50, 90, 100, 100 }, g[] = { 0, 10, 20, 30, 40, 80 };
	double cross;

	(void)state;
	/* 90 % of 100 is reached exactly at x = 8 */
	assert_int_equal(decay_rise(x, f, 6, 0.1, &cross), CORR_HOT_FOUND);
	assert_true(fabs(cross - 8) < 1e-9);
	/* still rising at the end by more than 10 % of the rise: no plateau measured */
	assert_int_equal(decay_rise(x, g, 6, 0.1, &cross), CORR_HOT_ABOVE);
	assert_true(cross == 32);
	/* flat: no rise */
	assert_int_equal(decay_rise(x, (const double[]){ 5, 5, 5, 5, 5, 5 }, 6, 0.1, &cross),
			 CORR_HOT_NO_COST);
}

static void fit_read_between_points(void **state)
{
	const double x[] = { 1, 4, 16 }, f[] = { 10, 6, 2 };

	(void)state;
	assert_true(decay_at(x, f, 3, 0.5) == 10);	/* flat beyond the ends */
	assert_true(decay_at(x, f, 3, 100) == 2);
	assert_true(fabs(decay_at(x, f, 3, 2) - 8) < 1e-9);	/* halfway on log(x) */
}

/* The age a rise reaches a level: interpolated on log(x), or beyond the last x, or none. */
static void reach_a_level(void **state)
{
	const double x[] = { 100, 1000, 10000 }, f[] = { 10, 30, 90 };
	double cross;

	(void)state;
	/* 10 + 20 = 30: exactly at 1000 */
	assert_int_equal(decay_reach(x, f, 3, 20, &cross), CORR_HOT_FOUND);
	assert_true(fabs(cross - 1000) < 1e-9);
	/* 10 + 50 = 60: half way from 30 to 90, on log(x): sqrt(1000 x 10000) */
	assert_int_equal(decay_reach(x, f, 3, 50, &cross), CORR_HOT_FOUND);
	assert_true(fabs(cross - sqrt(1000.0 * 10000)) < 1e-6);
	assert_int_equal(decay_reach(x, f, 3, 100, &cross), CORR_HOT_ABOVE);
	assert_true(cross == 10000);
	assert_int_equal(decay_reach(x, f, 3, 0, &cross), CORR_HOT_NO_COST);
	assert_int_equal(decay_reach(x, f, 0, 20, &cross), CORR_HOT_NO_DATA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fit_is_monotone_and_pools),
		cmocka_unit_test(recovers_a_known_curve),
		cmocka_unit_test(flat_and_empty),
		cmocka_unit_test(rise_to_a_plateau),
		cmocka_unit_test(reach_a_level),
		cmocka_unit_test(fit_read_between_points),
	};

	return cmocka_run_group_tests_name("decay", tests, NULL, NULL);
}
