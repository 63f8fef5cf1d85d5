// SPDX-License-Identifier: GPL-2.0
/*
 * The migration-cost tunable on fake trees: both layouts (sysctl before 5.13, debugfs
 * after), write and read-back, where the value came from (kernel default, sysctl.d, a TuneD
 * profile with an include, an entry with no effect on 5.13+, a change at run time), and the
 * restore record: written before a change, refused while held or stale, restored by
 * --restore, only by its writer otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tunable.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int64_t value_in(const char *rel)
{
	char path[512];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%lld", &v), 1);
	fclose(f);
	return v;
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/mt-tunable.XXXXXX");
	assert_non_null(mkdtemp(root));
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

#define DEBUGFS "sys/kernel/debug/sched/migration_cost_ns"
#define SYSCTL "proc/sys/kernel/sched_migration_cost_ns"

static void debugfs_layout_default(void **state)
{
	struct tunable t;

	(void)state;
	put(DEBUGFS, "500000\n");
	tunable_probe_at(root, &t);
	assert_true(t.readable && t.debugfs && !t.assumed);
	assert_int_equal(t.value_ns, 500000);
	assert_non_null(strstr(t.path, DEBUGFS));
	assert_non_null(strstr(t.origin, "the kernel's default"));
}

static void sysctl_layout_from_sysctl_d(void **state)
{
	struct tunable t;

	(void)state;
	put(SYSCTL, "5000000\n");
	put("usr/lib/sysctl.d/10-vendor.conf", "kernel.sched_migration_cost_ns = 1000000\n");
	/* a later file name wins; /etc hides the same name in /usr/lib */
	put("etc/sysctl.d/60-db.conf", "# databases\nkernel/sched_migration_cost_ns=5000000\n");
	put("usr/lib/sysctl.d/60-db.conf", "kernel.sched_migration_cost_ns = 7\n");
	tunable_probe_at(root, &t);
	assert_true(t.readable && !t.debugfs);
	assert_int_equal(t.value_ns, 5000000);
	assert_non_null(strstr(t.origin, "set by /etc/sysctl.d/60-db.conf:2"));
}

static void tuned_profile_with_include(void **state)
{
	struct tunable t;

	(void)state;
	put(DEBUGFS, "50000000\n");
	put("etc/tuned/active_profile", "postgresql\n");
	put("usr/lib/tuned/postgresql/tuned.conf",
	    "[main]\ninclude=throughput-performance\n\n[scheduler]\nsched_migration_cost_ns = "
	    "50000000\n");
	put("usr/lib/tuned/throughput-performance/tuned.conf",
	    "[scheduler]\nsched_migration_cost_ns = 5000000\n");
	/* on 5.13+ a sysctl.d entry for it has no effect: said so */
	put("etc/sysctl.conf", "kernel.sched_migration_cost_ns = 2500000\n");
	tunable_probe_at(root, &t);
	assert_int_equal(t.value_ns, 50000000);
	assert_non_null(strstr(t.origin, "set by TuneD profile 'postgresql'"));
	assert_non_null(strstr(t.origin, "/etc/sysctl.conf:1 sets "
				 "kernel.sched_migration_cost_ns = 2500000, which this kernel does "
				 "not have"));
}

static void changed_at_run_time(void **state)
{
	struct tunable t;

	(void)state;
	put(DEBUGFS, "1234567\n");
	tunable_probe_at(root, &t);
	assert_non_null(strstr(t.origin, "changed at run time"));
	put("etc/tuned/active_profile", "throughput-performance\n");
	put("usr/lib/tuned/throughput-performance/tuned.conf",
	    "[scheduler]\nsched_migration_cost_ns = 5000000\n");
	tunable_probe_at(root, &t);
	assert_non_null(strstr(t.origin, "asks for 5000000 ns, the kernel holds 1234567 ns"));
}

static void set_reads_back(void **state)
{
	struct tunable t;

	(void)state;
	put(DEBUGFS, "500000\n");
	tunable_probe_at(root, &t);
	assert_int_equal(tunable_set(&t, 2500000), 0);
	assert_int_equal(t.value_ns, 2500000);
	assert_int_equal(value_in(DEBUGFS), 2500000);
	/* a u32 since 5.13: "always hot" cannot be written */
	assert_int_equal(tunable_set(&t, -1), -ERANGE);
	assert_int_equal(value_in(DEBUGFS), 2500000);
}

