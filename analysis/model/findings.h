/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the analysis finds, as numbers the run model holds: the correlation of units with
 * migrations (penalties and migration cost per age, the observed hot time) and the verdict.
 * The judge (analysis/judge/) computes them, the run file stores them, the renderers format
 * them; the terms are defined in docs/design.md.
 */
#ifndef MIGTRACE_FINDINGS_H
#define MIGTRACE_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CORR_MAX_CELLS 64
#define CORR_MAX_RATES 8		/* polluter rates of a controlled grid */
/* Cold once the migration cost stays under this fraction of its maximum: the observed hot
 * time's definition (docs/design.md), and the only place its 10 % is written. */
#define CORR_COLD_FRACTION 0.10
/* The intervals' confidence level, unless a sequential experiment asks for a stricter one
 * (docs/design.md, "Sampling until it decides"). */
#define CORR_LEVEL 0.95
/* Each cell's estimator drops this fraction of its samples at each end (10 %-trimmed). */
#define CORR_TRIM 0.10

enum corr_mode {
	CORR_NATURAL,		/* the scheduler decided: bucket by measured age */
	CORR_CONTROLLED,	/* cachewalk --controlled: cells by the age it aimed at */
	CORR_PROBED,		/* run --probe-moves: the units after moves and shams (their
				 * tags), bucketed by measured age */
};

enum corr_hot_state {
	CORR_HOT_FOUND,		/* the cost falls under the cold fraction inside the range */
	CORR_HOT_ABOVE,		/* still costly at the largest age: hot time > that age */
	CORR_HOT_NO_COST,	/* no age shows a cost above noise: hot time < smallest age */
	CORR_HOT_NO_DATA,	/* no cell has both arms */
};

/* What the cost is measured against (docs/design.md, "Displaced bytes"). */
enum corr_axis {
	CORR_AXIS_AGE,		/* the age: natural runs, and experiments without a polluter */
	CORR_AXIS_DISPLACED,	/* the bytes a polluter streamed through A meanwhile */
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
	double fit_cost_ns;		/* the monotone fit of the cost at this cell (its axis), ns */
	/* natural runs: the moves that are not evidence (wakeup placements above all) */
	size_t n_other;			/* samples */
	double pen_other_ns;		/* trimmed mean penalty, ns */
	double cost_other_ns;		/* pen_other - pen_stay, ns */
	double cost_other_lo_ns, cost_other_hi_ns;	/* its 95 % interval, ns */
	/* natural runs: the wait side (docs/design.md, "The wait side") */
	double wait_avoided_ns;		/* the mean wait the cell's pulls cut short, ns */
	double gain_ns;			/* wait_avoided - fit_cost: what a pull here gains, ns */
	double gain_lo_ns, gain_hi_ns;	/* G's interval: the wait's ends against the refill's
					 * opposite ends (conservative), ns */
	/* a controlled grid with a polluter (axis displaced): the cell's rate and what the
	 * trials measured; NAN otherwise */
	double rate_mbps;		/* the polluter's target, MB/s; 0: as fast as it can */
	double achieved_mbps;		/* streamed bytes / time away over its trials, MB/s */
	double displaced_bytes;		/* median of min(streamed, footprint), bytes */
};

/*
 * Where a cost curve falls under the cold fraction of its fitted maximum, with a 95 % block
 * bootstrap interval: on the age axis in ns, on the displaced axis in bytes.  An interval end
 * beyond the measured range is infinite (hi) or 0 (lo): the grid's edge.
 */
struct corr_fall {
	enum corr_hot_state state;
	double at, lo, hi;		/* ns or bytes, as the curve's axis */
	double max_cost_ns;		/* the fit's maximum (at its first x), ns */
	double min_cost_ns;		/* the fit at its last x, ns */
};

/*
 * Where a migration's refill comes from, judged by what the polluter's whole buffer leaves
 * of the cost: a residual (it evicts what the migration loses, a cache each CPU keeps to
 * itself), or most of it (the refill comes from beyond what it reaches).
 */
