/* SPDX-License-Identifier: GPL-2.0 */
/* Builds fake /sys trees in a temp dir for topology tests. */
#ifndef MIGTRACE_FAKE_SYSFS_H
#define MIGTRACE_FAKE_SYSFS_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static inline void fs_mkdirs(const char *path)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	}
	mkdir(buf, 0755);
}

static inline void fs_write(const char *root, const char *rel, const char *fmt, ...)
{
	char path[1024], dir[1024];
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	fs_mkdirs(dir);
	f = fopen(path, "w");
	if (!f)
		abort();
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

static inline void fs_cache(const char *root, int cpu, int idx, int level, const char *type,
		     const char *size, const char *shared)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cache/index%d/level", cpu, idx);
	fs_write(root, rel, "%d", level);
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cache/index%d/type", cpu, idx);
	fs_write(root, rel, "%s", type);
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cache/index%d/size", cpu, idx);
	fs_write(root, rel, "%s", size);
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
		 cpu, idx);
	fs_write(root, rel, "%s", shared);
}

static inline void fs_cpu(const char *root, int cpu, int core, int pkg, const char *siblings)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/core_id", cpu);
	fs_write(root, rel, "%d", core);
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
	fs_write(root, rel, "%d", pkg);
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
	fs_write(root, rel, "%s", siblings);
}

/* This machine: 2 CPUs, private L1/L2 (512K), one shared 32M L3. */
static inline void make_tree_2cpu(const char *root)
{
	char self[8];

	fs_write(root, "devices/system/cpu/online", "0-1");
	for (int cpu = 0; cpu < 2; cpu++) {
		snprintf(self, sizeof(self), "%d", cpu);
		fs_cpu(root, cpu, cpu, 0, self);
		fs_cache(root, cpu, 0, 1, "Data", "32K", self);
		fs_cache(root, cpu, 1, 1, "Instruction", "32K", self);
		fs_cache(root, cpu, 2, 2, "Unified", "512K", self);
		fs_cache(root, cpu, 3, 3, "Unified", "32768K", "0-1");
	}
	fs_write(root, "devices/system/node/node0/cpulist", "0-1");
}

/*
 * Two sockets, 8 CPUs, SMT: socket 0 = CPUs 0-3, socket 1 = 4-7; SMT pairs (0,1) (2,3)
 * (4,5) (6,7); L2 256K per core, L3 8M per socket; one NUMA node per socket.
 * CPU 7 is offline.
 */
static inline void make_tree_2socket(const char *root)
{
	char sib[16], l3[16];

	fs_write(root, "devices/system/cpu/online", "0-6");
	for (int cpu = 0; cpu < 8; cpu++) {
		int core = cpu / 2, pkg = cpu / 4;

		snprintf(sib, sizeof(sib), "%d-%d", core * 2, core * 2 + 1);
		snprintf(l3, sizeof(l3), "%d-%d", pkg * 4, pkg * 4 + 3);
		fs_cpu(root, cpu, core % 2, pkg, sib);
		fs_cache(root, cpu, 0, 1, "Data", "48K", sib);
		fs_cache(root, cpu, 1, 1, "Instruction", "32K", sib);
		fs_cache(root, cpu, 2, 2, "Unified", "256K", sib);
		fs_cache(root, cpu, 3, 3, "Unified", "8M", l3);
	}
	fs_write(root, "devices/system/node/node0/cpulist", "0-3");
	fs_write(root, "devices/system/node/node1/cpulist", "4-7");
}

static inline char *fs_tempdir(void)
{
	char *d = strdup("/tmp/migtrace-sysfs-XXXXXX");

	if (!d || !mkdtemp(d))
		abort();
	return d;
}

static inline void fs_rmtree(const char *d)
{
	char cmd[1100];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", d);
}

#endif
