// SPDX-License-Identifier: GPL-2.0
/*
 * The rules besides task_hot()'s age, read from fake /sys and /proc trees (sched_rules.c):
 * sched_ext absent, disabled, enabled and partial; NUMA balancing absent, off and on with one
 * node and two; core scheduling not built, without SMT and with cookies on the machine and
 * on the traced tasks; task_struct.preferred_llc in a BTF made here, absent, elsewhere, and a
 * file that is no BTF.  Then what applies, as the model decides it (run.c).
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/btf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_sysfs.h"
#include "sched_rules.h"

static char root[64];

/*
 * A thread of the fake /proc: ROOT/proc/TID/sched with its policy and, when cookie >= 0, a
 * core_cookie line (a kernel with CONFIG_SCHED_CORE), listed under ROOT/proc/PID/task.
 */
static void fake_task(int pid, int tid, int policy, long long cookie)
{
	char rel[128], cookie_line[80] = "";

	if (cookie >= 0)
		snprintf(cookie_line, sizeof(cookie_line),
			 "\ncore_cookie                                  :%21lld", cookie);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/sched", pid, tid);
	fs_write(root, rel, "policy                                       :%21d%s", policy,
		 cookie_line);
	snprintf(rel, sizeof(rel), "proc/%d/sched", tid);
	fs_write(root, rel, "policy                                       :%21d%s", policy,
		 cookie_line);
}

/* A BTF with struct task_struct { int pid; int <member>; } and struct other { int <o>; }. */
static void fake_btf(const char *member, const char *other_member)
{
	struct btf *btf = btf__new_empty();
	char path[256];
	const void *raw;
	uint32_t size;
	int id, sid;
	FILE *f;

	assert_non_null(btf);
	id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	assert_true(id > 0);
	sid = btf__add_struct(btf, "task_struct", 8);
	assert_true(sid > 0);
	assert_int_equal(btf__add_field(btf, "pid", id, 0, 0), 0);
	assert_int_equal(btf__add_field(btf, member, id, 32, 0), 0);
	assert_true(btf__add_struct(btf, "other", 4) > 0);
	assert_int_equal(btf__add_field(btf, other_member, id, 0, 0), 0);
	raw = btf__raw_data(btf, &size);
	assert_non_null(raw);
	fs_write(root, "sys/kernel/btf/vmlinux", "");
	snprintf(path, sizeof(path), "%s/sys/kernel/btf/vmlinux", root);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(raw, 1, size, f), size);
	fclose(f);
	btf__free(btf);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/mt-rules-XXXXXX");
	assert_non_null(mkdtemp(root));
	fs_write(root, "proc/self/sched", "policy                                       :%21d",
		 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fs_rmtree(root);
	return 0;
}

static void sched_ext_states(void **state)
{
	struct run_sched_rules s;

	(void)state;
	/* a kernel without sched_ext: no directory */
	sched_rules_probe(root, false, &s, NULL);
	assert_true(s.checked);
	assert_string_equal(s.scx_state, "");
	assert_int_equal(s.scx_switch_all, -1);
	assert_false(run_rules_scx(&s));
	/* built, nothing loaded */
	fs_write(root, "sys/kernel/sched_ext/state", "disabled");
	fs_write(root, "sys/kernel/sched_ext/switch_all", "0");
	sched_rules_probe(root, false, &s, NULL);
	assert_string_equal(s.scx_state, "disabled");
	assert_string_equal(s.scx_ops, "");
	assert_false(run_rules_scx(&s));
	/* a scheduler with every fair task: task_hot() is not consulted */
	fs_write(root, "sys/kernel/sched_ext/state", "enabled");
	fs_write(root, "sys/kernel/sched_ext/switch_all", "1");
	fs_write(root, "sys/kernel/sched_ext/root/ops", "scx_rusty");
	sched_rules_probe(root, false, &s, NULL);
	assert_string_equal(s.scx_state, "enabled");
	assert_string_equal(s.scx_ops, "scx_rusty");
	assert_int_equal(s.scx_switch_all, 1);
	assert_true(run_rules_scx(&s));
	/* partial mode: only a traced task of policy SCHED_EXT (7) leaves the fair class */
	fs_write(root, "sys/kernel/sched_ext/switch_all", "0");
	fake_task(100, 100, 0, -1);
	fake_task(100, 101, 0, -1);
	sched_rules_probe(root, false, &s, NULL);
	sched_rules_probe_tasks(root, 100, &s);
	assert_int_equal(s.traced_tasks, 2);
	assert_int_equal(s.traced_ext_tasks, 0);
	assert_false(run_rules_scx(&s));
	fake_task(100, 101, 7, -1);
	sched_rules_probe_tasks(root, 100, &s);
	assert_int_equal(s.traced_ext_tasks, 1);
	assert_true(run_rules_scx(&s));
	/* the mode not known: taken as all, never claimed to be the fair class's */
	fs_write(root, "sys/kernel/sched_ext/switch_all", "x");
	sched_rules_probe(root, false, &s, NULL);
	assert_int_equal(s.scx_switch_all, -1);
	assert_true(run_rules_scx(&s));
}

