/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU and cache topology from sysfs (/sys/devices/system/cpu), with caches from CPUID where
 * sysfs lists none.  User space only.
 */
#ifndef MIGTRACE_TOPOLOGY_H
#define MIGTRACE_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "parse.h"

struct cpuid_info;

#define TOPO_MAX_CACHES 8
#define TOPO_MASK_WORDS (MT_MAX_CPUS_USER / 64)

struct topo_mask {
	uint64_t bits[TOPO_MASK_WORDS];
};

/* Where a cache's description came from. */
enum topo_source { TOPO_SRC_SYSFS, TOPO_SRC_CPUID };

/*
 * Which sources of cache descriptions topology_read_caches() uses (the --caches option):
 *   AUTO   sysfs; on the real machine (root "/sys") a CPU whose sysfs lists no cache gets
 *          CPUID's; a test tree (--sysfs-root) never gets CPUID, which describes this
 *          machine and not the tree;
 *   SYSFS  sysfs only;
 *   CPUID  CPUID only, run on each online CPU of the tree's numbering, whatever the root.
 */
enum topo_caches { TOPO_CACHES_AUTO, TOPO_CACHES_SYSFS, TOPO_CACHES_CPUID };

enum topo_core_type { TOPO_CORE_UNKNOWN, TOPO_CORE_P, TOPO_CORE_E };

struct topo_cache {
	int level;
	char type[16];			/* "Data", "Instruction", "Unified" */
	uint64_t size_bytes;
	struct topo_mask shared;	/* shared_cpu_list, or from CPUID's APIC ids */
	/*
	 * False when the source gave the size but not who shares it (AMD's legacy CPUID
	 * leaves for the L3): shared then holds only the CPU itself and means nothing.
	 */
	bool shared_known;
	enum topo_source source;
	uint32_t cpuid_leaf;		/* the CPUID leaf, when source is TOPO_SRC_CPUID */
};

struct topo_cpu {
	bool present;
	bool online;
	int core_id;
	int package_id;
	int node;			/* -1 when sysfs has no node directory */
	struct topo_mask siblings;	/* thread_siblings_list: SMT siblings, self included */
	struct topo_mask cluster;	/* cluster_cpus_list (with the siblings); else siblings */
	enum topo_core_type core_type;	/* sysfs cpu_core/cpu_atom, else CPUID leaf 0x1A */
	int ncache;
	struct topo_cache cache[TOPO_MAX_CACHES];
	char nocache_why[800];		/* when ncache == 0: why no source listed a cache */
};

struct topology {
	char root[512];			/* the sysfs root used, "/sys" unless a test gave another */
	int max_cpu;			/* highest id seen in cpu%d directories */
	struct cpu_set_list online;
	struct topo_cpu *cpu;		/* indexed by CPU id, max_cpu + 1 entries */
	long cpu_mhz;			/* -1 when unknown, as the 2004 kernel printed it */
	enum topo_caches caches;	/* the sources asked for */
	bool hybrid;			/* both P-cores and E-cores are online */
};

/*
 * Reads SYSFS_ROOT/devices/system/cpu (root "/sys" when NULL), caches from the sources
 * `caches` allows.  Errors are -errno, with a message on stderr naming the file.  A CPU
 * without caches is not an error: its nocache_why says why.
 */
int topology_read_caches(const char *sysfs_root, enum topo_caches caches, struct topology *t);
/* topology_read_caches(sysfs_root, TOPO_CACHES_AUTO, t). */
int topology_read(const char *sysfs_root, struct topology *t);
/* Reads one line of a sysfs (or proc) file into buf, newline stripped.  -errno on failure. */
int sysfs_read_line(const char *path, char *buf, size_t len);
void topology_free(struct topology *t);

/* "auto", "sysfs" or "cpuid" (a --caches argument); -EINVAL otherwise. */
int topology_caches_arg(const char *arg, enum topo_caches *out);

/*
 * Replaces the caches of the CPUs cpus->cpu[i] with those CPUID gave in info[i], sharing
 * masks from the APIC ids of all of them; with only_empty, CPUs that already list caches
 * keep theirs.  Core types from leaf 0x1A fill the CPUs sysfs gave none.  Split from the
 * reading so that tests can feed recorded CPUID tables.
 */
