// SPDX-License-Identifier: GPL-2.0
/*
 * The replay of scheduler events (sched_replay.h): bpf/migtrace.bpf.c's handlers, rewritten
 * for events that arrive in timestamp order instead of running in the kernel.  Per pid, an
 * entry of an open-addressing table holds what the BPF side keeps in its task slot; the
 * kernel state that the BPF side reads at the tracepoint (on_rq, cpus_ptr, the stopper's
 * identity) is told here from the order of events instead (docs/ftrace.md, "How causes are
 * told"):
 *
 *   - a move inside the task's waking..wakeup window, made by its waker (the same CPU and
 *     current task as its sched_waking: try_to_wake_up() places it with the waker's
 *     pi_lock held, interrupts off), is a wake-up placement (on_rq 0); so is a move of a
 *     task last seen going to sleep, where the stream has no sched_waking;
 *   - a move of a sleeping task outside such a window, or by another CPU within it, is a
 *     pull of a delayed dequeue (6.12+: asleep, kept queued for its lag; MT_RF_DELAYED);
 *   - a move of a task switched out runnable (preempted, or woken since), made by anything
 *     but the source CPU's stopper, is a load-balancer pull;
 *   - a move by the source CPU's stopper of a task it has just preempted is held back until
 *     the task's exec (sched_exec: EXEC) or its next switch-out (ACTIVE: active balance,
 *     affinity or sched_exec, not told apart), whichever comes first;
 *   - a new task's wakeup_new on another CPU than it was forked on is a fork placement.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "sched_replay.h"
#include "u32_table.h"

#define TASK_ON_RQ_MIGRATING 2
#define MAX_RT_PRIO 100

/* What the events last said of a task. */
enum rp_run_state {
	RS_UNKNOWN = 0,		/* not seen switching since its first sight */
	RS_RUNNING,		/* switched in, not out */
	RS_QUEUED,		/* runnable, not running: preempted, or woken */
	RS_SLEEPING,		/* switched out asleep, not woken since */
};

/* One task's state: what struct task_ctx holds on the BPF side, and what replaces on_rq. */
struct rp_task {
	uint32_t pid;			/* the table's key: first (u32_table.h) */
	uint32_t tgid;
	uint64_t switched_in_ns;	/* 0 when not running */
	uint64_t switched_out_ns;
	uint64_t runtime_since_mig_ns;
	uint64_t wakeup_ns;		/* a pending sched_wakeup(_new), for wakelat; 0 none */
	uint64_t runnable_ns;		/* runnable since (preempted switch-out or wakeup): the
					 * wait a pull cuts short; 0 not waiting */
	uint64_t queued_ns;		/* its last enqueue (the kernel's last_queued): runwait */
	int32_t expect_cpu;		/* where the task runs next by our records; -1 unknown */
	uint8_t run_state;		/* enum rp_run_state */
	uint8_t tracked;
	uint8_t await_exec;		/* launched workload: traced from its exec */
	uint8_t new_task;		/* forked, not yet woken */
	uint8_t preempted;		/* the last switch-out was involuntary */
	uint8_t waking;			/* between sched_waking and sched_wakeup */
	uint32_t waker_pid;		/* while waking: its sched_waking's current task */
	int32_t waker_cpu;		/* and CPU */
	uint8_t exiting;		/* sched_process_exit seen: freed at its final switch-out */
	uint8_t stopper;		/* a per-CPU stopper (comm "migration/N") */
	uint8_t pending;		/* a stopper move of it is held back (rp->pend) */
};

struct rp_pending {
	uint32_t pid;
	struct mt_migrate rec;		/* cause not yet known: ACTIVE or EXEC */
};

struct rp_tgid {
	uint32_t tgid;
	bool from_exec;
};

struct sched_replay {
	struct sched_replay_opts o;
	struct mt_stats stats;
	struct mt_hists hists;
	uint64_t *pairs;		/* nr_cpus x nr_cpus */
	struct sched_replay_info info;
	uint64_t last_ts;
	struct u32_table tasks;		/* struct rp_task by pid */
	struct rp_tgid *tgids;
	size_t ntgids;
	struct rp_pending pend[SCHED_REPLAY_MAX_PENDING];
	int npend;
};