static void numa_balancing(void **state)
{
	struct run_sched_rules s;

	(void)state;
	/* no knob, no node directory */
	sched_rules_probe(root, false, &s, NULL);
	assert_int_equal(s.numa_balancing, -1);
	assert_int_equal(s.numa_nodes, 0);
	assert_false(run_rules_numa(&s));
	/* off, one node; the directory's other entries are no nodes */
	fs_write(root, "proc/sys/kernel/numa_balancing", "0");
	fs_write(root, "sys/devices/system/node/node0/cpulist", "0-1");
	fs_write(root, "sys/devices/system/node/online", "0");
	fs_write(root, "sys/devices/system/node/has_cpu", "0");
	sched_rules_probe(root, false, &s, NULL);
	assert_int_equal(s.numa_balancing, 0);
	assert_int_equal(s.numa_nodes, 1);
	assert_false(run_rules_numa(&s));
	/* on, but one node: no pull crosses nodes */
	fs_write(root, "proc/sys/kernel/numa_balancing", "1");
	sched_rules_probe(root, false, &s, NULL);
	assert_int_equal(s.numa_balancing, 1);
	assert_false(run_rules_numa(&s));
	/* on, two nodes: migrate_degrades_locality() decides cross-node pulls */
	fs_write(root, "sys/devices/system/node/node1/cpulist", "2-3");
	sched_rules_probe(root, false, &s, NULL);
	assert_int_equal(s.numa_nodes, 2);
	assert_true(run_rules_numa(&s));
	/* off again with two nodes */
	fs_write(root, "proc/sys/kernel/numa_balancing", "0");
	sched_rules_probe(root, false, &s, NULL);
	assert_false(run_rules_numa(&s));
}

static void core_scheduling(void **state)
{
	struct run_sched_rules s;

	(void)state;
	/* no core_cookie line: a kernel without CONFIG_SCHED_CORE (EINVAL) */
	sched_rules_probe(root, false, &s, NULL);
	assert_int_equal(s.core_sched, RUN_CORE_NOT_BUILT);
	assert_int_equal(s.core_cookie_tasks, -1);
	assert_false(run_rules_core(&s));
	/* built, but no SMT (ENODEV) */
	fs_write(root, "proc/self/sched", "policy                                       :%21d\n"
		 "core_cookie                                  :%21d", 0, 0);
	fs_write(root, "sys/devices/system/cpu/smt/active", "0");
	sched_rules_probe(root, false, &s, NULL);
	assert_int_equal(s.core_sched, RUN_CORE_NO_SMT);
	assert_false(run_rules_core(&s));
	/* available, no cookie anywhere */
	fs_write(root, "sys/devices/system/cpu/smt/active", "1");
	fake_task(100, 100, 0, 0);
	fake_task(200, 200, 0, 0);
	fake_task(200, 201, 0, 0);
	sched_rules_probe(root, false, &s, NULL);
	assert_int_equal(s.core_sched, RUN_CORE_AVAILABLE);
	assert_int_equal(s.core_cookie_tasks, 0);
	assert_false(run_rules_core(&s));
	/* a cookie on another process's thread: every core checks cookies, the traced task
	 * has none of its own */
	fake_task(200, 201, 0, 0x1234);
	sched_rules_probe(root, false, &s, NULL);
	sched_rules_probe_tasks(root, 100, &s);
	assert_int_equal(s.core_cookie_tasks, 1);
	assert_int_equal(s.traced_tasks, 1);
	assert_int_equal(s.traced_cookie_tasks, 0);
	assert_true(run_rules_core(&s));
	/* the traced process's threads with cookies */
	sched_rules_probe_tasks(root, 200, &s);
	assert_int_equal(s.traced_tasks, 2);
	assert_int_equal(s.traced_cookie_tasks, 1);
}

