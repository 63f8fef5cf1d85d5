// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep's witnesses on a fake tree (sched_witness.h): sched_schedstats turned on with
 * its original recorded, put back and the record removed; --restore from a killed sweep's
 * record; left alone when already on; /proc/schedstat read; and the per-task reader started
 * and stopped on this process's group.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sched_witness.h"

#define SYSCTL "proc/sys/kernel/sched_schedstats"
#define RECORD "run/migtrace/sched_schedstats.restore"

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

/* The integer in root/rel, or -1 when the file is not there. */
static int value_in(const char *rel)
{
	char path[512];
	int v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "r");
	if (!f)
		return -1;
	assert_int_equal(fscanf(f, "%d", &v), 1);
	fclose(f);
	return v;
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/mt-witness.XXXXXX");
	assert_non_null(mkdtemp(root));
	put("run/migtrace/.keep", "");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static void hold_turns_on_and_puts_back(void **state)
{
	struct schedstats_hold h;

	(void)state;
	put(SYSCTL, "0\n");
	schedstats_hold_begin(&h, root);
	assert_int_equal(h.orig, 0);
	assert_true(h.set);
	assert_int_equal(value_in(SYSCTL), 1);
	assert_int_equal(value_in(RECORD), 0);
	schedstats_hold_end(&h);
	assert_false(h.set);
	assert_int_equal(value_in(SYSCTL), 0);
	assert_int_equal(value_in(RECORD), -1);
}

static void hold_leaves_on_alone(void **state)
{
	struct schedstats_hold h;

	(void)state;
	put(SYSCTL, "1\n");
	schedstats_hold_begin(&h, root);
	assert_int_equal(h.orig, 1);
	assert_false(h.set);
	assert_int_equal(value_in(RECORD), -1);
	schedstats_hold_end(&h);
	assert_int_equal(value_in(SYSCTL), 1);
}

static void hold_without_sysctl(void **state)
{
	struct schedstats_hold h;

	(void)state;
	schedstats_hold_begin(&h, root);
	assert_int_equal(h.orig, -1);
	assert_false(h.set);
}

static void restore_from_killed_record(void **state)
{
	(void)state;
	assert_int_equal(schedstats_restore_from_record(root), 0);	/* no record */
	put(SYSCTL, "1\n");
	put(RECORD, "0\n");
	assert_int_equal(schedstats_restore_from_record(root), 1);
	assert_int_equal(value_in(SYSCTL), 0);
	assert_int_equal(value_in(RECORD), -1);
}

static void schedstat_file_read(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_false(schedstat_readable(root));
	assert_false(schedstat_read_hot_gained(root, &v));
	put("proc/schedstat", "not a schedstat file\n");
	assert_true(schedstat_readable(root));
	assert_false(schedstat_read_hot_gained(root, &v));
}

static void witness_starts_and_stops(void **state)
{
	struct sched_witness *w = sched_witness_new();
	uint64_t failed_hot = 0, forced = 0;

	(void)state;
	assert_non_null(w);
	assert_false(sched_witness_stop(w, &failed_hot, &forced));	/* never started */
	assert_int_equal(sched_witness_start(w, (int)getpgrp()), 0);
	usleep(50000);
	/* whether this kernel's sched files have the lines is its own: only the sums' start */
	sched_witness_stop(w, &failed_hot, &forced);
	sched_witness_free(w);
	sched_witness_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(hold_turns_on_and_puts_back, setup, teardown),
		cmocka_unit_test_setup_teardown(hold_leaves_on_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(hold_without_sysctl, setup, teardown),
		cmocka_unit_test_setup_teardown(restore_from_killed_record, setup, teardown),
		cmocka_unit_test_setup_teardown(schedstat_file_read, setup, teardown),
		cmocka_unit_test_setup_teardown(witness_starts_and_stops, setup, teardown),
	};

	return cmocka_run_group_tests_name("sched_witness", tests, NULL, NULL);
}
