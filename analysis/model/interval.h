/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Live intervals (`run --interval`): what the in-kernel aggregates counted between two reads,
 * beside what they counted since tracing began, and -P's per-process counts of the
 * migration records.  The capture fills them at each interval's end; the renderers
 * (render_interval.h, render_openmetrics_live) only format them.  Data and arithmetic only.
 */
#ifndef MIGTRACE_INTERVAL_H
#define MIGTRACE_INTERVAL_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "migtrace.h"
#include "u32_table.h"

#define INTERVAL_TOP 10			/* -P: the processes named, by migrations */
#define INTERVAL_MAX_PIDS 65536		/* processes counted by name; past it, in `other` */

/* One process's migration records, as -P counts them (its threads together). */
struct interval_pid {
	uint32_t tgid;			/* the table's key: first (u32_table.h) */
	char comm[MT_COMM_LEN];		/* its main thread's name, else the first thread seen */
	uint64_t total;			/* migration records since tracing began */
	uint64_t at_tick;		/* total at the last interval's end */
};

/* -P's table: interval_pid entries by tgid, never shrunk, so that counts stay monotone. */
struct interval_pids {
	struct u32_table t;		/* zeroed: no entry yet (the first add sets it up) */
	uint64_t other;			/* records of processes past INTERVAL_MAX_PIDS */
};

struct interval {
	unsigned index;			/* 1, 2, …: its place in the run */
	bool partial;			/* the run ended inside it: len_s is what it lasted */
	double start_s;			/* its start, s since tracing began */
	double len_s;			/* its real length, s */
	struct timespec wall_end;	/* CLOCK_REALTIME at its end */
	/* per-task counting (a launched workload, -p): delta.stats.kernel_migrations is the
	 * kernel's own count (se.nr_migrations) to compare with */
	bool per_task;
	struct mt_counts delta;		/* what the aggregates counted in it */
	struct mt_counts total;		/* ... since tracing began, up to its end */
	const struct interval_pids *pids;	/* -P: the per-process counts; NULL without */
};

/* What an interval's consumer is called for. */
enum interval_event {
	INTERVAL_TICK,			/* an interval ended (or the run, inside one: partial) */
	INTERVAL_REOPEN,		/* SIGHUP: the totals are read anew, no interval ended */
};

struct run;
/*
 * Called by the capture at each event, with the run model whose stats and hists hold the
 * totals so far (meta.duration_s the time traced so far).  Returns 0 or -errno; the capture
 * goes on either way (the consumer has said what failed), except on -EPIPE: the reader of
 * what the consumer prints went away (`| head -2`), and the run ends as on SIGINT.
 */
typedef int (*interval_fn)(void *ctx, enum interval_event ev, const struct interval *iv,
			   struct run *r);

/* out = now - prev, word by word; a word that went back (never, the counters only grow) is 0. */
void interval_diff(const struct mt_counts *now, const struct mt_counts *prev,
		   struct mt_counts *out);
/* All causes. */
uint64_t interval_migrations(const struct mt_stats *s);
/* All causes of one topology level. */
uint64_t interval_level_migrations(const struct mt_stats *s, int level);
/* What se.nr_migrations counts of them: all but fork placements (wake_up_new_task() places
 * with __set_task_cpu(), which the kernel does not count). */
uint64_t interval_kernel_counted(const struct mt_stats *s);

/* -P: one more record of process tgid (thread pid, name comm).  0 or -ENOMEM. */
int interval_pids_add(struct interval_pids *p, uint32_t tgid, uint32_t pid, const char *comm);
/* An interval ended: its counts become the base of the next. */
void interval_pids_tick(struct interval_pids *p);
/* The top max processes (max <= INTERVAL_TOP) by records since tracing began (by_total) or
 * in the interval that just ended (total - at_tick; before interval_pids_tick), most first,
 * the lower tgid first among equals; processes with none left out.  Returns how many. */
int interval_pids_top(const struct interval_pids *p, bool by_total, struct interval_pid *out,
		      int max);
void interval_pids_free(struct interval_pids *p);

#endif
