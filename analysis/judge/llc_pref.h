/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cache-aware scheduling (CONFIG_SCHED_CACHE, 7.2) seen through the moves: for each move of a
 * task the kernel gave a preferred LLC, whether it stayed within that LLC, entered it, left
 * it or happened outside it; by cause, per LLC and per task (docs/design.md, "Cache-aware
 * scheduling").  From the records kept: a run that kept only some says so.
 */
#ifndef MIGTRACE_LLC_PREF_H
#define MIGTRACE_LLC_PREF_H

#include <stdbool.h>
#include <stdint.h>

#include "run.h"

enum llc_move {
	LLC_MOVE_NO_PREF = 0,	/* the task had no preferred LLC (-1) */
	LLC_MOVE_WITHIN,	/* from one CPU of its preferred LLC to another */
	LLC_MOVE_ENTERS,	/* into its preferred LLC from another */
	LLC_MOVE_LEAVES,	/* out of its preferred LLC */
	LLC_MOVE_OUTSIDE,	/* between CPUs of other LLCs */
	LLC_MOVE_UNMAPPED,	/* a preference, but the kernel's LLC ids were not read */
	LLC_NR_MOVES,
};

extern const char *const llc_move_names[LLC_NR_MOVES];	/* "no_preference", "within", … */

#define LLC_PREF_MAX_LLCS 32	/* LLCs listed; more are summed in the last */
#define LLC_PREF_MAX_TASKS 8	/* tasks listed: those with the most moves */

struct llc_pref_llc {
	int id;				/* the kernel's LLC id */
	char cpus[96];			/* its CPUs, "" not known */
	uint64_t tasks;			/* tasks whose last preference it was */
	uint64_t moves[LLC_NR_MOVES];	/* moves of tasks preferring it */
};

struct llc_pref_task {
	uint32_t pid;
	char comm[16];
	int pref_llc;			/* at its last move; -1 none */
	uint64_t total;
	uint64_t moves[LLC_NR_MOVES];
};

struct llc_pref {
	bool read;			/* some record carries the preference (BPF, 7.2+) */
	bool mapped;			/* the kernel's LLC ids are known (environment) */
	uint64_t records;		/* records looked at */
	uint64_t read_records;		/* of them with the preference read */
	uint64_t moves[LLC_NR_MOVES];
	uint64_t by_cause[MT_NR_CAUSES][LLC_NR_MOVES];
	int nllcs;
	struct llc_pref_llc llc[LLC_PREF_MAX_LLCS];
	uint64_t ntasks;		/* tasks with moves read */
	int nshown;
	struct llc_pref_task task[LLC_PREF_MAX_TASKS];
};

/* Fills p from r's records and environment.  0, or -ENOMEM. */
int llc_pref_compute(const struct run *r, struct llc_pref *p);

/* The share of moves with a preference that ended inside it (within + enters), in [0, 1];
 * NaN when none had one. */
double llc_pref_held(const uint64_t moves[LLC_NR_MOVES]);

#endif
