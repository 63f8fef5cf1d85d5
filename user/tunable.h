/* SPDX-License-Identifier: GPL-2.0 */
/* The scheduler's migration-cost tunable: where it lives on this kernel, and its value. */
#ifndef MIGTRACE_TUNABLE_H
#define MIGTRACE_TUNABLE_H
#ifdef __KERNEL__
#error "user/tunable.h is for user space"
#endif

#include <stdbool.h>
#include <stdint.h>

/* The value the kernel has used since 2.6.24 (sysctl_sched_migration_cost). */
#define MT_KERNEL_DEFAULT_MIGRATION_COST_NS 500000LL

struct tunable {
	char path[256];		/* where the tunable lives on this kernel */
	bool exists;
	bool readable;
	bool writable;
	bool assumed;		/* value_ns is the kernel default, not read */
	int64_t value_ns;	/* ns */
	char why[512];		/* when not readable or not writable: why, and what to do */
	char source[300];	/* short: "read from PATH" or "kernel default, assumed: …" */
};

/*
 * Finds and reads the tunable: /proc/sys/kernel/sched_migration_cost_ns before 5.13,
 * /sys/kernel/debug/sched/migration_cost_ns after.  Mounts debugfs when it is not mounted
 * and we may (root), as perf does for tracefs.  Never fails: an unreadable tunable is
 * reported in why and value_ns holds the default, marked assumed.
 */
void tunable_probe(struct tunable *t);
/* Writes ns (a u32 on 5.13+: -1 cannot be written there).  0 or -errno. */
int tunable_write(const struct tunable *t, int64_t ns);
/* "500 µs, kernel default, assumed — tunable not readable: <why>" or "500 µs (read from …)". */
const char *tunable_describe(const struct tunable *t, char *buf, int len);

#endif
