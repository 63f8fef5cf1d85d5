/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guard of the masks run --probe-moves narrows: a child of migtrace in a session of its
 * own (outside migtrace's process group and the workload's), told through a pipe each mask
 * before it is narrowed and when it has been given back.  If the pipe closes without
 * mask_guard_stop() (migtrace was killed, SIGKILL included, or its whole group was), the
 * guard gives every mask still held back to its thread, unless that thread id now names
 * another thread (its start time differs) or the thread's mask is no longer the narrowed
 * one (the workload set its own), and exits.  User space only.
 */
#ifndef MIGTRACE_MASK_GUARD_H
#define MIGTRACE_MASK_GUARD_H

#include <sched.h>
#include <stdint.h>
#include <sys/types.h>

struct mask_guard {
	pid_t pid;			/* -1: not started */
	int fd;				/* the pipe's write end */
};

/* Forks the guard.  Call before any thread is started.  0, or -errno. */
int mask_guard_start(struct mask_guard *g);
/* What is held: thread tid of process tgid, narrowed to cpu alone at since_ticks (clock
 * ticks since boot, as /proc's start times), its mask before, and its start time (/proc's
 * field 22). */
struct mask_hold {
	pid_t tid, tgid;
	int cpu;
	uint64_t start_time;
	uint64_t since_ticks;
	cpu_set_t mask;
};

/* Before a mask is narrowed. */
int mask_guard_hold(struct mask_guard *g, const struct mask_hold *h);
/* tid's mask was given back (or tid is gone): nothing to restore for it. */
int mask_guard_release(struct mask_guard *g, pid_t tid);
/* Dismisses the guard (nothing held) and reaps it.  Safe on a guard not started. */
void mask_guard_stop(struct mask_guard *g);
/* A thread's start time, in clock ticks since boot (/proc/TID/stat field 22): 0, or
 * -errno (-ESRCH: gone).  Async-signal-safe. */
int mask_guard_start_time(pid_t tid, uint64_t *start_time);
/*
 * What the thread of h started while narrowed inherited its one CPU (the kernel gives a new
 * thread or process its creator's mask): the other threads of its process started since
 * h->since_ticks whose mask is exactly {h->cpu}, and every thread of the processes it forked
 * since, and of theirs, each given h->mask.  Returns how many.  For the mover and the guard.
 */
int mask_guard_sweep(const struct mask_hold *h);

#endif
