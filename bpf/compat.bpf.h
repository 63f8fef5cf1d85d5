/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the kernels migtrace loads on (README "Kernels and hosts"), each
 * difference settled once here, by CO-RE against the running kernel's BTF at load, in the
 * manner of bcc libbpf-tools' core_fixes.bpf.h.  Every shim names the kernel change or the
 * configuration it covers.  A field the running kernel lacks is resolved to its fallback
 * at load: the verifier never sees the branch not taken.  BPF only.
 */
#ifndef MIGTRACE_COMPAT_BPF_H
#define MIGTRACE_COMPAT_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

/*
 * The task's state: task_struct::state was renamed __state in 5.14, commit 2f064a59a11f
 * ("sched: Change task_struct::state").
 *
 * sched_switch also passes the outgoing task's state, as a fourth argument, since 5.18
 * (commit fa2c3254d7cf, moved to the end by 9c2136be0878 in the same release).  The
 * programs take the three arguments every kernel passes and read the state here instead.
 */
struct task_struct___pre514 {
	long state;
} __attribute__((preserve_access_index));

static __always_inline long task_state_of(struct task_struct *p)
{
	if (bpf_core_field_exists(p->__state))
		return p->__state;
	return ((struct task_struct___pre514 *)p)->state;
}

/*
 * The task's CPU: in thread_info since 5.16 on architectures with THREAD_INFO_IN_TASK
 * (x86 among them), commit bcf9033e5449 ("sched: move CPU field back into thread_info if
 * THREAD_INFO_IN_TASK=y"); in task_struct before.
 */
struct task_struct___pre516 {
	unsigned int cpu;
} __attribute__((preserve_access_index));

static __always_inline __u32 task_cpu_of(struct task_struct *p)
{
	if (bpf_core_field_exists(p->thread_info.cpu))
		return p->thread_info.cpu;
	return ((struct task_struct___pre516 *)p)->cpu;
}

/*
 * The run queue of the task's fair entity, through se.cfs_rq->rq: both members exist only
 * with CONFIG_FAIR_GROUP_SCHED (the other way, the runqueues per-CPU symbol, needs
 * CONFIG_KALLSYMS_ALL).  NULL without.  Direct loads through BTF: faulting loads, no helper.
 */
static __always_inline struct rq *task_fair_rq_of(struct task_struct *p)
{
	if (!bpf_core_field_exists(struct cfs_rq, rq))
		return NULL;
	return p->se.cfs_rq->rq;
}

/*
 * The kernel's enqueue stamp, sched_info.last_queued: a member only with
 * CONFIG_SCHED_INFO, which CONFIG_SCHEDSTATS and CONFIG_TASK_DELAY_ACCT select.
 */
static __always_inline bool has_queued_clock(void)
{
	return bpf_core_field_exists(struct sched_info, last_queued);
}

/*
 * When the task was last put on a run queue, on that rq's clock: the kernel stamps it at
 * every enqueue (a wake-up among them) for its own run_delay (schedstat) and clears it at
 * the switch-in that follows, in context_switch() -- after sched_switch has fired, so a
 * switch-in still sees it (docs/design.md, "No program at a wake-up").  0 without
 * CONFIG_SCHED_INFO, or when the kernel did not stamp this enqueue.
 */
static __always_inline __u64 queued_clock_of(struct task_struct *p)
{
	if (!has_queued_clock())
		return 0;
	return p->sched_info.last_queued;
}

/*
 * The task's total wait on run queues (schedstat's run_delay, ns): sched_info, like the
 * enqueue stamp, exists with CONFIG_SCHED_INFO.  0 without it.
 */
static __always_inline __u64 run_delay_of(struct task_struct *p)
{
	if (!has_queued_clock())
		return 0;
	return p->sched_info.run_delay;
}

/*
 * Whether the task is inside execve(): task_struct::in_execve, a bitfield since 2009
 * (commit f9ce1f1cda8b, "Add in_execve flag into task_struct"), hence the probed read.
 * Guarded, so that a kernel without it still loads: exec balancing then reads as active
 * balance.
 */
static __always_inline bool task_in_execve(struct task_struct *p)
{
	return bpf_core_field_exists(p->in_execve) && BPF_CORE_READ_BITFIELD_PROBED(p, in_execve);
}

#endif
