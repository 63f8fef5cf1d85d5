/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict: the kernel's value against the observed hot time and its interval, as
 * numbers (docs/design.md, "The verdict"): which way it is off, by what factor, the band of
 * ages it misjudges, what a migration costs there and what share of a unit that is.  The words
 * are the text renderer's (render_text.c), never stored here.
 */
#ifndef MIGTRACE_VERDICT_H
#define MIGTRACE_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "correlate.h"

struct verdict_in {
	const struct corr_result *corr;
	double kernel_ns;		/* the value task_hot() uses, ns */
	bool has_calib;
	double calib_ns;		/* calibrated hot time, ns */
	const struct mt_migrate *migs;	/* natural runs: the run's migrations; else NULL */
	size_t nmigs;
};

void verdict_decide(const struct verdict_in *in, struct verdict *v);
/* The verdict an interrupted controlled experiment gets: none, and why not. */
void verdict_none(struct verdict *v, double kernel_ns);

#endif
