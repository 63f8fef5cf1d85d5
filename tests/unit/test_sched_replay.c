// SPDX-License-Identifier: GPL-2.0
/*
 * The replay of scheduler events (user/capture/sched_replay.c) on synthetic sequences, each
 * with a known answer: every cause it tells (wake-up, pull, active*, exec, fork, unseen,
 * unknown), the age and off-CPU time, the preempted flag, the wait of a pull, fork
 * following and tracing from exec, same-CPU moves, the pair matrix, out-of-order events,
 * off-CPU records, the stopper's name learnt from sched_switch, exits freeing state, and
 * switch-ins that fired no event.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run.h"
#include "sched_replay.h"

#define US 1000ULL
#define S_SLEEP 0x1		/* prev_state 'S' */
#define S_PREEMPT 0x100		/* 'R+' on 6.x */
#define S_DEAD 0x20		/* 'Z' */

struct sink {
	struct mt_migrate recs[64];
	int nrecs;
	struct mt_offcpu off[64];
	int noff;
};

static int on_migrate(void *ctx, const struct mt_migrate *m)
{
	struct sink *s = ctx;

	if (s->nrecs < 64)
		s->recs[s->nrecs++] = *m;
	return 0;
}

static int on_offcpu(void *ctx, const struct mt_offcpu *o)
{
	struct sink *s = ctx;

	if (s->noff < 64)
		s->off[s->noff++] = *o;
	return 0;
}

static struct sched_replay *replay(struct sink *s, uint8_t scope, bool offcpu)
{
	struct sched_replay_opts o = {
		.hot_ns = 500 * US,
		.nr_cpus = 4,
		.scope = scope,
		.on_migrate = on_migrate,
		.on_offcpu = offcpu ? on_offcpu : NULL,
		.ctx = s,
	};
	struct sched_replay *rp;

	memset(s, 0, sizeof(*s));
	rp = sched_replay_new(&o);
	assert_non_null(rp);
	return rp;
}

static void ev(struct sched_replay *rp, struct sched_event e)
{
	assert_int_equal(sched_replay_event(rp, &e), 0);
}

static void sw(struct sched_replay *rp, uint64_t ts, int cpu, uint32_t prev, int64_t state,
	       uint32_t next)
{
	struct sched_event e = { .ts_ns = ts, .cpu = cpu, .type = SE_SWITCH, .cur_pid = prev,
				 .pid = prev, .pid2 = next, .prev_state = state };

	snprintf(e.comm, sizeof(e.comm), "t%u", prev);
	snprintf(e.comm2, sizeof(e.comm2), "t%u", next);
	ev(rp, e);
}

static void mig(struct sched_replay *rp, uint64_t ts, int cpu, uint32_t cur, uint32_t pid,
		int src, int dst)
{
	ev(rp, (struct sched_event){ .ts_ns = ts, .cpu = cpu, .type = SE_MIGRATE, .cur_pid = cur,
				     .pid = pid, .orig_cpu = src, .dest_cpu = dst,
				     .comm = "w" });
}

static void wake(struct sched_replay *rp, uint64_t ts, int cpu, uint8_t type, uint32_t pid,
		 int target)
{
	ev(rp, (struct sched_event){ .ts_ns = ts, .cpu = cpu, .type = type, .pid = pid,
				     .dest_cpu = target });
}

/* sched_waking of pid by the task waker on cpu */
static void waking(struct sched_replay *rp, uint64_t ts, int cpu, uint32_t waker, uint32_t pid)
{
	ev(rp, (struct sched_event){ .ts_ns = ts, .cpu = cpu, .type = SE_WAKING,
				     .cur_pid = waker, .pid = pid, .dest_cpu = cpu });
}

/* With sched_waking in the stream, a sleeping task moved outside a waking window was kept
 * queued asleep (a delayed dequeue) and pulled; without it, the move is taken as a wake-up. */
