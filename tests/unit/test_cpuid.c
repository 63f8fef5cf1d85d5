// SPDX-License-Identifier: GPL-2.0
/*
 * CPUID decoding on recorded register tables: Intel leaf 4, AMD with topology extensions
 * (two CCXs), AMD's legacy leaves (this project's VM, register for register), Intel hybrid,
 * and tables that describe no cache or make no sense.  The sharing masks are checked through
 * the topology they are applied to, against fake sysfs trees without caches.
 */
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "calibrate.h"
#include "cpuid.h"
#include "fake_sysfs.h"
#include "topology.h"

#define ANY_SUB 0xffffffffu
#define FAKE_MAX 64

/* One CPU's answers; leaves not listed read as zeros, as reserved leaves do. */
struct fake_cpu {
	int n;
	bool fail;		/* every query fails, as a CPU that cannot be asked */
	struct {
		uint32_t leaf, sub;
		struct cpuid_regs r;
	} e[FAKE_MAX];
};

static void put(struct fake_cpu *c, uint32_t leaf, uint32_t sub, uint32_t a, uint32_t b,
		uint32_t cx, uint32_t d)
{
	assert_true(c->n < FAKE_MAX);
	c->e[c->n].leaf = leaf;
	c->e[c->n].sub = sub;
	c->e[c->n].r = (struct cpuid_regs){ a, b, cx, d };
	c->n++;
}

static int fake_query(void *ctx, uint32_t leaf, uint32_t sub, struct cpuid_regs *r)
{
	const struct fake_cpu *c = ctx;

	if (c->fail)
		return -EIO;
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < c->n; i++) {
		if (c->e[i].leaf == leaf && (c->e[i].sub == sub || c->e[i].sub == ANY_SUB)) {
			*r = c->e[i].r;
			break;
		}
	}
	return 0;
}

/* Leaf 0: the highest basic leaf and the vendor in EBX, EDX, ECX. */
static void put_vendor(struct fake_cpu *c, uint32_t max_basic, const char *v)
{
	uint32_t w[3];

	memcpy(w, v, 12);
	put(c, 0, 0, max_basic, w[0], w[2], w[1]);
}

/* A leaf 4 / 0x8000001D subleaf; type 1 data, 2 instruction, 3 unified. */
static void put_det(struct fake_cpu *c, uint32_t leaf, uint32_t sub, int type, int level,
		    int nsharing, int ways, int line, int sets)
{
	put(c, leaf, sub, (uint32_t)type | (uint32_t)level << 5 | (uint32_t)(nsharing - 1) << 14,
	    (uint32_t)(ways - 1) << 22 | (uint32_t)(line - 1), (uint32_t)(sets - 1), 0);
}

static void decode_all(struct fake_cpu *fc, int n, struct cpuid_info *info)
{
	for (int i = 0; i < n; i++)
		assert_true(cpuid_decode(fake_query, &fc[i], &info[i]) >= 0);
}

static struct cpu_set_list first_n(int n)
{
	struct cpu_set_list l = { 0 };

	for (int i = 0; i < n; i++)
		l.cpu[l.n++] = i;
	return l;
}

/* A 2004 result over cpus whose robust cells are cheap within `group` and dear across. */
static struct calibration *two_class_result(int n, int group)
{
	struct calibration *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	r->method = CALIB_2004;
	r->cpus = first_n(n);
	assert_int_equal(calib_alloc_cells(r, n), 0);
	for (int i = 0; i < n * n; i++) {
		r->cells[i].src_cpu = i / n;
		r->cells[i].dst_cpu = i % n;
		r->cells[i].robust_ns = (i / n) / group == (i % n) / group ? 100000 : 300000;
	}
	return r;
}

static void free_result(struct calibration *r)
{
	calib_free(r);
	free(r);
}