/* floor(log2(µs)), 0 under 2 µs, the last slot open: the BPF side's log2_slot(). */
static unsigned log2_slot(uint64_t ns)
{
	uint64_t us = ns / 1000;
	unsigned slot = us ? 63 - __builtin_clzll(us) : 0;

	return slot < MT_HIST_SLOTS ? slot : MT_HIST_SLOTS - 1;
}

static void hist_add(__u64 *hist, uint64_t ns)
{
	hist[log2_slot(ns)]++;
}

static struct rp_task *task_get(const struct sched_replay *rp, uint32_t pid)
{
	return u32_table_find(&rp->tasks, pid);
}

/* Frees an entry; the table moves others into its place (u32_table.h). */
static void task_free(struct sched_replay *rp, struct rp_task *t)
{
	u32_table_remove(&rp->tasks, t->pid);
}

static const struct rp_tgid *tgid_mode(const struct sched_replay *rp, uint32_t tgid)
{
	for (size_t i = 0; i < rp->ntgids; i++)
		if (rp->tgids[i].tgid == tgid)
			return &rp->tgids[i];
	return NULL;
}

static uint32_t tgid_of(const struct sched_replay *rp, uint32_t pid)
{
	uint32_t tgid = rp->o.tgid_of ? rp->o.tgid_of(rp->o.ctx, pid) : 0;

	return tgid ? tgid : pid;
}

/* A fresh entry for pid, on cpu: the BPF side's ctx_new + start_count.  NULL: table full. */
static struct rp_task *task_new(struct sched_replay *rp, uint32_t pid, int cpu)
{
	struct rp_task *t;

	if (rp->tasks.n >= SCHED_REPLAY_MAX_TASKS) {
		rp->info.tasks_dropped++;
		return NULL;
	}
	t = u32_table_insert(&rp->tasks, pid);
	if (!t)
		return NULL;
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->expect_cpu = cpu;
	return t;
}

/* The traced-task filter at first sight (bpf: traced()): decides once, remembered. */
static struct rp_task *task_sight(struct sched_replay *rp, uint32_t pid, int cpu)
{
	struct rp_task *t = task_get(rp, pid);
	const struct rp_tgid *mode;

	if (t || !pid)
		return t;
	t = task_new(rp, pid, cpu);
	if (!t)
		return NULL;
	t->tgid = tgid_of(rp, pid);
	if (rp->o.scope == MT_SCOPE_ALL) {
		t->tracked = 1;
	} else {
		mode = tgid_mode(rp, t->tgid);
		t->tracked = mode && !mode->from_exec;
		t->await_exec = mode && mode->from_exec;
	}
	if (t->tracked)
		rp->stats.tracked_tasks++;
	return t;
}

static struct rp_task *traced(struct sched_replay *rp, uint32_t pid, int cpu)
{
	struct rp_task *t = task_sight(rp, pid, cpu);

	return t && t->tracked ? t : NULL;
}

static unsigned level_of(const struct sched_replay *rp, int src, int dst)
{
	return rp->o.topo ? run_topo_level(rp->o.topo, src, dst) : MT_LEVEL_UNKNOWN;
}

/* Counts, histograms, pair and the record of one real migration (bpf: emit()). */
static int emit(struct sched_replay *rp, struct mt_migrate *r)
{
	struct mt_stats *s = &rp->stats;
	int n = rp->o.nr_cpus;

	if (r->cause >= MT_NR_CAUSES)
		r->cause = MT_CAUSE_UNKNOWN;
	if (r->level >= MT_NR_LEVELS)
		r->level = MT_LEVEL_UNKNOWN;
	s->migrations[r->cause]++;
	s->level_migrations[r->level][r->cause]++;
	hist_add(rp->hists.age[r->cause], r->age_ns);
	if (!(r->flags & MT_RF_SEEN_OUT) && r->cause != MT_CAUSE_FORK)
		rp->info.unknown_age++;
	if (rp->pairs && r->src_cpu < n && r->dst_cpu < n)
		rp->pairs[r->src_cpu * n + r->dst_cpu]++;
	if (rp->o.no_records || !rp->o.on_migrate)
		return 0;
	s->rb_records++;
	return rp->o.on_migrate(rp->o.ctx, r);
}

