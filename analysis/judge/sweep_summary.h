/* SPDX-License-Identifier: GPL-2.0 */
/* The sweep's figures per value, from its runs (analysis/model/sweep.h). */
#ifndef MIGTRACE_SWEEP_SUMMARY_H
#define MIGTRACE_SWEEP_SUMMARY_H

#include <stdbool.h>

#include "sweep.h"

/* Fills s->sv, s->best and s->second from the runs, and what the renderers show beside them:
 * each run's normalised throughput, whether schedstats were there (a run's witness only
 * counts then). */
void sweep_summarize(struct sweep *s);
/* The best value's lead is beyond the noise: its worst run beats the runner-up's best. */
bool sweep_best_beyond_noise(const struct sweep *s);
#endif
