// SPDX-License-Identifier: GPL-2.0
/* Order statistics: median and MAD are what a noisy shared machine allows us to trust. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double quantile_sorted_inplace(double *v, size_t n, double q)
{
	double pos;
	size_t lo;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	if (q <= 0)
		return v[0];
	if (q >= 1)
		return v[n - 1];
	pos = q * (double)(n - 1);
	lo = (size_t)pos;
	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + (pos - (double)lo) * (v[lo + 1] - v[lo]);
}

/* Hoare's selection: afterwards v[k] holds the k-th smallest, smaller ones before it.
 * Signed indexes: j steps to lo - 1 when the left part is empty. */
static void select_kth(double *v, ptrdiff_t n, ptrdiff_t k)
{
	ptrdiff_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2];
		ptrdiff_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				double t = v[i];

				v[i++] = v[j];
				v[j--] = t;
			}
		}
		/* v[lo..j] <= pivot <= v[i..hi], and what lies between equals the pivot */
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

double quantile_select_inplace(double *v, size_t n, double q)
{
	double pos, next;
	size_t lo;

	if (!n)
		return 0;
	if (q < 0)
		q = 0;
	if (q > 1)
		q = 1;
	pos = q * (double)(n - 1);
	lo = (size_t)pos;
	select_kth(v, (ptrdiff_t)n, (ptrdiff_t)lo);
	if (lo + 1 >= n || pos == (double)lo)
		return v[lo];
	/* the next order statistic is the smallest of what selection left above lo */
	next = v[lo + 1];
	for (size_t i = lo + 2; i < n; i++)
		next = v[i] < next ? v[i] : next;
	return v[lo] + (pos - (double)lo) * (next - v[lo]);
}

double trimmed_mean_select_inplace(double *v, size_t n, double trim)
{
	size_t k, m;
	double sum = 0;

	if (!n)
		return NAN;
	k = (size_t)((double)n * trim);
	if (2 * k >= n)
		k = (n - 1) / 2;
	m = n - 2 * k;
	/* the k smallest to the left of v[k], then the m kept ones to the left of v[k + m] */
	select_kth(v, (ptrdiff_t)n, (ptrdiff_t)k);
	if (k + m < n)
		select_kth(v + k, (ptrdiff_t)(n - k), (ptrdiff_t)(m - 1));
	for (size_t i = k; i < k + m; i++)
		sum += v[i];
	return sum / (double)m;
}

double median_inplace(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	/* the two middle values' mean, as (a + b) / 2: the sweep file's medians were always
	 * written so, and a + (b - a) / 2 can differ in the last digit */
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int summarize_u64(const uint64_t *v, size_t n, struct sample_summary *out)
{
	uint64_t *s = NULL;
	double *dev = NULL, sum = 0, sq = 0;
	int err = 0;

	memset(out, 0, sizeof(*out));
	if (!n)
		return -EINVAL;
	s = malloc(n * sizeof(*s));
	dev = malloc(n * sizeof(*dev));
	if (!s || !dev) {
		err = -ENOMEM;
		goto cleanup;
	}
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_u64);
	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->median = n % 2 ? (double)s[n / 2] : ((double)s[n / 2 - 1] + (double)s[n / 2]) / 2;
	for (size_t i = 0; i < n; i++) {
		sum += (double)s[i];
		dev[i] = fabs((double)s[i] - out->median);
	}
	out->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += ((double)s[i] - out->mean) * ((double)s[i] - out->mean);
	out->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	out->mad = median_inplace(dev, n);
cleanup:
	free(s);
	free(dev);
	return err;
}

/*
 * By bisection on erfc(), which the C library has: 80 halvings of [-40, 40] are below a
 * double's resolution, and the callers ask it for a handful of levels per run.
 */
double normal_quantile(double p)
{
	double lo = -40, hi = 40;

	if (!(p > 0 && p < 1))
		return NAN;
	for (int i = 0; i < 80; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(-mid / M_SQRT2) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}