static void preferred_llc(void **state)
{
	struct run_sched_rules s;
	int err;

	(void)state;
	/* no BTF: not checked, and why */
	sched_rules_probe(root, true, &s, &err);
	assert_int_equal(s.preferred_llc, RUN_BTF_NOT_CHECKED);
	assert_int_equal(err, -ENOENT);
	assert_false(run_rules_llc(&s));
	/* a kernel without it: settled by the strings alone, or by the parse */
	fake_btf("comm", "numa_preferred_nid");
	sched_rules_probe(root, false, &s, &err);
	assert_int_equal(s.preferred_llc, RUN_BTF_ABSENT);
	assert_int_equal(err, 0);
	sched_rules_probe(root, true, &s, &err);
	assert_int_equal(s.preferred_llc, RUN_BTF_ABSENT);
	assert_false(run_rules_llc(&s));
	/* the name, but in another struct: the parse says absent */
	fake_btf("comm", "preferred_llc");
	sched_rules_probe(root, false, &s, &err);
	assert_int_equal(s.preferred_llc, RUN_BTF_ABSENT);
	assert_int_equal(err, 0);
	/* a member of task_struct: cache-aware load balancing */
	fake_btf("preferred_llc", "x");
	sched_rules_probe(root, false, &s, &err);
	assert_int_equal(s.preferred_llc, RUN_BTF_PRESENT);
	assert_int_equal(err, 0);
	assert_true(run_rules_llc(&s));
	/* a name that only starts the same is not it */
	fake_btf("preferred_llc_x", "x");
	sched_rules_probe(root, true, &s, &err);
	assert_int_equal(s.preferred_llc, RUN_BTF_ABSENT);
	/* no BTF at all: not checked, whether mapped or parsed */
	fs_write(root, "sys/kernel/btf/vmlinux", "not BTF");
	sched_rules_probe(root, false, &s, &err);
	assert_int_equal(s.preferred_llc, RUN_BTF_NOT_CHECKED);
	assert_int_equal(err, -EINVAL);
	sched_rules_probe(root, true, &s, &err);
	assert_int_equal(s.preferred_llc, RUN_BTF_NOT_CHECKED);
	assert_true(err < 0);
}

/* The verdict as the judge leaves it under sched_ext: every kind, numbers kept. */
static void not_applicable_marks_every_kind(void **state)
{
	struct verdict v = { .kind = VERDICT_BY_RATE, .decay_kind = VERDICT_TOO_LOW,
			     .nrates = 2, .factor = 3 };

	(void)state;
	v.rates[0].kind = VERDICT_TOO_LOW;
	v.rates[1].kind = VERDICT_TOO_HIGH;
	v.rates[1].hot_ns = 42;
	verdict_not_applicable(&v);
	assert_int_equal(v.kind, VERDICT_NOT_APPLICABLE);
	assert_int_equal(v.decay_kind, VERDICT_NOT_APPLICABLE);
	assert_int_equal(v.rates[0].kind, VERDICT_NOT_APPLICABLE);
	assert_int_equal(v.rates[1].kind, VERDICT_NOT_APPLICABLE);
	assert_true(v.factor == 3 && v.rates[1].hot_ns == 42);
	assert_string_equal(verdict_names[VERDICT_NOT_APPLICABLE], "not applicable");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(sched_ext_states, setup, teardown),
		cmocka_unit_test_setup_teardown(numa_balancing, setup, teardown),
		cmocka_unit_test_setup_teardown(core_scheduling, setup, teardown),
		cmocka_unit_test_setup_teardown(preferred_llc, setup, teardown),
		cmocka_unit_test(not_applicable_marks_every_kind),
	};

	libbpf_set_print(NULL);		/* the refused file's parse would print libbpf's warning */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
