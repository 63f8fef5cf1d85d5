/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's configuration, the typed options struct (as retsnoop's env): filled by `run`'s
 * argp options, or directly by `validate`, never by rebuilding a command line.  Then
 * run_config_resolve() checks and resolves it before anything is launched (CPUs, the
 * workload's path and command line, --unit, --calibration, -p) and records it in the run
 * model.  User space only.
 */
#ifndef MIGTRACE_RUN_CONFIG_H
#define MIGTRACE_RUN_CONFIG_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cachewalk.h"
#include "interval.h"
#include "parse.h"
#include "run.h"

/*
 * A look of a sequential experiment (validate --budget): r holds the units of rounds_done
 * rounds of cachewalk's schedule, and the workload waits; the look records itself in r->seq.
 * Returns the rounds it may run before the next look, or 0 to end it now.
 */
typedef uint32_t (*round_fn)(void *ctx, struct run *r, uint32_t rounds_done);

struct run_config {
	enum run_kind kind;		/* run or validate */
	/* the workload */
	char **argv;			/* its command line as given (run); NULL: built from cw */
	long pid;			/* -p: an existing process instead; 0 for none */
	const char *cpus_arg;		/* --cpus; NULL: all online */
	const char *user;		/* --user; NULL: ours */
	bool cachewalk;			/* the workload is the built-in cachewalk */
	struct cachewalk_config cw;	/* its options: parsed from argv, or set by validate */
	const char *unit_arg;		/* --unit BINARY:FUNCTION; NULL: cachewalk's, or none */
	/* tracing */
	uint64_t duration_ns;		/* --duration, ns; 0: until the workload ends */
	int64_t hot_ns;			/* --hot-ns, ns; RUN_NO_HOT_ARG: the kernel's value */
	uint64_t ringbuf_bytes;		/* a power of two, bytes */
	uint8_t backend;		/* --backend: enum tracer_backend_id (0: auto) */
	const char *keep_trace;		/* --keep-trace FILE: the ftrace capture kept; NULL */
	long max_records;		/* records of each kind kept; 0: all */
	/* analysis and output */
	const char *calibration;	/* --calibration FILE (a calibrate --json result) */
	const char *output;		/* -o FILE; "-" for stdout */
	bool cachewalk_checked;		/* run_config_check_cachewalk() passed (validate: early) */

	/* resolved by run_config_resolve(), before anything is launched */
	char path[PATH_MAX];		/* the workload's executable */
	char **exec_argv;		/* what it is started with: argv, or cw_argv's */
	struct cachewalk_argv cw_argv;	/* the command line built from cw (validate) */
	char unit_bin[PATH_MAX];	/* the units' binary, resolved */
	char unit_func[256];		/* ... and function */

	/* live intervals (--interval, --count, -P; interval.h): set before run_command */
	uint64_t interval_ns;		/* 0: none; --textfile alone: 15 s */
	long interval_count;		/* --count: intervals the run lasts; 0: no end */
	bool per_pid;			/* -P: count the migration records by process */
	bool json_lines;		/* -j: stdout has the JSON lines, the text goes to stderr */
	const char *textfile_dir;	/* --textfile: SIGHUP rechecks it instead of ending */
	interval_fn on_interval;	/* called at each interval's end, and at SIGHUP */
	void *on_interval_ctx;
	/* the round gate of cachewalk's controlled experiment (workloads/unit_log.h): the
	 * rounds before the first look, 0 for none; on_round is called at each look */
	uint32_t first_rounds;
	uint64_t gate_deadline_ns;	/* CLOCK_MONOTONIC: a look no later than the first round
					 * ending past it (min_look_rounds at least); 0: none */
	uint32_t min_look_rounds;	/* the fewest rounds a look judges */
	round_fn on_round;
	void *on_round_ctx;
	double budget_s;		/* validate --budget, s from its start; 0: none */
	int max_looks;			/* the sequence's most looks */
	double level;			/* the intervals' level: CORR_LEVEL, or the sequence's */
	/* scope: every task (-a) or a cgroup v2 subtree (--cgroup), instead of a workload */
	bool all;			/* -a */
	const char *cgroup_arg;		/* --cgroup PATH; NULL: none */
	bool records_wanted;		/* an export reads the migration records (--csv, ...) */
	bool switch_records;		/* the native Perfetto trace: what ran on each CPU */
	/* --probe-moves RATE (docs/design.md, "Probed moves"): moments a second; 0: none */
	double probe_rate_hz;
	double probe_share;		/* --probe-share: of the workload's CPU time */
	uint64_t probe_seed;		/* --probe-seed */
	uint64_t cgroup_id;		/* --cgroup's kernfs id, resolved */
};

/* The kernfs id of the cgroup v2 directory path (its file handle).  0 or -errno. */
int run_config_cgroup_id(const char *path, uint64_t *id);
/* -a or --cgroup: no workload; the run ends on a signal or --duration. */
bool run_config_scoped(const struct run_config *c);
/* -a or --cgroup with nothing that reads the records: in-kernel aggregates only. */
bool run_config_aggregates_only(const struct run_config *c);

/* The defaults every command starts from. */
void run_config_default(struct run_config *c, enum run_kind kind);
/*
 * Checks and resolves c, then records it in r: the environment (topology, caches, the
 * tunable), the configuration, the threshold, the command line, the calibration file.  0,
 * or the exit status to end with: 2 (bad input, one line on stderr naming it), 1, or 127
 * (no such workload).
 */
int run_config_resolve(struct run_config *c, struct run *r);
/*
 * cachewalk's needs, before it runs: its working sets and polluter buffers must fit in the
 * memory a buffer can take here (mem_room.h), else one line and 2; a controlled experiment
 * expected to last over a minute says how long on stderr.  cpus: the CPUs it may use.
 * run_config_resolve() calls it for a cachewalk run; validate calls it before calibrating.
 */
int run_config_check_cachewalk(struct run_config *c, const struct cpu_set_list *cpus,
			       const char *cmd);
/* Where the human text goes: stdout, or stderr when the run file is written to stdout. */
FILE *run_config_text(const struct run_config *c);

#endif
