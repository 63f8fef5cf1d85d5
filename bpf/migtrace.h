/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared between bpf/migtrace.bpf.c and user space: record layouts, enums, in-kernel
 * aggregates.  No includes: the BPF side gets __u32 & co from vmlinux.h, user space from
 * <linux/types.h> before including this.
 */
#ifndef MIGTRACE_H
#define MIGTRACE_H

#define MT_COMM_LEN 16
#define MT_HIST_SLOTS 28	/* log2 of µs: slot k holds [2^k, 2^(k+1)) µs, last is open */

/* Why a task moved, as told by what the tracepoints and CO-RE reads show. */
enum mt_cause {
	MT_CAUSE_WAKEUP = 0,	/* wakeup placement: select_task_rq() in try_to_wake_up() */
	MT_CAUSE_LB_PULL,	/* load balancer detached a queued task (on_rq == MIGRATING) */
	MT_CAUSE_ACTIVE,	/* active balance: the stopper pushed a task it had preempted */
	MT_CAUSE_AFFINITY,	/* src no longer in the task's allowed CPUs (setaffinity/cpuset) */
	MT_CAUSE_FORK,		/* new task placed away from its parent in wake_up_new_task() */
	MT_CAUSE_EXEC,		/* sched_exec() balancing, moved by the stopper during execve */
	MT_CAUSE_UNKNOWN,	/* none of the above could be told (e.g. RT push, NUMA) */
	MT_CAUSE_UNSEEN,	/* no sched_migrate_task event: the task next ran on another CPU */
	MT_NR_CAUSES,
};

/* The migrated task's state at the moment of the move. */
enum mt_task_state {
	MT_STATE_RUNNING = 0,	/* it was running until the stopper displaced it */
	MT_STATE_QUEUED,	/* runnable, waiting on src's run queue */
	MT_STATE_WAKING,	/* being woken (on_rq == 0) */
	MT_STATE_NEW,		/* never ran: fork placement */
};

/* Values of the tracked_tgids map. */
enum mt_track_mode {
	MT_TRACK_NOW = 1,	/* -p PID: trace its tasks from the first sight */
	MT_TRACK_AT_EXEC = 2,	/* a launched workload: trace from its execve */
};

/*
 * Which tasks are traced (rodata `scope`): the tgids user space names (a launched workload,
 * -p), every task (-a), or every task of a cgroup v2 subtree (--cgroup).
 */
enum mt_scope {
	MT_SCOPE_TGIDS = 0,	/* tracked_tgids and their children */
	MT_SCOPE_ALL,		/* every task but the idle tasks */
	MT_SCOPE_CGROUP,	/* tasks whose default-hierarchy cgroup is scope_cgroup_id or
				 * below it */
};

/* The deepest cgroup v2 nesting --cgroup looks through (the kernel allows more). */
#define MT_CGROUP_MAX_DEPTH 32

enum mt_rec_kind {
	MT_REC_MIGRATE = 1,
	MT_REC_UNIT = 2,
	MT_REC_OFFCPU = 3,
	MT_REC_SWITCH = 4,
	MT_REC_WAKING = 5,
	MT_REC_PROBE_UNIT = 6,	/* struct mt_unit: a probed thread's run from a wake to a block */
};

/*
 * run --probe-moves: what a probe moment did to the thread it drew (docs/design.md, "Probed
 * moves"): a move to another CPU of its mask, or a sham, the same moment with no move.
 */
enum mt_probe_kind {
	MT_PROBE_SHAM = 1,
	MT_PROBE_MOVE = 2,
};

/*
 * A thread armed by a probe moment (the probe_arms map, by thread id), for a program without
 * units: its next run from a switch-in to a block is sent as an MT_REC_PROBE_UNIT record.
 * User space writes moment_ns and kind, zeroes the rest; BPF fills the rest.
 */
