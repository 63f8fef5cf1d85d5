// SPDX-License-Identifier: GPL-2.0
/*
 * migtrace: every real migration of a traced workload, with its age and cause.
 *
 * Design.  Every handler first decides whether the task is traced, and for the tasks that
 * are not (nearly all of them, on every context switch of the machine) that must cost next
 * to nothing: one load of p->tgid and one bit test in traced_tgid_bits, no helper call, no
 * map lookup.  Only a task whose tgid bit is set goes on to its state (the slot of its pid,
 * or task storage: see `slots`; claimed at its first sight, or at fork for the workload's
 * children), which holds the verdict and per task when it was last switched in and out,
 * whether that switch-out was involuntary, and its run time since the last migration.
 * Counters and histograms are per CPU, so the hot paths use no atomics and share no cache
 * lines between CPUs.
 *
 * Age.  sched_migrate_task fires in set_task_cpu() before the src != dst test, so src == dst
 * is dropped (and counted), and before migrate_task_rq_fair() zeroes se.exec_start, so the
 * kernel's own view (rq_clock_task(src) - exec_start, what task_hot() compares) can be read
 * here, through the task's cfs_rq->rq.  Our age is CLOCK_MONOTONIC since the last
 * switch-out on src; for a task the stopper displaced while it was running (active balance)
 * it is 0, as docs/design.md defines it.
 *
 * Cause.  src not in p->cpus_mask: affinity.  on_rq == 0: wakeup placement.  Current is the
 * stopper of src (migration/N on CPU src): exec balancing if the task is in execve, else
 * active balance.
 * on_rq == TASK_ON_RQ_MIGRATING from anything else: load-balancer pull.  RT/DL tasks (by
 * priority), SCHED_EXT's and stopper moves across NUMA nodes (active balance or NUMA
 * balancing: not told apart) are unknown.  Fork placement uses __set_task_cpu() and has no
 * tracepoint: it is seen at sched_wakeup_new as a CPU different from the one the child was
 * forked on.
 *
 * Level and rule.  Each move is classed by topology level (SMT sibling, same LLC, cross LLC,
 * cross node) from the per-CPU ids user space sets, and each pull by what the kernel's rule
 * looks at besides its age (pull_flags, judge_pull).
 *
 * Records go to a ring buffer without waking the reader, except past a fill threshold; the
 * reader drains on a 100 ms timer.  Every record is also counted in the histograms, so the
 * aggregates stay complete when the ring buffer overflows; each loss is counted.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "compat.bpf.h"
#include "migtrace.h"

char LICENSE[] SEC("license") = "GPL";

#define TASK_RUNNING 0
#define TASK_ON_RQ_MIGRATING 2
#define PF_KTHREAD 0x00200000
#define SCHED_IDLE 5
#define SCHED_EXT 7
#define MAX_RT_PRIO 100		/* a prio under it is the RT or DL class (PI boosts too) */
#define MT_MAX_CPUS 1024

/* Set before load. */
const volatile __u32 nr_cpus = 1;		/* size of a row of cpu_pairs */
const volatile __s64 hot_ns = 500000;		/* the threshold task_hot() is judged at */
const volatile __u64 wakeup_bytes = 1 << 18;	/* wake the reader past this backlog */
/* Per CPU, what MT_LEVEL_OF classes a move by (user space sets every entry): */
const volatile __s16 cpu_node[MT_MAX_CPUS] = {};	/* NUMA node */
const volatile __s16 cpu_core[MT_MAX_CPUS] = {};	/* the same for SMT siblings only */
const volatile __s16 cpu_llc[MT_MAX_CPUS] = {};	/* the same for CPUs sharing the LLC; < 0
							 * not known */
const volatile bool numa_balancing = false;	/* kernel.numa_balancing was on at start */
const volatile bool offcpu_records = false;	/* the workload logs its own units */
const volatile bool switch_records = false;	/* --perfetto: what ran on each CPU */
/* --unit's probes will be attached: only then do migrations note what the next unit record
 * needs, in the task's unit storage. */
const volatile bool unit_probes = false;
/* --probe-moves of a program without units: the armed threads' runs are recorded (arms). */
const volatile bool probe_runs = false;
const volatile __u32 slot_mask = 0;		/* slots' max_entries - 1, a power of two */
/* Which tasks are traced (enum mt_scope). */
const volatile __u8 scope = MT_SCOPE_TGIDS;
/*
 * A ring-buffer record per migration: off when nothing reads them (-a or --cgroup without
 * -o, --csv, --perfetto, --what-if or --unit), so that the verifier drops that path and a
 * system-wide run keeps only the in-kernel counts, histograms and CPU pairs.
 */
const volatile bool send_records = true;

/*
 * Per traced task, what every switch and migration touches: 56 bytes, which with the
 * owner's address make one 64-byte slot of `slots` (below).
 */
struct task_ctx {
	__u64 switched_in_ns;
	__u64 switched_out_ns;
	__u64 runtime_since_mig_ns;
	__u64 wakeup_clock_ns;		/* rq->clock at a pending sched_wakeup, 0 when none */
	/* completeness: what the kernel counted against what we saw */
	__u32 nr_mig_seen;		/* p->se.nr_migrations when last checked (its low 32
					 * bits: the counts between two checks are small) */
	__u32 run_delay_seen;		/* p->sched_info.run_delay, in 1.024 µs (>> 10), as it
					 * stood after its last wait: what it has waited since
					 * is what a pull cuts short (docs/design.md, "The wait
					 * side"); 32 bits of it wrap after 73 minutes, far past
					 * any wait */
	__s16 expect_cpu;		/* where the task runs next by our records (a new task:
					 * where it was forked); -1 unknown */
	__u8 scope_gen;			/* --cgroup: the low byte of cgroup_gen when `tracked`
					 * was decided (scope_decide) */
	__u8 off_cpu;			/* by our records not running: switched out, or
					 * forked and not yet run (account_switch_out) */
	__u8 tracked;
	__u8 preempted;			/* last switch-out was involuntary */
	__u8 new_task;			/* forked, not yet woken */
	__u8 await_exec;		/* launched workload: traced from its execve on */
	__u32 migs_since;		/* migrations since the last unit boundary */
	__u32 switches_since;		/* switch-outs since the last unit boundary */
};

/*
 * The task's state lives in the slot of its pid (pid & slot_mask), claimed at first sight
 * and given back when the task is freed; a task whose slot another live task holds (pid_max
 * above the slot count) keeps it in task storage instead.  A slot is one cache line: with
 * the pid, which shares the tgid's line, it is found without a helper call, where task
 * storage costs the call and three lines (the task's storage pointer, the storage's cache
 * array, the value), each cold when hundreds of tasks take turns.  BPF_F_MMAPABLE: the
 * values then start on a page, so no slot straddles two lines.  User space sizes it.
 */
struct task_slot {
	__u64 owner;			/* the task_struct's address; 0: free */
	struct task_ctx ctx;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct task_slot);
} slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_ctx);
} tasks SEC(".maps");

