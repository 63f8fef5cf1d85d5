// SPDX-License-Identifier: GPL-2.0
/*
 * Cache descriptions from CPUID, decoded the way Linux's cacheinfo does it: leaf 4 (Intel and
 * anything else that implements it), leaf 0x8000001D (AMD with topology extensions), or AMD's
 * legacy 0x80000005/0x80000006.  Sizes come from the registers only; where a leaf does not
 * say who shares a cache, the cache says so (shared_known false) rather than guess.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

/*
 * The instruction is issued inline: the compiler's <cpuid.h> is shadowed by this directory's
 * cpuid.h on the -Iuser include path.
 */
#if defined(__x86_64__) || defined(__i386__)
#define HAVE_CPUID 1
#else
#define HAVE_CPUID 0
#endif

#include "cpuid.h"

#define LEAF_CACHE		0x4
#define LEAF_EXT_TOPO		0xB
#define LEAF_HYBRID		0x1A
#define LEAF_EXT_MAX		0x80000000
#define LEAF_EXT_FEATURES	0x80000001
#define LEAF_AMD_L1		0x80000005
#define LEAF_AMD_L2L3		0x80000006
#define LEAF_AMD_CACHE		0x8000001D
#define LEAF_AMD_APIC		0x8000001E
#define TOPOEXT_BIT		(1u << 22)
/*
 * A real CPU lists a handful of caches; a table that never ends (a hypervisor answering
 * every subleaf alike) is cut here and judged by the repeat check below.
 */
#define MAX_SUBLEAVES		32

/* Larger than any cache built: a leaf claiming more is garbage (a VM's or a fuzzer's). */
#define MAX_CACHE_BYTES (64ULL << 30)

static const char *const cache_type_name[] = { NULL, "Data", "Instruction", "Unified" };

static bool is_amd(const struct cpuid_info *info)
{
	return strcmp(info->vendor, "AuthenticAMD") == 0 ||
	       strcmp(info->vendor, "HygonGenuine") == 0;
}

static struct cpuid_cache *add_cache(struct cpuid_info *info, int level, int type,
				     uint64_t size, uint32_t leaf)
{
	struct cpuid_cache *k;

	if (info->ncache >= CPUID_MAX_CACHES)
		return NULL;
	k = &info->cache[info->ncache++];
	memset(k, 0, sizeof(*k));
	k->level = level;
	snprintf(k->type, sizeof(k->type), "%s", cache_type_name[type]);
	k->size_bytes = size;
	k->leaf = leaf;
	return k;
}

/*
 * Leaf 4 and 0x8000001D share one layout: per subleaf, EAX[4:0] type (0 ends the list),
 * EAX[7:5] level, EAX[25:14] + 1 logical ids sharing it; size = ways x partitions x line
 * size x sets, each field stored minus one.  A table that repeats a (level, type) is not a
 * description of real caches: all of it is dropped and why says so.
 */
static int decode_deterministic(cpuid_query_fn q, void *ctx, uint32_t leaf,
				struct cpuid_info *info)
{
	struct cpuid_regs r;
	int err;

	for (uint32_t sub = 0; sub < MAX_SUBLEAVES; sub++) {
		struct cpuid_cache *k;
		int type, level;
		uint64_t size;

		err = q(ctx, leaf, sub, &r);
		if (err)
			return err;
		type = r.eax & 0x1f;
		if (type == 0)
			return 0;
		level = (r.eax >> 5) & 0x7;
		if (type > 3 || level == 0)
			continue;	/* reserved types and level 0 describe no cache */
		for (int i = 0; i < info->ncache; i++) {
			if (info->cache[i].level == level &&
			    strcmp(info->cache[i].type, cache_type_name[type]) == 0) {
				snprintf(info->why, sizeof(info->why), "CPUID leaf 0x%x lists L%d "
					 "%s twice (subleaf %u): the table is not trusted", leaf,
					 level, cache_type_name[type], sub);
				info->ncache = 0;
				return 0;
			}
		}
		/* The fields' product can overflow 64 bits (found by fuzzing): such a table, or
		 * one claiming more than any cache has, describes no real cache. */
		if (__builtin_mul_overflow((uint64_t)((r.ebx >> 22) + 1) *
					   (((r.ebx >> 12) & 0x3ff) + 1) * ((r.ebx & 0xfff) + 1),
					   (uint64_t)r.ecx + 1, &size) || size > MAX_CACHE_BYTES) {
			snprintf(info->why, sizeof(info->why), "CPUID leaf 0x%x subleaf %u "
				 "describes an L%d of more than %llu GiB: the table is not "
				 "trusted", leaf, sub, level, MAX_CACHE_BYTES >> 30);
			info->ncache = 0;
			return 0;
		}
		k = add_cache(info, level, type, size, leaf);
		if (!k)
			return 0;
		k->nsharing = (int)((r.eax >> 14) & 0xfff) + 1;
		k->shared_known = true;
	}
	snprintf(info->why, sizeof(info->why), "CPUID leaf 0x%x has no end marker within %d "
		 "subleaves: the table is not trusted", leaf, MAX_SUBLEAVES);
	info->ncache = 0;
	return 0;
}

