/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Correlation of migrations with refill cost.  Input: unit records, each carrying what
 * happened to its thread since the previous unit (the join is done in BPF, in the thread's
 * own order).  Output: per age, the refill penalty after a migration and after a same-CPU
 * wake, their difference (the migration cost) with bootstrap confidence intervals, and the
 * observed hot time.  The terms (age, unit, refill penalty, migration cost at age a, observed
 * hot time) are defined in docs/design.md.
 */
#ifndef MIGTRACE_CORRELATE_H
#define MIGTRACE_CORRELATE_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "findings.h"
#include "migtrace.h"

struct corr_opts {
	enum corr_mode mode;
	double cold_fraction;		/* CORR_COLD_FRACTION unless a caller says otherwise */
	int bootstrap;			/* resamples for the confidence intervals (200) */
	uint64_t seed;			/* the bootstrap's PRNG seed: results are reproducible */
	const uint64_t *edges_ns;	/* natural: bucket edges, ascending; NULL: 1-2-5 series */
	int nedges;
};

void corr_default_opts(struct corr_opts *o, enum corr_mode mode);
/* Correlates n units (any order).  0, or -ENOMEM / -EINVAL. */
int correlate_units(const struct mt_unit *units, size_t n, const struct corr_opts *o,
		    struct corr_result *r);
/* The hot time of a cost curve: the smallest age beyond which cost stays under
 * frac x max, interpolated on log(age).  With sig, only cells marked significant (cost
 * interval above 0) count.  Exposed for tests. */
enum corr_hot_state corr_hot_time(const double *age_ns, const double *cost_ns,
				  const bool *sig, int n, double frac, double *hot_ns);

#endif