/* A record of t's move from src to dst at now, its fields as emit()'s callers fill them. */
static void record_init(struct mt_migrate *r, const struct rp_task *t, const char *comm,
			uint64_t now, int src, int dst)
{
	memset(r, 0, sizeof(*r));
	r->kind = MT_REC_MIGRATE;
	r->pid = t->pid;
	r->tgid = t->tgid;
	r->src_cpu = (__u16)src;
	r->dst_cpu = (__u16)dst;
	r->ts_ns = now;
	r->off_cpu_ns = t->switched_out_ns && now > t->switched_out_ns ?
				now - t->switched_out_ns : 0;
	r->runtime_since_mig_ns = t->runtime_since_mig_ns;
	if (comm)
		memcpy(r->comm, comm, MT_COMM_LEN);
}

/* A held-back stopper move, now told: EXEC or ACTIVE. */
static int pending_send(struct sched_replay *rp, int i, uint8_t cause)
{
	struct rp_pending p = rp->pend[i];
	struct rp_task *t = task_get(rp, p.pid);

	rp->pend[i] = rp->pend[--rp->npend];
	if (t)
		t->pending = 0;
	p.rec.cause = cause;
	if (cause == MT_CAUSE_ACTIVE)
		rp->info.stopper_moves++;
	return emit(rp, &p.rec);
}

static int pending_resolve(struct sched_replay *rp, struct rp_task *t, uint8_t cause)
{
	if (!t || !t->pending)
		return 0;
	for (int i = 0; i < rp->npend; i++)
		if (rp->pend[i].pid == t->pid)
			return pending_send(rp, i, cause);
	t->pending = 0;
	return 0;
}

static int pending_add(struct sched_replay *rp, struct rp_task *t, const struct mt_migrate *r)
{
	int err = 0;

	if (rp->npend == SCHED_REPLAY_MAX_PENDING)
		err = pending_send(rp, 0, MT_CAUSE_ACTIVE);	/* the oldest, told as is */
	rp->pend[rp->npend].pid = t->pid;
	rp->pend[rp->npend].rec = *r;
	rp->npend++;
	t->pending = 1;
	return err;
}

static bool is_stopper_comm(const char *comm)
{
	return !strncmp(comm, "migration/", 10);
}

int sched_replay_note_stopper(struct sched_replay *rp, uint32_t pid, int cpu)
{
	struct rp_task *t = pid ? task_sight(rp, pid, cpu) : NULL;

	if (!t)
		return -ENOMEM;
	t->stopper = 1;
	return 0;
}

/* Per-CPU stoppers, learnt from the names sched_switch gives (a task table full: not). */
static void note_stopper(struct sched_replay *rp, uint32_t pid, const char *comm, int cpu)
{
	if (pid && is_stopper_comm(comm))
		sched_replay_note_stopper(rp, pid, cpu);
}

/*
 * The last switch-out of an exiting task: its state is X or Z (EXIT_DEAD, EXIT_ZOMBIE;
 * TASK_DEAD, 0x40, before 4.14).  Not any switch-out after sched_process_exit: a task
 * preempted on its way out is still queued, and the balancer may pull it (a wakeup
 * thread preempted in do_exit, pulled 1->0: its entry freed at the preemption, the move
 * was replayed for a pid no longer in /proc, untraced, and lost).
 */
static bool final_switch_out(int64_t prev_state)
{
	return (prev_state & 0x30) || (prev_state & 0xff) == 0x40;
}

/* bpf: account_switch_in(): a task found on another CPU than expected moved unseen. */
static int account_switch_in(struct sched_replay *rp, struct rp_task *t, int cpu,
			     uint64_t now)
{
	struct mt_migrate r;
	int err = 0;

	if (t->expect_cpu >= 0 && cpu != t->expect_cpu) {
		record_init(&r, t, NULL, now, t->expect_cpu, cpu);
		r.cause = MT_CAUSE_UNSEEN;
		r.state = t->preempted ? MT_STATE_QUEUED : MT_STATE_WAKING;
		r.on_rq = 1;
		r.level = (__u8)level_of(rp, t->expect_cpu, cpu);
		r.flags = MT_RF_SEEN_OUT;
		r.age_ns = r.off_cpu_ns;
		r.kernel_age_ns = -1;
		err = emit(rp, &r);
		t->runtime_since_mig_ns = 0;
	}
	t->expect_cpu = cpu;
	return err;
}