/* With --unit's probes only: the unit in progress and the last migration before it. */
struct unit_ctx {
	__u32 unit_depth;		/* nesting of the unit function: only the outermost counts */
	__u32 migs_before;		/* snapshot at unit entry */
	__u32 switches_before;
	__u32 unit_cpu;
	__u64 unit_start_ns;
	__u64 unit_tag;
	__u64 unit_nominal_ns;
	__u64 unit_prev_end_ns;
	__u64 last_off_before_ns;	/* the last off-CPU period, at unit entry */
	__u64 mig_age_ns;		/* the last migration of the task */
	__u64 mig_ts_ns;
	__u16 mig_src_cpu;
	__u16 mig_dst_cpu;
	__u8 mig_cause;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct unit_ctx);
} unit_tasks SEC(".maps");

/*
 * --probe-moves without units: the threads a probe moment drew, by thread id, until their
 * next run from a switch-in to a block is sent (struct mt_probe_arm).  A handful at a time:
 * user space arms one per moment and takes back what a thread never ran.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, struct mt_probe_arm);
} probe_arms SEC(".maps");

/*
 * How many arms probe_arms holds: user space adds one before it arms a thread, and whoever
 * deletes an arm (this program when it sends the run, user space when it takes an arm
 * back) takes one off.  While it is 0, which is most of the time, no switch looks the map
 * up: a lookup on every switch of a hackbench-sized workload cost it ~5 % of its time.
 */
__u32 probe_armed = 0;

/* Whether a thread may be armed now (probe_runs): the map is looked up only then. */
static __always_inline bool probe_pending(void)
{
	return probe_runs && *(volatile __u32 *)&probe_armed;
}

/* tgids to trace, filled by user space before attach: MT_TRACK_NOW or MT_TRACK_AT_EXEC. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u8);
} tracked_tgids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);	/* user space sets it: --ringbuf */
} events SEC(".maps");

/*
 * The wake-up latency from the kernel's own enqueue stamp (queued_clock_of) at switch-in,
 * rather than from a sched_wakeup program: set by user space after load, before attach,
 * when mt_features found the stamp (and the program was not asked for), in which case
 * that program is left unattached.
 */
bool wakeup_from_queued = false;
/* What CO-RE found in this kernel, for user space: set by mt_features. */
bool has_queued_stamp = false;
/*
 * --cgroup: bumped at every move of a task between cgroups (mt_cgroup_attach), so that each
 * task's decision, kept with the generation it was made at, is made again at its next event.
 */
__u32 cgroup_gen = 0;
/*
 * --cgroup: the subtree's root, by its kernfs id (what name_to_handle_at() gives for the
 * directory, and bpf_get_current_cgroup_id): writable, so that user space follows a cgroup
 * removed and created again at its path (a service's restart), bumping cgroup_gen after.
 */
__u64 scope_cgroup_id = 0;

/*
 * src * nr_cpus + dst -> count of the migrations whose record was lost (ring buffer full);
 * user space counts the pairs of the records it reads and adds these.  (Counting every
 * migration here would cost each one an atomic add on a line every CPU writes: see
 * docs/overhead.md, "What grows with the number of CPUs".)  User space sizes it to nr_cpus^2.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} cpu_pairs SEC(".maps");

/*
 * One migration as mt_migrate decided it, handed to the part that counts and records it
 * through memory: loaded back, each value is one unknown to the verifier, so that part is
 * verified once rather than once for every combination of cause, state and flags the
 * decision's branches made.  Kernels before 6.3 mark every scalar precise when a precision
 * walk meets a BPF-to-BPF call, and then prune nothing between paths that differ in a
 * constant: 6.1 processed 295k instructions of mt_migrate, 4 s of every load under TCG.
 * Per CPU: sched_migrate_task fires under the rq lock, preemption off.
 */
struct mig_note {
	__u64 age_ns;
	__s64 kernel_age_ns;
	__u64 wait_ns;
	__u64 level;
	__u32 flags;
	__u8 cause;
	__u8 state;
	__u8 on_rq;
	__u8 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mig_note);
} mig_notes SEC(".maps");

/*
 * Per-CPU counters and histograms.  Tracepoint programs run with preemption off, so their
 * plain increments cannot interleave; the uprobe programs' counters are updated atomically.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mt_counts);
} counts SEC(".maps");

/*
 * The pre-filter: bit tgid % 64 of word tgid / 64 is set for the tgids that may be traced:
 * by user space for the workload, by mt_fork for the processes it forks.  A set bit only
 * sends the task on to its state (ctx_of), which decides, so a stale bit (a tgid reused after
 * its process exited) costs that lookup and nothing else.  512 KiB, in its own section.
 */
__u64 traced_tgid_bits[MT_TGID_WORDS] SEC(".data.filter") = {};

/*
 * floor(log2(µs)), 0 for < 2 µs, the last slot open: a binary search, no loop.  A global
 * function, so the verifier checks it once and its callers see one unknown result, not a
 * path per slot (which multiplied the instructions it processed in mt_migrate, and the
 * load time).
 */
__noinline __u32 log2_slot(__u64 ns)
{
	__u64 us = ns / 1000;
	__u32 slot = 0;

	if (us >> 32) {
		us >>= 32;
		slot += 32;
	}
	if (us >> 16) {
		us >>= 16;
		slot += 16;
	}
	if (us >> 8) {
		us >>= 8;
		slot += 8;
	}
	if (us >> 4) {
		us >>= 4;
		slot += 4;
	}
	if (us >> 2) {
		us >>= 2;
		slot += 2;
	}
	if (us >> 1)
		slot += 1;
	return slot < MT_HIST_SLOTS ? slot : MT_HIST_SLOTS - 1;
}

/*
 * The rule that decides a judged pull (MT_RULE_OF): a global function, as log2_slot, for the
 * same reason.  Inline, each combination of flags gave its own constant rule, a path of its
 * own through the counters it indexes (judge_pull).
 */
__noinline __u32 rule_of(__u32 flags, __u64 level)
{
	__u32 rule = MT_RULE_OF(flags, level);

	return rule < MT_NR_RULES ? rule : MT_RULE_AGE;
}

static __always_inline void hist_add(__u64 *hist, __u64 ns)
{
	/* 64 bits, as level_of()'s result in emit(): the test must bound the register that
	 * indexes, not a zero-extended copy of it */
	__u64 slot = log2_slot(ns);

	barrier_var(slot);
	if (slot < MT_HIST_SLOTS)
		hist[slot]++;
}

static __always_inline struct mt_counts *this_cpu_counts(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counts, &zero);
}

/* The tgid bit: a direct load through the BTF pointer, no helper.  -a and --cgroup have
 * no pre-filter: every task has its state, which decides. */
static __always_inline bool maybe_traced(struct task_struct *p)
{
	__u32 tgid;

	if (scope != MT_SCOPE_TGIDS)
		return true;
	tgid = p->tgid;

	return traced_tgid_bits[(tgid / 64) & (MT_TGID_WORDS - 1)] & (1ULL << (tgid % 64));
}

