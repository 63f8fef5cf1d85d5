// SPDX-License-Identifier: GPL-2.0
/*
 * What a sweep reads, on output captured on real systems (tests/data/sweep/): pgbench's tps,
 * hackbench's Time, perf bench sched pipe and messaging, cachewalk's summary, the fallback;
 * /proc/stat's CPU times; both names of the sched files' migration counters; /proc/schedstat.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sweep_parse.h"

#ifndef DATA_DIR
#define DATA_DIR "tests/data/sweep"
#endif

static char *slurp(const char *name)
{
	static char buf[1 << 16];
	char path[256];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", DATA_DIR, name);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static void pgbench(void **state)
{
	struct sweep_tput t;

	(void)state;
	assert_int_equal(sweep_parse_throughput(slurp("pgbench.txt"), 3.1, &t), 0);
	assert_float_equal(t.value, 650.783235, 1e-6);
	assert_string_equal(t.unit, "tps");
}

static void hackbench(void **state)
{
	struct sweep_tput t;

	(void)state;
	assert_int_equal(sweep_parse_throughput(slurp("hackbench.txt"), 9, &t), 0);
	/* lower Time is better: throughput is its inverse */
	assert_float_equal(t.value, 1 / 0.617, 1e-9);
	assert_string_equal(t.unit, "runs/s");
}

static void perf_pipe(void **state)
{
	struct sweep_tput t;

	(void)state;
	assert_int_equal(sweep_parse_throughput(slurp("perf-pipe.txt"), 9, &t), 0);
	assert_float_equal(t.value, 57187, 1e-9);
	assert_string_equal(t.unit, "ops/s");
}

static void perf_messaging(void **state)
{
	struct sweep_tput t;

	(void)state;
	assert_int_equal(sweep_parse_throughput(slurp("perf-messaging.txt"), 9, &t), 0);
	assert_float_equal(t.value, 1 / 0.531, 1e-9);
	assert_string_equal(t.unit, "runs/s");
}

/* migtrace's own wakeup workload: its run/sleep cycles over the seconds it ran */
static void wakeup(void **state)
{
	struct sweep_tput t;

	(void)state;
	assert_int_equal(sweep_parse_throughput("wakeup: 3 threads, 2725 run/sleep cycles in 2 s; "
						"2699 of the sleeps blocked (voluntary "
						"switches)\n", 2.4, &t), 0);
	assert_float_equal(t.value, 1362.5, 1e-9);
	assert_string_equal(t.unit, "cycles/s");
	/* not at a line's start: another program's words */
	assert_int_equal(sweep_parse_throughput("not wakeup: 3 threads, 2725 run/sleep cycles in "
						"2 s\n", 2.0, &t), -ENOENT);
}

static void cachewalk(void **state)
{
	struct sweep_tput t;

	(void)state;
	assert_int_equal(sweep_parse_throughput(slurp("cachewalk.txt"), 2.0, &t), 0);
	assert_float_equal(t.value, 2631 / 2.0, 1e-9);
	assert_string_equal(t.unit, "units/s");
}

static void fallback(void **state)
{
	struct sweep_tput t;

	(void)state;
	assert_int_equal(sweep_parse_throughput("hello\nTime to go\n", 4.0, &t), -ENOENT);
	assert_float_equal(t.value, 0.25, 1e-12);
	assert_string_equal(t.source, "1 / wall time");
	assert_int_equal(sweep_parse_throughput("", 0, &t), -ENOENT);
	assert_float_equal(t.value, 0, 0);
}

static void proc_stat(void **state)
{
	const char *text = "cpu  100 0 50 800 50 0 0 0 0 0\n"
			   "cpu0 50 0 25 400 25 0 0 0 0 0\n"
			   "cpu1 50 0 25 400 25 0 0 0 0 0\n"
			   "cpu10 1 1 1 1 1 1 1 1 0 0\n"
			   "intr 1 2 3\n";
	struct cpu_set_list cpus = { 0 };
	struct sweep_cputime ct;
	char bad[32];

	(void)state;
	assert_int_equal(sweep_parse_proc_stat(text, NULL, &ct), 0);
	assert_int_equal(ct.idle, 850);
	assert_int_equal(ct.total, 1000);
	assert_int_equal(parse_cpu_list("1,10", &cpus, bad, sizeof(bad)), 0);
	assert_int_equal(sweep_parse_proc_stat(text, &cpus, &ct), 0);
	assert_int_equal(ct.idle, 427);
	assert_int_equal(ct.total, 508);
	assert_int_equal(parse_cpu_list("3", &cpus, bad, sizeof(bad)), 0);
	assert_int_equal(sweep_parse_proc_stat(text, &cpus, &ct), -ENOENT);
}

static void task_sched(void **state)
{
	/* 6.12 (stats.) and 5.10 (se.statistics.) spellings */
	const char *new = "se.nr_migrations                             :                   12\n"
			  "stats.nr_failed_migrations_affine            :                    0\n"
			  "stats.nr_failed_migrations_running           :                    3\n"
			  "stats.nr_failed_migrations_hot               :                    7\n"
			  "stats.nr_forced_migrations                   :                    2\n";
	const char *old = "se.statistics.nr_failed_migrations_hot :   5\n"
			  "se.statistics.nr_forced_migrations :   1\n";
	uint64_t hot, forced;

	(void)state;
	assert_int_equal(sweep_parse_task_sched(new, &hot, &forced), 0);
	assert_int_equal(hot, 7);
	assert_int_equal(forced, 2);
	assert_int_equal(sweep_parse_task_sched(old, &hot, &forced), 0);
	assert_int_equal(hot, 5);
	assert_int_equal(forced, 1);
	assert_int_equal(sweep_parse_task_sched("se.nr_migrations : 4\n", &hot, &forced),
			 -ENOENT);
}

static void schedstat(void **state)
{
	/* version 15: 8 fields per idle type, lb_hot_gained sixth */
	const char *v15 = "version 15\ntimestamp 1\n"
			  "cpu0 0 0 0 0 0 0 1 2 3\n"
			  "domain0 03 1 0 0 0 0 4 0 0  1 0 0 0 0 5 0 0  1 0 0 0 0 6 0 0  0 0 0 0 0 0 "
			  "0 0 0 0 0 0 0 0 0 0 0 0\n";
	/* version 17: named domains, 11 fields per idle type, lb_hot_gained ninth */
	const char *v17 = "version 17\ntimestamp 1\n"
			  "cpu0 0 0 0 0 0 0 1 2 3\n"
			  "domain0 MC 03 1 0 0 0 0 0 0 0 2 0 0  1 0 0 0 0 0 0 0 3 0 0  "
			  "1 0 0 0 0 0 0 0 4 0 0  0 0 0 0 0 0 0 0 0 0 0 0\n";
	uint64_t v;

	(void)state;
	assert_int_equal(sweep_parse_schedstat(v15, &v), 0);
	assert_int_equal(v, 15);
	assert_int_equal(sweep_parse_schedstat(v17, &v), 0);
	assert_int_equal(v, 9);
	assert_int_equal(sweep_parse_schedstat("version 99\ndomain0 0 1\n", &v), -EPROTO);
	assert_int_equal(sweep_parse_schedstat("version 15\n", &v), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pgbench),
		cmocka_unit_test(hackbench),
		cmocka_unit_test(perf_pipe),
		cmocka_unit_test(perf_messaging),
		cmocka_unit_test(wakeup),
		cmocka_unit_test(cachewalk),
		cmocka_unit_test(fallback),
		cmocka_unit_test(proc_stat),
		cmocka_unit_test(task_sched),
		cmocka_unit_test(schedstat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