static void test_delayed(void **state)
{
	struct sink s;
	struct sched_replay *rp = replay(&s, MT_SCOPE_ALL, false);

	(void)state;
	wake(rp, 900 * US, 1, SE_WAKING, 99, 1);	/* the stream has sched_waking */
	sw(rp, 1000 * US, 0, 0, 0, 10);
	sw(rp, 1100 * US, 0, 10, S_SLEEP, 0);
	mig(rp, 1300 * US, 1, 0, 10, 0, 1);
	assert_int_equal(s.nrecs, 1);
	assert_int_equal(s.recs[0].cause, MT_CAUSE_LB_PULL);
	assert_int_equal(s.recs[0].flags, MT_RF_SEEN_OUT | MT_RF_DELAYED);
	assert_int_equal(s.recs[0].age_ns, 200 * US);
	sched_replay_free(rp);

	rp = replay(&s, MT_SCOPE_ALL, false);
	sw(rp, 1000 * US, 0, 0, 0, 10);
	sw(rp, 1100 * US, 0, 10, S_SLEEP, 0);
	mig(rp, 1300 * US, 1, 0, 10, 0, 1);
	assert_int_equal(s.recs[0].cause, MT_CAUSE_WAKEUP);
	sched_replay_free(rp);

	/* inside the waking window the waker's move is the placement; another CPU's is a
	 * pull of the delayed task (the waker requeues it where it finds it) */
	rp = replay(&s, MT_SCOPE_ALL, false);
	sw(rp, 1000 * US, 0, 0, 0, 10);
	sw(rp, 1100 * US, 0, 10, S_SLEEP, 0);
	waking(rp, 1200 * US, 2, 20, 10);
	mig(rp, 1201 * US, 1, 0, 10, 0, 1);	/* CPU 1's idle balance */
	wake(rp, 1203 * US, 2, SE_WAKEUP, 10, 1);
	sw(rp, 1210 * US, 1, 0, 0, 10);
	sw(rp, 1300 * US, 1, 10, S_SLEEP, 0);
	waking(rp, 1400 * US, 0, 0, 10);	/* woken again, by CPU 0's idle (an IRQ) */
	mig(rp, 1401 * US, 0, 0, 10, 1, 0);
	assert_int_equal(s.nrecs, 2);
	assert_int_equal(s.recs[0].cause, MT_CAUSE_LB_PULL);
	assert_int_equal(s.recs[0].flags, MT_RF_SEEN_OUT | MT_RF_DELAYED);
	assert_int_equal(s.recs[1].cause, MT_CAUSE_WAKEUP);
	sched_replay_free(rp);
}

/* A task runs on CPU 0, sleeps, is woken onto CPU 1: a wake-up placement aged by its sleep. */
static void test_wakeup(void **state)
{
	struct sched_replay_info info;
	struct mt_stats st;
	struct sink s;
	struct sched_replay *rp = replay(&s, MT_SCOPE_ALL, false);

	(void)state;
	sw(rp, 1000 * US, 0, 0, 0, 10);
	sw(rp, 1100 * US, 0, 10, S_SLEEP, 0);
	waking(rp, 1400 * US, 2, 20, 10);
	mig(rp, 1401 * US, 2, 20, 10, 0, 1);
	wake(rp, 1402 * US, 1, SE_WAKEUP, 10, 1);
	sw(rp, 1410 * US, 1, 0, 0, 10);
	assert_int_equal(s.nrecs, 1);
	assert_int_equal(s.recs[0].cause, MT_CAUSE_WAKEUP);
	assert_int_equal(s.recs[0].state, MT_STATE_WAKING);
	assert_int_equal(s.recs[0].on_rq, 0);
	assert_int_equal(s.recs[0].age_ns, 301 * US);
	assert_int_equal(s.recs[0].off_cpu_ns, 301 * US);
	assert_int_equal(s.recs[0].runtime_since_mig_ns, 100 * US);
	assert_int_equal(s.recs[0].flags, MT_RF_SEEN_OUT);
	assert_int_equal(s.recs[0].kernel_age_ns, -1);
	assert_int_equal(s.recs[0].cur_pid, 20);
	sched_replay_counts(rp, &st, NULL);
	assert_int_equal(st.migrations[MT_CAUSE_WAKEUP], 1);
	assert_int_equal(st.switches_in, 2);
	assert_int_equal(st.lb_judged, 0);
	assert_int_equal(st.kernel_migrations, 0);
	sched_replay_info(rp, &info);
	assert_true(info.saw[SE_WAKING] && info.saw[SE_MIGRATE] && !info.saw[SE_FORK]);
	assert_int_equal(info.unknown_age, 0);
	sched_replay_free(rp);
}