static __always_inline void mark_tgid(__u32 tgid)
{
	__u64 *word = &traced_tgid_bits[(tgid / 64) & (MT_TGID_WORDS - 1)];
	__u64 bit = 1ULL << (tgid % 64);

#ifdef MT_PRE_512
	/* An add of a bit not yet set is an OR, unless two CPUs add the same bit at once:
	 * the bits cover every tgid up to the largest pid_max, a new process's tgid is its
	 * own, and a thread finds its process's bit set. */
	if (!(*word & bit))
		__sync_fetch_and_add(word, bit);
#else
	__sync_fetch_and_or(word, bit);
#endif
}

/* The kernel's migration count and the CPU from which our records continue. */
static __always_inline void start_count(struct task_struct *p, struct task_ctx *t)
{
	t->expect_cpu = task_cpu_of(p);
	t->nr_mig_seen = (__u32)p->se.nr_migrations;
	t->run_delay_seen = (__u32)(run_delay_of(p) >> 10);
}

/* The slot of a pid, whoever holds it. */
static __always_inline struct task_slot *slot_at(__u32 pid)
{
	__u32 idx = pid & slot_mask;

	return bpf_map_lookup_elem(&slots, &idx);
}

static __always_inline struct task_slot *slot_of(struct task_struct *p)
{
	return slot_at(p->pid);
}

/* The task's state: in its slot if it holds it, else in its task storage; NULL if none. */
static __always_inline struct task_ctx *ctx_of(struct task_struct *p)
{
	struct task_slot *s = slot_of(p);

	if (s && s->owner == (__u64)p)
		return &s->ctx;
	if (!has_task_storage)
		return NULL;
	return bpf_task_storage_get(&tasks, p, 0, 0);
}

/*
 * A state for a task that has none: its slot if free (a free slot is all zeroes, see
 * release_slot), else task storage.  NULL when task storage refuses to create an entry while
 * another program on this CPU holds its lock (an event nested in a uprobe program, say):
 * counted, so that a gap in the records can be told.
 */
static __always_inline struct task_ctx *ctx_new(struct task_struct *p)
{
	struct task_slot *s = slot_of(p);
	struct task_ctx *t;
	struct mt_counts *c;

	if (s) {
#ifdef MT_PRE_512
		/* No compare-and-exchange: claimed by a plain store, read back.  Only pids that
		 * share a slot (pid_max above the slot count) could both claim a free one in the
		 * same instant, and then share it. */
		__u64 held = s->owner;

		if (!held) {
			s->owner = (__u64)p;
			held = s->owner == (__u64)p ? 0 : s->owner;
		}
#else
		__u64 held = __sync_val_compare_and_swap(&s->owner, 0, (__u64)p);
#endif

		/* p's first events on two CPUs at once: both have its slot */
		if (!held || held == (__u64)p)
			return &s->ctx;
	}
	t = has_task_storage ?
		bpf_task_storage_get(&tasks, p, 0, BPF_LOCAL_STORAGE_GET_F_CREATE) : NULL;
	if (!t && (c = this_cpu_counts()))
		c->stats.storage_busy++;
	return t;
}

/* Gives a slot back: zeroed first, freed last, so that a slot claimed is all zeroes. */
static __always_inline void release_slot(struct task_slot *s)
{
	__builtin_memset(&s->ctx, 0, sizeof(s->ctx));
#ifdef MT_PRE_512
	barrier();	/* the zeroes first, then the owner: x86 keeps a CPU's stores in order */
	*(volatile __u64 *)&s->owner = 0;
#else
	__sync_lock_test_and_set(&s->owner, 0);	/* an exchange: ordered after the zeroes */
#endif
}

/*
 * A thread that execs while its process has other threads takes the process's pid
 * (de_thread() exchanges the two tids), so the slot of its old pid no longer finds it: its
 * state moves to where ctx_of() looks now (over a state its events created meanwhile).  The
 * old leader, which took the old pid, is given back through its tgid's slot (mt_free).
 */
static __always_inline void follow_tid_exchange(struct task_struct *p, __u32 old_pid)
{
	struct task_slot *from = slot_at(old_pid);
	struct task_ctx *t;

	if (!from || from->owner != (__u64)p)
		return;		/* its state is in task storage, which follows the task */
	t = ctx_of(p);
	if (!t)
		t = ctx_new(p);
	if (!t || t == &from->ctx)
		return;
	__builtin_memcpy(t, &from->ctx, sizeof(*t));
	release_slot(from);
}

/*
 * --cgroup: whether a task's default-hierarchy cgroup (a scalar: the address read) is the
 * subtree's root or below it, by the root's id among the cgroup's ancestors (one per
 * level, itself last: cgroup_ancestor_id).  Made once per task and
 * per move between cgroups, never per event.  A global function: verified once.
 */
__noinline bool cgroup_in_scope(__u64 cgrp)
{
	struct cgroup *cg = (struct cgroup *)cgrp;
	int level = BPF_CORE_READ(cg, level);
	__u64 id;

	for (int i = 0; i < MT_CGROUP_MAX_DEPTH; i++) {
		if (i > level)
			break;
		if (!cgroup_ancestor_id(cg, i, &id))
			return false;
		if (id == scope_cgroup_id)
			return true;
	}
	return false;
}

/* -a: every task; --cgroup: the subtree's. */
static __always_inline bool in_scope(struct task_struct *p)
{
	if (scope == MT_SCOPE_ALL)
		return true;
	return cgroup_in_scope((__u64)BPF_CORE_READ(p, cgroups, dfl_cgrp));
}

/*
 * -a, --cgroup: whether the task is in scope, decided at its first event or fork and again
 * after any task changed cgroups (cgroup_gen).  A task that comes into scope starts afresh,
 * as if first seen; one that leaves keeps its state, untraced.
 */
static __always_inline struct task_ctx *scope_decide(struct task_struct *p, struct task_ctx *t)
{
	/* read before the cgroup, never after: a move meanwhile makes it decide again */
	__u8 gen = (__u8)*(volatile __u32 *)&cgroup_gen;
	struct mt_counts *c;
	bool in = in_scope(p);

	if (in && !t->tracked) {
		__builtin_memset(t, 0, sizeof(*t));
		start_count(p, t);
		t->tracked = 1;
		if ((c = this_cpu_counts()))
			c->stats.tracked_tasks++;
	} else if (!in) {
		t->tracked = 0;
	}
	t->scope_gen = gen;
	return t->tracked ? t : NULL;
}

/* The filter of -a and --cgroup: the task's state, made and decided at its first sight. */
static __always_inline struct task_ctx *traced_in_scope(struct task_struct *p)
{
	struct task_ctx *t;

	if (!p->pid)
		return NULL;	/* the idle tasks, one per CPU, all pid 0 */
	t = ctx_of(p);
	if (t && (scope == MT_SCOPE_ALL || t->scope_gen == (__u8)cgroup_gen))
		return t->tracked ? t : NULL;
	if (!t && !(t = ctx_new(p)))
		return NULL;
	return scope_decide(p, t);
}