static int replay_switch_out(struct sched_replay *rp, const struct sched_event *e)
{
	struct rp_task *t = traced(rp, e->pid, e->cpu);
	bool preempted = sched_replay_preempted(e->prev_state);
	int err;

	if (!t) {
		/* untraced: only its exit's last switch-out matters, to free the entry */
		t = task_get(rp, e->pid);
		if (t && t->exiting && final_switch_out(e->prev_state))
			task_free(rp, t);
		return 0;
	}
	err = pending_resolve(rp, t, MT_CAUSE_ACTIVE);
	/* bpf: account_switch_out(): off CPU by our records, so its switch-in showed no
	 * event (or was lost with others: lost_events) */
	if (!err && (t->run_state == RS_QUEUED || t->run_state == RS_SLEEPING)) {
		rp->stats.switch_ins_untraced++;
		err = account_switch_in(rp, t, e->cpu, e->ts_ns);
	}
	if (t->switched_in_ns && e->ts_ns > t->switched_in_ns) {
		uint64_t slice = e->ts_ns - t->switched_in_ns;

		hist_add(rp->hists.slice, slice);
		t->runtime_since_mig_ns += slice;
	}
	t->switched_out_ns = e->ts_ns;
	t->switched_in_ns = 0;
	t->preempted = preempted;
	t->run_state = preempted ? RS_QUEUED : RS_SLEEPING;
	t->runnable_ns = preempted ? e->ts_ns : 0;
	t->queued_ns = t->runnable_ns;
	t->waking = 0;
	if (t->exiting && final_switch_out(e->prev_state))
		task_free(rp, t);
	return err;
}

static int replay_switch_in(struct sched_replay *rp, const struct sched_event *e)
{
	struct rp_task *t = traced(rp, e->pid2, e->cpu);
	uint64_t now = e->ts_ns;
	int err = 0;

	if (!t)
		return 0;
	t->switched_in_ns = now;
	if (rp->o.on_offcpu && t->switched_out_ns) {
		struct mt_offcpu r = {
			.kind = MT_REC_OFFCPU,
			.pid = t->pid,
			.tgid = t->tgid,
			.cpu = (__u16)e->cpu,
			.preempted = t->preempted,
			.off_ns = t->switched_out_ns,
			.on_ns = now,
		};

		rp->stats.offcpu_records++;
		err = rp->o.on_offcpu(rp->o.ctx, &r);
	}
	if (!err)
		err = account_switch_in(rp, t, e->cpu, now);
	if (t->queued_ns && now >= t->queued_ns)
		hist_add(rp->hists.runwait, now - t->queued_ns);
	if (t->wakeup_ns && now >= t->wakeup_ns)
		hist_add(rp->hists.wakelat, now - t->wakeup_ns);
	t->wakeup_ns = 0;
	t->runnable_ns = 0;
	t->queued_ns = 0;
	t->waking = 0;
	t->run_state = RS_RUNNING;
	rp->stats.switches_in++;
	return err;
}

/* The switch as a record (bpf: emit_switch()), when a traced task is on a side. */
static int send_switch(struct sched_replay *rp, const struct sched_event *e, bool prev_traced,
		       bool next_traced)
{
	const struct rp_task *p = task_get(rp, e->pid), *n = task_get(rp, e->pid2);
	bool preempted = sched_replay_preempted(e->prev_state);
	struct mt_switch s = {
		.kind = MT_REC_SWITCH,
		.cpu = (__u16)e->cpu,
		.preempted = preempted,
		.ts_ns = e->ts_ns,
		.prev_pid = e->pid,
		.prev_tgid = p && p->tgid ? p->tgid : e->pid,
		.next_pid = e->pid2,
		.next_tgid = n && n->tgid ? n->tgid : e->pid2,
		.prev_prio = e->has_prio ? e->prio : 120,
		.next_prio = 120,	/* the event's next_prio is not decoded: the fair default */
		.prev_state = preempted ? 0 : e->prev_state,
	};

	if (!prev_traced && !next_traced)
		return 0;
	memcpy(s.prev_comm, e->comm, sizeof(s.prev_comm));
	memcpy(s.next_comm, e->comm2, sizeof(s.next_comm));
	rp->stats.switch_records++;
	return rp->o.on_switch(rp->o.ctx, &s);
}

