/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What if the threshold had been T: the moves of this run judged again at other thresholds
 * (judge/whatif.c says how, and why it is an estimate).
 */
#ifndef MIGTRACE_WHATIF_H
#define MIGTRACE_WHATIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run.h"

#define WHATIF_MAX RUN_MAX_THRESHOLDS

/* One threshold T, judged over this run's records and correlation. */
struct whatif_row {
	int64_t threshold_ns;		/* T, ns */
	uint64_t lb_judged;		/* load-balancer pull records with the kernel's age */
	uint64_t lb_hot;		/* of them, hot at T by the kernel's rule (MT_RULE_HOT) */
	uint64_t wakeups;		/* wakeup placement records */
	uint64_t wakeup_hot;		/* of them, with age_ns under T (MT_TASK_HOT) */
	bool has_cost;			/* the run has a correlation */
	int cost_cells;			/* correlation cells whose age is under T */
	size_t cost_units;		/* migrated units in those cells */
	double cost_ns;			/* sum over those units of their cell's cost (>= 0), ns */
};

struct whatif {
	int n;
	bool records_complete;		/* no record lost or left unkept: counts are the run's */
	bool pulls_not_read;		/* replayed events (run_replayed): no kernel age, the
					 * pulls are not judged at any threshold */
	/* the judged pulls by the rule that decides them (MT_RULE_OF): all but MT_RULE_AGE's
	 * are the same at every threshold */
	uint64_t lb_rule[MT_NR_RULES];
	struct whatif_row row[WHATIF_MAX];
};

/* The what-if rows for thresholds t_ns[0..n) (n <= WHATIF_MAX). */
void whatif_compute(const struct run *r, const int64_t *t_ns, int n, struct whatif *w);

#endif