/* The traced-task filter: the first thing every handler does. */
static __always_inline struct task_ctx *traced(struct task_struct *p)
{
	struct task_ctx *t;
	struct mt_counts *c;
	__u8 *mode;
	__u32 tgid;

	if (scope != MT_SCOPE_TGIDS)
		return traced_in_scope(p);
	if (!maybe_traced(p))
		return NULL;
	t = ctx_of(p);
	if (t)
		return t->tracked ? t : NULL;
	/* First sight: decide once, and remember the answer in the task's state. */
	tgid = p->tgid;
	mode = bpf_map_lookup_elem(&tracked_tgids, &tgid);
	t = ctx_new(p);
	if (!t)
		return NULL;
	start_count(p, t);
	t->tracked = mode && *mode == MT_TRACK_NOW;
	/* A workload held at migtrace's barrier is traced from its exec: the wake-up at the
	 * barrier and sched_exec's move belong to the launch, not to the workload. */
	t->await_exec = mode && *mode == MT_TRACK_AT_EXEC;
	if (!t->tracked)
		return NULL;
	if ((c = this_cpu_counts()))
		c->stats.tracked_tasks++;
	return t;
}

/*
 * The clock of the task's run queue, for the wake-up latency: both ends of it are seen with
 * that rq's lock held and its clock just updated (try_to_wake_up and __schedule both call
 * update_rq_clock), so three loads of lines the scheduler has just written replace a
 * bpf_ktime_get_ns() call.  It is the clock the kernel's own run_delay (schedstat) uses.
 * 0 for a task without a fair run queue (RT, DL) or without FAIR_GROUP_SCHED.
 */
static __always_inline __u64 rq_clock_of(struct task_struct *p)
{
	struct rq *rq = task_fair_rq_of(p);

	return rq ? rq->clock : 0;
}

/* "migration/N": the per-CPU stopper's name (a kernel thread's comm cannot be changed). */
static __always_inline bool stopper_comm(const char *comm)
{
	return comm[0] == 'm' && comm[1] == 'i' && comm[2] == 'g' && comm[3] == 'r' &&
	       comm[4] == 'a' && comm[5] == 't' && comm[6] == 'i' && comm[7] == 'o' &&
	       comm[8] == 'n' && comm[9] == '/';
}

/*
 * Whether the current task is a CPU's stopper, which runs active balancing and sched_exec's
 * move: through the BTF pointer from 5.11, else by helpers (its flags read by a probe).
 */
static __always_inline bool current_is_stopper(void)
{
	struct task_struct *cur;
	char comm[TASK_COMM_LEN];

	if (has_current_task_btf) {
		cur = bpf_get_current_task_btf();
		return (cur->flags & PF_KTHREAD) && stopper_comm(cur->comm);
	}
	cur = (struct task_struct *)bpf_get_current_task();
	if (!(BPF_CORE_READ(cur, flags) & PF_KTHREAD) || bpf_get_current_comm(comm, TASK_COMM_LEN))
		return false;
	return stopper_comm(comm);
}

/*
 * The task's own mask (cpus_mask, inside task_struct), not cpus_ptr: the two differ only
 * while migrate_disable() pins the task to its CPU, when nothing moves it.  And loading a
 * pointer field from a trusted task costs the verifier a walk of all of vmlinux's BTF
 * (btf_nested_type_is_trusted), once per state that reaches the load: through cpus_ptr
 * this one line was half of migtrace's load time on 6.18 (docs/testing.md, "A start
 * costs what it must").
 */
static __always_inline bool cpu_allowed(struct task_struct *p, __u32 cpu)
{
	unsigned long word = 0;

	if (cpu >= MT_MAX_CPUS)
		return true;
	if (cpu < 64)
		return p->cpus_mask.bits[0] & (1UL << cpu);	/* a direct load, no helper */
	/* a helper: the index is variable, which direct loads through BTF cannot be */
	bpf_core_read(&word, sizeof(word), &p->cpus_mask.bits[cpu / 64]);
	return word & (1UL << (cpu % 64));
}

static __always_inline __s16 node_of(__u32 cpu)
{
	if (cpu >= MT_MAX_CPUS)
		return -1;
	/*
	 * Bound the register that indexes, not the one that was compared: clang may spill cpu
	 * after the test and reload it, and 6.1's verifier then loses the bound ("R3
	 * unbounded memory access").  barrier_var() keeps clang from dropping the mask as
	 * redundant after the test above.
	 */
	barrier_var(cpu);
	return cpu_node[cpu & (MT_MAX_CPUS - 1)];
}

/*
 * The topology level of a move (enum mt_level), from the ids user space set per CPU.  A
 * global function, as log2_slot: the verifier checks it once, and its callers see one
 * bounded result.
 */
__noinline __u64 level_of(__u32 src, __u32 dst)
{
	__u64 level;

	if (src >= MT_MAX_CPUS || dst >= MT_MAX_CPUS)
		return MT_LEVEL_UNKNOWN;
	barrier_var(src);
	barrier_var(dst);
	src &= MT_MAX_CPUS - 1;
	dst &= MT_MAX_CPUS - 1;
	level = MT_LEVEL_OF(cpu_core[src], cpu_core[dst], cpu_llc[src], cpu_llc[dst],
			    cpu_node[src], cpu_node[dst]);
	return level < MT_NR_LEVELS ? level : MT_LEVEL_UNKNOWN;
}

static __always_inline void count_pair(__u32 src, __u32 dst)
{
	__u32 key = src * nr_cpus + dst;
	__u64 *n;

	if (src >= nr_cpus || dst >= nr_cpus)
		return;
	n = bpf_map_lookup_elem(&cpu_pairs, &key);
	if (n)
		__sync_fetch_and_add(n, 1);
}

