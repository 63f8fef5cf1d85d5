/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The judge of run --probe-moves (docs/design.md, "Probed moves"): each moment's next unit
 * (or, without units, the probed run BPF recorded) joins the arm its coin chose, when it
 * followed a sleep that began before the moment; the two arms are correlated by age as a
 * randomised experiment, and the verdict decided on that correlation in validate's words.
 */
#ifndef MIGTRACE_PROBE_JUDGE_H
#define MIGTRACE_PROBE_JUDGE_H

#include "run.h"

/* Into r->probe_result (r->has_probe_result) when r->probe.on.  0, or -ENOMEM. */
int probe_judge(struct run *r);

#endif