struct mt_probe_arm {
	__u64 moment_ns;		/* CLOCK_MONOTONIC: when user space drew the thread */
	__u32 kind;			/* enum mt_probe_kind */
	__u32 started;			/* the run began: switched in after the moment */
	__u64 start_ns;			/* its switch-in */
	__u64 exec_start_ns;		/* se.sum_exec_runtime then */
	__u64 off_ns;			/* the off-CPU period it ended */
	__u64 mig_age_ns;		/* the last migration between the moment and the run */
	__u64 mig_ts_ns;
	__u32 migs_before;		/* migrations from the moment to the switch-in */
	__u32 migs_during;		/* migrations inside the run (none while it runs) */
	__u32 preempts;			/* involuntary switch-outs inside the run */
	__u16 cpu_start;
	__u16 mig_src_cpu;
	__u16 mig_dst_cpu;
	__u8 mig_cause;
	__u8 pad[5];
};

enum mt_rec_flags {
	MT_RF_KAGE_VALID = 1 << 0,	/* kernel_age_ns was computed (exec_start was set) */
	MT_RF_PREEMPTED = 1 << 1,	/* the last switch-out on src was involuntary */
	MT_RF_SEEN_OUT = 1 << 2,	/* we saw the task switch out on src (age is exact) */
	/*
	 * What the kernel's rule looks at besides the age, read at load-balancer pulls only
	 * (docs/design.md, "What the kernel does"; MT_RULE_OF says which decides first).
	 */
	MT_RF_NOT_FAIR = 1 << 3,	/* RT/DL priority or SCHED_EXT: task_hot() says cold */
	MT_RF_IDLE_POLICY = 1 << 4,	/* SCHED_IDLE: task_hot() says cold */
	MT_RF_NUMA_TO_PREF = 1 << 5,	/* across nodes onto its preferred node:
					 * migrate_degrades_locality() says cold */
	MT_RF_NUMA_FROM_PREF = 1 << 6,	/* across nodes off its preferred node, which runs
					 * others too: migrate_degrades_locality() says hot */
	MT_RF_NUMA_WEIGHED = 1 << 7,	/* across nodes, neither preferred: the task's NUMA
					 * faults were weighed, not read here */
	MT_RF_CORE_COOKIE = 1 << 8,	/* its core-scheduling cookie is not the busy
					 * destination core's: task_hot() says hot */
	MT_RF_DELAYED = 1 << 9,		/* a delayed dequeue (se.sched_delayed): asleep, kept
					 * queued for its lag */
	MT_RF_WAIT_VALID = 1 << 10,	/* wait_ns was computed (a pull, CONFIG_SCHED_INFO) */
	MT_RF_PREF_LLC = 1 << 11,	/* pref_llc was read: a kernel with cache-aware
					 * scheduling (task_struct.preferred_llc, 7.2) */
};

/*
 * The topology level of a move, closest first, from the CPUs' SMT core, last-level cache
 * and NUMA node (MT_LEVEL_OF).  0 is "not known", which is also what a record read from a
 * file written before levels were kept says.
 */
enum mt_level {
	MT_LEVEL_UNKNOWN = 0,	/* same node, not SMT siblings, LLC sharing not known */
	MT_LEVEL_SMT,		/* SMT siblings: one core (the kernel's SD_SHARE_CPUCAPACITY) */
	MT_LEVEL_LLC,		/* other cores sharing the last-level cache */
	MT_LEVEL_CROSS_LLC,	/* the same node, another last-level cache */
	MT_LEVEL_NODE,		/* another NUMA node */
	MT_NR_LEVELS,
};

/* The CPUs whose kernel LLC id bpf/llc_ids.bpf.c reads (cache-aware scheduling, 7.2). */
#define MT_LLC_IDS_MAX 1024

/*
 * The level of a move from CPU a to CPU b, from their ids: core (the same for SMT siblings
 * only), llc (the same for CPUs sharing the last-level cache; < 0 not known) and node.
 */
#define MT_LEVEL_OF(core_a, core_b, llc_a, llc_b, node_a, node_b)			\
	((node_a) != (node_b) ? MT_LEVEL_NODE :						\
	 (core_a) >= 0 && (core_a) == (core_b) ? MT_LEVEL_SMT :				\
	 (llc_a) < 0 || (llc_b) < 0 ? MT_LEVEL_UNKNOWN :				\
	 (llc_a) == (llc_b) ? MT_LEVEL_LLC : MT_LEVEL_CROSS_LLC)

