/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run --probe-moves: the intervention inside a live run (docs/design.md, "Probed moves").  At
 * random moments a thread of the workload is drawn and, by a coin flip, moved to another CPU
 * of its mask while it sleeps (its mask narrowed to that CPU until it has run there) or left
 * where it is (a sham).  What the thread does next (its next unit, or without units its run
 * from the switch-in to its next block) is compared between the two arms: a randomised
 * experiment, whose difference is the cost of a move for this workload at this age.
 * This header holds what the mover recorded and what the judge found; the model only.
 */
#ifndef MIGTRACE_PROBE_H
#define MIGTRACE_PROBE_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdint.h>

#include "findings.h"
#include "migtrace.h"

/* --probe-moves' defaults: moments a second, and the share of the workload's CPU time the
 * moves may be charged (PROBE_CHARGE_NS each). */
#define PROBE_DEFAULT_RATE_HZ 20.0
#define PROBE_DEFAULT_SHARE 0.02
/*
 * What one move is charged against that share: 1 ms of the workload's CPU time, above the
 * largest refill migtrace has measured for a move on the hosts it was tried on (~440 µs
 * between far vCPUs), so that the share bounds the real cost from above.
 */
#define PROBE_CHARGE_NS 1000000ULL
/* A move whose thread has not run on its new CPU this long after is given its mask back. */
#define PROBE_HOLD_MAX_NS 1000000000ULL

/* What became of a moment (struct probe_moment.outcome). */
enum probe_outcome {
	PROBE_DONE = 0,		/* a sham; or a move the thread ran after, on its new CPU */
	PROBE_NOT_RUN,		/* a move whose thread slept past PROBE_HOLD_MAX_NS: its mask
				 * came back before it ran */
	PROBE_GONE,		/* the thread exited before its mask could be narrowed or
				 * given back, or the mask could not be narrowed (the guard
				 * or the kernel refused): no move was made */
	PROBE_NR_OUTCOMES
};

/* One moment of the intervention, as the mover made it. */
struct probe_moment {
	uint64_t ts_ns;			/* CLOCK_MONOTONIC, just before the move or sham */
	uint64_t held_ns;		/* how long the mask stayed narrowed, ns; 0 for a sham */
	uint32_t tid, tgid;
	int32_t src_cpu;		/* the CPU it slept on */
	int32_t dst_cpu;		/* the CPU it was moved to; -1 for a sham */
	uint8_t kind;			/* enum mt_probe_kind */
	uint8_t outcome;		/* enum probe_outcome */
};

extern const char *const probe_kind_names[3];		/* "", "sham", "move" */
extern const char *const probe_outcome_names[PROBE_NR_OUTCOMES];	/* "done", … */

/* What the intervention was asked and what it did. */
struct probe_setup {
	bool on;			/* run --probe-moves was given */
	double rate_hz;			/* moments a second (Poisson) */
	double max_share;		/* of the workload's CPU time the moves may be charged */
	uint64_t seed;			/* the draws' PRNG seed */
	bool by_runs;			/* no units: a thread's run to its next block is timed */
	/* the mover's counts */
	uint64_t drawn;			/* moments drawn */
	uint64_t moves, shams;		/* made */
	uint64_t skipped_awake;		/* none of the threads drawn (4 at most) was asleep */
	uint64_t skipped_narrowed;	/* its mask is not the workload's (the workload
					 * narrowed it itself): never touched */
	uint64_t skipped_budget;	/* the share was spent */
	uint64_t skipped_one_cpu;	/* its mask leaves no other CPU */
	uint64_t masks_narrowed;	/* sched_setaffinity to one CPU done */
	uint64_t masks_restored;	/* given back, by the mover (the guard's are not
					 * counted: it runs after migtrace ended) */
	uint64_t masks_workload_set;	/* not given back: the workload set the thread's mask
					 * itself while it was narrowed */
	uint64_t masks_inherited;	/* threads or processes the moved thread started while
					 * narrowed, given the workload's mask back */
	double workload_cpu_s;		/* the workload's CPU time while probing, s; -1 not
					 * read */
};

/* What the judge found (analysis/judge/probe.c). */
struct probe_result {
	/* the moments' next units, by what they show */
	uint64_t timed_moves;		/* a move, and the unit after it followed that move */
	uint64_t timed_shams;		/* a sham, and the unit after it stayed on its CPU */
	uint64_t awake;			/* the thread was not between units at the moment (its
					 * previous unit ended after it; a run: its off-CPU period
					 * began after it): void, in both arms alike */
	uint64_t unseen;		/* a move the next unit does not follow (not run) */
	uint64_t kernel_moved;		/* the kernel moved the thread before the moment (a
					 * move: besides the probe's) */
	uint64_t late;			/* the unit started after the hold's limit: a move
					 * would have had its mask back */
	uint64_t sham_moved;		/* of the shams timed, the kernel moved the thread
					 * after the moment: kept, what happens unprobed */
	uint64_t no_unit;		/* no unit of that thread after the moment */
	uint64_t spanning;		/* the unit itself was switched out or moved */
	struct corr_result corr;	/* moves against shams, by age */
	struct verdict verdict;		/* on corr, in validate's words */
	double cost_share;		/* the moves' measured refill over the workload's CPU
					 * time while probing: what probing cost it; NAN unknown */
};

#endif
