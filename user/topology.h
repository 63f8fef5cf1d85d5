/* SPDX-License-Identifier: GPL-2.0 */
/* CPU and cache topology from sysfs (/sys/devices/system/cpu).  User space only. */
#ifndef MIGTRACE_TOPOLOGY_H
#define MIGTRACE_TOPOLOGY_H
#ifdef __KERNEL__
#error "user/topology.h is for user space"
#endif

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "parse.h"

#define TOPO_MAX_CACHES 8
#define TOPO_MASK_WORDS (MT_MAX_CPUS_USER / 64)

struct topo_mask {
	uint64_t bits[TOPO_MASK_WORDS];
};

struct topo_cache {
	int level;
	char type[16];			/* "Data", "Instruction", "Unified" */
	uint64_t size_bytes;
	struct topo_mask shared;	/* shared_cpu_list */
};

struct topo_cpu {
	bool present;
	bool online;
	int core_id;
	int package_id;
	int node;			/* -1 when sysfs has no node directory */
	struct topo_mask siblings;	/* thread_siblings_list: SMT siblings, self included */
	int ncache;
	struct topo_cache cache[TOPO_MAX_CACHES];
};

struct topology {
	char root[512];			/* the sysfs root used, "/sys" unless a test gave another */
	int max_cpu;			/* highest id seen in cpu%d directories */
	struct cpu_set_list online;
	struct topo_cpu *cpu;		/* indexed by CPU id, max_cpu + 1 entries */
	long cpu_mhz;			/* -1 when unknown, as the 2004 kernel printed it */
};

/* Reads SYSFS_ROOT/devices/system/cpu (root "/sys" when NULL).  Errors are -errno, with a
 * message on stderr naming the file. */
int topology_read(const char *sysfs_root, struct topology *t);
void topology_free(struct topology *t);

void topo_mask_set(struct topo_mask *m, int cpu);
bool topo_mask_test(const struct topo_mask *m, int cpu);
int topo_mask_weight(const struct topo_mask *m);
bool topo_mask_equal(const struct topo_mask *a, const struct topo_mask *b);

/* The cache to calibrate against: the largest cache whose sharing set is no wider than the
 * CPU's core (its SMT siblings); NULL when sysfs lists none. */
const struct topo_cache *topology_percore_cache(const struct topology *t, int cpu);
/* The data or unified cache of a given level; NULL when absent. */
const struct topo_cache *topology_cache_level(const struct topology *t, int cpu, int level);
/* The largest cache of the CPU (the LLC); NULL when none. */
const struct topo_cache *topology_llc(const struct topology *t, int cpu);

bool topology_smt_siblings(const struct topology *t, int a, int b);
bool topology_share_llc(const struct topology *t, int a, int b);

/*
 * Scheduler-domain-like distance between two CPUs, as the 2005 calibration cached costs:
 * 0 for the lowest level that spans both, counting only levels that exist on this machine
 * (SMT, shared LLC, package, NUMA node, machine).
 */
int topology_distance(const struct topology *t, int a, int b);

/*
 * A --cpus argument: parsed, and every CPU checked against the online set; NULL means all
 * online CPUs.  On bad input prints one line "migtrace CMD: --cpus: …" naming the token and
 * returns -EINVAL.
 */
int topology_cpus_arg(const struct topology *t, const char *arg, const char *cmd,
		      struct cpu_set_list *out);

/* Prints a short summary (CPUs, cores, packages, caches) to f. */
void topology_print_summary(const struct topology *t, FILE *f);

#endif