static __always_inline long rb_flags(__u64 nr_records)
{
	/*
	 * Wake the reader only past the threshold: a wake-up per record costs µs.  The fill is
	 * looked at on every 64th record of this CPU only: it reads the producer's and the
	 * consumer's positions, cache lines every CPU and the reader write.
	 */
	if (nr_records & 63)
		return BPF_RB_NO_WAKEUP;
	return bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= wakeup_bytes ?
		       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

static __always_inline void copy_comm(char *dst, struct task_struct *p)
{
	const __u64 *src = (const __u64 *)p->comm;

	((__u64 *)dst)[0] = src[0];
	((__u64 *)dst)[1] = src[1];
}

/* The current task's comm: by the BTF pointer from 5.11, by the helper before. */
static __always_inline void copy_current_comm(char *dst)
{
	if (has_current_task_btf)
		copy_comm(dst, bpf_get_current_task_btf());
	else
		bpf_get_current_comm(dst, TASK_COMM_LEN);
}

/*
 * What the kernel's rule looks at in a load-balancer pull besides the age (the shims in
 * compat.bpf.h say where each comes from): a delayed dequeue, NUMA balancing's opinion of a
 * move across nodes, a core-scheduling cookie mismatch.  src_rq: the source run queue.
 */
static __always_inline __u32 pull_flags(struct task_struct *p, struct rq *src_rq, __u32 src,
					__u32 dst, __u64 level)
{
	__u32 flags = 0;

	if (task_delayed(p))
		flags |= MT_RF_DELAYED;
	if (level == MT_LEVEL_NODE && numa_balancing)
		flags |= numa_flags_of(p, src_rq, node_of(src), node_of(dst));
	if (core_cookie_mismatch(p, dst))
		flags |= MT_RF_CORE_COOKIE;
	return flags;
}

/*
 * A judged pull (cause lb_pull, with the kernel's age) into the counters: the rule that
 * decides it, the kernel-age histograms, and whether it is hot at hot_ns by the kernel's
 * rule (MT_RULE_HOT, bpf/migtrace.h), overall and at its topology level.
 */
static __always_inline void judge_pull(struct mt_counts *c, __u32 flags, __u64 level,
				       __s64 kage)
{
	__u64 rule = rule_of(flags, level);

	barrier_var(rule);	/* as level in emit() */
	barrier_var(level);
	if (level >= MT_NR_LEVELS)
		level = MT_LEVEL_UNKNOWN;
	c->stats.lb_judged++;
	c->stats.level_lb_judged[level]++;
	hist_add(c->hists.kernel_age, kage);
	hist_add(c->hists.kernel_age_level[level], kage);
	if (rule < MT_NR_RULES)
		c->stats.lb_rule[rule]++;
	/* sums, not branches: a branch on flags would keep each combination of them a path
	 * of its own in the verifier (it must then know flags exactly) */
	c->stats.lb_delayed += (flags / MT_RF_DELAYED) & 1;
	c->stats.lb_numa_weighed += (flags / MT_RF_NUMA_WEIGHED) & 1;
	if (MT_RULE_HOT(rule, kage, hot_ns)) {
		c->stats.lb_hot++;
		c->stats.level_lb_hot[level]++;
	}
}

/* A probed thread moved (probe_runs): before its run, the move the run follows. */
static __always_inline void probe_migrated(struct task_struct *p, __u32 src, __u32 dst,
					   __u8 cause, __u64 now, __u64 age_ns)
{
	__u32 pid = p->pid;
	struct mt_probe_arm *a = bpf_map_lookup_elem(&probe_arms, &pid);

	if (!a)
		return;
	if (a->started) {
		a->migs_during++;
		return;
	}
	a->migs_before++;
	a->mig_age_ns = age_ns;
	a->mig_ts_ns = now;
	a->mig_src_cpu = src;
	a->mig_dst_cpu = dst;
	a->mig_cause = cause;
}

/* A probed thread switched in after its moment: its run begins (probe_runs). */
static __always_inline void probe_switch_in(struct task_struct *p, struct task_ctx *t,
					    __u64 now)
{
	__u32 pid = p->pid;
	struct mt_probe_arm *a = bpf_map_lookup_elem(&probe_arms, &pid);

	if (!a || a->started || now < a->moment_ns)
		return;
	a->started = 1;
	a->start_ns = now;
	a->exec_start_ns = p->se.sum_exec_runtime;
	a->off_ns = t->switched_out_ns && now > t->switched_out_ns ? now - t->switched_out_ns : 0;
	a->cpu_start = bpf_get_smp_processor_id();
}

/*
 * A probed thread switched out: a preemption inside its run is counted, a block ends it and
 * sends it (an MT_REC_PROBE_UNIT record: struct mt_unit, as bpf/migtrace.h lays it out).
 * The run's length is the CPU time it took (se.sum_exec_runtime, updated when the thread
 * was dequeued, before this tracepoint), so that a preemption's wait is not in it.
 */
static __always_inline void probe_switch_out(struct task_struct *p, bool preempted,
					     struct mt_counts *c, __u64 now)
{
	__u32 pid = p->pid;
	struct mt_probe_arm *a = bpf_map_lookup_elem(&probe_arms, &pid);
	__u64 exec;
	struct mt_unit *u;

	if (!a || !a->started)
		return;
	if (preempted) {
		a->preempts++;
		return;
	}
	exec = p->se.sum_exec_runtime;
	u = bpf_ringbuf_reserve(&events, sizeof(*u), 0);
	if (!u) {
		c->stats.units_dropped++;
		goto out;
	}
	u->kind = MT_REC_PROBE_UNIT;
	u->pid = pid;
	u->tgid = p->tgid;
	u->cpu_start = a->cpu_start;
	u->cpu_end = bpf_get_smp_processor_id();
	u->start_ns = a->start_ns;
	u->end_ns = a->start_ns + (exec > a->exec_start_ns ? exec - a->exec_start_ns : 0);
	u->prev_end_ns = 0;
	u->tag = a->kind;
	u->nominal_age_ns = a->moment_ns;
	u->migs_before = a->migs_before;
	u->switches_before = 1;
	u->migs_during = a->migs_during;
	u->switches_during = a->preempts;
	u->last_off_ns = a->off_ns;
	u->mig_age_ns = a->mig_age_ns;
	u->mig_ts_ns = a->mig_ts_ns;
	u->mig_src_cpu = a->mig_src_cpu;
	u->mig_dst_cpu = a->mig_dst_cpu;
	u->mig_cause = a->mig_cause;
	u->pad[0] = u->pad[1] = u->pad[2] = 0;
	u->streamed_bytes = 0;
	u->round = 0;
	u->rate_mbps = 0;
	bpf_ringbuf_submit(u, rb_flags(0));
out:
	if (!bpf_map_delete_elem(&probe_arms, &pid))
		__sync_fetch_and_add(&probe_armed, -1);
}

/* Counts, histograms and the record of one real migration. */
static __always_inline void emit(struct task_struct *p, struct task_ctx *t,
				 struct mt_counts *c, __u32 src, __u32 dst, __u64 level, __u8 cause,
				 __u8 state, __u8 on_rq, __u32 flags, __u64 now, __u64 age_ns,
				 __s64 kage_ns, __u64 wait_ns)
{
	struct mt_migrate *r;
	bool pref_read;
	/* 64 bits, as level: the test must bound the register that indexes */
	__u64 cause_idx = cause;

	barrier_var(cause_idx);
	if (cause_idx >= MT_NR_CAUSES)
		cause_idx = MT_CAUSE_UNKNOWN;
	/* clang knows level_of()'s range and would drop the test the verifier needs; and a
	 * 64-bit level, for the test bounds the register that indexes, not a 32-bit copy */
	barrier_var(level);
	if (level >= MT_NR_LEVELS)
		level = MT_LEVEL_UNKNOWN;
	c->stats.migrations[cause_idx]++;
	c->stats.level_migrations[level][cause_idx]++;
	hist_add(c->hists.age[cause_idx], age_ns);
	/* for the next unit record: the join of migrations with units */
	t->migs_since++;
	if (probe_pending())
		probe_migrated(p, src, dst, cause_idx, now, age_ns);
	if (unit_probes) {
		struct unit_ctx *u = bpf_task_storage_get(&unit_tasks, p, 0,
							  BPF_LOCAL_STORAGE_GET_F_CREATE);

		if (u) {
			u->mig_age_ns = age_ns;
			u->mig_ts_ns = now;
			u->mig_src_cpu = src;
			u->mig_dst_cpu = dst;
			u->mig_cause = cause_idx;
		}
	}

	/* no record wanted: the pair is counted here, as for a record lost */
	if (!send_records) {
		count_pair(src, dst);
		goto out;
	}
	r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
	if (!r) {
		c->stats.rb_dropped++;
		count_pair(src, dst);
		goto out;
	}
	r->kind = MT_REC_MIGRATE;
	r->pid = p->pid;
	r->tgid = p->tgid;
	r->cur_pid = (__u32)bpf_get_current_pid_tgid();
	r->src_cpu = src;
	r->dst_cpu = dst;
	r->cause = cause_idx;
	r->state = state;
	r->on_rq = on_rq;
	r->level = level;
	/* cache-aware scheduling's preference, read for the record alone */
	r->pref_llc = task_pref_llc_of(p, &pref_read);
	r->flags = flags | (pref_read ? MT_RF_PREF_LLC : 0);
	r->ts_ns = now;
	r->age_ns = age_ns;
	r->kernel_age_ns = kage_ns;
	r->wait_ns = wait_ns;
	r->off_cpu_ns = t->switched_out_ns && now > t->switched_out_ns ?
				now - t->switched_out_ns : 0;
	r->runtime_since_mig_ns = t->runtime_since_mig_ns;
	/* comm is NUL-padded by the kernel: a plain copy, no string scan, and by direct loads
	 * of its two 8-byte halves rather than two helper calls */
	copy_comm(r->comm, p);
	copy_current_comm(r->cur_comm);
	bpf_ringbuf_submit(r, rb_flags(c->stats.rb_records++));
out:
	t->runtime_since_mig_ns = 0;
}

/* A switch with a traced task on a side (struct mt_switch): only with switch_records. */
static __always_inline void emit_switch(struct task_struct *prev, struct task_struct *next,
					bool preempt, struct mt_counts *c, __u64 now)
{
	struct mt_switch *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
	long state = task_state_of(prev);

	if (!r) {
		c->stats.switch_dropped++;
		return;
	}
	r->kind = MT_REC_SWITCH;
	r->cpu = bpf_get_smp_processor_id();
	r->preempted = preempt || state == TASK_RUNNING;
	r->pad = 0;
	r->ts_ns = now;
	r->prev_pid = prev->pid;
	r->prev_tgid = prev->tgid;
	r->next_pid = next->pid;
	r->next_tgid = next->tgid;
	r->prev_prio = prev->prio;
	r->next_prio = next->prio;
	r->prev_state = r->preempted ? 0 : state;
	copy_comm(r->prev_comm, prev);
	copy_comm(r->next_comm, next);
	bpf_ringbuf_submit(r, rb_flags(c->stats.switch_records++));
}

/* An off-CPU period, for the join of self-timed units (struct mt_offcpu). */
static __always_inline void emit_offcpu(struct task_struct *p, struct task_ctx *t,
					struct mt_counts *c, __u64 now)
{
	struct mt_offcpu *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);

	if (!r) {
		c->stats.offcpu_dropped++;
		return;
	}
	r->kind = MT_REC_OFFCPU;
	r->pid = p->pid;
	r->tgid = p->tgid;
	r->cpu = bpf_get_smp_processor_id();
	r->preempted = t->preempted;
	r->pad = 0;
	r->off_ns = t->switched_out_ns;
	r->on_ns = now;
	bpf_ringbuf_submit(r, rb_flags(c->stats.offcpu_records++));
}