enum corr_regime {
	CORR_REGIME_UNKNOWN,	/* no displaced axis, or no cell at full displacement */
	CORR_REGIME_SHARED,	/* a residual remains: D* is about the private cache */
	CORR_REGIME_BEYOND,	/* most remains: the pair does not share the next cache */
};

/* One polluter rate of a controlled grid: its own curves. */
struct corr_rate {
	double rate_mbps;		/* target, MB/s; 0: as fast as it can */
	double achieved_mbps;		/* measured over its trials, MB/s */
	int ncells;
	struct corr_fall dstar;		/* cost over displaced bytes: D* at this rate, bytes */
	struct corr_fall hot;		/* cost over age: the hot time at this rate, ns */
};

struct corr_result {
	enum corr_mode mode;
	double cold_fraction;		/* the fraction the hot time was found with */
	double level;			/* every interval's confidence level: 0.95, or more
					 * in a sequential experiment */
	int ncells;
	struct corr_cell cells[CORR_MAX_CELLS];
	double baseline_ns;		/* median over threads of their warm unit time, ns */
	size_t n_threads;
	size_t n_units;			/* all unit records */
	size_t n_baseline;		/* warm back-to-back units */
	size_t n_mig_events, n_stay_events;	/* units joined to a migration, to a wake; natural
						 * runs: the migrations are load-balancer pulls */
	size_t n_other_events;		/* natural: units after another kind of move */
	size_t n_kernel_aged;		/* natural: pulls aged by the kernel's clock (the rest
					 * by migtrace's: the record was not kept) */
	int bias_cells;			/* cells whose cost interval lies below 0 */
	int bias_other_cells;		/* the same, for the other moves */
	size_t n_spanning;		/* excluded: a switch or migration inside the unit */
	size_t n_unseen;		/* controlled: a "migrated" unit with no migration seen */
	double max_cost_ns;		/* max over cells of cost_ns, significant cells first, ns */
	int max_cell;
	enum corr_hot_state hot_state;
	double hot_ns, hot_lo_ns, hot_hi_ns;	/* observed hot time and its 95 % interval, ns */
	double lost_ns;			/* sum over migrated units of the cost at their age, ns */
	double cost_frac_slice;		/* median of (penalty / following run slice), a ratio;
					 * NAN in controlled runs (the slice is the unit there) */
	/* on the age axis: where the same-CPU wakes' penalty has risen 90 % of the way to its
	 * plateau, the age by which the co-runners have displaced the workload's cache (min,
	 * max: the fit at the first and last age); the hot time they imply, migrations or not */
	struct corr_fall stay_decay;	/* ns */
	/* natural runs beside cachewalk's polluter: the rate it displaced the caches of the
	 * CPUs it ran on while the workload's threads slept there (the bytes it streamed over
	 * the off-CPU time, summed over the same-CPU wakes on those CPUs), with its 95 %
	 * interval from the same resamples; NAN without such wakes (docs/design.md, "The
	 * natural co-runner") */
	/* natural runs given a level (corr_opts.stay_level_ns, not stored in the run file):
	 * the age by which the same-CPU wakes' penalty, fitted non-decreasing, has risen that
	 * much above its first age, with its interval; ns */
	struct corr_fall stay_reach;
	size_t corunner_wakes;		/* the same-CPU wakes it is measured over */
	double corunner_mbps, corunner_lo_mbps, corunner_hi_mbps;	/* MB/s */
	/* the statistics (docs/design.md, "The decay fit and its intervals") */
	int bootstrap;			/* resamples */
	int blocks;			/* what they resample: rounds (controlled), time blocks */
	/* the displaced axis: a controlled grid with a polluter on A */
	enum corr_axis axis;
	double footprint_bytes;		/* the polluter's buffer: D is capped there, bytes */
	double ws_bytes;		/* the working set, bytes (0: not known) */
	struct corr_fall dstar;		/* D*, pooled over every rate, bytes */
	int nrates;
	struct corr_rate rates[CORR_MAX_RATES];
	int rates_found;		/* rates whose D* fell inside their range */
	bool rates_agree;		/* >= 2 found, and every rate's D* interval shares a value */
	/* the cells at full displacement (the polluter's whole buffer), over age: whether the
	 * cost still falls with time when the polluter can displace no more */
	int capped_cells;
	struct corr_fall capped;	/* ns */
	double floor_ns;		/* the residual cost at full displacement, at its shortest
					 * age (>= 0): what D* and the rates' hot times fall toward */
	enum corr_regime regime;
	double refill_line_ns;		/* the fit's maximum per line of the working set, ns */
	double stay_line_ns;		/* a same-CPU wake's penalty per line at full displacement */
};

