/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ftrace half's model: scheduler events read from a tracefs instance (ftrace_tracer.c)
 * or from a trace-cmd capture (trace_dat.c), decoded into struct sched_event and replayed
 * here in timestamp order into what the BPF programs produce in the kernel: migration
 * records (struct mt_migrate), off-CPU periods for self-timed units (struct mt_offcpu), the
 * counters and histograms (struct mt_stats, struct mt_hists) and the src x dst pairs.
 *
 * What the events cannot tell is not made up: a sched_migrate_task event carries no on_rq,
 * no exec_start and no run_delay, so the kernel's age, the rule's other tests and the wait
 * are not read (docs/ftrace.md, "What is not").  Causes are told from the order of events
 * around the move (docs/ftrace.md, "How causes are told"); the stopper's moves of a
 * running task (active balance, affinity, sched_exec) are told apart only where an exec
 * event follows (MT_CAUSE_EXEC), the rest are counted as MT_CAUSE_ACTIVE and in
 * sched_replay_info.stopper_moves, which the run shows as "active*".  User space only.
 */
#ifndef MIGTRACE_SCHED_REPLAY_H
#define MIGTRACE_SCHED_REPLAY_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdint.h>

#include "migtrace.h"
#include "tracer.h"	/* tracer_migrate_fn, tracer_offcpu_fn */

struct run;
struct run_topo;

enum sched_event_type {
	SE_SWITCH = 1,		/* sched_switch: prev (pid, state) out, next in, on cpu */
	SE_MIGRATE,		/* sched_migrate_task: pid from orig_cpu to dest_cpu; the
				 * event's common_pid (cur_pid) ran the move */
	SE_WAKING,		/* sched_waking: pid is being woken (before its placement) */
	SE_WAKEUP,		/* sched_wakeup: pid queued on target_cpu */
	SE_WAKEUP_NEW,		/* sched_wakeup_new: a new task queued on target_cpu */
	SE_FORK,		/* sched_process_fork: parent pid forked child pid */
	SE_EXEC,		/* sched_process_exec: pid (old_pid) executed a new image */
	SE_EXIT,		/* sched_process_exit: pid is exiting */
};

/* One decoded event: only what the replay reads of it. */
struct sched_event {
	uint64_t ts_ns;		/* the instance's clock: "mono" is CLOCK_MONOTONIC */
	uint32_t cpu;		/* the CPU whose buffer held it */
	uint8_t type;		/* enum sched_event_type */
	uint32_t cur_pid;	/* common_pid: the task that was running */
	uint32_t pid;		/* SWITCH: prev_pid; MIGRATE/WAKING/WAKEUP*: pid; FORK: parent;
				 * EXEC/EXIT: pid */
	uint32_t pid2;		/* SWITCH: next_pid; FORK: child_pid; EXEC: old_pid (a
				 * thread's exec takes its leader's pid; 0: the same) */
	int64_t prev_state;	/* SWITCH: prev_state as the event stores it (0: preempted,
				 * runnable; see sched_replay_preempted()) */
	uint32_t orig_cpu;	/* MIGRATE */
	uint32_t dest_cpu;	/* MIGRATE; WAKING/WAKEUP*: target_cpu */
	char comm[MT_COMM_LEN];	 /* SWITCH: prev_comm; MIGRATE/WAKE*: comm; FORK: child_comm */
	char comm2[MT_COMM_LEN]; /* SWITCH: next_comm; MIGRATE: the current task's comm where
				  * known (the capture's pid -> comm map), else "" */
	int32_t prio;		/* MIGRATE: the task's prio (SWITCH: prev_prio), when has_prio;
				 * under 100 is RT or DL: the fair balancer's never (cause
				 * unknown, MT_RF_NOT_FAIR) */
	bool has_prio;		/* false: prio not read (left zeroed) */
};

