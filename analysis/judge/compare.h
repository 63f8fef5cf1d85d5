/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two runs side by side (`migtrace report A.json B.json`): before and after a tuning, two
 * machines, two kernels.  As numbers, each with the interval its own run gives it, and a
 * difference flagged only when the two intervals do not overlap: counts by cause and the
 * age histogram as shares with Wilson 95 % intervals, the migration cost per cell (age, and
 * polluter rate in a grid), the observed hot time and D* with their bootstrap 95 %
 * intervals.  render_compare.c formats it.
 */
#ifndef MIGTRACE_COMPARE_H
#define MIGTRACE_COMPARE_H

#include <stdbool.h>
#include <stdint.h>

#include "run.h"

/* An estimate and its 95 % interval; known false when the run has none. */
struct cmp_value {
	bool known;
	double est, lo, hi;
};

/* count of total as a share, with its Wilson 95 % interval (all ratios, 0..1). */
struct cmp_share {
	uint64_t count, total;
	double share, lo, hi;
};

struct cmp_pair {
	struct cmp_share a, b;
	bool differs;			/* the intervals do not overlap */
};

struct cmp_cell {
	double age_ns;			/* the age (controlled) or bucket's lower edge (natural),
		ns */
	bool natural;			/* age_ns is a bucket's lower edge */
	double rate_mbps;		/* a grid's polluter rate, MB/s (0: as fast as it can);
					 * NAN: not a grid */
	struct cmp_value a, b;		/* migration cost at that age, ns */
	bool differs;
};

/*
 * A grid (D*) and a natural run beside cachewalk's polluter (its measured rate): the hot time
 * D* / that rate implies, against the natural run's own: the age by which its same-CPU wakes
 * have come to cost what the grid's cost fell by at D* (1 - the cold fraction of its maximum
 * over the residual), since a migration is cold once staying costs as much (docs/design.md,
 * "The natural co-runner").  The natural run's units are correlated again for it.
 */
enum cmp_predict_state {
	CMP_PREDICT_NONE,	/* not a grid and a natural run with a measured co-runner */
	CMP_PREDICT_UNBOUNDED,	/* the grid's D* has no finite interval (its regime: the
				 * refill comes from beyond what the polluter evicts) */
	CMP_PREDICT_DONE,
};

struct cmp_predict {
	enum cmp_predict_state state;
	const struct run *grid, *natural;
	int regime;			/* the grid's, enum corr_regime */
	double grid_cost_ns;		/* the grid's fitted maximum cost: its cost level, ns */
	struct cmp_value dstar;		/* bytes: pooled, or by_rate's */
	int by_rate;			/* the grid's rates disagree: the one whose D* is used
					 * (achieved rate nearest the co-runner's); -1: pooled */
	struct cmp_value rate;		/* the co-runner's measured rate, MB/s */
	struct cmp_value predicted;	/* D* / rate, ns: [D*lo / rate hi, D*hi / rate lo] */
	double level_ns;		/* 1 - cold fraction of the grid's cost over its residual:
					 * what a stay must come to cost more, ns */
	enum corr_hot_state reach_state;	/* of observed */
	struct cmp_value observed;	/* the natural run's age by which its same-CPU wakes' penalty
					 * has risen level_ns (its interval: its bootstrap), ns */
	bool within;			/* observed.est lies inside predicted's interval */
	double ratio;			/* observed / predicted, a ratio */
};

struct run_compare {
	const struct run *a, *b;
	struct cmp_pair cause[MT_NR_CAUSES];
	int slot_lo, slot_hi;		/* the age slots either run has; slot_hi < 0: none */
	struct cmp_pair age[MT_HIST_SLOTS];
	int ncells;
	struct cmp_cell cells[2 * CORR_MAX_CELLS];
	struct cmp_value hot_a, hot_b;	/* observed hot time, ns; an open end is +inf or 0 */
	bool hot_differs;
	struct cmp_value dstar_a, dstar_b;	/* D*, bytes; unknown unless a grid */
	bool dstar_differs;
	struct cmp_predict predict;
};

/* The Wilson score interval of count out of total at 95 %. */
struct cmp_share cmp_wilson(uint64_t count, uint64_t total);
void run_compare(const struct run *a, const struct run *b, struct run_compare *c);

#endif