/* Preempted on CPU 0, pulled by CPU 1's balancer while queued: a pull with its wait. */
static void test_pull(void **state)
{
	struct mt_hists *h = calloc(1, sizeof(*h));
	uint64_t pairs[16];
	struct sink s;
	struct sched_replay *rp = replay(&s, MT_SCOPE_ALL, false);

	(void)state;
	sw(rp, 1000 * US, 0, 0, 0, 10);
	sw(rp, 3000 * US, 0, 10, S_PREEMPT, 11);
	mig(rp, 3700 * US, 1, 0, 10, 0, 1);
	sw(rp, 3800 * US, 1, 0, 0, 10);
	assert_int_equal(s.nrecs, 1);
	assert_int_equal(s.recs[0].cause, MT_CAUSE_LB_PULL);
	assert_int_equal(s.recs[0].state, MT_STATE_QUEUED);
	assert_int_equal(s.recs[0].on_rq, 2);
	assert_int_equal(s.recs[0].age_ns, 700 * US);
	assert_int_equal(s.recs[0].flags, MT_RF_SEEN_OUT | MT_RF_PREEMPTED | MT_RF_WAIT_VALID);
	assert_int_equal(s.recs[0].wait_ns, 700 * US);
	assert_int_equal(s.recs[0].runtime_since_mig_ns, 2000 * US);
	sched_replay_counts(rp, NULL, h);
	assert_int_equal(h->slice[10], 1);		/* 2000 µs */
	assert_int_equal(h->runwait_pulled[9], 1);	/* 700 µs */
	assert_int_equal(h->runwait[6], 1);		/* 100 µs since requeued on CPU 1 */
	assert_int_equal(h->age[MT_CAUSE_LB_PULL][9], 1);
	sched_replay_pairs(rp, pairs);
	assert_int_equal(pairs[0 * 4 + 1], 1);
	assert_int_equal(pairs[1 * 4 + 0], 0);
	free(h);
	sched_replay_free(rp);
}

/* The stopper of CPU 0 displaces a running task: age 0, active* unless an exec follows. */
static void test_stopper(void **state)
{
	struct sched_replay_info info;
	struct mt_stats st;
	struct sink s;
	struct sched_replay *rp = replay(&s, MT_SCOPE_ALL, false);
	struct sched_event e = { .ts_ns = 2001 * US, .cpu = 0, .type = SE_SWITCH, .pid = 10,
				 .pid2 = 7, .prev_state = S_PREEMPT, .comm = "w",
				 .comm2 = "migration/0" };

	(void)state;
	sw(rp, 1000 * US, 0, 0, 0, 10);
	ev(rp, e);			/* the stopper, learnt by its name */
	mig(rp, 2002 * US, 0, 7, 10, 0, 1);
	assert_int_equal(s.nrecs, 0);	/* held back until its next switch-out */
	sw(rp, 2010 * US, 1, 0, 0, 10);
	sw(rp, 2100 * US, 1, 10, S_SLEEP, 0);
	assert_int_equal(s.nrecs, 1);
	assert_int_equal(s.recs[0].cause, MT_CAUSE_ACTIVE);
	assert_int_equal(s.recs[0].state, MT_STATE_RUNNING);
	assert_int_equal(s.recs[0].age_ns, 0);
	assert_int_equal(s.recs[0].off_cpu_ns, 1 * US);
	assert_int_equal(s.recs[0].flags, MT_RF_SEEN_OUT | MT_RF_PREEMPTED);

	/* the same, then an exec of the task: sched_exec's move */
	e.ts_ns = 3001 * US;
	e.cpu = 1;
	e.pid = 11;
	e.comm2[10] = '1';
	e.pid2 = 8;
	sw(rp, 3000 * US, 1, 0, 0, 11);
	ev(rp, e);
	ev(rp, (struct sched_event){ .ts_ns = 3002 * US, .cpu = 1, .type = SE_MIGRATE,
				     .cur_pid = 8, .pid = 11, .orig_cpu = 1, .dest_cpu = 2,
				     .comm2 = "migration/1" });
	sw(rp, 3003 * US, 2, 0, 0, 11);
	ev(rp, (struct sched_event){ .ts_ns = 3050 * US, .cpu = 2, .type = SE_EXEC, .pid = 11,
				     .pid2 = 11 });
	assert_int_equal(s.nrecs, 2);
	assert_int_equal(s.recs[1].cause, MT_CAUSE_EXEC);
	/* one still held at the end: flushed as active* */
	sw(rp, 4000 * US, 3, 0, 0, 12);
	sw(rp, 4001 * US, 3, 12, S_PREEMPT, 9);
	ev(rp, (struct sched_event){ .ts_ns = 4002 * US, .cpu = 3, .type = SE_MIGRATE,
				     .cur_pid = 9, .pid = 12, .orig_cpu = 3, .dest_cpu = 0,
				     .comm2 = "migration/3" });
	assert_int_equal(sched_replay_flush(rp), 0);
	assert_int_equal(s.nrecs, 3);
	assert_int_equal(s.recs[2].cause, MT_CAUSE_ACTIVE);
	sched_replay_counts(rp, &st, NULL);
	assert_int_equal(st.migrations[MT_CAUSE_ACTIVE], 2);
	assert_int_equal(st.migrations[MT_CAUSE_EXEC], 1);
	sched_replay_info(rp, &info);
	assert_int_equal(info.stopper_moves, 2);
	sched_replay_free(rp);
}