/*
 * Completeness, at each switch-in of a traced task: the kernel's own count of its
 * migrations (se.nr_migrations, bumped in set_task_cpu() when the CPU changes) goes into
 * kernel_migrations, and a task that runs on another CPU than our records left it on moved
 * without a sched_migrate_task event: that move is recorded, cause "unseen".  A switch-in
 * that fired no event is accounted at the task's next switch-out (account_switch_out).
 */
static __always_inline void account_switch_in(struct task_struct *p, struct task_ctx *t,
					      struct mt_counts *c, __u64 now)
{
	__u32 cpu = task_cpu_of(p);
	__u32 nr = (__u32)p->se.nr_migrations;

	if (t->expect_cpu >= 0 && cpu != (__u32)t->expect_cpu)
		emit(p, t, c, t->expect_cpu, cpu, level_of(t->expect_cpu, cpu), MT_CAUSE_UNSEEN,
		     t->preempted ? MT_STATE_QUEUED : MT_STATE_WAKING, task_on_rq_of(p),
		     MT_RF_SEEN_OUT, now, t->switched_out_ns && now > t->switched_out_ns ?
			     now - t->switched_out_ns : 0, -1, 0);
	t->expect_cpu = cpu;
	c->stats.kernel_migrations += (__u32)(nr - t->nr_mig_seen);
	t->nr_mig_seen = nr;
}

/*
 * A switch-out of a task our records have off CPU: its switch-in fired no event (a kernel
 * can leave out whatever runs in some task's context, its switch-outs among them:
 * docs/design.md, "Honesty in the numbers").  What that switch-in would have read is read
 * here, on the CPU the task ran on, so that the kernel's count and an unseen move are not
 * lost with it when the task runs no more (an exit).
 */
