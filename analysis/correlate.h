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
#ifdef __KERNEL__
#error "analysis/correlate.h is for user space"
#endif

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "migtrace.h"

#define CORR_MAX_CELLS 64
/* Cold once the migration cost stays under this fraction of its maximum: the observed hot
 * time's definition (docs/design.md), and the only place its 10 % is written. */
#define CORR_COLD_FRACTION 0.10
/* Each cell's estimator drops this fraction of its samples at each end (10 %-trimmed). */
#define CORR_TRIM 0.10

enum corr_mode {
	CORR_NATURAL,		/* the scheduler decided: bucket by measured age */
	CORR_CONTROLLED,	/* cachewalk --controlled: cells by the age it aimed at */
};

enum corr_hot_state {
	CORR_HOT_FOUND,		/* the cost falls under the cold fraction inside the range */
	CORR_HOT_ABOVE,		/* still costly at the largest age: hot time > that age */
	CORR_HOT_NO_COST,	/* no age shows a cost above noise: hot time < smallest age */
	CORR_HOT_NO_DATA,	/* no cell has both arms */
};

struct corr_opts {
	enum corr_mode mode;
	double cold_fraction;		/* CORR_COLD_FRACTION unless a caller says otherwise */
	int bootstrap;			/* resamples for the confidence intervals (200) */
	uint64_t seed;			/* the bootstrap's PRNG seed: results are reproducible */
	const uint64_t *edges_ns;	/* natural: bucket edges, ascending; NULL: 1-2-5 series */
	int nedges;
};

struct corr_cell {
	double age_ns;			/* nominal age (controlled) or bucket's lower edge, ns */
	double age_hi_ns;		/* natural: bucket's upper edge, ns */
	double age_median_ns;		/* median measured age of the cell's samples, ns */
	size_t n_mig, n_stay;		/* samples per arm */
	double pen_mig_ns, pen_stay_ns;	/* refill penalty per arm: trimmed mean, ns */
	double cost_ns;			/* pen_mig - pen_stay: the migration cost at this age, ns */
	double cost_lo_ns, cost_hi_ns;	/* its 95 % bootstrap interval, ns */
	double unit_ns;			/* median baseline unit of the cell's threads, ns */
};

struct corr_result {
	enum corr_mode mode;
	double cold_fraction;		/* the fraction the hot time was found with */
	int ncells;
	struct corr_cell cells[CORR_MAX_CELLS];
	double baseline_ns;		/* median over threads of their warm unit time, ns */
	size_t n_threads;
	size_t n_units;			/* all unit records */
	size_t n_baseline;		/* warm back-to-back units */
	size_t n_mig_events, n_stay_events;	/* units joined to a migration, to a wake */
	size_t n_spanning;		/* excluded: a switch or migration inside the unit */
	size_t n_unseen;		/* controlled: a "migrated" unit with no migration seen */
	double max_cost_ns;		/* max over cells of cost_ns, significant cells first, ns */
	int max_cell;
	enum corr_hot_state hot_state;
	double hot_ns, hot_lo_ns, hot_hi_ns;	/* observed hot time and its 95 % interval, ns */
	double lost_ns;			/* sum over migrated units of the cost at their age, ns */
	double cost_frac_slice;		/* median of (penalty / following run slice), a ratio */
};

extern const char *const corr_hot_state_names[4];	/* "found", "above range", … */

void corr_default_opts(struct corr_opts *o, enum corr_mode mode);
/* Correlates n units (any order).  0, or -ENOMEM / -EINVAL. */
int correlate_units(const struct mt_unit *units, size_t n, const struct corr_opts *o,
		    struct corr_result *r);
/* The hot time of a cost curve: the smallest age beyond which cost stays under
 * frac x max, interpolated on log(age).  With sig, only cells marked significant (cost
 * interval above 0) count.  Exposed for tests. */
enum corr_hot_state corr_hot_time(const double *age_ns, const double *cost_ns,
				  const bool *sig, int n, double frac, double *hot_ns);
/* The age a cell stands for: the one aimed at (controlled), or the median measured. */
double corr_cell_age(const struct corr_result *r, int cell);

#endif