/* One real migration (src != dst) of a traced task. */
struct mt_migrate {
	__u32 kind;			/* MT_REC_MIGRATE */
	__u32 pid;			/* thread id */
	__u32 tgid;			/* process id */
	__u32 cur_pid;			/* the task that ran the move: waker, balancer, stopper */
	__u16 src_cpu;
	__u16 dst_cpu;
	__u8 cause;			/* enum mt_cause */
	__u8 state;			/* enum mt_task_state */
	__u8 on_rq;			/* p->on_rq at the tracepoint */
	__u8 level;			/* enum mt_level of src -> dst */
	__u32 flags;			/* enum mt_rec_flags */
	__s32 pref_llc;			/* p->preferred_llc at the move, the kernel's LLC id
					 * (sd_llc_id); -1 none; valid with MT_RF_PREF_LLC */
	__u64 ts_ns;			/* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u64 age_ns;			/* CLOCK_MONOTONIC: ts - last switch-out on src; 0 running */
	__s64 kernel_age_ns;		/* rq_clock_task(src) - se.exec_start: task_hot()'s view */
	__u64 off_cpu_ns;		/* ts - last switch-out, also when age is 0 by definition */
	__u64 runtime_since_mig_ns;	/* on-CPU time since the task's previous migration */
	char comm[MT_COMM_LEN];
	char cur_comm[MT_COMM_LEN];
	__u64 wait_ns;			/* a pull: how long the task had waited runnable since
					 * it last ran (run_delay's growth, 1 µs resolution);
					 * valid with MT_RF_WAIT_VALID */
};

/*
 * One unit of work of a traced thread: the traced function's entry to its return (uprobe +
 * uretprobe), with what happened to the thread since its previous unit ended.  The join of
 * migrations with units is done here, in the thread's own order of events.  A probed run
 * (MT_REC_PROBE_UNIT) has the same layout: start_ns its switch-in, end_ns start_ns plus the
 * CPU time it ran to its block, tag its enum mt_probe_kind, nominal_age_ns its moment.
 */
struct mt_unit {
	__u32 kind;			/* MT_REC_UNIT, MT_REC_PROBE_UNIT */
	__u32 pid;
	__u32 tgid;
	__u16 cpu_start;
	__u16 cpu_end;
	__u64 start_ns;			/* CLOCK_MONOTONIC, entry */
	__u64 end_ns;			/* CLOCK_MONOTONIC, return */
	__u64 prev_end_ns;		/* the thread's previous unit's return, 0 for its first */
	__u64 tag;			/* 2nd argument of the unit function (cachewalk: role) */
	__u64 nominal_age_ns;		/* 3rd argument (cachewalk: the age it aimed at) */
	__u32 migs_before;		/* migrations since the previous unit returned */
	__u32 switches_before;		/* switch-outs since the previous unit returned */
	__u32 migs_during;		/* migrations inside this unit */
	__u32 switches_during;		/* switch-outs inside this unit */
	__u64 last_off_ns;		/* the last off-CPU period before the unit began */
	__u64 mig_age_ns;		/* age of the last migration before the unit */
	__u64 mig_ts_ns;		/* when it happened */
	__u16 mig_src_cpu;
	__u16 mig_dst_cpu;
	__u8 mig_cause;			/* enum mt_cause */
	__u8 pad[3];
	/* the controlled experiment's trial, from the unit log (0 for probe-timed units) */
	__u64 streamed_bytes;		/* bytes the polluter on A streamed while it was away */
	__u32 round;			/* the sample round of the shuffled schedule */
	__u32 rate_mbps;		/* the polluter's target, MB/s; 0: as fast as it can */
};

/*
 * A context switch with a traced task on either side, sent only for a per-CPU "what ran"
 * view (run --perfetto): who left the CPU in which state, who took it.
 */
struct mt_switch {
	__u32 kind;			/* MT_REC_SWITCH */
	__u16 cpu;
	__u8 preempted;			/* prev was preempted: runnable, whatever its state */
	__u8 pad;
	__u64 ts_ns;			/* CLOCK_MONOTONIC */
	__u32 prev_pid, prev_tgid;
	__u32 next_pid, next_tgid;
	__s32 prev_prio, next_prio;
	__s64 prev_state;		/* prev's __state (TASK_* bits); 0 when preempted; user
					 * space keeps it as sched_switch reports it */
	char prev_comm[MT_COMM_LEN];
	char next_comm[MT_COMM_LEN];
};