/*
 * A stopper whose switch-in fired no event (a kernel may trace nothing while some task
 * runs): known only by the pid the live backend named from /proc, its move of the task it
 * displaced is still active*, not the pull it looks like.
 */
static void test_stopper_named(void **state)
{
	struct sink s;
	struct sched_replay *rp;
	const uint8_t want[2] = { MT_CAUSE_LB_PULL, MT_CAUSE_ACTIVE };

	(void)state;
	for (int named = 0; named < 2; named++) {
		rp = replay(&s, MT_SCOPE_ALL, false);
		if (named)
			assert_int_equal(sched_replay_note_stopper(rp, 7, 0), 0);
		sw(rp, 1000 * US, 0, 0, 0, 10);
		sw(rp, 2001 * US, 0, 10, S_PREEMPT, 7);	/* named t7, not a stopper */
		mig(rp, 2002 * US, 0, 7, 10, 0, 1);
		sw(rp, 2010 * US, 1, 0, 0, 10);
		sw(rp, 2100 * US, 1, 10, S_SLEEP, 0);
		assert_int_equal(s.nrecs, 1);
		assert_int_equal(s.recs[0].cause, want[named]);
		sched_replay_free(rp);
	}
}

/*
 * A damaged capture's event naming a CPU the replay does not have (fuzz_trace_dat found one
 * from CPU 13609 of 2, recorded as a move) is dropped and counted, whatever field names it.
 */
static void test_bad_cpu(void **state)
{
	struct sched_replay_info info;
	struct sink s;
	struct sched_replay *rp = replay(&s, MT_SCOPE_ALL, false);

	(void)state;
	sw(rp, 1000 * US, 0, 0, 0, 10);
	sw(rp, 1100 * US, 0, 10, S_PREEMPT, 0);
	mig(rp, 1200 * US, 1, 20, 10, 13609, 1);	/* orig_cpu */
	mig(rp, 1201 * US, 1, 20, 10, 0, 4);		/* dest_cpu: replay() has 4 CPUs */
	mig(rp, 1202 * US, 9, 20, 10, 0, 1);		/* the buffer's CPU */
	wake(rp, 1203 * US, 0, SE_WAKEUP, 10, 77);	/* target_cpu */
	assert_int_equal(s.nrecs, 0);
	mig(rp, 1300 * US, 1, 20, 10, 0, 1);		/* in range: a pull */
	assert_int_equal(s.nrecs, 1);
	assert_int_equal(s.recs[0].src_cpu, 0);
	sched_replay_info(rp, &info);
	assert_int_equal(info.bad_cpu, 4);
	sched_replay_free(rp);
}

/* A traced parent forks: the child follows; its placement away is a fork migration.  A
 * launched workload is traced from its exec only. */
