/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler's migration-cost tunable: where it lives on this kernel, its value, where
 * that value came from, and changing it safely (read back to verify; a restore record
 * written before the first change, so that even a kill -9 can be undone).  User space only.
 */
#ifndef MIGTRACE_TUNABLE_H
#define MIGTRACE_TUNABLE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "tunable_state.h"

/* The value the kernel has used since 2.6.24 (sysctl_sched_migration_cost). */
#define MT_KERNEL_DEFAULT_MIGRATION_COST_NS 500000LL

/*
 * A knob sweep can change: the migration cost (the default), or one of cache-aware
 * scheduling's (7.2, debugfs sched/llc_balancing/).  The same read, write, guard and restore
 * serve each; values are integers in the knob's unit.
 */
struct tunable_knob {
	const char *name;		/* as --knob names it: "migration_cost_ns",
					 * "llc_balancing/enabled" */
	const char *debugfs;		/* under debugfs sched/ */
	const char *sysctl;		/* under /proc/sys before 5.13; NULL: none */
	const char *record;		/* the restore record's name under /run/migtrace */
	const char *unit;		/* "ns", "%", "jiffies", "epochs", "" */
	const char *absent;		/* why it may be missing: which kernels have it */
	int64_t kernel_default;		/* what the kernel starts with */
	int64_t min, max;		/* what may be written */
};

extern const struct tunable_knob tunable_knobs[];
extern const int tunable_nknobs;
#define TUNABLE_MIGRATION_COST (&tunable_knobs[0])
/* The knob named name, or NULL. */
const struct tunable_knob *tunable_knob_find(const char *name);
/* "500000 ns", "1", "20 %" of a knob's value v, into buf. */
char *tunable_fmt(const struct tunable_knob *k, int64_t v, char *buf, size_t len);

struct tunable {
	const struct tunable_knob *knob;	/* which one; never NULL after a probe */
	char root[200];		/* "" for this machine; a fake tree's root in the tests */
	char path[256];		/* where the tunable lives on this kernel, root included */
	bool exists;
	bool readable;
	bool writable;
	bool assumed;		/* value_ns is the kernel default, not read */
	bool debugfs;		/* the 5.13+ debugfs file (a u32), not the sysctl */
	int64_t value_ns;	/* ns for the migration cost; another knob's in its unit */
	char why[512];		/* when not readable or not writable: why, and what to do */
	char source[300];	/* short: "read from PATH" or "kernel default, assumed: …" */
	char origin[600];	/* where the value came from: default, sysctl.d, TuneD, … */
};

/*
 * Finds and reads the tunable under root (NULL or "" for this machine):
 * /proc/sys/kernel/sched_migration_cost_ns before 5.13, /sys/kernel/debug/sched/
 * migration_cost_ns after.  On this machine debugfs is mounted when it is not and we may
 * (root), as perf does for tracefs.  Never fails: an unreadable tunable is reported in why
 * and value_ns holds the default, marked assumed.  origin says, where it can be told,
 * whether the value is the kernel's default or what a sysctl.d file or TuneD profile set.
 */
void tunable_probe_at(const char *root, struct tunable *t);
/* The same for knob k (the migration cost's sysctl.d and TuneD origins are its own). */
void tunable_probe_knob_at(const char *root, const struct tunable_knob *k, struct tunable *t);
void tunable_probe(struct tunable *t);
/* Writes ns (a u32 on 5.13+: -1 cannot be written there).  0 or -errno. */
int tunable_write(const struct tunable *t, int64_t ns);
/* Writes ns, reads it back, and fails with -EIO unless the kernel now holds ns; t->value_ns
 * follows.  0 or -errno, with one line on stderr naming the path and what was read. */
int tunable_set(struct tunable *t, int64_t ns);
/* What the models keep of t (a run's environment, a calibration). */
void tunable_record(const struct tunable *t, struct tunable_state *s);

/*
 * The restore record, ROOT/run/migtrace/migration_cost.restore: the path, the original
 * value and the pid of the migtrace that changed it.  Written (atomically) before the first
 * change; removed once the original value is back.
 */
#define TUNABLE_RECORD_VALUES 32	/* the values a sweep may set (SWEEP_MAX_VALUES) */

struct tunable_record {
	char path[256];
	int64_t original_ns;
	pid_t pid;
	unsigned long long started;	/* the pid's start, clock ticks since boot; 0: unsaid */
	/* the values the sweep sets, ns: what the tunable may hold after its kill; none in
	 * records of migtraces before they were written */
	int64_t values[TUNABLE_RECORD_VALUES];
	int nvalues;
};

/*
 * Before changing t: creates the record of t's value, exclusively, so that one migtrace at a
 * time holds the tunable (docs/design.md, "Sweep: changing the tunable on purpose").  Where
 * a record exists, refuses in one line: -EBUSY while the migtrace that wrote it runs,
 * -EEXIST when it was killed (the line names `sweep --restore`).  t->value_ns is read again
 * once the record is ours, in case a sweep that held the tunable when t was probed has
 * restored it since.  0 or -errno.
 */
int tunable_guard_begin(struct tunable *t, const int64_t *values, int nvalues);
/* Puts the recorded original value back, verifies it, removes the record; a record that
 * another migtrace wrote is left alone (-EPERM).  0 or -errno. */
int tunable_guard_restore(struct tunable *t);
/* Reads the migration cost's record under root.  0, -ENOENT when there is none, or -errno. */
int tunable_record_read(const char *root, struct tunable_record *rec);
/* The same for knob k's record. */
int tunable_record_read_knob(const char *root, const struct tunable_knob *k,
			     struct tunable_record *rec);
/*
 * `sweep --restore`: for each knob, the value of a record left by a killed migtrace is written back and
 * verified, and the record removed.  A tunable that holds neither the original nor a value
 * the sweep set was changed by someone since the kill: it is left as it is (-EEXIST, one
 * line showing both values) unless force.  0 (also when there was nothing to restore) or
 * -errno.
 */
int tunable_restore_from_record(const char *root, bool force);

#endif