/* A traced task being woken (sched_waking), sent with the switches (run --perfetto). */
struct mt_waking {
	__u32 kind;			/* MT_REC_WAKING */
	__u16 cpu;			/* the waker's CPU */
	__u16 pad;
	__u64 ts_ns;			/* CLOCK_MONOTONIC */
	__u32 pid, tgid;
	__s32 prio;
	__s32 target_cpu;		/* the CPU it last ran on, as the event reports it */
	char comm[MT_COMM_LEN];
};

/*
 * One off-CPU period of a traced thread, sent at its switch-in, and only in runs whose units
 * the workload timed itself (the unit log, workloads/unit_log.h): user space joins those
 * units with these periods and the migration records by time, per thread.
 */
struct mt_offcpu {
	__u32 kind;			/* MT_REC_OFFCPU */
	__u32 pid;
	__u32 tgid;
	__u16 cpu;			/* where it was switched in */
	__u8 preempted;			/* the switch-out was involuntary */
	__u8 pad;
	__u64 off_ns;			/* CLOCK_MONOTONIC: switched out */
	__u64 on_ns;			/* CLOCK_MONOTONIC: switched in again */
};

/*
 * The role of a unit: the 2nd argument of the unit function.  Only the built-in cachewalk
 * passes one (its controlled experiment, workloads/cachewalk.c); the units of any other
 * function, and cachewalk's natural mode, are CW_TAG_NATURAL.
 */
enum mt_unit_tag {
	CW_TAG_NATURAL = 0,	/* natural mode or --unit: the scheduler decides */
	CW_TAG_WARM = 1,	/* controlled: warming the cache on the source CPU */
	CW_TAG_BASELINE = 2,	/* controlled: back-to-back warm unit, the baseline */
	CW_TAG_MIGRATED = 3,	/* controlled: first unit after a move to the other CPU */
	CW_TAG_STAYED = 4,	/* controlled: first unit after a wake on the same CPU */
};

/*
 * The kernel's "is it hot" rule, task_hot() in kernel/sched/fair.c, in the one place every
 * side uses it: a threshold of -1 means always hot, 0 never, else a task is hot while its
 * age is under the threshold (ns).  Ages at or past it are cold: movable.  Both operands
 * signed, or both double: no conversion is done here.  A macro, not a function, so that the
 * BPF program compiles to the same instructions as the test written out (a function's
 * result is materialised first, which moves the spills the verifier sees).
 */
#define MT_TASK_HOT(age_ns, hot_ns) ((hot_ns) < 0 || ((hot_ns) > 0 && (age_ns) < (hot_ns)))

/*
 * What decides whether a load-balancer pull is hot, in the kernel's own order
 * (docs/design.md, "What the kernel does"): can_migrate_task() asks NUMA's
 * migrate_degrades_locality() first, then task_hot(), whose tests before the age are the
 * class, the policy, SMT siblings, the next buddy (not visible at the tracepoint) and, after
 * a threshold of -1, the core cookie.  MT_RULE_AGE: none of them, the age decides.
 */
enum mt_rule {
	MT_RULE_AGE = 0,	/* age against the threshold: MT_TASK_HOT */
	MT_RULE_NUMA_TO_PREF,	/* cold */
	MT_RULE_NUMA_FROM_PREF,	/* hot */
	MT_RULE_NOT_FAIR,	/* cold */
	MT_RULE_IDLE_POLICY,	/* cold */
	MT_RULE_SMT,		/* cold */
	MT_RULE_CORE_COOKIE,	/* hot, at every threshold (0 included) */
	MT_NR_RULES,
};

/* The rule that decides a pull with these flags (enum mt_rec_flags) and level. */
#define MT_RULE_OF(flags, level)							\
	((flags) & MT_RF_NUMA_TO_PREF ? MT_RULE_NUMA_TO_PREF :				\
	 (flags) & MT_RF_NUMA_FROM_PREF ? MT_RULE_NUMA_FROM_PREF :			\
	 (flags) & MT_RF_NOT_FAIR ? MT_RULE_NOT_FAIR :					\
	 (flags) & MT_RF_IDLE_POLICY ? MT_RULE_IDLE_POLICY :				\
	 (level) == MT_LEVEL_SMT ? MT_RULE_SMT :					\
	 (flags) & MT_RF_CORE_COOKIE ? MT_RULE_CORE_COOKIE : MT_RULE_AGE)