static void test_fork_exec(void **state)
{
	struct mt_stats st;
	struct sink s;
	struct sched_replay *rp = replay(&s, MT_SCOPE_TGIDS, false);

	(void)state;
	assert_int_equal(sched_replay_track(rp, 100, true), 0);
	sw(rp, 1000 * US, 0, 0, 0, 100);
	wake(rp, 1001 * US, 0, SE_WAKING, 200, 0);	/* another tgid: never traced */
	mig(rp, 1002 * US, 0, 100, 200, 0, 1);
	mig(rp, 1003 * US, 0, 100, 100, 0, 1);		/* before its exec: not traced */
	sched_replay_counts(rp, &st, NULL);
	assert_int_equal(st.tracked_tasks, 0);
	ev(rp, (struct sched_event){ .ts_ns = 1100 * US, .cpu = 1, .type = SE_EXEC, .pid = 100 });
	ev(rp, (struct sched_event){ .ts_ns = 1200 * US, .cpu = 1, .type = SE_FORK, .pid = 100,
				     .pid2 = 101 });
	wake(rp, 1201 * US, 1, SE_WAKEUP_NEW, 101, 3);
	sw(rp, 1210 * US, 3, 0, 0, 101);
	assert_int_equal(s.nrecs, 1);
	assert_int_equal(s.recs[0].cause, MT_CAUSE_FORK);
	assert_int_equal(s.recs[0].state, MT_STATE_NEW);
	assert_int_equal(s.recs[0].src_cpu, 1);
	assert_int_equal(s.recs[0].dst_cpu, 3);
	assert_int_equal(s.recs[0].pid, 101);
	assert_int_equal(s.recs[0].tgid, 101);	/* no tgid_of: its own pid */
	sched_replay_counts(rp, &st, NULL);
	assert_int_equal(st.tracked_tasks, 2);
	/* a fork placement on the forking CPU is no migration */
	ev(rp, (struct sched_event){ .ts_ns = 1300 * US, .cpu = 1, .type = SE_FORK, .pid = 100,
				     .pid2 = 102 });
	wake(rp, 1301 * US, 1, SE_WAKEUP_NEW, 102, 1);
	assert_int_equal(s.nrecs, 1);
	sched_replay_free(rp);
}

/* same_cpu, unseen moves, RT tasks, out-of-order events, -p tracking. */
static void test_misc(void **state)
{
	struct sched_replay_info info;
	struct mt_stats st;
	struct sink s;
	struct sched_replay *rp = replay(&s, MT_SCOPE_TGIDS, false);

	(void)state;
	assert_int_equal(sched_replay_track(rp, 50, false), 0);
	sw(rp, 1000 * US, 0, 0, 0, 50);
	mig(rp, 1001 * US, 0, 50, 50, 0, 0);
	sw(rp, 1100 * US, 0, 50, S_SLEEP, 0);
	sw(rp, 1500 * US, 2, 0, 0, 50);		/* on CPU 2 without a migrate event */
	assert_int_equal(s.nrecs, 1);
	assert_int_equal(s.recs[0].cause, MT_CAUSE_UNSEEN);
	assert_int_equal(s.recs[0].age_ns, 400 * US);
	sw(rp, 1600 * US, 2, 50, S_PREEMPT, 0);
	ev(rp, (struct sched_event){ .ts_ns = 1700 * US, .cpu = 3, .type = SE_MIGRATE,
				     .cur_pid = 0, .pid = 50, .orig_cpu = 2, .dest_cpu = 3,
				     .prio = 98, .has_prio = true });
	assert_int_equal(s.nrecs, 2);
	assert_int_equal(s.recs[1].cause, MT_CAUSE_UNKNOWN);
	assert_true(s.recs[1].flags & MT_RF_NOT_FAIR);
	mig(rp, 1650 * US, 3, 0, 50, 3, 0);	/* older than the last: dropped */
	sched_replay_counts(rp, &st, NULL);
	assert_int_equal(st.same_cpu, 1);
	assert_int_equal(st.tracked_tasks, 1);
	assert_int_equal(st.migrations[MT_CAUSE_UNSEEN] + st.migrations[MT_CAUSE_UNKNOWN], 2);
	sched_replay_info(rp, &info);
	assert_int_equal(info.out_of_order, 1);
	assert_int_equal(info.events, 6);
	sched_replay_free(rp);
}

/* Off-CPU periods are sent at switch-in; a migration of a task never seen out has no age. */
static void test_offcpu(void **state)
{
	struct sched_replay_info info;
	struct sink s;
	struct sched_replay *rp = replay(&s, MT_SCOPE_ALL, true);

	(void)state;
	mig(rp, 500 * US, 1, 0, 30, 0, 1);		/* first sight: no switch-out seen */
	assert_int_equal(s.nrecs, 1);
	assert_int_equal(s.recs[0].cause, MT_CAUSE_UNKNOWN);
	assert_false(s.recs[0].flags & MT_RF_SEEN_OUT);
	sw(rp, 1000 * US, 1, 0, 0, 30);
	assert_int_equal(s.noff, 0);
	sw(rp, 1200 * US, 1, 30, S_PREEMPT, 0);
	sw(rp, 1250 * US, 1, 0, 0, 30);
	assert_int_equal(s.noff, 1);
	assert_int_equal(s.off[0].pid, 30);
	assert_int_equal(s.off[0].cpu, 1);
	assert_int_equal(s.off[0].preempted, 1);
	assert_int_equal(s.off[0].off_ns, 1200 * US);
	assert_int_equal(s.off[0].on_ns, 1250 * US);
	sched_replay_info(rp, &info);
	assert_int_equal(info.unknown_age, 1);
	sched_replay_free(rp);
}