static int replay_switch(struct sched_replay *rp, const struct sched_event *e)
{
	bool prev_traced, next_traced;
	int err;

	note_stopper(rp, e->pid, e->comm, e->cpu);
	note_stopper(rp, e->pid2, e->comm2, e->cpu);
	/* before the replay: a task's final switch-out frees it */
	prev_traced = rp->o.on_switch && traced(rp, e->pid, e->cpu);
	next_traced = rp->o.on_switch && traced(rp, e->pid2, e->cpu);
	err = replay_switch_out(rp, e);
	if (!err)
		err = replay_switch_in(rp, e);
	if (!err && rp->o.on_switch)
		err = send_switch(rp, e, prev_traced, next_traced);
	return err;
}

/* The current task is the stopper of the source CPU (bpf: is_stopper && cpu == src). */
static bool by_stopper(const struct sched_replay *rp, const struct sched_event *e)
{
	const struct rp_task *cur;

	if (e->cpu != e->orig_cpu)
		return false;
	if (e->comm2[0])
		return is_stopper_comm(e->comm2);
	cur = task_get(rp, e->cur_pid);
	return cur && cur->stopper;
}

static int replay_migrate(struct sched_replay *rp, const struct sched_event *e)
{
	struct rp_task *t = traced(rp, e->pid, e->orig_cpu);
	int src = (int)e->orig_cpu, dst = (int)e->dest_cpu;
	bool stopper, in_wakeup, waking, delayed, not_fair;
	struct mt_migrate r;
	int err;

	if (!t)
		return 0;
	if (src == dst) {
		rp->stats.same_cpu++;
		return 0;
	}
	err = pending_resolve(rp, t, MT_CAUSE_ACTIVE);
	stopper = by_stopper(rp, e);
	/* asleep and not being placed by its waker: with sched_waking in the stream, not a
	 * wake-up but a delayed dequeue (6.12+: a sleeping fair task kept queued for its lag)
	 * pulled; by another CPU inside the waking window too (a 6.12 guest: the idle CPU's
	 * balancer pulled the delayed task before the waker requeued it) */
	in_wakeup = t->waking && e->cur_pid == t->waker_pid && (int)e->cpu == t->waker_cpu;
	delayed = !in_wakeup && t->run_state == RS_SLEEPING && rp->info.saw[SE_WAKING];
	waking = in_wakeup || (t->run_state == RS_SLEEPING && !delayed);
	not_fair = e->has_prio && e->prio < MAX_RT_PRIO;
	record_init(&r, t, e->comm, e->ts_ns, src, dst);
	r.cur_pid = e->cur_pid;
	memcpy(r.cur_comm, e->comm2, MT_COMM_LEN);
	r.kernel_age_ns = -1;
	r.level = (__u8)level_of(rp, src, dst);
	if (waking)
		r.cause = MT_CAUSE_WAKEUP;
	else if (not_fair)
		r.cause = MT_CAUSE_UNKNOWN;
	else if (stopper && rp->o.topo && r.level == MT_LEVEL_NODE)
		r.cause = MT_CAUSE_UNKNOWN;	/* active balance or NUMA balancing */
	else if (stopper)
		r.cause = MT_CAUSE_ACTIVE;	/* or EXEC: held back below */
	else if (t->run_state == RS_QUEUED || delayed)
		r.cause = MT_CAUSE_LB_PULL;
	else
		r.cause = MT_CAUSE_UNKNOWN;	/* running, or never seen: events missing */
	if (t->switched_out_ns)
		r.flags |= MT_RF_SEEN_OUT;
	if (t->preempted)
		r.flags |= MT_RF_PREEMPTED;
	if (not_fair)
		r.flags |= MT_RF_NOT_FAIR;
	if (delayed)
		r.flags |= MT_RF_DELAYED;
	r.on_rq = waking ? 0 : TASK_ON_RQ_MIGRATING;
	if (waking)
		r.state = MT_STATE_WAKING;
	else if (stopper && t->preempted)
		r.state = MT_STATE_RUNNING;
	else
		r.state = MT_STATE_QUEUED;
	r.age_ns = r.state == MT_STATE_RUNNING ? 0 : r.off_cpu_ns;
	/* the wait a pull cuts short: runnable since its preempted switch-out or its wake-up,
	 * as the kernel's run_delay grows (docs/ftrace.md, "What is read") */
	if (r.cause == MT_CAUSE_LB_PULL && t->runnable_ns && e->ts_ns >= t->runnable_ns) {
		r.wait_ns = e->ts_ns - t->runnable_ns;
		r.flags |= MT_RF_WAIT_VALID;
		hist_add(rp->hists.runwait_pulled, r.wait_ns);
	}
	/* a queued task's move requeues it on dst: its last_queued restarts */
	if (t->run_state == RS_QUEUED && t->queued_ns)
		t->queued_ns = e->ts_ns;
	t->runtime_since_mig_ns = 0;
	t->expect_cpu = dst;
	if (!err && r.cause == MT_CAUSE_ACTIVE && stopper)
		return pending_add(rp, t, &r);
	return err ? err : emit(rp, &r);
}