static __always_inline void account_switch_out(struct task_struct *p, struct task_ctx *t,
					       struct mt_counts *c, __u64 now)
{
	if (t->off_cpu) {
		c->stats.switch_ins_untraced++;
		account_switch_in(p, t, c, now);
	}
	t->off_cpu = 1;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(mt_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	struct task_ctx *t;
	struct mt_counts *c = NULL;
	__u64 now = 0, wake_clock, queued;

	t = traced(prev);
	if (t) {
		now = bpf_ktime_get_ns();
		c = this_cpu_counts();
		if (c)
			account_switch_out(prev, t, c, now);
		if (t->switched_in_ns && now > t->switched_in_ns) {
			__u64 slice = now - t->switched_in_ns;

			if (c)
				hist_add(c->hists.slice, slice);
			t->runtime_since_mig_ns += slice;
		}
		t->switched_out_ns = now;
		t->switched_in_ns = 0;
		t->preempted = preempt || task_state_of(prev) == TASK_RUNNING;
		t->switches_since++;
		if (probe_pending() && c)
			probe_switch_out(prev, t->preempted, c, now);
	}
	t = traced(next);
	if (t) {
		if (!now)
			now = bpf_ktime_get_ns();
		if (!c)
			c = this_cpu_counts();
		if (!c)
			return 0;
		if (probe_pending())
			probe_switch_in(next, t, now);
		t->switched_in_ns = now;
		t->off_cpu = 0;
		if (offcpu_records && t->switched_out_ns)
			emit_offcpu(next, t, c, now);
		account_switch_in(next, t, c, now);
		/* the wait that ends here, from the kernel's enqueue stamp: a wake-up's or a
		 * preempted task's requeue alike (the wait side of a pull); run_delay, which
		 * context_switch() is about to grow by it, is noted as it will stand */
		queued = queued_clock_of(next);
		if (queued) {
			__u64 clock = rq_clock_of(next), wait = clock >= queued ? clock - queued : 0;

			hist_add(c->hists.runwait, wait);
			t->run_delay_seen = (__u32)((run_delay_of(next) + wait) >> 10);
		}
		/* the wake-up latency: from sched_wakeup(_new)'s stamp, or the kernel's own
		 * enqueue stamp of a task last seen going to sleep (a task switched out
		 * runnable was requeued then: its wait is not a wake-up's) */
		wake_clock = t->wakeup_clock_ns;
		if (!wake_clock && wakeup_from_queued && t->switched_out_ns && !t->preempted)
			wake_clock = queued;
		if (wake_clock) {
			__u64 clock = rq_clock_of(next);

			/* equal when the wake-up preempted current: the kernel then skips the
			 * back-to-back clock update, as its own schedstat run_delay does */
			if (clock >= wake_clock)
				hist_add(c->hists.wakelat, clock - wake_clock);
		}
		t->wakeup_clock_ns = 0;
		c->stats.switches_in++;
	}
	if (switch_records && c && now)
		emit_switch(prev, next, preempt, c, now);
	return 0;
}

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(mt_migrate, struct task_struct *p, int dest_cpu)
{
	struct task_ctx *t = traced(p);
	struct mt_counts *c;
	volatile struct mig_note *n;	/* every access a real load or store (struct mig_note) */
	__u32 src, dst = dest_cpu, zero = 0;
	__u8 cause, on_rq;
	__u64 now, off = 0;
	bool stopper, not_fair;
	struct rq *rq;
	int policy;

	if (!t || !(c = this_cpu_counts()))
		return 0;
	src = task_cpu_of(p);
	if (src == dst) {
		c->stats.same_cpu++;
		return 0;
	}
	n = bpf_map_lookup_elem(&mig_notes, &zero);
	if (!n)
		return 0;
	now = bpf_ktime_get_ns();
	on_rq = task_on_rq_of(p);
	policy = p->policy;
	/* RT and DL tasks (by priority: a PI boost lends a fair task the RT class) and
	 * SCHED_EXT's: never the fair balancer's, whose detach_tasks() walks cfs_tasks */
	not_fair = p->prio < MAX_RT_PRIO || policy == SCHED_EXT;
	/* Active balance and sched_exec run the stopper of the source CPU. */
	stopper = current_is_stopper() && bpf_get_smp_processor_id() == src;

	if (!cpu_allowed(p, src))
		cause = MT_CAUSE_AFFINITY;
	else if (on_rq == 0)
		cause = MT_CAUSE_WAKEUP;
	else if (not_fair)
		cause = MT_CAUSE_UNKNOWN;	/* RT/DL push-pull, sched_ext: not fair's balancer */
	else if (stopper && task_in_execve(p))
		cause = MT_CAUSE_EXEC;
	else if (stopper && node_of(src) != node_of(dst))
		cause = MT_CAUSE_UNKNOWN;	/* active balance or NUMA balancing */
	else if (stopper)
		cause = MT_CAUSE_ACTIVE;
	else if (on_rq == TASK_ON_RQ_MIGRATING)
		cause = MT_CAUSE_LB_PULL;
	else
		cause = MT_CAUSE_UNKNOWN;
	n->cause = cause;
	n->on_rq = on_rq;
	if (on_rq == 0)
		n->state = MT_STATE_WAKING;
	else if (stopper && t->preempted)
		n->state = MT_STATE_RUNNING;	/* displaced by the stopper to be moved */
	else
		n->state = MT_STATE_QUEUED;
	n->flags = not_fair ? MT_RF_NOT_FAIR : 0;

	/* From here each value is read from the note, so that the paths above meet. */
	if (t->preempted)
		n->flags |= MT_RF_PREEMPTED;
	if (policy == SCHED_IDLE)
		n->flags |= MT_RF_IDLE_POLICY;
	if (t->switched_out_ns) {
		n->flags |= MT_RF_SEEN_OUT;
		off = now > t->switched_out_ns ? now - t->switched_out_ns : 0;
	}
	/* A task the stopper displaced was running: its age is 0 by definition. */
	n->age_ns = n->state == MT_STATE_RUNNING ? 0 : off;

	/* The source rq: the task's cfs_rq has not been switched yet by set_task_cpu(). */
	n->kernel_age_ns = -1;
	rq = task_fair_rq_of(p);
	if (rq) {
		__u64 exec_start = p->se.exec_start;
		__u64 clock_task = rq->clock_task;

		if (exec_start && clock_task >= exec_start) {
			n->kernel_age_ns = clock_task - exec_start;
			n->flags |= MT_RF_KAGE_VALID;
		}
	}
	/* the wait a pull cuts short: run_delay grew by it when the balancer dequeued the task,
	 * just before this tracepoint in set_task_cpu() (a censored observation of the wait) */
	n->wait_ns = 0;
	if (n->cause == MT_CAUSE_LB_PULL && has_queued_clock()) {
		__u64 wait = (__u64)((__u32)(run_delay_of(p) >> 10) - t->run_delay_seen) << 10;

		hist_add(c->hists.runwait_pulled, wait);
		n->wait_ns = wait;
		n->flags |= MT_RF_WAIT_VALID;
	}
	n->level = level_of(src, dst);
	if (n->cause == MT_CAUSE_LB_PULL)
		n->flags |= pull_flags(p, rq, src, dst, n->level);
	if (n->cause == MT_CAUSE_LB_PULL && (n->flags & MT_RF_KAGE_VALID))
		judge_pull(c, n->flags, n->level, n->kernel_age_ns);
	emit(p, t, c, src, dst, n->level, n->cause, n->state, n->on_rq, n->flags, now, n->age_ns,
	     n->kernel_age_ns, n->wait_ns);
	t->expect_cpu = dst;
	return 0;
}

/*
 * Never attached: user space runs it once after load (BPF_PROG_TEST_RUN) to learn what
 * CO-RE resolved against this kernel's BTF, which decides which programs to attach: a second
 * parse of the kernel's BTF in user space would lengthen every start-up (docs/overhead.md,
 * "No program at a wake-up").
 */
SEC("raw_tp")
int mt_features(void *ctx)
{
	has_queued_stamp = has_queued_clock();
	return 0;
}

/* Attached only on a kernel without the enqueue stamp (queued_clock_of), or when forced. */
SEC("tp_btf/sched_wakeup")
int BPF_PROG(mt_wakeup, struct task_struct *p)
{
	struct task_ctx *t = traced(p);

	if (t)
		t->wakeup_clock_ns = rq_clock_of(p);
	return 0;
}

/* Attached only for the switches' view (switch_records): a traced task being woken. */
SEC("tp_btf/sched_waking")
int BPF_PROG(mt_waking, struct task_struct *p)
{
	struct task_ctx *t = traced(p);
	struct mt_counts *c;
	struct mt_waking *r;

	if (!t || !(c = this_cpu_counts()))
		return 0;
	r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
	if (!r) {
		c->stats.waking_dropped++;
		return 0;
	}
	r->kind = MT_REC_WAKING;
	r->cpu = bpf_get_smp_processor_id();
	r->pad = 0;
	r->ts_ns = bpf_ktime_get_ns();
	r->pid = p->pid;
	r->tgid = p->tgid;
	r->prio = p->prio;
	r->target_cpu = task_cpu_of(p);
	copy_comm(r->comm, p);
	bpf_ringbuf_submit(r, rb_flags(c->stats.waking_records++));
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(mt_fork, struct task_struct *parent, struct task_struct *child)
{
	struct mt_counts *c;
	struct task_ctx *t;

	/* -a, --cgroup: the child is in scope by its own cgroup, whoever its parent
	 * (CLONE_INTO_CGROUP starts it in another cgroup than the parent's) */
	if (scope != MT_SCOPE_TGIDS) {
		if (!child->pid || !(t = ctx_new(child)) || !scope_decide(child, t))
			return 0;
		t->new_task = 1;
		t->off_cpu = 1;
		return 0;
	}
	if (!traced(parent) || !(c = this_cpu_counts()))
		return 0;
	/* Children of traced tasks are traced, whatever their tgid. */
	t = ctx_new(child);
	if (!t)
		return 0;
	mark_tgid(child->tgid);
	t->tracked = 1;
	t->new_task = 1;
	t->off_cpu = 1;
	start_count(child, t);	/* expect_cpu: the CPU it was forked on */
	c->stats.tracked_tasks++;
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(mt_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct mt_counts *c;
	struct task_ctx *t;

	if (!maybe_traced(p) || !(c = this_cpu_counts()))
		return 0;
	if ((__u32)old_pid != p->pid)
		follow_tid_exchange(p, old_pid);
	t = ctx_of(p);
	/* First sight at its exec: a workload released from the barrier is normally first
	 * seen at its switch-in, but nothing guarantees it an event between attach and exec
	 * (no program runs at a wake-up on most kernels: queued_clock_of). */
	if (!t) {
		traced(p);
		t = ctx_of(p);
	}
	if (!t || !t->await_exec)
		return 0;
	t->await_exec = 0;
	t->tracked = 1;
	start_count(p, t);
	t->switched_in_ns = bpf_ktime_get_ns();	/* it is running: exec is a syscall */
	c->stats.tracked_tasks++;
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(mt_wakeup_new, struct task_struct *p)
{
	struct task_ctx *t = traced(p);
	struct mt_counts *c;
	__u32 cpu;
	__u64 now;

	if (!t || !(c = this_cpu_counts()))
		return 0;
	now = bpf_ktime_get_ns();
	t->wakeup_clock_ns = rq_clock_of(p);
	cpu = task_cpu_of(p);
	/* wake_up_new_task() placed it with __set_task_cpu(): no sched_migrate_task. */
	if (t->new_task && t->expect_cpu >= 0 && cpu != (__u32)t->expect_cpu)
		emit(p, t, c, t->expect_cpu, cpu, level_of(t->expect_cpu, cpu), MT_CAUSE_FORK,
		     MT_STATE_NEW, 0, 0, now, 0, -1, 0);
	t->new_task = 0;
	t->expect_cpu = cpu;	/* __set_task_cpu(): not counted in se.nr_migrations either */
	return 0;
}

/*
 * Units of --unit BINARY:FUNCTION: entry and return of the function, attached by user space
 * to every process and filtered here like everything else; its arguments are not read.  (The
 * built-in workloads time their own units and log them: no probe, see workloads/unit_log.h.)
 */
static __always_inline int unit_enter(__u64 tag, __u64 nominal_ns)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	struct task_ctx *t = traced(cur);
	struct unit_ctx *u;

	if (!t)
		return 0;
	u = bpf_task_storage_get(&unit_tasks, cur, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!u || u->unit_depth++)
		return 0;
	u->unit_start_ns = bpf_ktime_get_ns();
	u->unit_cpu = bpf_get_smp_processor_id();
	u->unit_tag = tag;
	u->unit_nominal_ns = nominal_ns;
	u->migs_before = t->migs_since;
	u->switches_before = t->switches_since;
	/* running: the last off-CPU period ended at its switch-in */
	u->last_off_before_ns = t->switched_out_ns && t->switched_in_ns > t->switched_out_ns ?
					t->switched_in_ns - t->switched_out_ns : 0;
	t->migs_since = 0;
	t->switches_since = 0;
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(mt_unit_enter)
{
	return unit_enter(CW_TAG_NATURAL, 0);
}

SEC("uretprobe")
int BPF_KRETPROBE(mt_unit_exit)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	struct task_ctx *t = traced(cur);
	struct mt_counts *c;
	struct unit_ctx *uc;
	struct mt_unit *u;
	__u64 now;

	if (!t)
		return 0;
	uc = bpf_task_storage_get(&unit_tasks, cur, 0, 0);
	if (!uc || !uc->unit_depth || --uc->unit_depth || !(c = this_cpu_counts()))
		return 0;
	now = bpf_ktime_get_ns();
	u = bpf_ringbuf_reserve(&events, sizeof(*u), 0);
	if (!u) {
		/* atomic: a uprobe program can be preempted by another on this CPU */
		__sync_fetch_and_add(&c->stats.units_dropped, 1);
		goto out;
	}
	u->kind = MT_REC_UNIT;
	u->pid = cur->pid;
	u->tgid = cur->tgid;
	u->cpu_start = uc->unit_cpu;
	u->cpu_end = bpf_get_smp_processor_id();
	u->start_ns = uc->unit_start_ns;
	u->end_ns = now;
	u->prev_end_ns = uc->unit_prev_end_ns;
	u->tag = uc->unit_tag;
	u->nominal_age_ns = uc->unit_nominal_ns;
	u->migs_before = uc->migs_before;
	u->switches_before = uc->switches_before;
	u->migs_during = t->migs_since;
	u->switches_during = t->switches_since;
	u->last_off_ns = uc->last_off_before_ns;
	u->mig_age_ns = uc->mig_age_ns;
	u->mig_ts_ns = uc->mig_ts_ns;
	u->mig_src_cpu = uc->mig_src_cpu;
	u->mig_dst_cpu = uc->mig_dst_cpu;
	u->mig_cause = uc->mig_cause;
	u->streamed_bytes = 0;	/* the unit log's trial fields: self-timed units only */
	u->round = 0;
	u->rate_mbps = 0;
	/* units is updated atomically, so its value here is not this CPU's own: query always */
	bpf_ringbuf_submit(u, rb_flags(0));
	__sync_fetch_and_add(&c->stats.units, 1);
out:
	uc->unit_prev_end_ns = now;
	t->migs_since = 0;
	t->switches_since = 0;
	return 0;
}

/*
 * --cgroup: a task moved between cgroups (cgroup.procs, cgroup.threads; after the move):
 * every task's decision is made again at its next event.  Attached in --cgroup runs only.
 */
SEC("tp_btf/cgroup_attach_task")
int BPF_PROG(mt_cgroup_attach, struct cgroup *dst, const char *path, struct task_struct *task,
	     bool threadgroup)
{
	__sync_fetch_and_add(&cgroup_gen, 1);
	return 0;
}

/*
 * A task is freed (its last reference dropped, after an RCU grace period): its slot is given
 * back for the next task with a pid of that slot.  A leader whose pid a thread's exec took
 * (follow_tid_exchange) holds the slot of its tgid.  Task storage frees itself.
 */
SEC("tp_btf/sched_process_free")
int BPF_PROG(mt_free, struct task_struct *p)
{
	struct task_slot *s;

	if (!maybe_traced(p))
		return 0;
	s = slot_of(p);
	if (s && s->owner == (__u64)p) {
		release_slot(s);
		return 0;
	}
	s = slot_at(p->tgid);
	if (s && s->owner == (__u64)p)
		release_slot(s);
	return 0;
}