/* The level c's intervals were found at: c->level, or CORR_LEVEL for a result made without
 * one (a correlation from before the sequential experiment, a test's hand-made result). */
static inline double corr_level(const struct corr_result *c)
{
	return c->level > 0 && c->level < 1 ? c->level : CORR_LEVEL;
}

extern const char *const corr_hot_state_names[4];	/* "found", "above range", … */

/* The age a cell stands for: the one aimed at (controlled), or the median measured, ns. */
static inline double corr_cell_age(const struct corr_result *r, int cell)
{
	const struct corr_cell *c = &r->cells[cell];

	return r->mode == CORR_CONTROLLED ? c->age_ns : c->age_median_ns;
}

enum verdict_kind {
	VERDICT_UNDETERMINED = 0,	/* no age had both arms: nothing to judge with */
	VERDICT_TOO_LOW,	/* tasks the kernel calls cold still pay a refill when moved */
	VERDICT_ABOUT_RIGHT,	/* the observed interval contains the kernel's value */
	VERDICT_TOO_HIGH,	/* tasks the kernel calls hot are cheap to move */
	VERDICT_NONE,		/* not judged: the controlled experiment was interrupted */
	VERDICT_BY_RATE,	/* a grid of rates: the value fits co-runners of a rate */
	VERDICT_NOT_APPLICABLE,	/* a sched_ext scheduler had the tasks: task_hot() is not
				 * consulted, whatever its value */
	VERDICT_NR_KINDS,
};

/*
 * The model a grid's rates support (docs/design.md, "Bytes-driven or time-driven"): the cost
 * falls with the bytes the co-runners displace, whatever their rate (the rates' D* agree),
 * or with the time since the task left, whatever the rate (their hot times by age agree).
 */
enum model_regime {
	MODEL_NOT_TESTED = 0,	/* not a grid of two rates or more, or a file from before */
	MODEL_TOO_FEW,		/* neither agrees; one was bounded at fewer than two rates */
	MODEL_BYTES,		/* the D* agree; the hot times by age do not, or untested */
	MODEL_TIME,		/* the hot times by age agree; the D* do not, or untested */
	MODEL_BOTH,		/* both agree: the rates measured do not tell them apart */
	MODEL_MIXED,		/* both tested, neither agrees */
	MODEL_NR,
};

/* One model's test over the rates, on its axis (bytes for D*, ns for the hot time by age). */
struct model_test {
	int bounded;			/* rates whose fall lies inside their range (found) */
	bool agree;			/* >= 2 bounded, and one value lies in every interval */
	double common_lo, common_hi;	/* what every rate's interval shares (lo > hi: nothing;
					 * an open end: 0 or +inf); bytes or ns */
	double min, max;		/* the bounded rates' estimates, smallest and largest */
};

/* The test between the two models, and the hot time by age pooled over the rates. */
struct verdict_model {
	enum model_regime regime;
	int rates;			/* rates with data */
	struct model_test dstar;	/* bytes */
	struct model_test hot;		/* ns */
	/* the bounded rates' hot times by age, pooled: inverse-variance on log(age) (the
	 * rates whose interval is closed weigh); NAN when none is */
	int pooled_rates;		/* rates that weighed */
	double pooled_hot_ns, pooled_hot_lo_ns, pooled_hot_hi_ns;	/* and its 95 % interval */
};

