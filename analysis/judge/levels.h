/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The refill cost per topology level: the natural correlation made again with one level's
 * load-balancer pulls as its evidence, and the kernel's value judged on them alone
 * (judge/levels.c says how).
 */
#ifndef MIGTRACE_LEVELS_H
#define MIGTRACE_LEVELS_H

#include "correlate.h"
#include "run.h"

/*
 * Fills r->level_cost (and has_level_cost) for a natural run with units and levels; leaves
 * has_level_cost false otherwise.  0, or -ENOMEM.
 */
int levels_cost(struct run *r);
/* The correlation's and verdict's numbers that one level's line states, into lc. */
void levels_summarize(const struct corr_result *c, const struct verdict *v,
		      struct run_level_cost *lc);

#endif
