/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Correlation of migrations with refill cost.  Input: unit records, each carrying what
 * happened to its thread since the previous unit (the join is done in BPF, in the thread's
 * own order).  Output: per cell (age, or age and polluter rate), the refill penalty after a
 * migration and after a same-CPU wake, their difference (the migration cost) with block
 * bootstrap intervals, the monotone fit of the cost, and where it falls: the observed hot
 * time over age, D* over displaced bytes.  The terms (age, unit, refill penalty, migration cost at age a, observed
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

/* Block bootstrap resamples for every interval (docs/design.md, "The decay fit and its
 * intervals"). */
#define CORR_BOOTSTRAP 2000
/* Natural runs: polluters on CPUs from this one on are not counted (cachewalk's list holds
 * 256 characters, at most 16 polluters). */
#define CORR_MAX_POLLUTED_CPU 1024

struct corr_opts {
	enum corr_mode mode;
	double cold_fraction;		/* CORR_COLD_FRACTION unless a caller says otherwise */
	int bootstrap;			/* resamples for the confidence intervals */
	double level;			/* their confidence level, CORR_LEVEL (0.95) unless
					 * a sequential experiment's looks ask for more */
	uint64_t seed;			/* the bootstrap's PRNG seed: results are reproducible */
	const uint64_t *edges_ns;	/* natural: bucket edges, ascending; NULL: 1-2-5 series */
	int nedges;
	/* controlled with a polluter on CPU A: its buffer, where the displaced bytes stop
	 * growing; 0: no polluter there, the cost is read against the age */
	double footprint_bytes;		/* bytes */
	double ws_bytes;		/* the working set, bytes; 0: not known */
	/* natural runs: the CPUs a polluter streamed on (bit c of word c / 64, CPUs below
	 * CORR_MAX_POLLUTED_CPU): its rate is measured over the same-CPU wakes there */
	uint64_t polluted_cpus[CORR_MAX_POLLUTED_CPU / 64];
	/* natural runs: a rise of the same-CPU wakes' penalty (ns; 0: none) to find the age of,
	 * into corr_result.stay_reach: a grid's migration cost level, for report A B */
	double stay_level_ns;
	/* natural runs: the run's migration records, for the pulls' kernel ages; may be
	 * NULL (then migtrace's own ages are used) */
	const struct mt_migrate *migs;
	size_t nmigs;
};

void corr_default_opts(struct corr_opts *o, enum corr_mode mode);
/* Correlates n units (any order).  0, or -ENOMEM / -EINVAL. */
int correlate_units(const struct mt_unit *units, size_t n, const struct corr_opts *o,
		    struct corr_result *r);
#endif