static int replay_waking(struct sched_replay *rp, const struct sched_event *e)
{
	struct rp_task *t = traced(rp, e->pid, e->dest_cpu);

	if (t && t->run_state != RS_RUNNING) {
		t->waking = 1;
		t->waker_pid = e->cur_pid;
		t->waker_cpu = (int32_t)e->cpu;
	}
	/* the switches' view (bpf: mt_waking) */
	if (t && rp->o.on_waking) {
		struct mt_waking w = {
			.kind = MT_REC_WAKING,
			.cpu = (__u16)e->cpu,
			.ts_ns = e->ts_ns,
			.pid = e->pid,
			.tgid = t->tgid,
			.prio = e->has_prio ? e->prio : 120,
			.target_cpu = (__s32)e->dest_cpu,
		};

		memcpy(w.comm, e->comm, sizeof(w.comm));
		rp->stats.waking_records++;
		return rp->o.on_waking(rp->o.ctx, &w);
	}
	return 0;
}

static int replay_wakeup(struct sched_replay *rp, const struct sched_event *e)
{
	struct rp_task *t = traced(rp, e->pid, e->dest_cpu);

	if (!t)
		return 0;
	t->wakeup_ns = e->ts_ns;
	t->waking = 0;
	if (t->run_state == RS_SLEEPING || t->run_state == RS_UNKNOWN) {
		t->run_state = RS_QUEUED;
		t->runnable_ns = e->ts_ns;
		t->queued_ns = e->ts_ns;
	}
	return 0;
}

static int replay_wakeup_new(struct sched_replay *rp, const struct sched_event *e)
{
	struct rp_task *t = traced(rp, e->pid, e->dest_cpu);
	int cpu = (int)e->dest_cpu;
	struct mt_migrate r;
	int err = 0;

	if (!t)
		return 0;
	t->wakeup_ns = e->ts_ns;
	/* wake_up_new_task() placed it with __set_task_cpu(): no sched_migrate_task */
	if (t->new_task && t->expect_cpu >= 0 && cpu != t->expect_cpu) {
		record_init(&r, t, e->comm, e->ts_ns, t->expect_cpu, cpu);
		r.cur_pid = e->cur_pid;
		r.cause = MT_CAUSE_FORK;
		r.state = MT_STATE_NEW;
		r.level = (__u8)level_of(rp, t->expect_cpu, cpu);
		r.kernel_age_ns = -1;
		r.off_cpu_ns = 0;
		err = emit(rp, &r);
		t->runtime_since_mig_ns = 0;
	}
	t->new_task = 0;
	t->expect_cpu = cpu;
	t->run_state = RS_QUEUED;
	t->runnable_ns = e->ts_ns;
	t->queued_ns = e->ts_ns;
	return err;
}