/* Intel, leaf 4: 2 cores x SMT2, per-core L1/L2, one L3 for all. */
static void intel_leaf4(void **state)
{
	struct fake_cpu fc[4] = { 0 };
	struct cpuid_info info[4];
	struct cpu_set_list cpus = first_n(4);
	const struct topo_cache *k;
	char *root = fs_tempdir(), buf[64];
	struct topology t;

	(void)state;
	for (int i = 0; i < 4; i++) {
		put_vendor(&fc[i], 0x16, "GenuineIntel");
		put(&fc[i], 0x80000000, 0, 0x80000008, 0, 0, 0);
		put(&fc[i], 0xB, 0, 1, 2, 0x100, (uint32_t)i);	/* EBX != 0: valid, EDX = APIC id */
		put_det(&fc[i], 4, 0, 1, 1, 2, 12, 64, 64);		/* L1d 48K */
		put_det(&fc[i], 4, 1, 2, 1, 2, 8, 64, 64);		/* L1i 32K */
		put_det(&fc[i], 4, 2, 3, 2, 2, 10, 64, 2048);	/* L2 1.25M */
		put_det(&fc[i], 4, 3, 3, 3, 64, 12, 64, 40960);	/* L3 30M, 64 ids */
		/* Intel's 0x80000006 also has an L2; leaf 4 wins, as in Linux. */
		put(&fc[i], 0x80000006, 0, 0, 0, 0x05006040, 0);
	}
	decode_all(fc, 4, info);
	assert_string_equal(info[0].vendor, "GenuineIntel");
	assert_int_equal(info[0].ncache, 4);
	assert_int_equal(info[0].cache[0].size_bytes, 48 * 1024);
	assert_string_equal(info[0].cache[0].type, "Data");
	assert_string_equal(info[0].cache[1].type, "Instruction");
	assert_int_equal(info[0].cache[2].size_bytes, 1280 * 1024);
	assert_int_equal(info[0].cache[2].leaf, 4);
	assert_int_equal(info[0].cache[3].size_bytes, 30ULL << 20);
	assert_int_equal(info[0].cache[3].nsharing, 64);
	assert_true(info[0].cache[3].shared_known);
	assert_int_equal(info[3].apic_id, 3);
	assert_int_equal(info[3].apic_leaf, 0xB);

	make_tree_nocache(root, 4, 2);
	assert_int_equal(topology_read(root, &t), 0);
	topology_apply_cpuid(&t, &cpus, info, true);
	assert_string_equal(topology_cache_source(&t), "cpuid");
	k = topology_percore_cache(&t, 2);
	assert_int_equal(k->size_bytes, 1280 * 1024);
	assert_int_equal(k->source, TOPO_SRC_CPUID);
	assert_string_equal(topo_mask_format(&t, &k->shared, buf, sizeof(buf)), "2-3");
	assert_string_equal(topology_cache_scope(&t, 2, k), "per-core");
	k = topology_llc(&t, 1);
	assert_string_equal(topo_mask_format(&t, &k->shared, buf, sizeof(buf)), "0-3");
	assert_true(topology_share_llc(&t, 0, 3));
	assert_false(t.hybrid);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

/*
 * AMD with topoext, two CCXs of 4 cores x SMT2: 0x8000001D lists the L3 as shared by 8
 * APIC ids, so CPUs 0-7 and 8-15 are two LLC groups; the masks equal what a sysfs tree of
 * the same machine lists, and the calibration's grouping compares with them.
 */
static void amd_topoext_two_ccx(void **state)
{
	struct fake_cpu fc[16] = { 0 };
	struct cpuid_info info[16];
	struct cpu_set_list cpus = first_n(16);
	char *root = fs_tempdir(), *sroot = fs_tempdir(), a[64], b[64];
	struct topology t, s;
	struct calibration *r;

	(void)state;
	for (int i = 0; i < 16; i++) {
		put_vendor(&fc[i], 0x10, "AuthenticAMD");
		put(&fc[i], 0x80000000, 0, 0x80000021, 0, 0, 0);
		put(&fc[i], 0x80000001, 0, 0, 0, 1u << 22, 0);		/* topoext */
		put(&fc[i], 0x8000001E, 0, (uint32_t)i, 0x100, 0, 0);	/* EAX = APIC id */
		put(&fc[i], 1, 0, 0, 0xff000000, 0, 0);			/* leaf 1 would say 255 */
		put_det(&fc[i], 0x8000001D, 0, 1, 1, 2, 8, 64, 64);
		put_det(&fc[i], 0x8000001D, 1, 2, 1, 2, 8, 64, 64);
		put_det(&fc[i], 0x8000001D, 2, 3, 2, 2, 8, 64, 1024);
		put_det(&fc[i], 0x8000001D, 3, 3, 3, 8, 16, 64, 16384);
		/* The legacy leaves say otherwise (a 32M L3); 0x8000001D wins. */
		put(&fc[i], 0x80000006, 0, 0, 0, 0x02006140, 0x00406140);
	}
	decode_all(fc, 16, info);
	assert_true(info[5].topoext);
	assert_int_equal(info[5].apic_id, 5);
	assert_int_equal(info[5].apic_leaf, 0x8000001E);
	assert_int_equal(info[5].ncache, 4);
	assert_int_equal(info[5].cache[3].size_bytes, 16ULL << 20);
	assert_int_equal(info[5].cache[3].leaf, 0x8000001D);

	make_tree_amd_ccx(root, false);
	make_tree_amd_ccx(sroot, true);
	assert_int_equal(topology_read(root, &t), 0);
	assert_int_equal(topology_read(sroot, &s), 0);
	topology_apply_cpuid(&t, &cpus, info, true);
	for (int cpu = 0; cpu < 16; cpu++) {
		assert_int_equal(t.cpu[cpu].ncache, s.cpu[cpu].ncache);
		for (int i = 0; i < t.cpu[cpu].ncache; i++) {
			assert_int_equal(t.cpu[cpu].cache[i].size_bytes,
					 s.cpu[cpu].cache[i].size_bytes);
			assert_string_equal(topo_mask_format(&t, &t.cpu[cpu].cache[i].shared, a, sizeof(a)),
					    topo_mask_format(&s, &s.cpu[cpu].cache[i].shared, b, sizeof(b)));
		}
	}
	assert_true(topology_share_llc(&t, 8, 15));
	assert_false(topology_share_llc(&t, 7, 8));
	assert_int_equal(topology_distance(&t, 0, 1), 0);
	assert_int_equal(topology_distance(&t, 0, 7), 1);
	assert_int_equal(topology_distance(&t, 0, 8), 2);

	r = two_class_result(16, 8);
	calib_note_llc(r, &t);
	calib_group(r);
	assert_true(r->llc.known);
	assert_string_equal(r->llc.source, "CPUID");
	assert_int_equal(r->groups.ngroups, 2);
	assert_int_equal(r->llc.ngroups, 2);
	assert_true(r->groups.agree);
	/* Measured groups of 4 differ from the CCXs of 8. */
	free_result(r);
	r = two_class_result(16, 4);
	calib_note_llc(r, &t);
	calib_group(r);
	assert_int_equal(r->groups.ngroups, 4);
	assert_false(r->groups.agree);
	free_result(r);
	topology_free(&t);
	topology_free(&s);
	fs_rmtree(root);
	fs_rmtree(sroot);
	free(root);
	free(sroot);
}

/* This project's VM: AMD family 0x1a without topoext, leaf 4 and 0x8000001D empty. */
static void amd_legacy_put(struct fake_cpu *c, uint32_t leaf1_ebx)
{
	put_vendor(c, 0xd, "AuthenticAMD");
	put(c, 0x80000000, 0, 0x80000021, 0, 0, 0);
	put(c, 0x80000001, 0, 0x00b20f40, 0, 0x440001f1, 0x2fd3fbff);
	put(c, 1, 0, 0x00b20f40, leaf1_ebx, 0xfef83203, 0x178bfbff);
	put(c, 0x80000005, 0, 0xff60ff40, 0xff60ff40, 0x300c0140, 0x20080140);
	put(c, 0x80000006, 0, 0x40802040, 0x60804040, 0x04006140, 0x0fe09140);
}

static void amd_legacy_this_vm(void **state)
{
	struct fake_cpu fc[2] = { 0 };
	struct cpuid_info info[2];
	struct cpu_set_list cpus = first_n(2);
	const struct topo_cache *k;
	char *root = fs_tempdir(), *sum, why[200], buf[64];
	struct topo_choice ch;
	struct calibration *r;
	struct topology t;

	(void)state;
	amd_legacy_put(&fc[0], 0x27fe0800);
	amd_legacy_put(&fc[1], 0xbdfe0800);
	decode_all(fc, 2, info);
	assert_false(info[0].topoext);
	assert_int_equal(info[0].apic_id, 39);
	assert_int_equal(info[1].apic_id, 189);
	assert_int_equal(info[1].apic_leaf, 1);
	assert_int_equal(info[0].ncache, 4);
	assert_int_equal(info[0].cache[0].level, 1);
	assert_string_equal(info[0].cache[0].type, "Data");
	assert_int_equal(info[0].cache[0].size_bytes, 48 * 1024);
	assert_string_equal(info[0].cache[1].type, "Instruction");
	assert_int_equal(info[0].cache[1].size_bytes, 32 * 1024);
	assert_int_equal(info[0].cache[2].level, 2);
	assert_int_equal(info[0].cache[2].size_bytes, 1 << 20);
	assert_true(info[0].cache[2].smt_private);
	assert_int_equal(info[0].cache[3].level, 3);
	assert_int_equal(info[0].cache[3].size_bytes, 0x3f8ULL * 512 * 1024);	/* 508 MiB */
	assert_false(info[0].cache[3].shared_known);
	assert_int_equal(info[0].cache[3].leaf, 0x80000006);

	make_tree_nocache(root, 2, 1);
	assert_int_equal(topology_read(root, &t), 0);
	topology_apply_cpuid(&t, &cpus, info, true);
	k = topology_percore_cache(&t, 1);
	assert_int_equal(k->level, 2);
	assert_int_equal(k->size_bytes, 1 << 20);
	assert_string_equal(topo_mask_format(&t, &k->shared, buf, sizeof(buf)), "1");
	assert_string_equal(topology_cache_scope(&t, 1, k), "per-core");
	k = topology_llc(&t, 0);
	assert_int_equal(k->size_bytes, 508ULL << 20);
	assert_false(k->shared_known);
	assert_string_equal(topology_cache_scope(&t, 0, k), "sharing unknown");
	assert_false(topology_llc_known(&t, 0, why, sizeof(why)));
	assert_string_equal(why, "CPUID 0x80000006 gives no sharing");
	assert_false(topology_share_llc(&t, 0, 1));
	assert_false(topology_share_llc(&t, 0, 0));
	assert_int_equal(topology_distance(&t, 0, 1), 0);
	assert_int_equal(topology_calib_cache(&t, 0, 0, NULL, "test", &ch), 0);
	assert_string_equal(ch.source, "cpuid");
	assert_string_equal(ch.what, "L2 Unified 1 MiB of CPU 0 (from CPUID leaf 0x80000006: "
			    "sysfs lists no caches), the largest per-core cache");
	sum = fs_summary(&t);
	assert_non_null(strstr(sum, "  L2 Unified     1 MiB, shared by CPUs 0 (CPUID leaf "
			       "0x80000006)\n"));
	assert_non_null(strstr(sum, "  L3 Unified     508 MiB, sharing unknown (CPUID leaf "
			       "0x80000006, which gives no sharing)\n"));
	free(sum);

	/* No LLC grouping is claimed, whatever the measurement shows. */
	r = two_class_result(2, 2);
	calib_note_llc(r, &t);
	calib_group(r);
	assert_false(r->llc.known);
	assert_int_equal(r->llc.ngroups, 0);
	assert_false(r->groups.agree);
	assert_string_equal(r->llc.why, "CPUID 0x80000006 gives no sharing");
	free_result(r);
	topology_free(&t);
	fs_rmtree(root);

	/* With SMT, the legacy L1 and L2 belong to the core: both threads share them. */
	make_tree_nocache(root, 2, 2);
	assert_int_equal(topology_read(root, &t), 0);
	topology_apply_cpuid(&t, &cpus, info, true);
	k = topology_percore_cache(&t, 0);
	assert_string_equal(topo_mask_format(&t, &k->shared, buf, sizeof(buf)), "0-1");
	assert_string_equal(topology_cache_scope(&t, 0, k), "per-core");
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

/*
 * Intel hybrid: P-cores (CPUs 0-3, APIC 0,1,8,9) with a private L2, E-cores (CPUs 4-7, APIC
 * 0x40-0x46) whose 4M L2 leaf 4 says 8 ids share: the four E-cores of the cluster.
 */
static void intel_hybrid(void **state)
{
	static const uint32_t apic[8] = { 0, 1, 8, 9, 0x40, 0x42, 0x44, 0x46 };
	struct fake_cpu fc[8] = { 0 };
	struct cpuid_info info[8];
	struct cpu_set_list cpus = first_n(8);
	const struct topo_cache *k;
	char *root = fs_tempdir(), *sum, buf[64];
	struct topo_choice ch;
	struct topology t;

	(void)state;
	for (int i = 0; i < 8; i++) {
		bool p = i < 4;

		put_vendor(&fc[i], 0x20, "GenuineIntel");
		put(&fc[i], 0x80000000, 0, 0x80000008, 0, 0, 0);
		put(&fc[i], 0xB, 0, 1, p ? 2 : 1, 0x100, apic[i]);
		put(&fc[i], 0x1A, 0, p ? 0x40000001 : 0x20000001, 0, 0, 0);
		put_det(&fc[i], 4, 0, 1, 1, p ? 2 : 1, p ? 12 : 8, 64, 64);
		put_det(&fc[i], 4, 1, 2, 1, p ? 2 : 1, 8, 64, p ? 64 : 128);
		put_det(&fc[i], 4, 2, 3, 2, p ? 2 : 8, p ? 10 : 16, 64, p ? 2048 : 4096);
		put_det(&fc[i], 4, 3, 3, 3, 128, 12, 64, 32768);
	}
	decode_all(fc, 8, info);
	assert_int_equal(info[0].core_type, CPUID_CORE_CORE);
	assert_int_equal(info[6].core_type, CPUID_CORE_ATOM);
	assert_int_equal(info[6].cache[2].size_bytes, 4ULL << 20);

	/* The tree: P-cores in SMT pairs, E-cores in one cluster; no PMU dirs, no caches. */
	fs_write(root, "devices/system/cpu/online", "0-7");
	for (int cpu = 0; cpu < 8; cpu++) {
		char sib[32];

		fs_range(sib, sizeof(sib), cpu < 4 ? cpu / 2 * 2 : cpu, cpu < 4 ? 2 : 1);
		fs_cpu(root, cpu, cpu < 4 ? cpu / 2 : cpu, 0, sib);
		fs_cluster(root, cpu, cpu < 4 ? sib : "4-7");
	}
	assert_int_equal(topology_read(root, &t), 0);
	assert_false(t.hybrid);
	topology_apply_cpuid(&t, &cpus, info, true);
	assert_true(t.hybrid);
	assert_int_equal(t.cpu[1].core_type, TOPO_CORE_P);
	assert_int_equal(t.cpu[4].core_type, TOPO_CORE_E);
	k = topology_percore_cache(&t, 5);
	assert_int_equal(k->level, 2);
	assert_int_equal(k->size_bytes, 4ULL << 20);
	assert_string_equal(topo_mask_format(&t, &k->shared, buf, sizeof(buf)), "4-7");
	assert_string_equal(topology_cache_scope(&t, 5, k), "per-cluster");
	k = topology_percore_cache(&t, 2);
	assert_int_equal(k->size_bytes, 1280 * 1024);
	assert_string_equal(topo_mask_format(&t, &k->shared, buf, sizeof(buf)), "2-3");
	assert_true(topology_share_llc(&t, 0, 7));
	assert_int_equal(topology_calib_cache(&t, 6, 0, NULL, "test", &ch), 0);
	assert_string_equal(ch.what, "L2 Unified 4 MiB of CPU 6 (from CPUID leaf 0x4: sysfs lists "
			    "no caches), the largest per-cluster cache (shared by CPUs 4-7)");
	sum = fs_summary(&t);
	assert_non_null(strstr(sum, "; P-cores 0-3, E-cores 4-7\n"));
	assert_non_null(strstr(sum, "  L2 Unified     4 MiB, shared by CPUs 4-7 (CPUID leaf 0x4; "
			       "E-core CPU 4)\n"));
	free(sum);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

/* Tables that list no cache, or nonsense, give no cache: never a made-up size. */
static void malformed_tables(void **state)
{
	struct fake_cpu zero = { 0 }, rep = { 0 }, resv = { 0 }, off = { 0 }, intel = { 0 };
	struct fake_cpu dead = { .fail = true }, noext = { 0 };
	struct cpu_set_list cpus = first_n(1);
	struct cpuid_info info;
	char *root = fs_tempdir();
	struct topo_choice ch;
	struct topology t;

	(void)state;
	assert_int_equal(cpuid_decode(fake_query, &zero, &info), 0);
	assert_int_equal(info.ncache, 0);
	assert_int_equal(info.apic_leaf, 0);
	assert_non_null(strstr(info.why, "CPUID lists no cache"));

	/* A hypervisor answering every subleaf of leaf 4 alike. */
	put_vendor(&rep, 0xd, "GenuineIntel");
	put_det(&rep, 4, ANY_SUB, 1, 1, 1, 8, 64, 64);
	assert_int_equal(cpuid_decode(fake_query, &rep, &info), 0);
	assert_non_null(strstr(info.why, "lists L1 Data twice"));

	/* Only reserved types, never the end marker. */
	put_vendor(&resv, 0xd, "GenuineIntel");
	put(&resv, 4, ANY_SUB, 0x25, 0, 0, 0);
	assert_int_equal(cpuid_decode(fake_query, &resv, &info), 0);
	assert_non_null(strstr(info.why, "no end marker"));

	/* AMD legacy with the L2 disabled (associativity 0) and no L3: only the L1s. */
	put_vendor(&off, 0xd, "AuthenticAMD");
	put(&off, 0x80000000, 0, 0x80000008, 0, 0, 0);
	put(&off, 0x80000005, 0, 0, 0, 0x40020140, 0x40020140);
	put(&off, 0x80000006, 0, 0, 0, 0x02000140, 0);
	assert_int_equal(cpuid_decode(fake_query, &off, &info), 2);
	assert_int_equal(info.cache[0].size_bytes, 64 * 1024);
	assert_int_equal(info.cache[1].level, 1);

	/* An extended maximum that is no 0x8000xxxx value: no extended leaf is read. */
	put_vendor(&noext, 0x1, "AuthenticAMD");
	put(&noext, 0x80000000, 0, 0x00000d0d, 0, 0, 0);
	put(&noext, 0x80000006, 0, 0, 0, 0x04006140, 0x0fe09140);
	assert_int_equal(cpuid_decode(fake_query, &noext, &info), 0);
	assert_int_equal(info.max_ext, 0);

	assert_int_equal(cpuid_decode(fake_query, &dead, &info), -EIO);
	assert_int_equal(info.ncache, 0);
	assert_non_null(strstr(info.why, "CPUID could not be asked"));

	/* The tree gets the reason, and calibration asks for --size. */
	make_tree_nocache(root, 1, 1);
	assert_int_equal(topology_read(root, &t), 0);
	assert_int_equal(cpuid_decode(fake_query, &zero, &info), 0);
	topology_apply_cpuid(&t, &cpus, &info, true);
	assert_int_equal(t.cpu[0].ncache, 0);
	assert_non_null(strstr(t.cpu[0].nocache_why, "CPUID lists no cache"));
	assert_int_equal(topology_calib_cache(&t, 0, 0, NULL, "test", &ch), -ENOENT);

	/*
	 * Intel without leaf 4: 0x80000006's L2 has a size but no sharing, so nothing is
	 * called per-core; the calibration falls back to it as the LLC and says so.
	 */
	put_vendor(&intel, 0xd, "GenuineIntel");
	put(&intel, 0x80000000, 0, 0x80000008, 0, 0, 0);
	put(&intel, 0x80000006, 0, 0, 0, 0x01006040, 0);
	assert_int_equal(cpuid_decode(fake_query, &intel, &info), 1);
	assert_false(info.cache[0].shared_known);
	topology_apply_cpuid(&t, &cpus, &info, true);
	assert_null(topology_percore_cache(&t, 0));
	assert_int_equal(topology_calib_cache(&t, 0, 0, NULL, "test", &ch), 0);
	assert_int_equal(ch.size_bytes, 256 * 1024);
	assert_string_equal(ch.what, "L2 Unified 256 KiB of CPU 0 (from CPUID leaf 0x80000006: "
			    "sysfs lists no caches), the last-level cache (sharing unknown; none "
			    "is known to be per-core)");
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

static void share_id(void **state)
{
	(void)state;
	assert_int_equal(cpuid_share_id(39, 1), 39);
	assert_int_equal(cpuid_share_id(39, 2), 19);
	assert_int_equal(cpuid_share_id(0x46, 8), 8);
	assert_int_equal(cpuid_share_id(9, 8), 1);
	assert_int_equal(cpuid_share_id(7, 3), 1);	/* 3 ids round up to 4: shift 2 */
	assert_int_equal(cpuid_share_id(7, 5), 0);
}

/*
 * The real instruction on one CPU we may run on: whatever this machine's caches are, the
 * thread's affinity is what it was, and every size listed is a whole number of KiB.
 */
static void native_read_restores_affinity(void **state)
{
	cpu_set_t before, after;
	struct cpu_set_list one = { 0 };
	struct cpuid_info info;
	int n;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(before), &before), 0);
	for (int cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--)
		if (CPU_ISSET(cpu, &before))
			one.cpu[0] = cpu;
	one.n = 1;
	n = cpuid_read_cpus(&one, &info);
	assert_int_equal(sched_getaffinity(0, sizeof(after), &after), 0);
	assert_true(CPU_EQUAL(&before, &after));
#if defined(__x86_64__) || defined(__i386__)
	assert_int_equal(n, 1);
	assert_true(info.max_basic > 0);
	for (int i = 0; i < info.ncache; i++) {
		assert_true(info.cache[i].size_bytes >= 1024);
		assert_int_equal(info.cache[i].size_bytes % 1024, 0);
	}
	assert_true(info.ncache > 0 || info.why[0]);
#else
	assert_int_equal(n, -EOPNOTSUPP);
	assert_string_equal(info.why, "CPUID is not available on this architecture");
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(intel_leaf4),
		cmocka_unit_test(amd_topoext_two_ccx),
		cmocka_unit_test(amd_legacy_this_vm),
		cmocka_unit_test(intel_hybrid),
		cmocka_unit_test(malformed_tables),
		cmocka_unit_test(share_id),
		cmocka_unit_test(native_read_restores_affinity),
	};

	return cmocka_run_group_tests_name("cpuid", tests, NULL, NULL);
}
