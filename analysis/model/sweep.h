/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sweep model: what one `migtrace sweep` measured, run by run, and its summary per
 * value.  cmd_sweep.c fills it, sweep_summarize() derives the rest; the renderers (the table,
 * the sweep file, CSV, OpenMetrics, the plot) only format it, the file and the exports by the
 * schema tables of sweep_schema.h.  Units are in the names and comments (docs/sweep-file.md).
 */
#ifndef MIGTRACE_SWEEP_H
#define MIGTRACE_SWEEP_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "migtrace.h"

#define SWEEP_SCHEMA "migtrace.sweep/1"
#define SWEEP_MAX_VALUES 32
#define SWEEP_MAX_REPS 100
#define SWEEP_WITNESS_PERIOD_MS 20	/* between readings of the tasks' sched files, ms */

/* A workload's throughput: what it reported, or 1 / wall time (user/host/sweep_parse.h). */
struct sweep_tput {
	double value;		/* higher is better, in unit */
	const char *unit;	/* "tps", "runs/s", "ops/s", "units/s", "cycles/s" */
	const char *source;	/* what it was read from: "pgbench tps", "1 / wall time", … */
};

/* One run at one value. */
struct sweep_run {
	int64_t value;			/* the knob's, in its unit (struct sweep) */
	bool in_ns;			/* the knob is the migration cost: value is ns */
	int rep;
	double wall_s;			/* s */
	struct sweep_tput tput;
	bool tput_reported;		/* from the workload's report, not 1 / wall */
	double idle_pct;		/* % of the CPU set's time; -1 unknown */
	uint64_t migrations[MT_NR_CAUSES];
	uint64_t lb_judged, lb_hot;	/* load-balancer pulls with an age; of them hot */
	bool witness;			/* the kernel's counts below were read (with
					 * schedstats: sweep_summarize() makes sure) */
	uint64_t failed_hot, forced;	/* summed over the traced tasks */
	bool has_lb_hot_gained;
	uint64_t lb_hot_gained;		/* /proc/schedstat's delta over the run */
	int exit_status;
	/* run delay (the run's histograms): wake-up to run, and every runnable wait; µs, -1
	 * when none was seen */
	double wake_p50_us, wake_p99_us, wait_p50_us, wait_p99_us;
	double tstar_ns;		/* the run's T* (docs/design.md "The wait side"), when
					 * found; -1 otherwise */
	/* sweep_summarize(): */
	double normalised;		/* throughput / the first value's median, */
	bool has_normalised;		/* when that median is > 0 */
};

/* Over the runs of one value. */
struct sweep_value {
	int64_t value;			/* the knob's, in its unit */
	bool in_ns;			/* value is ns (sweep_summarize()) */
	int n;				/* runs that finished */
	double tmin, tmed, tmax;	/* throughput, in the runs' unit */
	double normalised;		/* tmed / the first value's tmed; 0 when that is 0 */
	bool has_normalised;		/* n and the first value's tmed > 0 */
	const char *unit, *source;	/* of the throughput: the runs' (sweep_tput) */
	double idle_med;		/* %; -1 unknown */
	double wake_p50_us, wake_p99_us, wait_p50_us, wait_p99_us;	/* medians over its
					 * runs, µs; -1 unknown */
	uint64_t lb_judged, lb_hot, failed_hot, forced, lb_hot_gained, migrations;
	uint64_t by_cause[MT_NR_CAUSES];
	bool witness, has_gained;
};

struct sweep {
	char *const *argv;		/* the workload's command line */
	const char *cpus_arg;		/* --cpus as given; NULL: all online */
	long reps;
	/* the knob swept (user/host/tunable.h): its name, its values' unit ("ns" for the
	 * migration cost), and whether that is ns (the exports and the T* comparison) */
	const char *knob, *unit;
	bool in_ns;
	int64_t values[SWEEP_MAX_VALUES];	/* in unit, in --values order */
	int nvalues;
	char tunable_path[256];
	int64_t original;		/* in unit, restored at the end */
	const char *root;		/* --root; NULL for this machine */
	int schedstats_orig;		/* sched_schedstats before; -1: absent */
	bool schedstats;		/* schedstats_orig >= 0 (sweep_summarize()) */
	bool has_schedstat;		/* /proc/schedstat readable */
	struct sweep_run *runs;		/* in the order they ran */
	int nruns;
	bool complete;			/* every run made and the original restored */
	struct sweep_value sv[SWEEP_MAX_VALUES];	/* sweep_summarize() */
	int best, second;		/* indexes into sv: highest median throughput; -1 none */
	/* T* against the sweep (sweep_summarize()): the median of the runs' T*, and whether it
	 * lies between the best values (those whose best run reaches the best value's worst) */
	double tstar_ns;		/* ns; -1: no run found one */
	int tstar_runs;			/* runs that found one */
	int64_t best_lo, best_hi;	/* the best values' range, in unit */
	int tstar_in_best;		/* 1 within, 0 outside, -1 not known */
};

#endif