static int replay_fork(struct sched_replay *rp, const struct sched_event *e)
{
	struct rp_task *parent, *child;
	bool follow;
	uint32_t tgid;
	int err = 0;

	if (!e->pid2)
		return 0;
	/* -a: every child; else the children of traced tasks, whatever their tgid.  The
	 * others are decided at their first sight, by their tgid.  (Read now: freeing and
	 * adding entries below moves others.) */
	parent = task_sight(rp, e->pid, e->cpu);
	follow = rp->o.scope == MT_SCOPE_ALL || (parent && parent->tracked);
	/* a stale entry of a reused pid (its exit not seen) starts afresh */
	child = task_get(rp, e->pid2);
	if (child) {
		err = pending_resolve(rp, child, MT_CAUSE_ACTIVE);
		task_free(rp, child);
	}
	if (!follow)
		return err;
	tgid = rp->o.tgid_of ? rp->o.tgid_of(rp->o.ctx, e->pid2) : 0;
	child = task_new(rp, e->pid2, e->cpu);
	if (!child)
		return err;
	child->tgid = tgid ? tgid : e->pid2;
	child->tracked = 1;
	child->new_task = 1;
	rp->stats.tracked_tasks++;
	return err;
}

static int replay_exec(struct sched_replay *rp, const struct sched_event *e)
{
	struct rp_task *t, *old;
	int err = 0;

	/* a thread's exec takes its leader's pid (de_thread): its state follows */
	if (e->pid2 && e->pid2 != e->pid && (old = task_get(rp, e->pid2))) {
		struct rp_task moved = *old;

		err = pending_resolve(rp, old, MT_CAUSE_EXEC);
		moved.pending = 0;
		task_free(rp, old);
		t = task_get(rp, e->pid);
		if (t) {
			if (!err)
				err = pending_resolve(rp, t, MT_CAUSE_ACTIVE);
			task_free(rp, t);
		}
		t = task_new(rp, e->pid, e->cpu);
		if (t) {
			moved.pid = e->pid;
			*t = moved;
		}
	}
	t = task_sight(rp, e->pid, e->cpu);
	if (!t)
		return err;
	if (!err)
		err = pending_resolve(rp, t, MT_CAUSE_EXEC);
	if (!t->await_exec)
		return err;
	t->await_exec = 0;
	t->tracked = 1;
	t->expect_cpu = e->cpu;
	t->switched_in_ns = e->ts_ns;	/* it is running: exec is a syscall */
	t->run_state = RS_RUNNING;
	rp->stats.tracked_tasks++;
	return err;
}

static int replay_exit(struct sched_replay *rp, const struct sched_event *e)
{
	struct rp_task *t = task_get(rp, e->pid);

	if (!t)
		return 0;
	t->exiting = 1;
	return pending_resolve(rp, t, MT_CAUSE_ACTIVE);
}

bool sched_replay_preempted(int64_t prev_state)
{
	/*
	 * The reported states are one bit each under 0x100 (S D T t X Z P I); a preempted
	 * task reports TASK_REPORT_MAX above them (0x100 on 6.x, 0x400..0x1000 on older
	 * kernels), a task that yielded running 0: neither has a low bit.
	 */
	return (prev_state & 0xff) == 0;
}

struct sched_replay *sched_replay_new(const struct sched_replay_opts *o)
{
	struct sched_replay *rp = calloc(1, sizeof(*rp));

	if (!rp)
		return NULL;
	rp->o = *o;
	u32_table_init(&rp->tasks, sizeof(struct rp_task));
	if (o->nr_cpus > 0 && o->nr_cpus <= RUN_MAX_NR_CPUS) {
		rp->pairs = calloc((size_t)o->nr_cpus * o->nr_cpus, sizeof(*rp->pairs));
		if (!rp->pairs) {
			free(rp);
			return NULL;
		}
	} else {
		rp->o.nr_cpus = 0;
	}
	return rp;
}