/*
 * A kernel that does not take a value, on a FIFO: it reads what tunable_set() writes, then
 * answers its read-back with the value it kept.  The order is tunable_set()'s: a write, then
 * a read.
 */
struct refusing_kernel {
	char path[512];
	char written[32];
};

static void *refuse(void *arg)
{
	struct refusing_kernel *k = arg;
	ssize_t n, got = 0;
	int fd = open(k->path, O_RDONLY);

	while (fd >= 0 && got < (ssize_t)sizeof(k->written) - 1 &&
	       (n = read(fd, k->written + got, sizeof(k->written) - 1 - got)) > 0)
		got += n;
	if (fd >= 0)
		close(fd);
	fd = open(k->path, O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "500000\n", 7) != 7) {
			/* the test then sees no read-back and fails */
		}
		close(fd);
	}
	return NULL;
}

static void set_refused_read_back(void **state)
{
	struct refusing_kernel k = { 0 };
	struct tunable t;
	pthread_t th;

	(void)state;
	put(DEBUGFS, "500000\n");
	tunable_probe_at(root, &t);
	assert_true(t.writable || geteuid());
	if (!t.writable)
		skip();		/* not root: nothing is writable */
	snprintf(k.path, sizeof(k.path), "%s/%s", root, DEBUGFS);
	assert_int_equal(unlink(k.path), 0);
	assert_int_equal(mkfifo(k.path, 0600), 0);
	assert_int_equal(pthread_create(&th, NULL, refuse, &k), 0);
	assert_int_equal(tunable_set(&t, 1000000), -EIO);
	pthread_join(th, NULL);
	assert_string_equal(k.written, "1000000\n");
	/* the model keeps what the kernel holds, not what was asked */
	assert_int_equal(t.value_ns, 500000);
}

static void guard_restores(void **state)
{
	struct tunable_record rec;
	struct tunable t;

	(void)state;
	put(DEBUGFS, "500000\n");
	tunable_probe_at(root, &t);
	assert_int_equal(tunable_guard_begin(&t, NULL, 0), 0);
	assert_int_equal(tunable_record_read(root, &rec), 0);
	assert_int_equal(rec.original_ns, 500000);
	assert_int_equal(rec.pid, getpid());
	assert_int_equal(tunable_set(&t, 10000000), 0);
	/* a second change while the record stands is refused: its writer (us) still runs */
	assert_int_equal(tunable_guard_begin(&t, NULL, 0), -EBUSY);
	assert_int_equal(tunable_guard_restore(&t), 0);
	assert_int_equal(value_in(DEBUGFS), 500000);
	assert_int_equal(tunable_record_read(root, &rec), -ENOENT);
}

static void stale_record_after_kill(void **state)
{
	struct tunable t;
	char text[512];

	(void)state;
	put(DEBUGFS, "25000000\n");
	/* what a migtrace killed by SIGKILL left: its pid is gone, the value is changed */
	snprintf(text, sizeof(text), "path %s/" DEBUGFS "\noriginal_ns 500000\npid 999999\n", root);
	put("run/migtrace/migration_cost.restore", text);
	tunable_probe_at(root, &t);
	assert_int_equal(tunable_guard_begin(&t, NULL, 0), -EEXIST);
	assert_int_equal(tunable_restore_from_record(root, false), 0);
	assert_int_equal(value_in(DEBUGFS), 500000);
	/* nothing left to restore is not an error */
	assert_int_equal(tunable_restore_from_record(root, false), 0);
	tunable_probe_at(root, &t);
	assert_int_equal(tunable_guard_begin(&t, NULL, 0), 0);
	assert_int_equal(tunable_guard_restore(&t), 0);
}

/*
 * Cache-aware scheduling's knobs (7.2): found by name, probed, written within their range,
 * guarded by a record of their own beside the migration cost's, and put back by --restore
 * after a kill alongside it; a kernel without them says which kernels have them.
 */
