// SPDX-License-Identifier: GPL-2.0
/*
 * The bracket for `make bench`: a clock read in a probe attached to a tracepoint before the
 * tool under test, and another in a probe attached after it.  A tracepoint calls its probes
 * in the order they were registered, so the difference is everything the tool's probe costs
 * on that event: for a tp_btf program (migtrace) its trampoline and program; for a classic
 * tracepoint program (bpftrace) also the kernel's filling of the event's record
 * (perf_trace_sched_switch: the comms, pids, prios, state) before the program runs, which
 * bpf_stats does not see.  The bracket alone (nothing between) is the floor to subtract.
 * bench/bracket.c attaches the two halves at the moments bench/bench.py says.
 *
 * The clock is the CPU's cpu-clock perf event (local_clock()), not bpf_ktime_get_ns(): a
 * bracket reading CLOCK_MONOTONIC would warm the timekeeper's lines just before the tool's
 * own clock read, which then looked ~100 ns cheaper inside the bracket than outside it
 * (bpf_stats, same run: 139 ns a run bracketed, 240 without the bracket).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

enum br_event { BR_SWITCH = 0, BR_MIGRATE, BR_NR_EVENTS };

struct br_cpu {
	__u64 opened_ns[BR_NR_EVENTS];	/* when the open probe ran, 0 once closed */
	__u64 sum_ns[BR_NR_EVENTS];	/* open to close, summed */
	__u64 events[BR_NR_EVENTS];	/* brackets closed */
};

/* Per CPU: a tracepoint's probes run one after the other with preemption off. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct br_cpu);
} brackets SEC(".maps");

/* One cpu-clock event per CPU, opened by bench/bracket.c: a count of ns. */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} clocks SEC(".maps");

static __always_inline __u64 br_clock(void)
{
	struct bpf_perf_event_value v;

	if (bpf_perf_event_read_value(&clocks, BPF_F_CURRENT_CPU, &v, sizeof(v)))
		return 0;
	return v.counter;
}

static __always_inline int br_open(int event)
{
	__u32 zero = 0;
	struct br_cpu *b = bpf_map_lookup_elem(&brackets, &zero);

	if (b && event < BR_NR_EVENTS)
		b->opened_ns[event] = br_clock();
	return 0;
}

static __always_inline int br_close(int event)
{
	__u64 now = br_clock();
	__u32 zero = 0;
	struct br_cpu *b = bpf_map_lookup_elem(&brackets, &zero);

	if (!b || event >= BR_NR_EVENTS || !b->opened_ns[event])
		return 0;
	if (now > b->opened_ns[event]) {
		b->sum_ns[event] += now - b->opened_ns[event];
		b->events[event]++;
	}
	b->opened_ns[event] = 0;
	return 0;
}

/* The two halves on one tracepoint: br_open_NAME and br_close_NAME. */
#define BRACKET(name, tracepoint, event)		\
	SEC("tp_btf/" #tracepoint)			\
	int BPF_PROG(br_open_##name)			\
	{						\
		return br_open(event);			\
	}						\
	SEC("tp_btf/" #tracepoint)			\
	int BPF_PROG(br_close_##name)			\
	{						\
		return br_close(event);			\
	}

BRACKET(switch, sched_switch, BR_SWITCH)
BRACKET(migrate, sched_migrate_task, BR_MIGRATE)
