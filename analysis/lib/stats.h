/* SPDX-License-Identifier: GPL-2.0 */
/* Order statistics on samples of u64 nanoseconds. */
#ifndef MIGTRACE_STATS_H
#define MIGTRACE_STATS_H

#include <stddef.h>
#include <stdint.h>

struct sample_summary {
	size_t n;
	uint64_t min, max;	/* same unit as the samples */
	double median;
	double mad;		/* median absolute deviation from the median */
	double mean;
	double stddev;		/* sample standard deviation (n - 1) */
};

/* Summarises v[0..n) without changing it.  Returns -EINVAL for n == 0, -ENOMEM. */
int summarize_u64(const uint64_t *v, size_t n, struct sample_summary *out);
/* Quantile q in [0, 1] of doubles (linear interpolation); sorts v in place. */
double quantile_sorted_inplace(double *v, size_t n, double q);
/* The same quantile as quantile_sorted_inplace() in O(n) by selection: v is reordered, not
 * sorted.  For estimators recomputed on many resamples.  0 for n == 0. */
double quantile_select_inplace(double *v, size_t n, double q);
/* Mean of v without the lowest and highest trim fraction (0.10: 10 % each side), in O(n)
 * by selection: v is reordered, not sorted.  For estimators recomputed on many resamples.
 * NAN for n == 0. */
double trimmed_mean_select_inplace(double *v, size_t n, double trim);
/* Median of doubles; sorts v in place.  0 for n == 0. */
double median_inplace(double *v, size_t n);
/* The standard normal's quantile: z with P(Z <= z) = p, p in (0, 1) (NAN outside). */
double normal_quantile(double p);

#endif