/* Each exit's last switch-out frees the task's state; many tasks come and go. */
static void test_exit_frees(void **state)
{
	struct mt_stats st;
	struct sink s;
	struct sched_replay *rp = replay(&s, MT_SCOPE_ALL, false);
	uint64_t ts = 1000;

	(void)state;
	for (uint32_t pid = 1; pid <= 5000; pid++) {
		ev(rp, (struct sched_event){ .ts_ns = ts++, .cpu = 0, .type = SE_FORK, .pid = 1,
					     .pid2 = pid + 1 });
		sw(rp, ts++, 0, 1, S_PREEMPT, pid + 1);
		ev(rp, (struct sched_event){ .ts_ns = ts++, .cpu = 0, .type = SE_EXIT,
					     .pid = pid + 1 });
		sw(rp, ts++, 0, pid + 1, S_DEAD, 1);
	}
	assert_int_equal(sched_replay_live_tasks(rp), 1);	/* pid 1 */
	sched_replay_counts(rp, &st, NULL);
	assert_int_equal(st.tracked_tasks, 5001);
	assert_int_equal(st.switches_in, 10000);
	sched_replay_free(rp);
}

/* A thread preempted on its way out (after sched_process_exit) is still queued: the
 * balancer's pull of it is a move of the traced process, and its entry lives until the
 * final switch-out (X or Z).  Freed at the preemption, the pull was lost: the new entry's
 * tgid (no longer in /proc; here no tgid_of) is its own pid, untraced. */
static void test_exit_preempted_pulled(void **state)
{
	struct sink s;
	struct sched_replay *rp = replay(&s, MT_SCOPE_TGIDS, false);

	(void)state;
	assert_int_equal(sched_replay_track(rp, 50, false), 0);
	sw(rp, 1000 * US, 0, 0, 0, 50);
	ev(rp, (struct sched_event){ .ts_ns = 1100 * US, .cpu = 0, .type = SE_FORK, .pid = 50,
				     .pid2 = 51 });
	sw(rp, 1200 * US, 0, 50, S_SLEEP, 51);
	ev(rp, (struct sched_event){ .ts_ns = 1300 * US, .cpu = 0, .type = SE_EXIT, .pid = 51 });
	sw(rp, 1400 * US, 0, 51, S_PREEMPT, 0);	/* preempted in do_exit */
	mig(rp, 1700 * US, 1, 0, 51, 0, 1);	/* pulled by CPU 1 */
	assert_int_equal(s.nrecs, 1);
	assert_int_equal(s.recs[0].pid, 51);
	assert_int_equal(s.recs[0].cause, MT_CAUSE_LB_PULL);
	assert_int_equal(s.recs[0].age_ns, 300 * US);
	sw(rp, 1800 * US, 1, 0, 0, 51);
	assert_int_equal(sched_replay_live_tasks(rp), 2);
	sw(rp, 1900 * US, 1, 51, S_DEAD, 0);	/* its final switch-out frees it */
	assert_int_equal(sched_replay_live_tasks(rp), 1);
	assert_int_equal(s.nrecs, 1);
	sched_replay_free(rp);
}