/* Which tasks are replayed: as struct tracer_opts' scope. */
struct sched_replay_opts {
	int64_t hot_ns;			/* the threshold the pulls would be judged at, ns */
	const struct run_topo *topo;	/* per CPU level ids; NULL: every level unknown */
	int nr_cpus;			/* the pair matrix is nr_cpus x nr_cpus */
	uint8_t scope;			/* enum mt_scope */
	/* tgid of a pid not seen forked (a task running before tracing began); NULL or a
	 * return of 0: the pid is its own tgid.  The live backend reads /proc. */
	uint32_t (*tgid_of)(void *ctx, uint32_t pid);
	tracer_migrate_fn on_migrate;	/* NULL: none sent */
	tracer_offcpu_fn on_offcpu;	/* NULL: none sent */
	tracer_switch_fn on_switch;	/* NULL: none sent */
	tracer_waking_fn on_waking;	/* NULL: none sent */
	void *ctx;
	bool no_records;		/* aggregates only (-a without exports) */
};

/* What the replay could not read or tell, for the run's meta and its text. */
struct sched_replay_info {
	uint64_t events;		/* events replayed */
	uint64_t out_of_order;		/* events older than one already replayed (dropped) */
	uint64_t bad_cpu;		/* events naming a CPU past nr_cpus (a damaged capture's:
					 * dropped) */
	uint64_t stopper_moves;		/* moves by the stopper not told apart (see above) */
	uint64_t unknown_age;		/* migrations of tasks never seen switching out */
	uint64_t tasks_dropped;		/* first sights past SCHED_REPLAY_MAX_TASKS live tasks:
					 * not replayed */
	bool saw[SE_EXIT + 1];		/* which event types appeared at all */
};

/* Live tasks the replay keeps state for (each freed at its exit's last switch-out). */
#define SCHED_REPLAY_MAX_TASKS (1u << 20)
/* Stopper moves held back until the task's exec or next switch-out tells EXEC from ACTIVE. */
#define SCHED_REPLAY_MAX_PENDING 64

struct sched_replay;

struct sched_replay *sched_replay_new(const struct sched_replay_opts *o);
/* Marks tgid's tasks as traced (a launched workload or -p); from_exec: from its next exec. */
int sched_replay_track(struct sched_replay *rp, uint32_t tgid, bool from_exec);
/*
 * Marks pid as a per-CPU stopper ("migration/N", N = cpu), as a sched_switch naming it
 * would.  A live backend names them from /proc before the first event: the switch-in of
 * a stopper can go untraced, and its move would then look like the balancer's
 * (docs/ftrace.md, "How causes are told").  0, or -ENOMEM.
 */
int sched_replay_note_stopper(struct sched_replay *rp, uint32_t pid, int cpu);
/* Replays one event; events must come in ts order (see sched_replay_info.out_of_order).
 * 0 or the callbacks' error. */
int sched_replay_event(struct sched_replay *rp, const struct sched_event *e);
/* The counters and histograms so far (struct tracer_read_counts' meaning). */
void sched_replay_counts(const struct sched_replay *rp, struct mt_stats *stats,
			 struct mt_hists *hists);
/* pairs[nr_cpus * nr_cpus]: src x dst of every migration replayed. */
void sched_replay_pairs(const struct sched_replay *rp, uint64_t *pairs);
void sched_replay_info(const struct sched_replay *rp, struct sched_replay_info *info);
/* Sends the stopper moves still held back (as ACTIVE): call once the events end, before
 * reading the counts.  0 or the callbacks' error. */
int sched_replay_flush(struct sched_replay *rp);
/* Live tasks with state (for the tests: exits free theirs). */
uint64_t sched_replay_live_tasks(const struct sched_replay *rp);
/* The tracepoint's name of an event type ("sched_switch"); "" for another value. */
const char *sched_replay_event_name(int type);
/*
 * What the replay found, into the run: stats, hists, pairs (r->pairs for r->meta.nr_cpus,
 * the replay's nr_cpus), and meta.backend's replay members (replayed, events, out_of_order,
 * stopper_moves, unknown_age, the event types never seen as missing, what is not read).
 * The caller sets backend.name, why, lost_events and source.  Call after sched_replay_flush.
 */
void sched_replay_to_run(const struct sched_replay *rp, struct run *r);
/* prev_state of a sched_switch means the task was preempted (still runnable). */
bool sched_replay_preempted(int64_t prev_state);
void sched_replay_free(struct sched_replay *rp);

#endif
