// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fake_sysfs.h"
#include "topology.h"

static void two_cpu_machine(void **state)
{
	char *root = fs_tempdir();
	const struct topo_cache *k;
	struct topology t;

	(void)state;
	make_tree_2cpu(root);
	assert_int_equal(topology_read(root, &t), 0);
	assert_int_equal(t.online.n, 2);
	assert_int_equal(t.max_cpu, 1);
	assert_int_equal(t.cpu[1].core_id, 1);
	assert_int_equal(t.cpu[1].ncache, 4);
	k = topology_percore_cache(&t, 0);
	assert_non_null(k);
	assert_int_equal(k->level, 2);
	assert_int_equal(k->size_bytes, 512 * 1024);
	k = topology_llc(&t, 1);
	assert_int_equal(k->level, 3);
	assert_int_equal(k->size_bytes, 32ULL << 20);
	assert_true(topology_share_llc(&t, 0, 1));
	assert_false(topology_smt_siblings(&t, 0, 1));
	assert_int_equal(topology_cache_level(&t, 0, 1)->size_bytes, 32 * 1024);
	assert_null(topology_cache_level(&t, 0, 4));
	/* SMT does not exist here; LLC is the first level: 0 and 1 are at distance 0. */
	assert_int_equal(topology_distance(&t, 0, 1), 0);
	assert_int_equal(t.cpu[0].node, 0);
	assert_int_equal(t.cpu_mhz, -1);	/* no cpufreq in the fake tree */
	/* Every cache says where it came from; a test tree never gets CPUID's. */
	k = topology_percore_cache(&t, 0);
	assert_int_equal(k->source, TOPO_SRC_SYSFS);
	assert_true(k->shared_known);
	assert_string_equal(topology_cache_scope(&t, 0, k), "per-core");
	assert_string_equal(topology_cache_source(&t), "sysfs");
	assert_true(topology_llc_known(&t, 1, NULL, 0));
	assert_false(t.hybrid);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

static void two_socket_smt(void **state)
{
	char *root = fs_tempdir();
	const struct topo_cache *k;
	struct topology t;

	(void)state;
	make_tree_2socket(root);
	assert_int_equal(topology_read(root, &t), 0);
	assert_int_equal(t.online.n, 7);	/* CPU 7 is offline */
	assert_false(t.cpu[7].online);
	assert_true(t.cpu[7].present);
	k = topology_percore_cache(&t, 4);
	assert_int_equal(k->level, 2);		/* shared by SMT siblings only: per-core */
	assert_int_equal(k->size_bytes, 256 * 1024);
	assert_int_equal(topology_llc(&t, 4)->size_bytes, 8ULL << 20);
	assert_true(topology_smt_siblings(&t, 0, 1));
	assert_false(topology_smt_siblings(&t, 1, 2));
	assert_true(topology_share_llc(&t, 1, 2));
	assert_false(topology_share_llc(&t, 3, 4));
	assert_int_equal(t.cpu[5].package_id, 1);
	assert_int_equal(t.cpu[5].node, 1);
	/* SMT = 0, LLC (= package = node) = 1, machine = 2. */
	assert_int_equal(topology_distance(&t, 0, 1), 0);
	assert_int_equal(topology_distance(&t, 0, 2), 1);
	assert_int_equal(topology_distance(&t, 0, 4), 2);
	assert_int_equal(topology_distance(&t, 6, 3), 2);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

/* AMD with two CCXs: the L3 is per CCX, so there are two LLC groups. */
static void amd_ccx_machine(void **state)
{
	char *root = fs_tempdir(), *sum;
	const struct topo_cache *k;
	struct topo_choice ch;
	struct topology t;

	(void)state;
	make_tree_amd_ccx(root, true);
	assert_int_equal(topology_read(root, &t), 0);
	assert_int_equal(t.online.n, 16);
	k = topology_percore_cache(&t, 5);
	assert_int_equal(k->level, 2);
	assert_int_equal(k->size_bytes, 512 * 1024);
	assert_string_equal(topology_cache_scope(&t, 5, k), "per-core");
	k = topology_llc(&t, 5);
	assert_int_equal(k->size_bytes, 16ULL << 20);
	assert_string_equal(topology_cache_scope(&t, 5, k), "shared");
	assert_true(topology_share_llc(&t, 0, 7));
	assert_true(topology_share_llc(&t, 15, 8));
	assert_false(topology_share_llc(&t, 7, 8));
	assert_false(topology_share_llc(&t, 0, 15));
	/* SMT = 0, CCX (the LLC) = 1, the package = 2; no NUMA level (one node). */
	assert_int_equal(topology_distance(&t, 0, 1), 0);
	assert_int_equal(topology_distance(&t, 0, 6), 1);
	assert_int_equal(topology_distance(&t, 9, 14), 1);
	assert_int_equal(topology_distance(&t, 0, 8), 2);
	assert_int_equal(topology_distance(&t, 7, 15), 2);
	assert_int_equal(topology_calib_cache(&t, 0, 0, NULL, "test", &ch), 0);
	assert_int_equal(ch.size_bytes, 512 * 1024);
	assert_string_equal(ch.source, "sysfs");
	assert_string_equal(ch.what, "L2 Unified 512 KiB of CPU 0 (from sysfs), the largest "
			    "per-core cache");
	sum = fs_summary(&t);
	assert_non_null(strstr(sum, "16 online CPUs (0-15), 8 cores, 1 package, 2 threads per "
			       "core\n"));
	assert_non_null(strstr(sum, "  L3 Unified     16 MiB, shared by CPUs 0-7 (sysfs)\n"));
	free(sum);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

/*
 * Intel hybrid: an E-core's L2 is shared by its cluster of four, so the cache to calibrate
 * against is that L2 (per-cluster), not the E-core's own L1d; a P-core's is its own L2.
 */
static void hybrid_machine(void **state)
{
	char *root = fs_tempdir(), *sum;
	const struct topo_cache *k;
	struct topo_choice ch;
	struct topology t;

	(void)state;
	make_tree_hybrid(root, true);
	assert_int_equal(topology_read(root, &t), 0);
	assert_true(t.hybrid);
	assert_int_equal(t.cpu[0].core_type, TOPO_CORE_P);
	assert_int_equal(t.cpu[7].core_type, TOPO_CORE_P);
	assert_int_equal(t.cpu[8].core_type, TOPO_CORE_E);
	assert_int_equal(t.cpu[15].core_type, TOPO_CORE_E);
	k = topology_percore_cache(&t, 9);
	assert_int_equal(k->level, 2);
	assert_int_equal(k->size_bytes, 4ULL << 20);
	assert_string_equal(topology_cache_scope(&t, 9, k), "per-cluster");
	k = topology_percore_cache(&t, 3);
	assert_int_equal(k->level, 2);
	assert_int_equal(k->size_bytes, 1280 * 1024);
	assert_string_equal(topology_cache_scope(&t, 3, k), "per-core");
	assert_int_equal(topology_calib_cache(&t, 13, 0, NULL, "test", &ch), 0);
	assert_int_equal(ch.size_bytes, 4ULL << 20);
	assert_string_equal(ch.scope, "per-cluster");
	assert_string_equal(ch.what, "L2 Unified 4 MiB of CPU 13 (from sysfs), the largest "
			    "per-cluster cache (shared by CPUs 12-15)");
	assert_int_equal(topology_calib_cache(&t, 1, 0, NULL, "test", &ch), 0);
	assert_string_equal(ch.what, "L2 Unified 1.2 MiB of CPU 1 (from sysfs), the largest "
			    "per-core cache");
	/* --level 1 on an E-core is its own L1d. */
	assert_int_equal(topology_calib_cache(&t, 8, 1, NULL, "test", &ch), 0);
	assert_int_equal(ch.size_bytes, 32 * 1024);
	/* SMT = 0, the shared L3 = 1: clusters are not a scheduler level here. */
	assert_int_equal(topology_distance(&t, 0, 1), 0);
	assert_int_equal(topology_distance(&t, 0, 8), 1);
	assert_int_equal(topology_distance(&t, 8, 12), 1);
	sum = fs_summary(&t);
	assert_non_null(strstr(sum, "16 online CPUs (0-15), 12 cores, 1 package, 2 threads per "
			       "core; P-cores 0-7, E-cores 8-15\n"));
	assert_non_null(strstr(sum, "  L2 Unified     1.2 MiB, shared by CPUs 0-1 (sysfs; P-core "
			       "CPU 0)\n"));
	assert_non_null(strstr(sum, "  L2 Unified     4 MiB, shared by CPUs 8-11 (sysfs; E-core "
			       "CPU 8)\n"));
	free(sum);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

/* A tree without cache directories: no size is made up, and the reason is kept. */
static void tree_without_caches(void **state)
{
	char *root = fs_tempdir(), *sum, why[256];
	struct topo_choice ch;
	struct topology t;

	(void)state;
	make_tree_nocache(root, 4, 2);
	assert_int_equal(topology_read(root, &t), 0);
	for (int cpu = 0; cpu < 4; cpu++)
		assert_int_equal(t.cpu[cpu].ncache, 0);
	assert_non_null(strstr(t.cpu[0].nocache_why, "CPUID describes this machine, not that "
			       "tree"));
	assert_string_equal(topology_cache_source(&t), "none");
	assert_null(topology_percore_cache(&t, 0));
	assert_null(topology_llc(&t, 0));
	assert_false(topology_llc_known(&t, 2, why, sizeof(why)));
	assert_non_null(strstr(why, "no caches for CPU 2: sysfs lists none"));
	assert_int_equal(topology_calib_cache(&t, 0, 0, NULL, "test", &ch), -ENOENT);
	assert_int_equal(topology_calib_cache(&t, 0, 2, NULL, "test", &ch), -ENOENT);
	assert_int_equal(topology_calib_cache(&t, 0, 0, "1M", "test", &ch), 0);
	assert_int_equal(ch.size_bytes, 1 << 20);
	assert_string_equal(ch.source, "--size");
	assert_null(ch.cache);
	assert_string_equal(ch.what, "1 MiB cache given by --size");
	assert_int_equal(topology_calib_cache(&t, 0, 0, "12Q", "test", &ch), -EINVAL);
	/* SMT = 0, then the package: an unknown LLC is no level. */
	assert_int_equal(topology_distance(&t, 0, 1), 0);
	assert_int_equal(topology_distance(&t, 0, 2), 1);
	sum = fs_summary(&t);
	assert_non_null(strstr(sum, "; no caches for CPU 0: sysfs lists none under "));
	assert_null(strstr(sum, "  L"));
	free(sum);
	topology_free(&t);

	assert_int_equal(topology_read_caches(root, TOPO_CACHES_SYSFS, &t), 0);
	assert_string_equal(t.cpu[1].nocache_why, "sysfs lists none and --caches sysfs leaves "
			    "CPUID out");
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

static void caches_arg(void **state)
{
	enum topo_caches c = TOPO_CACHES_SYSFS;

	(void)state;
	assert_int_equal(topology_caches_arg("auto", &c), 0);
	assert_int_equal(c, TOPO_CACHES_AUTO);
	assert_int_equal(topology_caches_arg("cpuid", &c), 0);
	assert_int_equal(c, TOPO_CACHES_CPUID);
	assert_int_equal(topology_caches_arg("sysfs", &c), 0);
	assert_int_equal(c, TOPO_CACHES_SYSFS);
	assert_int_equal(topology_caches_arg("CPUID", &c), -EINVAL);
	assert_int_equal(topology_caches_arg("", &c), -EINVAL);
}

static void missing_tree(void **state)
{
	struct topology t;

	(void)state;
	assert_int_not_equal(topology_read("/nonexistent-migtrace", &t), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_cpu_machine),
		cmocka_unit_test(two_socket_smt),
		cmocka_unit_test(amd_ccx_machine),
		cmocka_unit_test(hybrid_machine),
		cmocka_unit_test(tree_without_caches),
		cmocka_unit_test(caches_arg),
		cmocka_unit_test(missing_tree),
	};

	return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}
