/* SPDX-License-Identifier: GPL-2.0 */
/* Builds fake /sys trees in a temp dir for topology tests. */
#ifndef MIGTRACE_FAKE_SYSFS_H
#define MIGTRACE_FAKE_SYSFS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topology.h"

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
	char self[16];

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
	char sib[32], l3[32];	/* "a-b" of two ints, whatever gcc -O1 assumes of them */

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

/* A CPU's cluster_cpus_list: hybrid E-cores share an L2 per cluster of four. */
static inline void fs_cluster(const char *root, int cpu, const char *cluster)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/cluster_cpus_list", cpu);
	fs_write(root, rel, "%s", cluster);
}

/* "a-b" for a core of smt threads starting at first (just "a" without SMT). */
static inline void fs_range(char *buf, size_t len, int first, int count)
{
	if (count == 1)
		snprintf(buf, len, "%d", first);
	else
		snprintf(buf, len, "%d-%d", first, first + count - 1);
}

/* n CPUs, smt threads per core, one package, no cache directories (some VMs' sysfs). */
static inline void make_tree_nocache(const char *root, int n, int smt)
{
	char sib[32];

	fs_range(sib, sizeof(sib), 0, n);
	fs_write(root, "devices/system/cpu/online", "%s", sib);
	for (int cpu = 0; cpu < n; cpu++) {
		fs_range(sib, sizeof(sib), cpu / smt * smt, smt);
		fs_cpu(root, cpu, cpu / smt, 0, sib);
	}
}

/*
 * AMD with core complexes: 16 CPUs, SMT pairs (2k, 2k+1), 8 cores, one package; L1d 32K,
 * L1i 32K and L2 512K per core, L3 16M per CCX of 4 cores (CPUs 0-7, 8-15).  Without
 * caches, only the topology.
 */
static inline void make_tree_amd_ccx(const char *root, bool caches)
{
	char sib[32], l3[32];

	fs_write(root, "devices/system/cpu/online", "0-15");
	for (int cpu = 0; cpu < 16; cpu++) {
		fs_range(sib, sizeof(sib), cpu / 2 * 2, 2);
		fs_range(l3, sizeof(l3), cpu / 8 * 8, 8);
		fs_cpu(root, cpu, cpu / 2, 0, sib);
		fs_cluster(root, cpu, sib);
		if (!caches)
			continue;
		fs_cache(root, cpu, 0, 1, "Data", "32K", sib);
		fs_cache(root, cpu, 1, 1, "Instruction", "32K", sib);
		fs_cache(root, cpu, 2, 2, "Unified", "512K", sib);
		fs_cache(root, cpu, 3, 3, "Unified", "16384K", l3);
	}
	fs_write(root, "devices/system/node/node0/cpulist", "0-15");
}

/*
 * Intel hybrid: P-cores are CPUs 0-7 (4 cores, SMT pairs, L1d 48K and L2 1280K per core),
 * E-cores CPUs 8-15 (no SMT, L1d 32K per core, clusters 8-11 and 12-15 each sharing a 4M
 * L2); one 24M L3 for all.  The PMU directories name the core types, as Linux does.
 */
static inline void make_tree_hybrid(const char *root, bool caches)
{
	char sib[32], cl[32];

	fs_write(root, "devices/system/cpu/online", "0-15");
	fs_write(root, "devices/cpu_core/cpus", "0-7");
	fs_write(root, "devices/cpu_atom/cpus", "8-15");
	for (int cpu = 0; cpu < 16; cpu++) {
		bool p = cpu < 8;

		if (p)
			fs_range(sib, sizeof(sib), cpu / 2 * 2, 2);
		else
			fs_range(sib, sizeof(sib), cpu, 1);
		fs_range(cl, sizeof(cl), cpu / 4 * 4, 4);
		fs_cpu(root, cpu, p ? cpu / 2 : cpu, 0, sib);
		fs_cluster(root, cpu, p ? sib : cl);
		if (!caches)
			continue;
		fs_cache(root, cpu, 0, 1, "Data", p ? "48K" : "32K", sib);
		fs_cache(root, cpu, 1, 1, "Instruction", p ? "32K" : "64K", sib);
		fs_cache(root, cpu, 2, 2, "Unified", p ? "1280K" : "4096K", p ? sib : cl);
		fs_cache(root, cpu, 3, 3, "Unified", "24576K", "0-15");
	}
}

static inline char *fs_tempdir(void)
{
	char *d = strdup("/tmp/migtrace-sysfs-XXXXXX");

	if (!d || !mkdtemp(d))
		abort();
	return d;
}

/* topology_print_summary() as a string, for checking what doctor shows (caller frees). */
static inline char *fs_summary(const struct topology *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	topology_print_summary(t, f);
	fclose(f);
	return buf;
}

static inline void fs_rmtree(const char *d)
{
	char cmd[1100];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", d);
}

#endif
