/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a sweep reads from text: a workload's own throughput report (pgbench, hackbench,
 * perf bench sched, cachewalk), /proc/stat's CPU times, a task's sched file and
 * /proc/schedstat.  Pure functions on strings, so that they are tested on captured output.
 * User space only.
 */
#ifndef MIGTRACE_SWEEP_PARSE_H
#define MIGTRACE_SWEEP_PARSE_H

#include <stdbool.h>
#include <stdint.h>

#include "parse.h"
#include "sweep.h"


/*
 * The workload's throughput from its own output; wall_s (s) is used where the report is a
 * count (cachewalk's units) and for the fallback.  0: read from the report; -ENOENT: none
 * found, t holds 1 / wall_s in runs/s.
 */
int sweep_parse_throughput(const char *out, double wall_s, struct sweep_tput *t);

/* CPU time of a CPU set from /proc/stat's text: idle + iowait and the total, in ticks. */
struct sweep_cputime {
	uint64_t idle, total;
};
/* cpus NULL or empty: the "cpu" line of all CPUs.  0, or -ENOENT when a CPU has no line. */
int sweep_parse_proc_stat(const char *text, const struct cpu_set_list *cpus,
			  struct sweep_cputime *ct);

/* From a /proc/PID/task/TID/sched file: nr_failed_migrations_hot and nr_forced_migrations
 * (se.statistics. before 5.18, stats. after).  0, or -ENOENT when neither is there. */
int sweep_parse_task_sched(const char *text, uint64_t *failed_hot, uint64_t *forced);

/* The sum of lb_hot_gained over every domain and idle type of /proc/schedstat (versions
 * 15 to 17).  0, -ENOENT (no domain lines), or -EPROTO (a version it does not know). */
int sweep_parse_schedstat(const char *text, uint64_t *lb_hot_gained);

#endif