static void llc_knob(void **state)
{
	const struct tunable_knob *k = tunable_knob_find("llc_balancing/enabled");
	struct tunable_record rec;
	struct tunable t, mc;
	char text[512], buf[32];

	(void)state;
	assert_non_null(k);
	assert_null(tunable_knob_find("llc_balancing/nope"));
	assert_string_equal(tunable_fmt(tunable_knob_find("llc_balancing/imb_pct"), 20, buf,
					sizeof(buf)), "20 %");
	tunable_probe_knob_at(root, k, &t);
	assert_false(t.readable);
	assert_non_null(strstr(t.why, "cache-aware scheduling"));
	put("sys/kernel/debug/sched/llc_balancing/enabled", "1\n");
	put(DEBUGFS, "500000\n");
	tunable_probe_knob_at(root, k, &t);
	assert_true(t.readable && t.writable && !t.assumed);
	assert_int_equal(t.value_ns, 1);
	assert_string_equal(t.origin, "the kernel's default");
	assert_int_equal(tunable_guard_begin(&t, NULL, 0), 0);
	assert_int_equal(tunable_record_read_knob(root, k, &rec), 0);
	assert_int_equal(rec.original_ns, 1);
	/* the migration cost's record is another: both may be held at once */
	tunable_probe_at(root, &mc);
	assert_int_equal(tunable_guard_begin(&mc, NULL, 0), 0);
	assert_int_equal(tunable_set(&t, 2), -ERANGE);	/* a switch: 0 or 1 */
	assert_int_equal(tunable_set(&t, 0), 0);
	assert_int_equal(value_in("sys/kernel/debug/sched/llc_balancing/enabled"), 0);
	assert_int_equal(tunable_guard_restore(&t), 0);
	assert_int_equal(tunable_guard_restore(&mc), 0);
	assert_int_equal(value_in("sys/kernel/debug/sched/llc_balancing/enabled"), 1);
	/* killed with both changed: --restore puts back each */
	put("sys/kernel/debug/sched/llc_balancing/enabled", "0\n");
	put(DEBUGFS, "25000000\n");
	snprintf(text, sizeof(text), "path %s/sys/kernel/debug/sched/llc_balancing/enabled\n"
		 "original_ns 1\npid 999999\n", root);
	put("run/migtrace/llc_balancing.enabled.restore", text);
	snprintf(text, sizeof(text), "path %s/" DEBUGFS "\noriginal_ns 500000\npid 999999\n", root);
	put("run/migtrace/migration_cost.restore", text);
	assert_int_equal(tunable_restore_from_record(root, false), 0);
	assert_int_equal(value_in("sys/kernel/debug/sched/llc_balancing/enabled"), 1);
	assert_int_equal(value_in(DEBUGFS), 500000);
	assert_int_equal(tunable_record_read_knob(root, k, &rec), -ENOENT);
}

/* Probed while another sweep held the tunable at 1 ms, which it restored before our record
 * was written: the original recorded is what the kernel holds once the record is ours. */
static void guard_rereads_original(void **state)
{
	struct tunable_record rec;
	struct tunable t;

	(void)state;
	put(DEBUGFS, "1000000\n");
	tunable_probe_at(root, &t);
	put(DEBUGFS, "500000\n");
	assert_int_equal(tunable_guard_begin(&t, NULL, 0), 0);
	assert_int_equal(t.value_ns, 500000);
	assert_int_equal(tunable_record_read(root, &rec), 0);
	assert_int_equal(rec.original_ns, 500000);
	assert_int_equal(tunable_set(&t, 5000000), 0);
	assert_int_equal(tunable_guard_restore(&t), 0);
	assert_int_equal(value_in(DEBUGFS), 500000);
}

/* A record whose pid now belongs to another process (it started at another time) is a
 * killed migtrace's: it neither blocks a sweep as "still running" nor --restore. */
static void reused_pid_is_stale(void **state)
{
	struct tunable t;
	char text[512];

	(void)state;
	put(DEBUGFS, "25000000\n");
	snprintf(text, sizeof(text), "path %s/" DEBUGFS "\noriginal_ns 500000\npid %d\n"
		 "started 1\n", root, (int)getppid());
	put("run/migtrace/migration_cost.restore", text);
	tunable_probe_at(root, &t);
	assert_int_equal(tunable_guard_begin(&t, NULL, 0), -EEXIST);
	assert_int_equal(tunable_restore_from_record(root, false), 0);
	assert_int_equal(value_in(DEBUGFS), 500000);
}