/* The run gets the counts, the pairs and the backend's replay members. */
static void test_to_run(void **state)
{
	struct run *r = run_new();
	struct sink s;
	struct sched_replay *rp = replay(&s, MT_SCOPE_ALL, false);

	(void)state;
	assert_non_null(r);
	assert_int_equal(run_alloc_pairs(r, 4), 0);
	sw(rp, 1000 * US, 0, 0, 0, 10);
	sw(rp, 3000 * US, 0, 10, S_PREEMPT, 11);
	mig(rp, 3700 * US, 1, 0, 10, 0, 1);
	mig(rp, 3600 * US, 1, 0, 10, 1, 0);	/* out of order */
	sched_replay_to_run(rp, r);
	assert_true(r->meta.backend.replayed);
	assert_int_equal(r->meta.backend.events, 3);
	assert_int_equal(r->meta.backend.out_of_order, 1);
	assert_int_equal(r->stats.migrations[MT_CAUSE_LB_PULL], 1);
	assert_int_equal(r->pairs[0 * 4 + 1], 1);
	assert_string_equal(r->meta.backend.missing, "sched_waking,sched_wakeup,"
			    "sched_wakeup_new,sched_process_fork,sched_process_exec,"
			    "sched_process_exit");
	assert_non_null(strstr(r->meta.backend.not_read, "kernel_age"));
	assert_string_equal(sched_replay_event_name(SE_MIGRATE), "sched_migrate_task");
	assert_string_equal(sched_replay_event_name(0), "");
	sched_replay_free(rp);
	run_free(r);
}

/* A switch-in that fired no event (a kernel may trace nothing in the context of the task it
 * follows): found at the task's next switch-out, where an unseen move is looked for. */
static void test_untraced_switch_in(void **state)
{
	struct mt_stats st;
	struct sink s;
	struct sched_replay *rp = replay(&s, MT_SCOPE_ALL, false);

	(void)state;
	sw(rp, 1000 * US, 0, 0, 0, 10);
	sw(rp, 1100 * US, 0, 10, S_SLEEP, 0);
	wake(rp, 1200 * US, 0, SE_WAKING, 10, 0);
	mig(rp, 1201 * US, 0, 0, 10, 0, 1);		/* a wake-up placement */
	wake(rp, 1202 * US, 0, SE_WAKEUP, 10, 1);
	/* its switch-in on CPU 1 fired nothing; it exits there */
	sw(rp, 1300 * US, 1, 10, S_DEAD, 0);
	assert_int_equal(s.nrecs, 1);
	assert_int_equal(s.recs[0].cause, MT_CAUSE_WAKEUP);
	sched_replay_counts(rp, &st, NULL);
	assert_int_equal(st.switch_ins_untraced, 1);
	assert_int_equal(st.switches_in, 1);

	/* preempted on CPU 2, then seen only switching out on CPU 3: moved unseen */
	sw(rp, 2000 * US, 2, 0, 0, 11);
	sw(rp, 2100 * US, 2, 11, S_PREEMPT, 0);
	sw(rp, 2300 * US, 3, 11, S_SLEEP, 0);
	assert_int_equal(s.nrecs, 2);
	assert_int_equal(s.recs[1].cause, MT_CAUSE_UNSEEN);
	assert_int_equal(s.recs[1].src_cpu, 2);
	assert_int_equal(s.recs[1].dst_cpu, 3);
	/* and back in, traced: nothing more to account */
	sw(rp, 2400 * US, 3, 0, 0, 11);
	sw(rp, 2500 * US, 3, 11, S_SLEEP, 0);
	sched_replay_counts(rp, &st, NULL);
	assert_int_equal(st.switch_ins_untraced, 2);
	assert_int_equal(st.migrations[MT_CAUSE_UNSEEN], 1);
	sched_replay_free(rp);
}

/* The preempted test over the kernels' encodings of prev_state. */
static void test_preempted(void **state)
{
	(void)state;
	assert_true(sched_replay_preempted(0));		/* R: yielded */
	assert_true(sched_replay_preempted(0x100));	/* R+ on 6.x */
	assert_true(sched_replay_preempted(0x800));	/* R+ on 4.x */
	assert_false(sched_replay_preempted(0x1));	/* S */
	assert_false(sched_replay_preempted(0x2));	/* D */
	assert_false(sched_replay_preempted(0x80));	/* I */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wakeup),
		cmocka_unit_test(test_pull),
		cmocka_unit_test(test_delayed),
		cmocka_unit_test(test_stopper),
		cmocka_unit_test(test_stopper_named),
		cmocka_unit_test(test_bad_cpu),
		cmocka_unit_test(test_fork_exec),
		cmocka_unit_test(test_misc),
		cmocka_unit_test(test_offcpu),
		cmocka_unit_test(test_exit_frees),
		cmocka_unit_test(test_exit_preempted_pulled),
		cmocka_unit_test(test_to_run),
		cmocka_unit_test(test_untraced_switch_in),
		cmocka_unit_test(test_preempted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
