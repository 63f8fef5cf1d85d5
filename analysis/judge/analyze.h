/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Analysis: from what a run captured to the numbers its reports show.  The summary figures,
 * then (when units were timed) the correlation, in the experiment's mode as its
 * configuration says, and the verdict.  Everything it finds goes into the run model.
 */
#ifndef MIGTRACE_ANALYZE_H
#define MIGTRACE_ANALYZE_H

#include "run.h"

/* 0, or -ENOMEM (the summary is there; the correlation and verdict are not). */
int run_analyze(struct run *r);
/*
 * A sequential experiment's look (docs/design.md, "Sampling until it decides"): the verdict
 * the units captured so far give, at the run's level, into v; r is left as it was.  0, or
 * -ENOMEM / -EINVAL.
 */
int run_look(const struct run *r, struct verdict *v);
/*
 * The verdict on corr, one of r's correlations (its own, a look's, its probed moves'), into
 * v: at r's threshold, beside its calibration, not applicable under a sched_ext scheduler.
 */
void run_judge_corr(const struct run *r, const struct corr_result *corr, struct verdict *v);
/*
 * A natural run's same-CPU wakes: the age by which their penalty has risen level_ns above
 * its first age, with its interval, from the run's units again (report A B asks it with a
 * grid's migration cost level).  0, or -ENOMEM.
 */
int run_stay_reach(const struct run *r, double level_ns, struct corr_fall *out);

#endif
