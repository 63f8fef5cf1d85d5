/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Caches, APIC ids and core types from the CPUID instruction, for machines whose sysfs lists
 * no caches (some VMs).  The decoder reads registers through a callback, so that tests can
 * feed it recorded tables; cpuid_read_cpus() runs it on real CPUs.  User space only.
 */
#ifndef MIGTRACE_CPUID_H
#define MIGTRACE_CPUID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse.h"

#define CPUID_MAX_CACHES 8

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

/* Fills *r with CPUID(leaf, subleaf).  0, or -errno when it cannot be asked at all. */
typedef int (*cpuid_query_fn)(void *ctx, uint32_t leaf, uint32_t subleaf,
			      struct cpuid_regs *r);

/* Leaf 0x1A EAX[31:24] on Intel hybrid parts; 0 elsewhere. */
enum cpuid_core_type {
	CPUID_CORE_UNKNOWN = 0,
	CPUID_CORE_ATOM = 0x20,		/* E-core */
	CPUID_CORE_CORE = 0x40,		/* P-core */
};

struct cpuid_cache {
	int level;
	char type[16];		/* "Data", "Instruction", "Unified", as sysfs spells them */
	uint64_t size_bytes;
	/*
	 * Who shares it.  Leaves 4 and 0x8000001D give the number of logical ids sharing it;
	 * AMD's legacy leaves give none: their L1 and L2 are private to a core (its SMT
	 * siblings share them), and their L3's sharing is not known at all.
	 */
	int nsharing;		/* logical ids sharing it, when shared_known && !smt_private */
	bool shared_known;
	bool smt_private;	/* shared by the core's SMT siblings only */
	uint32_t leaf;		/* the leaf it was read from */
};

struct cpuid_info {
	char vendor[13];		/* "GenuineIntel", "AuthenticAMD", … */
	uint32_t max_basic, max_ext;	/* highest basic and extended leaves */
	bool topoext;			/* 0x80000001 ECX bit 22 */
	uint32_t apic_id;
	uint32_t apic_leaf;		/* where apic_id came from: 0xB, 0x8000001E or 1 */
	enum cpuid_core_type core_type;
	int ncache;
	struct cpuid_cache cache[CPUID_MAX_CACHES];
	char why[160];			/* when ncache == 0: why CPUID gave no cache */
};

/*
 * Decodes the caches, APIC id and core type of the CPU that q answers for.  Returns the
 * number of caches (0 with info->why saying why none), or -errno when q failed.
 */
int cpuid_decode(cpuid_query_fn q, void *ctx, struct cpuid_info *info);

/* The id two CPUs compare to share a cache: apic >> ceil(log2(nsharing)), as Linux does. */
uint32_t cpuid_share_id(uint32_t apic_id, int nsharing);


/*
 * Decodes CPUID on each CPU of cpus, pinning the calling thread to it in turn and restoring
 * its affinity afterwards; out[i] is for cpus->cpu[i].  A CPU that cannot be reached gets
 * ncache 0 and a why naming the failure.  Returns how many CPUs were decoded, or -errno
 * (-EOPNOTSUPP off x86, with why saying so in out[*]).
 */
int cpuid_read_cpus(const struct cpu_set_list *cpus, struct cpuid_info *out);

#endif
