/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict: the kernel's value against the observed hot time and its interval, as
 * numbers (docs/design.md, "verdict"): which way it is off, by what factor, the band of ages
 * it misjudges, what a migration costs there and what share of a unit that is.  The words
 * are the text renderer's (render_text.c), never stored here.
 */
#ifndef MIGTRACE_VERDICT_H
#define MIGTRACE_VERDICT_H
#ifdef __KERNEL__
#error "analysis/verdict.h is for user space"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "correlate.h"

enum verdict_kind {
	VERDICT_UNDETERMINED = 0,	/* no age had both arms: nothing to judge with */
	VERDICT_TOO_LOW,	/* tasks the kernel calls cold still pay a refill when moved */
	VERDICT_ABOUT_RIGHT,	/* the observed interval contains the kernel's value */
	VERDICT_TOO_HIGH,	/* tasks the kernel calls hot are cheap to move */
	VERDICT_NONE,		/* not judged: the controlled experiment was interrupted */
	VERDICT_NR_KINDS,
};

struct verdict_in {
	const struct corr_result *corr;
	double kernel_ns;		/* the value task_hot() uses, ns */
	bool has_calib;
	double calib_ns;		/* calibrated hot time, ns */
	const struct mt_migrate *migs;	/* natural runs: the run's migrations; else NULL */
	size_t nmigs;
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
};

extern const char *const verdict_names[VERDICT_NR_KINDS];	/* "undetermined", "too low", … */

void verdict_decide(const struct verdict_in *in, struct verdict *v);
/* The verdict an interrupted controlled experiment gets: none, and why not. */
void verdict_none(struct verdict *v, double kernel_ns);

#endif