/* "not tested", "too few rates", "bytes-driven", … */
extern const char *const model_regime_names[MODEL_NR];

/* A grid's rate judged: the hot time D* / the achieved rate, against the kernel's value. */
struct verdict_rate {
	double rate_mbps;		/* the polluter's target, MB/s; 0: as fast as it can */
	double achieved_mbps;		/* MB/s */
	enum verdict_kind kind;		/* too low, about right, too high or undetermined */
	double hot_ns, hot_lo_ns, hot_hi_ns;	/* D* / achieved rate and its interval, ns */
	double factor, factor_lo, factor_hi;	/* >= 1, as the verdict's own; NAN: none */
};

struct verdict {
	enum verdict_kind kind;
	double kernel_ns;		/* K, ns */
	/* the observed hot time as judged: where it lies outside the measured ages, the end
	 * of the range it lies beyond, with an interval open on that side */
	double hot_ns;			/* H, ns */
	double hot_lo_ns, hot_hi_ns;	/* the interval K is judged against, ns; hi may be +inf */
	double factor;			/* >= 1: H / K too low, K / H too high */
	bool factor_is_bound;		/* H lies outside the measured ages: factor is at least */
	double factor_lo, factor_hi;	/* its 95 % interval; hi +inf at the grid's edge */
	/* the band of ages task_hot() misjudges: [K, H) too low, [H, K) too high */
	double band_lo_ns, band_hi_ns;	/* ns */
	int band_cells;			/* measured ages in the band */
	double band_cost_ns;		/* too low: mean migration cost over those ages; too
					 * high: the largest, at least 0; ns */
	double band_cost_share;		/* band_cost_ns / unit_ns, a ratio */
	double unit_ns;			/* the warm unit (baseline), ns */
	double max_cost_ns;		/* the cost maximum the hot time is measured against, ns */
	double cold_fraction;		/* cold under this fraction of max_cost_ns */
	bool has_run_share;		/* natural runs: the run's own migrations in the band */
	uint64_t run_migrations;	/* migration records of the run */
	uint64_t band_migrations;	/* of them, of an age in the band */
	bool has_calib;
	double calib_ns;		/* the calibrated hot time, ns */
	double calib_over_observed;	/* calib_ns / the observed hot time; NAN unless found */
	/* VERDICT_BY_RATE: D* and the co-runners' rate at which K is the hot time */
	double dstar_bytes, dstar_lo_bytes, dstar_hi_bytes;	/* bytes */
	double fit_rate_mbps, fit_rate_lo_mbps, fit_rate_hi_mbps;	/* D* / K, MB/s */
	/* natural runs: the load-balancer pulls the verdict stands on, the fewest it needs, and
	 * whether a cost below 0 (a biased comparison) kept it from a verdict */
	uint64_t judged;
	uint64_t min_judged;
	bool bias;
	/* natural runs: T*, where a pull's gain (the wait it saves less the refill it costs)
	 * turns positive: found, "above range" (no age where a pull pays), "no cost" (a pull
	 * pays at every age: any positive threshold costs latency), "no data" */
	enum corr_hot_state tstar_state;
	double tstar_ns, tstar_lo_ns, tstar_hi_ns;	/* ns; an end out of range: 0 or +inf */
	double wait_at_kernel_ns, refill_at_kernel_ns;	/* a pull at K: saves, costs; ns */
	/* the age axis: K against the same-CPU wakes' decay (corr_result.stay_decay) */
	enum verdict_kind decay_kind;
	double decay_factor, decay_factor_lo, decay_factor_hi;
	int nrates;
	struct verdict_rate rates[CORR_MAX_RATES];
	/* a grid of rates: which model they agree on; the verdict is given in its terms
	 * (time-driven: hot_ns and the factor are the pooled hot time by age's) */
	struct verdict_model model;
};

extern const char *const verdict_names[VERDICT_NR_KINDS];	/* "undetermined", "too low", … */

#endif
