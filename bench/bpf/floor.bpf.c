// SPDX-License-Identifier: GPL-2.0
/*
 * The floor for `make bench`: empty programs on the tracepoints migtrace uses.  What
 * bpf_stats reports for these is the cost of being attached at all (the tp_btf trampoline
 * and bpf_stats' own two sched_clock() reads), which no tracer can go below; migtrace's own
 * cost is its figure minus this one, measured side by side.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

SEC("tp_btf/sched_switch")
int BPF_PROG(floor_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	return 0;
}

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(floor_migrate, struct task_struct *p, int dest_cpu)
{
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(floor_wakeup, struct task_struct *p)
{
	return 0;
}
