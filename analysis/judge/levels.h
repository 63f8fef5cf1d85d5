/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The refill cost per topology level: the natural correlation made again with one level's
 * load-balancer pulls as its evidence, and the kernel's value judged on them alone
 * (judge/levels.c says how).
 */
#ifndef MIGTRACE_LEVELS_H
#define MIGTRACE_LEVELS_H

#include "run.h"

/*
 * Fills r->level_cost (and has_level_cost) for a natural run with units and levels; leaves
 * has_level_cost false otherwise.  0, or -ENOMEM.
 */
int levels_cost(struct run *r);

#endif