/*
 * The kernel's rule, written once for BPF, the summary and the what-if: a pull is hot at
 * threshold hot_ns when the rule that decides it (MT_RULE_OF) says hot, or, when none does,
 * when its age is under the threshold (MT_TASK_HOT).
 */
#define MT_RULE_HOT(rule, age_ns, hot_ns)						\
	((rule) == MT_RULE_AGE ? MT_TASK_HOT(age_ns, hot_ns) :				\
	 (rule) == MT_RULE_NUMA_FROM_PREF || (rule) == MT_RULE_CORE_COOKIE)

/* Counters. */
struct mt_stats {
	__u64 migrations[MT_NR_CAUSES];	/* real migrations of traced tasks, by cause */
	__u64 same_cpu;			/* sched_migrate_task with src == dst: not migrations */
	__u64 rb_records;		/* records submitted */
	__u64 rb_dropped;		/* records lost: ring buffer full */
	__u64 lb_judged;		/* load-balancer pulls with a valid kernel age */
	__u64 lb_hot;			/* ... hot at hot_ns by the kernel's rule (MT_RULE_HOT) */
	__u64 switches_in;		/* traced tasks switched in */
	__u64 tracked_tasks;		/* traced tasks first seen or forked */
	__u64 units;			/* unit records submitted */
	__u64 units_dropped;		/* unit records lost: ring buffer full */
	__u64 kernel_migrations;	/* the kernel's own count (se.nr_migrations) of traced
					 * tasks' migrations while traced, up to their last run */
	__u64 storage_busy;		/* events of tgid-marked tasks that found task storage
					 * busy (nested on a CPU) and were not handled */
	__u64 switch_ins_untraced;	/* switch-ins of traced tasks that fired no event,
					 * found at the task's next switch-out */
	__u64 offcpu_records;		/* off-CPU records submitted (self-timed units only) */
	__u64 offcpu_dropped;		/* ... lost: ring buffer full */
	__u64 switch_records;		/* switch records submitted (run --perfetto only) */
	__u64 switch_dropped;		/* ... lost: ring buffer full */
	__u64 waking_records;		/* waking records submitted (run --perfetto only) */
	__u64 waking_dropped;		/* ... lost: ring buffer full */
	/* the judged pulls by the rule that decided them (sum: lb_judged) */
	__u64 lb_rule[MT_NR_RULES];
	__u64 lb_delayed;		/* judged pulls with MT_RF_DELAYED */
	__u64 lb_numa_weighed;		/* judged pulls with MT_RF_NUMA_WEIGHED */
	/* per topology level: migrations by cause, judged pulls, hot ones */
	__u64 level_migrations[MT_NR_LEVELS][MT_NR_CAUSES];
	__u64 level_lb_judged[MT_NR_LEVELS];
	__u64 level_lb_hot[MT_NR_LEVELS];
};

/* In-kernel histograms: log2 of µs. */
struct mt_hists {
	__u64 age[MT_NR_CAUSES][MT_HIST_SLOTS];	/* migration age, our clock */
	__u64 kernel_age[MT_HIST_SLOTS];	/* load-balancer pulls, kernel's clock */
	__u64 slice[MT_HIST_SLOTS];		/* run-slice length of traced tasks */
	__u64 wakelat[MT_HIST_SLOTS];		/* wakeup to running */
	__u64 runwait[MT_HIST_SLOTS];		/* every runnable wait that ended in a run */
	__u64 runwait_pulled[MT_HIST_SLOTS];	/* waits cut short by a load-balancer pull,
						 * as long as they had lasted (censored) */
	__u64 kernel_age_level[MT_NR_LEVELS][MT_HIST_SLOTS];	/* kernel_age, by level */
};

/*
 * The value of the per-CPU `counts` map: each CPU counts into its own copy, without atomics
 * or shared cache lines; user space sums the copies.
 */
struct mt_counts {
	struct mt_stats stats;
	struct mt_hists hists;
};

/* The tgid pre-filter: one bit per tgid up to PID_MAX_LIMIT (2^22). */
#define MT_TGID_WORDS (1 << 16)

#endif