void topology_apply_cpuid(struct topology *t, const struct cpu_set_list *cpus,
			  const struct cpuid_info *info, bool only_empty);

/*
 * Where the online CPUs' cache descriptions came from: "sysfs", "cpuid", "sysfs+cpuid", or
 * "none" when no online CPU lists a cache.
 */
const char *topology_cache_source(const struct topology *t);

bool topo_mask_test(const struct topo_mask *m, int cpu);
int topo_mask_weight(const struct topo_mask *m);
/* The CPUs of m in the kernel's list form ("0-3,8"); returns buf. */
char *topo_mask_format(const struct topology *t, const struct topo_mask *m, char *buf,
		       size_t len);

/*
 * The cache to calibrate against: the largest data cache known to be shared within the
 * CPU's cluster, which is its core (its SMT siblings) unless sysfs lists a wider cluster (an
 * E-core's L2 is shared by its cluster of four); NULL when none is.
 */
const struct topo_cache *topology_percore_cache(const struct topology *t, int cpu);
/* "per-core" when k is shared within cpu's SMT siblings, "per-cluster" within its cluster,
 * else "shared" ("sharing unknown" when the source did not say). */
const char *topology_cache_scope(const struct topology *t, int cpu, const struct topo_cache *k);
/* The data or unified cache of a given level; NULL when absent. */
const struct topo_cache *topology_cache_level(const struct topology *t, int cpu, int level);
/* The largest cache of the CPU (the LLC); NULL when none. */
const struct topo_cache *topology_llc(const struct topology *t, int cpu);

bool topology_smt_siblings(const struct topology *t, int a, int b);
/* False when either has no LLC or its sharing is unknown: check topology_llc_known() first
 * wherever "not shared" and "unknown" differ. */
bool topology_share_llc(const struct topology *t, int a, int b);
/*
 * Whether the LLC sharing of cpu is known.  When not, why (if non-NULL) gets the reason,
 * e.g. "CPUID 0x80000006 gives no sharing".
 */
bool topology_llc_known(const struct topology *t, int cpu, char *why, size_t len);

/*
 * The ids a move between CPUs is classed by topology level (MT_LEVEL_OF, bpf/migtrace.h):
 * core, the lowest CPU of cpu's SMT siblings (cpu itself without any); llc, the lowest CPU
 * sharing its last-level cache, -1 when that sharing is not known (topology_llc_known says
 * why); node, its NUMA node, 0 without node directories (a kernel without NUMA).
 */
void topology_level_ids(const struct topology *t, int cpu, int *core, int *llc, int *node);

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

/*
 * The cache a calibration sizes its buffers against, for CPU cpu.  size_arg (--size) when
 * given, else the data cache of level `level` when level > 0, else the largest per-core or
 * per-cluster cache, else the LLC.  Checks that two buffers of twice the size fit in the
 * memory a buffer can take (mem_room.h: MemAvailable, a cgroup's limit).  Errors print one line "migtrace CMD: …" naming what failed and what to do, and
 * return -EINVAL (bad input) or -ENOENT (no source gives a size).
 */
struct topo_choice {
	uint64_t size_bytes;
	const struct topo_cache *cache;	/* NULL when --size gave the size */
	const char *source;		/* "sysfs", "cpuid" or "--size" */
	const char *scope;		/* topology_cache_scope(); NULL with --size */
	char what[400];			/* "L2 Unified 1 MiB of CPU 0 (from CPUID: …), …" */
};
int topology_calib_cache(const struct topology *t, int cpu, int level, const char *size_arg,
			 const char *cmd, struct topo_choice *out);

/* Online cores, packages, and the largest SMT sibling set (threads per core). */
void topology_counts(const struct topology *t, int *cores, int *packages, int *smt);
/* Prints a short summary (CPUs, cores, core types, packages, caches and their sources). */
void topology_print_summary(const struct topology *t, FILE *f);
/* Moves the calling thread to cpu and checks that it runs there (calibrate.c, calib_chase.c).
 * 0 or -errno. */
int topology_pin_to(int cpu);

#endif