/*
 * AMD's legacy leaves: 0x80000005 ECX/EDX[31:24] L1d/L1i in KiB; 0x80000006 ECX[31:16] L2
 * in KiB and EDX[31:18] L3 in 512 KiB units, an associativity of 0 meaning disabled.  They
 * say nothing about sharing: on AMD the L1 and L2 belong to one core, the L3's sharing is
 * unknown; elsewhere (other vendors use only 0x80000006's L2) nothing is known.
 */
static int decode_legacy(cpuid_query_fn q, void *ctx, struct cpuid_info *info)
{
	bool amd = is_amd(info);
	struct cpuid_regs r;
	struct cpuid_cache *k;
	uint64_t kib;
	int err;

	if (info->max_ext >= LEAF_AMD_L1) {
		err = q(ctx, LEAF_AMD_L1, 0, &r);
		if (err)
			return err;
		if ((kib = r.ecx >> 24) && (k = add_cache(info, 1, 1, kib << 10, LEAF_AMD_L1)))
			k->shared_known = k->smt_private = amd;
		if ((kib = r.edx >> 24) && (k = add_cache(info, 1, 2, kib << 10, LEAF_AMD_L1)))
			k->shared_known = k->smt_private = amd;
	}
	if (info->max_ext >= LEAF_AMD_L2L3) {
		err = q(ctx, LEAF_AMD_L2L3, 0, &r);
		if (err)
			return err;
		kib = r.ecx >> 16;
		if (kib && ((r.ecx >> 12) & 0xf) && (k = add_cache(info, 2, 3, kib << 10,
								    LEAF_AMD_L2L3)))
			k->shared_known = k->smt_private = amd;
		kib = (uint64_t)(r.edx >> 18) * 512;
		if (kib && ((r.edx >> 12) & 0xf))
			add_cache(info, 3, 3, kib << 10, LEAF_AMD_L2L3);
	}
	return 0;
}

/* Leaf 0xB's x2APIC id when the leaf is valid, else 0x8000001E's with topoext, else leaf 1's. */
static int decode_apic(cpuid_query_fn q, void *ctx, struct cpuid_info *info)
{
	struct cpuid_regs r;
	int err;

	if (info->max_basic >= LEAF_EXT_TOPO) {
		err = q(ctx, LEAF_EXT_TOPO, 0, &r);
		if (err)
			return err;
		if (r.ebx != 0) {
			info->apic_id = r.edx;
			info->apic_leaf = LEAF_EXT_TOPO;
			return 0;
		}
	}
	if (info->topoext && info->max_ext >= LEAF_AMD_APIC) {
		err = q(ctx, LEAF_AMD_APIC, 0, &r);
		if (err)
			return err;
		info->apic_id = r.eax;
		info->apic_leaf = LEAF_AMD_APIC;
		return 0;
	}
	if (info->max_basic >= 1) {
		err = q(ctx, 1, 0, &r);
		if (err)
			return err;
		info->apic_id = r.ebx >> 24;
		info->apic_leaf = 1;
	}
	return 0;
}

