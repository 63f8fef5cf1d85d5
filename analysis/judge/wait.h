/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The other side of the trade-off (docs/design.md, "The wait side"): what a refused pull
 * costs is the wait the task would still have had on its busy CPU.  From the run's complete
 * histograms of runnable waits (those that ended in a run, and those a pull cut short, as
 * censored observations), a life-table estimate of how long a wait lasts; from it, the wait
 * a pull avoids at the wait it had reached; against the refill a pull costs at its age, the
 * net gain of a pull, and the threshold T* where it changes sign.
 */
#ifndef MIGTRACE_WAIT_H
#define MIGTRACE_WAIT_H

#include <linux/types.h>
#include <stdint.h>

#include "run.h"

/* The survival of runnable waits, on the log2 µs slots of the histograms. */
struct wait_life {
	double edge_ns[MT_HIST_SLOTS + 1];	/* slot k: [edge k, edge k+1) ns (the open last
						 * slot: up to twice its lower edge) */
	double hazard[MT_HIST_SLOTS];		/* waits ending per ns of waiting, per slot */
	double surv[MT_HIST_SLOTS + 1];		/* share of waits longer than each edge */
	uint64_t done, cut;			/* waits that ended in a run; cut by a pull */
	int last;				/* the last slot any wait reached */
};

/*
 * The piecewise-exponential estimate: a constant hazard per slot, the waits that ended in it
 * over the time spent waiting in it by all that reached it (those that left it, by a run or
 * a pull, counted for the mean time a constant hazard gives them: solved as a fixed point).
 * With log2 slots and censoring that comes at times of its own, this recovers a known
 * hazard where the actuarial table's "half of the censored" does not (tests/unit/test_wait.c).
 * done and cut are log2 µs histograms.
 */
void wait_life(const __u64 *done, const __u64 *cut, struct wait_life *l);
/*
 * The mean wait still ahead of a task that has waited w ns: the integral of the survival from
 * w on, over the survival at w (its slot's constant hazard within it), restricted to the slots some wait
 * reached (past the longest wait seen nothing is known: the restricted mean, the usual
 * answer when the longest observation is censored).  NAN when no wait was seen, or none
 * lasted w.
 */
double wait_residual(const struct wait_life *l, double w_ns);
/*
 * Fills c's cells' wait_avoided_ns and gain_ns and v's T*, for a natural correlation c of
 * run r: the waits from r's histograms, each cell's pulls from r's records (level >= 0: only
 * the pulls of that topology level, for a correlation of that level's pulls).
 */
void wait_decide(const struct run *r, struct corr_result *c, struct verdict *v, int level);
/* wait_decide() on the run's own correlation and verdict, all levels. */
void wait_judge(struct run *r);

#endif
