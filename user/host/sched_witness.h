/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own witnesses of a sweep's runs (`migtrace sweep`): kernel.sched_schedstats
 * turned on for the sweep and put back after (a record beside the tunable's lets
 * `sweep --restore` do it after a kill -9), /proc/schedstat's lb_hot_gained, each traced
 * task's sched file read while it runs, and the CPU set's times from /proc/stat.  The
 * parsing is sweep_parse.c's; this is the reading.  root is a test aid: the files under
 * root (NULL: /).  User space only.
 */
#ifndef MIGTRACE_SCHED_WITNESS_H
#define MIGTRACE_SCHED_WITNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "parse.h"
#include "sweep_parse.h"

/* kernel.sched_schedstats as a sweep holds it. */
struct schedstats_hold {
	const char *root;
	int orig;			/* the value found; -1: no sched_schedstats */
	bool set;			/* turned on by schedstats_hold_begin: _end puts orig back */
};

/* Turns sched_schedstats on where it exists and is off, its original recorded first; says
 * on stderr when it cannot. */
void schedstats_hold_begin(struct schedstats_hold *h, const char *root);
/* Puts back the original, if schedstats_hold_begin changed it. */
void schedstats_hold_end(struct schedstats_hold *h);
/* --restore: the original a killed sweep recorded put back.  1 when it was, 0 when there
 * was no record, -errno (with a line on stderr) when it could not be. */
int schedstats_restore_from_record(const char *root);

/* Whether /proc/schedstat can be read. */
bool schedstat_readable(const char *root);
/* The sum of lb_hot_gained of /proc/schedstat into *v; false when it cannot be read. */
bool schedstat_read_hot_gained(const char *root, uint64_t *v);
/* The CPU set's idle + iowait and total ticks from the real /proc/stat (cpus NULL or empty:
 * all).  0 or -errno. */
int proc_stat_cpu_times(const struct cpu_set_list *cpus, struct sweep_cputime *ct);

/*
 * The kernel's per-task witnesses: every task of a process group has its sched file read
 * every SWEEP_WITNESS_PERIOD_MS by a thread while it runs (a task's file goes with it once
 * its parent reaps it), the last reading kept.  Counts of the last period of a task that
 * exits may be missed, so the sums are lower bounds.
 */
struct sched_witness;

struct sched_witness *sched_witness_new(void);
/* Starts the thread reading the tasks of pgid.  0 or -errno. */
int sched_witness_start(struct sched_witness *w, int pgid);
/* Stops the thread; the sums of nr_failed_migrations_hot and nr_forced_migrations over the
 * tasks into *failed_hot and *forced (added to).  Whether any task was witnessed: without
 * schedstats the sched files have no such lines.  false, with nothing added, when it was
 * never started. */
bool sched_witness_stop(struct sched_witness *w, uint64_t *failed_hot, uint64_t *forced);
/* NULL is a no-op. */
void sched_witness_free(struct sched_witness *w);

#endif