/*
 * The record keeps the values the sweep sets: after its kill, a tunable holding one of them
 * (or the original) is restored; one holding neither was set by someone since, and is left
 * as it is unless forced (issue 36: --restore wrote the original over an admin's value).
 */
static void restore_keeps_a_later_value(void **state)
{
	static const int64_t values[] = { 2000000, 7000000 };
	struct tunable_record rec;
	struct tunable t;
	char path[600], text[512];

	(void)state;
	put(DEBUGFS, "500000\n");
	tunable_probe_at(root, &t);
	assert_int_equal(tunable_guard_begin(&t, values, 2), 0);
	assert_int_equal(tunable_record_read(root, &rec), 0);
	assert_int_equal(rec.nvalues, 2);
	assert_int_equal(rec.values[1], 7000000);
	/* killed at 7 ms: the record is a dead pid's now */
	snprintf(path, sizeof(path), "%s/run/migtrace/migration_cost.restore", root);
	snprintf(text, sizeof(text), "path %s/" DEBUGFS "\noriginal_ns 500000\npid 999999\n"
		 "started 1\nvalues 2000000 7000000\n", root);
	put("run/migtrace/migration_cost.restore", text);
	put(DEBUGFS, "7000000\n");
	assert_int_equal(tunable_restore_from_record(root, false), 0);
	assert_int_equal(value_in(DEBUGFS), 500000);
	/* an admin set 3 ms after the kill: left, the record kept for --force */
	put("run/migtrace/migration_cost.restore", text);
	put(DEBUGFS, "3000000\n");
	assert_int_equal(tunable_restore_from_record(root, false), -EEXIST);
	assert_int_equal(value_in(DEBUGFS), 3000000);
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(tunable_restore_from_record(root, true), 0);
	assert_int_equal(value_in(DEBUGFS), 500000);
	assert_int_equal(access(path, F_OK), -1);
}

/* A sweep restores only what it set: a record another migtrace wrote is left alone. */
static void restore_leaves_anothers_record(void **state)
{
	struct tunable_record rec;
	struct tunable t;
	char text[512];

	(void)state;
	put(DEBUGFS, "25000000\n");
	snprintf(text, sizeof(text), "path %s/" DEBUGFS "\noriginal_ns 500000\npid 999999\n",
		 root);
	put("run/migtrace/migration_cost.restore", text);
	tunable_probe_at(root, &t);
	assert_int_equal(tunable_guard_restore(&t), -EPERM);
	assert_int_equal(value_in(DEBUGFS), 25000000);
	assert_int_equal(tunable_record_read(root, &rec), 0);
}

static void unreadable_is_assumed(void **state)
{
	struct tunable t;

	(void)state;
	tunable_probe_at(root, &t);
	assert_false(t.readable);
	assert_true(t.assumed);
	assert_int_equal(t.value_ns, MT_KERNEL_DEFAULT_MIGRATION_COST_NS);
	assert_non_null(strstr(t.why, "does not exist"));
	assert_non_null(strstr(t.origin, "unknown"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(debugfs_layout_default, setup, teardown),
		cmocka_unit_test_setup_teardown(sysctl_layout_from_sysctl_d, setup, teardown),
		cmocka_unit_test_setup_teardown(tuned_profile_with_include, setup, teardown),
		cmocka_unit_test_setup_teardown(changed_at_run_time, setup, teardown),
		cmocka_unit_test_setup_teardown(set_reads_back, setup, teardown),
		cmocka_unit_test_setup_teardown(set_refused_read_back, setup, teardown),
		cmocka_unit_test_setup_teardown(guard_restores, setup, teardown),
		cmocka_unit_test_setup_teardown(stale_record_after_kill, setup, teardown),
		cmocka_unit_test_setup_teardown(llc_knob, setup, teardown),
		cmocka_unit_test_setup_teardown(guard_rereads_original, setup, teardown),
		cmocka_unit_test_setup_teardown(reused_pid_is_stale, setup, teardown),
		cmocka_unit_test_setup_teardown(restore_keeps_a_later_value, setup, teardown),
		cmocka_unit_test_setup_teardown(restore_leaves_anothers_record, setup, teardown),
		cmocka_unit_test_setup_teardown(unreadable_is_assumed, setup, teardown),
	};

	return cmocka_run_group_tests_name("tunable", tests, NULL, NULL);
}