int sched_replay_track(struct sched_replay *rp, uint32_t tgid, bool from_exec)
{
	struct rp_tgid *n;

	if (tgid_mode(rp, tgid))
		return 0;
	n = realloc(rp->tgids, (rp->ntgids + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	rp->tgids = n;
	rp->tgids[rp->ntgids].tgid = tgid;
	rp->tgids[rp->ntgids].from_exec = from_exec;
	rp->ntgids++;
	return 0;
}

/* Whether every CPU the event names is one of the replay's (the kernel's always are). */
static bool cpus_in_range(const struct sched_replay *rp, const struct sched_event *e)
{
	uint32_t n = (uint32_t)rp->o.nr_cpus;

	if (!n)
		return true;	/* no bound was given (nor pairs kept) */
	if (e->cpu >= n)
		return false;
	switch (e->type) {
	case SE_MIGRATE:
		return e->orig_cpu < n && e->dest_cpu < n;
	case SE_WAKING:
	case SE_WAKEUP:
	case SE_WAKEUP_NEW:
		return e->dest_cpu < n;
	}
	return true;
}

int sched_replay_event(struct sched_replay *rp, const struct sched_event *e)
{
	if (e->ts_ns < rp->last_ts) {
		rp->info.out_of_order++;
		return 0;
	}
	if (!cpus_in_range(rp, e)) {
		rp->info.bad_cpu++;
		return 0;
	}
	rp->last_ts = e->ts_ns;
	rp->info.events++;
	if (e->type >= SE_SWITCH && e->type <= SE_EXIT)
		rp->info.saw[e->type] = true;
	switch (e->type) {
	case SE_SWITCH:
		return replay_switch(rp, e);
	case SE_MIGRATE:
		return replay_migrate(rp, e);
	case SE_WAKING:
		return replay_waking(rp, e);
	case SE_WAKEUP:
		return replay_wakeup(rp, e);
	case SE_WAKEUP_NEW:
		return replay_wakeup_new(rp, e);
	case SE_FORK:
		return replay_fork(rp, e);
	case SE_EXEC:
		return replay_exec(rp, e);
	case SE_EXIT:
		return replay_exit(rp, e);
	}
	return 0;
}

int sched_replay_flush(struct sched_replay *rp)
{
	int err = 0;

	while (rp->npend && !err)
		err = pending_send(rp, 0, MT_CAUSE_ACTIVE);
	return err;
}

void sched_replay_counts(const struct sched_replay *rp, struct mt_stats *stats,
			 struct mt_hists *hists)
{
	if (stats)
		*stats = rp->stats;
	if (hists)
		*hists = rp->hists;
}

void sched_replay_pairs(const struct sched_replay *rp, uint64_t *pairs)
{
	size_t n = (size_t)rp->o.nr_cpus * rp->o.nr_cpus;

	if (rp->pairs)
		memcpy(pairs, rp->pairs, n * sizeof(*pairs));
}

void sched_replay_info(const struct sched_replay *rp, struct sched_replay_info *info)
{
	*info = rp->info;
}

uint64_t sched_replay_live_tasks(const struct sched_replay *rp)
{
	return rp->tasks.n;
}

const char *sched_replay_event_name(int type)
{
	static const char *const names[SE_EXIT + 1] = {
		[SE_SWITCH] = "sched_switch",
		[SE_MIGRATE] = "sched_migrate_task",
		[SE_WAKING] = "sched_waking",
		[SE_WAKEUP] = "sched_wakeup",
		[SE_WAKEUP_NEW] = "sched_wakeup_new",
		[SE_FORK] = "sched_process_fork",
		[SE_EXEC] = "sched_process_exec",
		[SE_EXIT] = "sched_process_exit",
	};

	return type >= SE_SWITCH && type <= SE_EXIT ? names[type] : "";
}

void sched_replay_to_run(const struct sched_replay *rp, struct run *r)
{
	struct run_backend *b = &r->meta.backend;
	size_t len;

	r->stats = rp->stats;
	r->hists = rp->hists;
	if (r->pairs && rp->pairs && r->meta.nr_cpus == rp->o.nr_cpus)
		sched_replay_pairs(rp, r->pairs);
	b->replayed = true;
	b->events = rp->info.events;
	b->out_of_order = rp->info.out_of_order;
	b->stopper_moves = rp->info.stopper_moves;
	b->unknown_age = rp->info.unknown_age;
	b->missing[0] = '\0';
	for (int type = SE_SWITCH; type <= SE_EXIT; type++) {
		if (rp->info.saw[type])
			continue;
		len = strlen(b->missing);
		snprintf(b->missing + len, sizeof(b->missing) - len, "%s%s", len ? "," : "",
			 sched_replay_event_name(type));
	}
	snprintf(b->not_read, sizeof(b->not_read), "kernel_age,kernel_migrations,affinity,"
		 "numa,core_cookie%s", rp->o.topo ? "" : ",topology");
}

void sched_replay_free(struct sched_replay *rp)
{
	if (!rp)
		return;
	u32_table_free(&rp->tasks);
	free(rp->tgids);
	free(rp->pairs);
	free(rp);
}
