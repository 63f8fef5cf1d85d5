/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the kernels migtrace loads on (docs/testing.md, "Kernels and hosts:
 * the matrix"), each difference settled once here, by CO-RE against the running kernel's
 * BTF at load, in the manner of bcc libbpf-tools' core_fixes.bpf.h.  Every shim names the
 * kernel change or the configuration it covers.  A field the running kernel lacks is
 * resolved to its fallback at load: the verifier never sees the branch not taken.  BPF only.
 */
#ifndef MIGTRACE_COMPAT_BPF_H
#define MIGTRACE_COMPAT_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "migtrace.h"

/*
 * Task storage (BPF_MAP_TYPE_TASK_STORAGE and bpf_task_storage_get()) and
 * bpf_get_current_task_btf() came in 5.11.  User space probes the kernel for both before
 * the load (bpf_tracer.c) and sets these: every use sits behind its flag, a constant the
 * verifier knows, so that on 5.10 it never meets a helper or a map the kernel lacks.
 * Without task storage a task whose slot another task holds is not traced (counted, as
 * storage_busy) and --unit cannot run.
 */
const volatile bool has_task_storage = true;
const volatile bool has_current_task_btf = true;

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
 * Whether the task is on a run queue (0, TASK_ON_RQ_QUEUED or TASK_ON_RQ_MIGRATING): an int
 * before 7.2, a u8 in 7.2's task_struct (Debian's 7.2.13 and 7.3-rc7 BTF).  Read as
 * unsigned: libbpf narrows a load only for an unsigned field, and refuses the program
 * ("accesses field incorrectly") when a signed int meets the u8.
 */
struct task_struct___on_rq {
	unsigned int on_rq;
} __attribute__((preserve_access_index));

static __always_inline __u8 task_on_rq_of(struct task_struct *p)
{
	return (__u8)((struct task_struct___on_rq *)p)->on_rq;
}

/*
 * Cache-aware scheduling (CONFIG_SCHED_CACHE, 7.2): the LLC the kernel prefers for the task's
 * process, as the kernel numbers LLCs (sd_llc_id), -1 none.  Sets *read when the kernel has
 * the member; a kernel without it reads nothing (the test is a constant after CO-RE).
 */
struct task_struct___cache {
	int preferred_llc;
} __attribute__((preserve_access_index));

static __always_inline int task_pref_llc_of(struct task_struct *p, bool *read)
{
	struct task_struct___cache *c = (struct task_struct___cache *)p;

	*read = bpf_core_field_exists(c->preferred_llc);
	return *read ? c->preferred_llc : -1;
}

/*
 * The kernfs id of a cgroup's ancestor at a level (0 the root, the cgroup's own level last):
 * through cgroup::ancestors[], pointers, since 6.0; cgroup::ancestor_ids[], the ids
 * themselves, before.  false when the read faults or the ancestor is missing.
 */
struct cgroup___pre60 {
	u64 ancestor_ids[0];
} __attribute__((preserve_access_index));

static __always_inline bool cgroup_ancestor_id(struct cgroup *cg, int level, __u64 *id)
{
	struct cgroup *anc = NULL;

	if (!bpf_core_field_exists(cg->ancestors))
		return !bpf_core_read(id, sizeof(*id),
				      &((struct cgroup___pre60 *)cg)->ancestor_ids[level]);
	if (bpf_core_read(&anc, sizeof(anc), &cg->ancestors[level]) || !anc)
		return false;
	*id = BPF_CORE_READ(anc, kn, id);
	return true;
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
 * switch-in still sees it (docs/overhead.md, "No program at a wake-up").  0 without
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

/*
 * A delayed dequeue: se.sched_delayed, since 6.12 (commit 152e11f6df29, "sched/fair:
 * Implement delayed dequeue"): a task that went to sleep with negative lag stays queued
 * until it is picked or woken.  can_migrate_task() refuses such a task unless the balancer is
 * moving load since 61b82dfb6b7e ("sched/fair: Do not try to migrate delayed dequeue task",
 * 6.14).  false before 6.12.
 */
static __always_inline bool task_delayed(struct task_struct *p)
{
	return bpf_core_field_exists(p->se.sched_delayed) && p->se.sched_delayed;
}

/*
 * NUMA balancing's opinion of a pull across nodes, as migrate_degrades_locality() forms it
 * before task_hot() is asked (CONFIG_NUMA_BALANCING: task_struct::numa_faults and
 * numa_preferred_nid, rq::nr_preferred_running): onto the preferred node is cold; off it
 * is hot while the source runs tasks that do not prefer it, else the age decides; between
 * two other nodes the task's fault weights decide, which are not read here.  0 when the
 * task has no fault statistics (the kernel then has no opinion).  src_rq is the source run
 * queue after the dequeue: its nr_running and nr_preferred_running have both lost this task
 * since the kernel compared them, which keeps their order.
 */
static __always_inline __u32 numa_flags_of(struct task_struct *p, struct rq *src_rq,
					   int src_nid, int dst_nid)
{
	int pref;

	if (!bpf_core_field_exists(p->numa_faults) || !p->numa_faults)
		return 0;
	pref = p->numa_preferred_nid;
	if (pref == dst_nid)
		return MT_RF_NUMA_TO_PREF;
	if (pref != src_nid)
		return MT_RF_NUMA_WEIGHED;
	if (src_rq && bpf_core_field_exists(src_rq->nr_preferred_running) &&
	    src_rq->nr_running > src_rq->nr_preferred_running)
		return MT_RF_NUMA_FROM_PREF;
	return 0;
}

/* Core scheduling's members (CONFIG_SCHED_CORE, which none of the kernels migtrace is built
 * against has): flavours, resolved against the running kernel's BTF. */
struct task_struct___core {
	unsigned long core_cookie;
} __attribute__((preserve_access_index));

struct rq___core {
	unsigned int core_enabled;
	struct rq *core;
	unsigned long core_cookie;
} __attribute__((preserve_access_index));

/*
 * Whether task_hot() finds p's core-scheduling cookie mismatched at dst_cpu, the CPU pulling
 * it: sched_core_cookie_match() (CONFIG_SCHED_CORE; asked by task_hot() since 5.14, "sched:
 * Migration changes for core scheduling") fails when core scheduling is on there and the
 * destination core runs another cookie.  dst_cpu's run queue is found through the task
 * running there, so only when the balancer runs on dst_cpu (it does, except nohz idle
 * balancing on another CPU's behalf).  A core whose CPUs are all idle matches any cookie,
 * and the sibling CPUs are not read: a mismatch is only certain, and only reported, when
 * dst_cpu's run queue holds a task.  false without CONFIG_SCHED_CORE.
 */
static __always_inline bool core_cookie_mismatch(struct task_struct *p, __u32 dst_cpu)
{
	struct rq___core *rq, *core;
	struct rq *dst_rq;

	if (!bpf_core_field_exists(struct rq___core, core_enabled) ||
	    bpf_get_smp_processor_id() != dst_cpu)
		return false;
	/* CONFIG_SCHED_CORE came in 5.14: bpf_get_current_task_btf() is there */
	dst_rq = task_fair_rq_of(bpf_get_current_task_btf());
	rq = (struct rq___core *)dst_rq;
	if (!dst_rq || !rq->core_enabled || !dst_rq->nr_running)
		return false;
	core = (struct rq___core *)rq->core;
	return core && core->core_cookie != ((struct task_struct___core *)p)->core_cookie;
}

#endif
