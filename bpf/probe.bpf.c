// SPDX-License-Identifier: GPL-2.0
/*
 * The smallest program that proves `migtrace run` can work here: tp_btf handlers on
 * sched_switch and sched_migrate_task that use the same features run does (task storage,
 * a ring buffer, CO-RE reads), and a uprobe.  `migtrace doctor` loads, attaches, triggers
 * and counts; nothing here is used for measurements.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 probe_tgid = 0;	/* the doctor's own process */

__u64 switch_cnt = 0;
__u64 migrate_cnt = 0;
__u64 migrate_self_cnt = 0;
__u64 uprobe_cnt = 0;

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} probe_tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} probe_rb SEC(".maps");

SEC("tp_btf/sched_switch")
int BPF_PROG(probe_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u64 *seen;

	__sync_fetch_and_add(&switch_cnt, 1);
	if (BPF_CORE_READ(next, tgid) != probe_tgid)
		return 0;
	seen = bpf_task_storage_get(&probe_tasks, next, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (seen)
		*seen = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(probe_migrate, struct task_struct *p, int dest_cpu)
{
	__u32 *rec;

	__sync_fetch_and_add(&migrate_cnt, 1);
	if (BPF_CORE_READ(p, tgid) != probe_tgid)
		return 0;
	__sync_fetch_and_add(&migrate_self_cnt, 1);
	rec = bpf_ringbuf_reserve(&probe_rb, sizeof(*rec), 0);
	if (rec) {
		*rec = dest_cpu;
		bpf_ringbuf_submit(rec, 0);
	}
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(probe_uprobe)
{
	__sync_fetch_and_add(&uprobe_cnt, 1);
	return 0;
}