int cpuid_decode(cpuid_query_fn q, void *ctx, struct cpuid_info *info)
{
	struct cpuid_regs r;
	int err;

	memset(info, 0, sizeof(*info));
	err = q(ctx, 0, 0, &r);
	if (err)
		goto out;
	info->max_basic = r.eax;
	memcpy(info->vendor, &r.ebx, 4);
	memcpy(info->vendor + 4, &r.edx, 4);
	memcpy(info->vendor + 8, &r.ecx, 4);
	info->vendor[12] = '\0';
	err = q(ctx, LEAF_EXT_MAX, 0, &r);
	if (err)
		goto out;
	/* Parts without extended leaves echo something else here; only 0x8000xxxx counts. */
	info->max_ext = (r.eax & 0xffff0000) == LEAF_EXT_MAX ? r.eax : 0;
	if (info->max_ext >= LEAF_EXT_FEATURES) {
		err = q(ctx, LEAF_EXT_FEATURES, 0, &r);
		if (err)
			goto out;
		info->topoext = r.ecx & TOPOEXT_BIT;
	}
	err = decode_apic(q, ctx, info);
	if (err)
		goto out;
	if (info->max_basic >= LEAF_HYBRID) {
		err = q(ctx, LEAF_HYBRID, 0, &r);
		if (err)
			goto out;
		if ((r.eax >> 24) == CPUID_CORE_ATOM || (r.eax >> 24) == CPUID_CORE_CORE)
			info->core_type = (enum cpuid_core_type)(r.eax >> 24);
	}
	/* The first source that lists a cache wins, in the order Linux prefers them. */
	if (info->max_basic >= LEAF_CACHE)
		err = decode_deterministic(q, ctx, LEAF_CACHE, info);
	if (!err && !info->ncache && info->topoext && info->max_ext >= LEAF_AMD_CACHE)
		err = decode_deterministic(q, ctx, LEAF_AMD_CACHE, info);
	if (!err && !info->ncache)
		err = decode_legacy(q, ctx, info);
	if (!err && !info->ncache && !info->why[0])
		snprintf(info->why, sizeof(info->why), "CPUID lists no cache (max basic leaf "
			 "0x%x, max extended leaf 0x%x, leaf 4 and 0x8000001D empty or absent)",
			 info->max_basic, info->max_ext);
	if (!err && info->ncache)
		info->why[0] = '\0';	/* a later leaf listed what an earlier one did not */
out:
	if (err) {
		info->ncache = 0;
		snprintf(info->why, sizeof(info->why), "CPUID could not be asked: %s",
			 strerror(-err));
		return err;
	}
	return info->ncache;
}

uint32_t cpuid_share_id(uint32_t apic_id, int nsharing)
{
	int shift = 0;

	while (shift < 31 && (1 << shift) < nsharing)
		shift++;
	return apic_id >> shift;
}

/* CPUID on the CPU the caller runs on; -EOPNOTSUPP off x86. */
static int cpuid_query_native(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	(void)ctx;
#if HAVE_CPUID
	__asm__ volatile("cpuid"
			 : "=a"(r->eax), "=b"(r->ebx), "=c"(r->ecx), "=d"(r->edx)
			 : "0"(leaf), "2"(subleaf));
	return 0;
#else
	(void)leaf;
	(void)subleaf;
	memset(r, 0, sizeof(*r));
	return -EOPNOTSUPP;
#endif
}

#if HAVE_CPUID
int cpuid_read_cpus(const struct cpu_set_list *cpus, struct cpuid_info *out)
{
	cpu_set_t saved, one;
	int n = 0, err = 0;

	if (sched_getaffinity(0, sizeof(saved), &saved)) {
		err = -errno;
		for (int i = 0; i < cpus->n; i++) {
			memset(&out[i], 0, sizeof(out[i]));
			snprintf(out[i].why, sizeof(out[i].why), "CPUID was not read: the "
				 "calling thread's affinity is unreadable (%s)", strerror(-err));
		}
		return err;
	}
	for (int i = 0; i < cpus->n; i++) {
		int cpu = cpus->cpu[i];

		memset(&out[i], 0, sizeof(out[i]));
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		/* CPUID answers for the CPU it runs on: the thread must be there first. */
		if (sched_setaffinity(0, sizeof(one), &one)) {
			snprintf(out[i].why, sizeof(out[i].why), "CPUID could not run on CPU %d: "
				 "sched_setaffinity: %s", cpu, strerror(errno));
			continue;
		}
		if (sched_getcpu() != cpu) {
			snprintf(out[i].why, sizeof(out[i].why), "CPUID could not run on CPU %d: "
				 "the thread is still on CPU %d after pinning", cpu,
				 sched_getcpu());
			continue;
		}
		if (cpuid_decode(cpuid_query_native, NULL, &out[i]) >= 0)
			n++;
	}
	if (sched_setaffinity(0, sizeof(saved), &saved)) {
		err = -errno;
		fprintf(stderr, "migtrace: cannot restore the CPU affinity after reading CPUID: "
			"%s\n", strerror(-err));
		return err;
	}
	return n;
}
#else
int cpuid_read_cpus(const struct cpu_set_list *cpus, struct cpuid_info *out)
{
	for (int i = 0; i < cpus->n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		snprintf(out[i].why, sizeof(out[i].why),
			 "CPUID is not available on this architecture");
	}
	return -EOPNOTSUPP;
}
#endif
