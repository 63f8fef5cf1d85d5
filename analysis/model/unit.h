/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a unit record (struct mt_unit, bpf/migtrace.h) says about its thread's switch-outs
 * and migrations, in the words of docs/design.md "Terms": whether a unit follows a
 * migration, is clean before or inside, or is warm.  The one place that decides it: the
 * correlation, the run file's writer and the exports all ask here.
 */
#ifndef MIGTRACE_UNIT_H
#define MIGTRACE_UNIT_H

#include <linux/types.h>
#include <stdbool.h>

#include "migtrace.h"

/* Follows a migration: its thread migrated since its previous unit ended. */
static inline bool unit_migrated(const struct mt_unit *u)
{
	return u->migs_before > 0;
}

/*
 * Clean before: its thread was neither switched out nor migrated since its previous unit
 * ended; it ran on straight from that unit.
 */
static inline bool unit_clean_before(const struct mt_unit *u)
{
	return !u->switches_before && !u->migs_before;
}

/* Clean inside: its thread was neither switched out nor migrated while it ran. */
static inline bool unit_clean_inside(const struct mt_unit *u)
{
	return !u->switches_during && !u->migs_during;
}

/*
 * Warm: clean before and inside, and not its thread's first unit (whose pages are still
 * cold).  The warm baseline is the median duration of a thread's warm units; a controlled
 * experiment takes only those its workload marked as baseline.
 */
static inline bool unit_warm(const struct mt_unit *u)
{
	return unit_clean_before(u) && unit_clean_inside(u) && u->prev_end_ns != 0;
}

/* qsort's order of units: by thread, then start (the order correlate and the probes read). */
static inline int unit_cmp_thread_start(const void *a, const void *b)
{
	const struct mt_unit *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

#endif
