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

#endif
