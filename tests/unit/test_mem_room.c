// SPDX-License-Identifier: GPL-2.0
/*
 * The memory a buffer can take, on fake trees: MemAvailable alone; a cgroup v2 limit (and
 * one on a level above the process's own, "max" read as none), its page cache that can be
 * dropped not counted as taken; a cgroup v1 limit, v1's "no limit" read as none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mem_room.h"

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

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/mt-memroom.XXXXXX");
	assert_non_null(mkdtemp(root));
	put("proc/meminfo", "MemTotal:       8000000 kB\nMemFree:         100000 kB\n"
	    "MemAvailable:    4000000 kB\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static void meminfo_alone(void **state)
{
	struct mem_room m;

	(void)state;
	put("proc/self/cgroup", "0::/\n");
	assert_int_equal(mem_room_probe(root, &m), 0);
	assert_int_equal(m.bytes, 4000000ULL * 1024);
	assert_non_null(strstr(m.what, "(MemAvailable)"));
}

static void cgroup_v2_limits(void **state)
{
	struct mem_room m;

	(void)state;
	put("proc/self/cgroup", "0::/box/job\n");
	put("sys/fs/cgroup/box/job/memory.max", "max\n");
	put("sys/fs/cgroup/box/job/memory.current", "1000\n");
	/* the limit is one level up: 2 GiB, 1.5 GiB charged, 0.5 GiB of it droppable cache */
	put("sys/fs/cgroup/box/memory.max", "2147483648\n");
	put("sys/fs/cgroup/box/memory.current", "1610612736\n");
	put("sys/fs/cgroup/box/memory.stat", "anon 1073741824\nfile 536870912\n"
	    "active_file 0\ninactive_file 536870912\n");
	assert_int_equal(mem_room_probe(root, &m), 0);
	assert_int_equal(m.bytes, 1ULL << 30);
	assert_non_null(strstr(m.what, "under the cgroup's memory limit of 2.0 GiB"));
	assert_non_null(strstr(m.what, "/sys/fs/cgroup/box/memory.max"));
}

static void cgroup_v1_limit(void **state)
{
	struct mem_room m;

	(void)state;
	put("proc/self/cgroup", "5:cpu,cpuacct:/\n4:memory:/a/b\n0::/\n");
	put("sys/fs/cgroup/memory/a/b/memory.limit_in_bytes", "536870912\n");
	put("sys/fs/cgroup/memory/a/b/memory.usage_in_bytes", "134217728\n");
	put("sys/fs/cgroup/memory/a/memory.limit_in_bytes", "9223372036854771712\n");
	put("sys/fs/cgroup/memory/a/memory.usage_in_bytes", "134217728\n");
	assert_int_equal(mem_room_probe(root, &m), 0);
	assert_int_equal(m.bytes, 384ULL << 20);
	assert_non_null(strstr(m.what, "/sys/fs/cgroup/memory/a/b/memory.limit_in_bytes"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(meminfo_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(cgroup_v2_limits, setup, teardown),
		cmocka_unit_test_setup_teardown(cgroup_v1_limit, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
